"""`compare --cluster`: the same runs as runner.py, on a Dask distributed cluster.

The puzzles go out in chunks (a Dask task costs milliseconds, a puzzle often less). On
each Dask worker, a worker plugin keeps one warm engine per backend and worker thread: an
engine is runner.py's own worker process, driven the same way (a hard deadline per
puzzle, a hung engine killed and recorded as a timeout, a dead one recorded as an error,
a fresh one started in its place), so a misbehaving engine never takes the Dask worker
down. The plugin also declares a worker resource named after every backend available on
that machine, and chunks ask for it: only workers with SWI-Prolog run `prolog`. A nanny
plugin has the workers it restarts declare the same resources as they register.

The client appends each chunk's records to runs.jsonl as the chunk finishes. A Dask
worker lost midway has its chunk run again elsewhere by the scheduler; nothing of it was
recorded, so nothing is recorded twice. A lost scheduler ends the run as an interrupt
does: what was recorded is kept for `--resume`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import re
import signal
import sys
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError
from importlib.util import find_spec

import distributed
from distributed.diagnostics.plugin import NannyPlugin, WorkerPlugin

from sudokulab.backends import backend_class, names, parse_spec
from sudokulab.harness import runner
from sudokulab.harness.records import Record, cores
from sudokulab.harness.runner import BackendFailed, Job, Options
from sudokulab.result import Result, Status

CHUNK_MIN = 100       # puzzles per task at least (a task costs milliseconds), unless...
SMALL_RUN = 4         # ...a run is so small that each worker thread would not get this many
CHUNK_MAX = 1000      # puzzles per task at most: past this, the tail of a run waits on one
CHUNKS_PER_THREAD = 16  # chunks per worker thread between those, so the load evens out
IN_FLIGHT = 4         # chunks per worker thread in flight: the next ones wait on the worker
CONNECT = 10.0        # seconds to reach a scheduler
WORKERS = 60.0        # seconds to wait for a first worker of a new cluster
CHECK = 1.0           # seconds between checks that the scheduler is still there
LOCAL = re.compile(r"local(?::(\d+))?")
REMOTE = re.compile(r"tcp://[^\s:/]+:\d+")
PLUGIN = "sudokulab-engines"
RESOURCES = "sudokulab-resources"


class ClusterError(ValueError):
    """A --cluster that names no cluster, or one that cannot be reached: exit code 2."""


class ClusterLost(KeyboardInterrupt):
    """The scheduler went away midway: the run is interrupted, what it recorded is kept."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        print(f"\n{why}", file=sys.stderr)  # compare then says how to resume


# --- on each Dask worker -------------------------------------------------------------

class Engines(WorkerPlugin):
    """Warm engine processes on one Dask worker, kept from chunk to chunk."""

    name = PLUGIN
    idempotent = True  # a second run on the same cluster keeps the engines warm

    def __init__(self, local: bool = False) -> None:
        self.local = local

    async def setup(self, worker: distributed.Worker) -> None:
        """Allow engine processes, and declare a resource per backend this machine has."""
        # runner.py's engines are processes of their own, which multiprocessing forbids
        # under a daemonic process (as Dask starts its workers); the plugin ends them itself
        multiprocessing.current_process().daemon = False
        if self.local:  # Ctrl-C reaches a LocalCluster's workers too: compare handles it
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.idle: dict[tuple[str, Options], list[runner.Worker]] = {}
        self.every: list[runner.Worker] = []
        here = await asyncio.to_thread(available_backends)
        await worker.set_resources(**{name: worker.state.nthreads for name in here})

    def teardown(self, worker: distributed.Worker) -> None:
        """End every engine process; a chunk running now stops rather than start another."""
        self.closing.set()
        for engine in self.every:
            engine.release()
        for engine in self.every:
            engine.kill()

    def take(self, spec: str, options: Options) -> runner.Worker:
        """An idle warm engine for this backend and these options, or a new one."""
        with self.lock:
            idle = self.idle.get((spec, options))
            if idle:
                return idle.pop()
        engine = runner.Worker(spec, options)
        with self.lock:
            self.every.append(engine)
        return engine

    def give(self, spec: str, options: Options, engine: runner.Worker) -> None:
        """An engine back to the idle ones after a chunk."""
        with self.lock:
            self.idle.setdefault((spec, options), []).append(engine)

    def drop(self, engine: runner.Worker) -> None:
        """Kill an engine that failed mid-chunk and forget it."""
        engine.kill()
        with self.lock:
            self.every.remove(engine)


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
        except Exception:  # a broken plugin is simply not offered by this worker
            continue
    return here


