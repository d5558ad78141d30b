"""The working engine of the generator: one PySAT solver per shape and rule set.

It is loaded once with the CNF of the shape and rules (sudokulab.models.cnf.base, the
encoding the sat backend uses) and every question is asked under assumptions, so nothing
is rebuilt between questions:
- a solution grid under some cells fixed (random grids are filled cell by cell);
- whether a unique puzzle stays unique with some of its givens blanked. If the givens G
  have the one solution S, any other solution of G minus the cells C differs from S on C
  (else it would solve G too). So G minus C is unique exactly when "the givens left, and
  some cell of C not as in S" has no model: one SAT call, and for a single cell no clause
  at all (its digit in S is assumed false).
"""

from __future__ import annotations

import atexit
import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sudokulab import rules as R
from sudokulab.errors import stops_through_c

SOLVER = "cadical195"
RELOAD_EVERY = 500  # questions-heavy puzzles before a fresh solver: learned clauses pile up


Call = TypeVar("Call", bound=Callable[..., Any])


def _left_on_ctrl_c(method: Call) -> Call:
    """An Engine's SAT call, Ctrl-C raised as itself (PySAT's solve() reports it as its
    own error); the engine then leaves the cache, its solver never used or deleted again:
    PySAT leaves a solver it jumped out of unable to solve, so the next run builds anew."""
    @functools.wraps(method)
    def call(self: Engine, *args: Any) -> Any:
        try:
            with stops_through_c():
                return method(self, *args)
        except KeyboardInterrupt:
            for key in [key for key, kept in _ENGINES.items() if kept is self]:
                del _ENGINES[key]
            self.solver = None
            raise

    return call  # type: ignore[return-value]


class Engine:
    """A CDCL solver holding the formula of one shape and rule set."""

    name = "sat"

    def __init__(self, box: tuple[int, int], rules: tuple[R.Rule, ...] = ()) -> None:
        import signal

        from sudokulab.models import cnf

        # In a pool's worker Ctrl-C is ignored; PySAT's own handler, installed around each
        # SAT call, would take a terminal's Ctrl-C for a stop and print a traceback.
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            from sudokulab.backends.sat import hear_ctrl_c_ourselves

            hear_ctrl_c_ourselves()
        self.box, self.rules = box, rules
        self.n = box[0] * box[1]
        self.formula = cnf.base(box, rules, "extended", "pairwise")
        self.solver: Any = None  # a pysat Solver (pysat has no annotations)
        self.puzzles = 0
        self.calls = 0
        self.load()

    def load(self) -> None:
        """A new solver holding the formula; activation literals start above its variables."""
        from pysat.solvers import Solver

        if self.solver is not None:
            self.solver.delete()
        self.solver = Solver(name=SOLVER, bootstrap_with=self.formula.cnf)
        self.top = self.formula.cnf.nv

    def next_puzzle(self) -> None:
        """A new puzzle begins: now and then start from a fresh solver."""
        self.puzzles += 1
        if self.puzzles % RELOAD_EVERY == 0 or self.top - self.formula.cnf.nv > self.n ** 3:
            self.load()

    @_left_on_ctrl_c
    def grid(self, assumptions: Sequence[int]) -> tuple[int, ...] | None:
        """A solution grid under the assumed cell literals, or None if there is none."""
        self.calls += 1
        if not self.solver.solve(assumptions=assumptions):
            return None
        n, top = self.n, self.n ** 3
        return tuple((lit - 1) % n + 1 for lit in self.solver.get_model()[:top] if lit > 0)

    @_left_on_ctrl_c
    def unique_without(self, kept: Sequence[int], solution: Sequence[int],
                       cells: Sequence[int]) -> bool:
        """Whether the givens `kept` (literals) still have `solution` as their only one,
        given that they do with `cells` filled in too."""
        n = self.n
        self.calls += 1
        if len(cells) == 1:
            cell = cells[0]
            return not self.solver.solve(assumptions=[*kept, -(cell * n + solution[cell])])
        self.top += 1
        act = self.top
        self.solver.add_clause([-act] + [-(cell * n + solution[cell]) for cell in cells])
        found = self.solver.solve(assumptions=[*kept, act])
        self.solver.add_clause([-act])  # retired for good
        return not found

    def close(self) -> None:
        """Free the native solver."""
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


_ENGINES: dict = {}



def engine(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> Engine:
    """The engine of a shape and rule set, kept for the process (a few at most)."""
    key = (box, rules)
    if key not in _ENGINES:
        if len(_ENGINES) >= 4:  # jigsaw and killer rules differ per puzzle: do not hoard
            _ENGINES.pop(next(iter(_ENGINES))).close()
        _ENGINES[key] = Engine(box, rules)
    return _ENGINES[key]


@atexit.register
def _close_engines() -> None:
    """Free the kept solvers before interpreter teardown, when PySAT's own __del__ fails."""
    for kept in _ENGINES.values():
        kept.close()
