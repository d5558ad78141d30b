"""compare --cluster: the same records, reports and exit codes as the local runner.

Every test here starts its own Dask cluster on 127.0.0.1 only, and stops it: a
LocalCluster (`--cluster local:2`), or a `dask scheduler` and two `dask worker`
processes. To stay quick they run SAMPLE puzzles of top95, not all 95.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import dask
import pytest
from test_harness import add_to_path, puzzle_file, records, table, wait_for_records
from test_process_tree import (
    PATIENCE,
    POLL,
    SIGNALS,
    WORDS,
    assert_stopped,
    ended,
    session,
    signal_and_collect,
    start,
)

from sudokulab import datasets
from sudokulab.cli import main
from sudokulab.errors import BackendFailed, ClusterLost
from sudokulab.formats.text import format_line
from sudokulab.harness import cluster
from sudokulab.harness.records import Record
from sudokulab.harness.runner import Options
from sudokulab.harness.testing import write_plugin
from sudokulab.result import Status

SAMPLE = 24
LINES = [format_line(p) for p in datasets.load("top95")[:SAMPLE]]
BACKENDS = ["norvig", "sat", "smt"] + \
    ([] if os.environ.get("SUDOKULAB_SKIP_PROLOG") == "1" else ["prolog"])
DASK = Path(sys.executable).parent / "dask"
COLUMNS = ("puzzles", "answered", "wrong", "timeouts", "errors", "unsupported")


def answers(folder: Path) -> dict[tuple[str, int], tuple]:
    """(backend, index) -> what the backend said, without its timings."""
    said = {}
    for r in records(folder):
        result = r["result"]
        key = (r["backend"], r["index"])
        assert key not in said, f"{key} recorded twice"
        said[key] = (result["status"], result["solutions"], result["count"], result["exact"])
    return said


def counts(folder: Path) -> dict[str, tuple]:
    """summary.csv's counting columns per backend (times differ from run to run)."""
    return {b: tuple(row[c] for c in COLUMNS) for b, row in table(folder).items()}


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory) -> Path:
    """A folder registering the test backends."""
    return write_plugin(tmp_path_factory.mktemp("plugins"))


@pytest.fixture(scope="module")
def local_run(tmp_path_factory) -> tuple[int, Path]:
    """The local runner's exit code and run folder on the sample, every backend."""
    folder = tmp_path_factory.mktemp("local")
    puzzles = puzzle_file(folder, LINES)
    code = main(["compare", "--file", str(puzzles), "--backends", ",".join(BACKENDS),
                        "--jobs", "2", "--out", str(folder / "run")])
    return code, folder / "run"


def same_as_local(local_run: tuple[int, Path], code: int, out: Path) -> None:
    """The cluster run said exactly what the local run said, backend by backend."""
    local_code, local = local_run
    assert code == local_code == 0
    mine = {k: v for k, v in answers(out).items() if k[0] in BACKENDS}
    assert mine == answers(local)
    assert {b for b, _ in mine} == set(BACKENDS)
    assert {b: c for b, c in counts(out).items() if b in BACKENDS} == counts(local)


# --- a LocalCluster ------------------------------------------------------------------

def test_local_cluster_gives_the_local_runners_records_and_reports(local_run, tmp_path,
                                                                   capsys, monkeypatch):
    monkeypatch.setattr(cluster, "chunk_size", lambda puzzles, threads: 5)
    out = tmp_path / "run"
    code = main(["compare", "--file", str(puzzle_file(tmp_path, LINES)), "--backends",
                        ",".join(BACKENDS), "--cluster", "local:2", "--out", str(out)])
    same_as_local(local_run, code, out)
    # 5 chunks per backend, but an engine per worker, kept warm: 2 warm-up solves at most
    warmed = Counter(r["backend"] for r in records(out) if r["warmup"] is not None)
    assert set(warmed) == set(BACKENDS) and max(warmed.values()) <= 2
    printed = capsys.readouterr()
    assert "cluster local:2: scheduler tcp://127.0.0.1:" in printed.err
    assert "dashboard" in printed.err
    assert "every answer agrees" in printed.out
    meta = json.loads((out / "meta.json").read_text())
    assert meta["sessions"][0]["cluster"]["workers"] == 2


