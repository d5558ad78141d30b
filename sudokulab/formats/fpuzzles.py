"""f-puzzles' puzzle JSON: read it into a Puzzle, and write a Puzzle as it.

Every constraint is mapped onto sudokulab's rules or refused by name: a puzzle is never
read with a rule left out, since its answer would then be an answer to another puzzle.
SudokuPad's converter draws f-puzzles' constraints, so `formats.sudokupad` reads them
with the meanings kept here (`dot_rules`, `diagonal`, `regions_of`, `is_windoku`).
The link around the JSON is `formats.links`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sudokulab import rules as R
from sudokulab.errors import PuzzleError
from sudokulab.puzzle import MAX_SIZE, MIN_SIZE, Puzzle, jigsaw_box

# f-puzzles keys that say nothing about the solution (metadata, the setter's solver options).
FPUZZLES_INFO = {"size", "title", "author", "ruleset", "grid", "solution", "disabledlogic",
                 "truecandidatesoptions", "successMessage", "highlightConflicts", "version",
                 "activeConstraints"}


FPUZZLES_FLAGS = {"antiknight": R.AntiKnight(), "antiking": R.AntiKing(),
                  "nonconsecutive": R.NonConsecutive(), "disjointgroups": R.DisjointGroups()}


# f-puzzles' lines, one rule per line drawn (the first cell of a thermometer is its bulb).
FPUZZLES_LINES = {"thermometer": R.Thermometer, "renban": R.Renban, "whispers": R.Whispers,
                  "palindrome": R.Palindrome}


FPUZZLES_DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}


def _rc(text: str, n: int) -> R.Cell:
    """(row, col) from f-puzzles' 'R1C1'; PuzzleError if malformed or outside the grid."""
    match = re.fullmatch(r"R(\d+)C(\d+)", str(text).strip(), flags=re.IGNORECASE)
    if not match or not (1 <= int(match[1]) <= n and 1 <= int(match[2]) <= n):
        raise PuzzleError(f"f-puzzles: {text!r} is not a cell of the {n}x{n} grid")
    return int(match[1]) - 1, int(match[2]) - 1


def grid_size(value: object) -> int:
    """The grid size, checked."""
    if not isinstance(value, int) or not MIN_SIZE <= value <= MAX_SIZE:
        raise PuzzleError(f"size {value!r}: sudokulab reads sizes {MIN_SIZE} to {MAX_SIZE}")
    return value


def from_fpuzzles(data: dict) -> Puzzle:
    """A Puzzle from f-puzzles' JSON; PuzzleError naming every constraint it cannot hold."""
    n = grid_size(data.get("size", 9))
    grid = data.get("grid")
    if not (isinstance(grid, list) and len(grid) == n
            and all(isinstance(row, list) and len(row) == n for row in grid)):
        raise PuzzleError(f"f-puzzles: 'grid' must be {n} rows of {n} cells")
    refused = sorted(key for key, value in data.items()
                     if key not in FPUZZLES_INFO and key not in FPUZZLES_FLAGS
                     and key not in ("diagonal+", "diagonal-", "killercage", "odd", "even",
                                     "extraregion", "arrow", "ratio", "difference", "xv",
                                     "negative", "littlekillersum", "sandwichsum",
                                     *FPUZZLES_LINES)
                     and value not in (None, False, [], ""))
    rules: list[R.Rule] = [rule for key, rule in FPUZZLES_FLAGS.items() if data.get(key)]
    diagonals = [key for key in ("diagonal+", "diagonal-") if data.get(key)]
    if len(diagonals) == 2:
        rules.append(R.Diagonal())
    elif diagonals:  # diagonal+ rises from r9c1 to r1c9: the anti-diagonal
        rules.append(R.AntiDiagonal() if diagonals[0] == "diagonal+" else R.MainDiagonal())
    for cage in data.get("killercage") or []:
        total = str(cage.get("value", "")).strip()
        cells = tuple(_rc(c, n) for c in cage.get("cells", []))
        if not total:
            rules.append(R.SumlessCage(cells))
        elif not total.isdigit():
            refused.append(f"killercage of sum {total!r}")
        else:
            rules.append(R.Cage(cells, int(total)))
    rules += _fpuzzles_lines(data, n, refused)
    for key, even in (("even", True), ("odd", False)):
        cells = tuple(_rc(part.get("cell"), n) for part in data.get(key) or [])
        if cells:
            rules.append(R.Parity(cells, even))
    givens, labels = [], {}
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            cell = cell if isinstance(cell, dict) else {}
            value = cell.get("value") if cell.get("given") else 0
            if not isinstance(value, int) or not 0 <= value <= n:
                raise PuzzleError(f"f-puzzles: r{r + 1}c{c + 1} holds {value!r}, not a digit "
                                  f"1-{n}")
            givens.append(value)
            if "region" in cell:
                if cell["region"] is None:
                    refused.append("cells in no region")
                labels[r, c] = cell["region"]
    box, jigsaw = regions_of(n, labels, _fpuzzles_default(n))
    if jigsaw:
        rules.append(jigsaw)
    extra = [tuple(_rc(c, n) for c in part.get("cells", []))
             for part in data.get("extraregion") or []]
    if extra:
        if box is not None and min(box) > 1 and is_windoku(extra, box):
            rules.append(R.Windoku())
        else:
            rules += [R.ExtraRegion(cells) for cells in extra]
    if refused:
        raise PuzzleError("f-puzzles puzzle: sudokulab cannot express "
                          + ", ".join(dict.fromkeys(refused)))
    return Puzzle(box, tuple(givens), tuple(dict.fromkeys(rules)))


