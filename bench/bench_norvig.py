"""Issue 2: the norvig backend against a plain string-based Norvig solver, side by side.

Target: on top1465, first solution (limit=1), the backend solves at least 5 times as
many puzzles per second as bench/norvig_reference.py (Norvig's 2006 algorithm written
plainly) in the same process. Both run over the whole dataset in every round,
interleaved chunk by chunk, so that machine noise (other jobs, frequency changes) hits
both; the verdict uses the median of the per-round ratios. The backend's limit=2 figure (find a
solution and prove it unique) is reported too but carries no target.

Every answer is checked against the dataset's reference solutions: a fast wrong answer
fails the benchmark.

Run: .venv/bin/python bench/bench_norvig.py [--rounds N] [--dataset NAME] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import statistics
import sys
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.backends.norvig import NorvigBackend
from sudokulab.formats.text import format_line
from sudokulab.result import Status

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGET = 5.0


def load_reference():
    """bench/norvig_reference.py as a module (bench/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("norvig_reference", HERE / "norvig_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module



def run_reference(solve, lines: list[str], expected: list[str]) -> tuple[float, int]:
    """Seconds for the reference to solve every line, and how many answers were wrong."""
    started = time.perf_counter()
    answers = [solve(line) for line in lines]
    elapsed = time.perf_counter() - started
    wrong = sum(answer != want for answer, want in zip(answers, expected, strict=True))
    return elapsed, wrong


def run_backend(backend, puzzles, expected, limit: int) -> tuple[float, int]:
    """Seconds for the backend to solve every puzzle with `limit`, and how many were wrong.

    limit=1 must give the reference solution; limit=2 must also prove it unique.
    """
    started = time.perf_counter()
    results = [backend.solve(puzzle, limit=limit) for puzzle in puzzles]
    elapsed = time.perf_counter() - started
    want_status = Status.SOLVED if limit == 1 else Status.UNIQUE
    wrong = sum(r.status != want_status or r.solutions[0] != solution
                for r, solution in zip(results, expected, strict=True))
    return elapsed, wrong


def measure(name: str, rounds: int, chunk: int) -> dict:
    """Every round's puzzles per second for the reference, backend limit=1 and limit=2.

    A round goes through the dataset in chunks of `chunk` puzzles; each chunk is solved by
    all three, in an order that rotates from chunk to chunk, so a burst of load from
    elsewhere on the machine lands on all of them alike.
    """
    reference = load_reference()
    puzzles = datasets.load(name)
    solutions = datasets.solutions(name)
    lines = [format_line(p) for p in puzzles]
    expected_lines = ["".join(map(str, s)) for s in solutions]
    backend = NorvigBackend()
    backend.solve(puzzles[0], limit=1)  # build the board once, outside the timing
    jobs = {
        "reference": lambda a, b: run_reference(reference.solve, lines[a:b],
                                                expected_lines[a:b]),
        "limit1": lambda a, b: run_backend(backend, puzzles[a:b], solutions[a:b], 1),
        "limit2": lambda a, b: run_backend(backend, puzzles[a:b], solutions[a:b], 2),
    }
    runs: dict[str, list[float]] = {key: [] for key in jobs}
    wrong = {key: 0 for key in jobs}
    keys = list(jobs)
    for k in range(rounds):
        seconds = dict.fromkeys(jobs, 0.0)
        for i, a in enumerate(range(0, len(puzzles), chunk)):
            turn = (i + k) % len(keys)
            for key in keys[turn:] + keys[:turn]:
                elapsed, bad = jobs[key](a, a + chunk)
                seconds[key] += elapsed
                wrong[key] += bad
        for key in jobs:
            runs[key].append(len(puzzles) / seconds[key])
        print(f"round {k + 1}/{rounds}: reference {runs['reference'][-1]:.0f}/s, "
              f"norvig limit=1 {runs['limit1'][-1]:.0f}/s, limit=2 {runs['limit2'][-1]:.0f}/s, "
              f"ratio {runs['limit1'][-1] / runs['reference'][-1]:.2f}", file=sys.stderr)
    return {"dataset": name, "puzzles": len(puzzles), "rounds": rounds, "chunk": chunk,
            "runs": runs, "wrong": wrong}


def summarise(m: dict) -> tuple[list[list], float, bool]:
    """Table rows, the median per-round ratio, and whether the target is met."""
    runs = m["runs"]
    ratios = [a / b for a, b in zip(runs["limit1"], runs["reference"], strict=True)]
    ratio = statistics.median(ratios)
    correct = not any(m["wrong"].values())
    rows = []
    for key, label in (("reference", "reference: string-based Norvig (limit=1)"),
                       ("limit1", "norvig backend, limit=1"),
                       ("limit2", "norvig backend, limit=2 (prove unique)")):
        figures = runs[key]
        rows.append([label, f"{statistics.median(figures):.0f}", f"{min(figures):.0f}",
                     f"{max(figures):.0f}", m["wrong"][key]])
    return rows, ratio, correct and ratio >= TARGET


HEADERS = ["solver", "puzzles/s (median)", "min", "max", "wrong answers"]


def report(m: dict, rows: list[list], ratio: float, passed: bool) -> str:
    """results/norvig.md."""
    runs = m["runs"]
    ratios = [a / b for a, b in zip(runs["limit1"], runs["reference"], strict=True)]
    lines = [
        "# Norvig backend against a plain Norvig solver (issue 2)",
        "",
        f"Generated by `bench/bench_norvig.py` on {datetime.date.today().isoformat()}.",
        "",
        f"Target: on {m['dataset']} ({m['puzzles']} puzzles), first solution (limit=1), the "
        f"`norvig` backend solves at least {TARGET:g}x as many puzzles per second as "
        "`bench/norvig_reference.py`, a plain string-based implementation of Norvig's 2006 "
        "algorithm, run side by side in the same process.",
        "",
        f"**Result: {'PASS' if passed else 'FAIL'}**: median ratio {ratio:.2f}x over "
        f"{m['rounds']} rounds (per round: {', '.join(f'{r:.2f}' for r in ratios)}).",
        "",
        tabulate(rows, HEADERS, tablefmt="github"),
        "",
        f"Each round solves the whole dataset three ways (reference, limit=1, limit=2), "
        f"interleaved in chunks of {m['chunk']} puzzles in an order that rotates from chunk "
        "to chunk, so load from elsewhere on the machine hits all three alike. Every "
        "answer is checked against the dataset's reference solutions (limit=2 must also "
        "report the solution unique); a wrong answer fails the benchmark.",
        "",
        *machine_section(measured=("sudokulab/backends/norvig.py", "bench")),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, write results/norvig.md; 0 when the target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dataset", default="top1465")
    parser.add_argument("--chunk", type=int, default=50, help="puzzles per interleaved turn")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "norvig.md")
    args = parser.parse_args(argv)
    m = measure(args.dataset, args.rounds, args.chunk)
    rows, ratio, passed = summarise(m)
    print(tabulate(rows, HEADERS))
    print(f"ratio (median of rounds): {ratio:.2f}x, target >= {TARGET:g}x: "
          f"{'PASS' if passed else 'FAIL'}")
    if any(m["wrong"].values()):
        print(f"WRONG ANSWERS: {m['wrong']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(m, rows, ratio, passed))
    print(f"wrote {args.out}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
