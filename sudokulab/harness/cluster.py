"""`compare --cluster`: the same runs as runner.py, on a Dask distributed cluster.

The puzzles go out in chunks (a Dask task costs milliseconds, a puzzle often less). On
each Dask worker, a worker plugin keeps engines, one per backend and worker thread, in
the worker's own process (each forgets the puzzles before a cold solve, as runner.py's
do): a puzzle costs its solve and nothing more (no pipe, no second process per worker).
The engine's own timeout stops a long solve; for an engine that
ignores it, a watchdog holds each puzzle's hard deadline (runner.py's): past it, the
puzzle is saved on the scheduler as a timeout with the chunk's answers so far, and the
watchdog ends the Dask worker's process, which its nanny restarts. A kernel timer ends the
process a little later still, should the hung engine hold the GIL.

A chunk that comes back to a worker after its first attempt died (a hang, an engine that
crashed the process, a worker killed or lost) keeps what was saved and solves the rest
carefully, each engine in a process of its own driven as runner.py drives it: a hung
engine is killed and recorded as a timeout, a crashed one recorded as an error, and the
Dask worker is at no risk. A worker knows a second attempt by a mark that the first one
left on the scheduler as it began.

The plugin also declares a worker resource named after every backend available on that
machine, and chunks ask for it: only workers with SWI-Prolog run `prolog`. A nanny plugin
has the workers it restarts declare the same resources as they register.

The client appends each chunk's records to runs.jsonl as the chunk finishes. A lost
worker's chunk runs again elsewhere (the scheduler sends it; a chunk that took down
several workers in turn the client sends once more, to be solved carefully); nothing of
it was recorded, so nothing is recorded twice. A lost scheduler ends the run as an
interrupt does: what was recorded is kept for `--resume`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import pickle
import re
import signal
import sys
import threading
import time
import uuid
import weakref
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError
from dataclasses import dataclass
from importlib.util import find_spec

import dask
import distributed
from distributed.deploy.spec import SpecCluster
from distributed.diagnostics.plugin import NannyPlugin, WorkerPlugin
from distributed.utils import sync

from sudokulab.backends import backend_class, make_backend, names, parse_spec
from sudokulab.backends.base import Backend
from sudokulab.errors import BackendFailed, ClusterError, ClusterLost
from sudokulab.harness import runner
from sudokulab.harness.records import Record, cores
from sudokulab.harness.runner import Job, Options
from sudokulab.result import Result, Status

CHUNK_MIN = 100       # puzzles per task at least (a task costs milliseconds), unless...
SMALL_RUN = 4         # ...a run is so small that each worker thread would not get this many
CHUNK_MAX = 1000      # puzzles per task at most: past this, the tail of a run waits on one
CHUNKS_PER_THREAD = 16  # chunks per worker thread between those, so the load evens out
IN_FLIGHT = 4         # chunks per worker thread in flight: the next ones wait on the worker
CONNECT = 10.0        # seconds to reach a scheduler
ANSWER = 10.0         # seconds more for it to answer as a scheduler (Dask bounds only the connect)
WORKERS = 60.0        # seconds to wait for a first worker of a new cluster
CHECK = 1.0           # seconds between checks that the scheduler is still there
ORPHANED = 300.0      # seconds with no worker that has the backend before its chunks fail
SAVE = 10.0           # seconds a hung chunk's answers may take to reach the scheduler
LATE = 2.0            # seconds past a hard deadline before the kernel timer ends the process
LOCAL = re.compile(r"local(?::(\d+))?")
REMOTE = re.compile(r"tcp://[^\s:/]+:\d+")
PLUGIN = "sudokulab-engines"
RESOURCES = "sudokulab-resources"
METADATA = "sudokulab"  # the scheduler's metadata about chunks: METADATA/run/chunk/...
# A LocalCluster shares the machine with its engines: Dask's monitors that wake 10 to 50
# times a second (the statistical profiler, the event loop's tick, memory and system
# monitors) wake once a second or not at all (what that saves: results/cluster.md)
QUIET = {"distributed.worker.profile.enabled": False,
         "distributed.admin.tick.interval": "1s",
         "distributed.admin.system-monitor.interval": "1s",
         "distributed.worker.memory.monitor-interval": "1s"}
# A LocalCluster closes for good a nanny whose worker is not back this long after it died
# (Dask's default: 15 s); on a loaded machine a restart after a crash took longer, and the
# run then waited ORPHANED seconds for workers that would never come. The nanny restarts
# the worker: the LocalCluster waits as long as the run would.
KEEP = {"distributed.deploy.lost-worker-timeout": f"{ORPHANED:g}s"}



# --- on each Dask worker -------------------------------------------------------------

@dataclass
class Engine:
    """A warm backend in the worker's process; `fresh` until its first puzzle."""

    backend: Backend
    fresh: bool = True