def _fpuzzles_lines(data: dict, n: int, refused: list[str]) -> list[R.Rule]:
    """The line, arrow, dot and little-killer rules of f-puzzles' JSON; what cannot be
    expressed goes to `refused`."""
    rules: list[R.Rule] = []
    for key, kind in FPUZZLES_LINES.items():
        rules += [kind(tuple(_rc(c, n) for c in line))
                  for part in data.get(key) or [] for line in part.get("lines", [])]
    for part in data.get("arrow") or []:
        circle = [_rc(c, n) for c in part.get("cells", [])]
        if len(circle) != 1:
            refused.append("arrow with a circle of several cells")
            continue
        for line in part.get("lines", []):  # each line from the circle is an arrow
            shaft = tuple(cell for cell in (_rc(c, n) for c in line) if cell != circle[0])
            rules.append(R.Arrow((circle[0],) + shaft))
    negative = set(data.get("negative") or [])
    dots: dict[str, list] = {}
    for key, value, mark in (("difference", "1", "white"), ("ratio", "2", "black"),
                             ("xv", "X", "x"), ("xv", "V", "v")):
        for part in data.get(key) or []:
            given = str(part.get("value") or ("" if key == "xv" else value)).upper()
            pair = tuple(_rc(c, n) for c in part.get("cells", []))
            if given == value:
                dots.setdefault(mark, []).append(pair)
            elif key != "xv" or given not in ("X", "V"):
                refused.append(f"{key} of value {given!r}")
    rules += dot_rules(dots, negative, refused)
    for part in data.get("sandwichsum") or []:  # the clue sits outside the grid
        match = re.fullmatch(r"R(\d+)C(\d+)", str(part.get("cell")), re.IGNORECASE)
        total = str(part.get("value", "")).strip()
        row, col = (int(match[1]), int(match[2])) if match else (-1, -1)
        if not total.isdigit() or (row in (0, n + 1)) == (col in (0, n + 1)):
            refused.append("sandwichsum without a sum or outside the grid's edge")
            continue
        column = row in (0, n + 1)
        rules.append(R.Sandwich(column, (col if column else row) - 1, int(total)))
    for part in data.get("littlekillersum") or []:
        total = str(part.get("value", "")).strip()
        if not total.isdigit():
            refused.append("littlekillersum without a sum")
            continue
        cells = tuple(_rc(c, n) for c in part.get("cells") or [])
        if not cells:  # only the clue outside the grid and its direction
            match = re.fullmatch(r"R(\d+)C(\d+)", str(part.get("cell")), re.IGNORECASE)
            step = FPUZZLES_DIRECTIONS.get(str(part.get("direction")).upper())
            if not match or not step:
                refused.append("littlekillersum without its cells")
                continue
            cells = diagonal((int(match[1]) - 1, int(match[2]) - 1), step, n)
        rules.append(R.LittleKiller(cells, int(total)))
    return rules


