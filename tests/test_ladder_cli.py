"""Issue 53: `sudokulab ladder` as trustworthy as solve and compare, through the real command
line: broken puzzles left out of the averages and named, bad input and options refused in
one line with exit 2, unsupported levels exit 5, and Ctrl-C or SIGTERM keep a partial table
that --resume finishes, with no process left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from sudokulab import datasets

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
NO_SOLUTION = "46....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SEVERAL = "." * 81
SAMURAI = Path(__file__).parent / "data" / "samurai.txt"
SUDOKULAB = [sys.executable, "-m", "sudokulab", "ladder"]


def ladder(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`sudokulab ladder ARGS`, its output captured."""
    return subprocess.run([*SUDOKULAB, *args], capture_output=True, text=True, cwd=cwd)


def one_line(done: subprocess.CompletedProcess) -> str:
    """The one line of an error on stderr (asserting there is one, and no traceback)."""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def puzzles(tmp_path: Path, *lines: str, name: str = "p.txt") -> str:
    """A file of puzzles, one a line."""
    path = tmp_path / name
    path.write_text("".join(f"{line}\n" for line in lines))
    return str(path)


# --- puzzles with no solution or several ---------------------------------------------------

def test_puzzles_with_no_or_several_solutions_are_left_out_of_the_averages(tmp_path):
    mixed = puzzles(tmp_path, EASY, NO_SOLUTION, SEVERAL)
    only = puzzles(tmp_path, EASY, name="one.txt")
    done = ladder("--file", mixed, "--levels", "norvig,human:singles", "--format", "json")
    alone = ladder("--file", only, "--levels", "norvig,human:singles", "--format", "json")
    assert done.returncode == 6, done.stderr  # several solutions comes before none
    assert "Traceback" not in done.stderr
    report, clean = json.loads(done.stdout)[mixed], json.loads(alone.stdout)[only]
    assert report["excluded"] == {"no solution": [2], "several solutions": [3]}
    assert report["levels"] == clean["levels"]  # the broken puzzles changed no figure
    assert "puzzle 2" in done.stderr and "no solution" in done.stderr
    assert "puzzle 3" in done.stderr and "several solutions" in done.stderr


def test_the_table_names_the_puzzles_left_out_and_no_solution_alone_exits_1(tmp_path):
    done = ladder("--file", puzzles(tmp_path, EASY, NO_SOLUTION), "--levels", "norvig")
    assert done.returncode == 1, done.stderr
    assert "1/1" in done.stdout
    assert "left out of the averages: 1 puzzle(s) with no solution: #2" in done.stdout


# --- bad input ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "hello world\n", "\n\n"], ids=["empty", "garbage", "blank"])
def test_a_file_with_no_readable_puzzle_is_one_line_and_exit_2(tmp_path, text):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    done = ladder("--file", str(path))
    assert done.returncode == 2, done.stderr
    assert str(path) in one_line(done)
    assert done.stdout == ""


def test_a_bad_puzzle_among_good_ones_is_named_and_skipped_with_exit_2(tmp_path):
    done = ladder("--file", puzzles(tmp_path, EASY, "hello", EASY), "--levels", "norvig")
    assert done.returncode == 2, done.stderr
    assert "p.txt:2" in done.stderr and "Traceback" not in done.stderr
    assert "2/2" in done.stdout


@pytest.mark.parametrize("text,why", [
    ("[]", "not a ladder report"), ('{"a": 1}', "not a ladder report"),
    ("{}", "no dataset"), ("not json", "not JSON"),
    ('{"a": {"levels": [{"level": "x"}]}}', "not a ladder report"),
], ids=["list", "number", "empty", "text", "row"])
def test_merge_of_json_that_is_no_ladder_report_is_one_line_naming_the_file(tmp_path, text,
                                                                             why):
    path = tmp_path / "x.json"
    path.write_text(text)
    done = ladder("--merge", str(path))
    assert done.returncode == 2, done.stderr
    line = one_line(done)
    assert str(path) in line and why in line, line
    assert done.stdout == ""


