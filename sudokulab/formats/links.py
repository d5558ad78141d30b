"""f-puzzles and SudokuPad links: read the puzzle a link carries, and write links to ours.

An f-puzzles link (`https://f-puzzles.com/?load=PAYLOAD`) carries its puzzle as JSON
compressed by lz-string's `compressToBase64`. SudokuPad (`https://sudokupad.app/...`)
reads that same payload after `fpuzzles` (or `fpuz`), and its own format after `scl`
(or `ctc`): lz-string again, around JSON in SudokuPad's compact form (short keys,
unquoted keys, single quotes, `t`/`f` for true/false, empty cells left out).

Every constraint is mapped onto sudokulab's rules or refused by name: a puzzle is never
read with a rule left out, since its answer would then be an answer to another puzzle.
Chat programs and some browsers reduce a `//` in a link to `/`: the reader puts slashes
back, trying the fewest first, until the payload decompresses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from itertools import combinations
from urllib.parse import unquote

from sudokulab import rules as R
from sudokulab.errors import PuzzleError
from sudokulab.geometry import geometry
from sudokulab.puzzle import MAX_SIZE, MIN_SIZE, Puzzle, jigsaw_box

FPUZZLES = "https://f-puzzles.com/?load="
SUDOKUPAD = "https://sudokupad.app/"
HOSTS = ("f-puzzles.com", "sudokupad.app", "crackingthecryptic.com", "sudokupad.svencodes.com")
PREFIXES = ("fpuzzles", "fpuz", "scl", "ctc")  # longest first where one starts another
MAX_SLASH_TRIES = 200  # ways to put back slashes that lost their twin: a bound on work

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
# SudokuPad's short keys (its PuzzleZipper), unzipped to the long ones.
SCL_KEYS = {"c": "color", "ca": "cages", "ct": "center", "c1": "borderColor",
            "c2": "backgroundColor", "ce": "cells", "cs": "cellSize", "a": "arrows",
            "o": "overlays", "u": "underlays", "w": "width", "h": "height", "v": "value",
            "vd": "videos", "l": "lines", "r": "rounded", "re": "regions", "fs": "fontSize",
            "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
            "te": "text", "d": "duration", "d2": "d"}
SCL_INFO = {"id", "cells", "regions", "cages", "lines", "metadata", "metaData", "cellSize",
            "settings", "title", "author", "rules", "solution", "videos"}


def is_link(text: str) -> bool:
    """Whether text looks like an f-puzzles or SudokuPad link (a cheap test, no decoding)."""
    head = text[:80].lower()
    return any(host in head for host in HOSTS) or (
        head.startswith(PREFIXES) and len(text) > 40 and " " not in text.strip())


def read_link(text: str) -> Puzzle:
    """The puzzle an f-puzzles or SudokuPad link carries; PuzzleError saying why not."""
    kind, payload = _payload(text.strip())
    data = _decoded(payload, kind)
    return from_fpuzzles(data) if kind == "fpuzzles" else from_scl(data)


def _payload(link: str) -> tuple[str, str]:
    """('fpuzzles' or 'scl', the compressed payload) of a link or a bare prefixed payload."""
    rest = re.sub(r"^[a-z]+:/*", "", link, flags=re.IGNORECASE)  # "https:/" too
    host, _, path = rest.partition("/")
    site = _site(host)
    if site == "f-puzzles.com":
        if "load=" in path:
            return "fpuzzles", path.split("load=", 1)[1].split("&", 1)[0]
        raise PuzzleError("f-puzzles link without ?load=: a short link (?id=) needs the "
                          "f-puzzles server; open it and copy the long link")
    if site is None:
        if rest != link or link.lower().startswith("www."):  # an address, of another site
            raise PuzzleError(f"{link[:60]!r} is not a puzzle link sudokulab knows: it reads "
                              f"links of {', '.join(HOSTS)}")
        path = link  # a bare payload: fpuzzles..., scl..., ctc...
    if "puzzleid=" in path:
        path = path.split("puzzleid=", 1)[1].split("&", 1)[0]
    else:  # settings may follow in a query; a payload never holds '?'
        path = re.sub(r"^sudoku/", "", path.split("?", 1)[0])
    path = unquote(path)
    for prefix in PREFIXES:
        if path.startswith(prefix):
            kind = "fpuzzles" if prefix.startswith("fpuz") else "scl"
            return kind, path[len(prefix):]
    if path.startswith("scf"):
        raise PuzzleError("SudokuPad 'scf' links are not supported; share the puzzle as "
                          "an f-puzzles or scl link")
    if not path:
        raise PuzzleError(f"SudokuPad link without a puzzle: {link[:60]!r}")
    raise PuzzleError(f"SudokuPad short link {path[:40]!r}: the puzzle is on SudokuPad's "
                      f"server, not in the link; open it and share it as an scl or "
                      f"f-puzzles link")


def _site(host: str) -> str | None:
    """Which of HOSTS a link's host is (itself or a subdomain of it), or None: only a
    known site's own host counts, not a host that merely contains its name."""
    name = host.rpartition("@")[2].partition(":")[0].lower().rstrip(".")
    return next((h for h in HOSTS if name == h or name.endswith("." + h)), None)


