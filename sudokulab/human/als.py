"""ALS-XZ: two almost locked sets joined by a restricted common digit.

An almost locked set (ALS) is k cells of one unit holding k+1 digits between them: take one
digit away and the rest is locked. Two ALSs A and B with a common digit x whose every copy
in A sees every copy in B cannot both hold x, so one of them is locked without x; then for
any other common digit z, one of them holds z, and a cell that sees every z of both loses it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudokulab.human.candidates import Candidates, digits
from sudokulab.human.step import Step, cells_text, make

MOST_CELLS = 3  # bigger sets add little and cost much


def almost_locked_sets(g: Candidates) -> list[tuple[frozenset[int], int]]:
    """(cells, candidate mask) of every ALS of up to MOST_CELLS cells."""
    lay, cands = g.layout, g.cands
    seen: dict[frozenset[int], int] = {}
    for unit in lay.units:
        open_cells = [c for c in unit if cands[c]]
        for size in range(1, MOST_CELLS + 1):
            for group in combinations(open_cells, size):
                mask = 0
                for c in group:
                    mask |= cands[c]
                if mask.bit_count() == size + 1:
                    seen.setdefault(frozenset(group), mask)
    return list(seen.items())


def als_xz(g: Candidates) -> Iterator[Step]:
    """Eliminations of ALS-XZ pairs."""
    lay, cands, n = g.layout, g.cands, g.n
    sets = g.cached("als", lambda: almost_locked_sets(g))
    for i, (a, ma) in enumerate(sets):
        for b, mb in sets[i + 1:]:
            common = ma & mb
            if common & (common - 1) == 0 or a & b:
                continue
            for x in digits(common):
                bx = 1 << (x - 1)
                xa = [c for c in a if cands[c] & bx]
                xb = [c for c in b if cands[c] & bx]
                if not all(q in lay.peers[p] for p in xa for q in xb):
                    continue
                gone = []
                for z in digits(common & ~bx):
                    bz = 1 << (z - 1)
                    zs = [c for c in a | b if cands[c] & bz]
                    seen = lay.peers[zs[0]].intersection(*(lay.peers[c] for c in zs[1:]))
                    gone += [(c, z) for c in seen - a - b if cands[c] & bz]
                if gone:
                    yield make("ALS-XZ", n, f"A={cells_text(a, n)} {{{_ds(ma)}}}, "
                               f"B={cells_text(b, n)} {{{_ds(mb)}}}, X={x}",
                               eliminations=gone, cells=sorted(a | b),
                               sentence=f"{cells_text(a, n)} and {cells_text(b, n)} each hold "
                               f"one digit more than cells; they cannot both hold {x}, so one "
                               f"of them is locked without it, and every other digit they "
                               f"share is in one of them.", length=4)


def _ds(mask: int) -> str:
    """'1,2,5'."""
    return ",".join(map(str, digits(mask)))