# --- unsupported levels ------------------------------------------------------------------

def test_a_level_that_cannot_take_a_puzzle_is_unsupported_and_exits_5(tmp_path):
    done = ladder("--file", str(SAMURAI), "--levels", "norvig,human:singles")
    assert done.returncode == 5, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("human:singles"))
    assert "unsupported" in row
    assert "human:singles" in done.stderr and "cannot take" in done.stderr
    assert "Traceback" not in done.stderr


def test_json_and_csv_give_no_figures_for_a_level_that_took_no_puzzle():
    """Before: percent 0.0 and candidates_left 0.0 (which reads "solved") for 0 puzzles."""
    done = ladder("--file", str(SAMURAI), "--levels", "norvig,human:singles", "--format", "json")
    levels = {row["level"]: row for row in next(iter(json.loads(done.stdout).values()))["levels"]}
    empty = levels["human:singles"]
    assert done.returncode == 5 and empty["puzzles"] == 0 and empty["unsupported"]
    assert (empty["percent"], empty["candidates_left"]) == (None, None)
    assert levels["norvig"]["percent"] == 100.0
    done = ladder("--file", str(SAMURAI), "--levels", "norvig,human:singles", "--format", "csv")
    rows = {line.split(",")[1]: line.split(",") for line in done.stdout.splitlines()}
    header = done.stdout.splitlines()[0].split(",")
    empty_row = dict(zip(header, rows["human:singles"], strict=True))
    assert empty_row["percent"] == empty_row["candidates_left"] == ""
    assert empty_row["unsupported"] == "1"


# --- options -----------------------------------------------------------------------------

def test_timeout_0_means_no_limit(tmp_path):
    done = ladder("--file", puzzles(tmp_path, EASY), "--levels", "human:singles",
                  "--timeout", "0", "--format", "json")
    assert done.returncode == 0, done.stderr
    row = next(iter(json.loads(done.stdout).values()))["levels"][0]
    assert row["finished"] == 1 and row["timed_out"] == {}


@pytest.mark.parametrize("args,named", [
    (["--merge", "x.json", "--levels", "sat"], "--levels"),
    (["--merge", "x.json", "--jobs", "2"], "--jobs"),
    (["--merge", "x.json", "--timeout", "5"], "--timeout"),
    (["--dataset", ""], "--dataset"),
    (["--dataset", " , "], "--dataset"),
    (["--levels", ""], "--levels"),
    (["--out", ""], "--out"),
    (["--resume"], "--out"),
], ids=["merge-levels", "merge-jobs", "merge-timeout", "empty-dataset", "blank-dataset",
        "empty-levels", "empty-out", "resume-no-out"])
