"""compare --certify DIR (issue 56): each puzzle's verdict proved once, its certificate in
DIR for `sudokulab verify`, the summary's column certified (verdicts proved / given), and
an answer a certificate contradicts reported as a wrong answer, even where no other
engine could refute it."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab.cli import main
from sudokulab.formats.text import format_line

KILLERS = Path(__file__).parent / "data" / "killers.jsonl"


def compare(tmp_path: Path, *arguments: str) -> int:
    """compare into tmp_path/run, certificates into tmp_path/certs; the exit code."""
    return main(["compare", *arguments, "--out", str(tmp_path / "run"), "--jobs", "1",
                 "--certify", str(tmp_path / "certs")])


def summary(tmp_path: Path) -> dict[str, dict[str, str]]:
    """summary.csv's rows by backend."""
    with (tmp_path / "run" / "summary.csv").open() as rows:
        return {row["backend"]: row for row in csv.DictReader(rows)}


def test_every_puzzle_gets_a_certificate_that_verify_accepts(tmp_path, capsys):
    assert compare(tmp_path, "--dataset", "top95", "--sample", "3", "-b", "norvig,sat") == 0
    out = capsys.readouterr().out
    certificates = sorted(p.name for p in (tmp_path / "certs").glob("*.json"))
    proofs = [json.loads(line) for line in
              (tmp_path / "run" / "certified.jsonl").read_text().splitlines()]
    assert len(certificates) == len(proofs) == 3
    assert all(name.startswith("top95-") for name in certificates)
    assert {p["verdict"] for p in proofs} == {"unique"}
    assert main(["verify", str(tmp_path / "certs")]) == 0
    assert "3 of 3 accepted" in capsys.readouterr().out
    for row in summary(tmp_path).values():
        assert (row["certified proved"], row["certified given"]) == ("3", "3")
    assert "3/3" in out and "Certified: 3 of 3 puzzles (unique 3)" in out
    assert "## Certified verdicts" in (tmp_path / "run" / "summary.md").read_text()


def test_a_variant_file_is_certified_under_its_own_name(tmp_path, capsys):
    assert compare(tmp_path, "--file", str(KILLERS), "--sample", "2", "-b", "sat") == 0
    assert sorted(p.name.split("-")[0] for p in (tmp_path / "certs").glob("*.json")) == [
        "killers", "killers"]
    assert main(["verify", str(tmp_path / "certs")]) == 0
    assert summary(tmp_path)["sat"]["certified proved"] == "2"


def test_a_wrong_engine_is_disproved_beside_a_right_one(test_backends, tmp_path, capsys):
    code = compare(tmp_path, "--dataset", "top95", "--sample", "2",
                   "-b", "norvig,test-wrong:mode=none")
    err = capsys.readouterr().err
    assert code == 4
    rows = summary(tmp_path)
    assert (rows["norvig"]["certified proved"], rows["norvig"]["certified given"]) == ("2", "2")
    wrong = rows["test-wrong:mode=none"]
    assert (wrong["certified proved"], wrong["certified given"], wrong["wrong"]) == (
        "0", "2", "2")  # wrong once per puzzle, though both checks refute it
    assert err.count("DISPROVED") == 2
    assert "it claims none, the certificate proves unique" in err


def test_a_wrong_engine_alone_is_disproved_by_the_certificates_alone(test_backends, tmp_path,
                                                                     capsys):
    """No other engine answers, and `none` returns no grid to check: only the proof
    refutes it."""
    lines = [format_line(p) for p in datasets.load("top95")[:2]]
    (tmp_path / "two.txt").write_text("\n".join(lines) + "\n")
    assert main(["compare", "--file", str(tmp_path / "two.txt"), "-b", "test-wrong:mode=none",
                 "--out", str(tmp_path / "plain"), "--jobs", "1"]) == 1  # believed: none
    capsys.readouterr()
    assert compare(tmp_path, "--file", str(tmp_path / "two.txt"),
                   "-b", "test-wrong:mode=none") == 4
    out = capsys.readouterr().out
    assert "0/2" in out and "DISPROVED by its certificate" in out
    findings = (tmp_path / "run" / "summary.md").read_text()
    assert "sudokulab verify" in findings and "DISPROVED" in findings


def test_the_api_returns_the_certified_verdicts(tmp_path):
    import sudokulab as sl

    puzzles = [format_line(p) for p in datasets.load("top95")[:2]]
    result = sl.compare(puzzles, ["norvig"], certify=tmp_path / "certs", progress=False,
                        jobs=1)
    assert result.certified() == {"norvig": (2, 2)}
    assert {p.verdict for p in result.proofs.values()} == {"unique"}
    assert all(Path(p.certificate).is_file() for p in result.proofs.values())
    assert "certified" in result.summary()


