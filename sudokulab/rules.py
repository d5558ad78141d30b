"""Variant rules as plain data: each backend compiles them into its own model.

A rule says *what* must hold, never *how* to enforce it. Cells are (row, column)
pairs counted from 0. The classic rules (rows, columns, boxes) are implied by
every puzzle and are not listed here.

Each rule class owns what is its own, whatever engine runs it: its `name` and one-line
`summary`, its JSON (`to_json`, `from_json`), what makes it fit a grid (`problem`), and
what it adds to the shared geometry: units (`units`), cells a chess move apart
(`moves`), relations between two cells' digits (`relations`), cells that differ
(`distinct_cells`) and sums (`sum_of`). What each engine compiles stays with the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, ClassVar

from sudokulab.errors import InputError, PuzzleError, UsageError, unknown

Cell = tuple[int, int]
Pair = tuple[Cell, Cell]
Box = tuple[int, int]
# A unit a rule adds: (kind, name, cells); a relation: (kind, cell a, cell b, parameter).
UnitSpec = tuple[str, str, tuple[Cell, ...]]
RelationSpec = tuple[str, Cell, Cell, int]

KNIGHT_MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_MOVES = ((1, 1), (1, 0), (1, -1), (0, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1))
ORTHOGONAL_MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1))
CELLS_FORM = '["r1c1", "r1c2"]'

_DEFINED: list[type[Rule]] = []  # every rule class, in the order it is defined


class Rule:
    """A variant rule: what must hold, as data. Subclasses are frozen dataclasses that
    set `name` and `summary`; defining one registers it (`RULE_TYPES`, `BY_NAME`)."""

    name: ClassVar[str]
    summary: ClassVar[str]  # one line for help texts
    keys: ClassVar[tuple[str, ...]] = ()  # its JSON's keys besides "type"
    moves: ClassVar[tuple[tuple[int, int], ...]] = ()  # steps to the cells it relates
    moves_differ: ClassVar[bool] = True  # those cells differ (else: not consecutive)
    replaces_boxes: ClassVar[bool] = False  # its units stand in for the boxes
    # It says only which cells hold equal or different digits, never which digits: a
    # relabelling of the digits keeps it (counting.py counts such puzzles reduced).
    digit_blind: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__:
            _DEFINED.append(cls)

    def to_json(self) -> dict[str, Any]:
        """The rule as a JSON object: {"type": name, ...parameters}."""
        return {"type": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rule:
        """The rule from its JSON object (its keys already checked); InputError saying
        what is wrong."""
        return cls()

    def problem(self, box: Box) -> str:
        """What keeps the rule off a grid of this box shape, as a line naming the rule
        ('' when nothing does)."""
        return ""

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """The units (N cells holding every digit once) it adds, each (kind, name, cells)."""
        return ()

    def relations(self, n: int) -> tuple[RelationSpec, ...]:
        """The digit relations it sets between two cells (geometry.related names each
        kind), each (kind, a, b, parameter)."""
        return ()

    def distinct_cells(self) -> tuple[Cell, ...]:
        """Cells whose digits all differ, beyond the units and cages (none by default)."""
        return ()

    def sum_of(self) -> tuple[tuple[Cell, ...], int, Cell | None] | None:
        """(cells, total, circle): cells whose digits add up to the total, or to the
        circle's digit when there is one; None when the rule sets no sum."""
        return None


def _problem_of(label: str, *problems: str) -> str:
    """The first problem found, named by its label ('' when there is none)."""
    found = next((p for p in problems if p), "")
    return f"{label}: {found}" if found else ""


def _cells_problem(cells: tuple[Cell, ...], n: int) -> str:
    """A cell that is no (row, column) pair or lies outside the grid, or one listed twice."""
    for cell in cells:
        if not (isinstance(cell, tuple) and len(cell) == 2
                and all(isinstance(i, int) for i in cell)):
            return f"{cell!r} is not a (row, column) cell"
        if not (0 <= cell[0] < n and 0 <= cell[1] < n):
            return f"cell {cell_name(cell)} is outside the {n}x{n} grid"
    return "a cell is listed twice" if len(set(cells)) != len(cells) else ""


