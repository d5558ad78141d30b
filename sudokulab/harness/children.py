"""Child processes: forked from a fork server, never from the parent, and deaf to Ctrl-C
until they say how to answer it.

Not forked from the parent, because native engines (SWI-Prolog, HiGHS, OR-Tools) run
threads that do not survive a fork. Forked from a fork server where the platform has one
(else spawned): a process started once per parent, which has imported the harness's worker
and runs no engine, so a child starts as a copy of it, not as a new interpreter importing
sudokulab again. A child so sees the parent's environment variables as they were when the
fork server started (at the first child's start), not later changes.

Deaf at first, because a terminal sends Ctrl-C to the whole process group: a child hit
while it still imports would print a KeyboardInterrupt traceback from deep inside Python,
where nothing of sudokulab listens yet. So a child is born with SIGINT blocked (`held`): a
Ctrl-C then waits, pending, until the child has set its handler and lets it in (`listen`).
The parent, in the same process group, records what was done and reports the interruption
once.

Blind to the parent's main module, because a child runs sudokulab's code only: left to
itself, multiprocessing makes each child import the parent's `__main__` first (its file,
or its module for `python -m`), so a plain script that calls `sl.compare` with no
`if __name__ == "__main__":` guard would run again in every worker, which then dies
before it is ready. So the parent hides its main module while it starts a child
(`main_hidden`), in every process of CONTEXT (Process, and so Pool and
ProcessPoolExecutor, which start theirs through it).

Tied to the parent, because a parent can die without ending its children (SIGKILL, or
SIGTERM before it could answer): a child then ran on alone, at full CPU, holding the
parent's stdout open (`| cat` waited for it). So a child asks the kernel to kill it when
the process that forked it dies (`tie`: the fork server, which ends with the parent), and
the fork server and multiprocessing's resource tracker start with stdout on /dev/null
(`_quiet_spawn`). The fork server is born deaf to SIGTERM too: a `timeout` or `kill 0`
ends the whole group, and the parent, which answers SIGTERM as Ctrl-C, still needs its
workers to hand back what they found.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import context, forkserver, resource_tracker, util
from multiprocessing.process import BaseProcess
from typing import Any

# What the fork server imports before its first fork: the harness's worker, which most
# children run (the web's helpers and the generator's pools import the rest themselves).
PRELOAD = ["sudokulab.harness.runner"]


# Process starts swap sys.modules["__main__"]: one at a time, or two threads starting
# children at once could leave the stand-in there for good.
_STARTING = threading.RLock()


@contextlib.contextmanager
def main_hidden() -> Iterator[None]:
    """In the block, the main module is an empty stand-in: the preparation data of a child
    started in it (multiprocessing's spawn.get_preparation_data reads `__main__.__spec__`
    and `__file__`) names no main module, so the child imports none."""
    with _STARTING:
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            if main is None:
                del sys.modules["__main__"]
            else:
                sys.modules["__main__"] = main


class _OwnCode(BaseProcess):
    """A child process that runs sudokulab's code only, started with the parent's main
    module hidden, and that dies with its parent."""

    _start_method: str  # set by the context's Process this is mixed into

    @classmethod
    def _Popen(cls, process_obj: BaseProcess) -> Any:  # noqa: N802 (multiprocessing's name)
        with main_hidden():
            # A mixin: _Popen (and so the Popen type returned) is the Process class's it is
            # mixed into (next in the MRO), which mypy, reading _OwnCode's bases, cannot see.
            return super()._Popen(process_obj)  # type: ignore[misc]

    def run(self) -> None:
        """In the child: tie it to its parent, then run the target."""
        # A spawned child's parent may be a thread that ends before it: only the fork
        # server (one thread, ending with the parent) is a parent to die with.
        tie(self._start_method == "forkserver")
        super().run()


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def tie(forked: bool = True) -> None:
    """In a child: be killed when the process that `forked` it dies (Linux), and end now if
    the parent is already gone; SIGTERM, held since the fork server's start, is let in."""
    if forked and sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if forked:
        # The fork server ends once nobody holds its "alive" pipe, which every child is
        # handed: let the parent alone hold it, so that the server (and then, by the
        # prctl, this child) ends when the parent does. A child that starts children
        # of its own starts a fork server of its own.
        server = forkserver._forkserver
        # CPython's private attribute, which typeshed's stub of ForkServer leaves out.
        with contextlib.suppress(OSError, TypeError):
            os.close(server._forkserver_alive_fd)  # type: ignore[attr-defined]
        server._forkserver_alive_fd = None  # type: ignore[attr-defined]
    parent = multiprocessing.parent_process()
    if parent is not None and not parent.is_alive():  # it died before the prctl
        os._exit(1)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


