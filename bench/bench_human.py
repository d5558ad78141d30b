"""Issue 14: the human-style solver's coverage, soundness and grading speed.

For each bundled dataset it solves every puzzle (or a sample: --sample) with every
technique enabled, easiest first, and reports:
- coverage by tier: the share of puzzles whose path needs nothing beyond each tier
  (singles; + intersections and subsets; + fish; + wings, single-digit patterns, coloring,
  uniqueness; + chains (with finned fish); + forcing chains). With the easiest-first order
  this is exactly the share that the techniques up to that tier solve;
- soundness: every step of every path checked against the dataset's reference solution
  (tdoku's): no placement may differ from it, no elimination may remove its digit;
- grading speed: puzzles graded per second (solve + grade), in one process.

Targets (issue 14): 100% of top1465 and of sudoku10k get a logical path; no wrong step
anywhere; grading at least 200 puzzles/s on sudoku10k and at least 5/s on top1465.
HoDoKu 2.2.0 on top1465, for reference: about 21% need no more than subsets, about 66% no
more than chains/ALS/finned fish, 34% forcing chains or worse.

Run: .venv/bin/python bench/bench_human.py [--sample K] [--datasets a,b] [--out PATH]
"""

from __future__ import annotations

import argparse
import collections
import datetime
import sys
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab.harness import datasets
from sudokulab.human import grading, solver

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ("top1465", "sudoku10k", "forum_hardest_1106", "top95", "easy50")
SPEED = {"sudoku10k": 200.0, "top1465": 5.0}       # puzzles graded per second
FULL_PATH = ("top1465", "sudoku10k")                  # every puzzle must get a logical path
SAMPLES = {"forum_hardest_1106": 60}  # seconds a puzzle there: a sample keeps the bench short


def run(name: str, sample: int | None) -> dict:
    """Solve and grade a dataset (every k-th puzzle when sampled); tiers, levels, speed."""
    sample = sample or SAMPLES.get(name)
    puzzles, solutions = datasets.load(name), datasets.solutions(name)
    step = max(1, len(puzzles) // sample) if sample else 1
    chosen = list(zip(puzzles, solutions))[::step][: sample or None]
    tiers: collections.Counter = collections.Counter()
    levels: collections.Counter = collections.Counter()
    techniques: collections.Counter = collections.Counter()
    wrong = unsolved = 0
    seconds = 0.0
    for k, (puzzle, solution) in enumerate(chosen, 1):
        started = time.perf_counter()
        path = solver.solve(puzzle, unique=True)
        grade = grading.grade(path.steps, path.solved)
        seconds += time.perf_counter() - started
        wrong += bool(solver.wrong_moves(path.steps, solution, puzzle.size))
        counts = path.counts()
        techniques.update(counts)
        if path.solved:
            tiers[max(solver.lookup(t).tier for t in counts)] += 1
            levels[grade.level] += 1
        else:
            unsolved += 1
        if k % 500 == 0:
            print(f"{name}: {k}/{len(chosen)}", file=sys.stderr)
    return {"name": name, "puzzles": len(chosen), "tiers": tiers, "levels": levels,
            "techniques": techniques, "wrong": wrong, "unsolved": unsolved,
            "rate": len(chosen) / seconds if seconds else 0.0, "sampled": step > 1 or
            len(chosen) < len(puzzles)}


def coverage_rows(results: list[dict]) -> list[list]:
    """One row per dataset: cumulative share solved up to each tier."""
    rows = []
    for r in results:
        total, running, shares = r["puzzles"], 0, []
        for tier in range(len(solver.TIERS)):
            running += r["tiers"][tier]
            shares.append(f"{100 * running / total:.1f}%")
        rows.append([r["name"] + (" (sample)" if r["sampled"] else ""), total, *shares])
    return rows


def verdicts(results: list[dict]) -> list[tuple[str, bool]]:
    """(target line, met) for each target that the datasets run allow."""
    out = []
    for r in results:
        out.append((f"{r['name']}: every step of {r['puzzles']} paths agrees with the "
                    f"reference solutions ({r['wrong']} paths with a wrong step)",
                    r["wrong"] == 0))
        if r["name"] in FULL_PATH:
            out.append((f"{r['name']}: logical path for every puzzle "
                        f"({r['puzzles'] - r['unsolved']}/{r['puzzles']})", r["unsolved"] == 0))
        if r["name"] in SPEED:
            out.append((f"{r['name']}: grading {r['rate']:.1f} puzzles/s >= "
                        f"{SPEED[r['name']]:g}/s", r["rate"] >= SPEED[r["name"]]))
    return out


def report(results: list[dict], lines: list[tuple[str, bool]], sample: int | None) -> str:
    """results/human.md."""
    headers = ["dataset", "puzzles", *(f"<= {t}" for t in solver.TIERS)]
    level_rows = [[r["name"], *(r["levels"][lv] for lv in grading.LEVELS), r["unsolved"],
                   f"{r['rate']:.1f}"] for r in results]
    used = collections.Counter()
    for r in results:
        used.update(r["techniques"])
    technique_rows = [[t.name, solver.TIERS[t.tier], used[t.name]] for t in solver.TECHNIQUES]
    parts = [
        "# Human-style solver: coverage, soundness, grading speed (issue 14)", "",
        f"Measured {datetime.date.today().isoformat()} by `bench/bench_human.py`"
        + (f" on a sample of {sample} puzzles per dataset (every k-th)" if sample else
           " on every puzzle of each dataset except those marked (sample): every k-th")
        + "; two datasets at a time, each in one process; every technique enabled "
        "(uniqueness techniques on: every bundled puzzle has one solution).", "",
        "## Targets", "",
        *(f"- {'PASS' if ok else 'FAIL'}: {text}" for text, ok in lines), "",
        "## Coverage: share of puzzles whose path needs nothing beyond each tier", "",
        tabulate(coverage_rows(results), headers=headers, tablefmt="github"), "",
        "HoDoKu 2.2.0 on top1465 for reference: about 21% up to subsets, about 66% up to "
        "chains/ALS/finned fish, 34% forcing chains or worse.", "",
        "## HoDoKu levels, and grading speed", "",
        tabulate(level_rows, headers=["dataset", *grading.LEVELS, "stalled", "puzzles/s"],
                 tablefmt="github"), "",
        "## Steps per technique (all datasets)", "",
        tabulate(technique_rows, headers=["technique", "tier", "steps"], tablefmt="github"), "",
        "## SE ratings", "",
        "No bundled dataset carries Sudoku Explainer ratings, so the rank correlation with SE "
        "and the share of levels matching HoDoKu's are not measured here.", "",
        *machine_section(measured=("sudokulab/human", "bench/bench_human.py")),
    ]
    return "\n".join(parts) + "\n"


def main() -> int:
    """Run, print one line per target, write the report; 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, help="every k-th puzzle, K per dataset")
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "human.md")
    args = parser.parse_args()
    from concurrent.futures import ProcessPoolExecutor

    names = args.datasets.split(",")
    # Two datasets at a time, one process each (each rate is its own process's).
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, names, [args.sample] * len(names)))
    lines = verdicts(results)
    for text, ok in lines:
        print(f"{text}: {'PASS' if ok else 'FAIL'}")
    args.out.write_text(report(results, lines, args.sample), encoding="utf-8")
    return 0 if all(ok for _, ok in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
