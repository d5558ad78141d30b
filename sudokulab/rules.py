"""Variant rules as plain data: each backend compiles them into its own model.

A rule says *what* must hold, never *how* to enforce it. Cells are (row, column)
pairs counted from 0. The classic rules (rows, columns, boxes) are implied by
every puzzle and are not listed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import get_args

from sudokulab.errors import PuzzleError, unknown

Cell = tuple[int, int]


@dataclass(frozen=True)
class Diagonal:
    """Both main diagonals hold every digit once (X-Sudoku)."""

    name = "diagonal"


@dataclass(frozen=True)
class AntiKnight:
    """Cells a chess knight's move apart hold different digits."""

    name = "anti-knight"


@dataclass(frozen=True)
class AntiKing:
    """Cells a chess king's move apart hold different digits."""

    name = "anti-king"


@dataclass(frozen=True)
class NonConsecutive:
    """Orthogonally adjacent cells do not hold consecutive digits."""

    name = "non-consecutive"


@dataclass(frozen=True)
class Windoku:
    """Extra box-sized windows, one cell in from the boxes, hold every digit once."""

    name = "windoku"


@dataclass(frozen=True)
class Jigsaw:
    """Irregular regions replace the boxes; each region holds every digit once."""

    regions: tuple[tuple[Cell, ...], ...]
    name = "jigsaw"


@dataclass(frozen=True)
class Cage:
    """A killer cage: its digits differ and add up to `total`."""

    cells: tuple[Cell, ...]
    total: int
    name = "cage"


@dataclass(frozen=True)
class Parity:
    """The listed cells hold even digits (`even=True`) or odd digits."""

    cells: tuple[Cell, ...]
    even: bool
    name = "parity"


Pair = tuple[Cell, Cell]


@dataclass(frozen=True)
class MainDiagonal:
    """The main diagonal alone (r1c1 to rNcN) holds every digit once."""

    name = "main-diagonal"


@dataclass(frozen=True)
class AntiDiagonal:
    """The anti-diagonal alone (r1cN to rNc1) holds every digit once."""

    name = "anti-diagonal"


@dataclass(frozen=True)
class DisjointGroups:
    """Cells at the same place in their boxes hold different digits (N extra units)."""

    name = "disjoint-groups"


@dataclass(frozen=True)
class Thermometer:
    """Digits strictly increase along the cells, from the bulb (the first cell)."""

    cells: tuple[Cell, ...]
    name = "thermometer"


@dataclass(frozen=True)
class Arrow:
    """The digits on the shaft (cells[1:]) add up to the digit in the circle (cells[0])."""

    cells: tuple[Cell, ...]
    name = "arrow"


@dataclass(frozen=True)
class Kropki:
    """White dots join consecutive digits, black dots digits of ratio 2; with `negative`,
    orthogonal neighbours with no dot are neither consecutive nor of ratio 2."""

    white: tuple[Pair, ...] = ()
    black: tuple[Pair, ...] = ()
    negative: bool = False
    name = "kropki"


@dataclass(frozen=True)
class XV:
    """An X joins digits adding up to 10, a V digits adding up to 5; with `negative`,
    orthogonal neighbours with no mark add up to neither."""

    x: tuple[Pair, ...] = ()
    v: tuple[Pair, ...] = ()
    negative: bool = False
    name = "xv"


@dataclass(frozen=True)
class ConsecutiveMarks:
    """Marked orthogonal neighbours hold consecutive digits; every other pair of orthogonal
    neighbours does not (the positive form of non-consecutive)."""

    pairs: tuple[Pair, ...] = ()
    name = "consecutive-marks"


@dataclass(frozen=True)
class Sandwich:
    """In a row (or a column), the digits between the 1 and the N add up to `total`.

    `index` counts from 0; a total of 0 says the 1 and the N are neighbours."""

    column: bool
    index: int
    total: int
    name = "sandwich"

    def line(self, n: int) -> tuple[Cell, ...]:
        """The cells of its row or column on an N x N grid, in order."""
        return tuple((k, self.index) if self.column else (self.index, k) for k in range(n))


@dataclass(frozen=True)
class SumlessCage:
    """A killer cage without its sum: its digits differ."""

    cells: tuple[Cell, ...]
    name = "cage-without-sum"


