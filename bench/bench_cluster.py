"""Issue 21: compare on a Dask cluster against the local runner, and what a chunk costs.

Targets (norvig over all of sudoku10k, limit 2, as compare runs it):
1. scaling: `--cluster local:2` reaches at least 1.7x the throughput of `local:1`.
2. overhead: the cluster path with 2 workers takes at most 10% more time than the local
   runner with 2 workers (`--jobs 2`).
Each figure is the wall time of one backend's run (run_backend, with runs.jsonl and the
progress display as compare does it), engines started cold in both: the local runner
spawns its workers, each Dask worker's plugin builds its engine in the worker's own
process. Starting the LocalCluster itself (once per compare run, not per backend or
puzzle) is shown apart. Beside the times, where the CPU goes: the CPU time of the
processes that solve (the local runner's engine processes, the Dask workers) and of the
process that drives them (the local runner's parent; the client, which also hosts a
LocalCluster's scheduler and nannies), per puzzle.

What an idle LocalCluster of 2 costs: CPU per second of the client (scheduler, nannies)
and the workers, with Dask's monitors as compare sets them (cluster.QUIET) and as Dask
sets them, with and without the dashboard's web server.

What batches save: the CPU time per puzzle of the local runner (1 worker: its engine
process and the parent), sending batches (runner.Feed) against one puzzle per message
(runner.BATCH_MAX = 1), pairs of runs interleaved. CPU time, unlike wall time, holds on a
machine that other work keeps busy.

Per-chunk costs, for the paper plan in docs/compare.md: the `test-noop` backend (answers at
once) on `local:1` with chunks of 1, 100 and 1000 puzzles gives the fixed cost of a task
and the cost per puzzle inside one; the bytes a chunk of 1000 puzzles sends and brings
back; the client's time to append a chunk's 1000 records to runs.jsonl.

Rounds alternate the order of the configurations; verdicts take the median of rounds.
Run: .venv/bin/python bench/bench_cluster.py [--rounds N] [--out PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import logging
import os
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

import dask
import distributed
from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.harness import cluster, runner
from sudokulab.harness.crosscheck import cross_check
from sudokulab.harness.progress import Progress
from sudokulab.harness.records import Record, cores
from sudokulab.harness.runlog import RunLog
from sudokulab.harness.runner import Options, run_backend
from sudokulab.harness.testing import write_plugin

ROOT = Path(__file__).resolve().parent.parent
DATASET = "sudoku10k"
SCALING = 1.7
OVERHEAD = 0.10
OPTIONS = Options(limit=2, timeout=10.0)
CHUNKS = (1, 100, 1000)
NOOP_PUZZLES = {1: 300, 100: 3000, 1000: 10000}
BUSY = 1.6  # cores the 2-worker engines must get for a scaling of 1.7x to be possible
BATCHES = ('Puzzles go to each engine in batches (sudokulab/harness/runner.py: about '
           f'{runner.BATCH * 1000:g} ms of measured solving each, at most {runner.BATCH_MAX} '
           'puzzles), so that the pipe and pickling work of the harness, once about an eighth '
           'of a millisecond per puzzle against half a millisecond of solving, no longer lets '
           'one worker keep more than one core busy (see "What batches save").')


def timed(run, spec: str, puzzles: list, folder: Path, **extra) -> tuple[float, list[Record]]:
    """Wall seconds of one backend's run as compare does it (log and progress), records."""
    elapsed, records, _ = stamped(run, spec, puzzles, folder, **extra)
    return elapsed, records


def stamped(run, spec: str, puzzles: list, folder: Path,
            **extra) -> tuple[float, list[Record], list[float]]:
    """timed(), and when each record came (seconds from the start)."""
    log, records, stamps = RunLog(folder), [], []
    progress = Progress(spec, len(puzzles), stream=io.StringIO())

    def record(r: Record) -> None:
        log.append(r)
        progress.step()
        records.append(r)
        stamps.append(time.perf_counter() - started)

    started = time.perf_counter()
    run(spec, puzzles, OPTIONS, record=record, **extra)
    elapsed = time.perf_counter() - started
    log.close()
    log.path.unlink()
    assert len(records) == len(puzzles), "a puzzle went missing"
    return elapsed, records, stamps


