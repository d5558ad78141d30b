"""A CNF encoding of the puzzle solved by a PySAT solver (CaDiCaL 1.9.5 by default).

Options: `solver` (any PySAT name: cadical195, glucose4, minisat22, lingeling, ...),
`encoding` (minimal, efficient, extended, optimized) and `amo` (the at-most-one
encoding: pairwise, seqcounter, ..., or native for solvers with cardinality constraints).

Throughput: the formula of a box shape, rule set and encoding does not depend on the
givens, so it is built once per process and loaded into one solver; each puzzle's
givens go in as assumptions. Counting blocks every solution found with a clause over
cell variables (never cage selectors or other auxiliaries), guarded by a fresh
activation literal that is assumed while this puzzle is counted and switched off for
good (unit clause -act) afterwards, so the solver stays correct for the next puzzle;
once retired literals outnumber the cell variables the solver is reloaded, so models
stay short. The optimized encoding depends on the givens: it gets a fresh solver per
puzzle. Cages are part of the rules, so each cage layout has a formula and solver of
its own.

Timeouts, by what the solver offers (probed, not assumed):
- interrupt (MiniSat, Glucose, GlueCard, MiniCard, Maple*, MergeSat, ...): a short
  conflict-budget slice first (most puzzles end there, with no thread started), then
  `solve_limited(expect_interrupt=True)` with a threading.Timer calling `interrupt()`;
- budget (CaDiCaL: no interrupt in PySAT, but conflict budgets): slices of conflicts,
  checking the clock between slices;
- none (Lingeling): the solve runs unbounded; the harness isolates processes.

Ctrl-C: PySAT's own SIGINT handler is kept out (`hear_ctrl_c_ourselves`): it longjmps out
of the C++ solver, which leaves the solver in an invalid state (CaDiCaL then aborts the
process on its next call) and itself installed. Python hears Ctrl-C between two calls
into the solver instead, and `base.ctrl_c` during a call longer than one slice (which
then stops by `interrupt()` or between slices); a count keeps the solutions found so far.
"""

from __future__ import annotations

import atexit
import threading
import time
import warnings
import weakref
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from sudokulab import errors
from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Choice,
    Deadline,
    Interrupted,
    Need,
    YesNo,
    ctrl_c,
    interrupted,
)
from sudokulab.backends.root import root_result
from sudokulab.layout import Layout
from sudokulab.puzzle import Puzzle
from sudokulab.result import Found, Result, verdict

if TYPE_CHECKING:
    from sudokulab.models.cnf import Formula

# PySAT is imported where it is used (models.cnf imports it too): without it this module
# still loads, and SatBackend.available() names what is missing.
FIX = "pip install python-sat==1.9.dev17"
SLICE = 1000  # conflicts per slice: a 9x9 needs a few dozen, a slice takes milliseconds
# Solvers that take at-most-one constraints natively (CNFPlus atmost). CaDiCaL 1.9.5 has
# an experimental native mode too, left out: on Sudoku it ran thousands of times slower.
NATIVE_AMO = ("minicard", "gluecard3", "gluecard4")
RELOAD_EVERY = 2000  # puzzles one solver answers before a fresh one takes over
STATS = ("conflicts", "decisions", "propagations", "restarts")
TEACH = "teach"  # sudokulab's own CDCL solver, in pure Python: sudokulab/backends/cdcl.py
ENGINES = {
    "cadical103": "CaDiCaL 1.0.3", "cadical153": "CaDiCaL 1.5.3", "cadical195": "CaDiCaL 1.9.5",
    "cadical300": "CaDiCaL 3.0.0", "glucose3": "Glucose 3.0", "glucose4": "Glucose 4.1",
    "glucose42": "Glucose 4.2.1", "gluecard3": "GlueCard 3.0", "gluecard4": "GlueCard 4.1",
    "lingeling": "Lingeling", "maplechrono": "MapleLCMDistChronoBT", "maplecm": "MapleCM",
    "maplesat": "MapleCOMSPS_LRB", "mergesat3": "MergeSat 3", "minicard": "MiniCard 1.2",
    "minisat22": "MiniSat 2.2", "minisatgh": "MiniSat (GitHub)",
    TEACH: "sudokulab's teaching CDCL (pure Python)",
}


def solver_names() -> list[str]:
    """Every solver name PySAT knows (canonical names, whether built here or not)."""
    from pysat.solvers import SolverNames

    return sorted(name for name in vars(SolverNames) if not name.startswith("_"))