def _decoded(payload: str, kind: str) -> dict:
    """The JSON object a payload holds, putting back slashes that lost their twin."""
    from lzstring import LZString

    lz = LZString()
    payload = unquote(payload).replace(" ", "+").strip()
    slashes = [m.start() for m in re.finditer("/", payload)]
    tries = 0
    for doubled in range(len(slashes) + 1):
        for chosen in combinations(slashes, doubled):
            tries += 1
            if tries > MAX_SLASH_TRIES:
                break
            fixed = _doubled_at(payload, chosen)
            data = _json_of(_decompress(lz, fixed), kind)
            if data is not None:
                return data
    site = "f-puzzles" if kind == "fpuzzles" else "SudokuPad"
    raise PuzzleError(f"the link's payload is not a {site} puzzle (it does not decompress "
                      f"to one; was the link cut short?)")


def _doubled_at(text: str, positions: Iterable[int]) -> str:
    """text with the '/' at each of the positions written twice."""
    out, last = [], 0
    for at in positions:
        out.append(text[last:at + 1])
        last = at
    out.append(text[last:])
    return "".join(out)


def _decompress(lz, payload: str) -> str | None:
    """lz-string's decompressFromBase64, or None where the payload is not one."""
    try:
        return lz.decompressFromBase64(payload)
    except (IndexError, KeyError, TypeError, ValueError):
        return None


def _json_of(text: str | None, kind: str) -> dict | None:
    """The JSON object in decompressed text (SudokuPad's compact form unzipped), or None."""
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        if kind != "scl":
            return None
        try:
            data = unzip_scl(text)
        except ValueError:
            return None
    return data if isinstance(data, dict) else None


# --- SudokuPad's compact JSON ----------------------------------------------------------

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
    return _long_keys(json.loads(body))


def _long_keys(value: object) -> object:
    """A decoded value with SudokuPad's short keys replaced by the long ones."""
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    if isinstance(value, dict):
        return {SCL_KEYS.get(k, k): _long_keys(v) for k, v in value.items()}
    return value


# --- f-puzzles JSON --------------------------------------------------------------------

def _rc(text: str, n: int) -> R.Cell:
    """(row, col) from f-puzzles' 'R1C1'; PuzzleError if malformed or outside the grid."""
    match = re.fullmatch(r"R(\d+)C(\d+)", str(text).strip(), flags=re.IGNORECASE)
    if not match or not (1 <= int(match[1]) <= n and 1 <= int(match[2]) <= n):
        raise PuzzleError(f"f-puzzles: {text!r} is not a cell of the {n}x{n} grid")
    return int(match[1]) - 1, int(match[2]) - 1


def _size(value: object) -> int:
    """The grid size, checked."""
    if not isinstance(value, int) or not MIN_SIZE <= value <= MAX_SIZE:
        raise PuzzleError(f"size {value!r}: sudokulab reads sizes {MIN_SIZE} to {MAX_SIZE}")
    return value


