"""Child processes: spawned, never forked, and deaf to Ctrl-C until they say how to answer it.

Spawned, because native engines (SWI-Prolog, HiGHS, OR-Tools) run threads that do not
survive a fork. Deaf at first, because a terminal sends Ctrl-C to the whole process
group: a child hit while its interpreter is still importing would print a
KeyboardInterrupt traceback from deep inside Python's start-up, where nothing of
sudokulab listens yet. So a child is started with SIGINT blocked (`held`): a Ctrl-C then
waits, pending, until the child has set its handler and lets it in (`listen`). The
parent, in the same process group, records what was done and reports the interruption
once.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from collections.abc import Callable, Iterator
from multiprocessing import resource_tracker

CONTEXT = multiprocessing.get_context("spawn")


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Processes started in the block (from this thread) are born with SIGINT blocked."""
    # multiprocessing's resource tracker, which the first spawn starts, unblocks SIGINT
    # once it is up: started before the block, it cannot undo it.
    resource_tracker.ensure_running()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def listen(handler: Callable | int = signal.SIG_IGN) -> None:
    """In a child: answer SIGINT with `handler` from now on (a Ctrl-C held since the start
    is answered now)."""
    signal.signal(signal.SIGINT, handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

