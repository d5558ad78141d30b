"""The cpsat backend: OR-Tools CP-SAT on a model of the puzzle (see sudokulab.models.cpsat).

Each process keeps one model per (shape, rule set, model) and fixes the givens per puzzle:
a given narrows its variable's domain to one value, and the domain goes back after the
search. Building the 9x9 model in Python costs about as much as CP-SAT's whole search on a
puzzle, so reusing it pays (results/cpsat.md measures both).

CP-SAT is a portfolio of techniques tuned for large optimisation problems; on a 9x9 most of
its time goes into set-up, not search. Its presolve alone solves nearly every puzzle
(probing fixes every cell), but costs more than the search it saves, so `presolve=off` is
the default; linear relaxations, symmetry detection, probing and SAT in-processing are
switched off too (SETTINGS). results/cpsat.md has the figures behind each choice.

Counting uses CP-SAT's own enumeration (`enumerate_all_solutions`) with a solution callback
that stops the search at the limit. Enumeration needs a presolve that removes no solution:
CP-SAT then sets `keep_all_feasible_solutions_in_presolve` itself, so `presolve=on`
counts right too. The enumeration runs on one worker whatever `workers` says: with
several, CP-SAT may report a solution twice, and (measured with OR-Tools 9.15 on the bool
model) it sometimes ended a complete enumeration with FEASIBLE instead of OPTIMAL, which
proves nothing. `workers` applies to finding a first solution (limit 1).
"""

from __future__ import annotations

import time
from functools import cache, lru_cache
from typing import Any

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Choice,
    Deadline,
    Need,
    Whole,
    ctrl_c,
    interrupted,
)
from sudokulab.backends.extras import install
from sudokulab.geometry import geometry
from sudokulab.layout import Layout
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Found, Result, verdict

# OR-Tools (and models.cpsat, which imports it) is imported where it is used:
# CpsatBackend.needs names it, so this module loads without it.

DEFAULT_MODEL = "bool"
MODELS = ("bool", "int")
SWITCHES = ("off", "on")
# CP-SAT takes the worker count only at solve time and answers MODEL_INVALID to some (it did
# to 100,000), so the spec refuses counts past a bound; 64 leaves room for any core count
# a machine running this lab has.
MAX_WORKERS = 64
# CP-SAT parameters that cost more than they give on a Sudoku (see the module docstring).
SETTINGS = {"linearization_level": 0, "symmetry_level": 0, "cp_model_probing_level": 0,
            "use_sat_inprocessing": False}
EXAMPLES = 2  # constraints shown per rule in the teaching view


class Engine:
    """One model of a shape and rule set and one solver, reused puzzle after puzzle."""

    def __init__(self, box: tuple[int, int], rules: tuple, model: str,
                 layout: Layout | None = None) -> None:
        from ortools.sat.python import cp_model

        from sudokulab.models import cpsat as encoding

        self.model = encoding.build(geometry(box, rules, layout), model)
        self.variables = self.model.model.Proto().variables
        self.solver = cp_model.CpSolver()

    def fix(self, givens: list[tuple[int, int]]) -> list[tuple[int, list[int]]] | None:
        """Narrow each given's variable to its value; the domains to restore, or None
        (nothing changed) when a given is outside its variable's domain (a parity rule)."""
        saved = [(index, list(self.variables[index].domain)) for index, _ in givens]
        if not all(_contains(domain, value) for (_, domain), (_, value) in zip(saved, givens)):
            return None
        for index, value in givens:
            _narrow(self.variables[index].domain, [value, value])
        return saved

    def restore(self, saved: list[tuple[int, list[int]]]) -> None:
        """Give the variables back the domains `fix` narrowed."""
        for index, domain in saved:
            _narrow(self.variables[index].domain, domain)


def _narrow(domain, bounds: list[int]) -> None:
    """Replace a variable's domain in the model (OR-Tools' repeated field takes no slices)."""
    domain.clear()
    domain.extend(bounds)


def _contains(domain: list[int], value: int) -> bool:
    """Whether a CP-SAT domain [lo, hi, lo, hi, ...] holds the value."""
    return any(lo <= value <= hi for lo, hi in zip(domain[::2], domain[1::2]))


@lru_cache(maxsize=16)
def engine(box: tuple[int, int], rules: tuple, model: str,
           layout: Layout | None = None) -> Engine:
    """The process's engine for a shape, rule set (or layout) and model (built on first
    use)."""
    return Engine(box, rules, model, layout)


@cache
def collector_class() -> type:
    """The Collector class: a CP-SAT solution callback, so made once OR-Tools is imported."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        """Counts each grid CP-SAT reports, keeping as many as `grids` keeps, and stops
        the search at the limit. The enumeration runs on one worker, which reports each
        solution once (see the module docstring): no grid is held to tell a repeat."""

        def __init__(self, read, limit: int | None, grids: Found) -> None:
            super().__init__()
            self.read, self.limit, self.grids = read, limit, grids

        def on_solution_callback(self) -> None:
            """Read the grid from the response's values; stop once `limit` are found."""
            self.grids.append(self.read(list(self.Response().solution)))
            if self.limit is not None and len(self.grids) >= self.limit:
                self.StopSearch()

    return Collector


