"""The smt backend: a Z3 model of the puzzle (see sudokulab.encodings.smt), kept warm.

Building a model and a solver costs far more than solving one 9x9 puzzle, so each
process keeps one solver per (shape, rule set, model, solver) and passes every puzzle's
givens to it as assumptions: `check(*givens)` leaves nothing behind, so the next puzzle
starts from the same solver together with the clauses it learned about the rules.
Measured on top1465 against asserting the givens between push and pop (option
`givens=push`), assumptions were faster for the bool and int models in the default
solver; results/smt.md has the figures.

Counting blocks each solution found with a clause over the cell values, guarded by an
activation literal that is assumed during this search and switched off afterwards, so
the blocking clauses never leak into the next puzzle.
"""

from __future__ import annotations

import time
from functools import lru_cache

from sudokulab.backends.base import Availability, Backend, Deadline
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle
from sudokulab.result import Grid, Result, verdict

try:
    import z3

    from sudokulab.encodings import smt as encoding
except ImportError as error:  # available() says why and how to fix it
    z3 = encoding = None
    IMPORT_ERROR = str(error)

DEFAULT_MODEL = "bool"
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
        self.model = encoding.build(geometry(box, rules), model)
        self.solver = z3.SolverFor("QF_FD") if solver == "qffd" else z3.Solver()
        # Compacting a model's function graphs is of no use to models made of constants,
        # and cost 0.6 ms a puzzle in get_model (about a quarter of a 9x9 solve).
        self.solver.set("model.compact", False)
        self.solver.add(self.model.assertions())
        self.grid = self.model.grid_term()
        self.guards = 0
        self.timeout = None

    def set_timeout(self, ms: int) -> None:
        """Z3's timeout for the next check (set only when it changes: setting costs)."""
        if ms != self.timeout:
            self.solver.set("timeout", ms)
            self.timeout = ms

    def fresh_guard(self) -> z3.BoolRef:
        """A new activation literal for this search's blocking clauses."""
        self.guards += 1
        return z3.Bool(f"block_{self.guards}")

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


class SmtBackend(Backend):
    """Z3 on one of three models: one-hot Booleans, one-hot bit-vectors or integers."""

    name = "smt"
    paradigm = "SMT (Z3)"
    supported_rules = encoding.model_class(DEFAULT_MODEL).rules if encoding else ()

    def __init__(self, model: str = DEFAULT_MODEL, solver: str = "default",
                 givens: str = "assume", **options: str) -> None:
        super().__init__(**options)
        for option, value, choices in (("model", model, encoding.MODELS if encoding else ()),
                                       ("solver", solver, SOLVERS), ("givens", givens, GIVENS)):
            if encoding and value not in choices:
                raise ValueError(f"{option}={value!r}: choose one of {', '.join(choices)}")
        if solver == "qffd" and model == "int":
            raise ValueError("solver=qffd (Z3's finite-domain SAT core) takes the bool and "
                             "bitvec models, not int")
        self.model, self.solver, self.givens = model, solver, givens
        if encoding:
            self.supported_rules = encoding.model_class(model).rules

    @classmethod
    def available(cls) -> Availability:
        """Available when the z3-solver package imports."""
        if z3 is None:
            return Availability(False, reason=f"cannot import z3: {IMPORT_ERROR}",
                                fix="pip install z3-solver")
        return Availability(True, version=f"Z3 {z3.get_version_string()}")

    def unsupported(self, puzzle: Puzzle) -> str:
        """Why this backend's model cannot express a rule of the puzzle ('' when it can)."""
        reason = super().unsupported(puzzle)
        return f"{reason} in the {self.model} model" if reason else ""

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Find up to `limit` solutions, blocking each one found, before the deadline."""
        started = time.perf_counter()
        warm = engine(puzzle.box, puzzle.rules, self.model, self.solver)
        givens = warm.model.givens(puzzle)
        scope = (Pushed if self.givens == "push" else Assumed)(warm, givens)
        built = time.perf_counter()
        before = warm.counters()
        with scope:
            solutions, reason = search(warm, scope, puzzle, limit, deadline)
        solved = time.perf_counter()
        return verdict(solutions, limit, complete=not reason,
                       stats=per_puzzle(before, warm.counters()),
                       build_time=built - started, solve_time=solved - built,
                       message=f"Z3 gave up: {reason}" if reason else "")

    def describe(self, puzzle: Puzzle) -> str:
        """The model's assertions rule by rule: counts and the first few of each."""
        if encoding is None:
            return f"{self.name}: unavailable: {IMPORT_ERROR}"
        model = encoding.build(geometry(puzzle.box, puzzle.rules), self.model)
        n = puzzle.size
        lines = [f"smt: Z3 model '{self.model}' ({model.logic}), {n * n} cells, "
                 f"each {model.kind}"]
        groups = list(model.groups.items()) + [("givens (assumed)", model.givens(puzzle))]
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


class Assumed:
    """Givens as assumptions; blocking clauses behind a guard literal switched off at exit."""

    def __init__(self, warm: Engine, givens: list) -> None:
        self.warm, self.assumptions, self.guard = warm, list(givens), None

    def __enter__(self) -> Assumed:
        return self

    def block(self, clause: z3.BoolRef) -> None:
        """Add a blocking clause that holds only while this search assumes its guard."""
        if self.guard is None:
            self.guard = self.warm.fresh_guard()
            self.assumptions.append(self.guard)
        self.warm.solver.add(z3.Implies(self.guard, clause))

    def __exit__(self, *exc: object) -> None:
        if self.guard is not None:
            self.warm.solver.add(z3.Not(self.guard))  # the clauses are satisfied for good


class Pushed:
    """Givens and blocking clauses asserted in a scope that is popped at exit."""

    assumptions: tuple = ()

    def __init__(self, warm: Engine, givens: list) -> None:
        self.solver, self.givens = warm.solver, givens

    def __enter__(self) -> Pushed:
        self.solver.push()
        self.solver.add(self.givens)
        return self

    def block(self, clause: z3.BoolRef) -> None:
        """Add a blocking clause to the scope."""
        self.solver.add(clause)

    def __exit__(self, *exc: object) -> None:
        self.solver.pop()


def search(warm: Engine, scope: Assumed | Pushed, puzzle: Puzzle, limit: int | None,
           deadline: Deadline) -> tuple[list[Grid], str]:
    """Up to `limit` solutions, and why Z3 stopped early ('' when it did not)."""
    blanks = [cell for cell, digit in enumerate(puzzle.givens) if not digit]
    solutions: list[Grid] = []
    while limit is None or len(solutions) < limit:
        if solutions:  # the givens are fixed, so the blank cells tell solutions apart
            scope.block(warm.model.excluding(solutions[-1], blanks))
        warm.set_timeout(timeout_ms(deadline))
        answer = warm.solver.check(*scope.assumptions)
        if answer == z3.unsat:
            break
        if answer == z3.unknown:
            return solutions, warm.solver.reason_unknown()
        solutions.append(warm.read())
    return solutions, ""
