"""`compare --resume` keeps what a run found (issue 53): it goes on only with the puzzles
the run started with, and it does not rewrite who measured the records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_harness import puzzle_file, records

from sudokulab import datasets
from sudokulab.cli import main
from sudokulab.formats.text import format_line
from sudokulab.harness import provenance


def lines(first: int, count: int) -> list[str]:
    """top95's puzzles first .. first + count - 1, one per line."""
    return [format_line(p) for p in datasets.load("top95")[first:first + count]]


def run_on_file(tmp_path: Path, capsys) -> tuple[Path, Path]:
    """A finished norvig run over a file of four puzzles: the file and the run folder."""
    file, out = puzzle_file(tmp_path, lines(0, 4)), tmp_path / "run"
    assert main(["compare", "--file", str(file), "-b", "norvig", "--jobs", "1",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    return file, out


@pytest.mark.parametrize("edit", ["replaced", "deleted", "added"])
def test_resume_refuses_a_file_whose_puzzles_changed_since_the_run_started(
        edit, tmp_path, capsys):
    file, out = run_on_file(tmp_path, capsys)
    text = lines(0, 4)
    if edit == "replaced":
        text[2] = lines(10, 1)[0]
    elif edit == "deleted":
        del text[1]
    else:
        text.append(lines(10, 1)[0])
    file.write_text("\n".join(text) + "\n")
    assert main(["compare", "--resume", "--out", str(out)]) == 2
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    assert stderr.splitlines() == [
        f"sudokulab: error: the puzzles of {file} are not those the run in {out} started "
        f"with: start a new run"]
    assert len(records(out)) == 4  # nothing solved, nothing paired with a wrong puzzle


def test_resume_goes_on_with_the_same_puzzles_written_otherwise(tmp_path, capsys):
    file, out = run_on_file(tmp_path, capsys)
    file.write_text("# the same puzzles, with a comment\n\n" + file.read_text())
    assert main(["compare", "--resume", "--out", str(out)]) == 0
    assert len(records(out)) == 4


def test_a_changed_setting_is_named_as_it_is_typed(tmp_path, capsys):
    """'--warm' and '--timeout 3', not '--warm True' and '--timeout 3.0'."""
    _, out = run_on_file(tmp_path, capsys)
    assert main(["compare", "--resume", "--out", str(out), "--warm", "--timeout", "3"]) == 2
    said = capsys.readouterr().err
    assert "other settings than --warm, --timeout 3;" in said or \
        "other settings than --timeout 3, --warm;" in said, said


EARLIER = {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": False,
           "version": "0.0.1+g0123456"}


def stopped_after_two(monkeypatch) -> None:
    """Make the next run stop (as Ctrl-C does) once two puzzles are answered."""
    from sudokulab.harness import compare as service

    real = service.run_backend

    def two_then_stop(spec, todo, options, **kwargs):
        real(spec, todo[:2], options, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(service, "run_backend", two_then_stop)


def measured_earlier(out: Path) -> None:
    """Say in meta.json that the run's sessions so far ran at the EARLIER commit."""
    meta = json.loads((out / "meta.json").read_text())
    for session in meta["sessions"]:
        session["source"] = dict(EARLIER)
    meta["environment"]["source"] = dict(EARLIER)
    meta["environment"].pop("sources", None)
    (out / "meta.json").write_text(json.dumps(meta))


def test_resuming_a_finished_run_keeps_the_code_that_measured_it(tmp_path, capsys):
    _, out = run_on_file(tmp_path, capsys)
    measured_earlier(out)
    assert main(["compare", "--resume", "--out", str(out)]) == 0  # nothing left to solve
    environment = json.loads((out / "meta.json").read_text())["environment"]
    assert environment["source"] == EARLIER
    assert environment["sources"] == [{**EARLIER, "records": 4}]
    footer = (out / "summary.md").read_text().splitlines()[-1]
    assert footer.startswith("Measured by sudokulab 0.0.1+g0123456, commit 0123456789ab, in ")
    assert main(["compare", "--cite", "--out", str(out)]) == 0
    cited = capsys.readouterr().out
    assert f"commit {EARLIER['commit']}" in cited and provenance.commit() not in cited


def test_a_run_resumed_by_other_code_names_each_with_its_records(tmp_path, capsys,
                                                                  monkeypatch):
    file, out = puzzle_file(tmp_path, lines(0, 4)), tmp_path / "run"
    stopped_after_two(monkeypatch)
    assert main(["compare", "--file", str(file), "-b", "norvig", "--jobs", "1",
                 "--out", str(out)]) == 130
    monkeypatch.undo()
    measured_earlier(out)
    assert main(["compare", "--resume", "--out", str(out)]) == 0
    assert len(records(out)) == 4
    now = provenance.source()
    environment = json.loads((out / "meta.json").read_text())["environment"]
    assert environment["source"] == EARLIER
    assert environment["sources"] == [{**EARLIER, "records": 2}, {**now, "records": 2}]
    footer = (out / "summary.md").read_text().splitlines()[-1]
    assert (f"Measured by sudokulab 0.0.1+g0123456, commit 0123456789ab (2 records) and "
            f"sudokulab {now['version']}, commit {now['commit'][:12]}") in footer
    capsys.readouterr()
    assert main(["compare", "--cite", "--out", str(out)]) == 0
    cited = capsys.readouterr().out
    assert f"commit {EARLIER['commit']}" in cited
    assert f"records also measured by version {now['version']}" in cited
    measured = next(line for line in cited.splitlines() if "measured by  " in line)
    assert f"commit {EARLIER['commit']}: 2 records" in measured
    assert f"commit {now['commit']}" in measured and measured.endswith(": 2 records")
