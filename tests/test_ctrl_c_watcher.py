"""The crash at exit blamed on the compiled engine as the referee (commit 08eb42a, reverted
in 029565a): `grade` of the empty grid ended with SIGSEGV right after native's verdict.

native.c and native.py are not at fault: under ASan and UBSan every C entry point stayed
clean on every shape up to 16x16 and on every dataset. The crash comes from base.ctrl_c's
Ctrl-C watcher. native's solve is the command's first `ctrl_c` block (norvig opens none),
so it starts the watcher, a daemon thread, and `grade` exits a moment later. The thread's
first act was `import select`. On a loaded machine it reached that import while the
interpreter was shutting down, and CPython 3.11 had already freed its import lock:
_PyImport_AcquireLock(lock=NULL) -> SIGSEGV (core dumps, about 1 run in 100 with three
grades at a time on two cores; none in 1,200 runs once the watcher imports nothing).

The crash depends on timing and cannot be tested reliably. So this test checks its
precondition: once started, the watcher thread imports nothing. It runs in a child process
so that `select` can be taken out of sys.modules before the watcher starts."""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = r'''
import json, os, signal, sys, threading
from sudokulab.backends import base

sys.modules.pop("select", None)  # a watcher that imports it now would show it below
imports = []


def heard(event, args):
    if event == "import" and threading.current_thread().name == "sudokulab-ctrl-c":
        imports.append(args[0])


sys.addaudithook(heard)
stopped = threading.Event()
with base.ctrl_c(stopped.set) as state:
    os.kill(os.getpid(), signal.SIGINT)  # the watcher wakes, and stops the block
    stopped.wait()
print(json.dumps({"pressed": state.pressed, "imports": imports}))
'''


def test_the_ctrl_c_watcher_thread_imports_nothing():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["pressed"] is True  # the watcher really ran and heard it
    assert answer["imports"] == []  # a daemon thread that imports can crash the exit


MASK = r'''
import json, os, signal, threading
from sudokulab.backends import base

stopped = threading.Event()
with base.ctrl_c(stopped.set):
    os.kill(os.getpid(), signal.SIGINT)  # once the watcher has heard it, it is past its start
    stopped.wait()
    watcher = next(t for t in threading.enumerate() if t.name == "sudokulab-ctrl-c")
    status = open(f"/proc/self/task/{watcher.native_id}/status").read()
blocked = int(next(line for line in status.splitlines() if line.startswith("SigBlk:"))
              .split()[1], 16)
print(json.dumps({s.name: bool(blocked >> (s.value - 1) & 1)
                  for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}))
'''


def test_the_watcher_thread_leaves_the_signals_to_the_main_thread():
    """Delivered to the watcher, a signal ran Python's handler in the main thread even
    inside errors.whole(), which masks the main thread only: PySAT's solver could then be
    freed and not forgotten, and freed again at exit (ladder's abort after Ctrl-C)."""
    done = subprocess.run([sys.executable, "-c", MASK], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"SIGINT": True, "SIGTERM": True, "SIGHUP": True}


def test_a_sat_solver_is_freed_and_forgotten_with_no_signal_between():
    import signal

    from sudokulab.backends import sat

    seen = {}

    class Solver:
        def delete(self) -> None:
            seen["blocked"] = signal.pthread_sigmask(signal.SIG_BLOCK, [])

    engine = sat.Engine.__new__(sat.Engine)
    engine.solver = Solver()
    engine.close()
    assert engine.solver is None
    assert {signal.SIGINT, signal.SIGTERM, signal.SIGHUP} <= seen["blocked"]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # restored