def steady(stamps: list[float]) -> float:
    """Puzzles per second after the first answers (a chunk's come at once) to the last."""
    first = stamps.count(stamps[0]) if len(set(stamps)) > 1 else 0
    return (len(stamps) - first) / (stamps[-1] - stamps[0])


def local(puzzles: list, jobs: int,
          folder: Path) -> tuple[float, float, float, float]:
    """The local runner with `jobs` workers: wall seconds, steady puzzles per second,
    CPU seconds of its engines and of this process (the parent)."""
    before = os.times()
    wall, records, stamps = stamped(run_backend, "norvig", puzzles, folder, jobs=jobs)
    after = os.times()
    assert all(r.result.status.is_answer for r in records), "norvig failed a puzzle"
    return (wall, steady(stamps), _ended_children_cpu(after) - _ended_children_cpu(before),
            _own_cpu(after) - _own_cpu(before))


def on_cluster(puzzles: list, workers: int,
               folder: Path) -> tuple[float, float, float, float, float]:
    """A fresh LocalCluster of `workers`: seconds to start it, then as local(), the Dask
    workers (which run the engines) in place of the engine processes, the client (with
    the scheduler and nannies) in place of the parent."""
    started = time.perf_counter()
    with cluster.Cluster(f"local:{workers}") as run:
        start = time.perf_counter() - started
        solvers, mine = _children_cpu(), _own_cpu(os.times())
        wall, records, stamps = stamped(run, "norvig", puzzles, folder)
        solvers, mine = _children_cpu() - solvers, _own_cpu(os.times()) - mine
    assert all(r.result.status.is_answer for r in records), "norvig failed a puzzle"
    return start, wall, steady(stamps), solvers, mine


def _ended_children_cpu(times: os.times_result) -> float:
    """CPU seconds of this process's ended (and waited for) children at `times`."""
    return times.children_user + times.children_system


def _own_cpu(times: os.times_result) -> float:
    """CPU seconds of this process (every thread) at `times`."""
    return times.user + times.system


def _children_cpu() -> float:
    """CPU seconds of the running children of this process and theirs: a LocalCluster's
    workers (and their engine processes, when there are any)."""
    import psutil  # a dependency of distributed

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            times = child.cpu_times()
            total += times.user + times.system
    return total


def idle_costs(seconds: float = 5.0) -> list[dict]:
    """CPU per second of an idle LocalCluster of 2: client and workers, with Dask's
    monitors quiet (as compare starts it) or as Dask sets them, dashboard or none."""
    rows = []
    for monitors, settings in (("quiet (cluster.QUIET)", cluster.QUIET),
                               ("Dask's defaults", _defaults(cluster.QUIET))):
        for dashboard in ("127.0.0.1:0", None):
            with dask.config.set(settings), distributed.LocalCluster(
                    n_workers=2, threads_per_worker=1, host="127.0.0.1",
                    dashboard_address=dashboard, scheduler_port=0,
                    silence_logs=logging.ERROR):
                time.sleep(1.0)  # settled after the start
                workers, mine = _children_cpu(), _own_cpu(os.times())
                time.sleep(seconds)
                workers, mine = _children_cpu() - workers, _own_cpu(os.times()) - mine
            rows.append({"monitors": monitors, "dashboard": "yes" if dashboard else "no",
                         "client cores": round(mine / seconds, 4),
                         "workers cores": round(workers / seconds, 4)})
    return rows


def _defaults(settings: dict) -> dict:
    """Dask's own values for these settings."""
    defaults = dask.config.merge(*dask.config.defaults)
    return {key: dask.config.get(key, config=defaults) for key in settings}