def solver_choices() -> list[str]:
    """The `solver` option's words: PySAT's solvers, and `teach`."""
    return [*solver_names(), TEACH]


def encoding_names() -> tuple[str, ...]:
    """The CNF encodings (models.cnf's: imported when asked, as it needs PySAT)."""
    from sudokulab.models import cnf

    return cnf.ENCODINGS


def amo_names() -> tuple[str, ...]:
    """The at-most-one encodings (models.cnf's: imported when asked)."""
    from sudokulab.models import cnf

    return cnf.AMO_ENCODINGS


@cache
def capabilities(solver: str) -> str:
    """How a solve can be stopped: 'interrupt', 'budget' or 'none' (probed on a tiny CNF).

    ValueError if PySAT cannot build the solver or it ignores assumptions (Kissat).
    """
    from pysat.solvers import NoSuchSolverError, Solver

    hear_ctrl_c_ourselves()
    try:
        with Solver(name=solver, bootstrap_with=[[1, 2]]) as probe, \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if probe.solve(assumptions=[-1, -2]):
                raise ValueError(f"solver {solver!r} ignores assumptions, which this backend "
                                 f"needs to reuse a solver and to count")
            return _stop_mode(probe)
    except NoSuchSolverError:
        known = ", ".join(name for name in solver_names() if name != solver)
        raise ValueError(f"solver {solver!r} is unknown or not built into this PySAT; "
                         f"names: {known}") from None


@cache
def hear_ctrl_c_ourselves() -> None:
    """Keep PySAT from installing its SIGINT handler around a SAT call (or an encoding).

    PySAT installs it when called from the main thread; on Ctrl-C it longjmps out of the
    C++ solver, leaving the solver unusable and the handler in place. PySAT decides by
    asking MainThread.check(), so it is told no: Python's handler, and base.ctrl_c during
    a search, hear Ctrl-C instead (a SAT call then stops as Engine.run says).
    """
    from pysat._utils import MainThread

    MainThread.check = staticmethod(_not_the_main_thread)


def _not_the_main_thread() -> bool:
    """What PySAT is told when it asks whether it may handle SIGINT itself."""
    return False


def _stop_mode(solver) -> str:
    """How a running solve can be cut short: interrupt, conflict budget, or not at all."""
    try:
        solver.interrupt()
        solver.clear_interrupt()
        return "interrupt"
    except NotImplementedError:
        pass
    try:
        solver.conf_budget(-1)
        return "budget"
    except NotImplementedError:
        return "none"


@cache
def digits(n: int, cells: int) -> tuple[int, ...]:
    """The digit each cell variable stands for, indexed by variable (0 unused)."""
    return tuple((v - 1) % n + 1 for v in range(cells * n + 1))


