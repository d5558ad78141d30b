"""The smt backend: a Z3 model of the puzzle (see sudokulab.models.smt), kept warm.

Building a model and a solver costs far more than solving one 9x9 puzzle, so each
process keeps one solver per (shape, rule set, model, solver) and hands it every
puzzle's givens as assumptions: `check(*givens)` leaves nothing behind, and the next
puzzle starts from the same solver with the clauses it learned about the rules. On
top1465, over five bench runs, assumptions were as fast as asserting the givens between
push and pop or up to 1.5x faster in every configuration but bitvec on the SAT core
(QF_FD), where they were 9x slower: that one pushes by default. results/smt.md has the
figures; `givens=assume|push` overrides the choice.

Counting blocks each solution found with a clause over the cell values, asserted in a
push/pop scope around the search (see Scope), so no blocking clause outlives its puzzle.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import TYPE_CHECKING

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Choice,
    CtrlC,
    Deadline,
    Need,
    ctrl_c,
    interrupted,
)
from sudokulab.errors import stops_through_c
from sudokulab.geometry import geometry
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Found, Result, verdict

if TYPE_CHECKING:  # Z3 is imported where it is used: SmtBackend.needs says why
    import z3

DEFAULT_MODEL = "bool"
MODELS = ("bool", "bitvec", "int")  # models.smt.MODELS, here without importing z3
SOLVERS = ("default", "qffd")
GIVENS = ("assume", "push")
NO_TIMEOUT = 4294967295  # Z3's "no timeout": the largest unsigned int

# Z3's statistics names differ between its SMT core and its SAT core (QF_FD); each
# normalised counter sums the keys either core reports. Propagations count Boolean ones
# plus those a theory makes (pseudo-Boolean, arithmetic bounds), so models compare.
COUNTERS = {
    "conflicts": ("conflicts", "sat conflicts"),
    "decisions": ("decisions", "sat decisions"),
    "propagations": ("propagations", "pb propagations", "arith-bound-propagations-lp",
                     "sat propagations 2ary", "sat propagations 3ary", "sat propagations nary"),
    "rlimit": ("rlimit count",),
}


class Engine:
    """One Z3 solver holding a model of a shape and rule set, reused puzzle after puzzle."""

    def __init__(self, box: tuple[int, int], rules: tuple, model: str, solver: str) -> None:
        import z3

        from sudokulab.models import smt as encoding

        self.model = encoding.build(geometry(box, rules), model)
        self.solver = z3.SolverFor("QF_FD") if solver == "qffd" else z3.Solver()
        # Compacting a model's function graphs is of no use to models made of constants,
        # and cost a good part of a 9x9 solve in get_model (measured when chosen; no bench
        # re-measures it).
        self.solver.set("model.compact", False)
        # Z3's own Ctrl-C handler would cancel a check and report it as an unknown
        # ("canceled"), which reads as a timeout: SmtBackend._solve handles Ctrl-C instead.
        self.solver.set("ctrl_c", False)
        self.solver.add(self.model.assertions())
        self.grid = self.model.grid_term()
        self.timeout: int | None = None  # Z3's, in ms, as last set (None: never set)

    def set_timeout(self, ms: int) -> None:
        """Z3's timeout for the next check (set only when it changes: setting costs)."""
        if ms != self.timeout:
            self.solver.set("timeout", ms)
            self.timeout = ms

    def read(self) -> Grid:
        """The grid of the solver's current model, in one evaluation."""
        value = self.solver.model().eval(self.grid, model_completion=True)
        return self.model.read(value.as_long())

    def counters(self) -> dict[str, float]:
        """Z3's cumulative statistics under normalised names, plus memory in MB."""
        raw = {key: value for key, value in self.solver.statistics()}
        counts = {name: sum(raw.get(key, 0) for key in keys) for name, keys in COUNTERS.items()}
        counts["memory_mb"] = raw.get("memory", 0.0)
        return counts