def diagonal(clue: tuple[int, int], step: tuple[int, ...], n: int) -> tuple[R.Cell, ...]:
    """A little killer's cells: from the one after its clue along `step`, to the grid's edge
    (the clue sits outside an N x N grid)."""
    cells, (r, c) = [], (clue[0] + step[0], clue[1] + step[1])
    while 0 <= r < n and 0 <= c < n:
        cells.append((r, c))
        r, c = r + step[0], c + step[1]
    return tuple(cells)


def dot_rules(dots: dict[str, list], negative: set[str], refused: list[str]) -> list[R.Rule]:
    """Kropki and XV rules from the marks by kind ('white', 'black', 'x', 'v') and
    f-puzzles' negative constraints ('difference', 'ratio', 'xv')."""
    rules: list[R.Rule] = []
    kropki = {"ratio", "difference"} & negative
    if kropki == {"difference"} and not dots.get("black"):  # the rest non-consecutive
        rules.append(R.ConsecutiveMarks(tuple(dots.get("white", ()))))
    elif len(kropki) == 1:
        refused.append(f"negative {kropki.pop()} alone")
    elif kropki or dots.get("white") or dots.get("black"):
        rules.append(R.Kropki(tuple(dots.get("white", ())), tuple(dots.get("black", ())),
                              negative=bool(kropki)))
    if "xv" in negative or dots.get("x") or dots.get("v"):
        rules.append(R.XV(tuple(dots.get("x", ())), tuple(dots.get("v", ())),
                          negative="xv" in negative))
    return rules


def _fpuzzles_default(n: int) -> tuple[int, int]:
    """f-puzzles' default regions: height the largest divisor of N up to its square root."""
    height = int(n**0.5)
    while n % height:
        height -= 1
    return height, n // height


