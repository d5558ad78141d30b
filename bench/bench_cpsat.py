"""Issue 16: the cpsat backend against a bare CP-SAT loop written here, side by side.

Targets, on top1465 at limit 1 (first solution), against the bare loop below (the textbook
model: an IntVar in 1..9 per cell, AddAllDifferent per unit, the givens as `x == d`, built
per puzzle, CP-SAT's default parameters on one worker):
1. the backend's default (`cpsat`) at least 0.8x the bare loop's rate;
2. the best configuration found at least 3x the bare loop's rate;
3. counting the 72 grids of the empty Miracle puzzle (default backend) in at most 60 s.

Rates are puzzles per second of process CPU time (one worker: CP-SAT searches on the
calling thread), wall-clock rates beside them. Configurations run interleaved in ROUNDS
rounds and each keeps its best round (noise only ever slows a run). Every answer is
compared with the dataset's reference solution: a fast wrong answer fails the benchmark.

Then: what CP-SAT's presolve does per puzzle (read from its log on the bare model), what
reusing one model across puzzles gives against building it per puzzle, what the backend's
parameter settings give, and two workers on a sample.
Run: .venv/bin/python bench/bench_cpsat.py   (writes results/cpsat.md)
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import ortools
from ortools.sat.python import cp_model
from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import cpsat as backend_module
from sudokulab.backends import make_backend
from sudokulab.geometry import geometry
from sudokulab.models import cpsat as encoding
from sudokulab.puzzle import empty
from sudokulab.result import Status

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "cpsat.md"
DATASET = "top1465"
ROUNDS = 2
TARGETS = {"default": 0.8, "best": 3.0, "miracle": 60.0}
LOG_SAMPLE = 200     # puzzles whose presolve log is read
WORKERS_SAMPLE = 100  # puzzles for the two-worker row (CP-SAT then runs a portfolio)
BARE = "bare loop (textbook int model, built per puzzle, CP-SAT defaults)"


def bare_solve(puzzle, log: list[str] | None = None) -> tuple[tuple[int, ...], cp_model.CpSolver]:
    """The textbook CP-SAT Sudoku: a model built for this puzzle, solved on one worker."""
    geo, n = geometry(puzzle.box), puzzle.n
    model = cp_model.CpModel()
    cells = [model.NewIntVar(1, n, f"c{cell}") for cell in geo.cells]
    for unit in geo.units:
        model.AddAllDifferent([cells[c] for c in unit])
    for cell, digit in enumerate(puzzle.givens):
        if digit:
            model.Add(cells[cell] == digit)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if log is not None:
        solver.parameters.log_search_progress = True
        solver.parameters.log_to_stdout = False
        solver.log_callback = log.append
    solver.Solve(model)
    return tuple(solver.Value(x) for x in cells), solver


def bare_pass(puzzles, solutions) -> dict:
    """One pass of the bare loop."""
    totals, wrong = Counter(), 0
    wall, cpu = time.perf_counter(), time.process_time()
    for puzzle, solution in zip(puzzles, solutions):
        grid, solver = bare_solve(puzzle)
        wrong += grid != solution
        totals.update(branches=solver.NumBranches(), conflicts=solver.NumConflicts(),
                      solve=solver.WallTime())
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
            "wrong": wrong, "n": len(puzzles), **totals}


def backend_pass(spec: str, puzzles, solutions, per_puzzle: bool = False) -> dict:
    """One pass of the backend at limit 1; `per_puzzle` builds the model for every puzzle."""
    backend = make_backend(spec)
    backend_module.engine.cache_clear()
    backend.solve(puzzles[0], limit=1)  # the reused model is built once, before the clock
    totals, wrong = Counter(), 0
    wall, cpu = time.perf_counter(), time.process_time()
    for puzzle, solution in zip(puzzles, solutions):
        if per_puzzle:
            backend_module.engine.cache_clear()
        result = backend.solve(puzzle, limit=1)
        wrong += result.status is not Status.SOLVED or result.solutions != (solution,)
        totals.update(branches=result.stats["branches"], conflicts=result.stats["conflicts"],
                      build=result.build_time, solve=result.solve_time)
    return {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
            "wrong": wrong, "n": len(puzzles), **totals}


def with_settings(settings: dict, run, *args, **kwargs) -> dict:
    """A pass with the backend's parameter settings replaced (an ablation)."""
    kept = backend_module.SETTINGS
    backend_module.SETTINGS = settings
    try:
        return run(*args, **kwargs)
    finally:
        backend_module.SETTINGS = kept