def test_hanging_and_crashing_backends_on_a_cluster(plugin_dir, monkeypatch, tmp_path):
    add_to_path(monkeypatch, plugin_dir)
    monkeypatch.setattr(cluster, "chunk_size", lambda puzzles, threads: 2)  # dies mid-chunk
    out = tmp_path / "run"
    # Dask's LocalCluster closes a nanny whose worker is not back within this timeout: 0.1 s
    # stands for a restart slower than Dask's 15 s, as on a loaded machine (the workers
    # were then gone for good, and norvig was never run); compare keeps its nannies
    with dask.config.set({"distributed.deploy.lost-worker-timeout": "0.1s"}):
        code = main(["compare", "--file", str(puzzle_file(tmp_path, LINES[:3])), "--timeout",
                     "1", "--cluster", "local:2", "--out", str(out),
                     "--backends", "test-hang,test-crash:how=segv,norvig"])
    assert code == 5  # engine errors (the crashes) outrank timeouts, as on the local runner
    rows = table(out)
    assert rows["test-hang"]["timeouts"] == "3" and rows["norvig"]["answered"] == "3"
    assert rows["test-crash:how=segv"]["errors"] == "3"
    messages = Counter((r["backend"], r["result"]["message"]) for r in records(out))
    assert messages[("test-hang", "no answer in time: worker killed")] == 3
    assert messages[("test-crash:how=segv", "worker died (killed by SIGSEGV)")] == 3


def test_an_engine_hung_holding_the_gil_times_out(plugin_dir, monkeypatch, tmp_path):
    add_to_path(monkeypatch, plugin_dir)  # no thread of the Dask worker runs: the timer does
    said = []
    with cluster.Cluster("local:1") as run:
        run("test-hang:how=gil", [(0, datasets.load("top95")[0])],
            Options(timeout=0.5, warmup=False), record=said.append)
    assert [(r.index, r.result.status, r.result.message) for r in said] == \
        [(0, Status.TIMEOUT, "no answer in time: worker killed")]


def test_a_bad_puzzle_midway_through_a_chunk_is_the_only_timeout_or_error(plugin_dir,
                                                                          monkeypatch,
                                                                          tmp_path):
    add_to_path(monkeypatch, plugin_dir)
    jobs = list(enumerate(datasets.load("top95")[:8]))
    hang, crash = LINES[3], LINES[5]
    said: dict[str, dict[int, Record]] = {"hang": {}, "crash": {}}
    with cluster.Cluster("local:1") as run:
        for how, trap in (("hang", hang), ("crash", crash)):
            spec = f"test-count:log={tmp_path / how},{how}={trap}"
            run(spec, jobs, Options(timeout=1.0, warmup=False), chunk=8,
                record=lambda r, how=how: said[how].setdefault(r.index, r))
    for how, bad, status, why in (("hang", 3, Status.TIMEOUT, "no answer in time: worker killed"),
                                  ("crash", 5, Status.ERROR, "worker died (killed by SIGKILL)")):
        assert sorted(said[how]) == list(range(8))
        assert (said[how][bad].result.status, said[how][bad].result.message) == (status, why)
        assert all(r.result.status == Status.UNIQUE for i, r in said[how].items() if i != bad)
    asked = Counter((tmp_path / "hang").read_text().splitlines())
    # the answers before the hang were kept, the hung puzzle saved as a timeout, and only
    # the rest solved by the next attempt: no puzzle was asked twice
    assert [asked[line] for line in LINES[:8]] == [1] * 8


def test_chunks_are_100_to_1000_puzzles_unless_the_run_is_small():
    assert cluster.chunk_size(1_000_000, 400) == 157  # 16 chunks per thread
    assert cluster.chunk_size(10_000_000, 400) == 1000
    assert cluster.chunk_size(200_000, 400) == 100
    assert cluster.chunk_size(10_000, 2) == 313
    assert cluster.chunk_size(24, 2) == 3  # 4 chunks per thread
    assert cluster.chunk_size(1, 8) == 1
    jobs = list(enumerate("abcdefg"))
    assert cluster.chunks(jobs, 3) == [jobs[:3], jobs[3:6], jobs[6:]]


