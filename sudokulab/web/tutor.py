"""Killable helper processes for the lab's own Python work: hints, explanations, generation.

A solve goes to a harness worker (pool.py); the human-style steps and the generator are
plain functions (web/learn.py), run here in child processes that import the lab once
and stay warm. The server sends a task down a pipe and awaits the pipe on its event loop
(pool.py's `receive`) with a hard deadline: the task's own timeout, which it checks
between steps, plus the harness's grace. A process past it is killed and the request
answered 'timeout'; the next request gets a fresh process. A request cancelled meanwhile
(POST /api/cancel, or its client gone) kills its process the same way, but for a STOPPABLE
task (the setter's bench, whose warm incremental solver a new process would lack): that
one is told to stop (a second pipe; the helper's listening thread ends its SAT call and
its deadline), answers within STOP_WAIT and is kept warm, and a request meanwhile waits
for it rather than start a cold process.

Fairness: MAX_PROCESSES helpers serve requests in turn, and the time a request waits for a
free one counts in its timeout, so two slow requests leave helpers for a quick one, and no
request waits longer than it asked to.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from multiprocessing.connection import Connection

from sudokulab.errors import Unavailable, UsageError
from sudokulab.harness.children import CONTEXT, held, listen
from sudokulab.harness.runner import STARTUP, grace
from sudokulab.web.pool import Waiters, receive

MAX_PROCESSES = 4   # helper processes: two slow requests still leave two for the others
STARTUP_WAIT = min(STARTUP, 60.0)  # seconds a request waits for a new process's imports
STOPPABLE = frozenset({"setter"})  # tasks that stop when cancelled, their process kept warm
STOP_WAIT = 2.0     # seconds a stopped task has to answer before its process is killed


class Helper:
    """The parent's handle on one helper process."""

    def __init__(self) -> None:
        self.conn, child = CONTEXT.Pipe()
        stops, self.stops = CONTEXT.Pipe(duplex=False)  # the job to stop, by number
        self.process = CONTEXT.Process(target=serve, args=(child, stops), daemon=True,
                                       name="sudokulab-tutor")
        with held():
            self.process.start()
        child.close()
        stops.close()
        self.ready = False
        self.jobs = 0                # tasks sent: the number of the one running
        self.tasks: set[str] = set()  # the tasks it has run: warm for them

    def send(self, task: str, arguments: dict) -> int:
        """Send a task (OSError when the process is gone); its number."""
        self.jobs += 1
        self.tasks.add(task)
        self.conn.send((self.jobs, task, arguments))
        return self.jobs

    def kill(self) -> None:
        """End the process now, whatever it is doing."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()
        self.stops.close()

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
        self.stopping: set[asyncio.Future] = set()  # stopped tasks awaiting their answer
        self.stopped: set[Helper] = set()  # their helpers, neither busy nor idle meanwhile
        self.closed = False  # the server is stopping: no helper is kept warm any more

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
        helper = await self._acquire(deadline, task)
        if helper is None:
            return {"status": "timeout",
                    "message": f"every helper was busy for {timeout:g} s: try again"}
        healthy, stopping = False, None
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
                number = helper.send(task, {**arguments, "seconds": left})
            except OSError:
                return {"status": "error", "message": "the helper died before the task"}
            try:
                message = await receive(helper, left + grace(left))
            except asyncio.CancelledError:
                if task in STOPPABLE and helper.process.is_alive():
                    stopping = self._stop(helper, number)
                raise
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
            # (or stopped: the stopping task gives it back)
            ending = stopping or self._release(helper, healthy)
            if ending is not None:  # its process ended (or is idle again) before the end
                await asyncio.shield(ending)

    def _stop(self, helper: Helper, number: int) -> asyncio.Future:
        """Tell the helper to stop task `number` and, in a task of its own, await its answer
        (dropped) and give the helper back warm; kill it if it does not answer in time."""

        async def stopped() -> None:
            healthy = False
            try:
                helper.stops.send(number)
                healthy = isinstance(await receive(helper, STOP_WAIT), tuple)
            except OSError:  # the process is gone: it is ended below
                pass
            finally:
                self.stopped.discard(helper)
                ending = self._release(helper, healthy)
            if ending is not None:
                await ending

        self.stopped.add(helper)
        stopping = asyncio.ensure_future(stopped())
        self.stopping.add(stopping)  # kept until done: a bare task may be collected
        self.ending.add(stopping)
        stopping.add_done_callback(self._stopped)
        return stopping

    def _stopped(self, stopping: asyncio.Future) -> None:
        """A stopped task's helper is given back: requests waiting for it look again."""
        self.stopping.discard(stopping)
        self.ending.discard(stopping)
        self.waiters.wake()

    async def _acquire(self, deadline: float, task: str = "") -> Helper | None:
        """An idle helper (one warm for the task first), or a new one when there is room;
        waits otherwise, or while a stopped task's helper is about to be idle again, until
        the deadline (None then)."""
        loop = asyncio.get_running_loop()
        while not self.idle and (self.stopping or self.live >= self.max_processes):
            if not await self.waiters.wait(deadline - loop.time()):
                return None
        if self.idle:
            warm = [h for h in self.idle if task in h.tasks]
            helper = warm[-1] if warm else self.idle[-1]
            self.idle.remove(helper)
            return helper
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
        if helper is not None and healthy and not self.closed:
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
        """End every idle helper and every one a stopped task still waits for (busy ones
        end with their requests); none is kept warm from now on. A helper left alive
        would hang the server's exit: multiprocessing joins it, and it ignores SIGTERM."""
        self.closed = True
        for helper in self.idle:
            helper.end()
        for helper in list(self.stopped):
            helper.kill()
        self.idle.clear()
        self.stopped.clear()
        self.live = 0


