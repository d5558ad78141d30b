"""Issue 3: throughput of the sat backend, and its encodings and solvers side by side.

Targets, on top1465 with the default backend (CaDiCaL 1.9.5, extended encoding, pairwise
at-most-one, one solver reused with the givens as assumptions):
1. at least 2,500 puzzles/s for the first solution (limit=1);
2. at least 1,200 puzzles/s when uniqueness is proved too (limit=2);
3. the whole run takes at most 1.3x the solver's own accumulated time (PySAT's
   `time_accum`): the Python side (assumptions, model decoding, results) adds at most 30%;
4. through the command line (issue 37): `sudokulab solve --file 17_clue -b sat --limit 1
   --format line`, a whole process reading, checking and printing, reaches at least 0.9x
   the throughput of bench/bare_pysat.py (one CaDiCaL, the givens as assumptions, each
   model read and printed), both timed by their CPU seconds side by side, rounds
   interleaved as bench_frontdoor.py times them, outputs compared.

Times are process CPU seconds (time.process_time, the clock `time_accum` uses too), so
that other jobs on a shared machine do not count against the backend; wall-clock rates
are shown beside them. The engine is built before the clock starts (its build time is
reported apart). Each round runs limit=1 then limit=2 over the whole dataset; the verdict
takes the best round, as timeit does (noise only ever slows a run), and the table shows
the median too. Every answer is checked against the dataset's reference solutions: a
fast wrong answer fails the benchmark.

Then every encoding with several solvers, and every at-most-one encoding, once each.
Run: .venv/bin/python bench/bench_sat.py [--rounds N] [--cli-rounds N] [--quick] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

import pysat
from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.backends.sat import SatBackend, engine
from sudokulab.models import cnf
from sudokulab.result import Status

ROOT = Path(__file__).resolve().parent.parent
DATASET = "top1465"
TARGETS = {"limit1": 2500.0, "limit2": 1200.0, "overhead": 1.3, "cli": 0.9}
SOLVERS = ("cadical195", "glucose4", "minisat22", "maplechrono", "lingeling")


def run(backend: SatBackend, puzzles, solutions, limit: int, timeout: float | None = None
        ) -> dict:
    """One pass: CPU and wall seconds, the solver's own seconds, wrong answers, build time."""
    built = backend.solve(puzzles[0], limit=limit).build_time  # first use builds the engine
    wall, cpu = time.perf_counter(), time.process_time()
    results = [backend.solve(p, limit=limit, timeout=timeout) for p in puzzles]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    status = Status.SOLVED if limit == 1 else Status.UNIQUE
    wrong = sum(r.status is not status or r.solutions[0] != s
                for r, s in zip(results, solutions, strict=True))
    return {"cpu": cpu, "wall": wall, "solver": sum(r.stats["solver_time"] for r in results),
            "wrong": wrong, "build": built, "n": len(puzzles)}


def rate(m: dict, clock: str = "cpu") -> float:
    """Puzzles per second of a pass on one clock."""
    return m["n"] / m[clock]


def headline(puzzles, solutions, rounds: int) -> dict[str, list[dict]]:
    """Rounds of the default backend at limit=1 and limit=2, and one limit=1 pass with a
    timeout (the path a harness takes)."""
    passes: dict[str, list[dict]] = {"limit1": [], "limit2": []}
    for k in range(rounds):
        for limit in (1, 2):
            engine.cache_clear()  # each round starts from a fresh solver
            passes[f"limit{limit}"].append(run(SatBackend(), puzzles, solutions, limit))
        print(f"round {k + 1}/{rounds}: limit=1 {rate(passes['limit1'][-1]):.0f}/s, "
              f"limit=2 {rate(passes['limit2'][-1]):.0f}/s", file=sys.stderr)
    engine.cache_clear()
    passes["timeout"] = [run(SatBackend(), puzzles, solutions, 1, timeout=10.0)]
    return passes


def through_cli(rounds: int) -> dict:
    """`sudokulab solve --file 17_clue -b sat` and the bare PySAT loop as whole processes,
    interleaved round by round: their (CPU, wall) seconds and whether the outputs agree."""
    import tempfile

    from bench_frontdoor import DATA, HERE, PYTHON, SUDOKULAB, end_to_end

    clue17 = str(DATA / "17_clue.txt.gz")
    ours = [SUDOKULAB, "solve", "--file", clue17, "--backend", "sat", "--limit", "1",
            "--format", "line"]
    with tempfile.TemporaryDirectory() as tmp:
        return end_to_end(ours, [PYTHON, str(HERE / "bare_pysat.py"), clue17], rounds,
                          Path(tmp))