@dataclass(frozen=True)
class ExtraRegion:
    """An extra region: its digits differ (with N cells, it holds every digit once)."""

    cells: tuple[Cell, ...]
    name = "extra-region"


@dataclass(frozen=True)
class Renban:
    """The line's digits differ and form a run of consecutive digits, in any order."""

    cells: tuple[Cell, ...]
    name = "renban"


@dataclass(frozen=True)
class Whispers:
    """German whispers: neighbours on the line differ by at least half of N, rounded up
    (5 on a 9x9)."""

    cells: tuple[Cell, ...]
    name = "whispers"


@dataclass(frozen=True)
class Palindrome:
    """The line reads the same from both ends."""

    cells: tuple[Cell, ...]
    name = "palindrome"


@dataclass(frozen=True)
class LittleKiller:
    """The digits on a diagonal line of cells add up to `total` (digits may repeat)."""

    cells: tuple[Cell, ...]
    total: int
    name = "little-killer"


Rule = (Diagonal | AntiKnight | AntiKing | NonConsecutive | Windoku | Jigsaw | Cage | Parity
        | MainDiagonal | AntiDiagonal | DisjointGroups | Thermometer | Arrow | Kropki | XV
        | SumlessCage | ExtraRegion | Renban | Whispers | Palindrome | LittleKiller
        | ConsecutiveMarks | Sandwich)

LINES = (Thermometer, Arrow, SumlessCage, ExtraRegion, Renban, Whispers, Palindrome)
DOTS = (Kropki, XV, ConsecutiveMarks)

# Every rule type, read off the union above: the one list that JSON, the command line,
# the backends' `supported_rules` and the tests derive from.
RULE_TYPES: tuple[type, ...] = get_args(Rule)
BY_NAME: dict[str, type] = {kind.name: kind for kind in RULE_TYPES}

MIRACLE: tuple[Rule, ...] = (AntiKnight(), AntiKing(), NonConsecutive())

# The rules without parameters, one value each, by name.
SIMPLE_RULES: dict[str, Rule] = {kind.name: kind() for kind in RULE_TYPES if not fields(kind)}

KNIGHT_MOVES = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_MOVES = ((1, 1), (1, 0), (1, -1), (0, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1))
ORTHOGONAL_MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def cell_name(cell: Cell) -> str:
    """The usual r1c1 name of a cell, counted from 1."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def parse_cell(text: str) -> Cell:
    """(row, col) from 'r1c1', counted from 1 in the text; ValueError if malformed."""
    match = re.fullmatch(r"\s*[rR](\d+)\s*[cC](\d+)\s*", text)
    if not match:
        raise ValueError(f"{text!r} is not a cell name like r1c1")
    if int(match[1]) < 1 or int(match[2]) < 1:
        raise ValueError(f"{text!r}: rows and columns count from 1, as in r1c1")
    return int(match[1]) - 1, int(match[2]) - 1


def rule_to_json(rule: Rule) -> dict:
    """A rule as a JSON object: {"type": name, ...parameters}."""
    data: dict = {"type": rule.name}
    if isinstance(rule, Jigsaw):
        data["regions"] = [[cell_name(c) for c in region] for region in rule.regions]
    elif isinstance(rule, Cage):
        data["cells"] = [cell_name(c) for c in rule.cells]
        data["total"] = rule.total
    elif isinstance(rule, Parity):
        data["cells"] = [cell_name(c) for c in rule.cells]
        data["even"] = rule.even
    elif isinstance(rule, LINES):
        data["cells"] = [cell_name(c) for c in rule.cells]
    elif isinstance(rule, LittleKiller):
        data["cells"] = [cell_name(c) for c in rule.cells]
        data["total"] = rule.total
    elif isinstance(rule, Sandwich):
        data["column" if rule.column else "row"] = rule.index + 1
        data["total"] = rule.total
    elif isinstance(rule, DOTS):
        for field in _DOT_FIELDS[type(rule)]:
            data[field] = [[cell_name(a), cell_name(b)] for a, b in getattr(rule, field)]
        if not isinstance(rule, ConsecutiveMarks):
            data["negative"] = rule.negative
    return data


_DOT_FIELDS = {Kropki: ("white", "black"), XV: ("x", "v"), ConsecutiveMarks: ("pairs",)}
_LINE_TYPES = {kind.name: kind for kind in LINES}


# The keys each rule's JSON object takes besides "type" (puzzle.schema.json): any other
# key is a typo ("negativ") that would silently change the puzzle, so it is refused.
_JSON_KEYS: dict[str, tuple[str, ...]] = {
    **{name: () for name in SIMPLE_RULES}, "jigsaw": ("regions",),
    **{name: ("cells",) for name in _LINE_TYPES}, "cage": ("cells", "total"),
    "parity": ("cells", "even"), "little-killer": ("cells", "total"),
    "kropki": ("white", "black", "negative"), "xv": ("x", "v", "negative"),
    "consecutive-marks": ("pairs",), "sandwich": ("row", "column", "total")}
CELLS_FORM = '["r1c1", "r1c2"]'


def json_text(value: object, limit: int = 60) -> str:
    """A decoded JSON value as it was written (true, null, "3"), cut to a short line."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not from JSON: a Python value handed in
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _field(data: dict, key: str) -> object:
    """data[key]; ValueError naming the key when it is missing."""
    if key not in data:
        raise ValueError(f"missing '{key}'")
    return data[key]


