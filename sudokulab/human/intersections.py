"""Intersections: locked candidates (pointing and claiming).

A digit confined, inside one unit, to cells that also lie in a second unit must go in
those cells, so the second unit's other cells lose it. Pointing starts from a box (or a
region, window or diagonal), claiming from a row or a column.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, cells_of, latest
from sudokulab.human.singles import unit_short
from sudokulab.human.step import Step, make


def _locked(g: Candidates, pointing: bool) -> Iterator[Step]:
    """Locked candidates starting from boxes (pointing) or from lines (claiming), unit by
    unit. Each digit's are kept while its places stay (they read nothing else), so a digit
    a step left alone is not searched again; merged here into the order of units, and made
    steps only as they are taken (a path takes the first)."""
    where = g.where()
    hits: list[tuple[int, ...]] = []
    for d in range(1, g.n + 1):   # one memo entry a digit for both kinds: {kind: hits}
        known: dict[bool, tuple] = latest(g.tables, ("locked", d), where[d - 1], dict)
        found = known.get(pointing)
        if found is None:
            found = known[pointing] = _digit_locked(g, d, pointing)
        hits += found
    hits.sort()   # by (unit, digit, crossing unit's rank): a search unit by unit
    for u, d, _, v, places, gone in hits:
        yield _step(g, pointing, u, d, v, places, gone)


def _digit_locked(g: Candidates, d: int, pointing: bool) -> tuple[tuple[int, ...], ...]:
    """(unit, digit, crossing unit's rank, crossing unit, places, what goes) of each locked
    candidate of one digit: numbers only, which the garbage collector leaves alone."""
    tables, places_d = g.tables, g.where()[d - 1]
    masks, crossing = tables.unit_masks, _crossing(tables)
    out = []
    for u, unit_mask in enumerate(masks):
        if (tables.kinds[u] in ("row", "col")) == pointing:
            continue
        places = places_d & unit_mask
        if places.bit_count() < 2:
            continue
        for k, v in enumerate(crossing[u][(places & -places).bit_length() - 1]):
            if places & ~masks[v]:
                continue  # not all of the digit's places lie in v
            gone = places_d & masks[v] & ~places
            if gone:
                out.append((u, d, k, v, places, gone))
    return tuple(out)


def _step(g: Candidates, pointing: bool, u: int, d: int, v: int, places: int,
          gone: int) -> Step:
    """The Step of one locked candidate: d, in unit u, only in places, all in unit v."""
    tables = g.tables
    technique = ("Locked Candidates Type 1 (Pointing)" if pointing
                 else "Locked Candidates Type 2 (Claiming)")
    return make(technique, g.n, f"{d} in {unit_short(tables, u)}",
                eliminations=[(c, d) for c in cells_of(gone)],
                cells=cells_of(places), units=[u, v],
                sentence=f"In {tables.unit_names[u]}, {d} can only go in "
                f"{tables.unit_names[v]}, so the rest of {tables.unit_names[v]} "
                f"cannot hold {d}.")


def _crossing(tables) -> list[dict[int, tuple[int, ...]]]:
    """Per unit, per cell of it: the crossing units that hold the cell (in `crossing` order),
    the only ones that can hold all of a digit's places there (kept in the tables' memo)."""
    table = tables.memo.get(_crossing)
    if table is None:
        table = tables.memo[_crossing] = [
            {c: tuple(v for v in tables.crossing[u] if tables.unit_masks[v] >> c & 1) for c in unit}
            for u, unit in enumerate(tables.units)]
    return table


def pointing(g: Candidates) -> Iterator[Step]:
    """Locked Candidates Type 1: a box's digit confined to one line."""
    return _locked(g, True)


def claiming(g: Candidates) -> Iterator[Step]:
    """Locked Candidates Type 2: a line's digit confined to one box."""
    return _locked(g, False)