class Engine:
    """One solver loaded with one formula; solves puzzles of its shape as assumptions."""

    def __init__(self, formula: Formula, solver: str) -> None:
        self.formula, self.name = formula, solver
        self.n = formula.n
        self.stop = capabilities(solver)
        self.native = formula.amo == "native"
        self.solver: Any = None  # a pysat Solver (pysat has no annotations); None once closed
        self.broken = False
        # a sudokulab.backends.timeline.Timeline samples the next search's calls
        self.timeline = None
        self.load()
        LIVE.add(self)
        self.cells = formula.top // self.n
        self.digit = digits(self.n, self.cells)
        self.size: dict[str, float] = {"variables": formula.variables, "clauses": formula.size}

    def load(self) -> None:
        """A new solver holding the formula; activation literals start above its variables."""
        from pysat.solvers import Solver

        hear_ctrl_c_ourselves()
        self.close()
        self.broken = False
        self.solver = Solver(name=self.name, bootstrap_with=self.formula.cnf, use_timer=True,
                             **({"native_card": True} if self.native else {}))
        self.top = self.formula.cnf.nv
        self.solved = 0
        self.totals: dict = {}  # the solver's counters after the last search

    def close(self) -> None:
        """Free the native solver now. No signal comes between PySAT freeing it and
        forgetting it: a Ctrl-C there left the pointer, freed again at exit (a double free,
        glibc's 'corrupted size' abort after `ladder` was stopped)."""
        if self.solver is not None:
            with errors.whole():
                self.solver.delete()
                self.solver = None

    def search(self, givens: list[int], blanks: list[int], limit: int | None,
               deadline: Deadline, solutions: Found | None = None
               ) -> tuple[Found, bool, dict]:
        """Up to `limit` solutions under the givens, whether the search ended, stats.

        Ctrl-C raises Interrupted with the solutions found so far. It comes as a
        KeyboardInterrupt between two calls into the solver (never inside one: see
        hear_ctrl_c_ourselves), or from run() when it cut a long SAT call short; either
        way the solver is sound but this puzzle's blocking clauses may be half done, so
        the next search loads a fresh one.
        """
        if self.broken:
            self.load()
        solutions = Found() if solutions is None else solutions  # None: keep every grid
        try:
            return self._search(givens, blanks, limit, deadline, solutions)
        except KeyboardInterrupt:
            self.broken = True
            raise interrupted(solutions, limit) from None
        except Exception:
            self.broken = True  # an engine failure: the next puzzle gets a fresh solver
            raise

    def _search(self, givens: list[int], blanks: list[int], limit: int | None,
                deadline: Deadline, solutions: Found) -> tuple[Found, bool, dict]:
        """search() filling `solutions` as it goes."""
        solver = self.solver
        clock = solver.time_accum()
        assumptions, act, complete = givens, 0, True
        while True:
            status = self.run(assumptions, deadline)
            if status is None:
                complete = False
                break
            if not status:
                break
            grid = self.decode(solver.get_model())
            solutions.append(grid)
            if limit is not None and len(solutions) >= limit:
                break
            if deadline.passed():
                complete = False
                break
            if not act:
                from sudokulab.models.cnf import var

                n = self.n
                self.top += 1
                act = self.top
                assumptions = givens + [act]
            # Block this solution on the blank cells (the givens are assumed anyway).
            solver.add_clause([-act] + [-var(n, cell, grid[cell]) for cell in blanks])
        if act:
            solver.add_clause([-act])  # retire this puzzle's blocking clauses for good
        stats = self.count(solver.time_accum() - clock)
        # Start afresh when retired activation literals outnumber the cell variables (they
        # stay in every model), and every RELOAD_EVERY puzzles: clauses learned under
        # other puzzles' givens slow propagation down more than they help
        # (results/frontdoor.md measures it).
        self.solved += 1
        if self.top - self.formula.cnf.nv > self.formula.top or self.solved >= RELOAD_EVERY:
            self.load()
        return solutions, complete, stats

    def count(self, seconds: float) -> dict:
        """This search's statistics: the formula's size, the solver's counters since the
        last search (one call into the solver: the totals are kept between searches)."""
        totals, before = self.solver.accum_stats() or {}, self.totals
        self.totals = totals
        stats = self.size.copy()
        for key in STATS:
            stats[key] = totals.get(key, 0) - before.get(key, 0)
        stats["solver_time"] = seconds
        return stats

    def decode(self, model: list[int]) -> tuple[int, ...]:
        """The grid of a model: one true cell variable per cell, in cell order."""
        if self.formula.candidates is not None:
            return self.formula.decode(model)
        # Every encoding forces exactly one true variable per cell (cell at-least-one,
        # and a row has room for each digit once), so the positive literals are the grid.
        digit, top = self.digit, self.formula.top
        grid = tuple([digit[lit] for lit in (model if len(model) == top else model[:top])
                      if lit > 0])
        if len(grid) != self.cells:
            raise RuntimeError(f"model sets {len(grid)} cell variables, expected {self.cells}")
        return grid

    def run(self, assumptions: list[int], deadline: Deadline) -> bool | None:
        """One SAT call: True, False, or None when the deadline cut it short.

        A first slice of SLICE conflicts answers most calls. A longer call goes on
        inside base.ctrl_c, so that Ctrl-C stops it too (by interrupt(), or between
        slices): run() then raises KeyboardInterrupt.
        """
        solver = self.solver
        if self.timeline is not None:  # sliced small, sampled after each slice
            return self.timeline.sat_run(self, assumptions, deadline)
        if self.stop == "none":  # nothing stops it: Ctrl-C is heard once it returns
            return solver.solve(assumptions=assumptions)
        solver.conf_budget(SLICE)
        status = solver.solve_limited(assumptions=assumptions)
        if status is not None or deadline.passed():
            return status
        with ctrl_c(self.halt) as key:
            while status is None and not deadline.passed() and not key.pressed:
                if self.stop == "budget":
                    solver.conf_budget(SLICE)
                    status = solver.solve_limited(assumptions=assumptions)
                else:
                    status = self.run_until(assumptions, deadline.left())
        if key.pressed:
            if self.stop == "interrupt":
                solver.clear_interrupt()  # halt() may have come after the call returned
            raise KeyboardInterrupt
        return status

    def halt(self) -> None:
        """Ctrl-C's stop, from the watching thread: interrupt the SAT call, if this solver
        can be; otherwise run() sees `pressed` between slices."""
        if self.stop == "interrupt":
            self.solver.interrupt()

    def run_until(self, assumptions: list[int], seconds: float | None) -> bool | None:
        """A SAT call that a timer interrupts after `seconds` (None: only halt() does)."""
        solver = self.solver
        solver.conf_budget(-1)
        timer = None if seconds is None else threading.Timer(seconds, solver.interrupt)
        if timer is not None:
            timer.start()
        try:
            return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()  # a callback already running must finish before the flag is cleared
            solver.clear_interrupt()