_HELPERS: list[subprocess.Popen] = []  # kept, so that only multiprocessing reaps them


def _quiet_spawn(path: str, args: list[str], passfds: Sequence[int]) -> int:
    """multiprocessing's util.spawnv_passfds (how it starts the fork server and the
    resource tracker), with their stdout on /dev/null: a helper outliving the parent by a
    moment must not keep the reader of the parent's stdout waiting."""
    helper = subprocess.Popen(args, executable=path, pass_fds=tuple(passfds),
                              stdout=subprocess.DEVNULL, close_fds=True,
                              restore_signals=False)
    _HELPERS.append(helper)
    return helper.pid


if sys.platform != "win32":
    # typeshed types spawnv_passfds's path as bytes and its args as numbers; CPython
    # passes text (the interpreter's path, its command line), which _quiet_spawn takes.
    util.spawnv_passfds = _quiet_spawn  # type: ignore[assignment]


class SpawnProcess(_OwnCode, context.SpawnProcess):
    """spawn's Process, blind to the parent's main module."""


class SpawnContext(context.SpawnContext):
    """spawn's context, whose processes are blind to the parent's main module."""

    Process = SpawnProcess


if sys.platform != "win32":  # where multiprocessing has a fork server
    class ForkServerProcess(_OwnCode, context.ForkServerProcess):
        """The fork server's Process, blind to the parent's main module."""

    class ForkServerContext(context.ForkServerContext):
        """The fork server's context, whose processes are blind to the parent's main
        module."""

        Process = ForkServerProcess


def _context() -> SpawnContext | ForkServerContext:
    """The fork server's context where the platform has one, else spawn's."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return SpawnContext()
    forking = ForkServerContext()
    forking.set_forkserver_preload(PRELOAD)
    return forking


CONTEXT = _context()


def start_tracker() -> None:
    """Start multiprocessing's resource tracker (which the first pool, queue or lock needs)
    unless it runs: born with SIGHUP blocked, since it ignores SIGINT and SIGTERM but
    would die of a SIGHUP sent to the group, which the parent answers as SIGTERM."""
    # Its start also unblocks SIGINT and SIGTERM here: the mask is put back after it.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        resource_tracker.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Processes started in the block (from this thread) are born with SIGINT blocked,
    and the fork server with SIGTERM blocked too (its children let it in: `tie`); SIGHUP
    stays blocked in all of them (the parent answers it as SIGTERM)."""
    start_tracker()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK,
                                     {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    try:
        # The fork server's children inherit its signal mask: it is born in the block too.
        if CONTEXT.get_start_method() == "forkserver":
            with main_hidden():  # its preparation data would name the main module too
                forkserver.ensure_running()
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def listen(handler: Callable | int = signal.SIG_IGN) -> None:
    """In a child: answer SIGINT with `handler` from now on (a Ctrl-C held since the start
    is answered now)."""
    signal.signal(signal.SIGINT, handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


POOL_WAIT = 10.0  # seconds a pool's end may take before its workers are killed


def end_pool(pool: Any) -> None:
    """`pool.terminate()`, which ends its workers and joins its threads, but never a hang:
    after POOL_WAIT seconds its workers are killed and the threads left (daemons).

    Pool.terminate can wait for good on a lock a worker holds or a thread that a stop
    left waiting (a generator stopped by Ctrl-C once hung there for ten minutes).
    """
    ending = threading.Thread(target=pool.terminate, name="pool-end", daemon=True)
    ending.start()
    ending.join(POOL_WAIT)
    if ending.is_alive():
        for worker in list(pool._pool):  # Pool keeps its workers here, and has no public way
            worker.kill()
