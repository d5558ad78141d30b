"""The Puzzle value and its invariants; the symbols that name digits.

A Puzzle is checked when it is made, whoever makes it (a reader, a backend, a library
user): its box makes a grid of 4x4 to 25x25, its givens fit the grid, and every rule's
cells, regions and sums fit it too. Bad values raise PuzzleError saying what and where.
Reading and writing the text forms is `sudokulab.formats.text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache

from sudokulab import rules as R
from sudokulab.errors import PuzzleError, UsageError
from sudokulab.geometry import geometry
from sudokulab.layout import Layout

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MARKS = "." + SYMBOLS  # MARKS[d]: the symbol of digit d, '.' for a blank
MIN_SIZE, MAX_SIZE = 4, 25

Grid = tuple[int, ...]


@cache
def box_shape(n: int) -> tuple[int, int]:
    """The squarest box (rows, cols) with rows * cols == n and rows <= cols."""
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise PuzzleError(f"size {n}x{n} is out of range: sizes go from {MIN_SIZE} to {MAX_SIZE}")
    rows = max(r for r in range(2, int(n**0.5) + 1) if n % r == 0) if _has_box(n) else 0
    if not rows:
        raise PuzzleError(f"size {n}x{n} has no box shape: {n} is not a product of two numbers > 1")
    return rows, n // rows


def _has_box(n: int) -> bool:
    """Whether n splits into a box of at least 2 x 2."""
    return any(n % r == 0 for r in range(2, int(n**0.5) + 1))


def valid_sizes() -> list[int]:
    """Every grid size that has a box shape, from 4 to 25."""
    return [n for n in range(MIN_SIZE, MAX_SIZE + 1) if _has_box(n)]


def box_problem(box: object) -> str:
    """What makes a box shape no box ('' when nothing does): it is two whole numbers of
    at least 1 whose product is a grid size from MIN_SIZE to MAX_SIZE."""
    if not (isinstance(box, (tuple, list)) and len(box) == 2
            and all(isinstance(side, int) and not isinstance(side, bool) for side in box)):
        return "a box is two whole numbers, rows and columns"
    rows, cols = box
    if rows < 1 or cols < 1:
        return "a box has at least 1 row and 1 column"
    n = rows * cols
    if not MIN_SIZE <= n <= MAX_SIZE:
        return (f"a {rows}x{cols} box makes a {n}x{n} grid; grids go from "
                f"{MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}")
    return ""


def box_text(box: object) -> str:
    """'3x2' for a pair of numbers, the value itself for anything else."""
    if isinstance(box, (tuple, list)) and len(box) == 2 and all(type(v) is int for v in box):
        return f"{box[0]}x{box[1]}"
    return repr(box)


def parse_box(text: str) -> tuple[int, int]:
    """(rows, cols) from the text of --box, '3x2'; UsageError saying what is wrong."""
    import re

    match = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", text)
    if not match:
        raise UsageError(f"--box {text!r}: expected rows x columns, like 2x3")
    box = int(match[1]), int(match[2])
    problem = box_problem(box)
    if problem:
        raise UsageError(f"--box {text.strip()}: {problem}")
    return box


def check_box(box: object) -> None:
    """PuzzleError if a box shape is no box, naming it."""
    problem = box_problem(box)
    if problem:
        raise PuzzleError(f"box {box_text(box)}: {problem}")


def jigsaw_box(n: int) -> tuple[int, int]:
    """The box shape kept for a jigsaw of size N: the squarest, or 1 x N where none exists.

    Regions replace the boxes, so the shape only matters for drawing; 1 x N lets a 5x5
    or 7x7 jigsaw be a Puzzle like any other.
    """
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise PuzzleError(f"size {n}x{n} is out of range: sizes go from {MIN_SIZE} to {MAX_SIZE}")
    return box_shape(n) if _has_box(n) else (1, n)


@dataclass(frozen=True)
class Puzzle:
    """An immutable puzzle: box shape, givens in row-major order (0 = blank), rules.

    `layout` (None for one N x N grid) places several N x N grids on one board, a
    samurai's five: the givens then follow the board's cells (`sudokulab.layout`).
    """

    box: tuple[int, int]
    givens: Grid
    rules: tuple[R.Rule, ...] = field(default=())
    layout: Layout | None = field(default=None)

    def __post_init__(self) -> None:
        check_box(self.box)
        if self.layout is not None:
            _check_layout(self)
        if len(self.givens) != self.cell_count:
            what = self.layout.name if self.layout else f"a {self.n}x{self.n} puzzle"
            raise PuzzleError(f"{len(self.givens)} cells given, {what} has {self.cell_count}")
        if self.givens and not 0 <= min(self.givens) <= max(self.givens) <= self.n:
            for i, digit in enumerate(self.givens):
                if not 0 <= digit <= self.n:
                    where = (R.cell_name(self.layout.positions[i]) if self.layout
                             else row_column(i, self.n))
                    raise PuzzleError(f"{where}: digit {digit} is out of range 1-{self.n}")
        if self.rules:
            check_rules(self.box, self.rules)

    @classmethod
    def from_reader(cls, box: tuple[int, int], givens: Grid, rules: tuple[R.Rule, ...]) -> Puzzle:
        """A puzzle from a box and givens a reader has already checked (the fast path of
        reading a line); its rules are checked here all the same."""
        if rules:
            check_rules(box, rules)
        puzzle = object.__new__(cls)
        object.__setattr__(puzzle, "box", box)
        object.__setattr__(puzzle, "givens", givens)
        object.__setattr__(puzzle, "rules", rules)
        return puzzle

    @property
    def n(self) -> int:
        """N: digits run from 1 to N and the grid is N x N."""
        return self.box[0] * self.box[1]

    @property
    def cell_count(self) -> int:
        """The number of cells, N * N or the layout's (the cells themselves are the
        geometry's)."""
        return self.n * self.n if self.layout is None else self.layout.cell_count

    @property
    def shape(self) -> str:
        """The puzzle's shape in words: 'a 9x9 puzzle', 'a samurai of 5 9x9 grids'."""
        if self.layout is None:
            return f"a {self.n}x{self.n} puzzle"
        return f"a {self.layout.name} of {len(self.layout.grids)} {self.n}x{self.n} grids"

    @cached_property
    def clues(self) -> int:
        """How many cells are given."""
        return sum(1 for d in self.givens if d)

    def with_values(self, values: Sequence[int]) -> Puzzle:
        """The same puzzle shape and rules with other cell values (a solution, say)."""
        return Puzzle(self.box, tuple(values), self.rules, self.layout)

    def with_rules(self, rules: Iterable[R.Rule]) -> Puzzle:
        """The same grid under other rules."""
        return Puzzle(self.box, self.givens, tuple(rules), self.layout)

    def __str__(self) -> str:
        return line_of(self.givens)


