"""Subsets: naked and hidden pairs, triples and quadruples, and locked pairs and triples.

k cells of a unit whose candidates together are k digits hold those digits (naked); k
digits that together have k places in a unit fill those places (hidden).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudokulab.human.candidates import Candidates, cells_of, digits
from sudokulab.human.step import Step, cells_text, digits_text, make

SIZE_NAMES = {2: "Pair", 3: "Triple", 4: "Quadruple"}


def naked(g: Candidates, size: int, locked: bool = False) -> Iterator[Step]:
    """Naked subsets of a size; locked ones lie in two units and clear both (HoDoKu's test)."""
    lay, cands, n, blanks = g.layout, g.cands, g.n, g.blanks
    technique = f"{'Locked' if locked else 'Naked'} {SIZE_NAMES[size]}"
    for u, unit in enumerate(lay.units):
        if blanks[u] <= size:
            continue
        small = [c for c in unit if cands[c] and cands[c].bit_count() <= size]
        if len(small) < size:
            continue
        for group in combinations(small, size):
            mask = 0
            for c in group:
                mask |= cands[c]
            if mask.bit_count() != size:
                continue
            common = set(lay.units_of[group[0]]).intersection(*(lay.units_of[c]
                                                                for c in group[1:]))
            if locked and (len(common) < 2 or min(common) != u):
                continue
            reach = common if locked else {u}
            gone = [(c, d) for v in sorted(reach) for c in lay.units[v]
                    if c not in group and cands[c] & mask for d in digits(cands[c] & mask)]
            if gone and (not locked or _clears_both(gone, common, lay)):
                ds = digits_text(digits(mask))
                yield make(technique, n, f"{ds} in {cells_text(group, n)}",
                           eliminations=gone, cells=group, units=sorted(reach),
                           sentence=f"{cells_text(group, n)} can only hold {ds} between "
                           f"them, so no other cell of "
                           f"{' or '.join(lay.unit_names[v] for v in sorted(reach))} can.")


def _clears_both(gone: list[tuple[int, int]], common: set[int], lay) -> bool:
    """HoDoKu's test for a locked subset: it removes candidates in its box and, outside the
    box, in its line; one that clears only one of them is a naked subset there."""
    box = next((v for v in sorted(common) if lay.kinds[v] == "box"), min(common))
    inside = [box in lay.units_of[c] for c, _ in gone]
    return any(inside) and not all(inside)


def hidden(g: Candidates, size: int) -> Iterator[Step]:
    """Hidden subsets of a size."""
    lay, cands, n, where = g.layout, g.cands, g.n, g.where()
    technique = f"Hidden {SIZE_NAMES[size]}"
    for u, unit_mask in enumerate(lay.unit_masks):
        places = {}   # digit: its places in the unit, as a bitmask, if 2 to `size` of them
        for d in range(1, n + 1):
            where_d = where[d - 1] & unit_mask
            if 2 <= where_d.bit_count() <= size:
                places[d] = where_d
        if len(places) < size:
            continue
        for group in combinations(places, size):
            union = 0
            for d in group:
                union |= places[d]
            if union.bit_count() != size:
                continue
            mask = sum(1 << (d - 1) for d in group)
            cells = cells_of(union)
            gone = [(c, d) for c in cells for d in digits(cands[c] & ~mask)]
            if gone:
                ds = digits_text(group)
                yield make(technique, n, f"{ds} in {cells_text(cells, n)}",
                           eliminations=gone, cells=cells, units=[u],
                           sentence=f"In {lay.unit_names[u]}, {ds} fit only in "
                           f"{cells_text(cells, n)}, so those cells hold nothing else.")