def _cells(data: dict, key: str = "cells") -> tuple[Cell, ...]:
    """Cells from a list of names like "r1c1"."""
    value = _field(data, key)
    if not (isinstance(value, list) and all(isinstance(c, str) for c in value)):
        raise ValueError(f"'{key}' must be a list of cell names like {CELLS_FORM}, "
                         f"not {json_text(value)}")
    return tuple(parse_cell(c) for c in value)


def _regions(data: dict) -> tuple[tuple[Cell, ...], ...]:
    """Jigsaw regions from a list of lists of cell names."""
    value = _field(data, "regions")
    if not (isinstance(value, list) and all(isinstance(region, list) and
                                            all(isinstance(c, str) for c in region)
                                            for region in value)):
        raise ValueError(f"'regions' must be a list of regions, each a list of cell names "
                         f"like {CELLS_FORM}, not {json_text(value)}")
    return tuple(tuple(parse_cell(c) for c in region) for region in value)


def _pairs(data: dict, key: str) -> tuple[Pair, ...]:
    """Pairs of cells from [["r1c1", "r1c2"], ...] (none when the key is absent)."""
    value = data.get(key, [])
    form = f"'{key}' must be a list of cell pairs like [{CELLS_FORM}]"
    if not isinstance(value, list):
        raise ValueError(f"{form}, not {json_text(value)}")
    pairs = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"{form}: {json_text(pair)} is not a pair of cells")
        if not all(isinstance(c, str) for c in pair):
            raise ValueError(f"{form}, not {json_text(value)}")
        pairs.append((parse_cell(pair[0]), parse_cell(pair[1])))
    return tuple(pairs)


def _whole(data: dict, key: str) -> int:
    """A whole number: not a string, a fraction, true or null."""
    value = _field(data, key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"'{key}' must be a whole number, not {json_text(value)}")
    return value


def _flag(data: dict, key: str, default: bool | None = None) -> bool:
    """true or false (the default when the key is absent and there is one)."""
    value = data.get(key, default) if default is not None else _field(data, key)
    if not isinstance(value, bool):
        raise ValueError(f"'{key}' must be true or false, not {json_text(value)}")
    return value


def _rule_kind(data: object) -> str:
    """The name of a rule's JSON object, checked: an object with a known 'type'."""
    if not isinstance(data, dict):
        raise ValueError(f"must be an object with a 'type', not {json_text(data)}")
    if "type" not in data:
        raise ValueError("needs a 'type'")
    kind = data["type"]
    if not isinstance(kind, str):
        raise ValueError(f"'type' must be a rule's name, not {json_text(kind)}")
    if kind not in _JSON_KEYS:
        raise ValueError(unknown("type", kind, BY_NAME))
    return kind


