"""Multi-grid puzzles (a samurai) drawn as their board: reading and drawing.

The board form is the layout's rows as lines (a samurai: 21 lines of 21 characters),
each cell a digit or a blank mark (`.`, `0`, `_`, `-`, `*`), and each place between the
grids, where no cell is, a void mark: a space, `#`, `-` or `.` (the blank marks `-` and
`.` only when every void place holds one, as in files that write `0` for a blank and
`.` for the void). Trailing void may be left out, and comment lines (`#`) may come
before the board. Any other form of a multi-grid
puzzle is the one-line form (the board's cells row by row, 369 symbols for a samurai)
or JSON with `"layout": "samurai"`, read by `formats.text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sudokulab import rules as R
from sudokulab.errors import PuzzleError
from sudokulab.formats import BLANKS
from sudokulab.layout import LAYOUTS, Layout
from sudokulab.puzzle import SYMBOLS, Puzzle, box_shape

VOID = " #-."  # what stands where no grid lies ('-' and '.' are blanks inside a grid)
EMPTY = " #"  # the void marks that are never a cell
MAX_LINES = 100  # a board and its comment lines: a longer text is a file of many puzzles


def read_board(text: str, rules: Iterable[R.Rule] = ()) -> Puzzle | None:
    """The multi-grid puzzle a text draws as its board; None when it draws none.

    A text of as many lines as a layout has rows, none wider than the board and with
    void marks between its grids, is that board: from then on anything wrong in it is
    a PuzzleError naming the line and column, a stray line above it too (a text of
    boards, as many lines above as the board has, is no board).
    """
    if text.count("\n") > MAX_LINES:  # looked at before the text is split: files are long
        return None
    lines = [(number, line.rstrip()) for number, line in enumerate(text.splitlines(), 1)
             if line.strip()]
    for layout in LAYOUTS.values():
        head, rows = lines[:-layout.height], lines[-layout.height:]
        if len(rows) == layout.height and _looks_drawn(rows, layout):
            stray = [(number, line) for number, line in head if not line.lstrip().startswith("#")]
            if stray and len(stray) < layout.height:  # a board under a line of its own
                number, line = stray[0]
                raise PuzzleError(f"{layout.name}: line {number}: {line.strip()[:40]!r} "
                                  f"stands before the board, where only '#' comment lines "
                                  f"may")
            if not stray:
                return _board_puzzle(rows, layout, tuple(rules))
    return None


def _voids(layout: Layout) -> list[tuple[int, int]]:
    """The (row, column) places of the board where no grid lies."""
    return [(r, c) for r in range(layout.height) for c in range(layout.width)
            if (r, c) not in layout.index]


def _looks_drawn(rows: list[tuple[int, str]], layout: Layout) -> bool:
    """Whether lines are meant as the layout's board: as wide as the board at the most, and
    the places between the grids that the lines reach all hold void marks, or at least
    half of them a space or '#' (then a stray character there is named as an error)."""
    if max(len(line) for _, line in rows) != layout.width:
        return False
    reached = [rows[r][1][c] for r, c in _voids(layout) if c < len(rows[r][1])]
    return (all(char in VOID for char in reached)
            or 2 * sum(char in EMPTY for char in reached) >= len(reached))


def _board_puzzle(rows: list[tuple[int, str]], layout: Layout,
                  rules: tuple[R.Rule, ...]) -> Puzzle:
    """The puzzle of a board's lines; PuzzleError naming line and column if one is wrong."""
    for r, c in _voids(layout):
        number, line = rows[r]
        if c < len(line) and line[c] not in VOID:
            raise PuzzleError(f"{layout.name}: line {number}, column {c + 1}: {line[c]!r} "
                              f"lies between the grids, where no cell is (a void is ' ', "
                              f"'#', '-' or '.')")
    n = layout.n
    givens = []
    for r, c in layout.positions:
        number, line = rows[r]
        where = f"{layout.name}: line {number}, column {c + 1}"
        if c >= len(line) or line[c] in " #":
            raise PuzzleError(f"{where}: a cell is missing (a blank is '.' or '0')")
        char = line[c]
        digit = 0 if char in BLANKS else SYMBOLS.find(char.upper()) + 1
        if not (char in BLANKS or 1 <= digit <= n):
            raise PuzzleError(f"{where}: {char!r} is not a digit 1-{n} or a blank mark")
        givens.append(digit)
    return Puzzle(box_shape(n), tuple(givens), rules, layout)


def format_board(puzzle: Puzzle, texts: Sequence[str]) -> str:
    """One text per cell laid out on the board: box lines around the grids, the void
    between them left blank."""
    layout, (box_rows, box_cols) = puzzle.layout, puzzle.box
    if layout is None:
        raise ValueError("a single grid has no board of grids to draw")
    at = layout.index
    width = max(map(len, texts))
    group = box_cols * width + box_cols - 1
    stacks = range(0, layout.width, box_cols)

    def cell(r: int, c: int) -> bool:
        return (r, c) in at

    def wall(r: int, c: int) -> bool:  # a line between column c - 1 and c in row r
        return cell(r, c - 1) or cell(r, c)

    lines = []
    for r in range(layout.height):
        if r and r % box_rows == 0:
            seams = [any(cell(r - 1, c) or cell(r, c) for c in range(left, left + box_cols))
                     for left in stacks]
            rule = ""
            for k in range(len(stacks)):
                if k:
                    rule += "+" if seams[k - 1] or seams[k] else " "
                edge = 1 if k in (0, len(stacks) - 1) else 2
                rule += ("-" if seams[k] else " ") * (group + edge)
            lines.append(rule.rstrip())
        line = ""
        for k, left in enumerate(stacks):
            if k:
                line += " | " if wall(r, left) else "   "
            line += " ".join(texts[at[r, c]].ljust(width) if cell(r, c) else " " * width
                             for c in range(left, left + box_cols))
        lines.append(line.rstrip())
    return "\n".join(lines)