def _whole_problem(value: object, what: str) -> str:
    """What makes a value no whole number ('' when it is one)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return ""
    return f"{what} {value!r} is not a whole number"


def orthogonal_pairs(n: int) -> tuple[Pair, ...]:
    """Pairs of orthogonally adjacent cells, each in reading order, sorted."""
    return tuple(((r, c), (r + dr, c + dc)) for r in range(n) for c in range(n)
                 for dr, dc in ((0, 1), (1, 0)) if r + dr < n and c + dc < n)


# --- lines: rules on a list of cells -------------------------------------------------------

@dataclass(frozen=True)
class Line(Rule):
    """A rule on a line of cells (`cells`, in order), written as its cells alone."""

    cells: tuple[Cell, ...]
    keys = ("cells",)
    min_cells: ClassVar[int] = 1
    distinct: ClassVar[bool] = False  # its digits all differ

    def to_json(self) -> dict[str, Any]:
        """Its cells."""
        return {"type": self.name, "cells": _names(self.cells)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Line:
        """A list of cell names."""
        return cls(_cells(data))

    def problem(self, box: Box) -> str:
        """Cells of the grid, none twice, enough of them, at most N when they differ."""
        return _problem_of(self.name, self._line_problem(box[0] * box[1]))

    def _line_problem(self, n: int) -> str:
        """problem() without the rule's name."""
        cells = self.cells
        cells_problem = _cells_problem(cells, n)
        if cells_problem:
            return cells_problem
        if self.min_cells > 1 and len(cells) < self.min_cells:
            return "needs at least two cells"
        if not cells:
            return "needs at least one cell"
        if self.distinct and len(cells) > n:
            return f"more than {n} cells cannot all differ"
        return ""

    def distinct_cells(self) -> tuple[Cell, ...]:
        """Its cells when they differ."""
        return self.cells if self.distinct else ()


# --- dots: marks between orthogonal neighbours ------------------------------------------

class Dots(Rule):
    """Marks between orthogonal neighbours: `marks` maps each field (a list of pairs) to
    the relation it sets; with `negative`, unmarked neighbours hold `unmarked`."""

    marks: ClassVar[dict[str, str]]
    unmarked: ClassVar[str]
    has_negative: ClassVar[bool] = True  # its JSON carries "negative"
    # A field of the subclasses whose has_negative is true (Kropki, XV); read it only there.
    negative: bool

    @property
    def is_negative(self) -> bool:
        """Whether unmarked neighbours are constrained too."""
        return getattr(self, "negative", True)

    def pairs_by_field(self) -> dict[str, tuple[Pair, ...]]:
        """Each field's pairs of cells."""
        return {field: getattr(self, field) for field in self.marks}

    def to_json(self) -> dict[str, Any]:
        """Its marks, each a pair of cell names, then "negative"."""
        data: dict[str, Any] = {"type": self.name}
        for field, pairs in self.pairs_by_field().items():
            data[field] = [[cell_name(a), cell_name(b)] for a, b in pairs]
        if self.has_negative:
            data["negative"] = self.negative
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dots:
        """Lists of cell pairs (none when absent) and "negative" (false when absent)."""
        marks = [_pairs(data, field) for field in cls.marks]
        make: Callable[..., Dots] = cls  # a dataclass subclass: its fields are its marks
        if cls.has_negative:
            return make(*marks, negative=_flag(data, "negative", False))
        return make(*marks)

    def problem(self, box: Box) -> str:
        """Orthogonal neighbours of the grid, one mark between two cells at most."""
        return _problem_of(self.name, self._problem(box[0] * box[1]))

    def _problem(self, n: int) -> str:
        """problem() without the rule's name."""
        listed = [pair for pairs in self.pairs_by_field().values() for pair in pairs]
        for pair in listed:
            for cell in pair:
                if not (0 <= cell[0] < n and 0 <= cell[1] < n):
                    return f"cell {cell_name(cell)} is outside the {n}x{n} grid"
        pairs = [tuple(sorted(p)) for p in listed]
        for a, b in pairs:
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                return f"{cell_name(a)} and {cell_name(b)} are not orthogonal neighbours"
        return "two marks between the same cells" if len(set(pairs)) != len(pairs) else ""

    def relations(self, n: int) -> tuple[RelationSpec, ...]:
        """Each mark's relation, each pair in reading order; then, when negative, the
        unmarked relation between every other pair of orthogonal neighbours."""
        found: list[RelationSpec] = []
        marked = set()
        for field, pairs in self.pairs_by_field().items():
            for pair in pairs:
                a, b = sorted(pair)
                marked.add((a, b))
                found.append((self.marks[field], a, b, 0))
        if self.is_negative:
            found += [(self.unmarked, a, b, 0) for a, b in orthogonal_pairs(n)
                      if (a, b) not in marked]
        return tuple(found)


# --- the rules without parameters ------------------------------------------------------