@lru_cache(maxsize=16)
@stops_through_c()
def engine(box: tuple[int, int], rules: tuple, model: str, solver: str) -> Engine:
    """The process's engine for a shape, rule set, model and solver (built on first use)."""
    return Engine(box, rules, model, solver)


def timeout_ms(deadline: Deadline) -> int:
    """Milliseconds left before the deadline, as Z3's timeout parameter wants them."""
    left = deadline.left()
    # At least 1 ms, so that even a late search asks Z3 and reports Z3's own reason.
    return NO_TIMEOUT if left is None else max(1, int(left * 1000))


def per_puzzle(before: dict, after: dict) -> dict[str, float]:
    """Counters of this search alone (Z3's are cumulative over the solver's life)."""
    stats = {name: after[name] - before[name] for name in COUNTERS}
    stats["memory_mb"] = after["memory_mb"]
    return stats


def faster_givens(model: str, solver: str) -> str:
    """How the givens measured faster: as assumptions, but for bitvec on the SAT core."""
    return "push" if (model, solver) == ("bitvec", "qffd") else "assume"


class SmtBackend(Backend):
    """Z3 on one of three models: one-hot Booleans, one-hot bit-vectors or integers."""

    name = "smt"
    paradigm = "SMT (Z3)"
    # the bool model's rules (every rule there is), named here without importing Z3; each
    # instance takes its own model's (tests/test_availability.py holds them equal)
    supported_rules = R.RULE_TYPES
    needs = (Need("z3", "pip install z3-solver"),)
    timeline = None  # a sudokulab.backends.timeline.Timeline to sample the search (`--timeline`)
    keeps_timeline = True

    option_table = {
        "model": Choice(MODELS, help="one-hot Booleans, one-hot bit-vectors or integers"),
        "solver": Choice(SOLVERS, help="Z3's default solver or its finite-domain SAT core "
                                       "(qffd: bool and bitvec models)"),
        "givens": Choice(GIVENS, help="givens as assumptions or asserted between push and "
                                      "pop (default: whichever measured faster)"),
    }

    def __init__(self, model: str = DEFAULT_MODEL, solver: str = "default",
                 givens: str = "") -> None:
        from sudokulab.models import smt as encoding

        super().__init__()
        if solver == "qffd" and model == "int":
            raise ValueError("solver=qffd (Z3's finite-domain SAT core) takes the bool and "
                             "bitvec models, not int")
        self.model, self.solver = model, solver
        self.givens = givens or faster_givens(model, solver)
        self.supported_rules = encoding.model_class(model).rules

    @classmethod
    def ready(cls) -> Availability:
        """Z3's version (it is installed: see `needs`)."""
        import z3

        return Availability(True, version=f"Z3 {z3.get_version_string()}")

    def unsupported(self, puzzle: Puzzle) -> str:
        """Why this backend's model cannot express a rule of the puzzle ('' when it can)."""
        reason = super().unsupported(puzzle)
        return f"{reason} in the {self.model} model" if reason else ""

    def forget(self, puzzle: Puzzle) -> None:
        """A new Z3 context, model and solver for the puzzle's shape and rules: a solver
        keeps the lemmas it learnt under earlier puzzles' givens, and even a new solver in
        an old context searches differently (Z3 orders by term ids, which the terms of
        earlier puzzles moved), so a fresh process's statistics need a fresh context."""
        import z3

        engine.cache_clear()
        # z3py makes its default context on first use when there is none; it has no
        # public call to start a new one, and the encodings build in the default one.
        z3.z3._main_ctx = None
        engine(puzzle.box, puzzle.rules, self.model, self.solver)

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Find up to `limit` solutions, blocking each one found, before the deadline."""
        started = time.perf_counter()
        warm = engine(puzzle.box, puzzle.rules, self.model, self.solver)
        scope = Scope(warm.solver, warm.model.givens(puzzle), self.givens == "push")
        built = time.perf_counter()
        before = warm.counters()
        solutions = self.new_found()
        with scope, ctrl_c(warm.solver.interrupt) as key:
            try:
                with stops_through_c():
                    reason = search(warm, scope, puzzle, limit, deadline, solutions, key,
                                    self.timeline)
            except KeyboardInterrupt:  # between two checks
                key.pressed = True
        solved = time.perf_counter()
        if key.pressed:
            raise interrupted(solutions, limit, stats=per_puzzle(before, warm.counters()),
                              build_time=built - started, solve_time=solved - built)
        return verdict(solutions, limit, complete=not reason,
                       stats=per_puzzle(before, warm.counters()),
                       build_time=built - started, solve_time=solved - built,
                       message=f"Z3 gave up: {reason}" if reason else "")

    @stops_through_c()
    def describe(self, puzzle: Puzzle) -> str:
        """The model's assertions rule by rule: counts and the first few of each."""
        from sudokulab.models import smt as encoding

        if reason := self.unsupported(puzzle):
            return reason
        model = encoding.build(geometry(puzzle.box, puzzle.rules), self.model)
        n = puzzle.n
        lines = [f"smt: Z3 model '{self.model}' ({model.logic}), {n * n} cells, "
                 f"each {model.kind}"]
        how = "assumed" if self.givens == "assume" else "asserted after a push"
        groups = list(model.groups.items()) + [(f"givens ({how})", model.givens(puzzle))]
        for group, assertions in groups:
            lines.append(f"  {group}: {len(assertions)} assertion(s)")
            shown = assertions if len(assertions) <= EXAMPLES + 1 else assertions[:EXAMPLES]
            lines += [f"    {_short(a.sexpr())}" for a in shown]
            if len(shown) < len(assertions):
                lines.append(f"    ... and {len(assertions) - len(shown)} more")
        return "\n".join(lines)


