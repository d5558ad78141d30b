"""Killable helper processes for the lab's own Python work: hints, explanations, generation.

A solve goes to a harness worker (pool.py); the human-style steps and the generator are
plain functions (web/learn.py), run here in child processes that import the lab once
and stay warm. The server sends a task down a pipe and awaits the pipe on its event loop
(pool.py's `receive`) with a hard deadline: the task's own timeout, which it checks
between steps, plus the harness's grace. A process past it is killed and the request
answered 'timeout'; the next request gets a fresh process. A request cancelled meanwhile
(POST /api/cancel, or its client gone) kills its process the same way.

Fairness: MAX_PROCESSES helpers serve requests in turn, and the time a request waits for a
free one counts in its timeout, so two slow requests leave helpers for a quick one, and no
request waits longer than it asked to.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from multiprocessing.connection import Connection

from sudokulab.children import CONTEXT, held, listen
from sudokulab.errors import UsageError
from sudokulab.harness.runner import STARTUP, grace
from sudokulab.web.learn import Unavailable
from sudokulab.web.pool import Waiters, receive

MAX_PROCESSES = 4   # helper processes: two slow requests still leave two for the others
STARTUP_WAIT = min(STARTUP, 60.0)  # seconds a request waits for a new process's imports


class Helper:
    """The parent's handle on one helper process."""

    def __init__(self) -> None:
        self.conn, child = CONTEXT.Pipe()
        self.process = CONTEXT.Process(target=serve, args=(child,), daemon=True,
                                       name="sudokulab-tutor")
        with held():
            self.process.start()
        child.close()
        self.ready = False

    def kill(self) -> None:
        """End the process now, whatever it is doing."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()

    def end(self) -> None:
        """Ask an idle process to stop, and make sure it does."""
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(timeout=1.0)
        self.kill()


class Tutor:
    """Up to MAX_PROCESSES helpers: idle ones kept warm, requests beyond wait their turn."""

    def __init__(self, max_processes: int = MAX_PROCESSES) -> None:
        self.max_processes = max_processes
        self.idle: list[Helper] = []
        self.live = 0
        self.waiters = Waiters()
        self.ending: set[asyncio.Future] = set()

    @property
    def busy(self) -> int:
        """Helper processes at work (or starting) for a request."""
        return self.live - len(self.idle)

    async def run(self, task: str, timeout: float, **arguments) -> dict:
        """The task's answer (a dict); {'status': 'timeout' | 'error', 'message'} when it
        overruns (waiting for a free helper included) or its process dies; UsageError (a
        400) for options the task refuses, Unavailable (a 503) when what it needs is not
        installed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        helper = await self._acquire(deadline)
        if helper is None:
            return {"status": "timeout",
                    "message": f"every helper was busy for {timeout:g} s: try again"}
        healthy = False
        try:
            if not helper.ready:  # a new process's imports: not the request's own time
                started = loop.time()
                message = await receive(helper, STARTUP_WAIT)
                if message != ("ready",):
                    return {"status": "error", "message": f"the helper did not start: "
                                                          f"{message or 'no answer in time'}"}
                helper.ready = True
                deadline += loop.time() - started
            left = max(deadline - loop.time(), 0.1)
            try:
                helper.conn.send((task, {**arguments, "seconds": left}))
            except OSError:
                return {"status": "error", "message": "the helper died before the task"}
            message = await receive(helper, left + grace(left))
            if message is None:
                return {"status": "timeout",
                        "message": f"no answer in {timeout:g} s: the helper was stopped"}
            if isinstance(message, str):
                return {"status": "error", "message": message}
            healthy = True
            kind, value = message
            if kind == "usage":
                raise UsageError(value)
            if kind == "unavailable":
                raise Unavailable(value)
            if kind == "error":
                return {"status": "error", "message": value}
            return value
        finally:  # a cancelled request must not leave a busy helper behind: it is killed
            ending = self._release(helper, healthy)
            if ending is not None:  # its process ended before the request ends
                await asyncio.shield(ending)

    async def _acquire(self, deadline: float) -> Helper | None:
        """An idle helper, or a new one when there is room; waits otherwise, until the
        deadline (None then)."""
        loop = asyncio.get_running_loop()
        while not self.idle and self.live >= self.max_processes:
            if not await self.waiters.wait(deadline - loop.time()):
                return None
        if self.idle:
            return self.idle.pop()
        self.live += 1
        # spawning writes the start data: kept off the event loop, and finished even when
        # the request is cancelled meanwhile (the new process is then ended)
        spawning = asyncio.ensure_future(asyncio.to_thread(Helper))
        try:
            return await asyncio.shield(spawning)
        except BaseException:
            spawning.add_done_callback(_discard)
            self._release(None, False)
            raise

    def _release(self, helper: Helper | None, healthy: bool) -> asyncio.Future | None:
        """Keep a healthy helper warm; end any other, off the event loop (the task ending
        it). No await, as in pool.Waiters: a second cancellation cannot leak its slot."""
        ending = None
        if helper is not None and healthy:
            self.idle.append(helper)
        else:
            if helper is not None:
                ending = asyncio.ensure_future(asyncio.to_thread(helper.kill))
                self.ending.add(ending)  # kept until done: a bare task may be collected
                ending.add_done_callback(self.ending.discard)
            self.live -= 1
        self.waiters.wake()
        return ending

    def close(self) -> None:
        """End every idle helper (busy ones end with their requests)."""
        for helper in self.idle:
            helper.end()
        self.idle.clear()
        self.live = 0


def _discard(spawning: asyncio.Future) -> None:
    """End a helper whose request was gone before it started."""
    if not spawning.cancelled() and spawning.exception() is None:
        # off the event loop: ending a process waits for it
        asyncio.get_running_loop().run_in_executor(None, spawning.result().kill)


# --- in the helper process -------------------------------------------------------------

def serve(conn: Connection) -> None:
    """A helper's life: import the lessons, then run tasks until told to stop."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    listen(signal.SIG_IGN)   # Ctrl-C is the server's to handle
    with contextlib.suppress(EOFError, OSError):   # the server is gone: nobody to answer
        from sudokulab.web import learn

        conn.send(("ready",))
        while (job := conn.recv()) is not None:
            conn.send(learn.run(*job))
