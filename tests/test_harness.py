"""The harness: wrong, hanging and crashing backends are caught, runs resume, reports parse.

The misbehaving backends live in sudokulab.harness.testing and reach the spawned
workers the way any third-party backend does: through an entry point, declared in a
dist-info folder that the tests put on sys.path and on PYTHONPATH.
"""

from __future__ import annotations

import csv
import io
import json
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import add_to_path

from sudokulab import datasets
from sudokulab.backends import names
from sudokulab.cli import main
from sudokulab.formats.text import format_line
from sudokulab.harness import progress
from sudokulab.harness.runlog import RunLog
from sudokulab.harness.testing import write_plugin

MANY = "1..............."  # a 4x4 puzzle with many solutions
HARDEST = [format_line(p) for p in datasets.load("hardest")]


def puzzle_file(folder: Path, lines: list[str]) -> Path:
    """A file of puzzles, one per line."""
    path = folder / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def table(folder: Path) -> dict[str, dict[str, str]]:
    """summary.csv as {backend: row}."""
    with (folder / "summary.csv").open(newline="") as rows:
        return {row["backend"]: row for row in csv.DictReader(rows)}


def records(folder: Path) -> list[dict]:
    """Every line of runs.jsonl."""
    return [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()]


# --- wrong answers are caught --------------------------------------------------------

def test_wrong_backends_are_caught_with_a_command_to_reproduce(test_backends, tmp_path,
                                                               capsys):
    puzzles = puzzle_file(tmp_path, [HARDEST[0], MANY, HARDEST[1]])
    out = tmp_path / "run"
    code = main(["compare", "--file", str(puzzles), "--out", str(out), "--jobs", "2",
                        "--backends", "norvig,test-wrong:mode=repeat,test-wrong:mode=other,"
                                      "test-wrong:mode=none"])
    assert code == 4
    wrong = {b: int(row["wrong"]) for b, row in table(out).items()}
    assert wrong == {"norvig": 0, "test-wrong:mode=repeat": 3, "test-wrong:mode=other": 1,
                     "test-wrong:mode=none": 3}
    summary = (out / "summary.md").read_text()
    assert "invalid grid" in summary
    assert f"sudokulab solve {MANY} --backend test-wrong:mode=other --limit 2" in summary
    printed = capsys.readouterr().out
    assert "DISAGREEMENT" in printed and "--backend test-wrong:mode=none" in printed


def test_a_lone_backend_is_checked_against_the_reference_solutions(test_backends, tmp_path):
    assert main(["compare", "--dataset", "hardest", "--backends", "test-wrong:mode=none",
                        "--out", str(tmp_path / "none")]) == 4
    assert table(tmp_path / "none")["test-wrong:mode=none"]["wrong"] == "11"
    # on puzzles with one solution, "the last grid found" is the right one
    assert main(["compare", "--dataset", "hardest", "--backends", "test-wrong:mode=other",
                        "--out", str(tmp_path / "other")]) == 0


def test_answers_that_agree_exit_zero(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["compare", "--dataset", "easy50", "--backends", "norvig", "--limit", "1",
                        "--out", str(out)]) == 0
    assert "every answer agrees" in capsys.readouterr().out
    assert table(out)["norvig"]["answered"] == "50"


# --- hangs and crashes are isolated --------------------------------------------------

def test_hanging_and_crashing_backends_are_recorded_and_the_run_goes_on(test_backends,
                                                                        tmp_path):
    puzzles = puzzle_file(tmp_path, HARDEST[:3])
    out = tmp_path / "run"
    code = main(["compare", "--file", str(puzzles), "--out", str(out), "--timeout", "1",
                        "--jobs", "2", "--backends",
                        "test-hang,test-crash:how=kill,test-crash:how=exit,"
                        "test-crash:how=segv,norvig"])
    assert code == 5  # failures to answer are no disagreement, but an engine failure
    rows = table(out)
    assert rows["norvig"]["answered"] == "3"
    assert rows["test-hang"]["timeouts"] == "3"
    for how in ("kill", "exit", "segv"):
        assert rows[f"test-crash:how={how}"]["errors"] == "3"
    messages = {(r["backend"], r["result"]["message"]) for r in records(out)}
    assert ("test-crash:how=kill", "worker died (killed by SIGKILL)") in messages
    assert ("test-crash:how=exit", "worker died (exit code 3)") in messages
    assert ("test-crash:how=segv", "worker died (killed by SIGSEGV)") in messages
    assert ("test-hang", "no answer in time: worker killed") in messages
    assert "worker died (killed by SIGKILL)" in (out / "summary.md").read_text()


