"""Issue 37: the large samples that the tests check on a smaller part, checked in full and timed.

The tests assert each fact on a sample, so that `make test` stays quick; here the same fact
is checked on the whole sample it was first written for, with the time it takes:
1. prolog with the weak strength (all_different), limit=1, on all of top95: the first
   solution is the reference one (tests/test_prolog.py checks every 4th puzzle);
2. smt's int model on every 8th puzzle of top95 (12): the status and solutions are norvig's
   (tests/test_smt.py checks every 16th).
Each line ends in PASS when every answer is right; the times are reported, not targets.

Run: .venv/bin/python bench/bench_samples.py
"""

from __future__ import annotations

import os
import sys
import time

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.check import check
from sudokulab.result import Status


def prolog_weak_strength() -> tuple[int, int]:
    """Wrong first solutions of prolog:strength=all_different on top95, and puzzles tried."""
    backend = make_backend("prolog:strength=all_different")
    pairs = list(zip(datasets.load("top95"), datasets.solutions("top95")))
    wrong = sum(result.status is not Status.SOLVED or result.solutions != (solution,)
                for puzzle, solution in pairs
                for result in [backend.solve(puzzle, limit=1)])
    return wrong, len(pairs)


def smt_int_model() -> tuple[int, int]:
    """Answers of smt:model=int on every 8th top95 puzzle that differ from norvig's."""
    puzzles = datasets.load("top95")[::8]
    smt, norvig = make_backend("smt:model=int"), make_backend("norvig")
    wrong = 0
    for puzzle in puzzles:
        result, expected = smt.solve(puzzle), norvig.solve(puzzle)
        wrong += (result.status, result.solutions) != (expected.status, expected.solutions) \
            or check(puzzle, result.solutions[0]) != []
    return wrong, len(puzzles)


def main() -> int:
    """Run each check, one line each; 0 when every answer is right."""
    checks = {"smt:model=int agrees with norvig on top95[::8]": smt_int_model}
    if os.environ.get("SUDOKULAB_SKIP_PROLOG") != "1":
        checks["prolog:strength=all_different first solutions on top95"] = prolog_weak_strength
    failed = 0
    for name, run in checks.items():
        start = time.perf_counter()
        wrong, total = run()
        seconds = time.perf_counter() - start
        failed += wrong > 0
        print(f"{name}: {total - wrong}/{total} right in {seconds:.1f} s "
              f"{'PASS' if not wrong else 'FAIL'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