class Engines(WorkerPlugin):
    """Warm engines in one Dask worker's process, kept from chunk to chunk, and the
    watchdog over their puzzles."""

    name = PLUGIN
    idempotent = True  # a second run on the same cluster keeps the engines warm

    def __init__(self, local: bool = False) -> None:
        self.local = local
        # A LocalCluster's workers share the client's machine and environment, so the
        # client's answer holds for them: each worker (re)start is spared importing every
        # engine to ask (CPMpy alone imports OR-Tools and pandas: about a second)
        self.here = available_backends() if local else None

    async def setup(self, worker: distributed.Worker) -> None:
        """Allow careful engine processes, start the watchdog, and declare a resource per
        backend this machine has."""
        # a careful chunk's engines are processes of their own, which multiprocessing
        # forbids under a daemonic process (as Dask starts its workers); drive() ends them
        multiprocessing.current_process().daemon = False
        if self.local:  # Ctrl-C reaches a LocalCluster's workers too: compare handles it
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.worker = worker
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.idle: dict[str, list[Engine]] = {}
        self.watchdog = Watchdog()
        here = self.here if self.local else await asyncio.to_thread(available_backends)
        await worker.set_resources(**{name: worker.state.nthreads for name in here})

    def teardown(self, worker: distributed.Worker) -> None:
        """A chunk running now stops rather than start another puzzle."""
        self.closing.set()

    def take(self, spec: str) -> Engine:
        """An idle warm engine for this backend, or a new one."""
        with self.lock:
            idle = self.idle.get(spec)
            if idle:
                return idle.pop()
        try:
            return Engine(make_backend(spec))
        except Exception as error:  # as runner.py reports an engine that cannot start
            raise BackendFailed(f"{type(error).__name__}: {error}") from None

    def give(self, spec: str, engine: Engine) -> None:
        """An engine back to the idle ones after a chunk."""
        with self.lock:
            self.idle.setdefault(spec, []).append(engine)

    def attempt(self, path: list[str]) -> list[Record] | None:
        """Mark on the scheduler that a chunk begins here; None when it is its first
        attempt, else the records its earlier attempts saved (perhaps none)."""
        me = uuid.uuid4().hex

        async def ask() -> dict | None:
            known, _ = await asyncio.gather(
                self.worker.scheduler.get_metadata(keys=path, default=None),
                self.worker.scheduler.set_metadata(keys=[*path, "attempts", me], value=1))
            return known

        known = sync(self.worker.loop, ask)  # one round trip: both go at once
        attempts = set((known or {}).get("attempts", ())) - {me}
        if not attempts:
            return None
        saved = known.get("saved")
        return pickle.loads(saved) if saved else []

    def save(self, path: list[str], records: list[Record]) -> None:
        """Keep a chunk's records on the scheduler for its next attempt (pickled: the
        scheduler need not import sudokulab)."""
        sync(self.worker.loop, self.worker.scheduler.set_metadata,
             keys=[*path, "saved"], value=pickle.dumps(records), callback_timeout=SAVE)


