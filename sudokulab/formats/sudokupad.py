"""SudokuPad's own puzzle data (`scl` and `ctc` links): read it into a Puzzle.

SudokuPad's compact JSON has short keys, unquoted keys, single quotes, `t`/`f` for
true/false and empty cells left out (`unzip_scl` makes it plain JSON). SudokuPad draws
rules (lines, dots, arrows, shading) whose meaning the rules text gives: what it draws
one way only, as its own converter writes f-puzzles' constraints, is read with
f-puzzles' meaning (`formats.fpuzzles`); everything else is refused by name, since a
puzzle read with a rule left out would be another puzzle. The link around the data is
`formats.links`.
"""

from __future__ import annotations

import re

from sudokulab import rules as R
from sudokulab.errors import PuzzleError
from sudokulab.formats import json_value
from sudokulab.formats.fpuzzles import diagonal, dot_rules, grid_size, is_windoku, regions_of
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle

# SudokuPad's short keys (its PuzzleZipper), unzipped to the long ones.
SCL_KEYS = {"c": "color", "ca": "cages", "ct": "center", "c1": "borderColor",
            "c2": "backgroundColor", "ce": "cells", "cs": "cellSize", "a": "arrows",
            "o": "overlays", "u": "underlays", "w": "width", "h": "height", "v": "value",
            "vd": "videos", "l": "lines", "r": "rounded", "re": "regions", "fs": "fontSize",
            "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
            "te": "text", "d": "duration", "d2": "d"}


SCL_INFO = {"id", "cells", "regions", "cages", "lines", "metadata", "metaData", "cellSize",
            "settings", "title", "author", "rules", "solution", "videos"}


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def unzip_scl(text: str) -> dict:
    """SudokuPad's compact JSON as plain JSON, its short keys made long; ValueError if not."""
    if '"' not in text:  # single quotes stand for double ones; \' for a quote in a string
        text = text.replace("\\'", "\0").replace("'", '"').replace("\0", "'")
    strings = _STRING.findall(text)
    body = _STRING.sub('"\x01"', text)
    body = re.sub(r"([,{\[])([a-zA-Z0-9]+):", r'\1"\2":', body)
    body = re.sub(r"([,{\[])(?=[,}\]])", r"\1_", body)
    body = body.replace("{_}", "{}")
    body = re.sub(r"([,{\[])_", r"\1{}", body)
    body = re.sub(r":f(?=[,}\]])", ":false", body)
    body = re.sub(r":t(?=[,}\]])", ":true", body)
    body = re.sub(r":#0(?=[,}\]])", ':"#000000"', body)
    body = re.sub(r":#F(?=[,}\]])", ':"#FFFFFF"', body)
    body = re.sub(r":([0-9a-fA-F]{6})(?=[,}\]])", r':"#\1"', body)
    pieces = body.split('"\x01"')
    if len(pieces) != len(strings) + 1:
        raise ValueError("unbalanced strings")
    body = "".join(p + s for p, s in zip(pieces, strings)) + pieces[-1]
    data = _long_keys(json_value(body))
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def _long_keys(value: object) -> object:
    """A decoded value with SudokuPad's short keys replaced by the long ones."""
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    if isinstance(value, dict):
        return {SCL_KEYS.get(k, k): _long_keys(v) for k, v in value.items()}
    return value


