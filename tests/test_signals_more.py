"""Issue 53's last signal and stdout defects, each through the real command line.

- Prolog, started with Ctrl-C ignored (a script's `cmd &`), still stops on SIGTERM: exit
  143, the count so far printed; so do an engine in native code (sat), one in Python
  (norvig) and a run's worker (--timeout).
- `read --solve` keeps an engine's own printing off stdout, and a reader that goes away
  ends it quietly.
- `setter` on Ctrl-C or SIGTERM prints what it established so far, marked partial.
- A run stopped by SIGTERM says SIGTERM, also where a worker found the answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import LONG_COUNT
from test_process_tree import (
    CODES,
    PATIENCE,
    POLL,
    SIGNALS,
    WORDS,
    assert_stopped,
    children_cpu,
    ended,
    remains,
    signal_and_collect,
    start,
    stat,
    stop_when_busy,
)

from sudokulab.check import is_solution
from sudokulab.formats.text import parse

EMPTY = "." * 81
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
BIG = "." * 625  # a 25x25: the setter's count takes about 2 CPU seconds, its candidates long


def cpu(pid: int) -> float:
    """CPU seconds the process itself (all its threads) has used so far; 0 once gone."""
    fields = stat(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf(
        "SC_CLK_TCK")


def stop_after_cpu(process: subprocess.Popen, seconds: float,
                   signum: int) -> tuple[int, str, str]:
    """Once the main process has worked `seconds` CPU seconds, send it `signum`; its exit
    code and output, after checking that nothing of its session is left."""
    give_up = time.monotonic() + PATIENCE
    while cpu(process.pid) < seconds:
        assert process.poll() is None, f"ended before the signal: {ended(process)}"
        if time.monotonic() > give_up:  # leave nothing running behind the failure
            process.kill()
            pytest.fail(f"never got busy: {ended(process)}, {remains(process.pid)}")
        time.sleep(POLL)
    return signal_and_collect(process, signum)


# --- 1. Prolog hears SIGTERM when Ctrl-C is ignored -----------------------------------------

def prolog_here() -> bool:
    """Whether the Prolog backend can run here (and is not skipped on request)."""
    from sudokulab.backends import backend_class

    return (os.environ.get("SUDOKULAB_SKIP_PROLOG") != "1"
            and backend_class("prolog").available().ok)


@pytest.mark.skipif(not prolog_here(), reason="needs SWI-Prolog and janus")
def test_prolog_stops_on_sigterm_with_ctrl_c_ignored():
    """Inside its one long janus call: before, it counted on until killed."""
    process = start("solve", LONG_COUNT, "--count", "-b", "prolog", "--format", "line",
                    ctrl_c_ignored=True)
    code, out, err = stop_after_cpu(process, 2.0, signal.SIGTERM)
    assert_stopped(code, err, signal.SIGTERM)
    assert out.startswith(">= ") and int(out.split()[1]) > 0, out


@pytest.mark.skipif(not prolog_here(), reason="needs SWI-Prolog and janus")
def test_prolog_stops_on_sighup_inside_its_long_call():
    """A closed terminal stops the count at once, as SIGTERM does: before, SIGHUP's handler
    waited for the janus call to end (here, the hundreds of thousands of grids)."""
    process = start("solve", LONG_COUNT, "--count", "-b", "prolog", "--format", "json")
    code, out, err = stop_after_cpu(process, 2.0, signal.SIGHUP)
    assert_stopped(code, err, signal.SIGHUP)
    answer = json.loads(out)
    assert answer["status"] == "interrupted" and answer["count"] > 0
    assert answer["message"].startswith("interrupted (SIGHUP): ")  # the signal sent


@pytest.mark.skipif(not prolog_here(), reason="needs SWI-Prolog and janus")
def test_prolog_still_ignores_ctrl_c_when_started_so():
    """SIGTERM is heard, Ctrl-C stays ignored: a script's background job survives it."""
    process = start("solve", EASY, "-b", "prolog", "--format", "line", ctrl_c_ignored=True)
    sent = 0  # Ctrl-C all along, from its start (Prolog's load) to its end: each ignored
    while process.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # it ended a moment ago
            os.kill(process.pid, signal.SIGINT)
            sent += 1
        time.sleep(POLL)
    out, err = ended(process)
    assert sent > 1
    assert (process.returncode, out) == (0, SOLUTION + "\n"), err


@pytest.mark.parametrize("engine", [["-b", "sat"], ["-b", "norvig"],
                                    ["-b", "sat", "--timeout", "600"]],
                         ids=["sat", "norvig", "sat-in-a-worker"])
def test_sigterm_keeps_the_count_with_ctrl_c_ignored(engine):
    """Before, every engine but prolog printed nothing: SIGTERM found Ctrl-C ignored."""
    process = start("solve", LONG_COUNT, "--count", *engine, "--format", "line",
                    ctrl_c_ignored=True)
    if "--timeout" in engine:  # the worker counts, the main process waits
        code, out, err = stop_when_busy(process, signal.SIGTERM)
    else:
        code, out, err = stop_after_cpu(process, 1.5, signal.SIGTERM)
    assert_stopped(code, err, signal.SIGTERM)
    assert out.startswith(">= ") and int(out.split()[1]) > 0, (out, err)


# --- 2. read --solve: stdout holds the answer alone ------------------------------------------

@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    """A synthetic photo of a 9x9 puzzle."""
    cv2 = pytest.importorskip("cv2")
    from sudokulab.vision import fonts, synth

    nine = synth.synthetic_photo(synth.nine_by_nine(1), fonts.paths(fonts.HELD_OUT)[0], seed=1)
    path = tmp_path_factory.mktemp("photo") / "photo.png"
    cv2.imwrite(str(path), nine.image)
    return path