@dataclass
class Watch:
    """One chunk's puzzle under the watchdog: its hard deadline, and what to save when
    it passes."""

    save: Callable[[], None]
    deadline: float | None = None


class Watchdog:
    """Ends this process when a puzzle passes its hard deadline, once the chunk's answers
    are saved: a thread for an engine hung in Python, a kernel timer (SIGALRM, whose
    default action ends the process) for one that holds the GIL in native code."""

    def __init__(self) -> None:
        self.watches: list[Watch] = []
        self.changed = threading.Condition()
        self.wake: float | None = None  # when the thread wakes next
        try:
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            self.alarm = True
        except ValueError:  # not the main thread: no kernel timer, the thread alone
            self.alarm = False
        threading.Thread(target=self._watch, daemon=True, name="sudokulab-watchdog").start()

    def arm(self, watch: Watch, seconds: float) -> None:
        """The watched chunk's next puzzle has `seconds` until its hard deadline."""
        deadline = time.monotonic() + seconds
        with self.changed:
            if watch.deadline is None:
                self.watches.append(watch)
            watch.deadline = deadline
            if self.wake is None or deadline < self.wake:
                self.changed.notify()  # else the thread wakes in time, finds it, sleeps on
            self._timer()

    def disarm(self, watch: Watch) -> None:
        """The watched chunk is over."""
        with self.changed:
            if watch.deadline is not None:
                self.watches.remove(watch)
                watch.deadline = None
                self._timer()

    def _timer(self) -> None:
        """Set the kernel timer LATE past the first deadline (holding the lock)."""
        if self.alarm:
            first = min((w.deadline for w in self.watches), default=None)
            signal.setitimer(signal.ITIMER_REAL,
                             0 if first is None else max(first + LATE - time.monotonic(),
                                                         1e-3))

    def _watch(self) -> None:
        """Sleep until a deadline; past one, save what can be saved and end the process."""
        with self.changed:
            while True:
                now = time.monotonic()
                first = min((w.deadline for w in self.watches), default=None)
                if first is not None and first <= now:
                    break
                self.wake = first
                self.changed.wait(None if first is None else first - now)
            if self.alarm:  # the saving has this long before the kernel timer cuts it short
                signal.setitimer(signal.ITIMER_REAL, SAVE + LATE)
            hung = [w for w in self.watches if w.deadline <= now]
        for watch in hung:
            try:
                watch.save()
            except Exception:  # not saved: the next attempt solves the chunk again
                break
        os.kill(os.getpid(), signal.SIGKILL)


def solve_chunk(spec: str, options: Options, path: list[str], chunk: bytes,
                careful: bool = False) -> bytes:
    """The Dask task: solve a chunk (its jobs pickled) in this process with a warm engine,
    or, on a second attempt or when `careful`, in engine processes; its Records, pickled.

    Jobs and records travel as one pickle each: Dask would look into every item of a
    list for futures on the way out, and pickle each on its own on the way back, which
    cost the client 0.08 ms a puzzle, twice what the local runner's parent spends."""
    engines: Engines = distributed.get_worker().plugins[PLUGIN]
    jobs: list[Job] = pickle.loads(chunk)
    saved = engines.attempt(path)
    if saved is None and not careful:
        records = solve_here(engines, spec, options, path, jobs)
    else:
        done = {r.index for r in saved or ()}
        records = (saved or []) + drive(spec, options, [j for j in jobs if j[0] not in done],
                                        engines.closing)
    return pickle.dumps(records, protocol=pickle.HIGHEST_PROTOCOL)