def from_scl(data: dict) -> Puzzle:
    """A Puzzle from SudokuPad's puzzle data; PuzzleError naming what it cannot hold.

    SudokuPad draws rules (lines, dots, arrows, shading) whose meaning the rules text
    gives. What it draws one way only, as its own converter writes f-puzzles' constraints,
    is read with f-puzzles' meaning (see `_scl_drawing`); the rest is refused by name.
    """
    cells = data.get("cells")
    if not (isinstance(cells, list) and cells and all(isinstance(r, list) for r in cells)):
        raise PuzzleError("SudokuPad puzzle without 'cells'")
    n = grid_size(len(cells))
    if any(len(row) != n for row in cells):
        raise PuzzleError(f"SudokuPad puzzle: the grid is not {n}x{n}")
    givens = [_scl_digit(cell, r, c, n) for r, row in enumerate(cells)
              for c, cell in enumerate(row)]
    refused = [f"{key} ({len(value)})" if isinstance(value, list) else key
               for key, value in data.items()
               if key not in SCL_INFO and key not in SCL_DRAWING
               and value not in (None, False, [], "", {})]
    meta = {**_dict(data.get("metaData")), **_dict(data.get("metadata"))}
    if meta.get("bgimage"):  # a picture may draw rules no data says
        refused.append("a background image")
    rules: list[R.Rule] = []
    for key, rule in (("antiknight", R.AntiKnight()), ("antiking", R.AntiKing())):
        if meta.get(key) not in (None, False, "false"):
            rules.append(rule)
    cage_rules, disjoint = _scl_cages(data, n, refused)
    rules += cage_rules
    regions = data.get("regions") or []
    if regions:
        labels = {_scl_cell(rc, n): k for k, region in enumerate(regions) for rc in region}
        if len(labels) != n * n:
            refused.append("cells in no region")
        box, jigsaw = regions_of(n, labels, (1, n))
        if jigsaw:
            rules.append(jigsaw)
    else:  # no regions drawn: rows and columns only, a Latin square (rows as regions)
        box, jigsaw = regions_of(n, {}, (1, n))
        if jigsaw:  # always: rows are no boxes
            rules.append(jigsaw)
    extra = [rule.cells for rule in rules if isinstance(rule, R.ExtraRegion)]
    if extra and not jigsaw and min(box) > 1 and is_windoku(extra, box):
        rules = [rule for rule in rules if not isinstance(rule, R.ExtraRegion)]
        rules.append(R.Windoku())
    rules_text = _scl_rules_text(data, meta)
    rules += _scl_drawing(data, n, rules_text, refused)
    disjoint_groups = "disjoint" in _scl_global(data)
    if not disjoint_groups:  # cages without sums, not the groups
        rules += [R.SumlessCage(cage) for cage in disjoint]
    read = {type(rule) for rule in rules}
    refused += [f"{word} (named by the rules text, not drawn in a way sudokulab reads)"
                for word, kinds in SCL_NAMED.items()
                if re.search(rf"\b{word}", rules_text) and not read & set(kinds)]
    if disjoint_groups:
        groups = {frozenset(unit) for unit in geometry(box, (R.DisjointGroups(),)).units
                  if unit.kind == "disjoint group"}
        if jigsaw or {frozenset(r * n + c for r, c in cage) for cage in disjoint} != groups:
            refused.append("disjoint groups that are not the boxes' groups")
        rules.append(R.DisjointGroups())
    if refused:
        raise PuzzleError("SudokuPad puzzle: sudokulab cannot express "
                          + ", ".join(dict.fromkeys(refused)))
    return Puzzle(box, tuple(givens), tuple(dict.fromkeys(rules)))


# What SudokuPad's converter writes for f-puzzles' rules, beside drawings: its 'global'
# names (f-puzzles' flags, and 'anti' + a negative constraint's key).
SCL_GLOBAL = {"antiknight": R.AntiKnight(), "antiking": R.AntiKing(),
              "nonconsecutive": R.NonConsecutive()}


SCL_NEGATIVE = {"antixv": "xv", "antiratio": "ratio", "antidifference": "difference"}


SCL_DRAWING = {"global", "lines", "arrows", "overlays", "underlays"}


# Rules a rules text may name that SudokuPad's converter draws in no way read here, or
# not at all (renban, whispers): named but not read, the puzzle would be another one.
SCL_NAMED = {"renban": (R.Renban,), "whisper": (R.Whispers,), "sandwich": (R.Sandwich,),
             "palindrome": (R.Palindrome,), "thermo": (R.Thermometer,),
             "little killer": (R.LittleKiller,), "kropki": (R.Kropki, R.ConsecutiveMarks),
             "parity": (R.Parity,)}


SCL_PALINDROME = ("#CFCFCF", 16)  # colour and thickness of f-puzzles' palindrome lines


HALF = 0.5


BULB = 0.75  # the least size of a thermometer's bulb (f-puzzles' odd circles are 0.7)


def _scl_global(data: dict) -> list:
    """SudokuPad's 'global' names (a list, or one name)."""
    value = data.get("global") or []
    return value if isinstance(value, list) else [value]


def _scl_rules_text(data: dict, meta: dict) -> str:
    """The puzzle's rules text, lower case: metadata, or a 'rules: ...' cage."""
    texts = [str(meta.get("rules") or "")]
    texts += [str(cage.get("value"))[len("rules:"):] for cage in data.get("cages") or []
              if isinstance(cage, dict) and str(cage.get("value", "")).startswith("rules:")]
    return " ".join(texts).lower()