def rule_from_json(data: object, index: int = 1) -> Rule:
    """A rule from its JSON object; PuzzleError naming the rule (by position and type) and
    what is wrong, the JSON value as written."""
    where = f"rule {index}"
    try:
        kind = _rule_kind(data)
        where += f" ({kind})"
        extra = [key for key in data if key != "type" and key not in _JSON_KEYS[kind]]
        if extra:
            takes = ", ".join(_JSON_KEYS[kind]) or "nothing but its type"
            raise ValueError(f"unknown key {extra[0]!r}; a {kind} takes: {takes}")
        return _rule_of(kind, data)
    except ValueError as error:
        raise PuzzleError(f"{where}: {error}") from None


def _rule_of(kind: str, data: dict) -> Rule:
    """The rule of a known type from its JSON object; ValueError saying what is wrong."""
    if kind in SIMPLE_RULES:
        return SIMPLE_RULES[kind]
    if kind == "jigsaw":
        return Jigsaw(_regions(data))
    if kind in _LINE_TYPES:
        return _LINE_TYPES[kind](_cells(data))
    if kind == "little-killer":
        return LittleKiller(_cells(data), _whole(data, "total"))
    if kind in ("kropki", "xv"):
        rule_type = Kropki if kind == "kropki" else XV
        return rule_type(*(_pairs(data, f) for f in _DOT_FIELDS[rule_type]),
                         negative=_flag(data, "negative", False))
    if kind == "sandwich":
        if ("row" in data) == ("column" in data):
            raise ValueError("a sandwich needs a 'row' or a 'column' (counted from 1)")
        index = _whole(data, "column" if "column" in data else "row")
        if index < 1:
            raise ValueError(f"no row or column {index}")
        return Sandwich("column" in data, index - 1, _whole(data, "total"))
    if kind == "consecutive-marks":
        return ConsecutiveMarks(_pairs(data, "pairs"))
    if kind == "cage":
        return Cage(_cells(data), _whole(data, "total"))
    return Parity(_cells(data), _flag(data, "even"))


def rule_problem(rule: Rule, n: int) -> str:
    """What is wrong with a rule's cells on an N x N grid ('' when nothing is)."""
    cells = [c for pair in getattr(rule, "white", ()) + getattr(rule, "black", ())
             + getattr(rule, "x", ()) + getattr(rule, "v", ()) + getattr(rule, "pairs", ())
             for c in pair]
    cells += list(getattr(rule, "cells", ()))
    for row, col in cells:
        if not (0 <= row < n and 0 <= col < n):
            return f"cell {cell_name((row, col))} is outside the {n}x{n} grid"
    if isinstance(rule, DOTS):
        pairs = [tuple(sorted(p)) for f in _DOT_FIELDS[type(rule)] for p in getattr(rule, f)]
        for a, b in pairs:
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                return f"{cell_name(a)} and {cell_name(b)} are not orthogonal neighbours"
        if len(set(pairs)) != len(pairs):
            return "two marks between the same cells"
        return ""
    if isinstance(rule, Sandwich):
        if not all(isinstance(v, int) and not isinstance(v, bool)
                   for v in (rule.index, rule.total)):
            return f"row or column {rule.index!r} and sum {rule.total!r} are not whole numbers"
        if not 0 <= rule.index < n:
            return f"{'column' if rule.column else 'row'} {rule.index + 1} is outside the grid"
        if not 0 <= rule.total <= n * (n + 1) // 2 - 1 - n:
            return f"no digits between 1 and {n} add up to {rule.total}"
        return ""
    if not isinstance(rule, LINES + (LittleKiller,)):
        return ""
    if len(set(rule.cells)) != len(rule.cells):
        return "a cell is listed twice"
    if isinstance(rule, (Thermometer, Arrow, Palindrome, Whispers)) and len(rule.cells) < 2:
        return "needs at least two cells"
    if not rule.cells:
        return "needs at least one cell"
    if isinstance(rule, (Renban, SumlessCage, ExtraRegion)) and len(rule.cells) > n:
        return f"more than {n} cells cannot all differ"
    if isinstance(rule, LittleKiller):
        if not isinstance(rule.total, int) or isinstance(rule.total, bool):
            return f"the sum {rule.total!r} is not a whole number"
        if rule.total < 1:
            return f"the sum must be 1 or more, not {rule.total}"
        steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(rule.cells, rule.cells[1:])}
        if len(steps) > 1 or not steps <= {(1, 1), (1, -1), (-1, 1), (-1, -1)}:
            return "its cells are not one diagonal line"
    return ""