def measure(rounds: int, puzzles: list,
            folder: Path) -> tuple[dict[str, list[float]], dict[str, list[tuple]]]:
    """Every timing figure, round by round; and per configuration, round by round, the
    CPU ms per puzzle of the solving processes and of the driving one."""
    figures: dict[str, list[float]] = {key: [] for key in (
        "local 1 s", "local 2 s", "cluster 1 s", "cluster 2 s", "cluster start s",
        "local 1 /s", "local 2 /s", "cluster 1 /s", "cluster 2 /s",
        "local 1 cores", "local 2 cores", "cluster 1 cores", "cluster 2 cores",
        "scaling", "whole scaling", "local scaling", "overhead %")}
    cpu: dict[str, list[tuple]] = {}
    for k in range(rounds):
        order = [("local", 1), ("local", 2), ("cluster", 1), ("cluster", 2)]
        for kind, workers in order if k % 2 == 0 else reversed(order):
            if kind == "local":
                wall, rate, solvers, driver = local(puzzles, workers, folder)
            else:
                start, wall, rate, solvers, driver = on_cluster(puzzles, workers, folder)
                if workers == 2:
                    figures["cluster start s"].append(start)
            figures[f"{kind} {workers} s"].append(wall)
            figures[f"{kind} {workers} /s"].append(rate)
            figures[f"{kind} {workers} cores"].append(solvers / wall)
            cpu.setdefault(f"{kind} {workers}", []).append(
                (1000 * solvers / len(puzzles), 1000 * driver / len(puzzles)))
        figures["scaling"].append(figures["cluster 2 /s"][-1] / figures["cluster 1 /s"][-1])
        figures["whole scaling"].append(figures["cluster 1 s"][-1] / figures["cluster 2 s"][-1])
        figures["local scaling"].append(figures["local 2 /s"][-1] / figures["local 1 /s"][-1])
        figures["overhead %"].append(
            100 * (figures["cluster 2 s"][-1] / figures["local 2 s"][-1] - 1))
        print(f"round {k + 1}: " + ", ".join(f"{key} {values[-1]:.3f}"
                                              for key, values in figures.items())
              + f", load {os.getloadavg()[0]:.2f}", flush=True)
    return figures, cpu


def cpu_sentence(rows: list[dict]) -> str:
    """The cluster's CPU per puzzle against the local runner's, worker for worker: the
    overhead as the machine's load leaves it (wall times follow whatever CPU other work
    leaves)."""
    cost = {r["run"]: r["all ms/puzzle"] for r in rows}
    ratios = [f"{100 * (cost[f'cluster, local: {n}'] / cost[f'local runner, jobs {n}'] - 1):+.1f}%"
              f" with {n} worker{'s' if n > 1 else ''}" for n in (1, 2)]
    return ("So the cluster path spends " + " and ".join(ratios) + " CPU per puzzle against "
            "the local runner, all processes counted.")


def cpu_rows(cpu: dict[str, list[tuple]]) -> list[dict]:
    """Where the CPU goes, per configuration: medians of the rounds, ms per puzzle."""
    rows = []
    for config, pairs in cpu.items():
        solvers = statistics.median(s for s, _ in pairs)
        driver = statistics.median(d for _, d in pairs)
        rows.append({"run": config.replace("local", "local runner, jobs").replace(
                         "cluster", "cluster, local:"),
                     "solving processes ms/puzzle": round(solvers, 3),
                     "driving process ms/puzzle": round(driver, 3),
                     "all ms/puzzle": round(solvers + driver, 3)})
    return rows


