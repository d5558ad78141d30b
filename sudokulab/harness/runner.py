"""Run one backend over a stream of puzzles in worker processes that may hang or crash.

Each worker is a spawned process (never forked: native engines such as SWI-Prolog run
threads that do not survive fork) that builds its engine once from the backend spec and
then solves the puzzles it is sent, one at a time, keeping its engine warm. The parent
holds a hard deadline per puzzle (the backend's own timeout plus a grace): a worker that
overruns it is killed and the puzzle recorded as a timeout; a worker that dies (a
segfault, os._exit, a signal) has its puzzle recorded as an error. Either way a fresh
worker takes its place and the run goes on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import numbers
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from sudokulab.harness.records import Record
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

STARTUP = 120.0         # seconds a worker may take to import and build its engine
STARTUP_FAILURES = 3    # workers dying before they are ready: give up on the backend
PIPELINE = 2            # puzzles in flight per worker: the next one waits in the pipe, so
                        # the worker never idles while the parent logs the last answer
CONTEXT = multiprocessing.get_context("spawn")

Job = tuple[int, Puzzle]  # a puzzle and its index in the puzzle set


@dataclass(frozen=True)
class Options:
    """How every puzzle is solved: the same for all backends of a run."""

    limit: int = 2
    timeout: float | None = None
    repeat: int = 1
    warmup: bool = True

    def allowance(self, runs: int) -> float | None:
        """Seconds the parent waits for `runs` solves before killing the worker."""
        if self.timeout is None:
            return None
        return runs * self.timeout + grace(self.timeout)


def grace(timeout: float) -> float:
    """Slack past a backend's own timeout, for engines that check the clock coarsely."""
    return 1.0 + timeout / 2


class BackendFailed(Exception):
    """The backend's workers cannot even start; the message says why."""


# --- in the worker process -------------------------------------------------------------

def serve(spec: str, conn: Connection, options: Options) -> None:
    """A worker's life: build the engine, then answer puzzles until told to stop."""
    # Ctrl-C and SIGTERM (sent to the whole process group) are the parent's to handle:
    # it records what is done, then ends its workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        _serve(spec, conn, options)
    except (EOFError, OSError):  # the parent is gone (a broken pipe): nobody to answer
        return


def _serve(spec: str, conn: Connection, options: Options) -> None:
    """serve() until the parent says stop or its pipe breaks."""
    from sudokulab.backends import make_backend

    try:
        backend = make_backend(spec)
    except Exception as error:  # reported to the parent, which gives up on this backend
        conn.send(("failed", f"{type(error).__name__}: {error}"))
        return
    conn.send(("ready",))
    fresh = True
    while True:
        job = conn.recv()
        if job is None:
            return
        index, puzzle = job
        warmup = _timed(backend, puzzle, options)[1] if fresh and options.warmup else None
        fresh = False
        runs = sorted((_timed(backend, puzzle, options) for _ in range(options.repeat)),
                      key=lambda run: run[1])
        result, seconds = runs[(len(runs) - 1) // 2]
        conn.send(("done", index, result, seconds, [t for _, t in runs], warmup))


def _timed(backend, puzzle: Puzzle, options: Options) -> tuple[Result, float]:
    """One solve and the seconds it took; a backend that breaks its contract gets an ERROR."""
    started = time.perf_counter()
    try:
        result = plain(backend.solve(puzzle, limit=options.limit, timeout=options.timeout))
    except Exception as error:  # Backend.solve should never raise; a plugin's might
        result = Result(Status.ERROR, message=f"solve raised {type(error).__name__}: {error}")
    return result, time.perf_counter() - started


def plain(result: Result) -> Result:
    """The result in plain Python numbers (engines may hand out their own number types),
    so that the parent can always pickle and log it."""
    stats = {str(k): _number(v) for k, v in result.stats.items()}
    solutions = tuple(tuple(int(d) for d in grid) for grid in result.solutions)
    return Result(Status(result.status), solutions, int(result.count), bool(result.exact),
                  stats, float(result.build_time), float(result.solve_time),
                  str(result.message))


def _number(value: object) -> int | float | str:
    """An int or float for any kind of number; text for anything else."""
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value) if isinstance(value, numbers.Real) else str(value)


# --- in the parent ---------------------------------------------------------------------

