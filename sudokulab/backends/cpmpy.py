"""The cpmpy backend: one CPMpy model of the puzzle, handed to the solver you choose.

`solver=choco` (the default): Choco through pychoco, classic constraint programming
(propagation and search); `solver=pumpkin`: lazy clause generation (propagators that
explain themselves to a SAT core); `solver=exact`: pseudo-Boolean conflict analysis with
proof logging; and any other CPMpy solver found installed (ortools, z3, pysat, highs ...).

The model is integers in 1..N per cell, AllDifferent per unit, and each rule as the
integer CP-SAT model (models/cpsat.py) posts it: `!=` for chess moves, |a - b| > 1 for
non-consecutive, AllDifferent and a sum for a cage (and the cages it implies), a domain
of even or odd digits for parity, a Table of allowed pairs for a line or dot relation,
sums for arrows and little killers, positions of the 1 and the N for a sandwich.

It is built once per process for a shape and rule set (`model`); each puzzle gets a
solver made from it with the givens added as `grid[c] == d`, since CPMpy's solvers
take constraints but do not give them back (Choco's are posted to its own model, through
CPMpy's direct solver access: CPMpy's transformation of them cost a fifth of a puzzle).
Counting with Choco, the default (`_choco_solutions`), is Choco's own enumeration: each
pychoco `Solver.solve()` resumes the search for the next solution, under one time limit
set for the whole enumeration (a no-good added between two makes Choco's checker abort
the process). With any other solver (`_nogood_solutions`) it is a solve per solution,
each with the time left as its `time_limit`, then a no-good on the blank cells (as
CPMpy's generic solveAll does). One solution (`limit=1`) is CPMpy's solve as it is, Choco
included: that first step of `_nogood_solutions`.

Ctrl-C: base.ctrl_c hears it, stops CP-SAT's and Z3's search at once (each is told to
leave SIGINT alone, which it would otherwise take as its time being up) and the others as
the solve step running returns (Exact, which hears SIGINT itself, ends its step with an
error read as Ctrl-C); the enumeration stops there, keeping the solutions found (a count:
"at least").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Choice,
    Deadline,
    Need,
    ctrl_c,
    interrupted,
)
from sudokulab.backends.extras import install
from sudokulab.layout import Layout
from sudokulab.puzzle import Puzzle
from sudokulab.result import Found, Result, Status, verdict

FIX = install("cpmpy")  # CPMpy with pychoco, pumpkin-solver and exact
DEFAULT = "choco"
# CPMpy solvers that are no satisfaction engines of their own (rc2 is MaxSAT over pysat).
LEFT_OUT = ("rc2",)


def solver_names() -> list[str]:
    """The CPMpy solvers installed here: choco, pumpkin, exact first, then the others."""
    try:
        from cpmpy import SolverLookup
    except ImportError:
        return [DEFAULT]
    found = [name for name, solver in SolverLookup.base_solvers()
             if name not in LEFT_OUT and _installed(solver)]
    first = [name for name in ("choco", "pumpkin", "exact") if name in found]
    return first + [name for name in found if name not in first] or [DEFAULT]


def _installed(solver) -> bool:
    """Whether a CPMpy solver class finds its package (False when asking fails)."""
    try:
        return bool(solver.supported())
    except Exception:  # a solver's own check can fail in many ways: then it is not here
        return False


class Model:
    """The CPMpy model of a shape and rule set: `grid` and its constraints."""

    def __init__(self, box: tuple[int, int], rules: tuple, layout: Layout | None) -> None:
        import cpmpy as cp

        from sudokulab.geometry import geometry

        geo = self.geo = geometry(box, rules, layout)
        self.grid = grid = cp.intvar(1, geo.n, shape=len(geo.cells), name="grid")
        # the cells as a plain list: indexing the array costs a microsecond a cell
        self.cells = list(grid)
        self.model = cp.Model([cp.AllDifferent(grid[list(unit)]) for unit in geo.units])
        self.model += _variants(geo, grid)

    def read(self) -> tuple[int, ...]:
        """The grid of the solution the solver just found."""
        return grid_of([cell.value() for cell in self.cells])

    def add_givens(self, solver, givens: tuple[int, ...]) -> None:
        """Each given as `cell == d`: posted to Choco's model as it is, else through CPMpy."""
        if solver.name == "choco":  # its solver variables exist: the model has every cell
            native = solver.native_model
            for var, d in zip(solver.solver_vars(self.cells), givens):
                if d:
                    native.arithm(var, "=", d).post()
        else:
            solver += [cell == d for cell, d in zip(self.cells, givens) if d]


