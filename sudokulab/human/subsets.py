"""Subsets: naked and hidden pairs, triples and quadruples, and locked pairs and triples.

k cells of a unit whose candidates together are k digits hold those digits (naked); k
digits that together have k places in a unit fill those places (hidden).
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, cells_of, digits
from sudokulab.human.step import Step, cells_text, digits_text, make

SIZE_NAMES = {2: "Pair", 3: "Triple", 4: "Quadruple"}


def naked(g: Candidates, size: int, locked: bool = False) -> Iterator[Step]:
    """Naked subsets of a size; locked ones lie in two units and clear both (HoDoKu's test)."""
    lay, cands, n = g.layout, g.cands, g.n
    technique = f"{'Locked' if locked else 'Naked'} {SIZE_NAMES[size]}"
    for u, group, mask in g.cached(f"naked{size}", lambda: _naked_sets(g, size)):
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


def _naked_sets(g: Candidates, size: int) -> list[tuple[int, tuple[int, ...], int]]:
    """(unit, cells, their digits) of every `size` cells of a unit with more blank cells that
    hold `size` digits between them: unit by unit, each unit's in the order of
    itertools.combinations (naked and locked subsets of a size share them)."""
    lay, cands, blanks = g.layout, g.cands, g.blanks
    out: list[tuple[int, tuple[int, ...], int]] = []

    def grow(u: int, small: list[int], start: int, group: tuple, mask: int) -> None:
        """Add each later cell that keeps the group within `size` digits."""
        if len(group) == size:
            if mask.bit_count() == size:
                out.append((u, group, mask))
            return
        for k in range(start, len(small) - (size - len(group)) + 1):
            wider = mask | cands[small[k]]
            if wider.bit_count() <= size:
                grow(u, small, k + 1, group + (small[k],), wider)

    for u, unit in enumerate(lay.units):
        if blanks[u] <= size:
            continue
        small = [c for c in unit if cands[c] and cands[c].bit_count() <= size]
        if len(small) >= size:
            grow(u, small, 0, (), 0)
    return out


def _clears_both(gone: list[tuple[int, int]], common: set[int], lay) -> bool:
    """HoDoKu's test for a locked subset: it removes candidates in its box and, outside the
    box, in its line; one that clears only one of them is a naked subset there."""
    box = next((v for v in sorted(common) if lay.kinds[v] == "box"), min(common))
    inside = [box in lay.units_of[c] for c, _ in gone]
    return any(inside) and not all(inside)


def hidden(g: Candidates, size: int) -> Iterator[Step]:
    """Hidden subsets of a size."""
    lay, cands, n = g.layout, g.cands, g.n
    technique = f"Hidden {SIZE_NAMES[size]}"
    for u, group, union in _hidden_sets(g, size):
        mask = sum(1 << (d - 1) for d in group)
        cells = cells_of(union)
        gone = [(c, d) for c in cells for d in digits(cands[c] & ~mask)]
        if gone:
            ds = digits_text(group)
            yield make(technique, n, f"{ds} in {cells_text(cells, n)}",
                       eliminations=gone, cells=cells, units=[u],
                       sentence=f"In {lay.unit_names[u]}, {ds} fit only in "
                       f"{cells_text(cells, n)}, so those cells hold nothing else.")


def _hidden_sets(g: Candidates, size: int) -> Iterator[tuple[int, tuple[int, ...], int]]:
    """(unit, digits, their places) of every `size` digits whose 2 or more places each in a
    unit are `size` cells together: unit by unit, each unit's in the order of
    itertools.combinations."""
    found: list[tuple[int, tuple[int, ...], int]] = []

    def grow(u: int, places: list[tuple[int, int]], start: int, group: tuple,
             union: int) -> None:
        """Add each later digit that keeps the group within `size` places."""
        if len(group) == size:
            if union.bit_count() == size:
                found.append((u, group, union))
            return
        for k in range(start, len(places) - (size - len(group)) + 1):
            d, where_d = places[k]
            wider = union | where_d
            if wider.bit_count() <= size:
                grow(u, places, k + 1, group + (d,), wider)

    for u, places in enumerate(g.cached("unit places", lambda: _unit_places(g))):
        places = [(d, where_d) for d, where_d, count in places if count <= size]
        if len(places) >= size:
            found.clear()
            grow(u, places, 0, (), 0)
            yield from found


def _unit_places(g: Candidates) -> list[list[tuple[int, int, int]]]:
    """Per unit, (digit, its places as a bitmask, how many) of each digit with 2 or more."""
    where, n = g.where(), g.n
    out = []
    for unit_mask in g.layout.unit_masks:
        unit = []
        for d in range(1, n + 1):
            where_d = where[d - 1] & unit_mask
            count = where_d.bit_count()
            if count >= 2:
                unit.append((d, where_d, count))
        out.append(unit)
    return out