def cli_verdict(run: dict) -> tuple[list[list], bool]:
    """Rows of the command-line table, and whether the target is met (median of the
    per-round throughput ratios, outputs the same)."""
    ratios = [y[0] / o[0] for o, y in zip(run["ours"], run["yardstick"], strict=True)]
    ratio = statistics.median(ratios)
    ok = run["same"] and ratio >= TARGETS["cli"]
    rows = [[k + 1, f"{o[0]:.2f}", f"{y[0]:.2f}", f"{y[0] / o[0]:.3f}", f"{o[1]:.2f}",
             f"{y[1]:.2f}"] for k, (o, y) in enumerate(zip(run["ours"], run["yardstick"]))]
    rows.append(["median", "", "", f"{ratio:.3f}", "", ""])
    return rows, ok


CLI_HEADERS = ["round", "sudokulab CPU s", "bare loop CPU s", "throughput ratio",
               "sudokulab wall s", "bare loop wall s"]


def matrix(puzzles, solutions) -> tuple[list[list], list[list]]:
    """Rows of puzzles/s (limit=1): encodings x solvers, then at-most-one encodings."""
    by_solver = []
    for encoding in cnf.ENCODINGS:
        row = [encoding]
        for solver in SOLVERS:
            m = run(SatBackend(solver=solver, encoding=encoding), puzzles, solutions, 1)
            row.append(cell(m))
            print(f"{encoding} / {solver}: {row[-1]}", file=sys.stderr)
        by_solver.append(row)
    by_amo = []
    for amo in cnf.AMO_ENCODINGS:
        solver = "minicard" if amo == "native" else "cadical195"
        m = run(SatBackend(solver=solver, amo=amo), puzzles, solutions, 1)
        size = cnf.base((3, 3), (), "extended", amo)
        by_amo.append([amo, solver, size.variables, size.size, cell(m)])
        print(f"extended / {amo}: {by_amo[-1][-1]}", file=sys.stderr)
    return by_solver, by_amo


def cell(m: dict) -> str:
    """A table cell: puzzles/s, flagged if any answer was wrong."""
    return f"{rate(m):,.0f}" + (f" ({m['wrong']} WRONG)" if m["wrong"] else "")


def verdict(passes: dict[str, list[dict]]) -> tuple[list[list], bool]:
    """Rows of the headline table, and whether every target is met in the best round."""
    rows, ok = [], True
    for key, label in (("limit1", "limit=1 (first solution)"),
                       ("limit2", "limit=2 (prove unique)"),
                       ("timeout", "limit=1, timeout=10 s")):
        runs = passes[key]
        best = max(runs, key=rate)
        ratio = best["cpu"] / best["solver"]
        wrong = sum(m["wrong"] for m in runs)
        target = TARGETS.get(key)
        met = wrong == 0 and (target is None or (rate(best) >= target
                                                 and ratio <= TARGETS["overhead"]))
        ok = ok and met
        rows.append([label, f"{rate(best):,.0f}", f"{statistics.median(map(rate, runs)):,.0f}",
                     f"{rate(best, 'wall'):,.0f}", f"{ratio:.2f}", f"{best['build'] * 1e3:.0f}",
                     wrong, f">= {target:,.0f}/s, ratio <= {TARGETS['overhead']}" if target
                     else "(no target)", ("PASS" if met else "FAIL") if target else ""])
    return rows, ok


HEADERS = ["run", "puzzles/s (best, CPU)", "median", "wall-clock (that round)",
           "time / solver time", "build ms", "wrong", "target", ""]