LIVE: weakref.WeakSet[Engine] = weakref.WeakSet()


@atexit.register
def _close_engines() -> None:
    """Free cached solvers before interpreter teardown, when PySAT's own __del__ would fail."""
    for live in list(LIVE):
        live.close()


@lru_cache(maxsize=8)
def engine(solver: str, encoding: str, amo: str, box: tuple[int, int],
           rules: tuple[R.Rule, ...], layout: Layout | None = None) -> Engine:
    """The shared engine of a shape and rule set (or layout), built on first use in this
    process."""
    from sudokulab.models import cnf

    return Engine(cnf.base(box, rules, encoding, amo, layout), solver)


@lru_cache(maxsize=8)
def root_solver(solver: str, encoding: str, amo: str, box: tuple[int, int],
                rules: tuple[R.Rule, ...], layout: Layout | None = None):
    """A solver holding the formula that only ever propagates (nothing learned from a search
    strengthens its unit propagation), and the formula's unit clauses, left out of it.

    A solver's propagate() returns the literals it assigns above decision level 0 only:
    what a unit clause (a parity rule, a cage with one digit set, a sum's bound) fixes at
    level 0, and all that follows from it, would be missing from the marks. So the unit
    clauses are assumed with the givens instead, and the trail holds the whole closure."""
    from pysat.solvers import Solver

    from sudokulab.models import cnf

    hear_ctrl_c_ourselves()
    formula = cnf.base(box, rules, encoding, amo, layout)
    units = tuple(clause[0] for clause in formula.cnf.clauses if len(clause) == 1)
    rest = formula.cnf.copy()  # a CNFPlus keeps its native at-most-one constraints
    rest.clauses = [clause for clause in rest.clauses if len(clause) != 1]
    propagator = Solver(name=solver, bootstrap_with=rest,
                        **({"native_card": True} if amo == "native" else {}))
    atexit.register(propagator.delete)  # before teardown, when PySAT's own __del__ would fail
    return formula, propagator, units


