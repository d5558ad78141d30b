"""Solver correction: a puzzle read with no solution or several is read again, differently.

A newspaper puzzle has exactly one solution, so a reading without one holds a misread
cell. The classifier ranks other readings of each digit cell (its next most likely digits,
or a blank: a blot read as a digit); the cheapest change costs the log of how much less
likely the classifier finds the new reading than the first. Sets of changes are tried
best-first, the most likely whole reading first, among the least confident cells and the
cells in a clash (a digit twice in a unit), within a time bound: norvig (fast) counts the
solutions of each, and the first with exactly one wins. Its solution is then confirmed by
an engine of another paradigm (sat), as crosscheck.py does for every answer.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass

import numpy as np

from sudokulab.puzzle import Puzzle

CELLS = 12          # the least confident digit cells whose other readings are tried...
OPTIONS = 4         # ...each with this many other readings at most
LEAST = 1e-4        # a reading the classifier gives less than this is not tried
BLANK = 0.01        # the chance that a digit cell holds no digit (a blot, a line's piece)
CHANGES = 4         # at most this many cells read otherwise
SECONDS = 1.0       # the search's time bound
TRIES = 2000        # and its bound in readings tried


@dataclass(frozen=True)
class Change:
    """One cell read otherwise: what was first seen there and what is read now (0: blank)."""

    cell: int
    first: int
    now: int
    chance: float   # the classifier's probability of the reading now (BLANK for a blank)


@dataclass(frozen=True)
class Correction:
    """The reading kept: its puzzle, the changes, how much less likely the classifier
    found it than the first reading, and how many readings were tried to find it."""

    puzzle: Puzzle
    changes: tuple[Change, ...]
    odds: float
    tried: int


def options(puzzle: Puzzle, confidence: tuple[float, ...], likelihood: np.ndarray
            ) -> list[tuple[float, Change]]:
    """Each other reading worth trying with its cost, cheapest first."""
    givens = puzzle.givens
    digits = [i for i, d in enumerate(givens) if d]
    clashing = set(clashes(puzzle))
    chosen = set(sorted(digits, key=lambda i: confidence[i])[:CELLS]) | clashing
    found = []
    for cell in chosen:
        p = likelihood[cell]
        first = float(p[givens[cell] - 1]) if p.any() else confidence[cell]
        others = [(float(p[d]), int(d) + 1) for d in np.argsort(p)[::-1]
                  if d + 1 != givens[cell] and p[d] >= LEAST][:OPTIONS - 1]
        for chance, digit in [*others, (BLANK, 0)]:
            cost = math.log(max(first, LEAST)) - math.log(chance)
            found.append((max(cost, 0.0), Change(cell, givens[cell], digit, chance)))
    return sorted(found, key=lambda option: (option[0], option[1].cell, option[1].now))


def clashes(puzzle: Puzzle) -> list[int]:
    """The cells whose digit another cell of one of their units holds too."""
    from sudokulab.geometry import geometry

    givens = puzzle.givens
    cells: set[int] = set()
    for unit in geometry(puzzle.box).units:
        seen: dict[int, int] = {}
        for cell in unit:
            digit = givens[cell]
            if digit and digit in seen:
                cells.update((cell, seen[digit]))
            elif digit:
                seen[digit] = cell
    return sorted(cells)


def correct(puzzle: Puzzle, confidence: tuple[float, ...], likelihood: np.ndarray | None,
            counter, *, seconds: float = SECONDS) -> Correction | None:
    """The most likely reading with exactly one solution (counted by `counter`, a
    backend), within the bounds; None if none was found."""
    from sudokulab.result import Status

    if likelihood is None:
        return None
    tried = options(puzzle, confidence, likelihood)
    costs = [cost for cost, _ in tried]
    deadline, count = time.monotonic() + seconds, 0
    heap: list[tuple[float, tuple[int, ...]]] = [(costs[0], (0,))] if tried else []
    while heap and count < TRIES and time.monotonic() < deadline:
        cost, picked = heapq.heappop(heap)
        last = picked[-1]
        if last + 1 < len(tried):  # every set is reached once: swap the last, or add one
            heapq.heappush(heap, (cost - costs[last] + costs[last + 1], picked[:-1] + (last + 1,)))
            if len(picked) < CHANGES:
                heapq.heappush(heap, (cost + costs[last + 1], picked + (last + 1,)))
        changes = [tried[k][1] for k in picked]
        if len({c.cell for c in changes}) < len(changes):
            continue
        values = list(puzzle.givens)
        for change in changes:
            values[change.cell] = change.now
        candidate = puzzle.with_values(values)
        if clashes(candidate):
            continue
        count += 1
        if counter.solve(candidate, limit=2).status == Status.UNIQUE:
            ordered = tuple(sorted(changes, key=lambda c: c.cell))
            return Correction(candidate, ordered, math.exp(-cost), count)
    return None
