"""Variants issue: every backend counts the 72 Miracle grids, side by side, timed.

The Miracle rules (anti-knight, anti-king, non-consecutive) admit exactly 72 grids on the
empty 9x9. Each available backend (norvig, sat, smt, prolog, dlx, asp) counts them all
(limit=None), in a fresh process of its own, one after the other, with a hard cap of
CAP seconds: a slow backend is killed and reported, it cannot hang the benchmark. Each
count must be exactly 72, of distinct grids that the independent checker accepts.

Target: the slowest backend finishes the count within TARGET seconds, by the wall clock
(what a user waits for). CPU time is shown beside it: the machine is shared, and the
wall clock also counts the waits for a core.

The clock runs around `backend.solve` only: importing the engine and loading its model
program (janus and sudoku.pl, Z3, ...) happen before, with a solve of the empty 4x4.

Then, to show why prolog's `auto` options are what they are, the same count with each
pairing of strength (hybrid, all_different) and labeling (ff, ffc), stopped by the
backend's own timeout after OPTION_TIMEOUT seconds (the grids found by then are shown).

Run: .venv/bin/python bench/bench_variants.py [--backends norvig,sat,smt,prolog,dlx]
     [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab import rules as R
from sudokulab.backends import complete_searches
from sudokulab.puzzle import empty

ROOT = Path(__file__).resolve().parent.parent

GRIDS = 72
TARGET = 60.0  # seconds, the slowest backend
CAP = 120.0    # seconds a backend's process may live
OPTION_TIMEOUT = 45.0  # seconds each of prolog's option pairings may search
OPTIONS = [f"prolog:strength={strength},labeling={labeling}"
           for strength in ("hybrid", "all_different") for labeling in ("ff", "ffc")]
RESULT = "RESULT "  # the child's last line: this prefix, then JSON
HEADERS = ["backend", "seconds (wall)", "CPU s", "count", "grids", "statistics"]


def count_in_this_process(name: str, timeout: float | None = None) -> dict:
    """Count the Miracle grids with one backend spec; what a child process reports."""
    from sudokulab.backends import make_backend
    from sudokulab.check import check

    backend = make_backend(name)
    ready = backend.available()
    if not ready.ok:
        return {"backend": name, "available": False, "reason": ready.reason}
    backend.solve(empty(4), limit=None)  # load the engine outside the clock
    puzzle = empty(9, R.MIRACLE)
    cpu, wall = time.process_time(), time.perf_counter()
    result = backend.solve(puzzle, limit=None, timeout=timeout)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    valid = sum(check(puzzle, grid) == [] for grid in set(result.solutions))
    return {"backend": name, "available": True, "version": ready.version,
            "wall": wall, "cpu": cpu, "status": result.status.value,
            "count": result.count_text, "exact": result.exact,
            "solutions": len(result.solutions), "valid": valid,
            "stats": result.stats, "message": result.message}


def count_in_a_child(name: str, timeout: float | None = None) -> dict:
    """Run one backend's count in a fresh process, killed after CAP seconds."""
    started = time.perf_counter()
    command = [sys.executable, __file__, "--child", name]
    if timeout is not None:
        command += ["--timeout", str(timeout)]
    try:
        child = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=CAP)
    except subprocess.TimeoutExpired:
        return {"backend": name, "available": True, "killed": True,
                "wall": time.perf_counter() - started}
    lines = [line for line in child.stdout.splitlines() if line.startswith(RESULT)]
    if child.returncode != 0 or not lines:
        last = (child.stderr.strip().splitlines() or ["no output"])[-1]
        return {"backend": name, "available": True, "crashed": True,
                "message": f"exit code {child.returncode}: {last}"}
    return json.loads(lines[-1][len(RESULT):])


def right(run: dict) -> bool:
    """Whether a backend counted exactly 72 distinct grids, each one valid."""
    return (run.get("status") == "multiple" and run.get("exact") is True
            and run.get("count") == str(GRIDS) and run.get("valid") == GRIDS)


def statistics(stats: dict) -> str:
    """A backend's native statistics on one line (times are in the other columns)."""
    shown = {key: value for key, value in stats.items() if not key.endswith("time")}
    return ", ".join(f"{key} {value:,.0f}" if isinstance(value, (int, float))
                     else f"{key} {value}" for key, value in shown.items())


def row(run: dict) -> list:
    """One line of the table."""
    name = run["backend"]
    if not run["available"]:
        return [name, "", "", "", "not available", run["reason"]]
    if run.get("killed"):
        return [name, f"> {CAP:.0f}", "", "", f"killed after {CAP:.0f} s", ""]
    if run.get("crashed"):
        return [name, "", "", "", "crashed", run["message"]]
    if run["status"] == "timeout":
        grids = f"stopped after {run['wall']:.0f} s: {run['valid']} valid grids found"
        return [name, f"> {run['wall']:.0f}", f"{run['cpu']:.2f}", run["count"], grids,
                statistics(run["stats"])]
    grids = "72, all valid" if right(run) else (
        f"WRONG: {run['status']}, {run['solutions']} grids, {run['valid']} valid "
        f"{run['message']}".strip())
    return [name, f"{run['wall']:.2f}", f"{run['cpu']:.2f}", run["count"], grids,
            statistics(run["stats"])]


