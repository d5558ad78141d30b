"""Singles: full house, naked single, hidden single."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

from sudokulab.human import reasons
from sudokulab.human.candidates import Candidates, bit
from sudokulab.human.step import Step, make, name


def unit_short(tables, unit: int) -> str:
    """HoDoKu's short unit name: r1, c1, b1 (or the unit's full name for extra units)."""
    text = tables.unit_names[unit]
    number = text.split()[-1]
    short = {"row": "r", "col": "c", "box": "b"}.get(tables.kinds[unit])
    return f"{short}{number}" if short and number.isdigit() else text


def full_house(g: Candidates) -> Iterator[Step]:
    """A unit with one blank cell left: it takes the missing digit."""
    tables, values, cands, n = g.tables, g.values, g.cands, g.n
    full = (1 << n) - 1
    if 1 not in g.blanks:
        return   # the usual case, found without a loop in Python
    for u, blanks in enumerate(g.blanks):
        if blanks != 1:
            continue
        unit = tables.units[u]
        blank = next(c for c in unit if not values[c])
        seen = 0
        for cell in unit:
            if values[cell]:
                seen |= bit(values[cell])
        missing = full & ~seen
        if missing & cands[blank] and not missing & (missing - 1):
            d = missing.bit_length()
            yield make("Full House", n, "", placements=[(blank, d)], cells=[blank],
                       units=[u], sentence=f"{name(blank, n)} is the last blank cell of "
                       f"{tables.unit_names[u]}, so it takes the missing {d}.")


@lru_cache(maxsize=16)
def _one_digit(n: int) -> Callable[[int], bool]:
    """Whether a candidate mask holds one digit (a set's test: no loop in Python)."""
    return frozenset(1 << k for k in range(n)).__contains__


def naked_single(g: Candidates) -> Iterator[Step]:
    """A cell with one candidate left."""
    n = g.n
    if not any(map(_one_digit(n), g.cands)):
        return   # the usual case, found without a loop in Python
    for cell, m in enumerate(g.cands):
        if m and not m & (m - 1):
            d = m.bit_length()
            yield make("Naked Single", n, "", placements=[(cell, d)], cells=[cell],
                       sentence=reasons.naked_single(g, cell, d))


def hidden_single(g: Candidates) -> Iterator[Step]:
    """A digit with one place left in a unit."""
    tables, cands, n, blanks = g.tables, g.cands, g.n, g.blanks
    for u, unit in enumerate(tables.units):
        if not blanks[u]:
            continue
        once = twice = 0
        for cell in unit:
            m = cands[cell]
            twice |= once & m
            once |= m
        singles = once & ~twice
        while singles:
            low = singles & -singles
            singles ^= low
            cell = next(c for c in unit if cands[c] & low)
            d = low.bit_length()
            yield make("Hidden Single", n, "", placements=[(cell, d)], cells=[cell],
                       units=[u], sentence=f"{d} has only one place left in "
                       f"{tables.unit_names[u]}: {name(cell, n)}.")