def named(name: str) -> tuple[Rule, ...]:
    """The rules a name stands for: a simple rule, or 'miracle'; ValueError if unknown."""
    key = name.strip().lower()
    if key == "miracle":
        return MIRACLE
    if key in SIMPLE_RULES:
        return (SIMPLE_RULES[key],)
    raise ValueError(unknown("rule", name, [*SIMPLE_RULES, "miracle"]))


def parse_cage(text: str) -> Cage:
    """A cage from 'r1c1,r1c2=10'; ValueError saying what is malformed."""
    cells, eq, total = text.partition("=")
    if not eq or not total.strip().isdigit():
        raise ValueError(f"cage {text!r}: expected cells=total, like r1c1,r1c2=10")
    return Cage(tuple(parse_cell(c) for c in cells.split(",")), int(total))


def parse_line(text: str) -> Rule:
    """A line, arrow or region from 'thermometer:r1c1,r1c2' (the bulb or circle first)."""
    kind, colon, cells = text.partition(":")
    if not colon or kind.strip() not in _LINE_TYPES:
        raise ValueError(f"line {text!r}: expected KIND:CELLS, KIND one of "
                         f"{', '.join(_LINE_TYPES)}")
    return _LINE_TYPES[kind.strip()](parse_cells(cells))


def parse_little_killer(text: str) -> LittleKiller:
    """A little killer from 'r1c2,r2c3,r3c4=15' (the diagonal's cells, then its sum)."""
    cells, eq, total = text.partition("=")
    if not eq or not total.strip().isdigit():
        raise ValueError(f"little killer {text!r}: expected cells=total, like r1c2,r2c3=9")
    return LittleKiller(parse_cells(cells), int(total))


def parse_marks(kind: str, text: str) -> Kropki | XV:
    """Kropki dots ('w:r1c1-r1c2,b:r2c1-r2c2') or XV marks ('x:...,v:...'); a last item
    'negative' says that no mark means neither."""
    rule_type = Kropki if kind == "kropki" else XV
    letters = {"w": "white", "b": "black"} if rule_type is Kropki else {"x": "x", "v": "v"}
    marks: dict[str, list[Pair]] = {name: [] for name in letters.values()}
    negative = False
    for item in (part.strip() for part in text.split(",") if part.strip()):
        if item == "negative":
            negative = True
            continue
        letter, colon, pair = item.partition(":")
        a, dash, b = pair.partition("-")
        if not colon or not dash or letter.strip().lower() not in letters:
            raise ValueError(f"{kind} mark {item!r}: expected "
                             f"{'|'.join(letters)}:CELL-CELL, like "
                             f"{next(iter(letters))}:r1c1-r1c2, or 'negative'")
        marks[letters[letter.strip().lower()]].append((parse_cell(a), parse_cell(b)))
    return rule_type(*(tuple(pairs) for pairs in marks.values()), negative=negative)


def parse_sandwich(text: str) -> Sandwich:
    """A sandwich sum from 'r3=10' (row 3) or 'c5=0' (column 5)."""
    match = re.fullmatch(r"\s*([rRcC])(\d+)\s*=\s*(\d+)\s*", text)
    if not match or int(match[2]) < 1:
        raise ValueError(f"sandwich {text!r}: expected r3=10 or c5=0")
    return Sandwich(match[1].lower() == "c", int(match[2]) - 1, int(match[3]))


def parse_pairs(text: str) -> ConsecutiveMarks:
    """Consecutive marks from 'r1c1-r1c2,r3c3-r4c3'."""
    pairs = []
    for item in (part.strip() for part in text.split(",") if part.strip()):
        a, dash, b = item.partition("-")
        if not dash:
            raise ValueError(f"mark {item!r}: expected CELL-CELL, like r1c1-r1c2")
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
        raise ValueError(f"regions: {len(labels)} labels do not fill a square grid")
    regions: dict[str, list[Cell]] = {}
    for index, label in enumerate(labels):
        regions.setdefault(label, []).append(divmod(index, n))
    return Jigsaw(tuple(tuple(cells) for cells in regions.values()))