def test_options_that_would_be_ignored_are_a_usage_error(tmp_path, args, named):
    (tmp_path / "x.json").write_text("{}")
    done = ladder(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert named in one_line(done)
    assert done.stdout == ""


def test_an_unwritable_out_is_refused_before_the_run(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = blocker / "sub"
    done = ladder("--dataset", "top95", "--out", str(out))
    assert done.returncode == 2, done.stderr
    assert str(out) in one_line(done)  # one line: no progress, so no run before it


def test_help_lists_exit_codes_and_examples():
    done = subprocess.run([*SUDOKULAB, "--help"], capture_output=True, text=True, check=True,
                          env={**os.environ, "COLUMNS": "200"})
    assert "examples:" in done.stdout and "--resume" in done.stdout
    for code in ("0", "1", "2", "5", "6", "130", "143"):
        assert f"\n  {code} " in done.stdout, code


# --- Ctrl-C and SIGTERM ------------------------------------------------------------------

def start(*args: str) -> subprocess.Popen:
    """`sudokulab ladder ARGS` with Ctrl-C's default action (even where the tests run with
    SIGINT ignored), its output piped."""
    return subprocess.Popen([*SUDOKULAB, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def first_results(child: subprocess.Popen, log: Path, count: int = 1) -> list[psutil.Process]:
    """Wait until the run has written `count` puzzles' results; its descendants then."""
    while child.poll() is None:
        if log.exists() and log.read_text().count("\n") > count:  # the settings line too
            return psutil.Process(child.pid).children(recursive=True)
        time.sleep(0.05)
    pytest.fail(f"ladder ended first: {child.returncode} {child.stderr.read()[-2000:]}")


def stop(child: subprocess.Popen, signum: int, log: Path, count: int = 1
         ) -> tuple[int, str, str]:
    """Send `signum` after the first results; the exit code and output; and no process of
    the run left."""
    descendants = first_results(child, log, count)
    child.send_signal(signum)
    out, err = child.communicate()
    _, alive = psutil.wait_procs(descendants, timeout=30)
    assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE], alive
    return child.returncode, out, err


@pytest.mark.parametrize("levels,signum,code", [
    ("cpsat", signal.SIGTERM, 143),
    ("smt", signal.SIGTERM, 143),
    ("cpsat", signal.SIGINT, 130),
], ids=["cpsat-sigterm", "smt-sigterm", "cpsat-ctrl-c"])
def test_a_signal_prints_the_partial_table_and_the_exit_code(tmp_path, levels, signum, code):
    out = tmp_path / "run"
    child = start("--dataset", "top1465", "--levels", levels, "--out", str(out))
    returncode, stdout, stderr = stop(child, signum, out / "ladder.jsonl")
    assert returncode == code, stderr
    assert "Traceback" not in stderr
    assert "(partial: " in stdout and " of 1,465 puzzles)" in stdout
    assert "--resume" in stderr and str(out) in stderr


def test_workers_are_ended_on_sigterm_and_the_run_resumes(tmp_path):
    out, hard = tmp_path / "run", [p.strip() for p in datasets.lines("top1465")[:80]]
    args = ("--file", puzzles(tmp_path, *hard), "--levels", "cpsat,norvig", "--out", str(out))
    child = start(*args, "--jobs", "2")
    returncode, stdout, stderr = stop(child, signal.SIGTERM, out / "ladder.jsonl")
    assert returncode == 143, stderr
    kept = (out / "ladder.jsonl").read_text().count("\n") - 1
    assert 0 < kept < 80
    assert f"terminated: {kept} puzzle(s) kept in" in stderr  # what the file holds
    resumed = ladder("--resume", "--out", str(out), "--format", "json")
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming {out}: {kept} of 80 puzzles done" in resumed.stderr
    report = json.loads(resumed.stdout)[args[1]]
    assert not report["partial"] and report["done"] == 80
    fresh = json.loads(ladder(*args[:4], "--format", "json").stdout)[args[1]]
    assert report["levels"] == fresh["levels"] and report["agreement"] == fresh["agreement"]
    assert (out / "ladder.json").exists() and not (out / "ladder.jsonl").exists()


def test_a_run_in_out_is_not_overwritten_without_resume(tmp_path):
    out = tmp_path / "run"
    child = start("--dataset", "top1465", "--levels", "cpsat", "--out", str(out))
    assert stop(child, signal.SIGINT, out / "ladder.jsonl")[0] == 130
    again = ladder("--dataset", "top1465", "--out", str(out))
    assert again.returncode == 2 and "--resume" in one_line(again)
    other = ladder("--resume", "--out", str(out), "--levels", "norvig")
    assert other.returncode == 2 and "--levels" in one_line(other)
    endless = ladder("--resume", "--out", str(out), "--timeout", "0")
    assert endless.returncode == 2 and "--timeout" in one_line(endless)
    (out / "ladder.jsonl").write_text("not json\n")
    broken = ladder("--resume", "--out", str(out))
    assert broken.returncode == 2 and "no unfinished ladder run" in broken.stderr
    assert "Traceback" not in broken.stderr
