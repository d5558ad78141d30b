"""Issue 53's leftovers, each through the surface a user meets it on.

- `verify` stopped by Ctrl-C or SIGTERM prints the certificates it checked (LOST-3).
- A stopped `generate --out F` says in F that it holds fewer puzzles than its header asks
  for; an unwritable --out is named (COSMETIC-2, -3).
- `-b 'sat:'` is refused (COSMETIC-4).
- `sl.time_limit`, `sl.compare(sample=)`, `sl.verify(folder)` and `sl.solve(dict)` speak
  the API's words and take what the command line takes (COSMETIC-5, -6, -7).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import LONG_COUNT
from test_process_tree import (
    PATIENCE,
    POLL,
    SIGNALS,
    assert_stopped,
    ended,
    signal_and_collect,
    start,
)

import sudokulab.api as sl
from sudokulab.check import is_solution
from sudokulab.cli import main
from sudokulab.errors import (
    BackendError,
    CertificateRejected,
    Exit,
    InputError,
    PuzzleError,
    UsageError,
)
from sudokulab.formats.text import from_json
from sudokulab.result import Status

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
DATA = Path(__file__).parent / "data"


def lines_out(process: subprocess.Popen, count: int) -> None:
    """Wait until the running command has printed `count` lines on stdout."""
    out = process.files[0]  # type: ignore[attr-defined]
    give_up = time.monotonic() + PATIENCE
    while (out.seek(0), out.read().count("\n"))[1] < count:
        assert process.poll() is None, f"ended before the signal: {ended(process)}"
        assert time.monotonic() < give_up, "never printed its lines"
        time.sleep(POLL)


# --- verify: stopped, it keeps the rows it checked (LOST-3) ---------------------------------

@pytest.fixture(scope="module")
def certified(tmp_path_factory) -> Path:
    """A folder of top95's 95 certificates, made by `solve --certify`."""
    from sudokulab import datasets
    from sudokulab.puzzle import line_of

    folder = tmp_path_factory.mktemp("certs")
    given = folder.parent / "top95.txt"
    given.write_text("".join(f"{line_of(p.givens)}\n" for p in datasets.load("top95")))
    subprocess.run([sys.executable, "-m", "sudokulab", "solve", "--file", str(given), "-b",
                    "norvig", "--certify", str(folder)], check=True, capture_output=True)
    assert len(list(folder.glob("*.json"))) == 95
    return folder


@SIGNALS
def test_a_stopped_verify_prints_each_certificate_it_checked(signum, certified):
    folders = [str(certified)] * 3  # 285 checks: several seconds, the signal comes midway
    process = start("verify", *folders)
    lines_out(process, 2 + 3)  # the header, its rule and three certificates
    code, out, err = signal_and_collect(process, signum)
    assert_stopped(code, err, signum)
    assert "Traceback" not in err
    head, _, tail = out.partition("\n\n")
    rows = head.splitlines()[2:]
    names = [path.name for path in sorted(certified.glob("*.json"))] * 3
    assert 3 <= len(rows) < len(names)
    assert [row.split()[0] for row in rows] == names[:len(rows)]
    assert all(row.split()[2] == "accepted" for row in rows)
    assert tail.strip() == (f"{len(rows)} of {len(rows)} accepted "
                            f"(stopped after {len(rows)} of {len(names)})")


def test_verify_still_prints_a_row_per_certificate_and_the_total(certified, capsys):
    assert main(["verify", str(certified)]) == 0
    out = capsys.readouterr().out
    assert out.count(" accepted ") == 95 and out.rstrip().endswith("95 of 95 accepted")


# --- generate: a stopped file says so; an unwritable --out is named (COSMETIC-2, -3) -----

@SIGNALS
def test_a_stopped_generate_says_in_its_file_how_many_it_holds(signum, tmp_path):
    path = tmp_path / "made.txt"
    process = start("generate", "-n", "300", "--out", str(path))
    give_up = time.monotonic() + PATIENCE
    while not path.exists() or sum(not line.startswith("#")
                                   for line in path.read_text().splitlines()) < 3:
        assert process.poll() is None, f"ended before the signal: {ended(process)}"
        assert time.monotonic() < give_up, "never wrote a puzzle"
        time.sleep(POLL)
    code, out, err = signal_and_collect(process, signum)
    assert_stopped(code, err, signum)
    lines = path.read_text().splitlines()
    made = [line for line in lines if not line.startswith("#")]
    assert 3 <= len(made) < 300 and all(len(line) == 81 for line in made)
    assert any(line.startswith("# 300 puzzle(s)") for line in lines)  # the header asked 300
    why = "interrupted (SIGTERM)" if signum == signal.SIGTERM else "interrupted (Ctrl-C)"
    assert lines[-1] == f"# cut short: {len(made)} of the 300 puzzle(s) written; {why}"


