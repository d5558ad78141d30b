"""Issue 6: what the harness itself costs, and how it scales with worker processes.

Targets:
1. overhead: at most 1 ms per puzzle beyond the backend's own time. Measured with the
   `test-noop` backend (it answers at once), over top1465, one worker: the time per puzzle
   of a whole run (send, solve call, receive, append to runs.jsonl, progress) less the time
   of the solve calls. The fixed cost of starting a worker is measured apart (a run of one
   puzzle) and taken out.
2. scaling: with 2 workers on 2 cores, at least 1.7x the throughput of 1 worker, for the
   norvig backend over top1465. Throughput is puzzles per second from the first answer to
   the last, as the progress display counts it: the workers' start-up (about 0.1 s, once
   per run) is shown apart, with the whole-run ratio beside it.

Rounds alternate the configurations so that machine noise hits all; both verdicts take
the median of rounds, the scaling one of each round's own ratio (its two runs ran within
seconds of each other, so a slow spell of the shared host hits both).
Run: .venv/bin/python bench/bench_harness.py [--rounds N] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.harness.progress import Progress
from sudokulab.harness.records import Record, cores
from sudokulab.harness.runlog import RunLog
from sudokulab.harness.runner import Options, run_backend
from sudokulab.harness.testing import write_plugin

ROOT = Path(__file__).resolve().parent.parent
OVERHEAD_MS = 1.0
SCALING = 1.7
DATASET = "top1465"


def timed_run(spec: str, puzzles: list, jobs: int,
              folder: Path) -> tuple[float, float, list[Record], list[float]]:
    """Wall seconds of a harness run as compare does it (log and progress), the CPU seconds
    its workers got, its records, and when each record came (seconds from the start)."""
    log, records, stamps = RunLog(folder), [], []
    progress = Progress(spec, len(puzzles), stream=io.StringIO())

    def record(r: Record) -> None:
        log.append(r)
        progress.step()
        records.append(r)
        stamps.append(time.perf_counter() - started)

    started, cpu = time.perf_counter(), _children_cpu()
    run_backend(spec, puzzles, Options(limit=2, timeout=10.0), jobs=jobs, record=record)
    elapsed, cpu = time.perf_counter() - started, _children_cpu() - cpu
    log.close()
    log.path.unlink()
    return elapsed, cpu, records, stamps


def _children_cpu() -> float:
    """CPU seconds of the ended worker processes so far."""
    times = os.times()
    return times.children_user + times.children_system


def overhead(puzzles: list, folder: Path) -> float:
    """Milliseconds per puzzle the harness adds to the no-op backend's own time."""
    startup, *_ = timed_run("test-noop", puzzles[:1], 1, folder)
    wall, _, records, _ = timed_run("test-noop", puzzles, 1, folder)
    own = sum(r.time for r in records)
    return (wall - startup - own) / (len(puzzles) - 1) * 1000


def throughput(puzzles: list, jobs: int, folder: Path) -> dict[str, float]:
    """A norvig run with `jobs` workers: its throughput, whole-run rate, start-up, cores."""
    wall, cpu, records, stamps = timed_run("norvig", puzzles, jobs, folder)
    assert all(r.result.status.is_answer for r in records), "norvig failed a puzzle"
    return {"/s": (len(stamps) - 1) / (stamps[-1] - stamps[0]), "whole /s": len(puzzles) / wall,
            "start s": stamps[0], "cores": cpu / wall}


def measure(rounds: int) -> dict:
    """Every figure, round by round."""
    puzzles = list(enumerate(datasets.load(DATASET)))
    figures: dict[str, list[float]] = {"overhead ms": [], "ratio": [], "whole ratio": []}
    figures.update({f"jobs {jobs} {key}": [] for jobs in (1, 2)
                    for key in ("/s", "whole /s", "start s", "cores")})
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for k in range(rounds):
            order = ["overhead", 1, 2] if k % 2 == 0 else [2, 1, "overhead"]
            for what in order:
                if what == "overhead":
                    figures["overhead ms"].append(overhead(puzzles, folder))
                else:
                    for key, value in throughput(puzzles, what, folder).items():
                        figures[f"jobs {what} {key}"].append(value)
            for ratio, key in (("ratio", "/s"), ("whole ratio", "whole /s")):
                figures[ratio].append(figures[f"jobs 2 {key}"][-1] / figures[f"jobs 1 {key}"][-1])
            print(f"round {k + 1}: " + ", ".join(f"{key} {values[-1]:.3f}"
                                                  for key, values in figures.items()))
    return figures


