"""Ctrl-C during `sudokulab solve --count` prints the count so far and exits 130.

As a terminal does, SIGINT goes to the whole process group (the command, and with
--timeout its worker process too), once it has counted the empty 9x9 grid's solutions
(6,670,903,752,021,072,936,960: never done) for a few tenths of a CPU second past its
start-up. Every counting engine, in pretty, line and json at once (three commands side
by side), with and without --timeout (the worker-process path). The CPU time is read in
/proc (Linux); where there is none, Ctrl-C comes after PATIENCE seconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import LONG_COUNT

from sudokulab.backends import complete_searches, make_backend

EMPTY = LONG_COUNT  # hours to count, yet not refused as an empty grid's count is
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
FORMATS = ("pretty", "line", "json")
COUNTING = 0.3  # CPU seconds of counting before Ctrl-C, past what the engine's start took
TRIES = 3  # Ctrl-C before the first grid is found proves nothing: count longer, try again
POLL = 0.05  # seconds between looks at the commands' CPU time
PATIENCE = 120  # seconds: a command that uses no CPU (hung, waiting) gets Ctrl-C anyway
ENGINES = complete_searches()
startups: dict[tuple[str, bool], float] = {}


def available(name: str) -> bool:
    """Whether the engine runs here (those that do not are skipped, not failed)."""
    return make_backend(name).available().ok


def command(name: str, *extra: str) -> list[str]:
    """`sudokulab solve ... -b name` as a process of this Python (PYTHONPATH holds)."""
    return [sys.executable, "-m", "sudokulab", "solve", *extra, "-b", name]


def interruptible() -> None:
    """In the child: Ctrl-C's default action, even if the tests run with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def startup(name: str, isolated: bool) -> float:
    """CPU seconds the command takes to answer an easy puzzle (its worker's included): what
    it spends before its engine is ready. Only to time Ctrl-C (never asserted on)."""
    key = (name, isolated)
    if key not in startups:
        extra = ("--timeout", "60") if isolated else ()
        # read from its process tree while it runs: its worker is the fork server's child,
        # and the server, outliving the command by a moment, is nobody's to wait for
        child = subprocess.Popen(command(name, EASY, *extra), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        spent, patience = 0.0, time.monotonic() + 600  # only so that a hang fails
        while child.poll() is None and time.monotonic() < patience:
            spent = max(spent, cpu(child.pid))
            time.sleep(POLL / 5)
        child.kill()
        assert child.wait() == 0, f"{name} did not answer an easy puzzle"
        startups[key] = spent
    return startups[key]


TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid: int) -> float:
    """CPU seconds a process and its descendants have used so far (ended ones included);
    0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = sum(int(tick) for tick in fields[11:15]) / TICK  # utime stime cutime cstime
    return own + sum(cpu(int(child)) for child in children)


def count_then_ctrl_c(name: str, isolated: bool) -> dict[str, tuple[int, str, str]]:
    """Count EMPTY's solutions in each format at once, press Ctrl-C (each command's
    process group) once it has counted for COUNTING CPU seconds past its start-up, and
    return each format's return code and output. A command may still not have found its
    first grid when Ctrl-C comes (it then claims no count): those are run again, counting
    twice as long, up to TRIES times in all."""
    if not available(name):
        pytest.skip(f"backend {name} is not available here")
    ready, counting = startup(name, isolated), COUNTING
    outputs = press_ctrl_c(name, isolated, FORMATS, ready + counting)
    for _ in range(TRIES - 1):
        early = [form for form, (code, out, _) in outputs.items()
                 if code == 130 and (not out.strip() or count_so_far(form, out) == 0)]
        if not early:
            break
        counting *= 2
        outputs |= press_ctrl_c(name, isolated, early, ready + counting)
    return outputs


def press_ctrl_c(name: str, isolated: bool, forms, spent: float
                 ) -> dict[str, tuple[int, str, str]]:
    """Start the commands counting EMPTY in these formats, Ctrl-C each once it has used
    `spent` CPU seconds (on a loaded machine, wall time says little of how far along a
    command is), and return each one's return code and output."""
    extra = ("--timeout", "60") if isolated else ()
    children = {form: subprocess.Popen(command(name, EMPTY, "--count", "--format", form,
                                               *extra),
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, start_new_session=True,
                                       preexec_fn=interruptible)
                for form in forms}
    outputs = {}
    patience = time.monotonic() + PATIENCE
    try:
        waiting = dict(children)
        while waiting:
            time.sleep(POLL)
            for form, child in list(waiting.items()):
                if (child.poll() is not None or cpu(child.pid) >= spent
                        or time.monotonic() > patience):
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(child.pid, signal.SIGINT)
                    del waiting[form]
        for form, child in children.items():
            # a generous bound, only so that a hung command fails instead of hanging
            out, err = child.communicate(timeout=300)
            outputs[form] = (child.returncode, out, err)
    finally:
        for child in children.values():
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.communicate()
    return outputs


