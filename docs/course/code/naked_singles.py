"""Exercise 1's starting point: Norvig's essay with rule (1) only (no hidden singles).

Grade it, and your version, with:
    sudokulab check-backend docs/course/code/naked_singles.py:NakedSingles -d easy50 --puzzles all
"""

from __future__ import annotations

import time

from sudokulab.backends.base import Backend, Deadline, interrupted
from sudokulab.backends.essay import UNITS_AND_PEERS, Essay, OutOfTime, Values
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, verdict


class NakedSinglesEssay(Essay):
    """The essay's propagation without rule (2): a unit's last place for a digit is not
    filled, unless rule (1) fills it."""

    def only_place(self, values: Values, s: str, d: str) -> Values | bool:
        """Rule (2), left out: only a unit with no place left for d is a contradiction."""
        for u in self.units[s]:
            if not any(d in values[s2] for s2 in u):
                self.failed = u
                return False
        return values


class EssayBackend(Backend):
    """A backend plugin around an Essay class: the contract's solve, limit and deadline."""

    name = "course-essay"
    paradigm = "propagation and search (course exercise)"
    supported_rules = UNITS_AND_PEERS
    essay_class: type[Essay] = Essay

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """parse_grid, then the search's solutions up to `limit`, before the deadline."""
        started = time.perf_counter()
        essay = self.essay_class(geometry(puzzle.box, puzzle.rules, puzzle.layout))
        essay.at = deadline.at
        solutions: list[tuple[int, ...]] = []
        complete = True
        try:
            for values in essay.solutions(essay.parse_grid(list(puzzle.givens))):
                solutions.append(essay.grid(values))
                if limit is not None and len(solutions) >= limit:
                    break
        except OutOfTime:
            complete = False
        except KeyboardInterrupt:  # Ctrl-C: keep the solutions found so far
            raise interrupted(solutions, limit) from None
        return verdict(solutions, limit, complete=complete, stats=essay.counts,
                       solve_time=time.perf_counter() - started)


class NakedSingles(EssayBackend):
    """Exercise 1's engine: rule (1) and search."""

    name = "naked-singles"
    essay_class = NakedSinglesEssay
