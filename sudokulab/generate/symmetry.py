"""Symmetries of the givens: which cells must be given or blank together (orbits)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

Map = Callable[[int, int, int], tuple[int, int]]  # (row, col, n) -> (row, col)

# Each symmetry is the group of cell maps that generate it.
SYMMETRIES: dict[str, tuple[Map, ...]] = {
    "none": (),
    "rotational": (lambda r, c, n: (n - 1 - r, n - 1 - c),),           # half turn
    "quarter": (lambda r, c, n: (c, n - 1 - r),),                       # quarter turns
    "diagonal": (lambda r, c, n: (c, r),),                              # main diagonal
    "antidiagonal": (lambda r, c, n: (n - 1 - c, n - 1 - r),),
    "mirror": (lambda r, c, n: (r, n - 1 - c),),                        # left and right
    "flip": (lambda r, c, n: (n - 1 - r, c),),                          # top and bottom
    "both-mirrors": (lambda r, c, n: (r, n - 1 - c), lambda r, c, n: (n - 1 - r, c)),
    "both-diagonals": (lambda r, c, n: (c, r), lambda r, c, n: (n - 1 - c, n - 1 - r)),
    "full": (lambda r, c, n: (c, n - 1 - r), lambda r, c, n: (c, r)),   # all eight
}


@cache
def orbits(symmetry: str, n: int) -> tuple[tuple[int, ...], ...]:
    """The cells of an N x N grid grouped by the symmetry, each group sorted, in cell order."""
    maps = SYMMETRIES[symmetry]
    seen: set[int] = set()
    groups = []
    for cell in range(n * n):
        if cell in seen:
            continue
        group, todo = {cell}, [cell]
        while todo:
            r, c = divmod(todo.pop(), n)
            for move in maps:
                other = move(r, c, n)
                index = other[0] * n + other[1]
                if index not in group:
                    group.add(index)
                    todo.append(index)
        seen |= group
        groups.append(tuple(sorted(group)))
    return tuple(groups)
