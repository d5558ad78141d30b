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


Rule = Diagonal | AntiKnight | AntiKing | NonConsecutive | Windoku | Jigsaw | Cage | Parity

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
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise ValueError(f"{text!r} is not a cell name like r1c1")
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
    return data


def rule_from_json(data: object, index: int = 1) -> Rule:
    """A rule from its JSON object; PuzzleError naming the rule (by position) if malformed."""
    try:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise ValueError("needs an object with a 'type'")
        kind = data["type"]
        if kind in SIMPLE_RULES:
            return SIMPLE_RULES[kind]
        if kind == "jigsaw":
            return Jigsaw(tuple(tuple(parse_cell(c) for c in region)
                                for region in data["regions"]))
        if kind == "cage":
            return Cage(tuple(parse_cell(c) for c in data["cells"]), int(data["total"]))
        if kind == "parity":
            return Parity(tuple(parse_cell(c) for c in data["cells"]), bool(data["even"]))
        raise ValueError(unknown("type", kind, BY_NAME))
    except (KeyError, TypeError, ValueError) as error:
        detail = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise PuzzleError(f"rule {index}: {detail}") from None


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