def _discard(spawning: asyncio.Future) -> None:
    """End a helper whose request was gone before it started."""
    if not spawning.cancelled() and spawning.exception() is None:
        # off the event loop: ending a process waits for it
        asyncio.get_running_loop().run_in_executor(None, spawning.result().kill)


# --- in the helper process -------------------------------------------------------------

def serve(conn: Connection, stops: Connection) -> None:
    """A helper's life: import the lessons, then run tasks until told to stop."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    listen(signal.SIG_IGN)   # Ctrl-C is the server's to handle
    with contextlib.suppress(EOFError, OSError):   # the server is gone: nobody to answer
        from sudokulab.web import learn

        stopper = Stopper(stops)
        conn.send(("ready",))
        while (job := conn.recv()) is not None:
            number, task, arguments = job
            stopper.begin(number)
            if task in STOPPABLE:
                arguments = {**arguments, "stop": stopper.asked.is_set}
            conn.send(learn.run(task, arguments))


class Stopper:
    """(in the helper) The server's stop requests: a thread reads their pipe and, for the
    task running, sets `asked` (the task's deadline then passes) and interrupts the SAT
    call under way, which would otherwise run to its own deadline."""

    def __init__(self, stops: Connection) -> None:
        self.asked = threading.Event()
        self.lock = threading.Lock()  # a stop and the next task's start never interleave
        self.job = 0
        threading.Thread(target=self._listen, args=(stops,), daemon=True,
                         name="sudokulab-stopper").start()

    def begin(self, number: int) -> None:
        """Task `number` starts: no stop asked for it yet, no SAT call left interrupted."""
        with self.lock:
            self.job = number
            self.asked.clear()
            for engine in _engines():
                if engine.stop == "interrupt" and engine.solver is not None:
                    engine.solver.clear_interrupt()

    def _listen(self, stops: Connection) -> None:
        """Stop the task a request names, if it is still the one running."""
        with contextlib.suppress(EOFError, OSError):
            while True:
                number = stops.recv()
                with self.lock:
                    if number == self.job:
                        self.asked.set()
                        for engine in _engines():
                            solver = engine.solver  # None once closed by the task
                            if engine.stop == "interrupt" and solver is not None:
                                solver.interrupt()


def _engines() -> list:
    """The SAT engines of this process (none before the SAT backend is imported)."""
    sat = sys.modules.get("sudokulab.backends.sat")
    return [] if sat is None else list(sat.LIVE)
