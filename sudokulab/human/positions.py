"""Pencil-mark positions: a puzzle with the digits placed so far and the candidates each
blank cell still has, in the forms players exchange them.

- HoDoKu's library line `:code:digits:grid:deleted:eliminations:placements:extra`: the grid
  holds givens (a digit), placed digits (`+d`) and blanks (`.` or `0`); `deleted` lists
  the candidates taken away by hand as `drc` (digit, row, column: `512` is 5 out of r1c2),
  space-separated; `eliminations` and `placements` (the same `drc` form) are what the
  step named by `code` does there (kept as `expected`, never applied); `extra` is ignored.
- A candidate grid as HoDoKu, SudokuWiki and Sukaku print it: N lines of N groups of
  digits, with or without box frames (`.---.`, `:---+---:`, `'---'`, `+---+`, `|`, `{12}`).
  A group of one digit is a digit placed in the cell; `.` is a blank cell left with none.
- Sukaku's 729-character string: 81 groups of 9, the k-th character of a group `k` when
  digit k is a candidate there and `0` or `.` when not; a group of one digit is placed.
- JSON: `{"puzzle": ..., "values": [...], "candidates": [[...], ...]}`, as the page's
  /api/hint takes them (`values` the entries over the givens, 0 for none; each blank's
  candidates, `[]` for "not marked": every digit the placed ones allow).

A position is a `Puzzle` whose givens are every digit placed (given or not) and which
also carries its candidates (`marks`): every engine and check that takes a puzzle takes it,
and the human techniques start from its candidates (sudokulab.human.candidates). A position
whose candidates contradict its digits, or leave a blank cell with none, is refused with
one line naming the cell (PuzzleError, exit code 2).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeGuard

from sudokulab import rules as R
from sudokulab.errors import PuzzleError
from sudokulab.formats import json_value
from sudokulab.formats.text import BOM  # stripped as puzzles strip it
from sudokulab.puzzle import Puzzle, box_shape

Pair = tuple[int, int]  # (cell, digit)
DRC = re.compile(r"^([1-9])([1-9])([1-9])$")
FRAME = re.compile(r"^[\s.\-:+'|*=_]*$")  # a line of a frame: no digit on it
# a cell of a candidate grid: its digits (in braces: candidates always), or '.' for none
CELL = re.compile(r"\{[1-9]*\}|(?<![^\s|])(?:[1-9]+|\.)(?![^\s|])")
REST = re.compile(r"[\s|]")  # what a row of a grid holds besides its cells
# any 729 characters on one line: no puzzle has 729 cells, so a bad character is named
# where it stands in its cell's group rather than taken for a puzzle of the wrong length
SUKAKU = re.compile(r"^\S{729}$")
GRID_LINES = 40  # lines of a candidate grid, with frames and a heading, at most


@dataclass(frozen=True)
class Position(Puzzle):
    """A puzzle in play: `givens` are every digit placed, `marks` each cell's candidates as
    a bitmask (bit d-1 for digit d; 0 for a filled cell), `placed` the cells placed while
    solving (not givens of the puzzle); a library line's `code`, `expected` eliminations
    and `placements`."""

    marks: tuple[int, ...] = ()
    placed: frozenset[int] = field(default=frozenset())
    code: str = ""
    expected: tuple[Pair, ...] = ()
    placements: tuple[Pair, ...] = ()

    def candidates(self) -> list[list[int]]:
        """Each cell's candidate digits ([] for a filled cell), row by row."""
        return [[d for d in range(1, self.n + 1) if m >> (d - 1) & 1] for m in self.marks]

    def puzzle(self) -> Puzzle:
        """The puzzle itself: its givens only, no placed digit, no candidates."""
        return Puzzle(self.box, tuple(0 if c in self.placed else d
                                      for c, d in enumerate(self.givens)), self.rules)

    def deleted(self) -> list[Pair]:
        """(cell, digit) of each candidate the placed digits allow but the position lacks."""
        allowed = _allowed(Puzzle(self.box, self.givens, self.rules))
        return [(c, d) for c in range(len(self.givens)) if not self.givens[c]
                for d in range(1, self.n + 1) if allowed[c] >> (d - 1) & 1
                and not self.marks[c] >> (d - 1) & 1]

    def library_line(self) -> str:
        """The position as HoDoKu's library line (no step: `:0000:x:`)."""
        grid = "".join("." if not d else f"+{d}" if c in self.placed else str(d)
                       for c, d in enumerate(self.givens))
        return f":0000:x:{grid}:{drc_text(self.deleted(), self.n)}::"

    def json_form(self) -> dict:
        """The JSON with per-cell candidates that `from_json` reads back: the puzzle as its
        JSON object, the placed digits (`values`) and each cell's `candidates`."""
        from sudokulab.formats.text import to_json

        values = [d if c in self.placed else 0 for c, d in enumerate(self.givens)]
        return {"puzzle": json_value(to_json(self.puzzle())), "values": values,
                "candidates": self.candidates()}

    def sukaku(self) -> str:
        """The 729-character pencil-mark string (a filled cell: its digit alone)."""
        n, out = self.n, []
        for c, value in enumerate(self.givens):
            mask = 1 << (value - 1) if value else self.marks[c]
            out.append("".join(str(d) if mask >> (d - 1) & 1 else "0" for d in range(1, n + 1)))
        return "".join(out)