# --- interrupted runs resume ---------------------------------------------------------

def start_run(out: Path, puzzles: Path, log: Path, hold: Path) -> subprocess.Popen:
    """A compare run in its own process, held after 8 puzzles while `hold` exists."""
    command = [sys.executable, "-m", "sudokulab", "compare", "--file", str(puzzles),
               "--out", str(out), "--jobs", "2", "--timeout", "0",
               "--backends", f"test-count:log={log},hold={hold},after=8,norvig"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=interruptible)


def interruptible() -> None:
    """In the child, before exec: Ctrl-C's default action, even where the tests run with
    SIGINT ignored (a background job of a script, nohup), which Python would keep."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_records(out: Path, count: int, process: subprocess.Popen) -> None:
    """Poll until runs.jsonl holds `count` lines (the run is still going then)."""
    runs = out / "runs.jsonl"
    while not (runs.exists() and len(runs.read_text().splitlines()) >= count):
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)


def check_resumed(out: Path, puzzles: list[str], log: Path, before: set[int]) -> None:
    """Each puzzle once per backend, and nothing recorded before the resume solved again."""
    seen = [(r["backend"], r["index"]) for r in records(out)]
    backends = {b for b, _ in seen}
    assert sorted(seen) == sorted((b, i) for b in backends for i in range(len(puzzles)))
    assert len(backends) == 2
    asked_after = log.read_text().split("resume\n", 1)[1].splitlines()
    assert not {puzzles[i] for i in before} & set(asked_after)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_resumes_without_redoing_or_losing_puzzles(test_backends,
                                                                      tmp_path, stop):
    lines = [format_line(p) for p in datasets.load("top95")[:40]]
    puzzles, log, out = puzzle_file(tmp_path, lines), tmp_path / "asked.log", tmp_path / "run"
    hold = tmp_path / "hold"
    hold.touch()
    process = start_run(out, puzzles, log, hold)
    wait_for_records(out, 4, process)  # 5 or 6 finish before the hold
    process.send_signal(stop)
    # released at once: were the signal ignored, the run would finish and the test fail
    # rather than wait forever; the parent acts on a signal before it reads another answer
    hold.unlink()
    _, stderr = process.communicate()
    if stop != signal.SIGKILL:
        assert process.returncode == 128 + stop
        assert f"--resume --out {out}" in stderr
        assert "Traceback" not in stderr and "BrokenPipe" not in stderr
        session = json.loads((out / "meta.json").read_text())["sessions"][-1]
        assert session["interrupted"] and session["finished"]
    before = {r["index"] for r in records(out) if r["backend"].startswith("test-count")}
    assert 0 < len(before) < len(lines)
    with log.open("a") as marker:
        marker.write("resume\n")
    assert main(["compare", "--resume", "--out", str(out)]) == 0
    check_resumed(out, lines, log, before)


def test_resume_refuses_other_settings(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["compare", "--dataset", "hardest", "--backends", "norvig", "--out", str(out)]) == 0
    assert main(["compare", "--resume", "--out", str(out), "--limit", "1"]) == 2
    assert "--limit 1" in capsys.readouterr().err
    assert main(["compare", "--dataset", "hardest", "--out", str(out)]) == 2  # no overwriting
    assert main(["compare", "--resume", "--out", str(out)]) == 0  # nothing left to do
    assert len(records(out)) == 11


def test_a_truncated_last_line_is_dropped_and_its_puzzle_solved_again(tmp_path):
    out = tmp_path / "run"
    assert main(["compare", "--dataset", "hardest", "--backends", "norvig", "--out", str(out)]) == 0
    runs = out / "runs.jsonl"
    text = runs.read_text()
    runs.write_text(text[: len(text) - 40])  # as a machine dying mid-write leaves it
    assert main(["compare", "--resume", "--out", str(out)]) == 0
    assert sorted(r["index"] for r in records(out)) == list(range(11))


# --- reports -------------------------------------------------------------------------

def test_report_files_are_written_and_parse(test_backends, tmp_path):
    out = tmp_path / "run"
    assert main(["compare", "--dataset", "top95", "--sample", "7", "--seed", "3", "--repeat", "3",
                        "--backends", "norvig,test-count:log=" + str(tmp_path / "log"),
                        "--out", str(out)]) == 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["seed"] == 3 and meta["settings"]["sample"] == 7
    assert meta["environment"]["versions"]["python"]
    assert meta["environment"]["machine"]["cores"] >= 1
    assert meta["sessions"][0]["command"]
    lines = records(out)  # one line per backend, puzzle and pass
    assert sorted(Counter(r["repeat"] for r in lines).items()) == [(1, 14), (2, 14), (3, 14)]
    rows = [r.to_json() for r in RunLog(out).read()]  # the passes merged
    assert len(rows) == 14 and all(len(r["times"]) == 3 for r in rows)
    assert all(r["time"] == sorted(r["times"])[1] for r in rows)  # the median of three
    assert all(len(r["cpus"]) == 3 and r["memory"] > 0 for r in rows)
    rows_csv = table(out)
    assert set(rows_csv) == {"norvig", f"test-count:log={tmp_path / 'log'}"}
    assert float(rows_csv["norvig"]["nodes"]) >= 1  # a native statistic, per puzzle
    for plot in ("cactus.png", "scatter.png"):
        assert (out / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## Timings" in (out / "summary.md").read_text()
    # the same seed draws the same puzzles
    again = tmp_path / "again"
    assert main(["compare", "--dataset", "top95", "--sample", "7", "--seed", "3",
                        "--backends", "norvig", "--out", str(again)]) == 0
    assert {r["index"] for r in records(again)} == {r["index"] for r in rows}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream", [io.StringIO(), Terminal()])
def test_progress_draws_a_bar_on_a_terminal_and_plain_lines_elsewhere(stream, monkeypatch):
    monkeypatch.setattr(progress, "EVERY", 0.0)
    monkeypatch.setattr(progress, "REDRAW", 0.0)
    bar = progress.Progress("norvig", 4, stream=stream)
    for _ in range(4):
        bar.step()
    bar.finish()
    text = stream.getvalue()
    assert "4/4" in text and "ETA" in text and text.endswith("/s)\n")
    assert ("█" in text and "\r" in text) == stream.isatty()
    assert text.count("\n") == (1 if stream.isatty() else 5)


def test_progress_on_a_dumb_terminal_is_plain_lines(monkeypatch):
    """Before, TERM=dumb got the cursor codes of a bar it cannot draw."""
    monkeypatch.setattr(progress, "EVERY", 0.0)
    monkeypatch.setenv("TERM", "dumb")
    stream = Terminal()
    bar = progress.Progress("norvig", 3, stream=stream)
    for _ in range(3):
        bar.step()
    bar.finish()
    text = stream.getvalue()
    assert "\r" not in text and "\033" not in text and text.count("\n") == 4


@pytest.mark.parametrize("columns", [20, 40, 200])
def test_the_bar_fits_the_terminal_width(monkeypatch, columns):
    """Before, a 20-column terminal got 50-column lines, wrapped on every redraw."""
    monkeypatch.setattr(progress, "REDRAW", 0.0)
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.delenv("TERM", raising=False)
    stream = Terminal()
    bar = progress.Progress("norvig", 400, stream=stream)
    for _ in range(3):
        bar.step()
    drawn = [part.removeprefix("\033[K") for part in stream.getvalue().split("\r") if part]
    assert drawn and all(len(line) < columns for line in drawn)
    assert ("█" in drawn[-1] or "░" in drawn[-1]) == (columns >= 40)


def test_datasets_are_described_with_their_counts_and_origin():
    text = datasets.describe()
    for name in datasets.names():
        assert name in text
    assert "1,465" in text and "magictour" in text


# --- plugins -------------------------------------------------------------------------

FAKE_PLUGIN = '''
from sudokulab.backends.base import Availability, Backend
from sudokulab.result import Result, Status


class Fake(Backend):
    """Fills every blank with 1 and calls it the unique solution."""

    name = "fake"

    @classmethod
    def available(cls):
        return Availability(True, version="fake 1.0")

    def _solve(self, puzzle, limit, deadline):
        grid = tuple(d or 1 for d in puzzle.givens)
        return Result(Status.UNIQUE, (grid,), 1, True)


class Raising(Fake):
    """Breaks the contract: raises from solve itself."""

    name = "raising"

    def solve(self, puzzle, *, limit=2, timeout=None):
        raise RuntimeError("engine on fire")


class WorkerShy(Fake):
    """Builds in the parent process but not in a worker: says why, or just dies."""

    name = "shy"

    def __init__(self, how="raise"):
        import multiprocessing
        import os
        if multiprocessing.parent_process() is not None:
            if how == "die":
                os._exit(7)
            raise RuntimeError("no engine in workers")


class Absent(Fake):
    name = "absent"

    @classmethod
    def available(cls):
        return Availability(False, reason="no engine here", fix="install one")
'''


@pytest.fixture
def fake_plugin(tmp_path, monkeypatch) -> Path:
    """A third-party package, fakeplugin, declaring its backends as pip would install it."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "fakeplugin.py").write_text(FAKE_PLUGIN)
    write_plugin(folder, {"fake": "fakeplugin:Fake", "absent": "fakeplugin:Absent",
                          "raising": "fakeplugin:Raising", "shy": "fakeplugin:WorkerShy"},
                 name="fakeplugin")
    add_to_path(monkeypatch, folder)
    return folder