def solve_here(engines: Engines, spec: str, options: Options, path: list[str],
               jobs: list[Job]) -> list[Record]:
    """The chunk solved by a warm engine in this process, each puzzle under the watchdog."""
    engine = engines.take(spec)
    records: list[Record] = []
    now: dict = {}  # the puzzle being solved, for the watchdog

    def hung() -> None:
        """Save the answers so far and the hung puzzle as a timeout."""
        elapsed = time.perf_counter() - now["started"]
        engines.save(path, [*records, Record(spec, now["index"], Result(
            Status.TIMEOUT, message=runner.KILLED), elapsed, [elapsed])])

    watch = Watch(hung)
    try:
        for index, puzzle in jobs:
            if engines.closing.is_set():
                raise RuntimeError("the Dask worker is closing")
            allowance = options.allowance(options.runs(engine.fresh))
            now["index"], now["started"] = index, time.perf_counter()
            if allowance is not None:
                engines.watchdog.arm(watch, allowance)
            answer = runner.answer(engine.backend, index, puzzle, options, engine.fresh)
            engine.fresh = False
            records.append(Record(spec, *answer))
    finally:
        engines.watchdog.disarm(watch)
    engines.give(spec, engine)
    return records


def drive(spec: str, options: Options, jobs: Iterable[Job],
          closing: threading.Event | None = None) -> list[Record]:
    """The jobs solved as runner.run_backend solves them, by an engine in a process of its
    own; stops when the Dask worker is `closing` (the chunk then fails, and is not
    recorded)."""
    records: list[Record] = []
    runner.run_backend(spec, jobs, options, record=records.append, closing=closing)
    return records


class Resources(NannyPlugin):
    """On each nanny: the backend resources that a worker it (re)starts declares as it
    registers. The scheduler hands waiting chunks to a worker when it registers, not
    when it later adds resources, so a chunk left by workers that all died would wait
    for ever on replacements that declared theirs only through Engines.setup."""

    name = RESOURCES
    idempotent = True

    async def setup(self, nanny: distributed.Nanny) -> None:
        """Add a resource per backend this machine has to what the nanny's workers declare."""
        here = await asyncio.to_thread(available_backends)
        nanny.resources = {**(nanny.resources or {}), **dict.fromkeys(here, nanny.nthreads)}
        if nanny.process is not None:  # a restart reuses the first start's arguments
            nanny.process.worker_kwargs["resources"] = nanny.resources


def available_backends() -> list[str]:
    """The backends that can run on this machine."""
    here = []
    for name in names():
        try:
            if backend_class(name).available().ok:
                here.append(name)
        except Exception as error:  # a broken plugin is not offered by this worker: it says why
            print(f"sudokulab: {name} is not offered by this Dask worker (pid {os.getpid()}): "
                  f"its availability check raised {type(error).__name__}: {error}",
                  file=sys.stderr, flush=True)
    return here


# --- in the client (the compare process) ---------------------------------------------

