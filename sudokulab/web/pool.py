"""Warm worker processes for the web server, awaited on the event loop without blocking it.

Each solve runs in a harness worker (sudokulab.harness.runner.Worker: a child process
that builds its engine once and keeps it warm: a player gains nothing from a cold
solve, which rebuilds the engine first). The server never solves itself: it sends
the puzzle down the worker's pipe and awaits the pipe becoming readable, with a hard
deadline (the solve's timeout plus the harness's grace). A worker that overruns is killed
and the solve answered TIMEOUT; one that dies is answered ERROR. Either way the request
gets a Result, and the next request gets a fresh worker. A solve cancelled meanwhile
(POST /api/cancel, or its client gone) ends its worker the same way.

Workers are keyed by (backend spec, limit, timeout), since a harness worker applies the
options it was started with. At most PER_KEY workers per key and MAX_PROCESSES in all:
an idle worker of another key is ended to make room, and a request waits its turn (in
order) when every worker is busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import NamedTuple, Protocol

from sudokulab.harness.runner import STARTUP, Options, Worker
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

PER_KEY = 2            # workers per (backend, limit, timeout): a solve and a compare at once
MAX_PROCESSES = 16     # worker processes in all (each engine holds its own memory)
STARTUP_WAIT = min(STARTUP, 60.0)  # seconds a request waits for a new worker's engine

Key = tuple[str, int | None, float]


class Solved(NamedTuple):
    """One solve in a worker: its Result, the worker's wall and CPU seconds for it, and the
    seconds of the untimed warm-up solve a new worker ran first (None: already warm)."""

    result: Result
    seconds: float
    cpu: float | None = None
    warmup: float | None = None


class Waiters:
    """Requests waiting for a process to be given back or ended. Woken without an await,
    so that the counts of a pool change in one step: a request cancelled twice (the page's
    abort and its POST /api/cancel in the same moment) cannot stop a release half-way and
    leak a process's slot."""

    def __init__(self) -> None:
        self.futures: list[asyncio.Future] = []

    async def wait(self, timeout: float | None = None) -> bool:
        """Wait until woken (True) or for `timeout` seconds (False). Cancelling the wait
        changes nothing in the pool."""
        waiter = asyncio.get_running_loop().create_future()
        self.futures.append(waiter)
        try:
            # not wait_for: on Python 3.11 it can swallow a cancellation that comes as the
            # waiter is woken, and a cancelled request would then take a process
            done, _ = await asyncio.wait({waiter}, timeout=timeout)
            return bool(done)
        finally:
            with contextlib.suppress(ValueError):
                self.futures.remove(waiter)

    def wake(self) -> None:
        """Let every waiting request look again."""
        for waiter in self.futures:
            if not waiter.done():
                waiter.set_result(None)