def test_a_wrong_plugin_is_run_like_a_builtin_and_caught(fake_plugin, tmp_path, capsys):
    assert {"fake", "absent"} <= set(names())
    out = tmp_path / "run"
    code = main(["compare", "--dataset", "hardest", "--backends", "norvig,fake,absent",
                        "--out", str(out)])
    assert code == 4
    assert table(out)["fake"]["wrong"] == "11"
    printed = capsys.readouterr().out
    assert "skipped absent: unavailable: no engine here (fix: install one)" in printed
    meta = json.loads((out / "meta.json").read_text())
    assert meta["environment"]["engines"]["fake"] == "fake 1.0"


def test_a_backend_that_raises_is_recorded_as_an_error(fake_plugin, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["compare", "--dataset", "hardest", "--backends", "raising",
                        "--out", str(out)]) == 5
    assert table(out)["raising"]["errors"] == "11"
    assert "solve raised RuntimeError: engine on fire" in (out / "summary.md").read_text()


def test_a_backend_whose_workers_cannot_start_is_skipped_with_the_reason(fake_plugin,
                                                                         tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["compare", "--dataset", "hardest", "--backends", "shy,shy:how=die,norvig",
                        "--out", str(out)]) == 5
    printed = capsys.readouterr().out
    assert "skipped shy: RuntimeError: no engine in workers" in printed
    assert "skipped shy:how=die: workers die before they are ready " \
           "(exit code 7)" in printed
    assert set(table(out)) == {"norvig"}