@pytest.mark.parametrize("form", ["json", "line"])
def test_read_solve_keeps_an_engines_printing_off_stdout(photo, form, capfd, monkeypatch):
    """An engine that writes to file descriptor 1 (as HiGHS's banner does)."""
    from sudokulab import cli
    from sudokulab.backends import backend_class

    engine = backend_class("norvig")
    solve = engine._solve

    def printing(self, *args, **kwargs):
        os.write(1, b"an engine's banner\n")
        return solve(self, *args, **kwargs)

    monkeypatch.setattr(engine, "_solve", printing)
    code = cli.main(["read", str(photo), "--solve", "--format", form])
    out, err = capfd.readouterr()
    assert code == 0, err
    assert "banner" in err and "banner" not in out
    lines = out.splitlines()
    assert len(lines) == 1
    solution = json.loads(lines[0])["solution"] if form == "json" else lines[0]
    assert len(solution) == 81 and "." not in solution


def test_read_solve_to_a_reader_gone_ends_quietly(photo):
    """`| head -c0`: the reader closed before the answer came; no traceback, exit 0."""
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", "read", str(photo),
                                "--solve", "--format", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=PATIENCE) == 0, err
    assert err == ""


# --- 4. setter keeps what it established ----------------------------------------------------

@SIGNALS
def test_setter_prints_what_it_established_as_json(signum):
    process = start("setter", BIG, "--timeout", "0", "--format", "json")
    code, out, err = stop_after_cpu(process, 4.0, signum)
    assert_stopped(code, err, signum)
    lines = out.splitlines()
    assert len(lines) == 1, out
    report = json.loads(lines[0])
    assert report["partial"] and not report["complete"]
    assert report["stopped"] == ("interrupted (SIGTERM)" if signum == signal.SIGTERM
                                 else "interrupted (Ctrl-C)")
    # the count came first: two solutions, checked here again
    assert report["status"] == "several" and len(report["solutions"]) == 2
    puzzle = parse(BIG)
    assert all(is_solution(puzzle, tuple(grid)) for grid in report["solutions"])
    # candidates: every digit witnessed so far, the cells not yet proven named
    assert report["undecided"] and len(report["candidates"]) == 625
    first, second = report["solutions"]
    assert all(a in marks and b in marks
               for a, b, marks in zip(first, second, report["candidates"]))


def test_setter_prints_its_partial_report_as_text():
    process = start("setter", BIG, "--timeout", "0")
    code, out, err = stop_after_cpu(process, 4.0, signal.SIGINT)
    assert_stopped(code, err, signal.SIGINT)
    assert out.splitlines()[0] == ("puzzle 1: at least 2 solutions "
                                   "(partial: interrupted (Ctrl-C))"), out
    assert "cells unproven" in out


def test_setter_help_says_what_a_signal_keeps():
    done = subprocess.run([sys.executable, "-m", "sudokulab", "setter", "--help"],
                          capture_output=True, text=True)
    text = " ".join(done.stdout.split())
    assert "SIGTERM prints what is established so far" in text and "partial" in text
    assert "130" in text and "143" in text


# --- 5. SIGTERM says SIGTERM, also from a worker ---------------------------------------------

@pytest.mark.parametrize("form", ["json", "pretty"])
def test_a_workers_answer_stopped_by_sigterm_says_sigterm(form):
    code, out, err = stop_when_busy(start("solve", EMPTY, "--count", "--timeout", "600",
                                          "--format", form), signal.SIGTERM)
    assert code == CODES[signal.SIGTERM] and WORDS[signal.SIGTERM] in err, err
    assert "SIGTERM" in out and "Ctrl-C" not in out, out
    if form == "json":
        assert json.loads(out)["message"].startswith("interrupted (SIGTERM): ")


# --- SIGHUP: under nohup it is ignored; in a plain script it stops as SIGTERM does ---------

def nohup() -> None:
    """In the child: as `nohup` starts a command, SIGHUP ignored (Ctrl-C as by default)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_a_hangup_under_nohup_lets_the_run_finish():
    """A closed terminal must not stop a run started with nohup: before, the command line
    answered SIGHUP as SIGTERM even where it was ignored, and stopped (exit 143)."""
    process = start("solve", LONG_COUNT, "--count", "-b", "sat", "--timeout", "3",
                    "--format", "line", preexec=nohup)
    give_up = time.monotonic() + PATIENCE
    while children_cpu(process.pid) < 0.5:  # the worker counts: the terminal closes
        assert process.poll() is None and time.monotonic() < give_up, ended(process)
        time.sleep(POLL)
    os.killpg(process.pid, signal.SIGHUP)
    out, err = ended(process)
    assert process.returncode == 3 and out.startswith(">= "), (process.returncode, out, err)
    assert remains(process.pid) == {}


def test_a_hangup_stops_an_api_call_keeping_what_it_found():
    """A plain script's solve, hung up: Interrupted with the grids so far, as on SIGTERM
    (before, Python's default action killed the script with nothing printed)."""
    script = ("import sudokulab as sl\n"
              "from sudokulab.errors import Interrupted\n"
              "try:\n"
              f"    sl.solve({LONG_COUNT!r}, backend='norvig', limit=None, timeout=120)\n"
              "except Interrupted as stop:\n"
              "    print(stop.result.count, stop.result.message)\n")
    process = subprocess.Popen([sys.executable, "-c", script], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    give_up = time.monotonic() + PATIENCE
    while cpu(process.pid) < 1.5:
        assert process.poll() is None and time.monotonic() < give_up, process.communicate()
        time.sleep(POLL)
    os.kill(process.pid, signal.SIGHUP)
    out, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 0, err
    count, message = out.split(" ", 1)
    assert int(count) > 0 and message.startswith("interrupted (SIGHUP)"), out