SETTINGS_OFF = "cpsat with CP-SAT's default settings (presolve still off)"
REUSED_TEXTBOOK = "cpsat:model=int,presolve=on with CP-SAT's defaults (bare model, reused)"
RUNS = {  # label -> how to run one pass over (puzzles, solutions)
    BARE: bare_pass,
    "cpsat (default: bool, reused, presolve off)":
        lambda p, s: backend_pass("cpsat", p, s),
    "cpsat:model=int": lambda p, s: backend_pass("cpsat:model=int", p, s),
    "cpsat:presolve=on": lambda p, s: backend_pass("cpsat:presolve=on", p, s),
    "cpsat:model=int,presolve=on": lambda p, s: backend_pass("cpsat:model=int,presolve=on", p, s),
    "cpsat, model built per puzzle": lambda p, s: backend_pass("cpsat", p, s, per_puzzle=True),
    "cpsat:model=int, model built per puzzle":
        lambda p, s: backend_pass("cpsat:model=int", p, s, per_puzzle=True),
    SETTINGS_OFF:
        lambda p, s: with_settings({}, backend_pass, "cpsat", p, s),
    REUSED_TEXTBOOK:
        lambda p, s: with_settings({}, backend_pass, "cpsat:model=int,presolve=on", p, s),
}
DEFAULT = "cpsat (default: bool, reused, presolve off)"
ONCE = {"cpsat, model built per puzzle", "cpsat:model=int, model built per puzzle",
        SETTINGS_OFF, REUSED_TEXTBOOK}  # ablations: one round is enough


def rate(m: dict, clock: str = "cpu") -> float:
    """Puzzles per second of one clock."""
    return m["n"] / m[clock]


def presolve_log(puzzles) -> dict:
    """What CP-SAT's presolve does to the bare model of each puzzle, read from its log."""
    left, fixed, probe_ms, rules, total_ms = [], [], [], Counter(), []
    for puzzle in puzzles:
        log: list[str] = []
        _, solver = bare_solve(puzzle, log)
        text = "\n".join(log)
        after = text.split("Presolved satisfaction model")[1]
        left.append(int(re.search(r"#Variables: (\d+)", after)[1]))
        probe = re.search(r"([\d.e+-]+)s\s+\S+\s+\[Probe\] #probed=\d+ #fixed_bools=(\d+)", text)
        fixed.append(int(probe[2]) if probe else 0)
        probe_ms.append(float(probe[1]) * 1000 if probe else 0.0)
        for name, times in re.findall(r"rule '([^']+)' was applied (\d+) time", text):
            rules[name] += int(times)
        total_ms.append(solver.WallTime() * 1000)
    return {"n": len(puzzles), "solved": sum(v == 0 for v in left),
            "left": statistics.mean(left), "fixed": statistics.mean(fixed),
            "probe_ms": statistics.mean(probe_ms), "wall_ms": statistics.mean(total_ms),
            "rules": rules}


def miracle(spec: str) -> tuple[float, int, bool]:
    """Seconds to count the empty Miracle puzzle's grids, the count, and whether exact."""
    start = time.perf_counter()
    result = make_backend(spec).solve(empty(9, R.MIRACLE), limit=None)
    return time.perf_counter() - start, result.count, result.exact