class Cluster:
    """A Dask client on a LocalCluster or an existing scheduler; as a context manager,
    its value is a run_backend function like runner.run_backend, and leaving it lets go
    of the cluster."""

    def __init__(self, address: str) -> None:
        """Start or reach the cluster and put the engines plugin on every worker."""
        local, remote = LOCAL.fullmatch(address.strip()), REMOTE.fullmatch(address.strip())
        if not (local or remote) or (local and local.group(1) and int(local.group(1)) < 1):
            raise ClusterError(f"--cluster wants local, local:N (N >= 1) or tcp://HOST:PORT, "
                               f"got {address!r}")
        self.address = address.strip()
        self.workers = (int(local.group(1) or cores())) if local else None
        self.client: distributed.Client | None = None
        self.local: distributed.LocalCluster | None = None
        self.kept: dask.config.set | None = None  # KEEP, while a LocalCluster runs
        self.token = uuid.uuid4().hex[:8]
        self.chunks = 0
        # what was there before this cluster: not its own to stop should its start fail
        self.before = weakref.WeakSet(SpecCluster._instances)
        self.children = set(multiprocessing.active_children())
        try:
            self._connect()
            self.client.wait_for_workers(1, timeout=WORKERS)
            self.client.register_plugin(Resources(), name=RESOURCES)
            self.client.register_plugin(Engines(local=self.local is not None), name=PLUGIN)
        except (OSError, asyncio.TimeoutError, distributed.TimeoutError) as error:
            self.close()
            raise ClusterError(f"cannot use the Dask cluster {self.address}: "
                               f"{type(error).__name__}: {error}") from None
        except KeyboardInterrupt:
            if self.workers is not None:
                self._abandon()
            else:
                self.close()
            raise
        except BaseException:
            self.close()
            raise
        info = self.describe()
        self.about = {"cluster": info}  # for meta.json
        print(f"cluster {self.address}: scheduler {info['scheduler']}, {info['workers']} "
              f"workers, {info['threads']} threads; {info['dashboard']}", file=sys.stderr)

    def __enter__(self) -> Callable[..., None]:
        """The run_backend function of this cluster."""
        return self.run_backend

    def __exit__(self, *exc) -> None:
        self.close()

    def _connect(self) -> None:
        """A LocalCluster of N one-thread workers on 127.0.0.1, or a client of a scheduler."""
        if self.workers is None:
            try:
                self.client = BoundedClient(self.address, timeout=CONNECT)
            except TimeoutError:  # not the connect's (an OSError): connected, no answer
                raise ClusterError(
                    f"cannot use the Dask cluster {self.address}: something listens there "
                    f"but did not answer as a Dask scheduler within {CONNECT + ANSWER:g} s "
                    f"(is it the scheduler's address?)") from None
            return
        if self.workers > cores():  # as --jobs warns; each worker is a process
            print(f"sudokulab: warning: --cluster {self.address} is more workers than the "
                  f"{cores()} usable cores: workers share cores, so each puzzle's time grows",
                  file=sys.stderr)
        # each worker is a process that imports Dask: seconds, and more for many workers
        print(f"cluster {self.address}: starting {self.workers} Dask workers",
              file=sys.stderr, flush=True)
        # KEEP is read as a worker dies, so it holds until close(); QUIET as workers start
        self.kept = dask.config.set(KEEP)
        # the scheduler's web server runs with or without bokeh: a free port, never 8787
        with dask.config.set(QUIET):
            self.local = distributed.LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address="127.0.0.1:0", scheduler_port=0,
                silence_logs=logging.ERROR)
        self.client = distributed.Client(self.local, timeout=CONNECT)

    def close(self) -> None:
        """Let go of the client, and stop the LocalCluster if this started one."""
        if self.client is not None:
            if self.client.status != "running":  # its reconnect tracebacks add nothing
                logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
            self.client.close()
        if self.local is not None:
            self.local.close()
        if self.kept is not None:
            self.kept.__exit__(None, None, None)
        self.client = self.local = self.kept = None

    def _abandon(self) -> None:
        """Stop at once, quietly, a LocalCluster whose start Ctrl-C or SIGTERM cut short."""
        # Dask's own close of a half-started cluster fails on the workers still starting
        # (an AssertionError at exit, after waiting 10 s for them) and logs each start
        # it cancels: tracebacks for an interrupt that the command reports in one line
        for name in ("distributed", "asyncio", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        if self.client is not None:  # else Dask's atexit closes it, on a stopped loop
            with contextlib.suppress(Exception):
                self.client.close(timeout=CONNECT)
        for started in [c for c in list(SpecCluster._instances) if c not in self.before]:
            started.shutdown_on_close = False  # Dask's atexit close would fail as above
            # no worker more starts (one starting as Python exits broke its finalizers)
            started.loop.add_callback(started.loop.stop)
        for child in multiprocessing.active_children():
            if child not in self.children:
                child.kill()
                child.join()
        if self.kept is not None:
            self.kept.__exit__(None, None, None)
        self.client = self.local = self.kept = None

    def describe(self) -> dict:
        """Scheduler, worker and thread counts, and the dashboard (or why there is none)."""
        info = self.client.scheduler_info(n_workers=-1)
        workers = info["workers"].values()
        port = info.get("services", {}).get("dashboard")
        host = info["address"].split("://")[-1].rsplit(":", 1)[0]
        try:
            bokeh = self.client.run_on_scheduler(has_bokeh)
        except Exception:  # a scheduler without sudokulab: its page says what is missing
            bokeh = True
        dashboard = (f"dashboard http://{host}:{port}/status" if port and bokeh else
                     "no dashboard: install bokeh where the scheduler runs "
                     "(pip install 'bokeh>=3.1') to get one")
        return {"address": self.address, "scheduler": info["address"],
                "workers": len(workers), "threads": sum(w["nthreads"] for w in workers),
                "dashboard": dashboard}

    def threads(self, name: str) -> int:
        """Worker threads on workers that have this backend."""
        workers = self.client.scheduler_info(n_workers=-1)["workers"].values()
        return sum(w["nthreads"] for w in workers if w.get("resources", {}).get(name))

    def run_backend(self, spec: str, puzzles: Iterable[Job], options: Options, *,
                    jobs: int = 1, record: Callable[[Record], None],
                    chunk: int | None = None) -> None:
        """Solve every (index, puzzle) with backend `spec` on the cluster's workers.

        `jobs` is ignored: the cluster's worker threads set the parallelism. `record`
        receives each Record once its chunk is done. `chunk` puzzles go in one task
        (default: chunk_size). Raises BackendFailed when no worker has the backend or
        its engines cannot start, ClusterLost when the scheduler goes.
        """
        name, _ = parse_spec(spec)
        threads = self.threads(name)
        if not threads:
            raise BackendFailed(f"no worker of the cluster {self.address} has it")
        puzzles = list(puzzles)
        todo = deque(Chunk(jobs) for jobs in
                     chunks(puzzles, chunk or chunk_size(len(puzzles), threads)))
        pending: dict[distributed.Future, Chunk] = {}
        try:
            try:
                self._run(spec, options, name, threads, todo, pending, record)
                self.client.set_metadata([METADATA, self.token], {})  # the chunks' marks
            except OSError as error:  # a connection to the scheduler closed under us
                raise ClusterLost(f"lost the Dask scheduler {self.address}: {error}") from None
        except KeyboardInterrupt:  # keep what is finished and can still be fetched, then stop
            try:
                for future in [f for f in pending if f.status == "finished"]:
                    _take(future, pending.pop(future), spec, record)
            except OSError:  # gone with the scheduler: not recorded, so run again on resume
                pass
            raise
        finally:
            if pending and self.client is not None and self.client.status == "running":
                self.client.cancel(list(pending))

    def _run(self, spec: str, options: Options, name: str, threads: int, todo: deque,
             pending: dict, record: Callable[[Record], None]) -> None:
        """Keep IN_FLIGHT chunks per thread on the cluster; record each as it finishes."""
        seen = time.monotonic()  # when a worker with the backend was last there
        while todo or pending:
            while todo and len(pending) < IN_FLIGHT * threads:
                self._submit(spec, options, todo.popleft(), name, pending)
            try:
                done, _ = distributed.wait(list(pending), timeout=CHECK,
                                           return_when="FIRST_COMPLETED")
            except (TimeoutError, asyncio.TimeoutError, distributed.TimeoutError):
                self._check_scheduler()
                seen = self._check_workers(name, seen)
                continue
            except CancelledError:  # the scheduler is gone, and its tasks with it
                raise ClusterLost(f"lost the Dask scheduler {self.address}: its tasks "
                                  f"were cancelled") from None
            for future in done:
                again = _take(future, pending.pop(future), spec, record)
                if again is not None:
                    todo.appendleft(again)

    def _submit(self, spec: str, options: Options, chunk: Chunk, name: str,
                pending: dict) -> None:
        """One chunk as one task, pinned to workers that have the backend."""
        if chunk.number is None:
            self.chunks += 1
            chunk.number = self.chunks
        attempt = "-careful" if chunk.careful else ""
        key = f"sudokulab-{self.token}-{chunk.number}{attempt}-{spec}-{chunk.jobs[0][0]}"
        future = self.client.submit(solve_chunk, spec, options,
                                    [METADATA, self.token, str(chunk.number)],
                                    pickle.dumps(chunk.jobs, protocol=pickle.HIGHEST_PROTOCOL),
                                    chunk.careful, key=key, resources={name: 1}, pure=False)
        pending[future] = chunk

    def _check_workers(self, name: str, seen: float) -> float:
        """When a worker with the backend was last there; BackendFailed once none has been
        for ORPHANED seconds (killed workers not restarted), so the run ends, not waits."""
        if self.threads(name):
            return time.monotonic()
        if time.monotonic() - seen > ORPHANED:
            raise BackendFailed(f"no worker of the cluster {self.address} that has it is "
                                f"left (none for {ORPHANED:g} s)")
        return seen

    def _check_scheduler(self) -> None:
        """Raise ClusterLost when the client has lost the scheduler."""
        if self.client.status not in ("running", "newly-created"):
            raise ClusterLost(f"lost the Dask scheduler {self.address} "
                              f"(client {self.client.status})")


class BoundedClient(distributed.Client):
    """A Dask client whose start, the handshake after the connect included, gives up
    (TimeoutError) ANSWER seconds past its connect timeout: Dask bounds the connect
    alone, and a listener that is no scheduler (a web server, a silent port) would hold
    the handshake for ever."""

    def start(self, timeout: float = CONNECT, **kwargs) -> None:
        """Start as Dask does, within the bound."""
        super().start(timeout=timeout, callback_timeout=timeout + ANSWER, **kwargs)


@dataclass
class Chunk:
    """Puzzles that go in one task; its number names its marks on the scheduler; solved
    `careful`ly, in engine processes, once it has taken down several workers."""

    jobs: list[Job]
    number: int | None = None
    careful: bool = False


def _take(future: distributed.Future, chunk: Chunk, spec: str,
          record: Callable[[Record], None]) -> Chunk | None:
    """Record a finished chunk; a chunk that took down several workers comes back to be
    sent again, carefully; one that failed even so is recorded as errors."""
    if future.status == "finished":
        for r in pickle.loads(future.result()):
            record(r)
        # let go of it at once: a reference left in some traceback would have the
        # scheduler compute it again when the worker holding it dies
        future.release()
        return None
    if future.status == "cancelled":
        raise ClusterLost(f"the scheduler dropped chunk {future.key}")
    error = future.exception()
    if isinstance(error, BackendFailed):
        raise BackendFailed(str(error))
    if isinstance(error, distributed.KilledWorker):
        if not chunk.careful:
            chunk.careful = True
            return chunk
        why = f"the Dask workers running it died ({error})"
    else:
        why = f"the chunk failed: {type(error).__name__}: {error}"
    for index, _ in chunk.jobs:
        record(Record(spec, index, Result(Status.ERROR, message=why), 0.0, [0.0]))
    return None


def has_bokeh() -> bool:
    """Whether this process can draw the Dask dashboard (run on the scheduler)."""
    return find_spec("bokeh") is not None


def chunk_size(puzzles: int, threads: int) -> int:
    """Puzzles per chunk: CHUNKS_PER_THREAD chunks per thread, CHUNK_MIN to CHUNK_MAX
    puzzles each, but SMALL_RUN chunks per thread in a run too small for that."""
    size = min(CHUNK_MAX, max(CHUNK_MIN, math.ceil(puzzles / (CHUNKS_PER_THREAD * threads))))
    return max(1, min(size, math.ceil(puzzles / (SMALL_RUN * threads))))


def chunks(jobs: list[Job], size: int) -> list[list[Job]]:
    """The jobs cut in consecutive chunks of `size`."""
    return [jobs[k:k + size] for k in range(0, len(jobs), size)]