def batch_savings(puzzles: list, folder: Path, pairs: int = 2) -> dict[str, float]:
    """ms of CPU per puzzle, engine process and parent, with batches and one at a time."""
    figures: dict[str, list[float]] = {}
    largest = runner.BATCH_MAX
    try:
        for k in range(pairs):
            for size in (largest, 1) if k % 2 == 0 else (1, largest):
                runner.BATCH_MAX = size
                kind = "batches" if size > 1 else "one at a time"
                _, _, engine, parent = local(puzzles, 1, folder)
                for part, seconds in (("engine", engine), ("parent", parent)):
                    figures.setdefault(f"{kind} {part}", []).append(
                        1000 * seconds / len(puzzles))
    finally:
        runner.BATCH_MAX = largest
    return {key: statistics.median(values) for key, values in figures.items()}


def busy(figures: dict[str, list[float]]) -> str:
    """Whether the machine let 2 workers have 2 cores in these rounds, in a sentence."""
    cores = statistics.median(figures["cluster 2 cores"] + figures["local 2 cores"])
    if cores >= BUSY:
        return (f"The 2-worker engines got {cores:.2f} cores (median of the rounds, the local "
                "runner's and the cluster's together).")
    return (f"The 2-worker engines got only {cores:.2f} cores (median of the rounds, the "
            "local runner's and the cluster's together): other "
            "work kept the machine busy, and no code can scale 1.7x on what is left; the "
            "scaling verdict says nothing about the harness then, the CPU times do.")


def chunk_costs(puzzles: list, folder: Path) -> list[dict]:
    """ms per chunk and per puzzle of test-noop on local:1, chunk by chunk size."""
    rows = []
    with cluster.Cluster("local:1") as run:
        timed(run, "test-noop", puzzles[:10], folder)  # the engine starts: not counted
        for size in CHUNKS:
            count = NOOP_PUZZLES[size]
            wall, _ = timed(run, "test-noop", puzzles[:count], folder, chunk=size)
            chunks = count // size
            rows.append({"chunk (puzzles)": size, "chunks": chunks,
                         "ms per chunk": round(1000 * wall / chunks, 3),
                         "ms per puzzle": round(1000 * wall / count, 4)})
    return rows


def sizes(puzzles: list, folder: Path) -> dict[str, float]:
    """Bytes out and back for a chunk of 1000, and the client's ms to log its records."""
    chunk = puzzles[:1000]
    sent = len(pickle.dumps(("norvig", OPTIONS, chunk)))
    _, records = timed(run_backend, "norvig", chunk, folder, jobs=1)
    back = len(pickle.dumps(records))
    log = RunLog(folder)
    started = time.perf_counter()
    for r in records:
        log.append(r)
    logged = time.perf_counter() - started
    log.close()
    line = log.path.stat().st_size / len(records)
    log.path.unlink()
    references = dict(enumerate(datasets.solutions(DATASET)[:1000]))
    started = time.perf_counter()
    cross_check(dict(chunk), records, references, limit=OPTIONS.limit, timeout=OPTIONS.timeout)
    checked = time.perf_counter() - started
    return {"sent KB": sent / 1024, "back KB": back / 1024, "log ms": 1000 * logged,
            "line bytes": line, "cross-check ms": 1000 * checked}


def per_chunk_model(rows: list[dict]) -> tuple[float, float]:
    """(fixed ms per task, ms per puzzle inside a task) from the 1 and 1000 chunk runs."""
    one = next(r for r in rows if r["chunk (puzzles)"] == 1)
    big = next(r for r in rows if r["chunk (puzzles)"] == 1000)
    per_puzzle = (big["ms per chunk"] - one["ms per chunk"]) / 999
    return one["ms per chunk"] - per_puzzle, per_puzzle


