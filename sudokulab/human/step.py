"""A `Step`: one deduction as data (technique, placements, eliminations, what it used).

The CLI, the tests and the web page render it; `notation` is HoDoKu's compact form
(`Naked Pair: 3,7 in r1c1,r1c5 => r1c2<>3, r1c9<>7`), `sentence` one plain sentence for a
learner. Cells are indexes (row * N + col) inside; rows and columns are counted from 1
whenever a step is shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from sudokulab.rules import cell_name

Pair = tuple[int, int]  # (cell, digit)


@dataclass(frozen=True)
class Step:
    """One deduction: what it places, what it eliminates, and why."""

    technique: str
    placements: tuple[Pair, ...] = ()
    eliminations: tuple[Pair, ...] = ()
    cells: tuple[int, ...] = ()          # the cells the pattern is made of (for highlighting)
    units: tuple[int, ...] = ()          # the units it uses
    links: tuple[tuple[Pair, Pair, bool], ...] = field(default=())  # (a, b, strong)
    notation: str = ""
    sentence: str = ""
    length: int = 0     # links in a chain (0 for a pattern): longer chains rate higher

    def to_json(self, n: int) -> dict:
        """The JSON form: rows, columns and digits counted from 1."""
        return {"technique": self.technique,
                "placements": [[c // n + 1, c % n + 1, d] for c, d in self.placements],
                "eliminations": [[c // n + 1, c % n + 1, d] for c, d in self.eliminations],
                "text": self.notation}


@lru_cache(maxsize=4096)
def name(cell: int, n: int) -> str:
    """r1c1 for a cell index (remembered: every step names its cells)."""
    return cell_name(divmod(cell, n))


def cells_text(cells: Iterable[int], n: int) -> str:
    """HoDoKu's compact cell list: r3c47 for cells of one row, r35c4 for one column."""
    cells = sorted(set(cells))
    if n <= 9 and len(cells) > 1:
        rows = sorted({c // n for c in cells})
        cols = sorted({c % n for c in cells})
        if len(rows) == 1:
            return f"r{rows[0] + 1}c" + "".join(str(c + 1) for c in cols)
        if len(cols) == 1:
            return "r" + "".join(str(r + 1) for r in rows) + f"c{cols[0] + 1}"
    return ",".join(name(c, n) for c in cells)


def digits_text(digits: Iterable[int]) -> str:
    """3,7"""
    return ",".join(str(d) for d in sorted(set(digits)))


def changes_text(placements: Iterable[Pair], eliminations: Iterable[Pair], n: int) -> str:
    """r1c1=5 for placements, r1c2,r1c9<>3 for eliminations grouped by digit."""
    parts = [f"{name(c, n)}={d}" for c, d in placements]
    by_digit: dict[int, list[int]] = {}
    for c, d in eliminations:
        by_digit.setdefault(d, []).append(c)
    parts += [f"{cells_text(cs, n)}<>{d}" for d, cs in sorted(by_digit.items())]
    return ", ".join(parts)


def make(technique: str, n: int, what: str, *, placements: Iterable[Pair] = (),
         eliminations: Iterable[Pair] = (), cells: Iterable[int] = (),
         units: Iterable[int] = (), links: Iterable = (), sentence: str = "",
         length: int = 0) -> Step:
    """A Step whose notation is `technique: what => changes`."""
    placements = tuple(dict.fromkeys(placements)) if placements else ()
    eliminations = tuple(sorted(set(eliminations), key=_by_digit)) if eliminations else ()
    if len(placements) == 1 and not eliminations:  # most steps: one single
        (cell, digit), = placements
        changes = f"{name(cell, n)}={digit}"
    else:
        changes = changes_text(placements, eliminations, n)
    notation = f"{technique}: {what} => {changes}" if what else f"{technique}: {changes}"
    return Step(technique, placements, eliminations, _distinct(cells), _distinct(units),
                tuple(links), notation, sentence, length)


def _distinct(items: Iterable[int]) -> tuple[int, ...]:
    """The items without repeats, in order."""
    if isinstance(items, list) and len(items) < 2:
        return tuple(items)   # most steps: one cell, one unit
    return tuple(dict.fromkeys(items))


def _by_digit(pair: Pair) -> tuple[int, int]:
    """Eliminations in HoDoKu's order: by digit, then cell."""
    return pair[1], pair[0]
