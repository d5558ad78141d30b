"""Exercise 2's starting point: the teaching CDCL solver learning the decision cut.

On a conflict it learns "not all of these decisions" (every decision so far, negated)
and backtracks one level: right, but the clauses are long and say little. Grade it, and
your first-UIP version, with:
    sudokulab check-backend docs/course/code/decision_cut.py:DecisionCut -d easy50 --puzzles 20
"""

from __future__ import annotations

import time

from sudokulab import rules as R
from sudokulab.backends import cdcl
from sudokulab.backends.base import Backend, Deadline, interrupted
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, verdict


class DecisionCutSolver(cdcl.Solver):
    """Learns the negation of every decision on the trail."""

    def analyze(self, conflict: list[int]) -> tuple[list[int], int]:
        """The decision cut: the current level's decision first, then the others."""
        decisions = [self.trail[start] for start in self.levels]
        learnt = [-decisions[-1], *(-d for d in reversed(decisions[:-1]))]
        return learnt, len(self.levels) - 1


class CdclBackend(Backend):
    """A backend plugin around a cdcl.Solver class."""

    name = "course-cdcl"
    paradigm = "SAT: CNF + CDCL (course exercise)"
    supported_rules = R.RULE_TYPES
    solver_class: type[cdcl.Solver] = cdcl.Solver

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """The puzzle's CNF (models/cnf.py), solved by `solver_class`."""
        started = time.perf_counter()
        found: list = []
        try:
            found, complete, stats = cdcl.search(puzzle, limit, deadline.at, found=found,
                                                 solver_class=self.solver_class)
        except KeyboardInterrupt:  # Ctrl-C: keep the solutions found so far
            raise interrupted(found, limit) from None
        return verdict(found, limit, complete=complete, stats=stats,
                       solve_time=time.perf_counter() - started)


class DecisionCut(CdclBackend):
    """Exercise 2's engine: learning the decision cut."""

    name = "decision-cut"
    solver_class = DecisionCutSolver