def verdicts(figures: dict[str, list[float]]) -> list[dict]:
    """One row per target: measured (median of rounds), needed, PASS or FAIL."""
    scaling = statistics.median(figures["scaling"])
    whole, beside = (statistics.median(figures[k]) for k in ("whole scaling", "local scaling"))
    cores = {k: statistics.median(figures[f"{k} cores"]) for k in ("cluster 1", "cluster 2")}
    overhead = statistics.median(figures["overhead %"])
    walls = {k: statistics.median(v) for k, v in figures.items() if k.endswith(" s")}
    return [
        {"target": f"cluster throughput, local:2 over local:1 (norvig, {DATASET})",
         "measured": f"{scaling:.2f}x (whole runs {whole:.2f}x; the engines got "
                     f"{cores['cluster 1']:.2f} and {cores['cluster 2']:.2f} cores; "
                     f"the local runner beside it: {beside:.2f}x)",
         "needed": f">= {SCALING:g}x", "verdict": "PASS" if scaling >= SCALING else "FAIL"},
        {"target": f"cluster path over the local runner, 2 workers each (norvig, {DATASET})",
         "measured": f"{overhead:+.1f}% ({walls['cluster 2 s']:.2f} s against "
                     f"{walls['local 2 s']:.2f} s; starting the LocalCluster: "
                     f"{walls['cluster start s']:.2f} s more, once per run)",
         "needed": f"<= {100 * OVERHEAD:g}%",
         "verdict": "PASS" if overhead <= 100 * OVERHEAD else "FAIL"},
    ]


def report(figures: dict, rows: list[dict], chunk_rows: list[dict], size: dict,
           savings: dict[str, float], load: tuple[float, float], cpu: list[dict],
           idle: list[dict]) -> str:
    """results/cluster.md."""
    fixed, inside = per_chunk_model(chunk_rows)
    rounds = [{"round": k + 1, **{key: round(values[k], 3) for key, values in figures.items()}}
              for k in range(len(figures["scaling"]))]
    return "\n".join([
        "# compare on a Dask cluster (issue 21)", "",
        f"Generated by `bench/bench_cluster.py` on {datetime.date.today().isoformat()}.", "",
        tabulate(rows, headers="keys", tablefmt="github"), "",
        f"norvig over all {len(datasets.load(DATASET)):,} puzzles of {DATASET} (limit 2, "
        "timeout 10 s), each run appending to runs.jsonl and drawing progress as compare "
        "does. 'local J s': the local runner with J workers; 'cluster W s': a fresh "
        "`LocalCluster` of W one-thread workers, from the first chunk sent to the last "
        "record (the engines start cold, as the local runner's do); '/s': puzzles per "
        "second from the first answers (a chunk's come at once) to the last, as the "
        "progress display counts, so that starting the engines is left out (the scaling "
        "verdict; 'whole scaling' includes it); 'cluster start s': "
        "starting that LocalCluster, once per compare run. Chunks are chosen as compare "
        f"chooses them: {cluster.CHUNKS_PER_THREAD} per worker thread, at most "
        f"{cluster.CHUNK_MAX} puzzles. Verdicts are medians of rounds; rounds alternate "
        "the order. 'cores': the CPU time the solving processes got over the wall time (the "
        "local runner's engine processes; the Dask workers, which run the engines in their "
        "own process). The "
        "machine is shared: where other sessions keep its 2 cores busy, 2 workers get "
        "little more CPU than 1 (see 'local 2 cores'), and neither the local runner nor "
        "the cluster can scale there.", "",
        BATCHES + " " + busy(figures), "",
        tabulate(rounds, headers="keys", tablefmt="github"), "",
        "## Where the CPU goes", "",
        "CPU time per puzzle, medians of the rounds above: the solving processes (the "
        "local runner's engine processes; the cluster's Dask workers, engines and Dask's "
        "own work together) and the driving process (the local runner's parent; the "
        "client, with the LocalCluster's scheduler and nannies in it). Engines start cold "
        "in every run, so the solving side includes building them.", "",
        tabulate(cpu, headers="keys", tablefmt="github"), "",
        cpu_sentence(cpu), "",
        "## An idle LocalCluster", "",
        "CPU per second of a LocalCluster of 2 doing nothing: the client process (the "
        "scheduler, the nannies) and the 2 workers, with Dask's monitors as compare sets "
        f"them (`cluster.QUIET`: {', '.join(f'{k} = {v}' for k, v in cluster.QUIET.items())}"
        ") or as Dask does, with the dashboard's web server or without (here without "
        "bokeh, as on this machine: compare prints the dashboard address and how to get "
        "the pages).", "",
        tabulate(idle, headers="keys", tablefmt="github"), "",
        "## What batches save", "",
        "CPU time per puzzle of the local runner with 1 worker over all of "
        f"{DATASET} (median of interleaved pairs of runs): its engine process "
        f"{savings['batches engine']:.3f} ms and the parent "
        f"{savings['batches parent']:.3f} ms with batches, against "
        f"{savings['one at a time engine']:.3f} ms and "
        f"{savings['one at a time parent']:.3f} ms with one puzzle per message: "
        f"{savings['batches engine'] + savings['batches parent']:.3f} ms against "
        f"{savings['one at a time engine'] + savings['one at a time parent']:.3f} ms "
        "in all. CPU time holds on a busy machine, where wall times do not.", "",
        "## What a chunk costs", "",
        "`test-noop` (answers at once) on `local:1`, its engine already warm, with chunks "
        "of a fixed size:", "",
        tabulate(chunk_rows, headers="keys", tablefmt="github"), "",
        f"So a task costs about {fixed:.1f} ms of its own (scheduling, sending, the "
        f"client's bookkeeping, the worker's mark on the scheduler) and each puzzle in it "
        f"{inside:.3f} ms of harness time (the watchdog, the record, sending it back) "
        "besides the solve.", "",
        f"A chunk of 1000 {DATASET} puzzles is {size['sent KB']:.0f} KB to send and its "
        f"norvig records {size['back KB']:.0f} KB to bring back; the client appends those "
        f"1000 records to runs.jsonl in {size['log ms']:.1f} ms "
        f"({size['line bytes']:.0f} bytes a line), and cross-checks them (every grid "
        f"through the independent checker, against the reference) in "
        f"{size['cross-check ms']:.0f} ms.", "",
        *machine_section(f"usable cores: {cores()}",
                         f"load average (1 min) before and after: {load[0]:.2f}, "
                         f"{load[1]:.2f}",
                         measured=("sudokulab/harness", "bench/bench_cluster.py"))])


