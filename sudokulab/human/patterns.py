"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle.

A strong link: a digit with exactly two places in a unit (one of them holds it). Two
strong links whose inner ends see each other make a chain x = p - q = z: x or z holds the
digit, so a cell that sees both loses it. Its shape names it: two parallel lines is a
Skyscraper, a row and a column meeting in a box a 2-String Kite, anything else a Turbot Fish.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import (
    Candidates,
    Tables,
    cells_of,
    latest,
    line_masks,
    per_digit,
)
from sudokulab.human.step import Step, cells_text, make, name


def strong_links(g: Candidates, d: int) -> tuple[tuple[int, int, int], ...]:
    """(a, b, unit) for every unit where d has exactly two places, a < b, each pair once;
    kept while the digit's places stay (several techniques ask, step after step)."""
    where = g.where()[d - 1]
    return latest(g.tables, ("strong links", d), where, _strong_links, g.tables, where)


def _strong_links(tables: Tables, where: int) -> tuple[tuple[int, int, int], ...]:
    """strong_links of a digit's places, found."""
    seen, out = set(), []
    for u, mask in enumerate(tables.unit_masks):
        places = where & mask
        if places.bit_count() == 2 and places not in seen:
            seen.add(places)
            low = places & -places
            out.append((low.bit_length() - 1, places.bit_length() - 1, u))
    return tuple(out)


def shape(g: Candidates, u1: int, u2: int, p: int, q: int) -> str:
    """The pattern's name from the kinds of its two strong links and how p meets q."""
    tables, n = g.tables, g.n
    k1, k2 = tables.kinds[u1], tables.kinds[u2]
    if k1 == k2 == "row" and p % n == q % n:
        return "Skyscraper"
    if k1 == k2 == "col" and p // n == q // n:
        return "Skyscraper"
    if {k1, k2} == {"row", "col"} and tables.box_of[p] == tables.box_of[q] != -1:
        return "2-String Kite"
    return "Turbot Fish"


def _single_digit(g: Candidates, d: int) -> Iterator[tuple[str, Step]]:
    """(shape, step) of every Skyscraper, 2-String Kite and Turbot Fish of one digit."""
    tables, cands, n = g.tables, g.cands, g.n
    peers = tables.peers
    b = 1 << (d - 1)
    links = strong_links(g, d)
    for i, (a1, b1, u1) in enumerate(links):
        for a2, b2, u2 in links[i + 1:]:
            for x, p in ((a1, b1), (b1, a1)):
                for q, z in ((a2, b2), (b2, a2)):
                    if len({x, p, q, z}) < 4 or q not in peers[p]:
                        continue
                    found = shape(g, u1, u2, p, q)
                    gone = [(c, d) for c in peers[x] & peers[z]
                            if cands[c] & b and c not in (p, q)]
                    if gone:
                        step = make(found, n, f"{d} in {name(x, n)},{name(z, n)} "
                                    f"(connected by {name(p, n)},{name(q, n)})",
                                    eliminations=gone, cells=[x, p, q, z], units=[u1, u2],
                                    links=[((x, d), (p, d), True), ((p, d), (q, d), False),
                                           ((q, d), (z, d), True)],
                                    sentence=f"{d} is in {name(x, n)} or {name(p, n)}, and "
                                    f"in {name(q, n)} or {name(z, n)}; {name(p, n)} and "
                                    f"{name(q, n)} cannot both hold it, so {name(x, n)} or "
                                    f"{name(z, n)} does: cells that see both lose {d}.",
                                    length=3)
                        yield found, step


_every_digit = per_digit(_single_digit)


def single_digit(g: Candidates, wanted: str) -> Iterator[Step]:
    """The Skyscrapers, 2-String Kites or Turbot Fish (as `wanted` says)."""
    return (step for found, step in _every_digit(g) if found == wanted)


def skyscraper(g: Candidates) -> Iterator[Step]:
    """Two strong links in parallel lines, with bases in one cross line."""
    return single_digit(g, "Skyscraper")


def kite(g: Candidates) -> Iterator[Step]:
    """A strong link in a row and one in a column, meeting in a box."""
    return single_digit(g, "2-String Kite")


def turbot(g: Candidates) -> Iterator[Step]:
    """Any other strong - weak - strong chain of one digit."""
    return single_digit(g, "Turbot Fish")