def verdicts(figures: dict[str, list[float]]) -> list[dict]:
    """One row per target: measured (median of rounds), target, PASS or FAIL."""
    ms = statistics.median(figures["overhead ms"])
    ratio, whole = (statistics.median(figures[key]) for key in ("ratio", "whole ratio"))
    starts = (statistics.median(figures[f"jobs {jobs} start s"]) for jobs in (1, 2))
    return [
        {"target": f"harness overhead per puzzle (test-noop, {DATASET}, 1 worker)",
         "measured": f"{ms:.3f} ms", "needed": f"<= {OVERHEAD_MS:g} ms",
         "verdict": "PASS" if ms <= OVERHEAD_MS else "FAIL"},
        {"target": f"norvig throughput, 2 workers over 1 ({DATASET})",
         "measured": f"{ratio:.2f}x (whole runs, start-up {'/'.join(f'{t:.2f}' for t in starts)}"
                     f" s included: {whole:.2f}x; the 2 workers got "
                     f"{statistics.median(figures['jobs 2 cores']):.2f} cores)",
         "needed": f">= {SCALING:g}x",
         "verdict": "PASS" if ratio >= SCALING else "FAIL"},
    ]


def report(figures: dict[str, list[float]], rows: list[dict], load: tuple[float, float]) -> str:
    """results/harness.md."""
    rounds = [{"round": k + 1, **{key: round(values[k], 3) for key, values in figures.items()}}
              for k in range(len(figures["overhead ms"]))]
    return "\n".join([
        "# Harness overhead and scaling (issue 6)", "",
        f"Generated by `bench/bench_harness.py` on {datetime.date.today().isoformat()}.", "",
        tabulate(rows, headers="keys", tablefmt="github"), "",
        "Overhead: a run of the `test-noop` backend (which answers at once) over every "
        f"puzzle of {DATASET} with one worker, less the solve calls' own time and less the "
        "start-up of the worker (a one-puzzle run), per puzzle. It covers sending the "
        "puzzle to the worker, receiving the result, appending it to runs.jsonl with a "
        "flush, and the progress display.", "",
        f"Scaling: throughput of norvig runs over {DATASET} (limit 2, as compare runs it), 2 "
        "workers against 1: puzzles per second from the first answer to the last, as the "
        "progress display counts it. The workers' start-up (spawning Python and building "
        "the engine, 'start s': until the first answer) comes once per run and is shown "
        "apart; the whole-run ratio includes it. Each round runs both, seconds apart, and "
        "gives a ratio; the verdicts are the medians of rounds, and rounds alternate the "
        "order. The parent process shares the 2 cores with the workers (it logs each "
        "answer), so 2 workers get a little less than 2 cores. 'cores' is the CPU time the "
        "workers got over the wall time: where the kernel shares the CPU fairly between "
        "sessions (sched autogroup), a machine busy with other sessions gives a run the "
        "same share however many workers it starts, and no harness can scale there.", "",
        tabulate(rounds, headers="keys", tablefmt="github"), "",
        *machine_section(f"usable cores: {cores()}",
                         f"load average (1 min) before and after: {load[0]:.2f}, "
                         f"{load[1]:.2f} (other work on the machine takes cores from the "
                         "2-worker runs)",
                         measured=("sudokulab/harness", "bench/bench_harness.py"))])


def main(argv: list[str] | None = None) -> int:
    """Measure, print the verdicts, write results/harness.md; 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "harness.md")
    args = parser.parse_args(argv)
    plugins = write_plugin(tempfile.mkdtemp(prefix="sudokulab-bench-"))
    sys.path.insert(0, str(plugins))  # the no-op backend, for this process and the workers
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(plugins), os.environ.get("PYTHONPATH", "")) if p)
    before = os.getloadavg()[0]
    figures = measure(args.rounds)
    load = (before, os.getloadavg()[0])
    rows = verdicts(figures)
    for row in rows:
        print(f"{row['target']}: {row['measured']} (needed {row['needed']}): {row['verdict']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(figures, rows, load))
    print(f"wrote {args.out}")
    return 0 if all(row["verdict"] == "PASS" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