def test_an_unwritable_generate_out_is_named(tmp_path, capsys):
    where = tmp_path / "no such folder" / "x.txt"
    assert main(["generate", "-n", "2", "--out", str(where)]) == Exit.INPUT
    assert main(["generate", "-n", "2", "--out", str(tmp_path)]) == Exit.INPUT
    err = capsys.readouterr().err.splitlines()
    assert err == [f"sudokulab: error: --out {where}: cannot write it: No such file or "
                   f"directory",
                   f"sudokulab: error: --out {tmp_path}: cannot write it: Is a directory"]


# --- a backend spec with a ':' and nothing after it (COSMETIC-4) --------------------------

@pytest.mark.parametrize("spec", ["sat:", "norvig: ", "sat:,"])
def test_a_colon_without_options_is_refused(spec, capsys):
    assert main(["solve", EASY, "-b", spec]) == Exit.INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"backend spec {spec!r} has no option" in err
    with pytest.raises(BackendError, match="has no option after its ':'"):
        sl.solve(EASY, backend=spec)


# --- the API's words (COSMETIC-5, -6) -----------------------------------------------------

def test_time_limit_says_what_it_takes():
    with pytest.raises(UsageError, match=r"^time_limit: value -1: give seconds, 0 or more"):
        sl.time_limit(-1)
    with pytest.raises(UsageError, match=r"^time_limit: value nan"):
        sl.time_limit(float("nan"))
    with pytest.raises(TypeError, match=r"^time_limit: value must be a number of seconds "
                                        r".*, not str$"):
        sl.time_limit("x")
    assert sl.time_limit(0) is None and sl.time_limit(2) == 2.0


def test_compare_names_sample_as_the_api_spells_it(capsys):
    sl.compare([EASY], backends="norvig", sample=5, jobs=1, progress=False)
    err = capsys.readouterr().err
    assert "warning: sample=5 of 1 puzzles: running all 1" in err and "--sample" not in err


def test_the_command_names_sample_as_the_command_line_spells_it(tmp_path, capsys):
    given = tmp_path / "one.txt"
    given.write_text(EASY + "\n")
    assert main(["compare", "--file", str(given), "-b", "norvig", "--sample", "5", "--jobs",
                 "1", "--out", str(tmp_path / "run")]) == 0
    assert "warning: --sample 5 of 1 puzzles: running all 1" in capsys.readouterr().err


def test_verify_takes_a_folder_as_the_command_does(tmp_path):
    folder = tmp_path / "certs"
    made = [sl.certify(EASY, folder), sl.certify("." * 16, folder)]
    reports = sl.verify(folder)
    assert isinstance(reports, list)
    assert [report.path.name for report in reports] == sorted(
        certificate.json_path.name for certificate in made)
    assert [report.verdict for report in reports] == [
        sl.verify(certificate).verdict for certificate in sorted(
            made, key=lambda certificate: certificate.json_path.name)]
    assert main(["verify", str(folder)]) == 0
    bad = made[0].json_path
    data = json.loads(bad.read_text())
    data["count"] = 7
    bad.write_text(json.dumps(data))
    with pytest.raises(CertificateRejected, match=rf"^1 of 2 certificates in {folder} not "
                                                  rf"accepted; the first: {bad.name}: count 7"):
        sl.verify(folder)
    with pytest.raises(InputError, match="no certificate"):
        sl.verify(tmp_path)  # a folder without one, as `sudokulab verify` refuses it


# --- a parsed JSON puzzle (COSMETIC-7) ----------------------------------------------------

def test_solve_takes_a_json_puzzle_as_json_load_gives_it():
    variants = json.loads((DATA / "variants.json").read_text())
    for name, data in variants.items():
        result = sl.solve(data)
        puzzle = from_json(json.dumps(data))
        assert puzzle.rules, name  # each has its rule: the dict's rules are read
        assert result.status is Status.UNIQUE, name
        assert is_solution(puzzle, result.solutions[0]), name


def test_a_dict_that_is_no_json_puzzle_says_why():
    with pytest.raises(PuzzleError, match="'givens'"):
        sl.solve({"box": [3, 3]})
    with pytest.raises(PuzzleError, match="sl.solve: puzzle is no JSON puzzle"):
        sl.solve({"givens": EASY, "rules": {1, 2}})


VERIFY_SCRIPT = """
import importlib
import time
import sudokulab as sl
from sudokulab.errors import VerifyInterrupted

calls = []

def slow(path):  # the second certificate is where Ctrl-C comes
    calls.append(path)
    if len(calls) == 2:
        open({ready!r}, "w").close()
        time.sleep(60)
    return real(path)

module = importlib.import_module("sudokulab.certificates.verify")  # the package's
real = module.verify  # own `verify` is the function
module.verify = slow
try:
    sl.verify({folder!r})
except VerifyInterrupted as stop:
    print(stop.exit_code, [report.verdict for report in stop.reports], len(stop.rejected))
"""


