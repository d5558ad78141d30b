"""Intersections: locked candidates (pointing and claiming).

A digit confined, inside one unit, to cells that also lie in a second unit must go in
those cells, so the second unit's other cells lose it. Pointing starts from a box (or a
region, window or diagonal), claiming from a row or a column.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter

from sudokulab.human.candidates import Candidates, cells_of, remembered
from sudokulab.human.singles import unit_short
from sudokulab.human.step import Step, make


def _locked(g: Candidates, pointing: bool) -> Iterator[Step]:
    """Locked candidates starting from boxes (pointing) or from lines (claiming), unit by
    unit. Each digit's are remembered by its places (they read nothing else), so a digit a
    step left alone is not searched again; merged here into the order of units."""
    where = g.where()
    hits: list[tuple[tuple, Step]] = []
    for d in range(1, g.n + 1):   # one memo entry a digit for both kinds: {kind: hits}
        known: dict[bool, list] = remembered(g.tables, (_locked, d, where[d - 1]), dict)
        found = known.get(pointing)
        if found is None:
            found = known[pointing] = _digit_locked(g, d, pointing)
        hits += found
    hits.sort(key=itemgetter(0))   # by (unit, digit, crossing unit): a search unit by unit
    for _, step in hits:
        yield step


def _digit_locked(g: Candidates, d: int, pointing: bool) -> list[tuple[tuple, Step]]:
    """((unit, digit, crossing unit's rank), step) of each locked candidate of one digit."""
    tables, n, places_d = g.tables, g.n, g.where()[d - 1]
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
                technique = ("Locked Candidates Type 1 (Pointing)" if pointing
                             else "Locked Candidates Type 2 (Claiming)")
                out.append(((u, d, k), make(
                    technique, n, f"{d} in {unit_short(tables, u)}",
                    eliminations=[(c, d) for c in cells_of(gone)],
                    cells=cells_of(places), units=[u, v],
                    sentence=f"In {tables.unit_names[u]}, {d} can only go in "
                    f"{tables.unit_names[v]}, so the rest of {tables.unit_names[v]} "
                    f"cannot hold {d}.")))
    return out


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
