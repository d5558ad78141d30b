"""Pencil marks: the digits each cell may hold from what its givens and rules show directly.

Above the geometry and the cage arithmetic (it uses both), so neither imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sudokulab import rules as R
from sudokulab.cages import digit_sets
from sudokulab.geometry import geometry

if TYPE_CHECKING:
    from sudokulab.puzzle import Puzzle


def pencil_marks(puzzle: Puzzle) -> list[list[int]]:
    """Each cell's candidates: its given, or the digits the givens and rules leave open.

    Peers (units, cages, chess moves) remove a given's digit; non-consecutive removes its
    neighbours' digits from orthogonal cells; parity and cage sums keep only digits that
    can still fit. Only what the givens show directly: no search, no deduction chains.
    """
    n, givens = puzzle.n, puzzle.givens
    geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
    marks = [{d} if d else set(range(1, n + 1)) for d in givens]
    for cell, d in enumerate(givens):
        if d:
            for peer in geo.peers[cell]:
                if not givens[peer]:
                    marks[peer].discard(d)
    for a, b in geo.pairs(R.NonConsecutive):
        for x, y in ((a, b), (b, a)):
            if givens[x] and not givens[y]:
                marks[y] -= {givens[x] - 1, givens[x] + 1}
    for rule in puzzle.rules:
        if isinstance(rule, R.Parity):
            for cell in geo.indices(rule.cells):
                if not givens[cell]:
                    marks[cell] = {d for d in marks[cell] if (d % 2 == 0) == rule.even}
        elif isinstance(rule, R.Cage) and len(rule.cells) <= 9:
            cells = geo.indices(rule.cells)
            placed = {givens[c] for c in cells if givens[c]}
            fits = {d for digits in digit_sets(len(cells), rule.total, n)
                    if placed <= set(digits) for d in digits}
            for cell in cells:
                if not givens[cell]:
                    marks[cell] &= fits - placed
    return [sorted(m) for m in marks]