def test_no_runnable_backend_is_an_engine_failure(fake_plugin, tmp_path, capsys):
    assert main(["compare", "--dataset", "hardest", "--backends", "absent",
                        "--out", str(tmp_path / "run")]) == 5
    assert "absent: unavailable: no engine here" in capsys.readouterr().err


# --- bad input -----------------------------------------------------------------------

@pytest.mark.parametrize("arguments, message", [
    (["--dataset", "nosuch"], "unknown dataset 'nosuch'"),
    (["--backends", "nosuch"], "unknown backend 'nosuch'"),
    (["--backends", "norvig:colour=blue"], "colour"),
    (["--file", "/no/such/file.txt"], "cannot read"),
    (["--backends", "norvig", "--scatter", "norvig,sat"], "--scatter"),
    (["--resume", "--out", "/no/such/run"], "cannot resume"),
])
def test_bad_input_is_one_line_and_exit_code_2(arguments, message, tmp_path, capsys):
    out = [] if "--out" in arguments else ["--out", str(tmp_path / "run")]
    assert main(["compare", *arguments, *out]) == 2
    error = capsys.readouterr().err
    assert error.startswith("sudokulab: error:") and message in error
    assert error.count("\n") == 1


def test_the_readers_of_records_import_no_process_code():
    code = ("import sys\n"
            "import sudokulab.harness.report, sudokulab.harness.plots, sudokulab.harness.stats\n"
            "import sudokulab.harness.runlog, sudokulab.harness.crosscheck\n"
            "print(sorted(m for m in ('multiprocessing', 'sudokulab.harness.runner')"
            " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
