"""ALS-XZ: two almost locked sets joined by a restricted common digit.

An almost locked set (ALS) is k cells of one unit holding k+1 digits between them: take one
digit away and the rest is locked. Two ALSs A and B with a common digit x whose every copy
in A sees every copy in B cannot both hold x, so one of them is locked without x; then for
any other common digit z, one of them holds z, and a cell that sees every z of both loses it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudokulab.human.candidates import Candidates, cells_of, digits
from sudokulab.human.step import Step, cells_text, make

MOST_CELLS = 3  # bigger sets add little and cost much


def almost_locked_sets(g: Candidates) -> list[tuple[int, int]]:
    """(cells as a bitmask, candidate mask) of every ALS of up to MOST_CELLS cells."""
    lay, cands = g.layout, g.cands
    seen: dict[int, int] = {}
    for unit in lay.units:
        open_cells = [c for c in unit if cands[c]]
        for size in range(1, MOST_CELLS + 1):
            for group in combinations(open_cells, size):
                mask = 0
                for c in group:
                    mask |= cands[c]
                if mask.bit_count() == size + 1:
                    cells = 0
                    for c in group:
                        cells |= 1 << c
                    seen.setdefault(cells, mask)
    return list(seen.items())


def _seen(g: Candidates, cells: int, mask: int) -> dict[int, tuple[int, int]]:
    """Per digit of an ALS: (its cells holding the digit, the cells that see all of those)."""
    where, peers = g.where(), g.layout.peer_masks
    out = {}
    for d in digits(mask):
        holding = cells & where[d - 1]
        seen = -1
        for c in cells_of(holding):
            seen &= peers[c]
        out[d] = (holding, seen)
    return out


def als_xz(g: Candidates) -> Iterator[Step]:
    """Eliminations of ALS-XZ pairs."""
    n, where = g.n, g.where()
    sets = [(a, ma, _seen(g, a, ma)) for a, ma in almost_locked_sets(g)]
    for i, (a, ma, seen_a) in enumerate(sets):
        for b, mb, seen_b in sets[i + 1:]:
            common = ma & mb
            if common & (common - 1) == 0 or a & b:
                continue
            for x in digits(common):
                if seen_b[x][0] & ~seen_a[x][1]:
                    continue  # some x of B does not see every x of A: not restricted
                gone = []
                for z in digits(common & ~(1 << (x - 1))):
                    both = seen_a[z][1] & seen_b[z][1] & where[z - 1] & ~(a | b)
                    gone += [(c, z) for c in cells_of(both)]
                if gone:
                    yield make("ALS-XZ", n, f"A={cells_text(cells_of(a), n)} {{{_ds(ma)}}}, "
                               f"B={cells_text(cells_of(b), n)} {{{_ds(mb)}}}, X={x}",
                               eliminations=gone, cells=cells_of(a | b),
                               sentence=f"{cells_text(cells_of(a), n)} and "
                               f"{cells_text(cells_of(b), n)} each hold one digit more than "
                               f"cells; they cannot both hold {x}, so one of them is locked "
                               f"without it, and every other digit they share is in one of "
                               f"them.", length=4)


def _ds(mask: int) -> str:
    """'1,2,5'."""
    return ",".join(map(str, digits(mask)))
