"""The rule of 45: cages that a killer puzzle implies without drawing them.

Every unit holds each digit once, so its digits add up to 1 + 2 + ... + N (45 in a 9x9).
Take away the cages that lie wholly inside the unit: the unit's other cells hold distinct
digits (they share the unit) adding up to what is left, so they are one more cage. Killer
players call them "innies"; in a puzzle whose cages cover the grid, a row often has two
or three cells left over, and their sum is a strong clue that no drawn cage gives.

The implied cages are sound (every solution fills them) and are plain `Cage` data, so
each backend compiles them exactly as it compiles the drawn ones. On the hard puzzles of
krazydad's killer collection they cut norvig's search nodes about 20-fold
(results/corners.md).
"""

from __future__ import annotations

from functools import lru_cache

from sudokulab import rules as R
from sudokulab.geometry import Geometry


@lru_cache(maxsize=64)
def implied_cages(geo: Geometry) -> tuple[R.Cage, ...]:
    """For each unit, the cells outside the cages inside it, as a cage with their total.

    A unit with no cage inside, or with cages covering it all, implies nothing; neither
    does one whose leftover cells repeat a cage already drawn. Where drawn cages overlap,
    only cages apart from those already taken are taken away.
    """
    n = geo.n
    whole = n * (n + 1) // 2
    cages = [(frozenset(geo.cell(*c) for c in cage.cells), cage.total) for cage in geo.cages]
    drawn = {cells for cells, _ in cages}
    implied: dict[frozenset[int], int] = {}
    for unit in geo.units:
        rest, total = frozenset(unit), whole
        for cells, cage_total in cages:
            if cells <= rest:  # inside the unit, and apart from the cages taken (they may overlap)
                rest, total = rest - cells, total - cage_total
        if len(rest) < len(unit) and rest and rest not in drawn:
            implied[rest] = total
    return tuple(R.Cage(tuple(divmod(cell, n) for cell in sorted(cells)), total)
                 for cells, total in implied.items())


def all_cages(geo: Geometry) -> tuple[R.Cage, ...]:
    """The drawn cages, then the implied ones."""
    return geo.cages + implied_cages(geo) if geo.cages else ()


@lru_cache(maxsize=1024)
def digit_sets(size: int, total: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Every set of `size` distinct digits from 1..n adding up to `total`, each ascending,
    in lexicographic order (the digit sets a cage of `size` cells may hold)."""
    def sets(low: int, size: int, total: int):
        if not size:
            if not total:
                yield ()
            return
        # the largest sum the other size - 1 digits can make: n, n - 1, ...
        largest_rest = (size - 1) * n - (size - 1) * (size - 2) // 2
        for d in range(low, n + 1):
            if d * size + size * (size - 1) // 2 > total:
                break  # d and the next size - 1 digits already add up to too much
            if total - d <= largest_rest:
                for rest in sets(d + 1, size - 1, total - d):
                    yield (d, *rest)
    return tuple(sets(1, size, total))