def drc_text(pairs: Iterable[Pair], n: int = 9) -> str:
    """(cell, digit) pairs in HoDoKu's `drc` form, space-separated."""
    return " ".join(f"{d}{c // n + 1}{c % n + 1}" for c, d in pairs)


def is_position(puzzle: Puzzle) -> TypeGuard[Position]:
    """Whether a puzzle carries its own candidates."""
    return isinstance(puzzle, Position)


# --- reading ---------------------------------------------------------------------------

def read_position(text: str, box: tuple[int, int] | None = None,
                  rules: Iterable[R.Rule] = ()) -> Position | None:
    """The position a text holds in one of the forms above; None when the text is no
    position (a plain puzzle, which formats.text reads); PuzzleError for a position that is
    malformed or contradicts itself, naming the cell."""
    rules = tuple(rules)
    stripped = text.lstrip(BOM).strip()   # a file saved by an editor that marks UTF-8
    if stripped.startswith(":") and stripped.count(":") >= 4 and "\n" not in stripped:
        return library(stripped, box, rules)
    if stripped.startswith("{"):
        try:
            data = json_value(stripped)
        except ValueError:  # the forum's grid starts with a brace too: `{12} 4 {123} | ...`
            return candidate_grid(stripped, box, rules)
        if isinstance(data, dict) and data.get("candidates") is not None:
            return from_json(data, box, rules)
        return None
    if SUKAKU.match(stripped):
        return sukaku(stripped, box, rules)
    return candidate_grid(stripped, box, rules)


def holds_position(text: str) -> bool:
    """Whether a text that is no puzzle holds a pencil-mark position: a door that takes
    puzzles then says so, rather than why the text is no puzzle ('wrong length')."""
    try:
        return read_position(text) is not None
    except PuzzleError:
        return False