def grid_of(values: Iterable) -> tuple[int, ...]:
    """A solution's grid from its cells' values (each solver's own integers)."""
    return tuple(int(v) for v in values)


def _variants(geo, grid) -> list:
    """The constraints of every rule beyond rows, columns and boxes (see the docstring)."""
    import cpmpy as cp
    from cpmpy.expressions.core import BoolVal

    from sudokulab.cages import implied_cages
    from sudokulab.geometry import forbidden_pairs

    n, posted = geo.n, []
    for relation in geo.relations:
        for a, b in relation.pairs:
            posted.append(grid[a] != grid[b] if relation.differ
                          else cp.abs(grid[a] - grid[b]) > 1)
    cages = [(geo.indices(rule.cells), rule.total) for rule in geo.cages]
    cages += [(geo.indices(cage.cells), cage.total)
              for cage in (implied_cages(geo) if geo.cages else ())]
    for cells, total in cages:
        posted += [cp.AllDifferent(grid[cells]), cp.sum(grid[cells]) == total]
    for rule in geo.rules:
        if isinstance(rule, R.Parity):
            digits = [d for d in range(1, n + 1) if (d % 2 == 0) == rule.even]
            posted += [cp.InDomain(grid[cell], digits) for cell in geo.indices(rule.cells)]
    for rel in geo.digit_relations:
        banned = set(forbidden_pairs(rel.kind, rel.param, n))
        allowed = [[x, y] for x in range(1, n + 1) for y in range(1, n + 1)
                   if (x, y) not in banned]
        # CPMpy's Table asserts a 2D array, which an empty list is not: no pair allowed
        # (an X on a 4x4, where no two digits add up to 10) is a falsehood
        posted.append(cp.Table([grid[rel.a], grid[rel.b]], allowed) if allowed
                      else BoolVal(False))
    posted += [cp.AllDifferent(grid[list(cells)]) for _, cells in geo.groups]
    for total in geo.sums:
        target = grid[total.circle] if total.circle >= 0 else total.total
        posted.append(cp.sum(grid[list(total.cells)]) == target)
    for line, total in geo.sandwiches:
        posted += _sandwich(grid[list(line)], n, total)
    return posted


def _sandwich(line, n: int, total: int) -> list:
    """The digits strictly between the 1 and the N of a line add up to `total`."""
    import cpmpy as cp

    one, top = cp.intvar(0, len(line) - 1, shape=2)
    low, high = cp.intvar(0, len(line) - 1, shape=2)
    return [line[one] == 1, line[top] == n, low == cp.min([one, top]),
            high == cp.max([one, top]),
            cp.sum([((low < k) & (k < high)) * line[k] for k in range(len(line))]) == total]


@lru_cache(maxsize=16)
def model(box: tuple[int, int], rules: tuple, layout: Layout | None = None) -> Model:
    """The process's model of a shape and rule set (built on first use)."""
    return Model(box, rules, layout)