def verdict(runs: list[dict]) -> tuple[bool, str]:
    """PASS when every available backend is right and the slowest is within TARGET."""
    ran = [run for run in runs if run["available"]]
    if not ran:
        return False, "no backend is available"
    slowest = max(ran, key=lambda run: CAP if run.get("killed") or run.get("crashed")
                  else run["wall"])
    seconds = (f"over {CAP:.0f} s (killed)" if slowest.get("killed")
               else "crashed" if slowest.get("crashed") else f"{slowest['wall']:.1f} s")
    wrong = [run["backend"] for run in ran if not right(run)]
    passed = not wrong and slowest["wall"] <= TARGET
    text = (f"slowest backend counting the {GRIDS} Miracle grids: {slowest['backend']} "
            f"{seconds}, target <= {TARGET:.0f} s" +
            (f"; wrong counts: {', '.join(wrong)}" if wrong else ""))
    return passed, text


def report(table: str, passed: bool, text: str, options: str, runs: list[dict]) -> str:
    """results/variants.md."""
    return "\n".join([
        "# Counting the 72 Miracle grids, every backend side by side (variants issue)",
        "",
        f"Generated by `bench/bench_variants.py` on {datetime.date.today().isoformat()}. "
        "The empty 9x9 under the Miracle rules (anti-knight, anti-king, non-consecutive), "
        "limit=None: every grid found and returned. Each backend runs in a fresh process of "
        f"its own, one after another, killed after {CAP:.0f} s; the clock runs around "
        "`backend.solve` only (the engine is loaded before, with a solve of the empty 4x4). "
        "Every grid is checked by the independent checker.",
        "",
        f"**Target: {text}: {'PASS' if passed else 'FAIL'}**",
        "",
        table,
        "",
        "Seconds are wall-clock, what a user waits for; CPU seconds beside them (the "
        "machine is shared: the wall clock also counts the waits for a core). Statistics "
        "are each engine's own: norvig's search, the SAT solver's and Z3's counters, "
        "Prolog's inferences. One run each: on this machine a time moves by 10-15% from "
        "run to run.",
        "",
        "## Why prolog counts in seconds, not minutes",
        "",
        "Posted with the classic's settings, `hybrid` strength (Regin's matching over each "
        "unit, `all_distinct`) and `ff` labeling, the count took over 5 minutes. sudoku.pl "
        "now chooses both from the rules (`auto`, the default): when a rule relates cells "
        "two by two (anti-knight and anti-king pairs, non-consecutive neighbours), it "
        "propagates the units with `all_different` and labels with `ffc`; and the backend no "
        "longer sends pairs that already share a unit. The same count with each pairing, in "
        f"this run (each stopped after {OPTION_TIMEOUT:.0f} s):",
        "",
        options,
        "",
        "The matchings of `all_distinct` cut the labeling choices, but are rebuilt on every "
        "change of a unit's candidates, and pairwise rules make more changes per placed "
        "digit (under the Miracle rules a cell sees 25 others on average, up to 29, "
        "against 20 in the classic). `ffc` "
        "breaks first-fail's ties by the most constraints, so a centre cell (8 knight's "
        "moves) goes before a corner (2). Without pairwise rules the default stays "
        "`hybrid` and `ff`, six times faster than `all_different` on top1465 "
        "(results/prolog.md).",
        "",
        *machine_section(*(f"{run['backend']}: {run['version']}" for run in runs
                           if run.get("version")),
                         measured=("sudokulab", "bench/bench_variants.py")),
    ])


def main(argv: list[str] | None = None) -> int:
    """Count with every backend, print the table, write the report; 0 when the target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", help="comma list (default: every complete search "
                                           "in the registry)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "variants.md")
    parser.add_argument("--skip-options", action="store_true",
                        help="skip the comparison of prolog's option pairings")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(RESULT + json.dumps(count_in_this_process(args.child, args.timeout)), flush=True)
        return 0
    runs = []
    for name in (args.backends.split(",") if args.backends else complete_searches()):
        print(f"counting with {name} ...", file=sys.stderr, flush=True)
        runs.append(count_in_a_child(name.strip()))
    table = tabulate([row(run) for run in runs], HEADERS, tablefmt="github")
    passed, text = verdict(runs)
    print(table)
    options = "(not run: --skip-options)"
    if not args.skip_options and any(run["available"] for run in runs
                                     if run["backend"] == "prolog"):
        pairings = []
        for spec in OPTIONS:
            print(f"counting with {spec} ...", file=sys.stderr, flush=True)
            pairings.append(count_in_a_child(spec, OPTION_TIMEOUT))
        options = tabulate([row(run) for run in pairings], HEADERS, tablefmt="github")
        print(options)
    print(f"{text}: {'PASS' if passed else 'FAIL'}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(table, passed, text, options, runs))
    print(f"wrote {args.out}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