def test_ctrl_c_in_sl_verify_on_a_folder_keeps_the_reports(tmp_path):
    folder, ready = tmp_path / "certs", tmp_path / "ready"
    made = [sl.certify(EASY, folder), sl.certify("." * 16, folder)]
    first = sorted(made, key=lambda certificate: certificate.json_path.name)[0]
    script = tmp_path / "check.py"
    script.write_text(VERIFY_SCRIPT.format(ready=str(ready), folder=str(folder)))
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while not ready.exists():
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate()
    assert process.returncode == 0, stderr
    assert stdout.split() == ["130", f"['{first.verdict}']", "0"]


# --- counts a backend cannot give, grids a format cannot show ------------------------------

def test_a_count_with_the_human_engine_is_refused_naming_why(capsys):
    assert main(["solve", "." * 16, "--count", "-b", "human"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudokulab: error: -b human cannot count: it searches no further")


def test_grids_in_a_one_line_format_are_refused(capsys):
    assert main(["solve", "." * 16, "--count", "--grids", "3", "--format", "line"]) == 2
    assert "--format line prints one line per puzzle (its count), no grids" in \
        capsys.readouterr().err
    assert main(["solve", "." * 16, "--count", "--grids", "3", "--format", "csv"]) == 0
    import csv

    row = list(csv.DictReader(capsys.readouterr().out.splitlines()))[0]
    assert row["count"] == "288" and len(row["grids"].split(",")) == 3


# --- a trace of a search cut short ends on a line saying so --------------------------------

def _cpu(pid: int) -> float:
    """CPU seconds a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@SIGNALS
def test_a_stopped_count_ends_its_trace_on_an_interrupted_line(signum, tmp_path):
    trace = tmp_path / "count.jsonl"
    process = start("solve", LONG_COUNT, "--count", "--trace", str(trace), "--format", "json")
    give_up = time.monotonic() + PATIENCE
    while process.poll() is None and _cpu(process.pid) < 2.0:  # well into the count
        assert time.monotonic() < give_up, "the count never got going"
        time.sleep(POLL)
    code, out, err = signal_and_collect(process, signum)
    assert_stopped(code, err, signum)
    answer = json.loads(out)
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert lines[0]["event"] == "trace" and lines[1]["event"] == "start"
    end = lines[-1]
    assert {key: end[key] for key in ("event", "number", "status", "count", "exact")} == {
        "event": "end", "number": 1, "status": "interrupted", "count": answer["count"],
        "exact": False}
    assert answer["message"].startswith(end["message"])  # the answer adds what it kept
    assert answer["count"] > 0


# --- cpmpy's solvers leave Ctrl-C to the lab -------------------------------------------------

@pytest.mark.parametrize("solver", ["ortools", "z3", "exact"])
def test_ctrl_c_stops_a_cpmpy_run_as_any_engine(solver, tmp_path):
    from sudokulab import datasets
    from sudokulab.backends import make_backend
    from sudokulab.puzzle import line_of

    spec = f"cpmpy:solver={solver}"
    if not make_backend(spec).available().ok:
        pytest.skip(f"{spec} is not installed here")
    given = tmp_path / "top1465.txt"
    given.write_text("".join(f"{line_of(p.givens)}\n" for p in datasets.load("top1465")))
    process = start("solve", "--file", str(given), "-b", spec, "--format", "csv")
    give_up = time.monotonic() + PATIENCE
    while process.poll() is None and _cpu(process.pid) < 3.0:  # well into the file
        assert time.monotonic() < give_up, "the run never got going"
        time.sleep(POLL)
    code, out, err = signal_and_collect(process, signal.SIGINT)
    assert_stopped(code, err, signal.SIGINT)  # it stops: no puzzle after it is tried
    rows = out.splitlines()[1:]
    statuses = [row.split(",")[1] for row in rows]
    assert statuses[-1] == "interrupted" and "Traceback" not in err
    assert set(statuses[:-1]) <= {"unique"}  # no puzzle reads as an error or a timeout
    assert len(rows) < 1465


# --- a second signal soon after the first: the report of what was kept still comes -------

@SIGNALS
def test_a_second_signal_soon_after_the_first_keeps_grades_partial_report(signum, tmp_path):
    top = tmp_path / "top1465.txt"
    from sudokulab import datasets
    from sudokulab.puzzle import line_of

    top.write_text("".join(f"{line_of(p.givens)}\n" for p in datasets.load("top1465")))
    process = start("grade", "--file", str(top))
    lines_out(process, 3)  # a few puzzles graded
    os.kill(process.pid, signum)
    time.sleep(0.01)  # the second while the first is answered (it lost the table)
    code, out, err = signal_and_collect(process, signum)
    assert_stopped(code, err, signum)
    assert "PARTIAL" in out and out.rstrip().splitlines()[-1].split()[0] in (
        "Easy", "Medium", "Hard", "Unfair", "Extreme"), out[-400:]
