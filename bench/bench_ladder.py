"""Issue 31: the whole default inference ladder over 17_clue in under 10 minutes on 2 cores.

Runs every default level (`sudokulab ladder`'s, each engine's root propagation plus the
guesses of its full search) over an evenly spread sample of 17_clue on 2 worker processes,
and projects the time to all 49,158 puzzles from the sample's rate. The sample's grids are
checked by sudokulab/check.py as the ladder always does: a wrong grid fails the benchmark.

Run: .venv/bin/python bench/bench_ladder.py [--sample K] [--jobs J]
"""

from __future__ import annotations

import argparse
import time

from sudokulab import datasets, ladder

TARGET = 600.0  # seconds for the whole of 17_clue


def main() -> int:
    """Time the sample, project, print the verdict line."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    puzzles = datasets.load("17_clue")
    sample = puzzles[:: max(1, len(puzzles) // args.sample)]
    levels = ladder.choose("default")
    started = time.perf_counter()
    tallies = ladder.run(sample, levels, jobs=args.jobs, progress=False)
    took = time.perf_counter() - started
    projected = took * len(puzzles) / len(sample)
    wrong = sum(len(t.wrong) for t in tallies.values())
    passed = projected < TARGET and not wrong
    for tally in tallies.values():
        print(f"  {tally.level.name:22} {tally.percent:5.1f}% finished")
    print(f"ladder over 17_clue ({len(levels)} levels, {args.jobs} jobs): {len(sample)} puzzles "
          f"in {took:.1f} s, projected {projected:.0f} s for {len(puzzles):,} (target < "
          f"{TARGET:.0f} s), {wrong} wrong grids: {'PASS' if passed else 'FAIL'}")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