def root_marks(puzzle: Puzzle, encoding: str = "extended", solver: str = "cadical195",
               amo: str = "pairwise") -> tuple[int, ...] | None:
    """Each cell's candidates (bit d-1 for digit d) where unit propagation of the givens
    stops, no decision taken; a cell whose variable is true keeps that digit alone. None
    when propagation reaches a conflict (no solution)."""
    from sudokulab.models import cnf

    if encoding == "optimized":
        raise ValueError("root propagation takes a reusable encoding: "
                         + ", ".join(cnf.REUSABLE))
    formula, sat, units = root_solver(solver, encoding, amo, puzzle.box, puzzle.rules,
                                      puzzle.layout)
    ok, literals = sat.propagate(assumptions=[*units, *cnf.givens_literals(puzzle)])
    if not ok:
        return None
    n, top = formula.n, formula.top
    marks = [(1 << n) - 1] * (top // n)
    true = [0] * (top // n)
    for lit in literals:
        v = abs(lit)
        if v <= top:
            cell, bit = (v - 1) // n, 1 << ((v - 1) % n)
            if lit > 0:
                true[cell] = bit
            else:
                marks[cell] &= ~bit
    return tuple(t or m for t, m in zip(true, marks))


class SatBackend(Backend):
    """A CNF encoding (Lynce & Ouaknine; Kwon & Jain) solved by a CDCL solver via PySAT."""

    name = "sat"
    paradigm = "SAT: CNF + CDCL solver (PySAT)"
    # models.cnf.RULES, named here without importing PySAT: cnf.py compiles every
    # rule, cages by digit sets (tests/test_availability.py holds the two equal)
    supported_rules = R.RULE_TYPES
    multi_grid = True  # a samurai's grids are only more units over more cells
    needs = (Need("pysat", FIX),)
    timeline = None  # a sudokulab.backends.timeline.Timeline to sample the search (`--timeline`)
    keeps_timeline = True
    option_table = {
        "solver": Choice(solver_choices, help="the PySAT solver (CaDiCaL 1.9.5 by default), "
                         "or teach: a CDCL solver to read and watch (`solve --trace`)"),
        "encoding": Choice(encoding_names, help="the CNF encoding (docs/backends.md)"),
        "amo": Choice(amo_names, help="the at-most-one encoding (native: minicard, "
                                      "gluecard3, gluecard4)"),
        "root": YesNo(help="unit propagation of the givens only, no decision (the inference "
                           "ladder's level): STALLED with the cells it decides, or the grid"),
    }

    # amo: pairwise measured fastest with CaDiCaL on top1465 (results/sat.md): Sudoku's
    # at-most-one groups have only N literals, too few for auxiliary variables to pay off.
    def __init__(self, solver: str = "cadical195", encoding: str = "extended",
                 amo: str = "pairwise", root: str = "no") -> None:
        from sudokulab.models import cnf

        super().__init__()
        self.root = root == "yes"
        if self.root and encoding not in cnf.REUSABLE:
            raise ValueError(f"root=yes takes a reusable encoding: {', '.join(cnf.REUSABLE)}")
        if solver == TEACH:  # pure Python: it checks the clock itself and records a trace
            if self.root or encoding not in cnf.REUSABLE or amo == "native":
                raise ValueError(f"solver={TEACH} takes a reusable encoding "
                                 f"({', '.join(cnf.REUSABLE)}), clauses (no amo=native) "
                                 "and no root=yes")
            self.__dict__["records_trace"] = True  # this instance's, not every sat's
            self.trace = None
        self.stop = TEACH if solver == TEACH else capabilities(solver)
        if amo == "native" and solver not in NATIVE_AMO:
            raise ValueError(f"amo=native needs a solver with cardinality constraints: "
                             f"{', '.join(NATIVE_AMO)}")
        self.solver, self.encoding, self.amo = solver, encoding, amo

    @classmethod
    def ready(cls) -> Availability:
        """Whether PySAT's default solver loads here (PySAT imports: see `needs`)."""
        try:
            capabilities("cadical195")
        except ValueError as error:
            return Availability(False, reason=f"CaDiCaL does not load: {error}", fix=FIX)
        import pysat

        return Availability(True, version=f"python-sat {pysat.__version__} / CaDiCaL 1.9.5")

    def unsupported(self, puzzle: Puzzle) -> str:
        """Why this encoding cannot express the puzzle ('' when it can): the augmented
        encoding's triads need the classic boxes of one grid."""
        reason = super().unsupported(puzzle)
        # said here, before solving, so that it comes back UNSUPPORTED as other engines'
        # missing rules do, rather than as cnf's UnsupportedRule turned into an ERROR
        if not reason and self.encoding == "augmented" and (
                puzzle.layout is not None or R.jigsaw(puzzle.rules) is not None):
            shape = puzzle.layout.name if puzzle.layout is not None else "jigsaw regions"
            reason = (f"the augmented encoding needs the classic boxes of one grid, "
                      f"not {shape}")
        return reason

    def forget(self, puzzle: Puzzle) -> None:
        """A new solver for the shared engine of the puzzle's shape: no clause learnt, no
        blocking clause retired, no counter carried over (root propagation and the
        optimized encoding build their own solver for every puzzle already)."""
        if not self.root and self.encoding != "optimized" and self.solver != TEACH:
            engine(self.solver, self.encoding, self.amo, puzzle.box, puzzle.rules,
                   puzzle.layout).load()

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Load the puzzle's formula (built once per shape) and search under its givens."""
        from sudokulab.models import cnf

        started = time.perf_counter()
        if self.solver == TEACH:
            return self._solve_teach(puzzle, limit, deadline)
        if self.root:
            return root_result(root_marks(puzzle, self.encoding, self.solver, self.amo),
                               limit, started)
        givens = puzzle.givens
        fresh = self.encoding == "optimized"
        if fresh:
            the_engine = Engine(cnf.optimized(puzzle, self.amo), self.solver)
            assumptions: list[int] = []
        elif self.timeline is not None:  # from scratch: nothing learned on other puzzles
            fresh = True
            the_engine = Engine(cnf.base(puzzle.box, puzzle.rules, self.encoding, self.amo,
                                         puzzle.layout), self.solver)
            assumptions = cnf.givens_literals(puzzle)
        else:
            the_engine = engine(self.solver, self.encoding, self.amo, puzzle.box, puzzle.rules,
                                puzzle.layout)
            assumptions = cnf.givens_literals(puzzle)
        blanks = [cell for cell, d in enumerate(givens) if not d] if limit != 1 else []
        built = time.perf_counter()
        the_engine.timeline = self.timeline
        try:
            solutions, complete, stats = the_engine.search(assumptions, blanks, limit, deadline,
                                                           self.new_found())
        except Interrupted as stop:  # keeps its times, as other engines' do
            stop.result.build_time = built - started
            stop.result.solve_time = time.perf_counter() - built
            raise
        finally:
            the_engine.timeline = None
            if fresh:
                the_engine.close()
        return verdict(solutions, limit, complete=complete, stats=stats,
                       build_time=built - started, solve_time=time.perf_counter() - built)

    def _solve_teach(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """sudokulab/backends/cdcl.py's solver on the puzzle's formula, givens as units."""
        from sudokulab.backends import cdcl

        started = time.perf_counter()
        found = self.new_found()
        try:
            _, complete, stats = cdcl.search(puzzle, limit, deadline.at, self.encoding,
                                             self.amo, self.trace, found)
        except KeyboardInterrupt:  # Ctrl-C: keep the solutions found so far
            raise interrupted(found, limit,
                              solve_time=time.perf_counter() - started) from None
        return verdict(found, limit, complete=complete, stats=stats,
                       solve_time=time.perf_counter() - started)

    def describe(self, puzzle: Puzzle) -> str:
        """The formula the puzzle becomes: variables, and clauses per part of the rules."""
        from sudokulab.models import cnf

        formula = cnf.encode(puzzle, self.encoding, self.amo)
        n, parts = formula.n, dict(formula.parts)
        givens = parts.pop("given", 0)
        aux = formula.cnf.nv - formula.top
        extra = f", {aux:,} auxiliary above {formula.top}" if aux else ""
        where = (f"x(r,c,d) = r*{n * n} + c*{n} + d (r, c from 0, d from 1)"
                 if puzzle.layout is None else
                 f"x(cell,d) = cell*{n} + d ({puzzle.layout.name}: {formula.cells} cells "
                 f"numbered row by row over the board from 0, d from 1)")
        lines = [f"sat: encoding {self.encoding}, at-most-one {self.amo}, solver {self.solver} "
                 f"({ENGINES.get(self.solver, self.solver)})",
                 f"  variables {formula.variables:,}: {where}{extra}",
                 f"  {'constraints' if self.amo == 'native' else 'clauses'} per part:"]
        width = max(map(len, parts), default=0)
        lines += [f"    {part.ljust(width)}  {count:>9,}" for part, count in parts.items()]
        lines.append(f"    {'total'.ljust(width)}  {sum(parts.values()):>9,}")
        how = ("decided in the encoding (their variables and the clauses they satisfy are "
               "left out)" if self.encoding == "optimized"
               else "assumptions: the solver is built once per shape and reused")
        cages = sum(isinstance(rule, R.Cage) for rule in puzzle.rules)
        if cages:
            lines.append(f"  cages: {cages}, {formula.selectors:,} digit sets that fill them "
                         f"(a selector each, exactly one true per cage)")
        lines.append(f"  givens: {givens} {how}")
        lines.append(f"  timeout: {TIMEOUTS[self.stop]}")
        return "\n".join(lines)


TIMEOUTS = {TEACH: "the solver looks at the clock every 64 decisions",
            "interrupt": "a timer interrupts the solver",
            "budget": "conflict-budget slices, the clock checked between them",
            "none": "not enforced: this solver runs to the end (the harness isolates it)"}