def empty(n: int = 9, rules: Iterable[R.Rule] = ()) -> Puzzle:
    """The puzzle with no givens."""
    return Puzzle(box_shape(n), (0,) * (n * n), tuple(rules))


def _check_layout(puzzle: Puzzle) -> None:
    """PuzzleError if a layout does not fit the puzzle: its grids are N x N with the
    puzzle's boxes, and no variant rule rides on it (none is placed on a board yet)."""
    layout = puzzle.layout
    if not isinstance(layout, Layout):
        raise PuzzleError(f"layout {layout!r} is not a layout")
    if layout.n != puzzle.n:
        raise PuzzleError(f"{layout.name} is made of {layout.n}x{layout.n} grids, not "
                          f"{puzzle.n}x{puzzle.n}")
    if puzzle.rules:
        raise PuzzleError(f"{layout.name}: variant rules on several grids are not supported "
                          f"(got {', '.join(rule.name for rule in puzzle.rules)})")


def row_column(index: int, n: int) -> str:
    """'row R, column C' for a cell index, counted from 1."""
    return f"row {index // n + 1}, column {index % n + 1}"


# --- the rules' invariants -------------------------------------------------------------

def check_rules(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> None:
    """PuzzleError if a rule does not fit the grid: cells outside it or listed twice,
    regions that do not tile it, a sum that is not a whole number, windows without boxes."""
    try:
        _check_rules(box, rules)  # a rule set is checked once, then remembered
    except TypeError:  # unhashable: not rules as this module makes them
        _check_each(box, rules)


@lru_cache(maxsize=256)
def _check_rules(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> None:
    """check_rules for hashable rules, cached."""
    _check_each(box, rules)


def _check_each(box: tuple[int, int], rules: Sequence[R.Rule]) -> None:
    """Check every rule against the grid: first that each is a rule, then each in turn."""
    for k, rule in enumerate(rules, 1):
        # A rule of a type sudokulab does not know (a plugin's, say) is data all the same:
        # a backend that cannot express it answers UNSUPPORTED. It needs a name.
        if not isinstance(getattr(rule, "name", None), str):
            raise PuzzleError(f"rule {k}: {rule!r} is not a rule")
    for rule in rules:
        problem = R.rule_problem(rule, box)
        if problem:
            raise PuzzleError(problem)
    # regions replace the boxes once: with two sets, engines and the checker read the first
    replacing = [rule.name for rule in rules if getattr(rule, "replaces_boxes", False)]
    if len(replacing) > 1:
        raise PuzzleError(f"two {replacing[0]} rules: the regions replace the boxes once; "
                          f"give one set of regions")


def clash(puzzle: Puzzle) -> str:
    """The first two givens that repeat a digit where the rules forbid it, or ''.

    Such a puzzle is well formed and has no solution: the backends answer `none` with
    this message (issue 18), while the checker refuses any grid that holds a clash.
    """
    geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
    g = puzzle.givens
    if geo.clash_free(g):
        return ""
    for cell, digit in enumerate(g):
        if not digit:
            continue
        for peer in geo.peers[cell]:
            if peer > cell and g[peer] == digit:
                return (f"givens repeat: {digit} at {geo.name(cell)} and {geo.name(peer)} "
                        f"({geo.why_peers(cell, peer)})")
    return ""


# --- the symbols of digits -------------------------------------------------------------

def symbol(digit: int) -> str:
    """The one-character symbol of a digit, '.' for a blank."""
    return MARKS[digit]


def line_of(values: Sequence[int]) -> str:
    """One line of symbols for cell values in row-major order, '.' for blanks."""
    return "".join(map(MARKS.__getitem__, values))


def symbol_range(n: int) -> str:
    """The symbols of an N x N puzzle, as in '1-9A-G'."""
    return f"1-{n}" if n <= 9 else f"1-9A-{SYMBOLS[n - 1]}"