def test_a_connection_closed_midway_is_a_lost_scheduler_not_an_output_error(capsys):
    from distributed.comm.core import CommClosedError

    class Closing(cluster.Cluster):
        """A cluster whose scheduler connection closes as a chunk's result is fetched."""

        def __init__(self) -> None:
            self.address, self.client = "tcp://127.0.0.1:1", None

        def threads(self, name: str) -> int:
            return 1

        def _run(self, *args) -> None:
            raise CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed")

    with pytest.raises(ClusterLost):
        Closing().run_backend("norvig", [(0, datasets.load("top95")[0])], Options(),
                              record=lambda r: None)
    assert "lost the Dask scheduler tcp://127.0.0.1:1" in capsys.readouterr().err


@pytest.mark.parametrize("address", ["local:0", "lcoal", "tcp://127.0.0.1"])
def test_a_bad_cluster_is_one_line_and_exit_code_2(address, tmp_path, capsys):
    assert main(["compare", "--dataset", "hardest", "--backends", "norvig", "--cluster", address,
                        "--out", str(tmp_path / "run")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("sudokulab: error: --cluster wants") and error.count("\n") == 1
    assert not (tmp_path / "run").exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@SIGNALS
def test_a_signal_while_the_cluster_starts_is_one_line_and_leaves_nothing(signum, tmp_path):
    process = start("compare", "--file", str(puzzle_file(tmp_path, LINES)), "--backends",
                    "norvig", "--cluster", "local:2", "--out", str(tmp_path / "run"))
    give_up = time.monotonic() + PATIENCE
    while len(session(process.pid)) < 2:  # a worker process starts: the cluster is half up
        assert process.poll() is None, ended(process)
        assert time.monotonic() < give_up, "the cluster never began to start"
        time.sleep(POLL)
    # its stderr so far, read through /proc so as not to move the offset it writes at
    assert "scheduler" not in Path(f"/proc/{process.pid}/fd/2").read_text(), "too late"
    code, _, err = signal_and_collect(process, signum)
    assert_stopped(code, err, signum)
    assert "Traceback" not in err and "Exception" not in err and "ERROR" not in err, err
    said = [line for line in err.splitlines() if "warning" not in line]  # 1 core: --cluster's
    assert said == ["cluster local:2: starting 2 Dask workers", f"sudokulab: {WORDS[signum]}"]


def test_a_listener_that_is_no_scheduler_is_one_line_and_exit_code_2(tmp_path):
    with socket.socket() as silent:  # connections are accepted (the backlog), never answered
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        process = start("compare", "--dataset", "hardest", "--backends", "norvig",
                        "--cluster", address, "--out", str(tmp_path / "run"))
        _, err = ended(process)  # a hang fails after PATIENCE
    assert process.returncode == 2, err
    assert err.startswith(f"sudokulab: error: cannot use the Dask cluster {address}: "), err
    assert "Dask scheduler" in err and err.count("\n") == 1, err
    assert not (tmp_path / "run").exists()


# --- a scheduler and workers in processes of their own ---------------------------------

class Processes:
    """A `dask scheduler` and `dask worker`s on 127.0.0.1, as on separate machines."""

    def __init__(self, folder: Path, workers: int = 2) -> None:
        self.folder, self.started = folder, []
        file = folder / "scheduler.json"
        self.scheduler = self._start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0",
                                     "--dashboard-address", "127.0.0.1:0",
                                     "--scheduler-file", str(file))
        while not file.exists() or not file.read_text().strip():
            assert self.scheduler.poll() is None, (folder / "scheduler.log").read_text()
            time.sleep(0.1)
        self.address = json.loads(file.read_text())["address"]
        self.workers = [self._start(f"worker{k}", "worker", self.address, "--host",
                                    "127.0.0.1", "--nthreads", "1", "--no-dashboard")
                        for k in range(workers)]

    def _start(self, log: str, *arguments: str) -> subprocess.Popen:
        """One dask command, its output in a log file."""
        with (self.folder / f"{log}.log").open("w") as out:
            process = subprocess.Popen([str(DASK), *arguments], stdout=out,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        self.started.append(process)
        return process

    def worker_pids(self) -> list[int]:
        """The process ids of the Dask workers (children of the `dask worker` nannies)."""
        from distributed import Client

        with Client(self.address, timeout=10) as client:
            return list(client.run(os.getpid).values())

    def stop(self) -> None:
        """Kill every process started, with their children."""
        for process in self.started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def processes(tmp_path, plugin_dir, monkeypatch):
    """A scheduler and 2 workers that know the test backends; stopped after the test."""
    add_to_path(monkeypatch, plugin_dir)
    cluster = Processes(tmp_path)
    yield cluster
    cluster.stop()


def held_run(out: Path, puzzles: Path, log: Path, hold: Path, address: str,
             backends: list[str]) -> subprocess.Popen:
    """compare on the cluster in a process of its own, the counting backend first and
    held once 8 puzzles were asked while `hold` exists."""
    command = [sys.executable, "-m", "sudokulab", "compare", "--file", str(puzzles),
               "--out", str(out), "--timeout", "0", "--cluster", address, "--backends",
               ",".join([f"test-count:log={log},hold={hold},after=8", *backends])]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_until_held(log: Path, process: subprocess.Popen) -> None:
    """An engine is held midway through a chunk: more than 8 puzzles asked. (Not "both
    workers": Dask may give every chunk to one worker, and the other would never ask.)"""
    while not (log.exists() and len(log.read_text().splitlines()) >= 9):
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)


def test_a_worker_killed_midway_loses_nothing_and_results_match(processes, local_run,
                                                                tmp_path):
    puzzles, log, out = puzzle_file(tmp_path, LINES), tmp_path / "asked.log", tmp_path / "run"
    hold = tmp_path / "hold"
    hold.touch()
    process = held_run(out, puzzles, log, hold, processes.address, BACKENDS)
    wait_until_held(log, process)
    for pid in processes.worker_pids():  # the held one among them; the nannies restart them
        os.kill(pid, signal.SIGKILL)
    hold.unlink()
    _, stderr = process.communicate()
    counting = {k: v for k, v in answers(out).items() if k[0].startswith("test-count")}
    assert sorted(i for _, i in counting) == list(range(SAMPLE)), stderr
    assert {v[0] for v in counting.values()} == {"unique"}
    # the killed worker's chunk ran again elsewhere: some puzzles were asked twice
    assert len(log.read_text().splitlines()) > SAMPLE
    same_as_local(local_run, process.returncode, out)


def test_a_lost_scheduler_interrupts_and_the_run_resumes_elsewhere(processes, tmp_path):
    puzzles, log, out = puzzle_file(tmp_path, LINES), tmp_path / "asked.log", tmp_path / "run"
    hold = tmp_path / "hold"
    hold.touch()
    process = held_run(out, puzzles, log, hold, processes.address, ["norvig"])
    wait_until_held(log, process)
    wait_for_records(out, 1, process)
    processes.scheduler.kill()
    hold.unlink()
    _, stderr = process.communicate()
    assert process.returncode == 130, stderr
    assert f"lost the Dask scheduler {processes.address}" in stderr
    assert f"--resume --out {out}" in stderr
    before = {r["index"] for r in records(out)}
    assert 0 < len(before) < SAMPLE
    processes.stop()
    with log.open("a") as marker:
        marker.write("resume\n")
    assert main(["compare", "--resume", "--out", str(out), "--cluster", "local:2"]) == 0
    said = answers(out)  # each (backend, puzzle) once
    assert sorted(said) == sorted((b, i) for b in {b for b, _ in said} for i in range(SAMPLE))
    asked_after = log.read_text().split("resume\n", 1)[1].splitlines()
    assert not {LINES[i] for i in before} & set(asked_after)


def test_a_backend_whose_workers_are_all_gone_fails_instead_of_waiting(monkeypatch):
    monkeypatch.setattr(cluster, "ORPHANED", 5.0)
    gone = SimpleNamespace(address="local:2", threads=lambda name: 0)
    now = time.monotonic()
    assert cluster.Cluster._check_workers(gone, "norvig", now) == now  # a restart may come
    with pytest.raises(BackendFailed, match="no worker of the cluster local:2 that has it"):
        cluster.Cluster._check_workers(gone, "norvig", now - 6.0)
    back = SimpleNamespace(address="local:2", threads=lambda name: 2)
    assert cluster.Cluster._check_workers(back, "norvig", now - 6.0) >= now


def test_a_backend_whose_check_raises_is_not_offered_and_says_why(monkeypatch, capsys):
    from sudokulab.backends import backend_class

    def broken(cls):
        raise ImportError("libz3.so: cannot open shared object file")

    monkeypatch.setattr(backend_class("smt"), "available", classmethod(broken))
    here = cluster.available_backends()
    assert "smt" not in here and "norvig" in here
    said = capsys.readouterr().err
    assert "smt is not offered by this Dask worker" in said and "libz3.so" in said