def main(argv: list[str] | None = None) -> int:
    """Measure, print the verdicts, write results/cluster.md; 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=2, help="pairs of runs, batches "
                        "against one puzzle at a time")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "cluster.md")
    args = parser.parse_args(argv)
    plugins = write_plugin(tempfile.mkdtemp(prefix="sudokulab-bench-"))
    sys.path.insert(0, str(plugins))  # test-noop, here and in the Dask workers
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(plugins), os.environ.get("PYTHONPATH", "")) if p)
    puzzles = list(enumerate(datasets.load(DATASET)))
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        figures, cpu = measure(args.rounds, puzzles, folder)
        idle = idle_costs()
        savings = batch_savings(puzzles, folder, args.pairs)
        chunk_rows = chunk_costs(puzzles, folder)
        size = sizes(puzzles, folder)
    load = (before, os.getloadavg()[0])
    rows = verdicts(figures)
    print(tabulate(chunk_rows, headers="keys"))
    cpu_table = cpu_rows(cpu)
    print(tabulate(cpu_table, headers="keys"))
    print(tabulate(idle, headers="keys"))
    print(", ".join(f"{k} {v:.1f}" for k, v in size.items()))
    print("CPU ms per puzzle: " + ", ".join(f"{k} {v:.3f}" for k, v in savings.items()))
    for row in rows:
        print(f"{row['target']}: {row['measured']} (needed {row['needed']}): {row['verdict']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(figures, rows, chunk_rows, size, savings, load,
                               cpu_table, idle))
    print(f"wrote {args.out}")
    return 0 if all(row["verdict"] == "PASS" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