def main() -> int:
    """Measure, print the targets, write results/cpsat.md; 0 when every target is met."""
    puzzles, solutions = datasets.load(DATASET), datasets.solutions(DATASET)
    passes: dict[str, list[dict]] = {label: [] for label in RUNS}
    for k in range(ROUNDS):
        for label, run in RUNS.items():
            if k and label in ONCE:
                continue
            passes[label].append(run(puzzles, solutions))
            print(f"round {k + 1}/{ROUNDS} {label}: {rate(passes[label][-1]):.0f}/s (CPU)",
                  file=sys.stderr, flush=True)
    best = {label: max(runs, key=rate) for label, runs in passes.items()}
    bare = rate(best[BARE])
    fastest = max((label for label in RUNS if label != BARE), key=lambda lb: rate(best[lb]))
    wrong = sum(m["wrong"] for runs in passes.values() for m in runs)
    counts = {spec: miracle(spec) for spec in ("cpsat", "cpsat:model=int")}
    workers = backend_pass("cpsat:workers=2", puzzles[:WORKERS_SAMPLE],
                           solutions[:WORKERS_SAMPLE])
    one_worker = backend_pass("cpsat", puzzles[:WORKERS_SAMPLE], solutions[:WORKERS_SAMPLE])
    presolve = presolve_log(puzzles[:LOG_SAMPLE])

    seconds, count, exact = counts["cpsat"]
    verdicts = [
        (f"cpsat default >= {TARGETS['default']}x the bare CP-SAT loop on {DATASET}, limit 1: "
         f"{rate(best[DEFAULT]) / bare:.2f}x ({rate(best[DEFAULT]):.0f} against {bare:.0f} "
         "puzzles/s, CPU)", rate(best[DEFAULT]) / bare >= TARGETS["default"] and not wrong),
        (f"cpsat best configuration >= {TARGETS['best']}x the bare CP-SAT loop: "
         f"{rate(best[fastest]) / bare:.2f}x ({fastest}: {rate(best[fastest]):.0f} puzzles/s)",
         rate(best[fastest]) / bare >= TARGETS["best"] and not wrong),
        (f"cpsat counts the 72 Miracle grids in <= {TARGETS['miracle']:.0f} s: "
         f"{seconds:.2f} s, {count} grids",
         seconds <= TARGETS["miracle"] and (count, exact) == (72, True)),
    ]
    for text, ok in verdicts:
        print(f"{text}: {'PASS' if ok else 'FAIL'}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(report(best, passes, fastest, wrong, counts, workers, one_worker,
                              presolve, verdicts))
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0 if all(ok for _, ok in verdicts) else 1