def _empty_rectangle(g: Candidates, d: int) -> Iterator[Step]:
    """A box whose places for a digit lie in one row and one column of it (the cross), and a
    strong link in a line that meets the cross's row (or column) outside the box."""
    tables, n = g.tables, g.n
    where = g.where()[d - 1]
    rows_at, cols_at = line_masks(n)
    for u, unit in enumerate(tables.units):
        if tables.kinds[u] != "box":
            continue
        places = where & tables.unit_masks[u]
        if places.bit_count() < 2:
            continue
        rows = {c // n for c in unit}
        cols = {c % n for c in unit}
        for r in rows:
            for c in cols:
                on_row, on_col = places & rows_at[r], places & cols_at[c]
                if places & ~(on_row | on_col):
                    continue
                if not on_row & ~on_col or not on_col & ~on_row:
                    continue  # all in one line: locked candidates, not an ER
                yield from _er_links(g, d, where, u, cells_of(places), r, c, rows, cols)


empty_rectangle = per_digit(_empty_rectangle)


def _er_links(g, d, where, u, cells, r, c, rows, cols) -> Iterator[Step]:
    """Empty rectangle eliminations through strong links in columns and rows."""
    n, unit = g.n, g.tables.unit_masks[u]
    rows_at, cols_at = line_masks(n)
    for col in range(n):  # a strong link in a column, one end in row r
        ends = where & cols_at[col]
        if col in cols or ends.bit_count() != 2 or not ends >> (r * n + col) & 1:
            continue
        other = ((ends & ~(1 << (r * n + col))).bit_length() - 1) // n
        target = other * n + c
        if other not in rows and not unit >> target & 1 and where >> target & 1:
            yield _er_step(g, d, u, cells, [r * n + col, other * n + col], target)
    for row in range(n):  # a strong link in a row, one end in column c
        ends = where & rows_at[row]
        if row in rows or ends.bit_count() != 2 or not ends >> (row * n + c) & 1:
            continue
        other = (ends & ~(1 << (row * n + c))).bit_length() - 1 - row * n
        target = r * n + other
        if other not in cols and not unit >> target & 1 and where >> target & 1:
            yield _er_step(g, d, u, cells, [row * n + c, row * n + other], target)


def _er_step(g, d, u, cells, link, target) -> Step:
    """The Step of one empty rectangle."""
    n = g.n
    boxes = [k for k, kind in enumerate(g.tables.kinds) if kind == "box"]
    box = boxes.index(u) + 1
    return make("Empty Rectangle", n, f"{d} in b{box} ({cells_text(link, n)})",
                eliminations=[(target, d)], cells=cells + link, units=[u],
                sentence=f"In {g.tables.unit_names[u]}, {d} lies in one row or one column of "
                f"the box; with the strong link {cells_text(link, n)} either way "
                f"{name(target, n)} cannot hold {d}.", length=3)


def dual_kite(g: Candidates) -> Iterator[Step]:
    """Two 2-String Kites on the same two box cells, each the other's row and column end:
    one step with both eliminations (HoDoKu's Dual 2-String Kite). HoDoKu pairs kites by
    their box cells alone, so the two may be of different digits (each kite stands alone)."""
    n = g.n
    kites: dict[frozenset[int], list[Step]] = {}
    for step in kite(g):
        x, p, q, z = step.cells
        kites.setdefault(frozenset((p, q)), []).append(step)
    for box_cells, found in kites.items():
        for first, second in ((a, b) for i, a in enumerate(found) for b in found[i + 1:]):
            if set(first.eliminations) == set(second.eliminations):
                continue
            ends = [first.cells[0], first.cells[3], second.cells[0], second.cells[3]]
            d, e = first.eliminations[0][1], second.eliminations[0][1]
            digits = f"{d}" if d == e else f"{d}/{e}"
            yield make("Dual 2-String Kite", n, f"{digits} in {cells_text(ends, n)} "
                       f"(connected by {cells_text(box_cells, n)})",
                       eliminations=first.eliminations + second.eliminations,
                       cells=first.cells + second.cells, units=first.units + second.units,
                       links=first.links + second.links,
                       sentence=f"Two 2-String Kites of {digits} share the box cells "
                       f"{cells_text(box_cells, n)}: each end pair holds its digit once, so "
                       f"cells that see both ends of either kite lose it.", length=3)


def dual_empty_rectangle(g: Candidates) -> Iterator[Step]:
    """Two Empty Rectangles of one digit in the same box, through two strong links, with
    different eliminations: one step with both (HoDoKu's Dual Empty Rectangle)."""
    n = g.n
    boxes: dict[tuple[int, int], list[Step]] = {}
    for step in empty_rectangle(g):
        boxes.setdefault((step.eliminations[0][1], step.units[0]), []).append(step)
    for (d, u), found in boxes.items():
        for first, second in ((a, b) for i, a in enumerate(found) for b in found[i + 1:]):
            if set(first.eliminations) == set(second.eliminations):
                continue
            links = [first.cells[-2:], second.cells[-2:]]
            box = first.notation.split(" in ", 1)[1].split(" ", 1)[0]
            yield make("Dual Empty Rectangle", n, f"{d} in {box} ({cells_text(links[0], n)}/"
                       f"{cells_text(links[1], n)})",
                       eliminations=first.eliminations + second.eliminations,
                       cells=first.cells + second.cells, units=[u],
                       sentence=f"In {g.tables.unit_names[u]}, {d} lies in one row or one "
                       f"column of the box; with either strong link, {cells_text(links[0], n)} "
                       f"or {cells_text(links[1], n)}, a cell loses {d}: both go.", length=3)