def _scl_cages(data: dict, n: int, refused: list[str]
               ) -> tuple[list[R.Rule], list[tuple[R.Cell, ...]]]:
    """Killer cages, cages without a sum and extra regions; and the disjoint groups'
    cages, apart (the 'disjoint' global says what they are)."""
    rules: list[R.Rule] = []
    disjoint = []
    for cage in data.get("cages") or []:
        cage_cells = cage.get("cells") if isinstance(cage, dict) else None
        if not cage_cells:
            continue  # metadata ("title: ...") kept as a cage without cells
        cells = tuple(_scl_cell(rc, n) for rc in cage_cells)
        total = str(cage.get("sum", cage.get("value", ""))).strip()
        style, kind = cage.get("style"), cage.get("type")
        if cage.get("unique") is False:
            refused.append("cells in no region" if cage.get("hidden")
                           else "cage whose digits may repeat")
        elif kind == "disjoint":
            disjoint.append(cells)
        elif kind is not None or style not in (None, "extraregion") \
                or cage.get("fromConstraint"):  # f-puzzles' indexer cages, ...
            refused.append(f"cage of {'type' if kind else 'style'} {kind or style!r}")
        elif style == "extraregion":  # its sum is SudokuPad's 1 + ... + k, not a clue
            if total not in ("", str(len(cells) * (len(cells) + 1) // 2)):
                refused.append(f"extra region with a sum of {total}")
            rules.append(R.ExtraRegion(cells))
        elif not total:
            rules.append(R.SumlessCage(cells))  # SudokuPad's cages hold no repeats
        elif total.isdigit():
            rules.append(R.Cage(cells, int(total)))
        else:
            refused.append(f"cage of value {total!r}")
    return rules, disjoint


def _scl_drawing(data: dict, n: int, rules_text: str, refused: list[str]) -> list[R.Rule]:
    """The rules SudokuPad draws one way only, read as f-puzzles' (its converter draws
    them so): the two diagonals (lines corner to corner); a thermometer (a line through
    cell centres with a round underlay on its first cell, the bulb); a palindrome (a line
    of f-puzzles' palindrome colour and thickness); Kropki dots (small round overlays
    without text on the edge between two cells, white or black); XV (an 'X' or 'V'
    overlay on an edge); an arrow (an arrow from a cell with a round overlay, its circle,
    through cell centres); a little killer (a diagonal arrow out of a number outside the
    grid); and the 'global' flags. Everything else drawn is refused by name: outside
    clues without an arrow (sandwiches, X-sums, ...), coloured lines (renban, whispers,
    ...: SudokuPad has no colour of its own for them), shading, pill-shaped circles."""
    rules: list[R.Rule] = []
    names = _scl_global(data)
    for name in names:
        if name in SCL_GLOBAL:
            rules.append(SCL_GLOBAL[name])
        elif name not in SCL_NEGATIVE and name != "disjoint":
            refused.append(f"global {name!r}")
    underlays = [o for o in data.get("underlays") or [] if isinstance(o, dict)]
    overlays = [o for o in data.get("overlays") or [] if isinstance(o, dict)]
    bulbs = {_cell_at(o.get("center"), n): o for o in underlays  # bigger than odd circles
             if o.get("rounded") and min(_size_of(o)) >= BULB}
    circles = {_cell_at(o.get("center"), n): o for o in overlays
               if o.get("rounded") and not _text(o) and min(_size_of(o)) >= HALF}
    bulbs.pop(None, None)
    circles.pop(None, None)
    used: set[int] = set()
    rules += _scl_lines(data, n, bulbs, used, rules_text, refused)
    clues: dict[R.Cell, int] = {}  # a clue outside the grid, by its cell
    dots: dict[str, list[R.Pair]] = {}  # the edges of each kind of mark
    others = 0
    for overlay in overlays:
        edge, text = _edge_at(overlay.get("center"), n), _text(overlay)
        outside = _outside_at(overlay.get("center"), n)
        if id(overlay) in (id(o) for o in circles.values()):
            continue  # an arrow's circle, or refused with the arrows
        if edge and overlay.get("rounded") and not text and max(_size_of(overlay)) < HALF:
            colour = _colour(overlay.get("backgroundColor"))
            if colour in ("#FFFFFF", "#000000"):
                dots.setdefault("white" if colour == "#FFFFFF" else "black", []).append(edge)
            else:
                refused.append(f"dot of colour {overlay.get('backgroundColor')!r}")
        elif edge and text.upper() in ("X", "V") and not overlay.get("rounded"):
            dots.setdefault(text.lower(), []).append(edge)
        elif outside and text.isdigit():
            clues[outside] = int(text)
        else:
            others += 1
    rules += _scl_arrows(data, n, circles, clues, refused)
    negative = {SCL_NEGATIVE[name] for name in names if name in SCL_NEGATIVE}
    if dots and not negative and _may_be_negative(rules_text):
        refused.append("dots or marks whose rules text may say that no mark means neither "
                       "(the drawing cannot say it)")
    rules += dot_rules(dots, negative, refused)
    unused = [o for o in underlays if id(o) not in used]
    for key, count in (("underlays", len(unused)), ("overlays", others)):
        if count:
            refused.append(f"{key} ({count})")
    return rules


def _scl_lines(data: dict, n: int, bulbs: dict, used: set[int], rules_text: str,
               refused: list[str]) -> list[R.Rule]:
    """Diagonals, thermometers (their bulbs' ids go to `used`) and palindromes."""
    rules: list[R.Rule] = []
    diagonals = {"main": False, "anti": False}
    others = 0
    for line in data.get("lines") or []:
        points = [tuple(p) for p in (line.get("wayPoints") or [])] \
            if isinstance(line, dict) else []
        if sorted(points) == [(0, 0), (n, n)]:
            diagonals["main"] = True
            continue
        if sorted(points) == [(0, n), (n, 0)]:
            diagonals["anti"] = True
            continue
        cells = _path(points, n)
        ends = [cell for cell in (cells[0], cells[-1]) if cell in bulbs] if cells else []
        if cells and len(ends) == 1:  # a bulb at one end: a thermometer rising from it
            if "slow thermo" in rules_text:
                refused.append("slow thermometers")
            used.add(id(bulbs[ends[0]]))
            rules.append(R.Thermometer(cells if ends[0] == cells[0] else cells[::-1]))
        elif cells and not ends and (_colour(line.get("color")),
                                     line.get("thickness")) == SCL_PALINDROME:
            rules.append(R.Palindrome(cells))
        else:
            others += 1
    if others:
        refused.append(f"lines ({others})")
    if all(diagonals.values()):
        rules.append(R.Diagonal())
    elif diagonals["main"]:
        rules.append(R.MainDiagonal())
    elif diagonals["anti"]:
        rules.append(R.AntiDiagonal())
    return rules


def _scl_arrows(data: dict, n: int, circles: dict, clues: dict, refused: list[str]
                ) -> list[R.Rule]:
    """Arrows from a circle through cell centres, and little killers (a diagonal arrow
    out of a number outside the grid); the clues and circles left are refused."""
    rules: list[R.Rule] = []
    others = 0
    taken_circles, taken_clues = set(), set()
    for arrow in data.get("arrows") or []:
        points = [tuple(p) for p in (arrow.get("wayPoints") or [])] \
            if isinstance(arrow, dict) else []
        if len(points) < 2 or not all(len(p) == 2 for p in points):
            others += 1
            continue
        start = (int(points[0][0] // 1), int(points[0][1] // 1))
        step = tuple(_sign(b - a) for a, b in zip(points[0], points[1]))
        if start in clues and len(points) == 2 and 0 not in step:  # a little killer
            cells = diagonal(start, step, n)
            if cells:
                taken_clues.add(start)
                rules.append(R.LittleKiller(cells, clues[start]))
                continue
        shaft = _path([(start[0] + HALF, start[1] + HALF)] + points[1:], n) \
            if start in circles else None
        if shaft and len(shaft) > 1:
            taken_circles.add(start)
            rules.append(R.Arrow(tuple(shaft)))
        else:
            others += 1
    if others:
        refused.append(f"arrows ({others})")
    if set(clues) - taken_clues:
        refused.append(f"clues outside the grid without an arrow "
                       f"({len(set(clues) - taken_clues)})")
    if set(circles) - taken_circles:
        refused.append(f"circles without an arrow ({len(set(circles) - taken_circles)})")
    return rules


def _may_be_negative(text: str) -> bool:
    """Whether a rules text may state a negative constraint ('all possible dots are
    given', 'no dot means ...'): then dots alone would be another puzzle."""
    return bool(re.search(r"(?<!not )\ball (the )?possible|\bno (dot|mark|x|v)\b|"
                          r"without an? (dot|mark)|(not|n't) (separated|connected|joined)|"
                          r"negative constraint", text))


def _text(overlay: dict) -> str:
    """An overlay's text, stripped."""
    return str(overlay.get("text") or "").strip()


def _size_of(overlay: dict) -> tuple[float, float]:
    """An overlay's width and height (in cells; 0 when missing)."""
    width, height = (v if isinstance(v, (int, float)) else 0
                     for v in (overlay.get("width"), overlay.get("height")))
    return width, height


def _colour(value: object) -> str:
    """A colour as #RRGGBB upper case ('#fff' -> '#FFFFFF'), or its text."""
    text = str(value or "").strip().upper()
    if re.fullmatch(r"#[0-9A-F]{3}", text):
        text = "#" + "".join(ch * 2 for ch in text[1:])
    return text


def _sign(x: float) -> int:
    """-1, 0 or 1."""
    return (x > 1e-9) - (x < -1e-9)


def _halves(point: object) -> tuple[int, int, bool, bool] | None:
    """A point [row, col] as integers (the floor), and whether each is a half."""
    if not (isinstance(point, (list, tuple)) and len(point) == 2
            and all(isinstance(v, (int, float)) for v in point)):
        return None
    floors = [int(v // 1) for v in point]
    halves = [abs(v - f - HALF) < 1e-6 for v, f in zip(point, floors)]
    wholes = [abs(v - round(v)) < 1e-6 for v in point]
    if not all(h or w for h, w in zip(halves, wholes)):
        return None
    return floors[0], floors[1], halves[0], halves[1]


def _cell_at(point: object, n: int) -> R.Cell | None:
    """The cell whose centre the point is, if any."""
    found = _halves(point)
    if found and found[2] and found[3] and 0 <= found[0] < n and 0 <= found[1] < n:
        return found[0], found[1]
    return None


def _outside_at(point: object, n: int) -> R.Cell | None:
    """The cell outside the grid (one row or column beyond) whose centre the point is."""
    found = _halves(point)
    if not (found and found[2] and found[3]):
        return None
    r, c = found[0], found[1]
    inside = (0 <= r < n, 0 <= c < n)
    return (r, c) if inside.count(True) == 1 and -1 <= r <= n and -1 <= c <= n else None


def _edge_at(point: object, n: int) -> R.Pair | None:
    """The two orthogonal neighbours whose shared edge the point is the middle of."""
    found = _halves(point)
    if not found or found[2] == found[3]:
        return None
    r, c, half_row, _ = found
    if half_row and 0 <= r < n and 0 < c < n:
        return (r, c - 1), (r, c)
    if not half_row and 0 < r < n and 0 <= c < n:
        return (r - 1, c), (r, c)
    return None


def _path(points: list, n: int) -> tuple[R.Cell, ...] | None:
    """The cells a line through cell centres visits, in order (straight runs between two
    way points filled in); None when a point is no centre or a run is not straight."""
    cells: list[R.Cell] = []
    for point in points:
        cell = _cell_at(list(point), n)
        if cell is None:
            return None
        if cells:
            (r, c), (r2, c2) = cells[-1], cell
            dr, dc = r2 - r, c2 - c
            if (dr, dc) == (0, 0) or (dr and dc and abs(dr) != abs(dc)):
                return None
            steps = max(abs(dr), abs(dc))
            cells += [(r + k * _sign(dr), c + k * _sign(dc)) for k in range(1, steps + 1)]
        else:
            cells.append(cell)
    return tuple(cells) if len(set(cells)) == len(cells) else None


def _dict(value: object) -> dict:
    """value if it is a dict, else an empty one."""
    return value if isinstance(value, dict) else {}


def _scl_digit(cell: object, r: int, c: int, n: int) -> int:
    """A cell's given digit (0 for none)."""
    value = cell.get("value") if isinstance(cell, dict) else None
    if value in (None, ""):
        return 0
    if str(value).isdigit() and 1 <= int(value) <= n:
        return int(value)
    raise PuzzleError(f"SudokuPad puzzle: r{r + 1}c{c + 1} holds {value!r}, not a digit 1-{n}")


def _scl_cell(rc: object, n: int) -> R.Cell:
    """(row, col) from SudokuPad's [r, c], checked."""
    if (isinstance(rc, list) and len(rc) == 2 and all(isinstance(v, int) for v in rc)
            and 0 <= rc[0] < n and 0 <= rc[1] < n):
        return rc[0], rc[1]
    raise PuzzleError(f"SudokuPad puzzle: {rc!r} is not a cell of the {n}x{n} grid")
