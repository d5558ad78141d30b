"""Issue 58: no slow corner left. Counting the empty grids and MiniZinc on a 25x25, each
measured the old way and the new way in the same run, side by side.

- Counting (sudokulab/backends/counting.py): `solve EMPTY --count` (norvig enumerating the
  grid with its first row fixed, times the orders of the digits: digit relabelling)
  against Ganak on the whole formula without the symmetry (the count before issue 58
  ran `--count-with sharpsat` this way), capped at CAP seconds. Targets: the 6x6 prints
  28,200,960 within COUNT_TARGET s, the 4x4 288, and the 8x8 (2x4 boxes) is printed or
  ends in a timeout that says what it found.
- MiniZinc (sudokulab/backends/mzn.py): `-b mzn:consistency=default` (the solver's own
  alldifferent, mzn's default before issue 58) against `-b mzn` (consistency=auto: domain
  from 16x16 up) on the empty 25x25, a 25x25 made from norvig's first grid of it with
  every other cell blanked, and the public 25x25 of tests/data/zhou-25x25.jsonl (held out:
  as published, and its first block of givens alone). Target: mzn within MZN_TARGET s.

Seconds are the wall clock of a fresh `sudokulab` process (the load is in the report).
Run: .venv/bin/python bench/bench_slow_corners.py [--out results/slow-corners.md]
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import time
from pathlib import Path

from provenance import machine_section

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "sudokulab", "solve"]
CAP = 60.0          # seconds for a way that may not finish
COUNT_TARGET = 10.0  # seconds: the 6x6 count
MZN_TARGET = 10.0   # seconds: mzn (domain consistency) on a 25x25
ZHOU = ROOT / "tests" / "data" / "zhou-25x25.jsonl"
EXPECTED = {4: 288, 6: 28_200_960}


def timed(args: list[str], cap: float) -> tuple[float, str]:
    """The wall seconds of a sudokulab solve and its stdout (`> cap` as 'timeout')."""
    started = time.perf_counter()
    try:
        done = subprocess.run(CLI + args, capture_output=True, text=True, timeout=cap + 15,
                              cwd=ROOT)
    except subprocess.TimeoutExpired:
        return cap, "timeout"
    return time.perf_counter() - started, done.stdout.strip()


def ganak_whole(n: int, cap: float) -> tuple[float, str]:
    """Ganak on the whole formula, no relabelling: the count before issue 58."""
    code = ("from sudokulab.backends import counting; from sudokulab.puzzle import empty; "
            f"r = counting.count(empty({n}), timeout={cap}, symmetry=False); "
            "print(r.count if r.exact else 'timeout')")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)
    return time.perf_counter() - started, done.stdout.strip()


def counting_rows() -> tuple[list[str], bool]:
    """The count of each empty grid, both ways; whether the targets hold."""
    lines, ok = ["| grid | before: Ganak whole (s) | answer | after: solve --count (s) | "
                 "answer | ratio |", "|---|---|---|---|---|---|"], True
    for n, box in ((4, "2x2"), (6, "2x3"), (8, "2x4")):
        before = ganak_whole(n, CAP) if n < 8 else (0.0, "not run (cap)")
        extra = ["--timeout", "10"] if n == 8 else []
        after = timed(["." * n * n, "--box", box, "--count", "--format", "line", *extra], CAP)
        right = after[1] == str(EXPECTED[n]) if n in EXPECTED else after[1].startswith(">=")
        fast = n != 6 or after[0] <= COUNT_TARGET
        ok &= right and fast
        ratio = f"{before[0] / after[0]:.1f}x" if before[0] else "-"
        lines.append(f"| {n}x{n} | {before[0]:.2f} | {before[1]} | {after[0]:.2f} | "
                     f"{after[1]} | {ratio} |")
        print(f"{'PASS' if right and fast else 'FAIL'} count {n}x{n}: {after[1]} in "
              f"{after[0]:.2f} s (before {before[1]} in {before[0]:.2f} s)", flush=True)
    return lines, ok


def mzn_rows() -> tuple[list[str], bool]:
    """mzn with and without domain consistency on four 25x25 puzzles; whether the target
    holds."""
    import json

    full = timed(["." * 625, "--limit", "1", "--format", "line"], CAP)[1]
    puzzles = {"empty 25x25": "." * 625,
               "25x25, every other cell blank": "".join(
                   d if k % 2 else "." for k, d in enumerate(full.split()[0]))}
    for line in ZHOU.read_text().splitlines():  # public, held out: JSON on the command line
        data = json.loads(line)
        puzzles[data["name"]] = json.dumps({k: data[k] for k in ("box", "givens", "rules")})
    lines, ok = ["| puzzle | before: mzn:consistency=default (s) | after: mzn (auto: domain) "
                 "(s) | ratio |", "|---|---|---|---|"], True
    for name, line in puzzles.items():
        before = timed(["-b", "mzn:consistency=default", "--timeout", str(CAP), "--format",
                        "line", line], CAP)
        after = timed(["-b", "mzn", "--timeout", str(CAP), "--format", "line", line], CAP)
        before, after = _short(before), _short(after)
        good = after[1] in ("multiple", "solution") and after[0] <= MZN_TARGET
        ok &= good
        lines.append(f"| {name} | {before[0]:.2f} ({before[1]}) | {after[0]:.2f} "
                     f"({after[1]}) | {before[0] / after[0]:.1f}x |")
        print(f"{'PASS' if good else 'FAIL'} mzn {name}: domain {after[1]} in {after[0]:.2f} s "
              f"(default {before[1]} in {before[0]:.2f} s)", flush=True)
    return lines, ok


def _short(run: tuple[float, str]) -> tuple[float, str]:
    """A timed run with its answer in a word: a line of digits (--format line's unique
    answer) is 'solution'."""
    seconds, answer = run
    return seconds, "solution" if len(answer) == 625 else answer


def main() -> None:
    """Run both corners and write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "results" / "slow-corners.md"))
    args = parser.parse_args()
    counts, counts_ok = counting_rows()
    mzn, mzn_ok = mzn_rows()
    report = ["# Issue 58: slow corners", "",
              f"Run {datetime.date.today()}; CAP {CAP:g} s a way, targets: 6x6 count "
              f"<= {COUNT_TARGET:g} s, mzn domain on a 25x25 <= {MZN_TARGET:g} s.", "",
              "## Counting the empty grids", "", *counts, "",
              "## MiniZinc on a 25x25", "", *mzn, "",
              f"Counting: {'PASS' if counts_ok else 'FAIL'}; MiniZinc: "
              f"{'PASS' if mzn_ok else 'FAIL'}", "",
              *machine_section(measured=["sudokulab/backends/counting.py",
                                         "sudokulab/backends/mzn.py"])]
    Path(args.out).write_text("\n".join(report) + "\n")
    print(f"report: {args.out}")


if __name__ == "__main__":
    main()
