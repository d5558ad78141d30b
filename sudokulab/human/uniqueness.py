"""Uniqueness: Unique Rectangles types 1-4 and BUG+1, for puzzles known to have one solution.

Four cells in two rows, two columns and two boxes that could all hold only {a, b} would
admit two solutions (swap a and b): a deadly pattern. In a puzzle with one solution some
cell of the rectangle must hold another digit, which is what each type exploits. Used only
on classic puzzles (an extra unit or chess rule could break the swap) and only when the
puzzle is declared or proven unique.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudokulab.human.candidates import Candidates, digits
from sudokulab.human.step import Step, cells_text, make, name


def rectangles(g: Candidates) -> list[tuple[list[int], int]]:
    """(the four cells, the pair mask) of each rectangle of blank cells over two boxes whose
    cells all hold the same two candidates (and maybe more)."""
    return g.cached("rectangles", lambda: list(_rectangles(g)))


def _rectangles(g: Candidates) -> Iterator[tuple[list[int], int]]:
    """The rectangles, as found: two rows, then two columns where both rows' cells share two
    candidates or more."""
    tables, cands, n = g.tables, g.cands, g.n
    for r1, r2 in combinations(range(n), 2):
        shared = [(c, cands[r1 * n + c] & cands[r2 * n + c]) for c in range(n)]
        shared = [(c, m) for c, m in shared if m.bit_count() >= 2]
        for (c1, m1), (c2, m2) in combinations(shared, 2):
            cells = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2]
            if len({tables.box_of[c] for c in cells}) != 2:
                continue
            for a, b in combinations(digits(m1 & m2), 2):
                yield cells, (1 << (a - 1)) | (1 << (b - 1))


def _what(pair: int, cells: list[int], n: int) -> str:
    """'1/9 in r1c2,r1c5,r7c2,r7c5'."""
    return f"{'/'.join(map(str, digits(pair)))} in {','.join(name(c, n) for c in cells)}"


def _sentence(pair: int, cells: list[int], n: int, rest: str) -> str:
    """The shared start of every type's sentence."""
    a, b = digits(pair)
    return (f"If {cells_text(cells, n)} held only {a} and {b}, swapping them would give a "
            f"second solution; {rest}")


def ur_type1(g: Candidates) -> Iterator[Step]:
    """Three corners hold exactly the pair: the fourth is not the pair."""
    cands, n = g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) == 1:
            gone = [(extra[0], d) for d in digits(pair)]
            yield make("Uniqueness Test 1", n, _what(pair, cells, n), eliminations=gone,
                       cells=cells, sentence=_sentence(pair, cells, n, f"so {name(extra[0], n)}"
                                                       " holds another digit."))


def ur_type2(g: Candidates) -> Iterator[Step]:
    """Two corners hold the pair plus the same one extra digit: one of them holds it."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) != 2 or cands[extra[0]] != cands[extra[1]]:
            continue
        more = cands[extra[0]] & ~pair
        if more.bit_count() != 1:
            continue
        z = more.bit_length()
        gone = [(c, z) for c in tables.peers[extra[0]] & tables.peers[extra[1]] if cands[c] & more]
        if gone:
            yield make("Uniqueness Test 2", n, _what(pair, cells, n), eliminations=gone,
                       cells=cells, sentence=_sentence(pair, cells, n, f"so {z} is in "
                       f"{name(extra[0], n)} or {name(extra[1], n)}, and cells that see "
                       f"both cannot hold it."))


def ur_type3(g: Candidates) -> Iterator[Step]:
    """The two extra corners act as one cell holding their extra digits, which forms a naked
    subset with other cells of a unit they share."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) != 2:
            continue
        more = (cands[extra[0]] | cands[extra[1]]) & ~pair
        shared = set(tables.units_of[extra[0]]) & set(tables.units_of[extra[1]])
        for u in sorted(shared):
            others = [c for c in tables.units[u] if cands[c] and c not in extra]
            for size in (1, 2, 3):
                for group in combinations(others, size):
                    mask = more
                    for c in group:
                        mask |= cands[c]
                    if mask.bit_count() != size + 1:
                        continue
                    gone = [(c, d) for c in others if c not in group
                            for d in digits(cands[c] & mask)]
                    if gone:
                        yield make("Uniqueness Test 3", n, _what(pair, cells, n),
                                   eliminations=gone, cells=cells + list(group), units=[u],
                                   sentence=_sentence(pair, cells, n, f"so {name(extra[0], n)}"
                                   f" or {name(extra[1], n)} holds one of "
                                   f"{','.join(map(str, digits(more)))}: with "
                                   f"{cells_text(group, n)} they lock "
                                   f"{','.join(map(str, digits(mask)))} in "
                                   f"{tables.unit_names[u]}."))


def ur_type4(g: Candidates) -> Iterator[Step]:
    """The two extra corners share a unit where one pair digit has no other place: the other
    pair digit cannot be in either of them."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) != 2:
            continue
        shared = set(tables.units_of[extra[0]]) & set(tables.units_of[extra[1]])
        for u in sorted(shared):
            for a, b in (digits(pair), digits(pair)[::-1]):
                places = [c for c in tables.units[u] if cands[c] >> (a - 1) & 1]
                if sorted(places) == sorted(extra):
                    yield make("Uniqueness Test 4", n, _what(pair, cells, n),
                               eliminations=[(c, b) for c in extra], cells=cells, units=[u],
                               sentence=_sentence(pair, cells, n, f"{a} must be in "
                               f"{name(extra[0], n)} or {name(extra[1], n)} "
                               f"({tables.unit_names[u]}), so neither can hold {b}."))


def bug_plus_one(g: Candidates) -> Iterator[Step]:
    """Every blank cell has two candidates but one, which has three: the digit that would
    otherwise appear three times in its units goes there (else a deadly BUG remains)."""
    tables, cands, n = g.tables, g.cands, g.n
    counts = [m.bit_count() for m in cands]
    odd = [c for c in tables.cells if counts[c] > 2]
    if len(odd) != 1 or counts[odd[0]] != 3 or any(k == 1 for k in counts):
        return
    cell = odd[0]
    for d in digits(cands[cell]):
        b = 1 << (d - 1)
        if all(sum(1 for c in tables.units[u] if cands[c] & b) == 3 for u in tables.units_of[cell]):
            yield make("Bivalue Universal Grave + 1", n, "",
                       placements=[(cell, d)], cells=[cell],
                       sentence=f"Every other blank cell has two candidates; without {d}, "
                       f"{name(cell, n)} would leave a grid with two solutions, so it holds "
                       f"{d}.")
            return