def report(rows, ok, by_solver, by_amo, n, few, rounds, cli) -> str:
    """results/sat.md: the figures, the targets, the verdict, the tables, the machine."""
    today = datetime.date.today().isoformat()
    scope = f", first {few} puzzles" if few < n else ""
    cli_rows, cli_ok, cli_run = cli
    return "\n".join([
        "# SAT backend throughput (issue 3)", "",
        f"Generated by `bench/bench_sat.py` on {today}, on {DATASET} ({n} puzzles), "
        f"{rounds} rounds.", "",
        "Default backend: `sat` = CaDiCaL 1.9.5, extended encoding, pairwise at-most-one, "
        "one solver per shape reused across puzzles with the givens as assumptions.", "",
        f"Targets: at least {TARGETS['limit1']:,.0f} puzzles/s at limit=1 and "
        f"{TARGETS['limit2']:,.0f}/s at limit=2; the whole run at most "
        f"{TARGETS['overhead']}x the solver's own accumulated time (`time_accum`).", "",
        f"**Result: {'PASS' if ok else 'FAIL'}**", "",
        tabulate(rows, HEADERS, tablefmt="github"), "",
        "Rates are puzzles per second of process CPU time (the clock PySAT's `time_accum` "
        "uses), best of the rounds; wall-clock is shown beside. 'time / solver time' is the "
        "run's CPU time over the solver's own: what Python adds on top. The engine is built "
        "before the clock starts ('build ms'). Every answer is checked against the "
        "reference solutions.", "",
        "## Through the command line: 17_clue as whole processes (issue 37)", "",
        f"`sudokulab solve --file 17_clue -b sat --limit 1 --format line` against "
        f"`bench/bare_pysat.py` on 17_clue (49,158 puzzles), {len(cli_run['ours'])} rounds "
        f"interleaved. Target: at least {TARGETS['cli']}x the bare loop's throughput "
        f"(its CPU seconds over ours), outputs the same: "
        f"**{'PASS' if cli_ok else 'FAIL'}**"
        + ("" if cli_run["same"] else " (OUTPUTS DIFFER)") + ".", "",
        tabulate(cli_rows, CLI_HEADERS, tablefmt="github"), "",
        "CPU is user + system seconds of each whole process (the kernel's account of the "
        "child), start-up and exit included; the wall clock is beside it, for a machine "
        "shared with other jobs. The bare loop loads the same extended encoding into one "
        "CaDiCaL 1.9.5 once, solves each line under its givens as assumptions, reads each "
        "model and prints it; sudokulab also parses each line into a puzzle, answers "
        "clashing givens itself, checks every grid with the independent checker "
        "(sudokulab/check.py) before printing it, and starts a fresh solver every 2,000 "
        "puzzles (sat.RELOAD_EVERY; results/frontdoor.md measures why).", "",
        f"## Encodings x solvers ({DATASET}{scope}, limit=1, pairwise at-most-one, "
        "puzzles/s CPU)", "",
        tabulate(by_solver, ["encoding", *SOLVERS], tablefmt="github"), "",
        "minimal, efficient and extended reuse one solver per shape; optimized "
        "(Kwon & Jain) depends on the givens, so it builds a fresh formula and solver "
        "for every puzzle (its cost is mostly that). These two tables are one pass each: "
        "on a busy machine a cell can be off by 20%, so read them for orders of magnitude; "
        "the headline table above is the careful one.", "",
        f"## At-most-one encodings ({DATASET}{scope}, extended encoding, limit=1)", "",
        tabulate(by_amo, ["amo", "solver", "variables", "constraints (empty 9x9)", "puzzles/s"],
                 tablefmt="github"), "",
        *machine_section(f"python-sat: {pysat.__version__} (CaDiCaL 1.9.5 as cadical195)",
                         measured=("sudokulab/backends/sat.py", "sudokulab/models/cnf.py",
                                   "bench/bench_sat.py"))])


def main(argv: list[str] | None = None) -> int:
    """Measure, print the tables, write the report; 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cli-rounds", type=int, default=3,
                        help="rounds of the whole-process command-line comparison")
    parser.add_argument("--quick", action="store_true",
                        help="the encoding and solver tables on the first 300 puzzles only")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "sat.md")
    args = parser.parse_args(argv)
    puzzles, solutions = datasets.load(DATASET), datasets.solutions(DATASET)
    rows, ok = verdict(headline(puzzles, solutions, args.rounds))
    print(tabulate(rows, HEADERS))
    few = 300 if args.quick else len(puzzles)
    by_solver, by_amo = matrix(puzzles[:few], solutions[:few])
    print(tabulate(by_solver, ["encoding", *SOLVERS]))
    print(tabulate(by_amo, ["amo", "solver", "variables", "clauses", "puzzles/s"]))
    print("17_clue through the command line ...", file=sys.stderr)
    cli_run = through_cli(args.cli_rounds)
    cli_rows, cli_ok = cli_verdict(cli_run)
    print(tabulate(cli_rows, CLI_HEADERS))
    ok = ok and cli_ok
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(rows, ok, by_solver, by_amo, len(puzzles), few,
                               args.rounds, (cli_rows, cli_ok, cli_run)))
    print(f"{'PASS' if ok else 'FAIL'}; wrote {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