def _diagonal(n: int, anti: bool) -> UnitSpec:
    """The main diagonal or the anti-diagonal as a unit."""
    if anti:
        return "diagonal", "anti-diagonal", tuple((i, n - 1 - i) for i in range(n))
    return "diagonal", "main diagonal", tuple((i, i) for i in range(n))


@dataclass(frozen=True)
class Diagonal(Rule):
    """Both main diagonals hold every digit once (X-Sudoku)."""

    name = "diagonal"
    digit_blind = True
    summary = "both main diagonals hold every digit once"

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """The main diagonal and the anti-diagonal."""
        n = box[0] * box[1]
        return _diagonal(n, False), _diagonal(n, True)


@dataclass(frozen=True)
class AntiKnight(Rule):
    """Cells a chess knight's move apart hold different digits."""

    name = "anti-knight"
    digit_blind = True
    summary = "cells a knight's move apart differ"
    moves = KNIGHT_MOVES


@dataclass(frozen=True)
class AntiKing(Rule):
    """Cells a chess king's move apart hold different digits."""

    name = "anti-king"
    digit_blind = True
    summary = "cells a king's move apart differ"
    moves = KING_MOVES


@dataclass(frozen=True)
class NonConsecutive(Rule):
    """Orthogonally adjacent cells do not hold consecutive digits."""

    name = "non-consecutive"
    summary = "orthogonal neighbours hold no consecutive digits"
    moves = ORTHOGONAL_MOVES
    moves_differ = False


@dataclass(frozen=True)
class Windoku(Rule):
    """Extra box-sized windows, one cell in from the boxes, hold every digit once."""

    name = "windoku"
    digit_blind = True
    summary = "box-sized windows between the boxes hold every digit once"

    def problem(self, box: Box) -> str:
        """Windows need boxes."""
        n = box[0] * box[1]
        return f"windoku needs boxes, and a {n}x{n} grid has none" if min(box) == 1 else ""

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """The windows, one cell in from the boxes, in reading order."""
        rows, cols = box
        n = rows * cols
        return tuple(("window", f"window r{top + 1}c{left + 1}",
                      tuple((top + r, left + c) for r in range(rows) for c in range(cols)))
                     for top in range(1, n - rows + 1, rows + 1)
                     for left in range(1, n - cols + 1, cols + 1))


# --- regions, cages and parity -----------------------------------------------------------