def read_positions(text: str, box: tuple[int, int] | None = None,
                   rules: Iterable[R.Rule] = ()) -> list[tuple[int, Position | str]] | None:
    """(line, position or its error) for each position of a text: one library line or
    729-character string a line, or the whole text one grid or JSON object; None when the
    text holds no position."""
    text = text.lstrip(BOM)
    lines = [(k, line.strip()) for k, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        return None
    if all(line.startswith(":") or SUKAKU.match(line) for _, line in lines):
        out: list[tuple[int, Position | str]] = []
        for k, line in lines:
            try:
                position = read_position(line, box, rules)
            except PuzzleError as error:
                out.append((k, str(error)))
                continue
            out.append((k, position if position is not None else "not a position"))
        return out
    if len(lines) > GRID_LINES and not lines[0][1].startswith("{"):
        return None  # a file of puzzles: no grid of candidates is that long
    try:
        position = read_position(text, box, rules)
    except PuzzleError as error:
        return [(lines[0][0], str(error))]
    return None if position is None else [(lines[0][0], position)]


def library(line: str, box: tuple[int, int] | None = None,
            rules: tuple = ()) -> Position:
    """A HoDoKu library line, honouring its givens, placed digits and deleted candidates."""
    fields = line.strip().split(":")
    if len(fields) < 5 or fields[0]:
        raise PuzzleError("not a HoDoKu library line (:code:digits:grid:deleted:...)")
    cells = re.findall(r"\+?.", fields[3].strip())
    n = _size(len(cells), "the library line's grid")
    givens, placed = [], set()
    for c, token in enumerate(cells):
        digit = token[-1]
        if digit in ".0":
            givens.append(0)
        elif digit.isdigit():
            givens.append(int(digit))
            if token.startswith("+"):
                placed.add(c)
        else:
            raise PuzzleError(f"the library line's grid: {token!r} at {_name(c, n)} is no "
                              f"digit")
    board = _puzzle(n, box, givens, rules)
    marks = _allowed(board)
    for c, d in _pairs(fields[4], n, "deleted candidates"):
        if givens[c]:
            raise PuzzleError(f"deleted candidates: {d}{_rc(c, n)} deletes {d} from "
                              f"{_name(c, n)}, which holds {givens[c]}")
        marks[c] &= ~(1 << (d - 1))
    expected = tuple(_pairs(fields[5], n, "eliminations")) if len(fields) > 5 else ()
    placements = (tuple(_pairs(fields[6], n, "placements", lenient=True))
                  if len(fields) > 6 else ())
    return _position(board, marks, frozenset(placed), code=fields[1].strip(),
                     expected=expected, placements=placements)


def candidate_grid(text: str, box: tuple[int, int] | None = None,
                   rules: tuple = ()) -> Position | None:
    """A printed candidate grid (frames optional); None when the text is no grid of
    space-separated groups of which one lists two candidates (a plain grid, a line). A
    group in braces (`{3}`, the forum's form) is candidates even when it lists one."""
    lines = [line for line in text.splitlines() if line.strip() and not FRAME.match(line)]
    rows = [CELL.findall(line) for line in lines]
    cells = [token for row in rows for token in row]
    if (len(rows) < 4 or any(REST.sub("", CELL.sub(" ", line)) for line in lines)
            or all(len(token) == 1 for token in cells)):
        return None
    n = len(rows)
    bad = next((k for k, row in enumerate(rows) if len(row) != n), None)
    if bad is not None:
        raise PuzzleError(f"the candidate grid: row {bad + 1} has {len(rows[bad])} cells; "
                          f"{n} rows need {n} each")
    groups = [[int(ch) for ch in token if ch.isdigit()] for token in cells]
    braced = {c for c, token in enumerate(cells) if token.startswith("{")}
    return _from_groups(groups, n, box, rules, "the candidate grid", braced)


def sukaku(text: str, box: tuple[int, int] | None = None, rules: tuple = ()) -> Position:
    """Sukaku's 729-character pencil-mark string: 81 groups of 9."""
    from sudokulab.human.candidates import unit_tables

    groups = []
    for c in range(81):
        group = text[c * 9:(c + 1) * 9]
        digits = []
        for k, ch in enumerate(group):
            if ch == str(k + 1):
                digits.append(k + 1)
            elif ch not in "0.":
                raise PuzzleError(f"the pencil-mark string: {_name(c, 9)} has {ch!r} at "
                                  f"place {k + 1} of its group, which holds {k + 1}, 0 or .")
        groups.append(digits)
    # Sukaku knows no placed digits: a lone candidate is placed unless a peer still lists it
    peers = unit_tables(box_shape(9), rules).peers
    unplaced = {c for c, group in enumerate(groups) if len(group) == 1
                and any(group[0] in groups[p] and len(groups[p]) > 1 for p in peers[c])}
    return _from_groups(groups, 9, box, rules, "the pencil-mark string", unplaced)


def from_json(data: dict, box: tuple[int, int] | None = None, rules: tuple = ()) -> Position:
    """JSON with per-cell candidates: `puzzle` (any text a puzzle is read from, or a
    puzzle object), `values` (optional) and `candidates`."""
    from sudokulab.formats.text import parse

    source = data.get("puzzle")
    if source is None:
        raise PuzzleError("the position's JSON has no \"puzzle\": give its givens")
    puzzle = parse(source if isinstance(source, str) else json.dumps(source), box=box,
                   rules=rules)
    n, count = puzzle.n, puzzle.cell_count
    values, candidates = data.get("values") or [0] * count, data["candidates"]
    for name, cells in (("values", values), ("candidates", candidates)):
        if not isinstance(cells, list) or len(cells) != count:
            raise PuzzleError(f"the position's JSON: \"{name}\" must list {count} cells")
    givens = list(puzzle.givens)
    placed = set()
    for c, d in enumerate(values):
        if not _digit(d) or not 0 <= d <= n:
            raise PuzzleError(f"the position's JSON: values: {_name(c, n)} holds {d!r}, not "
                              f"a digit 0-{n}")
        if d and givens[c] and d != givens[c]:
            raise PuzzleError(f"the position's JSON: values: {_name(c, n)} is given "
                              f"{givens[c]}, not {d}")
        if d and not givens[c]:
            givens[c] = d
            placed.add(c)
    board = puzzle.with_values(givens)
    marks = _allowed(board)
    for c, listed in enumerate(candidates):
        digits = _digits(listed, c, n)
        if digits and not givens[c]:
            _refuse_outside(board, c, digits, marks[c])
            marks[c] = sum(1 << (d - 1) for d in set(digits))
    return _position(board, marks, frozenset(placed))


# --- checking --------------------------------------------------------------------------

def _from_groups(groups: list[list[int]], n: int, box, rules: tuple, what: str,
                 braced: frozenset[int] | set[int] = frozenset()) -> Position:
    """A position from each cell's digits: one digit placed (unless `braced`), several
    candidates."""
    if n not in (4, 6, 8, 9):
        raise PuzzleError(f"{what}: {n} rows; a position is read for grids of 4 to 9 rows")
    givens = [group[0] if len(group) == 1 and c not in braced else 0
              for c, group in enumerate(groups)]
    for c, group in enumerate(groups):
        if any(not 1 <= d <= n for d in group):
            raise PuzzleError(f"{what}: {_name(c, n)} lists {group}, digits go from 1 to {n}")
    board = _puzzle(n, box, givens, rules)
    allowed = _allowed(board)
    marks = [0] * (n * n)
    for c, group in enumerate(groups):
        if not givens[c] and group:
            _refuse_outside(board, c, group, allowed[c])
            marks[c] = sum(1 << (d - 1) for d in group)
    return _position(board, marks, frozenset())


def of_grid(g, placed: Iterable[int] = ()) -> Position:
    """The Position of a pencil-mark grid (Candidates: the page's board, its digits and
    marks); `placed`: the cells a player filled, not the puzzle's givens."""
    board = Puzzle(g.puzzle.box, tuple(g.values), g.puzzle.rules)
    return _position(board, list(g.cands), frozenset(placed))


def _position(board: Puzzle, marks: list[int], placed: frozenset[int], **kw) -> Position:
    """The Position, after the checks every form shares: two equal digits in a unit, and
    a blank cell left without a candidate."""
    from sudokulab.human import solver

    broken = solver.contradiction(board)
    if broken:
        raise PuzzleError(f"the position's digits break a rule: {broken}")
    n = board.n
    for c, (d, m) in enumerate(zip(board.givens, marks)):
        if not d and not m:
            raise PuzzleError(f"{_name(c, n)} has no candidate left")
    return Position(board.box, board.givens, board.rules, None,
                    tuple(0 if d else m for d, m in zip(board.givens, marks)),
                    placed, **kw)


def _refuse_outside(board: Puzzle, cell: int, digits: Sequence[int], allowed: int) -> None:
    """PuzzleError naming the cell when one of its candidates is a digit the placed ones
    rule out, and the cell that rules it out when a peer holds it."""
    from sudokulab.human.candidates import unit_tables

    n = board.n
    for d in digits:
        if not allowed >> (d - 1) & 1:
            peers = unit_tables(board.box, board.rules).peers[cell]
            holder = next((p for p in sorted(peers) if board.givens[p] == d), None)
            why = (f"{_name(holder, n)} holds {d}" if holder is not None
                   else "the rules rule it out")
            raise PuzzleError(f"{_name(cell, n)}: candidate {d} contradicts the digits placed "
                              f"({why})")


def _allowed(board: Puzzle) -> list[int]:
    """Each cell's candidates from the digits placed and the rules alone."""
    from sudokulab.human.candidates import Candidates

    return list(Candidates(board).cands)


def _puzzle(n: int, box, givens: list[int], rules: tuple) -> Puzzle:
    """The board of the digits placed, in the box shape given or the squarest."""
    shape = (box[0], box[1]) if box else box_shape(n)
    if shape[0] * shape[1] != n:
        raise PuzzleError(f"--box {shape[0]}x{shape[1]} does not fit a {n}x{n} position")
    return Puzzle(shape, tuple(givens), rules)


def _pairs(text: str, n: int, what: str, lenient: bool = False) -> list[Pair]:
    """The `drc` tokens of a library field; PuzzleError naming a malformed one (lenient:
    tokens of another form, as older lines put there, are skipped)."""
    out = []
    for token in text.split():
        match = DRC.match(token)
        if match is None:
            if lenient:
                continue
            raise PuzzleError(f"the library line's {what}: {token!r} is not digit, row, "
                              f"column (e.g. 512: 5 in r1c2)")
        d, r, c = map(int, match.groups())
        if max(d, r, c) > n:
            raise PuzzleError(f"the library line's {what}: {token!r} is outside a {n}x{n}")
        out.append(((r - 1) * n + c - 1, d))
    return out


def _digits(listed, cell: int, n: int) -> list[int]:
    """A cell's candidates in JSON: a list of digits or a string of them."""
    if isinstance(listed, str):
        listed = [int(ch) for ch in listed if ch.isdigit()]
    if not isinstance(listed, list) or any(not _digit(d) or not 1 <= d <= n
                                           for d in listed):
        raise PuzzleError(f"the position's JSON: candidates: {_name(cell, n)} lists "
                          f"{listed!r}, not digits 1-{n}")
    return listed


def _digit(value: object) -> bool:
    """Whether a JSON value is a whole number (true and false are not: Python's bool is
    an int, and true would read as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _size(cells: int, what: str) -> int:
    """N for N*N cells."""
    n = int(round(cells ** 0.5))
    if n * n != cells or n > 9:
        raise PuzzleError(f"{what} has {cells} cells, not 81 (or 16, 36, 64)")
    return n


def _name(cell: int, n: int) -> str:
    """r1c1."""
    return R.cell_name(divmod(cell, n))


def _rc(cell: int, n: int) -> str:
    """The row and column digits of a `drc` token."""
    return f"{cell // n + 1}{cell % n + 1}"
