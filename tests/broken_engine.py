"""Engines broken on purpose, for `sudokulab check-backend` to fail (its tests are in
tests/test_classic_algorithms.py).

- RepeatsADigit: solves with norvig, then writes the first blank's digit into the second
  blank cell of the same row: a grid with a digit twice in a row, as a student's engine
  with a wrong elimination would return.
- IgnoresRules: solves the puzzle as if it had no variant rules (an engine that forgets a
  rule it claims to support).
"""

from __future__ import annotations

from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.backends.base import Backend, Deadline
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, verdict


class RepeatsADigit(Backend):
    """A backend whose grids repeat a digit in a row."""

    name = "repeats-a-digit"
    paradigm = "broken on purpose"
    supported_rules = R.RULE_TYPES

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """norvig's answer with one cell spoilt."""
        right = make_backend("norvig").solve(puzzle, limit=limit, timeout=deadline.left())
        n = puzzle.n
        spoilt = []
        for grid in right.solutions:
            grid = list(grid)
            blanks = [cell for cell in range(n) if not puzzle.givens[cell]]
            if len(blanks) >= 2:
                grid[blanks[1]] = grid[blanks[0]]
            spoilt.append(tuple(grid))
        return verdict(spoilt, limit, complete=right.exact or right.status.value != "timeout")


class IgnoresRules(Backend):
    """A backend that claims every rule and solves as if there were none."""

    name = "ignores-rules"
    paradigm = "broken on purpose"
    supported_rules = R.RULE_TYPES

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """norvig's answer to the puzzle without its rules."""
        return make_backend("norvig").solve(puzzle.with_rules(()), limit=limit,
                                            timeout=deadline.left())
