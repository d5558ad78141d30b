"""Ctrl-C stops every backend mid-search and keeps the solutions found so far.

Each case runs a count in a child process and sends it SIGINT from inside the search at
a known point: after a few solutions (norvig, dlx, sat, smt, cpsat, mzn, milp, cpmpy: the
function that reads each solution is wrapped; asp too), or once the Prolog thread has done
a million inferences (a watching thread reads them). The count has 39,168 solutions: it
is far from done then.
SAT also gets Ctrl-C inside one long SAT call, twice, and must then solve again.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from sudokulab import errors
from sudokulab.backends import complete_searches
from sudokulab.check import is_solution
from sudokulab.formats.text import parse

ROW = "123456" + "." * 30  # a 6x6 with its first row given: 28,200,960 / 720 solutions
AFTER = 5  # solutions found before Ctrl-C

CHILD = r'''
import json, os, signal, sys, threading, time
from sudokulab.backends import make_backend
from sudokulab.errors import Interrupted
from sudokulab.formats.text import parse

spec, line = sys.argv[1], sys.argv[2]
name = spec.split(":")[0]
after = int(sys.argv[3])


def press_ctrl_c_after(module, owner, attribute):
    """Wrap the function that reads each solution: Ctrl-C when it reads the `after`th."""
    original = getattr(owner, attribute)
    calls = [0]

    def reading(*args):
        calls[0] += 1
        if calls[0] == after:
            os.kill(os.getpid(), signal.SIGINT)
        return original(*args)

    setattr(owner, attribute, reading)


if name == "norvig":
    import sudokulab.backends.norvig as m
    press_ctrl_c_after(m, m, "digits_of")
elif name == "dlx":
    import sudokulab.backends.dlx as m
    press_ctrl_c_after(m, m, "grid_of")
elif name == "sat":
    import sudokulab.backends.sat as m
    press_ctrl_c_after(m, m.Engine, "decode")
elif name == "smt":
    import sudokulab.backends.smt as m
    press_ctrl_c_after(m, m.Engine, "read")
elif name == "asp":  # read runs in clingo's solving thread: the signal goes to the process
    import sudokulab.backends.asp as m
    press_ctrl_c_after(m, m.Engine, "read")
elif name == "cpsat":
    import sudokulab.backends.cpsat as m
    press_ctrl_c_after(m, m.collector_class(), "on_solution_callback")
elif name == "milp":
    import sudokulab.backends.milp as m
    press_ctrl_c_after(m, m.Engine, "read")
elif name == "mzn":
    import sudokulab.backends.mzn as m
    press_ctrl_c_after(m, m, "read")
elif name == "cpmpy":
    import sudokulab.backends.cpmpy as m
    press_ctrl_c_after(m, m, "grid_of")
elif name == "native":  # the C search hands each solution to a Python callback
    import sudokulab.backends.native as m
    press_ctrl_c_after(m, m, "grid_of")
elif name == "prolog":  # a thread watches the solving thread's inferences
    from sudokulab.backends.swipl import janus
    prolog = janus()
    me = prolog.query_once("thread_self(Me)")["Me"]

    ask = "thread_statistics(T, inferences, I)"
    start = prolog.query_once(ask, {"T": me})["I"]

    def watch():
        while prolog.query_once(ask, {"T": me})["I"] < start + after * 1_000_000:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=watch, daemon=True).start()
else:
    sys.exit(f"no Ctrl-C hook for backend {name}: add one to tests/test_interrupt.py")

backend = make_backend(spec)
try:
    result = backend.solve(parse(line), limit=None)
except Interrupted as stop:
    print(json.dumps(stop.result.to_json()))
    sys.exit(130)
print(json.dumps(result.to_json()))
'''


def interruptible() -> None:
    """In the child: Ctrl-C's default action, even if the tests run with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def count_interrupted(spec: str, after: int) -> tuple[int, dict, str]:
    """Count ROW's solutions with `spec` in a child that is sent Ctrl-C midway."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    # the timeout makes a child that never ends (MiniZinc's output left unread after the
    # cancel once made waiting for it hang) a failure, not a hung suite
    child = subprocess.run([sys.executable, "-c", CHILD, spec, ROW, str(after)],
                           capture_output=True, text=True, env=env, preexec_fn=interruptible,
                           timeout=300)
    lines = child.stdout.strip().splitlines()
    return child.returncode, (json.loads(lines[-1]) if lines else {}), child.stderr


# Every complete search of the registry but Prolog (below), and some options of the engines
# whose options change how solutions are read.
SPECS = [name for name in complete_searches() if name != "prolog"] + \
    ["sat:solver=glucose4", "smt:model=int", "cpsat:model=int"]


@pytest.mark.parametrize("spec", SPECS)
def test_ctrl_c_while_counting_keeps_the_solutions_found(spec):
    code, result, stderr = count_interrupted(spec, AFTER)
    assert code == 130, stderr
    assert result["status"] == "timeout" and not result["exact"]
    assert "interrupted" in result["message"] and "canceled" not in result["message"]
    assert AFTER - 1 <= result["count"] == len(result["solutions"]) < 39168
    puzzle = parse(ROW)
    assert all(is_solution(puzzle, grid) for grid in result["solutions"])


@pytest.mark.skipif(os.environ.get("SUDOKULAB_SKIP_PROLOG") == "1",
                    reason="SUDOKULAB_SKIP_PROLOG=1: the Prolog tests are skipped on request")
def test_ctrl_c_stops_prolog_inside_the_janus_call():
    code, result, stderr = count_interrupted("prolog", 1)
    assert code == 130, stderr
    assert result["status"] == "timeout" and "interrupted" in result["message"]
    assert result["count"] == len(result["solutions"]) < 39168
    puzzle = parse(ROW)
    assert all(is_solution(puzzle, grid) for grid in result["solutions"])


# A 16x16 puzzle CaDiCaL takes more than 20 s to settle: Ctrl-C lands inside one SAT call.
INSIDE_A_SAT_CALL = r'''
import json, os, signal, sys, threading
from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.backends import sat
from sudokulab.errors import Interrupted
from sudokulab.puzzle import empty

LONG = empty(16, (R.AntiKnight(), R.AntiKing(), R.Diagonal(), R.NonConsecutive()))
run = sat.Engine.run


def ctrl_c_once_running(self, *args):
    """The first SAT call of each solve: Ctrl-C 0.3 s into it."""
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    sat.Engine.run = run
    return run(self, *args)


backend = make_backend(sys.argv[1])
answers = []
for _ in range(2):  # twice: the first Ctrl-C leaves no handler of PySAT's behind
    sat.Engine.run = ctrl_c_once_running
    try:
        answers.append(backend.solve(LONG, limit=1).to_json())
    except Interrupted as stop:
        answers.append(stop.result.to_json())
answers.append(backend.solve(LONG, limit=1, timeout=0.2).to_json())  # its solver still works
answers.append(backend.solve(empty(4), limit=None).to_json())
print(json.dumps(answers))
'''


@pytest.mark.parametrize("spec", ["sat", "sat:solver=glucose4"])
def test_ctrl_c_inside_a_sat_call_stops_it_and_leaves_the_solver_usable(spec):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    # the timeout only keeps a hung child (PySAT's handler jumping in the wrong thread) from
    # hanging the suite: the solves take about a second
    child = subprocess.run([sys.executable, "-c", INSIDE_A_SAT_CALL, spec],
                           capture_output=True, text=True, env=env, preexec_fn=interruptible,
                           timeout=300)
    assert child.returncode == 0, child.stderr
    first, second, timed, small = json.loads(child.stdout)
    for stopped in (first, second):
        assert stopped["status"] == "timeout" and "interrupted" in stopped["message"]
        assert stopped["count"] == 0
    assert timed["status"] == "timeout" and "interrupted" not in timed["message"]
    assert small["status"] == "multiple" and small["count"] == 288 and small["exact"]


@pytest.mark.parametrize(("stop", "code", "words"), [
    (KeyboardInterrupt, 130, "interrupted (Ctrl-C)"),
    (errors.Terminated, 143, "interrupted (SIGTERM)")])
@pytest.mark.parametrize("timeout", [[], ["--timeout", "30"]], ids=["here", "in-a-worker"])
def test_a_signal_before_the_engine_began_still_prints_the_puzzles_record(
        monkeypatch, capsys, stop, code, words, timeout):
    """A Ctrl-C or SIGTERM as the engine's library loads: the puzzle under way is printed
    as interrupted with nothing found, as the help promises, not left out."""
    from sudokulab.cli import main
    from sudokulab.commands import solve

    def loading(spec):
        if stop is errors.Terminated:  # as sigterm_as_ctrl_c's handler records it
            errors.heard_sigterm(signal.SIGTERM)
        raise stop

    monkeypatch.setattr(errors, "_TERMS", [])  # this test's SIGTERM is its own
    monkeypatch.setattr(solve, "backend", loading)
    assert main(["solve", "." * 81, "--count", "--format", "csv", *timeout]) == code
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "puzzle,status,count,ms,grids,message"
    assert rows[1].startswith("1,interrupted,,") and words in rows[1], rows  # no ">= 0"