def from_fpuzzles(data: dict) -> Puzzle:
    """A Puzzle from f-puzzles' JSON; PuzzleError naming every constraint it cannot hold."""
    n = _size(data.get("size", 9))
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
    box, jigsaw = _regions_of(n, labels, _fpuzzles_default(n))
    if jigsaw:
        rules.append(jigsaw)
    extra = [tuple(_rc(c, n) for c in part.get("cells", []))
             for part in data.get("extraregion") or []]
    if extra:
        if box is not None and min(box) > 1 and _is_windoku(extra, box):
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
    rules += _dot_rules(dots, negative, refused)
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
            cells = _diagonal((int(match[1]) - 1, int(match[2]) - 1), step, n)
        rules.append(R.LittleKiller(cells, int(total)))
    return rules


def _diagonal(clue: tuple[int, int], step: tuple[int, ...], n: int) -> tuple[R.Cell, ...]:
    """A little killer's cells: from the one after its clue along `step`, to the grid's edge
    (the clue sits outside an N x N grid)."""
    cells, (r, c) = [], (clue[0] + step[0], clue[1] + step[1])
    while 0 <= r < n and 0 <= c < n:
        cells.append((r, c))
        r, c = r + step[0], c + step[1]
    return tuple(cells)


def _dot_rules(dots: dict[str, list], negative: set[str], refused: list[str]) -> list[R.Rule]:
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


def _regions_of(n: int, labels: dict, default: tuple[int, int]
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


def _is_windoku(extra: list[tuple[R.Cell, ...]], box: tuple[int, int]) -> bool:
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
        else:
            _to_fpuzzles_lines(rule, data, name)
    if solution is not None:
        data["solution"] = list(solution)
    return data


def _to_fpuzzles_lines(rule: R.Rule, data: dict, name) -> None:
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
        marks = (("difference", rule.white, "1"), ("ratio", rule.black, "2")) if kropki else \
            (("xv", rule.x, "X"), ("xv", rule.v, "V"))
        for key, pairs, value in marks:
            data.setdefault(key, []).extend({"cells": [name(a), name(b)], "value": value}
                                            for a, b in pairs)
        if rule.negative:
            data.setdefault("negative", []).extend(["ratio", "difference"] if kropki
                                                   else ["xv"])


def _compressed(data: dict) -> str:
    """lz-string's compressToBase64 of compact JSON."""
    from lzstring import LZString

    return LZString().compressToBase64(json.dumps(data, separators=(",", ":")))


def fpuzzles_link(puzzle: Puzzle, solution: Iterable[int] | None = None) -> str:
    """An f-puzzles link that opens the puzzle."""
    return FPUZZLES + _compressed(to_fpuzzles(puzzle, solution))


def sudokupad_link(puzzle: Puzzle, solution: Iterable[int] | None = None) -> str:
    """A SudokuPad link that opens the puzzle (SudokuPad reads f-puzzles' payload)."""
    return SUDOKUPAD + "fpuzzles" + _compressed(to_fpuzzles(puzzle, solution))


# --- SudokuPad's own puzzle data -------------------------------------------------------

def from_scl(data: dict) -> Puzzle:
    """A Puzzle from SudokuPad's puzzle data; PuzzleError naming what it cannot hold.

    SudokuPad draws rules (lines, dots, arrows, shading) whose meaning the rules text
    gives. What it draws one way only, as its own converter writes f-puzzles' constraints,
    is read with f-puzzles' meaning (see `_scl_drawing`); the rest is refused by name.
    """
    cells = data.get("cells")
    if not (isinstance(cells, list) and cells and all(isinstance(r, list) for r in cells)):
        raise PuzzleError("SudokuPad puzzle without 'cells'")
    n = _size(len(cells))
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
        box, jigsaw = _regions_of(n, labels, (1, n))
        if jigsaw:
            rules.append(jigsaw)
    else:  # no regions drawn: rows and columns only, a Latin square (rows as regions)
        box, jigsaw = _regions_of(n, {}, (1, n))
        rules.append(jigsaw)
    extra = [rule.cells for rule in rules if isinstance(rule, R.ExtraRegion)]
    if extra and not jigsaw and min(box) > 1 and _is_windoku(extra, box):
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
    clues, dots, others = {}, {}, 0
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
    rules += _dot_rules(dots, negative, refused)
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
            cells = _diagonal(start, step, n)
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
    sizes = (overlay.get("width"), overlay.get("height"))
    return tuple(v if isinstance(v, (int, float)) else 0 for v in sizes)


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
