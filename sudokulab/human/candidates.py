"""The pencil-mark grid: each blank cell's candidates as a bitmask over the puzzle's geometry.

Bit d-1 of `cands[cell]` is set while digit d may still go in the cell; a filled cell has
`values[cell]` set and no candidates. The units (rows, columns, boxes or jigsaw regions,
diagonals, windows) come from `sudokulab.geometry`; so do peers, which also cover cages and
chess moves. Non-consecutive is the one rule that is not a peer relation: placing d also
removes d-1 and d+1 from the orthogonal neighbours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter, lshift, or_
from typing import TypeVar

from sudokulab import rules as R
from sudokulab.geometry import geometry
from sudokulab.human.step import name
from sudokulab.marks import pencil_marks
from sudokulab.puzzle import Puzzle

T = TypeVar("T")


@dataclass(frozen=True)
class Tables:
    """What the techniques need of a geometry, laid out once per shape and rule set."""

    n: int
    box: tuple[int, int]
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]
    kinds: tuple[str, ...]                    # per unit: row, col, box or extra
    units_of: tuple[tuple[int, ...], ...]     # per cell: the indexes of its units
    peers: tuple[frozenset[int], ...]
    rows: tuple[int, ...]                     # unit index of each row
    cols: tuple[int, ...]                     # unit index of each column
    box_of: tuple[int, ...]                   # per cell: its box (or region) unit, -1 if none
    neighbours: tuple[tuple[int, ...], ...]   # orthogonal neighbours under non-consecutive
    classic: bool                             # no variant rule: uniqueness patterns apply
    unit_masks: tuple[int, ...]               # per unit: its cells as a bitmask over cells
    peer_masks: tuple[int, ...]               # per cell: its peers as a bitmask over cells
    crossing: tuple[tuple[int, ...], ...]     # per unit: the other units sharing 2+ cells
    # per unit: a function giving its cells' entries of a per-cell list, as a tuple
    unit_items: tuple = field(default=(), compare=False, hash=False, repr=False)
    # per cell: the same for its peers (a digit seen twice is found without a Python loop)
    peer_items: tuple = field(default=(), compare=False, hash=False, repr=False)
    # what single-digit finders found, by (finder, arguments, digit, the digit's places),
    # and what others found by what they read
    memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def cells(self) -> range:
        """Every cell index."""
        return range(self.n * self.n)

    def sees(self, a: int, b: int) -> bool:
        """Whether two different cells must hold different digits."""
        return b in self.peers[a]


# The techniques' kinds of unit: rows, columns, boxes (a jigsaw region is a box to them).
KINDS = {"row": "row", "column": "col", "box": "box", "region": "box"}


@lru_cache(maxsize=64)
def unit_tables(box: tuple[int, int], rules: tuple = ()) -> Tables:
    """The unit tables of a box shape and rule set (cached)."""
    geo = geometry(box, rules)
    n = geo.n
    kinds = tuple(KINDS.get(unit.kind, "extra") for unit in geo.units)
    index = {id(unit): k for k, unit in enumerate(geo.units)}
    units_of = tuple(tuple(index[id(u)] for u in units) for units in geo.units_of)
    box_of = tuple(next((u for u in us if kinds[u] == "box"), -1) for us in units_of)
    neighbours: list[list[int]] = [[] for _ in range(n * n)]
    for a, b in geo.pairs(R.NonConsecutive):
        neighbours[a].append(b)
        neighbours[b].append(a)
    return Tables(
        n=n, box=box, units=geo.units, unit_names=tuple(unit.name for unit in geo.units),
        kinds=kinds,
        units_of=units_of, peers=tuple(frozenset(p) for p in geo.peers),
        rows=tuple(k for k, kind in enumerate(kinds) if kind == "row"),
        cols=tuple(k for k, kind in enumerate(kinds) if kind == "col"),
        box_of=box_of, neighbours=tuple(tuple(x) for x in neighbours), classic=not rules,
        unit_masks=tuple(_mask(unit) for unit in geo.units),
        crossing=tuple(tuple(v for v, other in enumerate(geo.units)
                             if v != u and len(set(unit) & set(other)) >= 2)
                       for u, unit in enumerate(geo.units)),
        peer_masks=tuple(_mask(p) for p in geo.peers),
        unit_items=tuple(itemgetter(*unit) for unit in geo.units),
        peer_items=tuple(itemgetter(*peers) for peers in geo.peers))  # N >= 4: 6+ peers


def _mask(cells) -> int:
    """A set of cells as a bitmask (bit c for cell c)."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def union(masks: Iterable[int]) -> int:
    """The bits of several masks."""
    out = 0
    for mask in masks:
        out |= mask
    return out