@dataclass(frozen=True)
class Jigsaw(Rule):
    """Irregular regions replace the boxes; each region holds every digit once."""

    regions: tuple[tuple[Cell, ...], ...]
    name = "jigsaw"
    digit_blind = True
    summary = "irregular regions replace the boxes"
    keys = ("regions",)
    replaces_boxes = True

    def to_json(self) -> dict[str, Any]:
        """Its regions, each a list of cell names."""
        return {"type": self.name,
                "regions": [[cell_name(c) for c in region] for region in self.regions]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Jigsaw:
        """Regions from a list of lists of cell names."""
        value = _field(data, "regions")
        if not (isinstance(value, list) and all(isinstance(region, list) and
                                                all(isinstance(c, str) for c in region)
                                                for region in value)):
            raise InputError(f"'regions' must be a list of regions, each a list of cell "
                             f"names like {CELLS_FORM}, not {json_text(value)}")
        return cls(tuple(tuple(parse_cell(c) for c in region) for region in value))

    def problem(self, box: Box) -> str:
        """N regions of N cells that tile the grid."""
        n = box[0] * box[1]
        if len(self.regions) != n or any(len(region) != n for region in self.regions):
            return f"jigsaw: needs {n} regions of {n} cells each"
        return _problem_of("jigsaw", _cells_problem(tuple(c for region in self.regions
                                                          for c in region), n))

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """Its regions, each in reading order."""
        return tuple(("region", f"region {k + 1}", tuple(sorted(region)))
                     for k, region in enumerate(self.regions))


@dataclass(frozen=True)
class Cage(Rule):
    """A killer cage: its digits differ and add up to `total`."""

    cells: tuple[Cell, ...]
    total: int
    name = "cage"
    summary = "a killer cage: its digits differ and add up to its sum"
    keys = ("cells", "total")

    def to_json(self) -> dict[str, Any]:
        """Its cells and sum."""
        return {"type": self.name, "cells": _names(self.cells), "total": self.total}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cage:
        """Cells and a whole sum."""
        return cls(_cells(data), _whole(data, "total"))

    def problem(self, box: Box) -> str:
        """A whole sum of 1 or more over cells of the grid, none twice."""
        label = f"cage of {self.total!r}"
        if _whole_problem(self.total, ""):
            return f"{label}: the sum must be a whole number"
        return _problem_of(label, "the sum must be 1 or more" if self.total < 1 else "",
                           "needs at least one cell" if not self.cells else "",
                           _cells_problem(self.cells, box[0] * box[1]))


@dataclass(frozen=True)
class Parity(Rule):
    """The listed cells hold even digits (`even=True`) or odd digits."""

    cells: tuple[Cell, ...]
    even: bool
    name = "parity"
    summary = "the cells hold even digits, or odd ones"
    keys = ("cells", "even")

    def to_json(self) -> dict[str, Any]:
        """Its cells and whether they are even."""
        return {"type": self.name, "cells": _names(self.cells), "even": self.even}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Parity:
        """Cells and true or false."""
        return cls(_cells(data), _flag(data, "even"))

    def problem(self, box: Box) -> str:
        """Cells of the grid, none twice."""
        return _problem_of("even cells" if self.even else "odd cells",
                           _cells_problem(self.cells, box[0] * box[1]))


# --- more units ----------------------------------------------------------------------------

@dataclass(frozen=True)
class MainDiagonal(Rule):
    """The main diagonal alone (r1c1 to rNcN) holds every digit once."""

    name = "main-diagonal"
    digit_blind = True
    summary = "the main diagonal (r1c1 to rNcN) holds every digit once"

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """The main diagonal."""
        return (_diagonal(box[0] * box[1], False),)


@dataclass(frozen=True)
class AntiDiagonal(Rule):
    """The anti-diagonal alone (r1cN to rNc1) holds every digit once."""

    name = "anti-diagonal"
    digit_blind = True
    summary = "the anti-diagonal (r1cN to rNc1) holds every digit once"

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """The anti-diagonal."""
        return (_diagonal(box[0] * box[1], True),)


@dataclass(frozen=True)
class DisjointGroups(Rule):
    """Cells at the same place in their boxes hold different digits (N extra units)."""

    name = "disjoint-groups"
    digit_blind = True
    summary = "cells at the same place in their boxes differ"

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """One group per place in a box, its cells in reading order."""
        rows, cols = box
        n = rows * cols
        return tuple(("disjoint group", f"disjoint group r{r + 1}c{c + 1}",
                      tuple((top + r, left + c) for top in range(0, n, rows)
                            for left in range(0, n, cols)))
                     for r in range(rows) for c in range(cols))


@dataclass(frozen=True)
class Thermometer(Line):
    """Digits strictly increase along the cells, from the bulb (the first cell)."""

    name = "thermometer"
    summary = "digits increase along the line from its bulb"
    min_cells = 2

    def relations(self, n: int) -> tuple[RelationSpec, ...]:
        """Each cell less than the next."""
        return tuple(("less", a, b, 0) for a, b in zip(self.cells, self.cells[1:]))


@dataclass(frozen=True)
class Arrow(Line):
    """The digits on the shaft (cells[1:]) add up to the digit in the circle (cells[0])."""

    name = "arrow"
    summary = "the shaft's digits add up to the circle's"
    min_cells = 2

    def sum_of(self) -> tuple[tuple[Cell, ...], int, Cell | None]:
        """The shaft adds up to the circle."""
        return self.cells[1:], 0, self.cells[0]


@dataclass(frozen=True)
class Kropki(Dots):
    """White dots join consecutive digits, black dots digits of ratio 2; with `negative`,
    orthogonal neighbours with no dot are neither consecutive nor of ratio 2."""

    white: tuple[Pair, ...] = ()
    black: tuple[Pair, ...] = ()
    negative: bool = False
    name = "kropki"
    summary = "white dots join consecutive digits, black dots digits of ratio 2"
    keys = ("white", "black", "negative")
    marks = {"white": "white", "black": "black"}
    unmarked = "no-dot"


@dataclass(frozen=True)
class XV(Dots):
    """An X joins digits adding up to 10, a V digits adding up to 5; with `negative`,
    orthogonal neighbours with no mark add up to neither."""

    x: tuple[Pair, ...] = ()
    v: tuple[Pair, ...] = ()
    negative: bool = False
    name = "xv"
    summary = "an X joins digits adding up to 10, a V digits adding up to 5"
    keys = ("x", "v", "negative")
    marks = {"x": "x", "v": "v"}
    unmarked = "no-xv"


@dataclass(frozen=True)
class SumlessCage(Line):
    """A killer cage without its sum: its digits differ."""

    name = "cage-without-sum"
    digit_blind = True
    summary = "a cage without its sum: its digits differ"
    distinct = True


@dataclass(frozen=True)
class ExtraRegion(Line):
    """An extra region: its digits differ (with N cells, it holds every digit once)."""

    name = "extra-region"
    digit_blind = True
    summary = "an extra region: its digits differ"
    distinct = True


@dataclass(frozen=True)
class Renban(Line):
    """The line's digits differ and form a run of consecutive digits, in any order."""

    name = "renban"
    summary = "the line's digits differ and form a consecutive run"
    distinct = True

    def relations(self, n: int) -> tuple[RelationSpec, ...]:
        """Every two cells at most (length - 1) apart."""
        cells = self.cells
        return tuple(("near", a, b, len(cells) - 1)
                     for k, a in enumerate(cells) for b in cells[k + 1:])


@dataclass(frozen=True)
class Whispers(Line):
    """German whispers: neighbours on the line differ by at least half of N, rounded up
    (5 on a 9x9)."""

    name = "whispers"
    summary = "neighbours on the line differ by at least half of N (5 on a 9x9)"
    min_cells = 2

    def relations(self, n: int) -> tuple[RelationSpec, ...]:
        """Each cell far from the next."""
        return tuple(("far", a, b, (n + 1) // 2) for a, b in zip(self.cells, self.cells[1:]))


@dataclass(frozen=True)
class Palindrome(Line):
    """The line reads the same from both ends."""

    name = "palindrome"
    digit_blind = True
    summary = "the line reads the same from both ends"
    min_cells = 2

    def relations(self, n: int) -> tuple[RelationSpec, ...]:
        """Each cell of the first half equal to its mirror."""
        cells = self.cells
        return tuple(("equal", a, b, 0)
                     for a, b in zip(cells[:len(cells) // 2], reversed(cells)))


@dataclass(frozen=True)
class LittleKiller(Rule):
    """The digits on a diagonal line of cells add up to `total` (digits may repeat)."""

    cells: tuple[Cell, ...]
    total: int
    name = "little-killer"
    summary = "the digits on a diagonal add up to its sum"
    keys = ("cells", "total")

    def to_json(self) -> dict[str, Any]:
        """Its cells and sum."""
        return {"type": self.name, "cells": _names(self.cells), "total": self.total}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LittleKiller:
        """Cells and a whole sum."""
        return cls(_cells(data), _whole(data, "total"))

    def problem(self, box: Box) -> str:
        """Cells of the grid on one diagonal, a whole sum of 1 or more."""
        return _problem_of(self.name, self._problem(box[0] * box[1]))

    def _problem(self, n: int) -> str:
        """problem() without the rule's name."""
        cells_problem = _cells_problem(self.cells, n)
        if cells_problem or not self.cells:
            return cells_problem or "needs at least one cell"
        if _whole_problem(self.total, ""):
            return f"the sum {self.total!r} is not a whole number"
        if self.total < 1:
            return f"the sum must be 1 or more, not {self.total}"
        steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(self.cells, self.cells[1:])}
        if len(steps) > 1 or not steps <= {(1, 1), (1, -1), (-1, 1), (-1, -1)}:
            return "its cells are not one diagonal line"
        return ""

    def sum_of(self) -> tuple[tuple[Cell, ...], int, Cell | None]:
        """Its cells add up to its total."""
        return self.cells, self.total, None


@dataclass(frozen=True)
class ConsecutiveMarks(Dots):
    """Marked orthogonal neighbours hold consecutive digits; every other pair of orthogonal
    neighbours does not (the positive form of non-consecutive)."""

    pairs: tuple[Pair, ...] = ()
    name = "consecutive-marks"
    summary = "marked neighbours hold consecutive digits, all other neighbours do not"
    keys = ("pairs",)
    marks = {"pairs": "white"}
    unmarked = "apart"
    has_negative = False

    def relations(self, n: int) -> tuple[RelationSpec, ...]:
        """Every pair of orthogonal neighbours, consecutive where marked, else apart."""
        marked = {tuple(sorted(pair)) for pair in self.pairs}
        return tuple(("white" if pair in marked else "apart", *pair, 0)
                     for pair in orthogonal_pairs(n))


# --- sums along a row or column --------------------------------------------------------------

@dataclass(frozen=True)
class Sandwich(Rule):
    """In a row (or a column), the digits between the 1 and the N add up to `total`.

    `index` counts from 0; a total of 0 says the 1 and the N are neighbours."""

    column: bool
    index: int
    total: int
    name = "sandwich"
    summary = "the digits between the 1 and the N of a row or column add up to its sum"
    keys = ("row", "column", "total")

    def line(self, n: int) -> tuple[Cell, ...]:
        """The cells of its row or column on an N x N grid, in order."""
        return tuple((k, self.index) if self.column else (self.index, k) for k in range(n))

    def to_json(self) -> dict[str, Any]:
        """Its row or column (counted from 1) and sum."""
        return {"type": self.name, "column" if self.column else "row": self.index + 1,
                "total": self.total}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sandwich:
        """A row or a column counted from 1, and a whole sum."""
        if ("row" in data) == ("column" in data):
            raise InputError("a sandwich needs a 'row' or a 'column' (counted from 1)")
        index = _whole(data, "column" if "column" in data else "row")
        if index < 1:
            raise InputError(f"no row or column {index}")
        return cls("column" in data, index - 1, _whole(data, "total"))

    def problem(self, box: Box) -> str:
        """A row or column of the grid and a sum its digits can make."""
        return _problem_of(self.name, self._problem(box[0] * box[1]))

    def _problem(self, n: int) -> str:
        """problem() without the rule's name."""
        if _whole_problem(self.index, "") or _whole_problem(self.total, ""):
            return f"row or column {self.index!r} and sum {self.total!r} are not whole numbers"
        if not 0 <= self.index < n:
            return f"{'column' if self.column else 'row'} {self.index + 1} is outside the grid"
        if not 0 <= self.total <= n * (n + 1) // 2 - 1 - n:
            return f"no digits between 1 and {n} add up to {self.total}"
        return ""


# --- the registry: read off the classes themselves ---------------------------------------

# Every rule type, in the order defined: the one list that JSON, the command line, the
# backends' `supported_rules` and the tests derive from.
RULE_TYPES: tuple[type[Rule], ...] = tuple(_DEFINED)
BY_NAME: dict[str, type[Rule]] = {kind.name: kind for kind in RULE_TYPES}
LINES: tuple[type[Line], ...] = tuple(k for k in RULE_TYPES if issubclass(k, Line))
DOTS: tuple[type[Dots], ...] = tuple(k for k in RULE_TYPES if issubclass(k, Dots))

# The rules without parameters, one value each, by name.
SIMPLE_RULES: dict[str, Rule] = {kind.name: kind() for kind in RULE_TYPES
                                  if is_dataclass(kind) and not fields(kind)}
MIRACLE: tuple[Rule, ...] = (AntiKnight(), AntiKing(), NonConsecutive())


def listed(rules: tuple[Rule, ...]) -> str:
    """A puzzle's rules for a model's header: each name once, with its count when more
    than one ('killer x12, thermo x2'), or 'classic'."""
    counts: dict[str, int] = {}
    for rule in rules:
        counts[rule.name] = counts.get(rule.name, 0) + 1
    return ", ".join(name + (f" x{k}" if k > 1 else "") for name, k in counts.items()) \
        or "classic"


def rule_names(kinds: tuple[type[Rule], ...] | None = None) -> str:
    """The names of rule types for a help text, comma separated (by default the simple
    rules, then 'miracle' and what it stands for)."""
    if kinds is not None:
        return ", ".join(kind.name for kind in kinds)
    return ", ".join([*SIMPLE_RULES, f"miracle (= {', '.join(r.name for r in MIRACLE)})"])


def summaries(kinds: tuple[type[Rule], ...] | None = None) -> str:
    """'name: summary' of each rule type (by default the simple rules), '; ' between
    them, for a help text."""
    chosen = kinds if kinds is not None else tuple(type(rule) for rule in SIMPLE_RULES.values())
    return "; ".join(f"{kind.name}: {kind.summary}" for kind in chosen)


def jigsaw(rules: tuple[Rule, ...]) -> Rule | None:
    """The rule whose regions replace the boxes (the first one), or None."""
    return next((rule for rule in rules if getattr(rule, "replaces_boxes", False)), None)


# --- cells and JSON values ----------------------------------------------------------------

def cell_name(cell: Cell) -> str:
    """The usual r1c1 name of a cell, counted from 1."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def _names(cells: tuple[Cell, ...]) -> list[str]:
    """Cell names, as JSON lists them."""
    return [cell_name(c) for c in cells]


def parse_cell(text: str) -> Cell:
    """(row, col) from 'r1c1', counted from 1 in the text; InputError if malformed."""
    match = re.fullmatch(r"\s*[rR](\d+)\s*[cC](\d+)\s*", text)
    if not match:
        raise InputError(f"{text!r} is not a cell name like r1c1")
    if int(match[1]) < 1 or int(match[2]) < 1:
        raise InputError(f"{text!r}: rows and columns count from 1, as in r1c1")
    return int(match[1]) - 1, int(match[2]) - 1


def json_text(value: object, limit: int = 60) -> str:
    """A decoded JSON value as it was written (true, null, "3"), cut to a short line."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not from JSON: a Python value handed in
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _field(data: dict[str, Any], key: str) -> object:
    """data[key]; InputError naming the key when it is missing."""
    if key not in data:
        raise InputError(f"missing '{key}'")
    return data[key]


def _cells(data: dict[str, Any], key: str = "cells") -> tuple[Cell, ...]:
    """Cells from a list of names like "r1c1"."""
    value = _field(data, key)
    if not (isinstance(value, list) and all(isinstance(c, str) for c in value)):
        raise InputError(f"'{key}' must be a list of cell names like {CELLS_FORM}, "
                         f"not {json_text(value)}")
    return tuple(parse_cell(c) for c in value)


def _pairs(data: dict[str, Any], key: str) -> tuple[Pair, ...]:
    """Pairs of cells from [["r1c1", "r1c2"], ...] (none when the key is absent)."""
    value = data.get(key, [])
    form = f"'{key}' must be a list of cell pairs like [{CELLS_FORM}]"
    if not isinstance(value, list):
        raise InputError(f"{form}, not {json_text(value)}")
    pairs = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise InputError(f"{form}: {json_text(pair)} is not a pair of cells")
        if not all(isinstance(c, str) for c in pair):
            raise InputError(f"{form}, not {json_text(value)}")
        pairs.append((parse_cell(pair[0]), parse_cell(pair[1])))
    return tuple(pairs)


def _whole(data: dict[str, Any], key: str) -> int:
    """A whole number: not a string, a fraction, true or null."""
    value = _field(data, key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"'{key}' must be a whole number, not {json_text(value)}")
    return value


def _flag(data: dict[str, Any], key: str, default: bool | None = None) -> bool:
    """true or false (the default when the key is absent and there is one)."""
    value = data.get(key, default) if default is not None else _field(data, key)
    if not isinstance(value, bool):
        raise InputError(f"'{key}' must be true or false, not {json_text(value)}")
    return value


# --- a rule's JSON, dispatched by its type -------------------------------------------------

def rule_to_json(rule: Rule) -> dict[str, Any]:
    """A rule as a JSON object: {"type": name, ...parameters}."""
    return rule.to_json()


def _json_object(data: object) -> dict[str, Any]:
    """A rule's JSON value, checked to be an object."""
    if not isinstance(data, dict):
        raise InputError(f"must be an object with a 'type', not {json_text(data)}")
    return data


def _rule_kind(data: dict[str, Any]) -> type[Rule]:
    """The class of a rule's JSON object, checked: a known 'type'."""
    if "type" not in data:
        raise InputError("needs a 'type'")
    kind = data["type"]
    if not isinstance(kind, str):
        raise InputError(f"'type' must be a rule's name, not {json_text(kind)}")
    if kind not in BY_NAME:
        raise InputError(unknown("type", kind, BY_NAME))
    return BY_NAME[kind]


def rule_from_json(data: object, index: int = 1) -> Rule:
    """A rule from its JSON object; PuzzleError naming the rule (by position and type) and
    what is wrong, the JSON value as written."""
    where = f"rule {index}"
    try:
        obj = _json_object(data)
        kind = _rule_kind(obj)
        where += f" ({kind.name})"
        extra = [key for key in obj if key != "type" and key not in kind.keys]
        if extra:
            takes = ", ".join(kind.keys) or "nothing but its type"
            raise InputError(f"unknown key {extra[0]!r}; a {kind.name} takes: {takes}")
        return kind.from_json(obj)
    except InputError as error:
        raise PuzzleError(f"{where}: {error}") from None


def rule_problem(rule: Rule, box: Box) -> str:
    """What keeps a rule off a grid of this box shape, as a line naming the rule ('' when
    nothing does; a rule of a class sudokulab does not know is taken as it is)."""
    problem = getattr(rule, "problem", None)
    return problem(box) if callable(problem) else ""


# --- the command line's forms ---------------------------------------------------------------

def named(name: str, others: tuple[str, ...] = ()) -> tuple[Rule, ...]:
    """The rules a name stands for: a simple rule, or 'miracle'; UsageError if unknown
    (listing `others` too, the names a caller takes besides)."""
    key = name.strip().lower()
    if key == "miracle":
        return MIRACLE
    if key in SIMPLE_RULES:
        return (SIMPLE_RULES[key],)
    raise UsageError(unknown("rule", name, [*SIMPLE_RULES, "miracle", *others]))


def parse_cage(text: str) -> Cage:
    """A cage from 'r1c1,r1c2=10'; UsageError saying what is malformed."""
    cells, eq, total = text.partition("=")
    if not eq or not total.strip().isdigit():
        raise UsageError(f"cage {text!r}: expected cells=total, like r1c1,r1c2=10")
    return Cage(tuple(parse_cell(c) for c in cells.split(",")), int(total))


def parse_line(text: str) -> Line:
    """A line, arrow or region from 'thermometer:r1c1,r1c2' (the bulb or circle first)."""
    kind, colon, cells = text.partition(":")
    lines = {line.name: line for line in LINES}
    if not colon or kind.strip() not in lines:
        raise UsageError(f"line {text!r}: expected KIND:CELLS, KIND one of "
                         f"{rule_names(LINES)}")
    return lines[kind.strip()](parse_cells(cells))


def parse_little_killer(text: str) -> LittleKiller:
    """A little killer from 'r1c2,r2c3,r3c4=15' (the diagonal's cells, then its sum)."""
    cells, eq, total = text.partition("=")
    if not eq or not total.strip().isdigit():
        raise UsageError(f"little killer {text!r}: expected cells=total, like r1c2,r2c3=9")
    return LittleKiller(parse_cells(cells), int(total))


def parse_marks(kind: str, text: str) -> Kropki | XV:
    """Kropki dots ('w:r1c1-r1c2,b:r2c1-r2c2') or XV marks ('x:...,v:...'); a last item
    'negative' says that no mark means neither."""
    rule_type = Kropki if kind == "kropki" else XV
    letters = {field[0]: field for field in rule_type.marks}
    marks: dict[str, list[Pair]] = {name: [] for name in letters.values()}
    negative = False
    for item in (part.strip() for part in text.split(",") if part.strip()):
        if item == "negative":
            negative = True
            continue
        letter, colon, pair = item.partition(":")
        a, dash, b = pair.partition("-")
        if not colon or not dash or letter.strip().lower() not in letters:
            raise UsageError(f"{kind} mark {item!r}: expected "
                             f"{'|'.join(letters)}:CELL-CELL, like "
                             f"{next(iter(letters))}:r1c1-r1c2, or 'negative'")
        marks[letters[letter.strip().lower()]].append((parse_cell(a), parse_cell(b)))
    make: Callable[..., Kropki | XV] = rule_type  # its fields: a tuple of pairs per mark, negative
    return make(*(tuple(pairs) for pairs in marks.values()), negative=negative)


def parse_sandwich(text: str) -> Sandwich:
    """A sandwich sum from 'r3=10' (row 3) or 'c5=0' (column 5)."""
    match = re.fullmatch(r"\s*([rRcC])(\d+)\s*=\s*(\d+)\s*", text)
    if not match or int(match[2]) < 1:
        raise UsageError(f"sandwich {text!r}: expected r3=10 or c5=0")
    return Sandwich(match[1].lower() == "c", int(match[2]) - 1, int(match[3]))


def parse_pairs(text: str) -> ConsecutiveMarks:
    """Consecutive marks from 'r1c1-r1c2,r3c3-r4c3'."""
    pairs = []
    for item in (part.strip() for part in text.split(",") if part.strip()):
        a, dash, b = item.partition("-")
        if not dash:
            raise UsageError(f"mark {item!r}: expected CELL-CELL, like r1c1-r1c2")
        pairs.append((parse_cell(a), parse_cell(b)))
    return ConsecutiveMarks(tuple(pairs))


def parse_cells(text: str) -> tuple[Cell, ...]:
    """Cells from 'r1c1,r2c2'."""
    return tuple(parse_cell(c) for c in text.split(",") if c.strip())


def parse_regions(layout: str) -> Jigsaw:
    """Jigsaw regions from a layout of N*N labels, row by row (one label character a cell)."""
    labels = [ch for ch in layout if not ch.isspace()]
    n = round(len(labels) ** 0.5)
    if n * n != len(labels):
        raise UsageError(f"regions: {len(labels)} labels do not fill a square grid")
    regions: dict[str, list[Cell]] = {}
    for index, label in enumerate(labels):
        regions.setdefault(label, []).append(divmod(index, n))
    return Jigsaw(tuple(tuple(cells) for cells in regions.values()))
