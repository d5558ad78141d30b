"""The MiniZinc model (sudoku.mzn) and a puzzle's data for it (a .dzn file).

sudoku.mzn says what each rule means, as a predicate; the data lists the groups of cells
each rule constrains, as sudokulab's geometry works them out (units, chess-move pairs,
cages, line relations, sums, sandwich lines), cells numbered from 1. The implied cages
(sudokulab/cages.py) go in with the cages, as the CP-SAT model posts them.
"""

from __future__ import annotations

from pathlib import Path

from sudokulab import rules as R
from sudokulab.cages import implied_cages
from sudokulab.geometry import Geometry, geometry
from sudokulab.puzzle import Puzzle

MODEL = Path(__file__).with_name("sudoku.mzn")
GECODE_LIBRARY = Path(__file__).with_name("gecode")  # Gecode's alldifferent (see the file)
# mzn:consistency=...: alldifferent's propagation on the units, as sudoku.mzn numbers it
CONSISTENCY = {"default": 0, "domain": 1, "bounds": 2}


def model_text() -> str:
    """The text of sudoku.mzn."""
    return MODEL.read_text(encoding="utf-8")


def rule_data(geo: Geometry) -> dict[str, object]:
    """The data of a shape and rule set (everything but the givens), cells from 1."""
    cages = [(geo.indices(rule.cells), rule.total) for rule in geo.cages]
    if geo.cages:
        cages += [(geo.indices(cage.cells), cage.total) for cage in implied_cages(geo)]
    even = {geo.cell(*c) + 1 for rule in geo.rules if isinstance(rule, R.Parity) and rule.even
            for c in rule.cells}
    odd = {geo.cell(*c) + 1 for rule in geo.rules if isinstance(rule, R.Parity)
           and not rule.even for c in rule.cells}
    return {
        "n": geo.n, "cells": len(geo.cells),
        "units": [{c + 1 for c in unit} for unit in geo.units],
        "differ": [[a + 1, b + 1] for a, b in geo.moves],
        "nonconsecutive": [[a + 1, b + 1] for rel in geo.relations if not rel.differ
                           for a, b in rel.pairs],
        "even": even, "odd": odd,
        "cage_cells": [{c + 1 for c in cells} for cells, _ in cages],
        "cage_total": [total for _, total in cages],
        "groups": [{c + 1 for c in cells} for _, cells in geo.groups],
        "relation_kind": [rel.kind.replace("-", "_") for rel in geo.digit_relations],
        "relation": [[rel.a + 1, rel.b + 1, rel.param] for rel in geo.digit_relations],
        "sum_cells": [{c + 1 for c in total.cells} for total in geo.sums],
        "sum_total": [total.total for total in geo.sums],
        "sum_circle": [total.circle + 1 for total in geo.sums],
        "sandwich_line": [[c + 1 for c in line] for line, _ in geo.sandwiches],
        "sandwich_total": [total for _, total in geo.sandwiches],
        "consistency": CONSISTENCY["default"],
    }


def data(puzzle: Puzzle) -> dict[str, object]:
    """The whole data of a puzzle: its shape and rules, and its givens."""
    geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
    return {**rule_data(geo), "givens": list(puzzle.givens)}


def to_dzn(puzzle: Puzzle) -> str:
    """The puzzle as a MiniZinc data file for sudoku.mzn."""
    cells = "" if puzzle.layout is None else \
        f", its {puzzle.cell_count} cells in the order of its line"
    lines = [f"% sudokulab: {puzzle.shape}{cells}, rules: {R.listed(puzzle.rules)}"
             "; solve with: minizinc sudoku.mzn this.dzn"]
    return "\n".join(lines) + "\n" + data_text(data(puzzle), puzzle.n)


def data_text(values: dict[str, object], n: int) -> str:
    """Data in MiniZinc's syntax, one assignment a line."""
    return "".join(f"{key} = {_dzn(key, value, n)};\n" for key, value in values.items())


def to_mzn(puzzle: Puzzle) -> str:
    """sudoku.mzn with the puzzle's data inside: `minizinc this.mzn` solves it alone."""
    return model_text() + "\n% --- the puzzle's data (sudokulab export --to dzn) ---\n" \
        + to_dzn(puzzle)


TABLES = {"differ": 2, "nonconsecutive": 2, "relation": 3}  # 2-d arrays: their columns


def _dzn(key: str, value, n: int) -> str:
    """One value in MiniZinc's data syntax (sandwich lines are N cells wide)."""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, set):
        return _set(value)
    if key in TABLES or key == "sandwich_line":
        width = TABLES.get(key, n)
        return (f"array2d(1..{len(value)}, 1..{width}, "
                f"[{', '.join(str(x) for row in value for x in row)}])")
    return "[" + ", ".join(_set(x) if isinstance(x, set) else str(x) for x in value) + "]"


def _set(cells: set[int]) -> str:
    """A set of cells: {1, 2, 3}."""
    return "{" + ", ".join(map(str, sorted(cells))) + "}"