def unplaced(tables: Tables, values: list[int], n: int) -> list[int]:
    """Per cell, the digits no unit of it has placed (a mask; 0 for a filled cell): a
    classic cell's candidates before any step."""
    placed = [0] * len(tables.units)
    for u, unit in enumerate(tables.units):
        for c in unit:
            if values[c]:
                placed[u] |= bit(values[c])
    full = (1 << n) - 1
    return [0 if values[c] else full & ~union(placed[u] for u in tables.units_of[c])
            for c in tables.cells]


@lru_cache(maxsize=16)
def line_masks(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(per row, per column) its cells as a bitmask over the cells of an N x N grid."""
    return (tuple(((1 << n) - 1) << (r * n) for r in range(n)),
            tuple(sum(1 << (r * n + c) for r in range(n)) for c in range(n)))


def seen_by_all(peer_masks: Sequence[int], cells: int) -> int:
    """The cells that see every cell of a cell bitmask (-1, every cell, for none)."""
    seen = -1
    while cells:
        low = cells & -cells
        cells ^= low
        seen &= peer_masks[low.bit_length() - 1]
    return seen


def cells_of(mask: int) -> list[int]:
    """The cells of a cell bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def digits(mask: int) -> list[int]:
    """The digits of a candidate bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def bit(digit: int) -> int:
    """The bitmask of one digit."""
    return 1 << (digit - 1)


class Candidates:
    """The values placed so far and the candidates left in each blank cell."""

    __slots__ = ("puzzle", "tables", "n", "values", "cands", "blanks", "_cache")

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.tables = unit_tables(puzzle.box, puzzle.rules)
        self.n = puzzle.n
        self.values = values = list(puzzle.givens)
        if puzzle.rules:
            marks = pencil_marks(puzzle)
            self.cands = [0 if d else sum(bit(x) for x in m) for d, m in zip(values, marks)]
        else:  # classic: a cell's candidates are the digits its units lack
            self.cands = unplaced(self.tables, values, self.n)
        kept = getattr(puzzle, "marks", None)  # a position (human/positions.py): start
        if kept:                               # from its candidates, as the player left them
            self.cands = [c & m for c, m in zip(self.cands, kept)]
        self.blanks = [sum(1 for c in unit if not values[c]) for unit in self.tables.units]
        self._cache: dict | None = None

    def copy(self) -> Candidates:
        """An independent copy (for forcing chains)."""
        other = object.__new__(Candidates)
        other.puzzle, other.tables, other.n = self.puzzle, self.tables, self.n
        other.values, other.cands, other.blanks = self.values[:], self.cands[:], self.blanks[:]
        other._cache = None
        return other

    def cached(self, key: str, make):
        """A value derived from the current candidates, computed once until they change
        (several techniques share one scan: fish places, rectangles)."""
        if self._cache is None:
            self._cache = {}
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def state(self) -> tuple[int, ...]:
        """The values and candidates, as one key."""
        return (*self.values, *self.cands)

    def where(self) -> list[int]:
        """Per digit (index d-1), the cells where it is still a candidate, as a bitmask."""
        if self._cache is None:
            self._cache = {}
        found = self._cache.get("where")
        if found is None:
            found = self._cache["where"] = _where(self.cands, self.n)
        return found

    def place(self, cell: int, digit: int) -> None:
        """Put a digit in a cell: its peers lose it (and neighbours lose d±1 under
        non-consecutive)."""
        self._cache = None
        self.values[cell] = digit
        self.cands[cell] = 0
        blanks = self.blanks
        for u in self.tables.units_of[cell]:
            blanks[u] -= 1
        off = ~bit(digit)
        cands = self.cands
        for peer in self.tables.peers[cell]:
            cands[peer] &= off
        if self.tables.neighbours[cell]:
            near = ~((bit(digit - 1) if digit > 1 else 0) | (bit(digit + 1) if digit < self.n
                                                             else 0))
            for other in self.tables.neighbours[cell]:
                cands[other] &= near

    def eliminate(self, cell: int, digit: int) -> None:
        """Remove one candidate."""
        self._cache = None
        self.cands[cell] &= ~bit(digit)

    def apply(self, step) -> None:
        """Make a step's placements and eliminations."""
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)

    def solved(self) -> bool:
        """Whether every cell holds a digit."""
        return all(self.values)

    def broken(self) -> bool:
        """Whether a blank cell has no candidate or a unit has no place for a missing digit."""
        return bool(self.stuck())

    def stuck(self) -> str:
        """Why the pencil marks show no solution: a blank cell without a candidate, or a
        unit without a place for a digit it lacks ('' when neither)."""
        values, cands, n = self.values, self.cands, self.n
        if not all(map(or_, values, cands)):
            cell = next(c for c, (v, m) in enumerate(zip(values, cands)) if not v and not m)
            return f"{name(cell, n)} has no candidate left"
        full = (1 << n) - 1
        for u, unit in enumerate(self.tables.units):
            seen = 0
            for cell in unit:
                seen |= cands[cell] | (bit(values[cell]) if values[cell] else 0)
            if seen != full:
                lacking = full & ~seen
                return (f"{self.tables.unit_names[u]} has no place left for "
                        f"{(lacking & -lacking).bit_length()}")
        return ""

    def places(self, unit: int, digit: int) -> list[int]:
        """The cells of a unit where a digit is still a candidate."""
        b = bit(digit)
        return [c for c in self.tables.units[unit] if self.cands[c] & b]

    def grid(self) -> tuple[int, ...]:
        """The values placed (0 for blank)."""
        return tuple(self.values)