class CpsatBackend(Backend):
    """OR-Tools CP-SAT on an integer (AllDifferent) or a Boolean (one-hot) model."""

    name = "cpsat"
    paradigm = "constraint programming with clause learning (CP-SAT)"
    # models.cpsat.RULES, named here without importing OR-Tools: both models compile
    # every rule (tests/test_availability.py holds the two equal)
    supported_rules = R.RULE_TYPES
    multi_grid = True  # a samurai's grids: more cells and units in the same models
    needs = (Need("ortools", install("cpsat")),)
    timeline = None  # a sudokulab.backends.timeline.Timeline to sample the search (`--timeline`)
    keeps_timeline = True

    option_table = {
        "model": Choice(MODELS, help="one-hot Booleans (bool) or integers with AllDifferent"),
        "workers": Whole(1, MAX_WORKERS, help="CP-SAT workers for a first solution "
                                             "(counting runs on one)"),
        "presolve": Choice(SWITCHES, help="CP-SAT's presolve (off: it costs more than it "
                                          "saves on a Sudoku)"),
    }

    def __init__(self, model: str = DEFAULT_MODEL, workers: int = 1,
                 presolve: str = "off") -> None:
        super().__init__()
        self.model, self.workers, self.presolve = model, workers, presolve

    @classmethod
    def ready(cls) -> Availability:
        """OR-Tools' version (it is installed: see `needs`)."""
        from importlib.metadata import version

        return Availability(True, version=f"OR-Tools CP-SAT {version('ortools')}")

    def parameters(self, solver, limit: int | None, deadline: Deadline) -> None:
        """Set the solver's parameters for one search."""
        params = solver.parameters
        params.num_workers = self.workers if limit == 1 else 1  # see the module docstring
        params.cp_model_presolve = self.presolve == "on"
        for key, value in SETTINGS.items():
            setattr(params, key, value)
        params.enumerate_all_solutions = limit != 1
        # CP-SAT's own SIGINT handler would end the search as if it were done, unseen by
        # Python: base.ctrl_c hears Ctrl-C instead and calls StopSearch.
        params.catch_sigint_signal = False
        left = deadline.left()
        # CP-SAT's default limit is infinity; a deadline already behind us still asks it.
        params.max_time_in_seconds = float("inf") if left is None else left

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Fix the givens on the warm model, search, and put the domains back."""
        from ortools.sat.python import cp_model

        started = time.perf_counter()
        warm = engine(puzzle.box, puzzle.rules, self.model, puzzle.layout)
        saved = warm.fix(warm.model.givens(puzzle.givens))
        built = time.perf_counter()
        if saved is None:  # a given that its own cell's parity forbids
            return verdict([], limit, complete=True, build_time=built - started,
                           message="a given breaks a parity rule")
        solver = warm.solver
        self.parameters(solver, limit, deadline)
        if self.timeline is not None:  # samples the counters at each solution
            collector = self.timeline.collector(warm.model.read, limit, self.new_found())
        else:
            collector = (collector_class()(warm.model.read, limit, self.new_found())
                         if limit != 1 else None)
        try:
            with ctrl_c(solver.StopSearch) as key:
                status = solver.Solve(warm.model.model, collector)
        finally:
            warm.restore(saved)
        solved = time.perf_counter()
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT found the model invalid: "
                               f"{warm.model.model.validate()}")
        solutions: Found | list[Grid]
        if collector is not None:
            solutions = collector.grids
        elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            solutions = [warm.model.read(list(solver.ResponseProto().solution))]
        else:
            solutions = []
        complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        times: dict[str, Any] = {"stats": statistics(solver), "build_time": built - started,
                 "solve_time": solved - built}
        if key.pressed:
            raise interrupted(solutions, limit, **times)
        return verdict(solutions, limit, complete=complete, **times,
                       message="" if complete else f"CP-SAT stopped before the end: {status.name}")

    def describe(self, puzzle: Puzzle) -> str:
        """The model rule by rule: variables, constraints by kind, givens, CP-SAT's counts."""
        from sudokulab.models import cpsat as encoding

        if reason := self.unsupported(puzzle):
            return reason
        built = encoding.build(geometry(puzzle.box, puzzle.rules, puzzle.layout), self.model)
        n, geo = puzzle.n, built.geo
        size = built.size()
        lines = [f"cpsat: OR-Tools CP-SAT, model '{self.model}', {self.workers} worker(s), "
                 f"presolve {self.presolve}",
                 f"  variables: {size['variables']:,}: {len(geo.cells)} cells, each "
                 f"{built.kind.format(n=n)}",
                 f"  constraints: {size['constraints']:,} in CP-SAT's model, by rule:"]
        for group, posted in built.groups.items():
            kinds = sorted({kind for kind, _, _ in posted})
            lines.append(f"    {group}: {len(posted)} x {' / '.join(kinds)}")
            shown = posted if len(posted) <= EXAMPLES + 1 else posted[:EXAMPLES]
            for kind, cells, detail in shown:
                names = ", ".join(geo.name(c) for c in cells)
                lines.append(f"      {kind}({names}){'  ' + detail if detail else ''}")
            if len(shown) < len(posted):
                lines.append(f"      ... and {len(posted) - len(shown)} more")
        givens = built.givens(puzzle.givens)
        what = "its integer to the digit" if self.model == "int" else "its literal to 1"
        lines.append(f"  givens: {len(givens)}, each fixes the domain of {what}; the model is "
                     "built once per shape and rule set and reused, the domains restored "
                     "after each search")
        lines.append("  counting: CP-SAT enumerates (enumerate_all_solutions) on one worker, "
                     "a solution callback stops it at the limit")
        return "\n".join(lines)


def statistics(solver) -> dict[str, float]:
    """CP-SAT's own counters of the last search."""
    response = solver.ResponseProto()
    return {"branches": response.num_branches, "conflicts": response.num_conflicts,
            "propagations": response.num_binary_propagations
            + response.num_integer_propagations,
            "wall_time": response.wall_time, "deterministic_time": response.deterministic_time}