def regions_of(n: int, labels: dict, default: tuple[int, int]
                ) -> tuple[tuple[int, int], R.Jigsaw | None]:
    """The box shape and, when the regions are no boxes, the Jigsaw rule they make."""
    h, w = default
    groups: dict = {}
    for r in range(n):
        for c in range(n):
            label = labels.get((r, c), (r // h) * h + c // w)
            groups.setdefault(label, []).append((r, c))
    regions = tuple(tuple(cells) for cells in groups.values())
    shape = _box_of(regions, n)
    if shape:
        return shape, None
    return jigsaw_box(n), R.Jigsaw(regions)


def _box_of(regions: tuple[tuple[R.Cell, ...], ...], n: int) -> tuple[int, int] | None:
    """The box shape whose boxes the regions are, if any (rows and cols both above 1)."""
    found = {frozenset(region) for region in regions}
    for rows in range(2, n):
        if n % rows:
            continue
        cols = n // rows
        boxes = {frozenset((top + r, left + c) for r in range(rows) for c in range(cols))
                 for top in range(0, n, rows) for left in range(0, n, cols)}
        if boxes == found:
            return rows, cols
    return None


def _windows(box: tuple[int, int]) -> set[frozenset]:
    """The windoku windows of a box shape, as sets of cells."""
    rows, cols = box
    n = rows * cols
    return {frozenset((top + r, left + c) for r in range(rows) for c in range(cols))
            for top in range(1, n - rows + 1, rows + 1)
            for left in range(1, n - cols + 1, cols + 1)}


def is_windoku(extra: list[tuple[R.Cell, ...]], box: tuple[int, int]) -> bool:
    """Whether the extra regions are exactly the windoku windows."""
    return {frozenset(cells) for cells in extra} == _windows(box)


def to_fpuzzles(puzzle: Puzzle, solution: Iterable[int] | None = None) -> dict:
    """f-puzzles' JSON of a puzzle (its solution too, when given)."""
    n = puzzle.n
    name = lambda cell: f"R{cell[0] + 1}C{cell[1] + 1}"  # noqa: E731
    grid = [[{"value": d, "given": True} if (d := puzzle.givens[r * n + c]) else {}
             for c in range(n)] for r in range(n)]
    jigsaw = next((rule for rule in puzzle.rules if isinstance(rule, R.Jigsaw)), None)
    if jigsaw:
        regions = jigsaw.regions
    elif puzzle.box != _fpuzzles_default(n):
        rows, cols = puzzle.box
        regions = tuple(tuple((top + r, left + c) for r in range(rows) for c in range(cols))
                        for top in range(0, n, rows) for left in range(0, n, cols))
    else:
        regions = ()
    for k, region in enumerate(regions):
        for r, c in region:
            grid[r][c]["region"] = k
    data: dict = {"size": n, "grid": grid}
    _refuse_shared_negatives(puzzle.rules)
    for rule in puzzle.rules:
        if isinstance(rule, R.Diagonal):
            data["diagonal+"] = data["diagonal-"] = True
        elif isinstance(rule, R.AntiKnight):
            data["antiknight"] = True
        elif isinstance(rule, R.AntiKing):
            data["antiking"] = True
        elif isinstance(rule, R.NonConsecutive):
            data["nonconsecutive"] = True
        elif isinstance(rule, R.Cage):
            data.setdefault("killercage", []).append(
                {"cells": [name(c) for c in rule.cells], "value": str(rule.total)})
        elif isinstance(rule, R.Parity):
            data.setdefault("even" if rule.even else "odd", []).extend(
                {"cell": name(c)} for c in rule.cells)
        elif isinstance(rule, R.Windoku):
            data["extraregion"] = [{"cells": [name(c) for c in sorted(window)]}
                                   for window in sorted(_windows(puzzle.box), key=min)]
        elif not isinstance(rule, R.Jigsaw):  # a jigsaw's regions are the grid's, above
            _to_fpuzzles_lines(rule, data, name, puzzle.box)
    _merge_marks(data)
    if solution is not None:
        data["solution"] = list(solution)
    return data


def _dot_keys(rule: R.Rule) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The f-puzzles keys a dot rule writes its marks under, and those its negative
    constraint covers (in a fixed order: a refusal names the same key every run)."""
    if isinstance(rule, R.ConsecutiveMarks):
        return ("difference",), ("difference",)
    if isinstance(rule, R.Kropki):
        return ("difference", "ratio"), ("difference", "ratio") if rule.negative else ()
    if isinstance(rule, R.XV):
        return ("xv",), ("xv",) if rule.negative else ()
    return (), ()


def _refuse_shared_negatives(rules: tuple[R.Rule, ...]) -> None:
    """PuzzleError when two dot rules share an f-puzzles key and one of them is negative
    there: f-puzzles keeps one list of marks per key with one negative constraint, so the
    link would forbid or allow other pairs than the rules do."""
    users: dict[str, list[tuple[str, bool]]] = {}
    for rule in rules:
        keys, negative = _dot_keys(rule)
        for key in keys:
            users.setdefault(key, []).append((rule.name, key in negative))
    for key, listed in users.items():
        if len(listed) > 1 and any(negative for _, negative in listed):
            names = " and ".join(name for name, _ in listed)
            raise PuzzleError(f"f-puzzles keeps one list of '{key}' marks with one negative "
                              f"constraint: {names} (one of them negative) cannot share it")


def _merge_marks(data: dict) -> None:
    """Each pair of cells marked once per key (two rules may mark the same pair); PuzzleError
    for two different marks between the same cells, which f-puzzles cannot hold."""
    for key in ("difference", "ratio", "xv"):
        kept: dict[tuple[str, ...], dict] = {}
        for mark in data.get(key, []):
            cells = tuple(sorted(mark["cells"]))
            if cells in kept and kept[cells]["value"] != mark["value"]:
                raise PuzzleError(f"two '{key}' marks between {cells[0]} and {cells[1]}: "
                                  f"f-puzzles holds one")
            kept.setdefault(cells, mark)
        if key in data:
            data[key] = list(kept.values())
    white = {tuple(sorted(mark["cells"])) for mark in data.get("difference", [])}
    both = [mark["cells"] for mark in data.get("ratio", [])
            if tuple(sorted(mark["cells"])) in white]
    if both:  # the reader makes one kropki rule of the two keys: one dot a pair
        raise PuzzleError(f"a white and a black dot between {both[0][0]} and {both[0][1]}: "
                          f"f-puzzles reads them as one kropki rule, which holds one")
    if "negative" in data:
        data["negative"] = list(dict.fromkeys(data["negative"]))


def _to_fpuzzles_lines(rule: R.Rule, data: dict, name, box: tuple[int, int]) -> None:
    """The f-puzzles JSON of a line, arrow, dot, region or little-killer rule, into data."""
    cells = [name(c) for c in getattr(rule, "cells", ())]
    kind = next((key for key, kind in FPUZZLES_LINES.items() if isinstance(rule, kind)), None)
    if kind:
        data.setdefault(kind, []).append({"lines": [cells]})
    elif isinstance(rule, (R.MainDiagonal, R.AntiDiagonal)):
        data["diagonal-" if isinstance(rule, R.MainDiagonal) else "diagonal+"] = True
    elif isinstance(rule, R.DisjointGroups):
        data["disjointgroups"] = True
    elif isinstance(rule, R.Arrow):
        data.setdefault("arrow", []).append({"cells": cells[:1], "lines": [cells]})
    elif isinstance(rule, R.SumlessCage):
        data.setdefault("killercage", []).append({"cells": cells})
    elif isinstance(rule, R.ExtraRegion):
        data.setdefault("extraregion", []).append({"cells": cells})
    elif isinstance(rule, R.LittleKiller):
        first, second = rule.cells[0], rule.cells[1] if len(rule.cells) > 1 else None
        step = (second[0] - first[0], second[1] - first[1]) if second else (1, 1)
        direction = next(k for k, v in FPUZZLES_DIRECTIONS.items() if v == step)
        data.setdefault("littlekillersum", []).append(
            {"cell": f"R{first[0] - step[0] + 1}C{first[1] - step[1] + 1}", "cells": cells,
             "direction": direction, "value": str(rule.total)})
    elif isinstance(rule, R.Sandwich):
        cell = f"R0C{rule.index + 1}" if rule.column else f"R{rule.index + 1}C0"
        data.setdefault("sandwichsum", []).append({"cell": cell, "value": str(rule.total)})
    elif isinstance(rule, R.ConsecutiveMarks):
        data.setdefault("difference", []).extend({"cells": [name(a), name(b)], "value": "1"}
                                                 for a, b in rule.pairs)
        data.setdefault("negative", []).append("difference")
    elif isinstance(rule, (R.Kropki, R.XV)):
        kropki = isinstance(rule, R.Kropki)
        marks = (("difference", rule.white, "1"), ("ratio", rule.black, "2")) \
            if isinstance(rule, R.Kropki) else (("xv", rule.x, "X"), ("xv", rule.v, "V"))
        for key, pairs, value in marks:
            data.setdefault(key, []).extend({"cells": [name(a), name(b)], "value": value}
                                            for a, b in pairs)
        if rule.negative:
            data.setdefault("negative", []).extend(["ratio", "difference"] if kropki
                                                   else ["xv"])
    else:
        _to_fpuzzles_units(rule, data, name, box)


def _to_fpuzzles_units(rule: R.Rule, data: dict, name, box: tuple[int, int]) -> None:
    """A rule f-puzzles has no key for, as its units: each an extra region of N cells, which
    holds every digit once there too. PuzzleError for a rule that says more than its units
    (a rule dropped from the link would open another puzzle)."""
    units = rule.units(box)
    if not units or rule.moves or rule.relations(data["size"]) or rule.distinct_cells() \
            or rule.sum_of() is not None:
        raise PuzzleError(f"f-puzzles has no form for the rule {rule.name}")
    data.setdefault("extraregion", []).extend({"cells": [name(c) for c in cells]}
                                              for _, _, cells in units)