def count_so_far(form: str, out: str) -> int:
    """The count the output gives, checked to be a lower bound ('>= N', exact false)."""
    if form == "json":
        data = json.loads(out.strip().splitlines()[-1])
        assert data["exact"] is False and data["status"] == "interrupted", data
        return data["count"]
    pattern = {"line": r"^>= ?(\d+)$", "pretty": r"^interrupted .*: >= ?(\d+) solution"}[form]
    found = re.search(pattern, out, re.MULTILINE)
    if found is None:  # nothing counted yet: no count is claimed (">= 0" said nothing)
        assert "interrupted" in out and ">=" not in out, out[:2000]
        return 0
    return int(found.group(1))


def assert_counts_kept(outputs: dict[str, tuple[int, str, str]]) -> None:
    """In every format: exit 130 (Ctrl-C), the count so far on stdout, no traceback or
    engine abort."""
    for form, (code, out, err) in outputs.items():
        assert code == 130, (form, code, out[:2000], err[-2000:])
        assert "Traceback" not in err and "fatal" not in err, (form, err[-2000:])
        assert count_so_far(form, out) >= 1


@pytest.mark.parametrize("name", ENGINES)
def test_ctrl_c_while_counting_prints_the_count_so_far(name):
    assert_counts_kept(count_then_ctrl_c(name, isolated=False))


@pytest.mark.parametrize("name", ENGINES)
def test_ctrl_c_while_counting_in_a_worker_prints_the_count_so_far(name):
    assert_counts_kept(count_then_ctrl_c(name, isolated=True))


# --- the runner's side: what run_backend hands the command ------------------------------

RUN = r'''
import json, sys
from sudokulab.errors import RunInterrupted
from sudokulab.harness.runner import Options, run_backend
from sudokulab.puzzle import empty
from sudokulab.formats.text import parse

puzzles = [(0, parse(sys.argv[2])), (1, parse(sys.argv[2])), (2, empty(9))]


def record(done):
    print(json.dumps({"index": done.index, "status": done.result.status.value}), flush=True)


try:
    run_backend(sys.argv[1], puzzles, Options(limit=None, timeout=60, warmup=False),
                record=record)
except RunInterrupted as stop:
    print(json.dumps({"index": stop.index, **stop.result.to_json()}), flush=True)
    sys.exit(130)
'''


@pytest.mark.parametrize("to", ["group", "parent"])
def test_run_backend_hands_back_what_a_worker_found_before_ctrl_c(to):
    # to the parent alone (kill -INT <pid>), the parent passes the Ctrl-C on to its worker
    child = subprocess.Popen([sys.executable, "-c", RUN, "norvig", EASY], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True,
                             preexec_fn=interruptible)
    try:
        finished = [json.loads(child.stdout.readline()) for _ in range(2)]
        time.sleep(COUNTING)  # the worker counts the empty grid's solutions meanwhile
        (os.killpg if to == "group" else os.kill)(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=300)  # only so that a hang fails
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 130, err[-2000:]
    assert [(r["index"], r["status"]) for r in finished] == [(0, "unique"), (1, "unique")]
    stopped = json.loads(out.strip().splitlines()[-1])
    assert stopped["index"] == 2 and stopped["status"] == "timeout" and not stopped["exact"]
    assert "interrupted" in stopped["message"]
    assert stopped["count"] == len(stopped["solutions"]) >= 1