EXAMPLES = 2  # assertions shown per rule in the teaching view


def _short(text: str, width: int = 110) -> str:
    """One line of at most `width` characters."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[:width - 4] + " ..."


class Scope:
    """One search's additions to a warm solver, all undone at exit.

    The givens are assumptions, or assertions after a push; blocking clauses go after a
    push (opened with the first one). A scope was measured faster than guarding each
    blocking clause with an activation literal switched off afterwards: the switched-off
    clauses stay in the solver, and even the first check of each puzzle slows (measured
    when chosen; no bench re-measures it).
    """

    def __init__(self, solver: z3.Solver, givens: list, push_givens: bool) -> None:
        self.solver, self.givens, self.push_givens = solver, givens, push_givens
        self.assumptions = [] if push_givens else givens
        self.pushed = False

    def __enter__(self) -> Scope:
        if self.push_givens:
            self.open()
            self.solver.add(self.givens)
        return self

    def open(self) -> None:
        """Push, once."""
        if not self.pushed:
            self.solver.push()
            self.pushed = True

    def block(self, clause: z3.BoolRef) -> None:
        """Assert a blocking clause for this search only."""
        self.open()
        self.solver.add(clause)

    def __exit__(self, *exc: object) -> None:
        if self.pushed:
            self.solver.pop()


def search(warm: Engine, scope: Scope, puzzle: Puzzle, limit: int | None,
           deadline: Deadline, solutions: Found, key: CtrlC, timeline=None) -> str:
    """Up to `limit` solutions into `solutions`, and why Z3 stopped early ('' when it
    did not); Ctrl-C between two checks stops it too. A timeline samples Z3's counters
    after each check."""
    import z3

    if timeline is not None:
        timeline.begin(warm.counters())

    blanks = [cell for cell, digit in enumerate(puzzle.givens) if not digit]
    while (limit is None or len(solutions) < limit) and not key.pressed:
        if solutions:  # the givens are fixed, so the blank cells tell solutions apart
            scope.block(warm.model.excluding(solutions[-1], blanks))
        warm.set_timeout(timeout_ms(deadline))
        answer = warm.solver.check(*scope.assumptions)
        if timeline is not None:
            timeline.sample(warm.counters())
        if answer == z3.unsat:
            break
        if answer == z3.unknown:
            return warm.solver.reason_unknown()
        solutions.append(warm.read())
    return ""