def report(best, passes, fastest, wrong, counts, workers, one_worker, presolve,
           verdicts) -> str:
    """results/cpsat.md."""
    bare = rate(best[BARE])
    rows = [[label, f"{rate(m):.0f}", f"{rate(m, 'wall'):.0f}", f"{rate(m) / bare:.2f}",
             f"{statistics.median(rate(r) for r in passes[label]):.0f}", m["wrong"],
             f"{m.get('build', 0) / m['n'] * 1000:.2f}" if "build" in m else "—",
             f"{m['solve'] / m['n'] * 1000:.2f}", f"{m['branches'] / m['n']:.0f}",
             f"{m['conflicts'] / m['n']:.1f}"] for label, m in best.items()]
    headers = ["configuration", "puzzles/s (CPU)", "(wall)", "x bare", "median of rounds",
               "wrong", "build ms", "solve ms", "branches/puzzle", "conflicts/puzzle"]

    def r(label: str) -> float:
        return rate(best[label])

    reuse_bool = r(DEFAULT) / r("cpsat, model built per puzzle")
    reuse_int = r("cpsat:model=int") / r("cpsat:model=int, model built per puzzle")
    presolve_bool = r(DEFAULT) / r("cpsat:presolve=on")
    presolve_int = r("cpsat:model=int") / r("cpsat:model=int,presolve=on")
    settings_bool = r(DEFAULT) / r(SETTINGS_OFF)
    reuse_textbook = r(REUSED_TEXTBOOK) / bare
    expanded = presolve["rules"]["all_diff: permutation expanded"] / presolve["n"]
    top_rules = ", ".join(f"{name} ({times / presolve['n']:.0f})"
                          for name, times in presolve["rules"].most_common(6))
    per_puzzle = best["cpsat, model built per puzzle"]
    size = encoding.build(geometry((3, 3)), "bool").size()
    lines = [
        "# cpsat backend: OR-Tools CP-SAT against a bare CP-SAT loop",
        "",
        "Regenerate with `.venv/bin/python bench/bench_cpsat.py` (exit code 0 when every "
        "target is met). Rates are puzzles per second of process CPU time, wall-clock rates "
        f"beside them; each configuration is the best of {ROUNDS} interleaved rounds over "
        f"all {len(datasets.load(DATASET))} puzzles of {DATASET}, first solution (limit 1).",
        "",
        *machine_section(f"OR-Tools: {ortools.__version__}",
                         measured=("sudokulab/backends/cpsat.py", "sudokulab/models/cpsat.py",
                                   "bench/bench_cpsat.py")),
        "## Targets",
        "",
        *(f"- {text}: **{'PASS' if ok else 'FAIL'}**" for text, ok in verdicts),
        f"- every answer equals the reference solution: {'yes' if not wrong else 'NO'} "
        f"({wrong} wrong over every pass)",
        "",
        "The bare loop is written in the bench: the textbook model (an IntVar in 1..9 per "
        "cell, `AddAllDifferent` per unit, each given as `x == d`), built for every puzzle "
        "and solved with CP-SAT's default parameters on one worker, the grid read with "
        "`solver.Value`. The issue measured it at about 65 puzzles/s on top95; here it runs "
        f"at {bare:.0f}/s on {DATASET}.",
        "",
        "## Every configuration",
        "",
        "`build ms`: the backend's model time per puzzle (fixing the givens on the reused "
        "model, or building the whole model); `solve ms`: the search, including CP-SAT's "
        "set-up (for the bare loop: CP-SAT's own wall time). Both are wall-clock "
        "milliseconds, so the machine's load (above) inflates them; the rates and ratios "
        "are CPU time. Branches and conflicts are CP-SAT's counters per puzzle.",
        "",
        tabulate(rows, headers, tablefmt="github"),
        "",
        f"Two workers (`cpsat:workers=2`) on the first {WORKERS_SAMPLE} puzzles: "
        f"{rate(workers):.0f} puzzles/s of CPU ({rate(workers, 'wall'):.0f} wall) against "
        f"{rate(one_worker):.0f} ({rate(one_worker, 'wall'):.0f}) for one worker: with more "
        "than one worker CP-SAT runs a portfolio of differently configured subsolvers, whose "
        "set-up dwarfs a Sudoku's search. One worker is the default, and the fair "
        "single-core comparison.",
        "",
        "## What the presolve does per puzzle",
        "",
        f"Read from CP-SAT's log on the bare model of the first {presolve['n']} puzzles: the "
        f"presolve alone solves {presolve['solved']} of them (no variable left, "
        f"{presolve['left']:.1f} left on average). It expands {expanded:.0f} AllDifferent "
        "constraints per puzzle into permutations (a Boolean per cell and value, exactly "
        "one per cell and one per value: the bool model's constraints), then probes: it "
        "tries each "
        f"Boolean both ways and fixes {presolve['fixed']:.0f} of them per puzzle, in "
        f"{presolve['probe_ms']:.2f} ms out of {presolve['wall_ms']:.2f} ms for the whole "
        "solve. Probing each literal and propagating is a failed-literal search, which is "
        f"what solved {presolve['solved']} of the {presolve['n']} puzzles without a single "
        "branch. The rules applied most, per puzzle: "
        f"{top_rules}.",
        "",
        f"That is more work than the search it saves: on the reused bool model, presolve "
        f"off is {presolve_bool:.2f}x as fast as presolve on, on the int model "
        f"{presolve_int:.2f}x; with it off, the search branches a few dozen times per "
        "puzzle and learns a few clauses. So `presolve=off` is the default. Counting needs "
        "a presolve that removes no solution: CP-SAT sets "
        "`keep_all_feasible_solutions_in_presolve` itself when asked to enumerate, and the "
        "tests count the 288 grids of the empty 4x4 with `presolve=on` as well.",
        "",
        "## Reusing one model across puzzles",
        "",
        "The backend builds one model per shape and rule set and fixes the givens per "
        "puzzle by narrowing their variables' domains in the model (and restoring them "
        "after the search). Against building the model for every puzzle, reuse is "
        f"{reuse_bool:.2f}x as fast for the bool model (building its {size['variables']} "
        f"Booleans and {size['constraints']} constraints in Python took "
        f"{per_puzzle['build'] / per_puzzle['n'] * 1000:.2f} ms a puzzle) and "
        f"{reuse_int:.2f}x for the int model. CP-SAT itself keeps nothing "
        "between two solves (no learnt clauses, unlike the sat and smt backends' warm "
        "solvers): what reuse saves is the Python side.",
        "",
        "## The parameter settings",
        "",
        "The backend switches off, besides the presolve, linear relaxations "
        "(`linearization_level=0`), symmetry detection, probing and SAT in-processing "
        "(`backends/cpsat.py` SETTINGS): on a 9x9 these cost set-up time and find "
        "nothing the search does not. They make the default backend "
        f"{settings_bool:.2f}x as fast as with CP-SAT's default settings (presolve off in "
        "both). CP-SAT's defaults on the bare loop's own model, reused (givens as domains), "
        f"run at {reuse_textbook:.2f}x the bare loop. The best configuration, "
        f"{fastest}, is {rate(best[fastest]) / bare:.2f}x the bare loop.",
        "",
        "## Counting the Miracle grids",
        "",
        tabulate([[spec, f"{s:.2f}", c, "yes" if e else "no"]
                  for spec, (s, c, e) in counts.items()],
                 ["spec", "seconds", "grids", "exact"], tablefmt="github"),
        "",
        "The bool model states non-consecutive as clauses, which the SAT core propagates "
        "and learns from; the int model says `a - b` lies outside -1..1 as a linear "
        "expression in a domain, which propagates on bounds only.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