class Worker:
    """The parent's handle on one worker process and the puzzles sent to it."""

    def __init__(self, spec: str, options: Options) -> None:
        self.spec, self.options = spec, options
        self.start()

    def start(self) -> None:
        """Spawn a fresh process; it reports 'ready' once its engine is built."""
        self.conn, child = CONTEXT.Pipe()
        self.process = CONTEXT.Process(target=serve, args=(self.spec, child, self.options),
                                       daemon=True, name=f"sudokulab-{self.spec}")
        self.process.start()
        child.close()
        self.ready = False
        self.fresh = True
        self.jobs: deque[Job] = deque()  # sent and not answered; the first is being solved
        self.started = 0.0               # when the first job began, as far as we can tell
        self.deadline: float | None = time.perf_counter() + STARTUP

    def send(self, job: Job) -> bool:
        """Queue a puzzle in the worker's pipe; False if the worker is already dead."""
        try:
            self.conn.send(job)
        except OSError:  # it died since we last looked: it is replaced, the puzzle kept
            return False
        self.jobs.append(job)
        if len(self.jobs) == 1:
            self._begin()
        return True

    def answered(self) -> Job:
        """The first job is done; the next one, already in the pipe, begins now."""
        job = self.jobs.popleft()
        self.fresh = False
        if self.jobs:
            self._begin()
        else:
            self.deadline = None
        return job

    def _begin(self) -> None:
        """Start the clock of the first job: its own solves (and a warm-up) plus grace."""
        self.started = time.perf_counter()
        runs = self.options.repeat + (1 if self.fresh and self.options.warmup else 0)
        allowance = self.options.allowance(runs)
        self.deadline = None if allowance is None else self.started + allowance

    def release(self) -> None:
        """Ask an idle process to end; it exits on its own while the others are asked."""
        if self.process.is_alive() and not self.jobs:
            with contextlib.suppress(OSError):  # it may be dying already
                self.conn.send(None)

    def stop(self) -> None:
        """Let a released process end, kill a busy one (its puzzles are not recorded)."""
        if not self.jobs:
            self.process.join(timeout=1.0)
        self.kill()

    def kill(self) -> None:
        """End the process now, whatever it is doing."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def run_backend(spec: str, puzzles: Iterable[Job], options: Options, *, jobs: int = 1,
                record: Callable[[Record], None]) -> None:
    """Solve every (index, puzzle) with backend `spec` on up to `jobs` workers.

    `record` receives each Record as soon as it exists, in the order puzzles finish.
    Raises BackendFailed when no worker can start.
    """
    queue = deque(puzzles)
    pool = [Worker(spec, options) for _ in range(min(jobs, len(queue)))]
    startup_failures = 0
    try:
        while queue or any(w.jobs for w in pool):
            for worker in pool:
                while worker.ready and len(worker.jobs) < PIPELINE and queue:
                    job = queue.popleft()
                    if not worker.send(job):
                        queue.appendleft(job)
                        break
            ready = _wait(pool)
            for worker in pool:
                if not _collect(worker, spec, record, ready):
                    continue
                queue.extendleft(reversed(worker.jobs))  # sent but never begun: not lost
                worker.jobs.clear()
                if not worker.ready:
                    startup_failures += 1
                    if startup_failures >= STARTUP_FAILURES:
                        raise BackendFailed(f"workers die before they are ready "
                                            f"({_exit_text(worker.process.exitcode)})")
                if queue:
                    worker.start()
    finally:
        for worker in pool:
            worker.release()
        for worker in pool:
            worker.stop()


def _wait(pool: list[Worker]) -> list:
    """Sleep until a worker says something, dies, or reaches its deadline; what is ready."""
    deadlines = [w.deadline for w in pool if w.deadline is not None and w.process.is_alive()]
    # Capped at an hour: poll() cannot wait for the years a huge --timeout asks for.
    timeout = min(3600.0, max(0.0, min(deadlines) - time.perf_counter())) if deadlines else None
    waitables = [w.conn for w in pool if not w.conn.closed]
    waitables += [w.process.sentinel for w in pool if w.process.is_alive()]
    return wait(waitables, timeout) if waitables else []


def _collect(worker: Worker, spec: str, record: Callable[[Record], None],
             ready: list) -> bool:
    """Take in what one worker produced; True when it is gone (dead, or killed now)."""
    if worker.conn.closed:
        return False
    alive = worker.process.is_alive()
    overdue = worker.deadline is not None and time.perf_counter() >= worker.deadline
    # polling a pipe costs a selector: read one that is ready, or one whose worker is dead
    # or overdue (its last answers may have come in since the wait)
    while (worker.conn in ready or not alive or overdue) and worker.conn.poll():
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            break
        if message[0] == "ready":
            worker.ready, worker.deadline = True, None
        elif message[0] == "failed":
            raise BackendFailed(message[1])
        else:
            _, index, result, seconds, times, warmup = message
            worker.answered()
            record(Record(spec, index, result, seconds, times, warmup))
    if alive:
        if worker.deadline is None or time.perf_counter() < worker.deadline:
            return False
        worker.kill()
        _lost(worker, spec, record, Status.TIMEOUT, "no answer in time: worker killed")
    else:
        worker.kill()
        _lost(worker, spec, record, Status.ERROR,
              f"worker died ({_exit_text(worker.process.exitcode)})")
    return True


def _lost(worker: Worker, spec: str, record: Callable[[Record], None], status: Status,
          why: str) -> None:
    """Record the puzzle a dead or killed worker was solving, if any."""
    if worker.jobs:
        index, _ = worker.jobs.popleft()
        elapsed = time.perf_counter() - worker.started
        record(Record(spec, index, Result(status, message=why), elapsed, [elapsed]))


def _exit_text(code: int | None) -> str:
    """'killed by SIGSEGV' or 'exit code 3'."""
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
