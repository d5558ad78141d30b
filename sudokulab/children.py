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
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from collections.abc import Callable, Iterator
from multiprocessing import forkserver, resource_tracker

# What the fork server imports before its first fork: the harness's worker, which most
# children run (the web's helpers and the generator's pools import the rest themselves).
PRELOAD = ["sudokulab.harness.runner"]


def _context() -> multiprocessing.context.BaseContext:
    """The fork server's context where the platform has one, else spawn's."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


CONTEXT = _context()


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Processes started in the block (from this thread) are born with SIGINT blocked."""
    # multiprocessing's resource tracker, which the first spawn starts, unblocks SIGINT
    # once it is up: started before the block, it cannot undo it.
    resource_tracker.ensure_running()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        # The fork server's children inherit its signal mask: it is born in the block too.
        if CONTEXT.get_start_method() == "forkserver":
            forkserver.ensure_running()
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def listen(handler: Callable | int = signal.SIG_IGN) -> None:
    """In a child: answer SIGINT with `handler` from now on (a Ctrl-C held since the start
    is answered now)."""
    signal.signal(signal.SIGINT, handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