def solve_chunk(spec: str, options: Options, jobs: list[Job]) -> list[Record]:
    """The Dask task: solve a chunk with this worker's warm engine; one Record per puzzle."""
    engines: Engines = distributed.get_worker().plugins[PLUGIN]
    engine = engines.take(spec, options)
    try:
        records = drive(engine, spec, jobs, engines.closing)
    except BaseException:
        engines.drop(engine)
        raise
    engines.give(spec, options, engine)
    return records


def drive(engine: runner.Worker, spec: str, jobs: Iterable[Job],
          closing: threading.Event | None = None) -> list[Record]:
    """runner.run_backend's loop (batches, deadlines, replays) for one engine that outlives
    the chunk; stops when the Dask worker is `closing` (the chunk then fails, and is not
    recorded)."""
    records: list[Record] = []
    runner.drive([engine], runner.Feed(jobs), spec, records.append, keep=True,
                 closing=closing)
    return records


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
        self.token = uuid.uuid4().hex[:8]
        self.chunks = 0
        try:
            self._connect()
            self.client.wait_for_workers(1, timeout=WORKERS)
            self.client.register_plugin(Resources(), name=RESOURCES)
            self.client.register_plugin(Engines(local=self.local is not None), name=PLUGIN)
        except (OSError, asyncio.TimeoutError, distributed.TimeoutError) as error:
            self.close()
            raise ClusterError(f"cannot use the Dask cluster {self.address}: "
                               f"{type(error).__name__}: {error}") from None
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
            self.client = distributed.Client(self.address, timeout=CONNECT)
            return
        # the scheduler's web server runs with or without bokeh: a free port, never 8787
        self.local = distributed.LocalCluster(
            n_workers=self.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address="127.0.0.1:0", scheduler_port=0, silence_logs=logging.ERROR)
        self.client = distributed.Client(self.local, timeout=CONNECT)

    def close(self) -> None:
        """Let go of the client, and stop the LocalCluster if this started one."""
        if self.client is not None:
            if self.client.status != "running":  # its reconnect tracebacks add nothing
                logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
            self.client.close()
        if self.local is not None:
            self.local.close()
        self.client = self.local = None

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
        todo = deque(chunks(puzzles, chunk or chunk_size(len(puzzles), threads)))
        pending: dict[distributed.Future, list[Job]] = {}
        try:
            try:
                self._run(spec, options, name, threads, todo, pending, record)
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
        while todo or pending:
            while todo and len(pending) < IN_FLIGHT * threads:
                self._submit(spec, options, todo.popleft(), name, pending)
            try:
                done, _ = distributed.wait(list(pending), timeout=CHECK,
                                           return_when="FIRST_COMPLETED")
            except (TimeoutError, asyncio.TimeoutError, distributed.TimeoutError):
                self._check_scheduler()
                continue
            except CancelledError:  # the scheduler is gone, and its tasks with it
                raise ClusterLost(f"lost the Dask scheduler {self.address}: its tasks "
                                  f"were cancelled") from None
            for future in done:
                _take(future, pending.pop(future), spec, record)

    def _submit(self, spec: str, options: Options, chunk: list[Job], name: str,
                pending: dict) -> None:
        """One chunk as one task, pinned to workers that have the backend."""
        self.chunks += 1
        key = f"sudokulab-{self.token}-{self.chunks}-{spec}-{chunk[0][0]}"
        future = self.client.submit(solve_chunk, spec, options, chunk, key=key,
                                    resources={name: 1}, pure=False)
        pending[future] = chunk

    def _check_scheduler(self) -> None:
        """Raise ClusterLost when the client has lost the scheduler."""
        if self.client.status not in ("running", "newly-created"):
            raise ClusterLost(f"lost the Dask scheduler {self.address} "
                              f"(client {self.client.status})")


def _take(future: distributed.Future, chunk: list[Job], spec: str,
          record: Callable[[Record], None]) -> None:
    """Record a finished chunk; a chunk no worker could finish is recorded as errors."""
    if future.status == "finished":
        for r in future.result():
            record(r)
        return
    if future.status == "cancelled":
        raise ClusterLost(f"the scheduler dropped chunk {future.key}")
    error = future.exception()
    if isinstance(error, BackendFailed):
        raise BackendFailed(str(error))
    if isinstance(error, distributed.KilledWorker):
        why = f"the Dask workers running it died ({error})"
    else:
        why = f"the chunk failed: {type(error).__name__}: {error}"
    for index, _ in chunk:
        record(Record(spec, index, Result(Status.ERROR, message=why), 0.0, [0.0]))


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