class CpmpyBackend(Backend):
    """CPMpy's one model, solved by Choco, Pumpkin, Exact or another CPMpy solver."""

    name = "cpmpy"
    paradigm = "constraint modelling in Python (CPMpy): Choco's classic CP, Pumpkin's lazy " \
               "clause generation, Exact's pseudo-Boolean reasoning"
    supported_rules = R.RULE_TYPES  # every rule is a CPMpy constraint
    multi_grid = True
    option_table = {
        "solver": Choice(solver_names, help="the CPMpy solver: choco (classic CP), pumpkin "
                                            "(lazy clause generation), exact (pseudo-Boolean), "
                                            "or another one installed"),
    }

    needs = (Need("cpmpy", FIX),)  # the solvers' packages: `ready` asks CPMpy about them

    def __init__(self, solver: str = DEFAULT) -> None:
        super().__init__()
        self.solver = solver

    @classmethod
    def ready(cls) -> Availability:
        """Whether CPMpy finds its default solver, Choco (CPMpy is installed: see `needs`),
        and the versions."""
        import cpmpy
        from cpmpy import SolverLookup

        if not _installed(SolverLookup.lookup(DEFAULT)):
            return Availability(False, reason="CPMpy finds no pychoco (its Choco solver)",
                                fix=FIX)
        others = ", ".join(name for name in solver_names() if name != DEFAULT)
        return Availability(True, version=f"CPMpy {cpmpy.__version__} / Choco (pychoco "
                                          f"{_version('pychoco')}); also: {others}")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """A solver from the shape's model plus the givens; solveAll up to the limit."""
        import cpmpy as cp
        from cpmpy.exceptions import NotSupportedError

        started = time.perf_counter()
        built_model = model(puzzle.box, puzzle.rules, puzzle.layout)
        if self.solver == "highs":  # its first Highs() prints a banner to stdout: once, nowhere
            from sudokulab.models.milp import _banner_shown

            _banner_shown()
        try:
            solver = cp.SolverLookup.get(self.solver, built_model.model)
            built_model.add_givens(solver, puzzle.givens)
        except (NotSupportedError, ImportError) as error:
            # ImportError: the solver needs an extra library for these constraints (PySAT's
            # PBLib for a sum), missing here: unsupported on this machine, not a failure
            return Result(Status.UNSUPPORTED, message=f"cpmpy:solver={self.solver} cannot "
                                                      f"express this puzzle: {error}")
        built = time.perf_counter()
        found = self.new_found()
        steps = self._enumerate(solver, built_model, puzzle, limit, deadline, found)
        times: dict[str, Any] = {
            "build_time": built - started, "solve_time": time.perf_counter() - built,
            "stats": {"solves": steps.solves, "runtime": steps.runtime}}
        if steps.pressed:
            raise interrupted(found, limit, **times)
        cut = not steps.complete and (limit is None or len(found) < limit)
        return verdict(found, limit, complete=steps.complete, **times,
                       message=f"{self.solver} stopped before the end: {steps.ended}"
                       if cut else "")

    def _enumerate(self, solver, built_model: Model, puzzle: Puzzle, limit: int | None,
                   deadline: Deadline, found: Found) -> Steps:
        """Solutions into `found` up to the limit, the deadline, the last one, or Ctrl-C
        (heard between two, as the solve step running returns)."""
        steps = Steps()
        blanks = [cell for cell, d in enumerate(puzzle.givens) if not d]
        # one solution: CPMpy's solve as it is (it reads Choco's grid at once, where asking
        # pychoco cell by cell cost over half the speed on top1465)
        enumerate_ = _choco_solutions if self.solver == "choco" and limit != 1 \
            else _nogood_solutions
        with ctrl_c(_stopper(self.solver, solver)) as key:
            try:
                for grid in enumerate_(solver, built_model, blanks, deadline, steps,
                                       lambda: key.pressed,
                                       **QUIET_SIGINT.get(self.solver, {})):
                    found.append(grid)
                    if key.pressed or (limit is not None and len(found) >= limit) \
                            or not blanks:
                        break  # no blank cell: the givens are the only solution
            except KeyboardInterrupt:  # a solver that heard Ctrl-C itself (Exact)
                key.pressed = True
        steps.pressed = key.pressed
        return steps

    def describe(self, puzzle: Puzzle) -> str:
        """The CPMpy model: its variables and constraints by kind."""
        built = Model(puzzle.box, puzzle.rules, puzzle.layout)
        kinds: dict[str, int] = {}
        for constraint in built.model.constraints:
            for each in (constraint if isinstance(constraint, list) else [constraint]):
                kind = type(each).__name__ if type(each).__name__ != "Comparison" \
                    else f"Comparison {each.name}"
                kinds[kind] = kinds.get(kind, 0) + 1
        lines = [f"cpmpy: solver {self.solver}; grid: {len(built.geo.cells)} integers in "
                 f"1..{built.geo.n}; the puzzle's rules: {R.listed(puzzle.rules)}; "
                 "constraints by kind:"]
        lines += [f"    {kind}: {count}" for kind, count in sorted(kinds.items())]
        lines.append(f"  givens: {sum(map(bool, puzzle.givens))}, each `grid[c] == d` added "
                     "to a solver made from the model (the model is built once per shape; "
                     "Choco's posted to its own model)")
        lines.append("  counting: Choco's own enumeration, each solve resuming the search"
                     if self.solver == "choco" else
                     "  counting: a solve per solution, then a no-good on the blank cells")
        return "\n".join(lines)