class Pool:
    """Worker processes by key: idle ones kept warm, busy ones bounded."""

    def __init__(self, max_processes: int = MAX_PROCESSES, per_key: int = PER_KEY) -> None:
        self.max_processes, self.per_key = max_processes, per_key
        self.idle: OrderedDict[Worker, Key] = OrderedDict()  # least recently used first
        self.live: dict[Key, int] = {}
        self.busy: set[Worker] = set()  # answering a request now
        self.waiters = Waiters()  # requests waiting for a worker
        self.ending: set[asyncio.Future] = set()

    @property
    def size(self) -> int:
        """Worker processes alive or starting."""
        return sum(self.live.values())

    async def solve(self, spec: str, puzzle: Puzzle, limit: int | None,
                    timeout: float, warmup: bool = False) -> Solved:
        """One solve in a worker. With `warmup`, a worker new to the request solves the
        puzzle once untimed first, as `sudokulab compare` does: the engine's first-solve
        costs (lazy imports, JIT, caches) are then not in the time."""
        key = (spec, limit, timeout)
        worker = await self._acquire(key, warmup)
        healthy = False
        self.busy.add(worker)
        try:
            if not worker.ready:
                failure = await self._ready(worker)
                if failure is not None:
                    return Solved(failure, 0.0)
            message, answer = await self._answer(worker, puzzle)
            healthy = message is not None
            return answer
        finally:  # a cancelled request (the client left) must not leave a busy worker
            self.busy.discard(worker)
            ending = self._release(worker, key, healthy)
            if ending is not None:  # its process ended before the request ends
                await asyncio.shield(ending)

    async def _ready(self, worker: Worker) -> Result | None:
        """Wait for a new worker's engine; a Result saying why when it cannot start."""
        message = await receive(worker, STARTUP_WAIT)
        if message is None:
            return Result(Status.ERROR, message="the worker did not start in time")
        if isinstance(message, str):
            return Result(Status.ERROR, message=message)
        if message[0] == "failed":
            return Result(Status.ERROR, message=f"the worker failed: {message[1]}")
        worker.ready = True
        return None

    async def _answer(self, worker: Worker, puzzle: Puzzle) -> tuple[object, Solved]:
        """Send the puzzle and await the answer: (the worker's message or None, Solved)."""
        started = time.perf_counter()
        if not worker.send([(0, puzzle)]):
            return None, Solved(Result(Status.ERROR, message="worker died before the puzzle"),
                                0.0)
        # the harness's own deadline: a warm-up solve too, on a new worker
        message = await receive(worker, worker.options.allowance(worker.options.runs(
            worker.fresh)) or STARTUP)
        elapsed = time.perf_counter() - started
        if message is None:
            return None, Solved(Result(Status.TIMEOUT,
                                       message="no answer in time: worker killed"), elapsed)
        if isinstance(message, str):
            return None, Solved(Result(Status.ERROR, message=message), elapsed)
        worker.answered(1)
        _, [(_, result, seconds, _, warmup, cpu, *_)] = message
        return message, Solved(result, seconds, cpu, warmup)

    async def _acquire(self, key: Key, warmup: bool = False) -> Worker:
        """An idle worker of this key, or a new one when there is room; waits otherwise."""
        while True:
            worker = self._idle_worker(key)
            if worker is not None:
                return worker
            if self.live.get(key, 0) < self.per_key:
                if self.size >= self.max_processes:
                    self._evict(key)
                if self.size < self.max_processes:
                    self.live[key] = self.live.get(key, 0) + 1
                    break
            await self.waiters.wait()
        # spawning forks and writes the start data: kept off the event loop, and finished
        # even when the request is cancelled meanwhile (the new worker is then ended)
        spawning = asyncio.ensure_future(asyncio.to_thread(
            Worker, key[0], Options(key[1], key[2], warmup=warmup, warm=True)))
        try:
            return await asyncio.shield(spawning)
        except BaseException:
            spawning.add_done_callback(_discard)
            self._forget(key)
            raise

    def _idle_worker(self, key: Key) -> Worker | None:
        """An idle worker of this key still alive; one that died while idle is dropped
        (its slot freed, so a new one replaces it)."""
        for worker, its_key in list(self.idle.items()):
            if its_key != key:
                continue
            del self.idle[worker]
            if worker.process.is_alive():
                return worker
            self._end_later(worker)
            self._forget(key)
        return None

    def _evict(self, key: Key) -> None:
        """End the least recently used idle worker of another key, if there is one."""
        for worker, its_key in self.idle.items():
            if its_key != key:
                del self.idle[worker]
                self.live[its_key] -= 1
                self._end_later(worker)
                return

    def _end_later(self, worker: Worker) -> asyncio.Future:
        """End a worker off the event loop: the task, kept until done (a bare task may be
        collected)."""
        ending = asyncio.ensure_future(asyncio.to_thread(_end, worker))
        self.ending.add(ending)
        ending.add_done_callback(self.ending.discard)
        return ending

    def _release(self, worker: Worker, key: Key, healthy: bool) -> asyncio.Future | None:
        """Keep a healthy worker warm; end any other (the task ending it). No await, as
        in Waiters: a second cancellation cannot stop it half-way and leak the slot."""
        if healthy:
            self.idle[worker] = key
            self.waiters.wake()
            return None
        ending = self._end_later(worker)
        self._forget(key)
        return ending

    def _forget(self, key: Key) -> None:
        """One worker of this key fewer (none counted once the pool is closed)."""
        if self.live.get(key):
            self.live[key] -= 1
        self.waiters.wake()

    def close(self) -> None:
        """End every worker: the idle ones, and the busy ones of requests the server
        cancelled as it stopped (their answers would reach no one)."""
        for worker in [*self.idle, *self.busy]:
            _end(worker)
        self.idle.clear()
        self.busy.clear()
        self.live.clear()


class Piped(Protocol):
    """A child process the server talks to down a pipe: a solve worker or a helper."""

    @property
    def conn(self) -> Connection:
        """The parent's end of the pipe."""
        ...

    @property
    def process(self) -> BaseProcess:
        """The child process."""
        ...

    def kill(self) -> None:
        """End the process now, whatever it is doing."""
        ...


async def receive(worker: Piped, seconds: float) -> tuple | str | None:
    """The worker's next message (every message a worker or helper sends is a tuple); None
    when it is overdue (it is then killed), or text saying how it died. The one way the
    server awaits a spawned process (the solve workers here, and tutor.py's helpers)
    without blocking its event loop."""
    loop = asyncio.get_running_loop()
    readable = asyncio.Event()
    fd = worker.conn.fileno()
    loop.add_reader(fd, readable.set)
    try:
        await asyncio.wait_for(readable.wait(), seconds)
    except asyncio.TimeoutError:
        await asyncio.to_thread(worker.kill)
        return None
    finally:
        loop.remove_reader(fd)
    try:
        return worker.conn.recv()
    except (EOFError, OSError):
        await asyncio.to_thread(worker.process.join, 1.0)
        return f"worker died (exit code {worker.process.exitcode})"


def _discard(spawning: asyncio.Future) -> None:
    """End a worker whose request was gone before it started."""
    if not spawning.cancelled() and spawning.exception() is None:
        # off the event loop: ending a process waits for it
        asyncio.get_running_loop().run_in_executor(None, _end, spawning.result())


def _end(worker: Worker) -> None:
    """Ask a worker to stop and make sure it does."""
    worker.release()
    with contextlib.suppress(Exception):
        worker.stop()