@pytest.mark.parametrize("certify, says", [("run", "is the run folder"),
                                          ("file.txt", "is a file")])
def test_a_folder_that_cannot_hold_only_certificates_is_refused(tmp_path, capsys, certify,
                                                                says):
    (tmp_path / "file.txt").write_text("x")
    code = main(["compare", "-d", "top95", "--sample", "1", "-b", "norvig",
                 "--out", str(tmp_path / "run"), "--certify", str(tmp_path / certify)])
    assert code == 2 and says in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_resumed_run_keeps_the_certificates_it_has(tmp_path, capsys):
    assert compare(tmp_path, "--dataset", "top95", "--sample", "2", "-b", "norvig") == 0
    first = (tmp_path / "run" / "certified.jsonl").read_text()
    (tmp_path / "run" / "summary.md").unlink()
    assert main(["compare", "--resume", "--out", str(tmp_path / "run"),
                 "--certify", str(tmp_path / "certs")]) == 0
    assert (tmp_path / "run" / "certified.jsonl").read_text() == first  # none made again
    assert "2/2" in capsys.readouterr().out


def test_a_resume_certifying_in_another_folder_is_refused(tmp_path, capsys):
    """It said 'certifying in OTHER' and wrote nothing there: the certificates stay with
    the run's folder, and the resume says so."""
    assert compare(tmp_path, "--dataset", "top95", "--sample", "2", "-b", "norvig") == 0
    (tmp_path / "run" / "summary.md").unlink()
    capsys.readouterr()
    assert main(["compare", "--resume", "--out", str(tmp_path / "run"),
                 "--certify", str(tmp_path / "other")]) == 2
    said = capsys.readouterr().err
    assert f"certifies in {tmp_path / 'certs'}: resume without --certify" in said
    assert not (tmp_path / "other").exists() and not (tmp_path / "run" / "summary.md").exists()


def test_ctrl_c_while_certifying_prints_the_table_and_how_to_finish(tmp_path, capsys,
                                                                     monkeypatch):
    from sudokulab.harness import certified

    real = certified.prove

    def stopped_after_two(puzzle, index, folder, dataset):
        if len(list((tmp_path / "certs").glob("*.json"))) == 2:
            raise KeyboardInterrupt
        return real(puzzle, index, folder, dataset)

    monkeypatch.setattr(certified, "prove", stopped_after_two)
    assert compare(tmp_path, "--dataset", "top95", "--sample", "4", "-b", "norvig") == 130
    out, err = capsys.readouterr()
    assert out.startswith("PARTIAL: stopped by Ctrl-C: 4 of the 4 answers asked for (one per "
                          "backend and puzzle) finished, 2 of the 4 puzzles certified")
    assert "norvig" in out and "2/4" in out  # the table, its column certified
    assert f"--resume --out {tmp_path / 'run'}" in err and "2 of the 4 puzzles certified" in err
    monkeypatch.setattr(certified, "prove", real)
    assert main(["compare", "--resume", "--out", str(tmp_path / "run"),
                 "--certify", str(tmp_path / "certs")]) == 0
    assert "4/4" in capsys.readouterr().out  # the resumed run certified the other two


@pytest.mark.parametrize("stage", ["solving", "certifying"])
def test_a_run_stopped_while_certifying_or_before_resumes_certifying(stage, tmp_path, capsys,
                                                                     monkeypatch):
    """`--resume --out RUN`, as the stopped run prints it (no --certify): the run's
    certificates folder is its session's, so the resumed run certifies the rest."""
    from sudokulab.harness import certified
    from sudokulab.harness import compare as harness

    real_prove, real_solve = certified.prove, harness._solve

    def stopped_after_two(puzzle, index, folder, dataset):
        if len(list((tmp_path / "certs").glob("*.json"))) == 2:
            raise KeyboardInterrupt
        return real_prove(puzzle, index, folder, dataset)

    def stopped_at_its_end(*arguments, **keywords):  # before any proof
        records, _ = real_solve(*arguments, **keywords)
        return records, KeyboardInterrupt()

    if stage == "certifying":
        monkeypatch.setattr(certified, "prove", stopped_after_two)
    else:
        monkeypatch.setattr(harness, "_solve", stopped_at_its_end)
    assert compare(tmp_path, "--dataset", "top95", "--sample", "4", "-b", "norvig") == 130
    printed = capsys.readouterr().err.strip().splitlines()[-1].split()
    assert printed[:4] == ["sudokulab", "compare", "--resume", "--out"]
    monkeypatch.setattr(certified, "prove", real_prove)
    monkeypatch.setattr(harness, "_solve", real_solve)
    assert main(printed[1:]) == 0
    out, err = capsys.readouterr()
    assert f"certifying in {tmp_path / 'certs'}" in err
    assert "4/4" in out and len(list((tmp_path / "certs").glob("*.json"))) == 4
