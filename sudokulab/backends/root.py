"""Root propagation, an engine option off by default: what an engine infers from the givens
before its first guess (the inference ladder's levels, `sudokulab ladder`).

An engine that has the option (`sat:root=yes`, `norvig:root=yes`, `prolog:root=yes`,
`dlx:root=yes`) returns its pencil marks where propagation stops as a Result: each cell's
candidates as a bitmask (bit d-1 for digit d), a decided cell keeping its digit alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from sudokulab.puzzle import Grid
from sudokulab.result import Result, Status, verdict


def marks_grid(marks: Sequence[int]) -> Grid:
    """The digits pencil marks decide: a cell with one candidate holds it, others are 0."""
    return tuple(m.bit_length() if m and not m & (m - 1) else 0 for m in marks)


def open_candidates(marks: Sequence[int]) -> int:
    """The candidates of the cells marks leave undecided (more than one digit), in all."""
    return sum(m.bit_count() for m in marks if m & (m - 1))


def root_result(marks: Sequence[int] | None, limit: int | None, started: float) -> Result:
    """The Result of propagation at the root, no guess: its marks decide every cell (the
    unique solution, as propagation only draws what every solution holds), reach a
    contradiction (None: no solution), or leave it STALLED with the cells decided."""
    took = time.perf_counter() - started
    if marks is None or not all(marks):
        return verdict((), limit, complete=True, solve_time=took,
                       message="propagation at the root reaches a contradiction")
    grid = marks_grid(marks)
    left = open_candidates(marks)
    if not left:
        return verdict((grid,), limit, complete=True, solve_time=took, stats={"candidates": 0})
    return Result(Status.STALLED, solve_time=took, partial=grid,
                  stats={"candidates": left, "decided": sum(map(bool, grid))},
                  message="propagation at the root stops here: no decision taken")