def _where(cands: list[int], n: int) -> list[int]:
    """Candidates.where, made anew: for up to 9 digits, one sum in C of each cell's digits
    spread to one bit a digit (`_spread`), cut into the digits' masks."""
    if n > 9:
        found = [0] * n
        for c, m in enumerate(cands):
            while m:
                low = m & -m
                found[low.bit_length() - 1] |= 1 << c
                m ^= low
        return found
    size = len(cands)
    packed = sum(map(lshift, map(_spread(n, size).__getitem__, cands), range(size)))
    full = (1 << size) - 1
    return [packed >> (k * size) & full for k in range(n)]


@lru_cache(maxsize=16)
def _spread(n: int, size: int) -> tuple[int, ...]:
    """Per candidate mask of n digits, bit k*size set for each digit k+1 it holds."""
    return tuple(sum(1 << (k * size) for k in range(n) if m >> k & 1) for m in range(1 << n))


def per_digit(find: Callable[..., Iterator]) -> Callable[..., Iterator]:
    """A finder over every digit, from `find(g, digit, *args)`, a finder of one digit's
    pattern that reads only that digit's candidates. What it finds is remembered by the
    digit's places, so a digit that a step left alone is not searched again (in this grid or
    in another puzzle of the same shape and rules)."""
    def every_digit(g: Candidates, *args) -> Iterator:
        memo, where = g.tables.memo, g.where()
        for d in range(1, g.n + 1):
            key = (find, args, d, where[d - 1])
            found = memo.get(key)
            if found is None:
                if len(memo) >= MEMO_SIZE:
                    memo.clear()
                found = memo[key] = tuple(find(g, d, *args))
            yield from found

    every_digit.__doc__ = find.__doc__
    return every_digit


def latest(tables: Tables, slot: tuple, state: object, make: Callable[..., T], *args) -> T:
    """make(*args), kept for the latest `state` of one part of the grid (a unit's candidates,
    a digit's places) in the tables' memo under `slot`, until that part changes: a step
    changes a few parts, the others are not searched again. One entry a part, replaced:
    an entry a state would fill the memo (clearing the fish it keeps) and keep the garbage
    collector busy."""
    kept = tables.memo.get(slot)
    if kept is not None and kept[0] == state:
        return kept[1]
    found = make(*args)
    tables.memo[slot] = (state, found)
    return found


MEMO_SIZE = 1 << 15  # entries per shape's tables (a few MB) before the memo starts afresh