def _choco_solutions(solver, built_model: Model, blanks: list[int], deadline: Deadline,
                     steps: Steps, pressed: Callable[[], bool],
                     **flags: object) -> Iterator[tuple[int, ...]]:
    """Choco's own enumeration: each pychoco Solver.solve() resumes the search for the next
    solution (a no-good added between two makes Choco's checker abort the process)."""
    solver.solver_vars(list(solver.user_vars))  # every variable posted to Choco
    choco = solver.chc_model.get_solver()
    cells = solver.solver_vars(built_model.cells)
    left = deadline.left()
    if left is not None:  # Choco's time counter runs from the first solve: a deadline
        choco.limit_time(f"{max(left, 0.001)}s")
    while True:
        if pressed():  # Ctrl-C between two solutions: Choco's step cannot be stopped
            raise KeyboardInterrupt
        started = time.perf_counter()
        solved = choco.solve()
        steps.solves += 1
        steps.runtime += time.perf_counter() - started
        if not solved:
            state = choco.get_search_state()
            steps.complete, steps.ended = state != "STOPPED", state
            return
        yield grid_of(cell.get_value() for cell in cells)


def _nogood_solutions(solver, built_model: Model, blanks: list[int], deadline: Deadline,
                      steps: Steps, pressed: Callable[[], bool],
                      **flags: object) -> Iterator[tuple[int, ...]]:
    """Solve, then forbid that solution on the blank cells, again (CPMpy's generic
    solveAll, with the time left per step); `flags` are the solver's parameters.
    KeyboardInterrupt when Ctrl-C came (`pressed`) before a step, or the solver stopped
    on it itself."""
    import cpmpy as cp
    from cpmpy.solvers.solver_interface import ExitStatus

    cells = built_model.cells
    while True:
        left = deadline.left()
        if left is not None and left <= 0:
            steps.complete, steps.ended = False, "time limit"
            return
        if pressed():  # the solver was told to stop before this step began
            raise KeyboardInterrupt
        try:
            solved = solver.solve(**flags, **({} if left is None else {"time_limit": left}))
        except RuntimeError as error:  # Exact's own SIGINT handler ends its search so
            if "interrupted" not in str(error):
                raise
            raise KeyboardInterrupt from None
        status = solver.status()
        steps.solves += 1
        steps.runtime += status.runtime or 0.0
        if not solved:
            steps.complete = status.exitstatus is ExitStatus.UNSATISFIABLE
            steps.ended = status.exitstatus.name
            return
        found = built_model.read()
        yield found
        solver += cp.any([cells[c] != found[c] for c in blanks])


def _stopper(name: str, solver: Any) -> Callable[[], None]:
    """What stops the solver's search from another thread on Ctrl-C: CP-SAT's StopSearch,
    Z3's interrupt; nothing for the others, whose step runs to its end."""
    if name == "ortools":
        return solver.ort_solver.StopSearch
    if name == "z3":
        return solver.z3_solver.interrupt
    return lambda: None


# Parameters that leave Ctrl-C to Python: CP-SAT and Z3 would otherwise catch SIGINT
# themselves and end the search as if its time were up (a count read as a timeout, the
# run going on); base.ctrl_c hears it instead, as the step running returns.
QUIET_SIGINT: dict[str, dict[str, object]] = {"ortools": {"catch_sigint_signal": False},
                                              "z3": {"ctrl_c": False}}


@dataclass
class Steps:
    """How an enumeration went: its solve steps, their runtime, how it ended."""

    solves: int = 0
    runtime: float = 0.0
    complete: bool = True
    ended: str = ""
    pressed: bool = False


def _version(package: str) -> str:
    """An installed package's version, or '?'."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "?"
