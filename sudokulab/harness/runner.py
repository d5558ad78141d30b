"""Run one backend over a stream of puzzles in worker processes that may hang or crash.

Each worker is a child process (sudokulab.harness.children) that builds its engine once from
the backend spec and then solves the puzzles it is sent: cold (the engine forgets what
earlier puzzles taught it before each solve, untimed) unless the options say warm. The
parent holds a hard deadline per puzzle (the backend's own timeout plus a grace): a
worker that overruns it is killed and the puzzle recorded as a timeout; a worker that
dies (a segfault, os._exit, a signal) has its puzzle recorded as an error. Either way a
fresh worker takes its place and the run goes on.

Puzzles go to a worker in batches, and answers come back per batch: an easy puzzle takes
less time to solve than to pass through a pipe one by one. A batch is sized by the
engine's measured time per puzzle (one puzzle at a time for slow engines), and a worker
sends what it has answered whenever an answer has waited FLUSH seconds, so a long solve
holds nothing back. The deadline is still one puzzle's: its clock restarts with every
answer that comes in. A worker lost midway through a batch keeps what it answered; when
more than one puzzle of the batch is left, nobody knows which one it was solving, so
each is solved again on its own, and only a puzzle that hangs or crashes alone is
recorded as a timeout or an error.

Ctrl-C (SIGINT, which a terminal sends to the whole process group) stops a run started
from the main thread: each worker's engine stops as it does in one process, keeping what
it found, and the worker sends its answers so far and that partial answer before it ends;
the parent records every finished puzzle and raises RunInterrupted with the partial
answers. A worker that did not hear the Ctrl-C (sent to the parent alone) is sent one.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import NamedTuple

from sudokulab import errors
from sudokulab.backends.base import Backend, ctrl_c
from sudokulab.errors import BackendFailed, RunInterrupted
from sudokulab.harness.children import CONTEXT, held, listen
from sudokulab.harness.records import Record, merge
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

STARTUP = 120.0         # seconds a worker may take to import and build its engine
STARTUP_FAILURES = 3    # workers dying before they are ready: give up on the backend
PIPELINE = 2            # batches in flight per worker: the next one waits in the pipe, so
                        # the worker never idles while the parent logs the last answers
BATCH = 0.02            # seconds of solving a batch aims at: a pipe message costs the
                        # parent and the worker some 0.1 ms, a fast engine's puzzle less
BATCH_MAX = 100         # puzzles per batch at most, whatever the engine's speed...
BATCH_CELLS = 8100      # ...and cells: a batch and its answers stay well within what a
                        # pipe buffers, so neither side can block the other on a send
FLUSH = 0.05            # seconds an answer may wait in a worker for the rest of its batch
KILLED = "no answer in time: worker killed"  # a puzzle past its hard deadline
FORGET = 10.0           # seconds a cold solve's engine may take to rebuild, untimed (smt's
                        # model of an empty 25x25 took 2.5 s on a busy 2-core machine)
GRACE = 2.0             # seconds a worker has, after Ctrl-C, to send what it found
                        # before it is sent SIGINT itself (the parent alone heard it)

Job = tuple[int, Puzzle]  # a puzzle and its index in the puzzle set
# index, result, time, times, warm-up, CPU time, CPU times, memory, statuses: a Record's
# fields after its backend
Answer = tuple[int, Result, float, list[float], float | None, float, list[float], float,
               list[str]]


@dataclass(frozen=True)
class Options:
    """How every puzzle is solved: the same for all backends of a run."""

    limit: int | None = 2  # solutions to stop at (None: all, to count them)
    timeout: float | None = None
    repeat: int = 1
    warmup: bool = True
    warm: bool = False  # solve on the engine as earlier solves left it (cold: as new)
    keep: int | None = None  # grids each solve keeps (None: all; a count counts them all)

    def runs(self, fresh: bool) -> int:
        """Solves of one puzzle: its repeats, and a warm-up on a `fresh` engine."""
        return self.repeat + (1 if fresh and self.warmup else 0)

    def allowance(self, runs: int) -> float | None:
        """Seconds the parent waits for `runs` solves before killing the worker (a cold
        solve's untimed rebuild of its engine included)."""
        if self.timeout is None:
            return None
        return runs * (self.timeout + (0.0 if self.warm else FORGET)) + grace(self.timeout)


def grace(timeout: float) -> float:
    """Slack past a backend's own timeout, for engines that check the clock coarsely."""
    return 1.0 + timeout / 2




# --- in the worker process -------------------------------------------------------------

def serve(spec: str, conn: Connection, options: Options, hear: bool = False) -> None:
    """A worker's life: build the engine, then answer batches until told to stop, or
    until Ctrl-C when it `hear`s it."""
    # SIGTERM (sent to the whole process group) is the parent's to handle: it records
    # what is done, then ends its workers. So is Ctrl-C, unless the parent hears it.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _stdout_to_stderr()
    ear = Ear(hear)
    try:
        _serve(spec, conn, options, ear)
    except (EOFError, OSError):  # the parent is gone (a broken pipe): nobody to answer
        return
    except KeyboardInterrupt:  # a second Ctrl-C while the first was being answered
        return


def _stdout_to_stderr() -> None:
    """A worker answers through its pipe alone: what its engine prints to descriptor 1
    (HiGHS's banner, a solver's log) goes to stderr, never into the parent's json or csv."""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no stdout to guard
        sys.stdout.flush()
        os.dup2(2, 1)


def _serve(spec: str, conn: Connection, options: Options, ear: Ear) -> None:
    """serve() until the parent says stop, its pipe breaks, or Ctrl-C."""
    from sudokulab.backends import make_backend

    try:
        backend = make_backend(spec)
    except Exception as error:  # reported to the parent, which gives up on this backend
        conn.send(("failed", f"{type(error).__name__}: {error}"))
        return
    conn.send(("ready",))
    outbox = Outbox(conn)
    fresh = True
    while True:
        batch = conn.recv()
        if batch is None:
            return
        for index, puzzle in batch:
            reply = None
            try:
                with ear.solving():
                    reply = answer(backend, index, puzzle, options, fresh)
            except KeyboardInterrupt as stop:
                ear.deafen()
                found = getattr(stop, "result", None)
                if reply is not None:  # Ctrl-C came just after the solve: it is whole
                    outbox.put(reply)
                    index, found = None, None
                outbox.last(("interrupted", index, None if found is None else plain(found)))
                return
            outbox.put(reply)
            fresh = False
        outbox.flush()


class Ear:
    """A worker's Ctrl-C, when it hears it: its engine hears it during a solve (and stops
    with what it found), it is noted in between (the next solve stops at once)."""

    def __init__(self, hear: bool) -> None:
        self.hear, self.pressed = hear, False
        listen(self.note if hear else signal.SIG_IGN)

    def note(self, signum, frame) -> None:
        """SIGINT between two solves."""
        self.pressed = True

    @contextlib.contextmanager
    def solving(self):
        """A solve, under Python's own handler (base.ctrl_c listens only under it)."""
        if not self.hear:
            yield
            return
        signal.signal(signal.SIGINT, errors.interrupt_once)  # note()s a pending one
        try:
            if self.pressed:
                raise KeyboardInterrupt
            yield
        finally:
            signal.signal(signal.SIGINT, self.note)

    def deafen(self) -> None:
        """One Ctrl-C is answered: further ones are not heard."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def answer(backend, index: int, puzzle: Puzzle, options: Options, fresh: bool) -> Answer:
    """One puzzle's answer: its solves merged (records.merge), after a warm-up solve when
    the engine is `fresh`."""
    warmup = _timed(backend, puzzle, options).seconds if fresh and options.warmup else None
    solves = [_timed(backend, puzzle, options) for _ in range(options.repeat)]
    # the repeats merged as a run's passes are: one definition of the median and result
    one = merge([Record("", index, s.result, s.seconds, [s.seconds], cpu=s.cpu, cpus=[s.cpu],
                        memory=s.memory, repeat=k) for k, s in enumerate(solves, 1)])
    return (index, one.result, one.time, one.times, warmup, one.cpu, one.cpus, one.memory,
            one.statuses)


class Outbox:
    """A worker's answers not yet sent: they go at the end of their batch, or sooner, from
    a timer thread, once the oldest has waited FLUSH seconds (a batch held up by a long
    solve still shows what it has done, and a worker killed then loses none of it)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.answers: list[Answer] = []
        self.since = 0.0                     # when the oldest waiting answer came
        self.changed = threading.Condition()
        threading.Thread(target=self._timer, daemon=True, name="flush").start()

    def put(self, answer: Answer) -> None:
        """One more answer to send."""
        with self.changed:
            if not self.answers:
                self.since = time.monotonic()
                self.changed.notify()
            self.answers.append(answer)

    def flush(self) -> None:
        """Send every waiting answer now."""
        with self.changed:
            self._send()

    def last(self, message: tuple) -> None:
        """Send every waiting answer, then `message` (after it the timer sends nothing)."""
        with self.changed:
            self._send()
            self.conn.send(message)

    def _send(self) -> None:
        """One message with every waiting answer (called holding the lock)."""
        if self.answers:
            self.conn.send(("done", self.answers))
            self.answers = []

    def _timer(self) -> None:
        """Send answers that have waited FLUSH seconds, for as long as the pipe works."""
        with self.changed, contextlib.suppress(EOFError, OSError):
            while True:
                left = self.since + FLUSH - time.monotonic() if self.answers else None
                if left is not None and left <= 0:
                    self._send()
                else:
                    self.changed.wait(left)


class Solve(NamedTuple):
    """One timed solve: its result, wall and CPU seconds, and the process's peak memory."""

    result: Result
    seconds: float
    cpu: float      # this process's CPU seconds and its children's (MiniZinc runs one)
    memory: float   # MB: the peak resident memory of this process or of a child, so far


def _timed(backend: Backend, puzzle: Puzzle, options: Options) -> Solve:
    """One solve, cold unless `options.warm` (see _forget); a backend that breaks its
    contract gets an ERROR."""
    try:
        if not options.warm:
            _forget(backend, puzzle)
    except Exception as error:  # a plugin's forget might raise: the solve is not tried
        return Solve(Result(Status.ERROR, message=f"forget raised {type(error).__name__}: "
                                                  f"{error}"), 0.0, 0.0, _peak_memory())
    cpu, started = _cpu(), time.perf_counter()
    try:
        # keep= only when asked: a plugin's own solve() may not take it
        kept = {} if options.keep is None else {"keep": options.keep}
        result = plain(backend.solve(puzzle, limit=options.limit, timeout=options.timeout,
                                     **kept))
    except Exception as error:  # Backend.solve should never raise; a plugin's might
        result = Result(Status.ERROR, message=f"solve raised {type(error).__name__}: {error}")
    seconds = time.perf_counter() - started
    return Solve(result, seconds, _cpu() - cpu, _peak_memory())


def _forget(backend: Backend, puzzle: Puzzle) -> None:
    """Untimed, before a cold solve: the engine forgets what earlier solves taught it,
    unless it cannot take the puzzle at all (it answers UNSUPPORTED without a model)."""
    if not backend.unsupported(puzzle):
        backend.forget(puzzle)


def _cpu() -> float:
    """CPU seconds used so far by this process (every thread) and its waited-for children."""
    import resource

    # os.times() counts in clock ticks (10 ms), longer than many solves
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _peak_memory() -> float:
    """MB: the largest resident memory this process, or one of its children, has held."""
    import resource

    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
               resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return peak / (1 << 20 if sys.platform == "darwin" else 1 << 10)  # bytes or KB


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
    """The parent's handle on one worker process and the batches sent to it."""

    def __init__(self, spec: str, options: Options, hear: bool = False) -> None:
        self.spec, self.options, self.hear = spec, options, hear
        self.start()

    def start(self) -> None:
        """Start a fresh process; it reports 'ready' once its engine is built."""
        self.conn, child = CONTEXT.Pipe()
        self.process = CONTEXT.Process(target=serve,
                                       args=(self.spec, child, self.options, self.hear),
                                       daemon=True, name=f"sudokulab-{self.spec}")
        with held():
            self.process.start()
        child.close()
        self.ready = False
        self.fresh = True
        # sent and not answered, batch by batch; the first batch is being solved
        self.batches: deque[deque[Job]] = deque()
        self.started = 0.0               # when the puzzle being solved began, at the latest
        self.deadline: float | None = time.perf_counter() + STARTUP
        self.heard = False               # it answered a Ctrl-C, and ends
        self.partial: tuple[int, Result] | None = None  # what it found of its puzzle then

    @property
    def jobs(self) -> list[Job]:
        """Every puzzle sent and not answered, in order."""
        return [job for batch in self.batches for job in batch]

    def send(self, batch: list[Job]) -> bool:
        """Queue a batch in the worker's pipe; False if the worker is already dead."""
        try:
            self.conn.send(batch)
        except OSError:  # it died since we last looked: it is replaced, the batch kept
            return False
        self.batches.append(deque(batch))
        if len(self.batches) == 1:
            self._begin()
        return True

    def answered(self, count: int) -> None:
        """The first `count` puzzles sent are done; the clock restarts for the next one
        (it began before this answer came)."""
        for _ in range(count):
            self.batches[0].popleft()
            if not self.batches[0]:
                self.batches.popleft()
        self.fresh = False
        if self.batches:
            self._begin()
        else:
            self.deadline = None

    def _begin(self) -> None:
        """Start the clock of the next puzzle: its own solves (and a warm-up) plus grace."""
        self.started = time.perf_counter()
        allowance = self.options.allowance(self.options.runs(self.fresh))
        self.deadline = None if allowance is None else self.started + allowance

    def release(self) -> None:
        """Ask an idle process to end; it exits on its own while the others are asked."""
        if self.process.is_alive() and not self.batches:
            with contextlib.suppress(OSError):  # it may be dying already
                self.conn.send(None)

    def stop(self) -> None:
        """Let a released process end, kill a busy one (its puzzles are not recorded)."""
        if not self.batches:
            self.process.join(timeout=1.0)
        self.kill()

    def interrupted(self, index: int | None, found: Result | None) -> None:
        """The worker answered Ctrl-C: what it found of puzzle `index` (if it was solving
        one); its other puzzles are not recorded, and it ends."""
        self.heard, self.deadline = True, None
        if index is not None and found is not None:
            self.partial = (index, found)
        self.batches.clear()

    def kill(self) -> None:
        """End the process now, whatever it is doing."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


class Feed:
    """The puzzles not yet sent, handed out in batches of about BATCH seconds of the
    engine's measured time; puzzles to solve again on their own go first, one by one."""

    def __init__(self, jobs: Iterable[Job], workers: int = 1) -> None:
        self.todo: deque[Job] = deque(jobs)
        self.alone: deque[Job] = deque()
        self.workers = workers
        self.seconds: float | None = None  # solving time per puzzle, a moving average

    def __bool__(self) -> bool:
        return bool(self.todo or self.alone)

    def __len__(self) -> int:
        return len(self.todo) + len(self.alone)

    def take(self) -> list[Job]:
        """The next batch to send."""
        if self.alone:
            return [self.alone.popleft()]
        return [self.todo.popleft() for _ in range(min(self.size(), len(self.todo)))]

    def size(self) -> int:
        """Puzzles for the next batch: one until a time is measured, then about BATCH
        seconds' worth, but no more than each worker's share of what is left (the tail of
        a run spreads over every worker)."""
        if self.seconds is None or not self.todo:
            return 1
        share = math.ceil(len(self.todo) / (self.workers * PIPELINE))
        cells = BATCH_CELLS // self.todo[0][1].n ** 2
        return max(1, min(BATCH_MAX, cells, share, int(BATCH / max(self.seconds, 1e-9))))

    def learn(self, answers: list[Answer]) -> None:
        """Fold the solving times of answers into the time per puzzle."""
        mean = sum(sum(answer[3]) for answer in answers) / len(answers)
        self.seconds = mean if self.seconds is None else (self.seconds + mean) / 2

    def unsent(self, batch: list[Job]) -> None:
        """A batch that never began goes back in front (one puzzle: to be solved alone)."""
        if len(batch) == 1:
            self.alone.appendleft(batch[0])
        else:
            self.todo.extendleft(reversed(batch))

    def replay(self, jobs: list[Job]) -> None:
        """Puzzles of a lost batch, to be solved again one by one."""
        self.alone.extend(jobs)


def run_backend(spec: str, puzzles: Iterable[Job], options: Options, *, jobs: int = 1,
                record: Callable[[Record], None],
                closing: threading.Event | None = None) -> None:
    """Solve every (index, puzzle) with backend `spec` on up to `jobs` workers.

    `record` receives each Record as soon as it exists, in the order puzzles finish.
    Raises BackendFailed when no worker can start, RuntimeError once `closing` is set,
    RunInterrupted on Ctrl-C (heard only from the main thread, as base.ctrl_c hears it).
    """
    feed = Feed(puzzles)
    # The workers hear the stop the parent sends them as SIGINT when the parent hears
    # Ctrl-C, or SIGTERM alone (Ctrl-C ignored, as in a script's `cmd &`: base.ctrl_c)
    hearing = signal.getsignal(signal.SIGINT)
    hear = (threading.current_thread() is threading.main_thread()
            and (errors.hears_ctrl_c(hearing)
                 or (hearing is signal.SIG_IGN and errors.sigterm_is_ctrl_c())))
    pool = [Worker(spec, options, hear) for _ in range(min(jobs, len(feed)))]
    feed.workers = max(1, len(pool))
    bell_in, bell = os.pipe()  # rung on Ctrl-C, so that the wait for workers ends
    try:
        with ctrl_c(lambda: os.write(bell, b"!")) as key:
            def stopping() -> bool:
                return key.pressed or any(w.heard for w in pool)

            drive(pool, feed, spec, record, closing=closing, stopping=stopping, bell=bell_in)
        if stopping():  # outside ctrl_c: a second Ctrl-C ends the wait for the workers
            raise RunInterrupted(settle(pool, spec, record, feed))
    finally:
        os.close(bell_in)
        os.close(bell)
        for worker in pool:
            worker.release()
        for worker in pool:
            worker.stop()


def drive(pool: list[Worker], feed: Feed, spec: str, record: Callable[[Record], None], *,
          closing: threading.Event | None = None,
          stopping: Callable[[], bool] = lambda: False, bell: int | None = None) -> None:
    """Feed the pool's workers until every puzzle is recorded, replacing lost workers
    when more puzzles wait, or until `stopping` (Ctrl-C, which rings `bell`). Raises
    BackendFailed when workers keep dying before they are ready, RuntimeError once
    `closing` is set."""
    startup_failures = 0
    while (feed or any(w.batches for w in pool)) and not stopping():
        if closing is not None and closing.is_set():
            raise RuntimeError("the Dask worker is closing")
        for worker in pool:
            while worker.ready and len(worker.batches) < PIPELINE and feed:
                batch = feed.take()
                if not worker.send(batch):
                    feed.unsent(batch)
                    break
        ready = _wait(pool, bell)
        for worker in pool:
            if not _collect(worker, spec, record, ready, feed) or worker.heard:
                continue
            if not worker.ready:
                startup_failures += 1
                if startup_failures >= STARTUP_FAILURES:
                    raise BackendFailed(f"workers die before they are ready "
                                        f"({_exit_text(worker.process.exitcode)})")
            if feed and not stopping():
                worker.start()


def settle(pool: list[Worker], spec: str, record: Callable[[Record], None],
           feed: Feed) -> dict[int, Result]:
    """After Ctrl-C: record what busy workers still answer, and return what each found of
    the puzzle it was solving. A worker silent for GRACE seconds is sent SIGINT (the
    Ctrl-C reached the parent alone); one that dies or overruns its hard deadline has
    nothing of its puzzle recorded. A second Ctrl-C ends the wait."""
    # SIGTERM, answered as Ctrl-C, reached the parent alone (workers ignore it): ask now
    asked = time.perf_counter() + (0.0 if errors.terminated() else GRACE)
    while True:
        busy = [w for w in pool if w.batches and not w.conn.closed]
        if not busy:
            return dict(w.partial for w in pool if w.partial is not None)
        if asked is not None and time.perf_counter() >= asked:
            for worker in busy:
                with contextlib.suppress(OSError):  # it may have just ended
                    os.kill(worker.process.pid, signal.SIGINT)
            asked = None
        wait_at_most = 3600.0 if asked is None else max(0.0, asked - time.perf_counter())
        ready = _wait(busy, cap=wait_at_most)
        for worker in busy:
            _collect(worker, spec, record, ready, feed, stopping=True)


def _wait(pool: list[Worker], bell: int | None = None, cap: float = 3600.0) -> list:
    """Sleep until a worker says something, dies, or reaches its deadline, or the `bell`
    rings, or for `cap` seconds at most; what is ready."""
    deadlines = [w.deadline for w in pool if w.deadline is not None and w.process.is_alive()]
    # Capped at an hour: poll() cannot wait for the years a huge --timeout asks for.
    timeout = min([cap] + [max(0.0, d - time.perf_counter()) for d in deadlines])
    waitables = [w.conn for w in pool if not w.conn.closed]
    waitables += [w.process.sentinel for w in pool if w.process.is_alive()]
    waitables += [] if bell is None else [bell]
    return wait(waitables, timeout) if waitables else []


def _collect(worker: Worker, spec: str, record: Callable[[Record], None], ready: list,
             feed: Feed, stopping: bool = False) -> bool:
    """Take in what one worker produced; True when it is gone (dead, or killed now).
    When `stopping` (after Ctrl-C), a puzzle it leaves unanswered is not recorded."""
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
        elif message[0] == "interrupted":
            worker.interrupted(message[1], message[2])
        else:
            answers = message[1]
            worker.answered(len(answers))
            feed.learn(answers)
            for answer in answers:
                record(Record(spec, *answer))
    if alive and (worker.deadline is None or time.perf_counter() < worker.deadline):
        return False
    worker.kill()
    if stopping:
        worker.batches.clear()  # cut short by Ctrl-C, not lost: nothing to record
    if alive:
        _lost(worker, spec, record, feed, Status.TIMEOUT, KILLED)
    else:
        _lost(worker, spec, record, feed, Status.ERROR,
              f"worker died ({_exit_text(worker.process.exitcode)})")
    return True


def _lost(worker: Worker, spec: str, record: Callable[[Record], None], feed: Feed,
          status: Status, why: str) -> None:
    """Settle the batches of a dead or killed worker: the puzzle it was solving is
    recorded when it was the last one left of its batch, else the rest of the batch is
    solved again one by one; batches that never began go back to the feed."""
    if worker.batches:
        first = list(worker.batches.popleft())
        if len(first) == 1:
            elapsed = time.perf_counter() - worker.started
            record(Record(spec, first[0][0], Result(status, message=why), elapsed, [elapsed]))
        else:
            feed.replay(first)
    while worker.batches:
        feed.unsent(list(worker.batches.pop()))


def _exit_text(code: int | None) -> str:
    """'killed by SIGSEGV' or 'exit code 3'."""
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
