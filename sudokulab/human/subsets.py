"""Subsets: naked and hidden pairs, triples and quadruples, and locked pairs and triples.

k cells of a unit whose candidates together are k digits hold those digits (naked); k
digits that together have k places in a unit fill those places (hidden).
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, cells_of, digits, latest
from sudokulab.human.step import Step, cells_text, digits_text, make

SIZE_NAMES = {2: "Pair", 3: "Triple", 4: "Quadruple"}


def naked(g: Candidates, size: int, locked: bool = False) -> Iterator[Step]:
    """Naked subsets of a size; locked ones lie in two units and clear both (HoDoKu's test)."""
    tables, cands, n = g.tables, g.cands, g.n
    technique = f"{'Locked' if locked else 'Naked'} {SIZE_NAMES[size]}"
    for u, group, mask in g.cached(f"naked{size}", lambda: _naked_sets(g, size)):
        common = set(tables.units_of[group[0]]).intersection(*(tables.units_of[c]
                                                            for c in group[1:]))
        if locked and (len(common) < 2 or min(common) != u):
            continue
        reach = common if locked else {u}
        gone = [(c, d) for v in sorted(reach) for c in tables.units[v]
                if c not in group and cands[c] & mask for d in digits(cands[c] & mask)]
        if gone and (not locked or _clears_both(gone, common, tables)):
            ds = digits_text(digits(mask))
            yield make(technique, n, f"{ds} in {cells_text(group, n)}",
                       eliminations=gone, cells=group, units=sorted(reach),
                       sentence=f"{cells_text(group, n)} can only hold {ds} between "
                       f"them, so no other cell of "
                       f"{' or '.join(tables.unit_names[v] for v in sorted(reach))} can.")


def _naked_sets(g: Candidates, size: int) -> list[tuple[int, tuple[int, ...], int]]:
    """(unit, cells, their digits) of every `size` cells of a unit with more blank cells that
    hold `size` digits between them: unit by unit, each unit's in the order of
    itertools.combinations (naked and locked subsets of a size share them). A unit's are
    kept while its candidates stay (`latest`)."""
    tables, cands, blanks = g.tables, g.cands, g.blanks
    out: list[tuple[int, tuple[int, ...], int]] = []
    for u, unit in enumerate(tables.units):
        if blanks[u] > size:
            known = _unit_memo(g, u)
            found = known.get(("naked", size))
            if found is None:
                found = known["naked", size] = _naked_in(u, unit, cands, size)
            out += found
    return out


def _unit_memo(g: Candidates, u: int) -> dict:
    """The subsets found so far among a unit's candidates as they are, by (kind, size)."""
    return latest(g.tables, ("subsets", u), g.tables.unit_items[u](g.cands), dict)


def _naked_in(u: int, unit: tuple[int, ...], cands: list[int],
              size: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """The naked sets of `size` cells of one unit (see _naked_sets)."""
    small = [(c, cands[c]) for c in unit if cands[c] and cands[c].bit_count() <= size]
    return tuple((u, group, mask) for group, mask in _within(small, size))


def _within(items: list[tuple[int, int]], size: int) -> list[tuple[tuple[int, ...], int]]:
    """(keys, union of their masks) of every `size` of the (key, mask) items whose masks have
    `size` bits together, in the order of itertools.combinations: a group grows only while
    its union stays within `size` bits (cells within size digits, digits within size places)."""
    found: list[tuple[tuple[int, ...], int]] = []
    if len(items) >= size:
        _grow(items, size, found, 0, (), 0)
    return found


def _grow(items: list[tuple[int, int]], size: int, found: list, start: int, group: tuple,
          union: int) -> None:
    """Add each later item that keeps the group within `size` bits; record full groups."""
    if len(group) == size:
        if union.bit_count() == size:
            found.append((group, union))
        return
    for k in range(start, len(items) - (size - len(group)) + 1):
        key, mask = items[k]
        wider = union | mask
        if wider.bit_count() <= size:
            _grow(items, size, found, k + 1, group + (key,), wider)


def _clears_both(gone: list[tuple[int, int]], common: set[int], tables) -> bool:
    """HoDoKu's test for a locked subset: it removes candidates in its box and, outside the
    box, in its line; one that clears only one of them is a naked subset there."""
    box = next((v for v in sorted(common) if tables.kinds[v] == "box"), min(common))
    inside = [box in tables.units_of[c] for c, _ in gone]
    return any(inside) and not all(inside)


def hidden(g: Candidates, size: int) -> Iterator[Step]:
    """Hidden subsets of a size."""
    tables, cands, n = g.tables, g.cands, g.n
    technique = f"Hidden {SIZE_NAMES[size]}"
    for u, group, union in _hidden_sets(g, size):
        mask = sum(1 << (d - 1) for d in group)
        cells = cells_of(union)
        gone = [(c, d) for c in cells for d in digits(cands[c] & ~mask)]
        if gone:
            ds = digits_text(group)
            yield make(technique, n, f"{ds} in {cells_text(cells, n)}",
                       eliminations=gone, cells=cells, units=[u],
                       sentence=f"In {tables.unit_names[u]}, {ds} fit only in "
                       f"{cells_text(cells, n)}, so those cells hold nothing else.")


def _hidden_sets(g: Candidates, size: int) -> Iterator[tuple[int, tuple[int, ...], int]]:
    """(unit, digits, their places) of every `size` digits whose 2 or more places each in a
    unit are `size` cells together: unit by unit, each unit's in the order of
    itertools.combinations; kept while the unit's candidates stay, as in _naked_sets."""
    for u, unit_mask in enumerate(g.tables.unit_masks):
        known = _unit_memo(g, u)
        found = known.get(("hidden", size))
        if found is None:
            found = known["hidden", size] = tuple(_hidden_in(g, unit_mask, size))
        yield from ((u, group, union) for group, union in found)


def _hidden_in(g: Candidates, unit_mask: int, size: int) -> list[tuple[tuple[int, ...], int]]:
    """The hidden sets of `size` digits of one unit (see _hidden_sets)."""
    where = g.where()
    few = []   # (digit, its places) of each digit with 2 to `size` places in the unit
    for d in range(1, g.n + 1):
        where_d = where[d - 1] & unit_mask
        if 2 <= where_d.bit_count() <= size:
            few.append((d, where_d))
    return _within(few, size)
