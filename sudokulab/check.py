"""The independent validator: is a grid a solution of a puzzle, and if not, why not.

It shares no code with any backend or with geometry.py: it re-reads the rules
from the puzzle and checks each one directly, so that a bug in the shared
geometry cannot make a wrong answer look right. A multi-grid board (a samurai) is
checked grid by grid: each grid, cut out of the board by its corner, must be a solution
of its own givens, every row, column and box of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import compress
from typing import TYPE_CHECKING

from sudokulab import rules as R
from sudokulab.puzzle import Puzzle

if TYPE_CHECKING:
    from sudokulab.layout import Layout


@dataclass(frozen=True)
class Violation:
    """One broken requirement: where (a cell, unit or rule) and what is wrong."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def check(puzzle: Puzzle, grid: Sequence[int]) -> list[Violation]:
    """Every violation of the puzzle's rules by a filled grid; empty when it is a solution."""
    if puzzle.layout is not None:
        return _grids(puzzle, puzzle.layout, grid)
    if _quick(puzzle, grid):
        if not puzzle.rules:
            return []
        # Cells and houses are right: only the rules that are not houses can be broken.
        n = puzzle.n
        others = [rule for rule in puzzle.rules if not _is_house_rule(rule)]
        rows = [list(grid[r * n:(r + 1) * n]) for r in range(n)] if others else []
        return [problem for rule in others for problem in _rule(rule, rows, n)]
    return violations(puzzle, grid)


def violations(puzzle: Puzzle, grid: Sequence[int]) -> list[Violation]:
    """Every violation, found the slow way: cell by cell, house by house, rule by rule.

    `check` answers with this when its quick test fails, so the message is always precise;
    tests compare the two.
    """
    if puzzle.layout is not None:
        return _grids(puzzle, puzzle.layout, grid)
    n = puzzle.n
    if len(grid) != n * n:
        return [Violation("grid", f"has {len(grid)} cells, expected {n * n}")]
    rows = [list(grid[r * n:(r + 1) * n]) for r in range(n)]
    problems = _cells(puzzle, rows)
    for name, cells in _houses(puzzle):
        problems += _house(name, [(r, c, rows[r][c]) for r, c in cells], n)
    for rule in puzzle.rules:
        problems += _rule(rule, rows, n)
    return problems


def _grids(puzzle: Puzzle, layout: Layout, board: Sequence[int]) -> list[Violation]:
    """A multi-grid board: each grid is a classic puzzle of its own givens, solved by its
    cells of the board. The board's cells are found here from the grids' corners alone."""
    n = puzzle.n
    covered = sorted({(top + r, left + c) for top, left in layout.grids
                      for r in range(n) for c in range(n)})
    if len(board) != len(covered):
        return [Violation("grid", f"has {len(board)} cells, expected {len(covered)}")]
    at = {position: cell for cell, position in enumerate(covered)}
    problems = []
    for k, (top, left) in enumerate(layout.grids):
        cells = [at[top + r, left + c] for r in range(n) for c in range(n)]
        grid = Puzzle(puzzle.box, tuple(puzzle.givens[cell] for cell in cells))
        problems += [Violation(f"{layout.grid_name(k)} {problem.where}", problem.what)
                     for problem in check(grid, [board[cell] for cell in cells])]
    return problems


def _quick(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """The quick test, in C loops over bytes: every cell holds a digit 1..N, every given is
    kept, every house holds N different digits (so each exactly once)."""
    n = puzzle.n
    try:
        values = bytes(grid)  # each cell an integer 0..255, or an error
    except (TypeError, ValueError):  # not a digit: the slow path names the cell
        return False
    if len(values) != n * n or values.translate(None, _digits(n)):  # a cell left not 1..N
        return False
    givens = puzzle.givens
    if bytes(compress(values, givens)) != bytes(filter(None, givens)):
        return False
    house_rules = tuple(filter(_is_house_rule, puzzle.rules)) if puzzle.rules else ()
    digits = values.translate(_LESS_ONE)  # 0..N-1
    for keys, read, size in _house_reading(puzzle.box, house_rules):
        cells = digits * read if isinstance(read, int) else bytes(map(digits.__getitem__, read))
        # One byte per (house, digit) pair: key + digit - 1, added as big numbers (no byte
        # overflows into the next). A house that repeats a digit makes one pair twice.
        pairs = (keys + int.from_bytes(cells, "big")).to_bytes(size, "big")
        if len(set(pairs)) != size:
            return False
    return True


_LESS_ONE = bytes(1) + bytes(range(255))  # translate: d -> d - 1


@cache
def _digits(n: int) -> bytes:
    """The bytes 1..N: what a cell may hold."""
    return bytes(range(1, n + 1))


# A segment of the quick test's reading: (keys, read, size), as _house_reading says.
Segment = tuple[int, int | tuple[int, ...], int]


@lru_cache(maxsize=64)
def _house_reading(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> tuple[Segment, ...]:
    """How the quick test reads the houses: segments (keys, read, size) whose pairs fit a byte.

    Houses that split the grid (rows, columns, boxes or regions) are read as the grid
    itself, `read` times over in cell order; the others (diagonals, windows, ...) from the
    cells `read` lists. `keys` holds each cell read's house times N, one byte each, as one
    big number; `size` is how many cells are read.
    """
    probe = Puzzle((box[0], box[1]), (0,) * (box[0] * box[1]) ** 2, rules)
    n = probe.n
    houses = [cells for _, cells in _houses(probe)]
    layers, rest = [], []
    for first in range(0, len(houses), n):
        chunk = houses[first:first + n]
        owner = _owners(chunk, n) if n * n <= 256 else None
        if owner is None:
            rest += chunk
        else:
            layers.append(owner)
    segments: list[Segment] = []
    per = max(1, 256 // (n * n))
    for k in range(0, len(layers), per):
        group = layers[k:k + per]
        keys = [(g * n + house) * n for g, owner in enumerate(group) for house in owner]
        segments.append((int.from_bytes(bytes(keys), "big"), len(group), len(keys)))
    per = 256 // n
    for k in range(0, len(rest), per):
        some = rest[k:k + per]
        keys = [h * n for h, house in enumerate(some) for _ in house]
        read = tuple(r * n + c for house in some for r, c in house)
        segments.append((int.from_bytes(bytes(keys), "big"), read, len(keys)))
    return tuple(segments)


def _owners(houses: list[list[tuple[int, int]]], n: int) -> list[int] | None:
    """Each cell's house, when N houses split the N x N grid; otherwise None."""
    owner: list[int | None] = [None] * (n * n)
    if len(houses) != n:
        return None
    for h, cells in enumerate(houses):
        for r, c in cells:
            if owner[r * n + c] is not None:
                return None
            owner[r * n + c] = h
    return None if None in owner else owner  # type: ignore[return-value]


def _is_house_rule(rule: R.Rule) -> bool:
    """Rules whose whole meaning is extra houses (checked with the rows and columns)."""
    return isinstance(rule, (R.Diagonal, R.Windoku, R.Jigsaw, R.MainDiagonal, R.AntiDiagonal,
                             R.DisjointGroups))


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """Whether the grid solves the puzzle."""
    return not check(puzzle, grid)


def _name(r: int, c: int) -> str:
    """r1c1 for a row and column counted from 0."""
    return R.cell_name((r, c))


def _cells(puzzle: Puzzle, rows: list[list[int]]) -> list[Violation]:
    """Every cell holds a digit 1..N and every given is kept."""
    n = puzzle.n
    problems = []
    for r in range(n):
        for c in range(n):
            value, given = rows[r][c], puzzle.givens[r * n + c]
            if not isinstance(value, int) or not 1 <= value <= n:
                problems.append(Violation(_name(r, c), f"holds {value!r}, not a digit 1-{n}"))
            elif given and value != given:
                problems.append(Violation(_name(r, c), f"given {given} changed to {value}"))
    return problems


def _houses(puzzle: Puzzle) -> list[tuple[str, list[tuple[int, int]]]]:
    """Every group of N cells that must hold each digit once, under the puzzle's rules."""
    (br, bc), n = puzzle.box, puzzle.n
    houses = [(f"row {r + 1}", [(r, c) for c in range(n)]) for r in range(n)]
    houses += [(f"column {c + 1}", [(r, c) for r in range(n)]) for c in range(n)]
    jigsaw = next((rule for rule in puzzle.rules if isinstance(rule, R.Jigsaw)), None)
    if jigsaw:
        houses += [(f"region {k + 1}", list(region)) for k, region in enumerate(jigsaw.regions)]
    else:
        houses += [(f"box {k + 1}", [(top + r, left + c) for r in range(br) for c in range(bc)])
                   for k, (top, left) in enumerate((t, lf) for t in range(0, n, br)
                                                   for lf in range(0, n, bc))]
    for rule in puzzle.rules:
        if isinstance(rule, R.Diagonal):
            houses.append(("main diagonal", [(i, i) for i in range(n)]))
            houses.append(("anti-diagonal", [(i, n - 1 - i) for i in range(n)]))
        if isinstance(rule, R.MainDiagonal):
            houses.append(("main diagonal", [(i, i) for i in range(n)]))
        if isinstance(rule, R.AntiDiagonal):
            houses.append(("anti-diagonal", [(i, n - 1 - i) for i in range(n)]))
        if isinstance(rule, R.DisjointGroups):
            houses += [(f"disjoint group r{r + 1}c{c + 1}",
                        [(top + r, left + c) for top in range(0, n, br)
                         for left in range(0, n, bc)]) for r in range(br) for c in range(bc)]
        if isinstance(rule, R.Windoku):
            for top in range(1, n - br + 1, br + 1):
                for left in range(1, n - bc + 1, bc + 1):
                    houses.append((f"window r{top + 1}c{left + 1}",
                                   [(top + r, left + c) for r in range(br) for c in range(bc)]))
    return houses


def _house(name: str, cells: list[tuple[int, int, int]], n: int) -> list[Violation]:
    """A house holds each digit 1..N exactly once."""
    problems = []
    seen: dict[int, tuple[int, int]] = {}
    for r, c, value in cells:
        if value in seen:
            problems.append(Violation(name, f"{value} at {_name(*seen[value])} and {_name(r, c)}"))
        seen.setdefault(value, (r, c))
    missing = sorted(set(range(1, n + 1)) - set(seen))
    if missing:
        problems.append(Violation(name, f"lacks {', '.join(map(str, missing))}"))
    return problems


def _rule(rule: R.Rule, rows: list[list[int]], n: int) -> list[Violation]:
    """The violations of one variant rule that is not a house."""
    if isinstance(rule, (R.AntiKnight, R.AntiKing)):
        steps = R.KNIGHT_MOVES if isinstance(rule, R.AntiKnight) else R.KING_MOVES
        return _pairs(rule.name, rows, n, steps, lambda a, b: a == b, "same digit")
    if isinstance(rule, R.NonConsecutive):
        return _pairs(rule.name, rows, n, R.ORTHOGONAL_MOVES, lambda a, b: abs(a - b) == 1,
                      "consecutive digits")
    if isinstance(rule, R.Cage):
        values = [rows[r][c] for r, c in rule.cells]
        where = f"cage {'+'.join(_name(r, c) for r, c in rule.cells)}={rule.total}"
        problems = []
        if len(set(values)) != len(values):
            problems.append(Violation(where, f"repeats a digit: {values}"))
        if sum(values) != rule.total:
            problems.append(Violation(where, f"adds up to {sum(values)}"))
        return problems
    if isinstance(rule, R.Parity):
        want = 0 if rule.even else 1
        return [Violation(_name(r, c), f"holds {rows[r][c]}, must be "
                                       f"{'even' if rule.even else 'odd'}")
                for r, c in rule.cells if rows[r][c] % 2 != want]
    if isinstance(rule, (R.Kropki, R.XV)):
        return _marks(rule, rows, n)
    if isinstance(rule, R.ConsecutiveMarks):
        return _consecutive_marks(rule, rows, n)
    if isinstance(rule, R.Sandwich):
        line = [rows[k][rule.index] if rule.column else rows[rule.index][k] for k in range(n)]
        if 1 not in line or n not in line:
            return []  # the houses report the missing digit
        a, b = sorted((line.index(1), line.index(n)))
        if sum(line[a + 1:b]) == rule.total:
            return []
        where = f"sandwich {'column' if rule.column else 'row'} {rule.index + 1}"
        return [Violation(where, f"between 1 and {n}: {line[a + 1:b]}, not {rule.total}")]
    # any other rule with cells is read as a line: a rule added later is checked, not passed
    cells: tuple[R.Cell, ...] | None = getattr(rule, "cells", None)
    if cells is not None:
        return _line(rule, cells, [rows[r][c] for r, c in cells], n)
    return []


def _line(rule: R.Rule, cells: tuple[R.Cell, ...], values: list[int],
          n: int) -> list[Violation]:
    """The violations of a rule along its cells (a line, a region, an arrow)."""
    where = f"{rule.name} {'-'.join(_name(r, c) for r, c in cells)}"
    if isinstance(rule, R.Thermometer):
        ok = all(a < b for a, b in zip(values, values[1:]))
        return [] if ok else [Violation(where, f"does not increase from the bulb: {values}")]
    if isinstance(rule, R.Arrow):
        ok = sum(values[1:]) == values[0]
        return [] if ok else [Violation(where, f"shaft adds up to {sum(values[1:])}, "
                                               f"circle holds {values[0]}")]
    if isinstance(rule, R.LittleKiller):
        ok = sum(values) == rule.total
        return [] if ok else [Violation(where, f"adds up to {sum(values)}, not {rule.total}")]
    if isinstance(rule, R.Whispers):
        gap = (n + 1) // 2
        ok = all(abs(a - b) >= gap for a, b in zip(values, values[1:]))
        return [] if ok else [Violation(where, f"neighbours closer than {gap}: {values}")]
    if isinstance(rule, R.Palindrome):
        ok = values == values[::-1]
        return [] if ok else [Violation(where, f"does not read the same backwards: {values}")]
    problems = []
    if len(set(values)) != len(values):
        problems.append(Violation(where, f"repeats a digit: {values}"))
    if isinstance(rule, R.Renban) and max(values) - min(values) != len(values) - 1:
        problems.append(Violation(where, f"is not a run of consecutive digits: {values}"))
    return problems


def _consecutive_marks(rule: R.ConsecutiveMarks, rows: list[list[int]],
                       n: int) -> list[Violation]:
    """Marked neighbours consecutive, every other pair of orthogonal neighbours not."""
    marked = {frozenset(pair) for pair in rule.pairs}
    problems = []
    for r in range(n):
        for c in range(n):
            for r2, c2 in ((r + 1, c), (r, c + 1)):
                if r2 < n and c2 < n:
                    a, b = rows[r][c], rows[r2][c2]
                    mark = frozenset(((r, c), (r2, c2))) in marked
                    if mark != (abs(a - b) == 1):
                        problems.append(Violation(
                            f"{rule.name} {_name(r, c)}-{_name(r2, c2)}",
                            f"{'marked' if mark else 'no mark'}, but holds {a} and {b}"))
    return problems


def _marks(rule: R.Kropki | R.XV, rows: list[list[int]], n: int) -> list[Violation]:
    """Kropki dots or XV marks, and with `negative` the pairs of neighbours without one."""
    kropki = isinstance(rule, R.Kropki)
    tests = {"white": lambda a, b: abs(a - b) == 1, "black": lambda a, b: a in (2 * b, b / 2),
             "x": lambda a, b: a + b == 10, "v": lambda a, b: a + b == 5}
    problems, marked = [], set()
    for kind in ("white", "black") if kropki else ("x", "v"):
        for (r1, c1), (r2, c2) in getattr(rule, kind):
            marked.add(frozenset(((r1, c1), (r2, c2))))
            a, b = rows[r1][c1], rows[r2][c2]
            if not tests[kind](a, b):
                problems.append(Violation(f"{rule.name} {kind} {_name(r1, c1)}-{_name(r2, c2)}",
                                          f"does not hold for {a} and {b}"))
    if rule.negative:
        kinds = ("white", "black") if kropki else ("x", "v")
        for r in range(n):
            for c in range(n):
                for r2, c2 in ((r + 1, c), (r, c + 1)):
                    if r2 < n and c2 < n and frozenset(((r, c), (r2, c2))) not in marked:
                        a, b = rows[r][c], rows[r2][c2]
                        hit = [k for k in kinds if tests[k](a, b)]
                        if hit:
                            problems.append(Violation(
                                f"{rule.name} {_name(r, c)}-{_name(r2, c2)}",
                                f"no mark, but {a} and {b} would take a {hit[0]} one"))
    return problems


def _pairs(name: str, rows: list[list[int]], n: int, steps: Sequence[tuple[int, int]],
           broken: Callable[[int, int], bool], what: str) -> list[Violation]:
    """Cell pairs one step apart (each pair once) for which `broken` holds."""
    problems = []
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                r2, c2 = r + dr, c + dc
                if (r2, c2) > (r, c) and 0 <= r2 < n and 0 <= c2 < n \
                        and broken(rows[r][c], rows[r2][c2]):
                    problems.append(Violation(name, f"{what} at {_name(r, c)} and "
                                                    f"{_name(r2, c2)}"))
    return problems


# --- many classic grids at once (the batch path of `solve --file`) ---------------------

BATCH = 1024  # grids checked as one big number: a failing batch is checked grid by grid


def failures(box: tuple[int, int], givens: bytes, grids: bytes) -> list[int]:
    """The indices of the grids that are no solution of their puzzle, for many puzzles
    without rules at once: `givens` and `grids` hold a byte per cell (0 blank), puzzle
    after puzzle. The same test as `check`'s, over the houses `_houses` names, as
    arithmetic on big numbers: a batch that passes costs a few operations per house
    shape; one that fails is checked grid by grid by `check`."""
    n = box[0] * box[1]
    cells = n * n
    if len(givens) != len(grids) or len(grids) % cells:
        raise ValueError(f"givens and grids must both hold whole {n}x{n} grids")
    bad: list[int] = []
    step = BATCH * cells
    for first in range(0, len(grids), step):
        some, kept = grids[first:first + step], givens[first:first + step]
        if not _batch_solves(box, kept, some):
            bad += [first // cells + k for k in range(len(some) // cells)
                    if check(Puzzle(box, tuple(kept[k * cells:(k + 1) * cells])),
                             some[k * cells:(k + 1) * cells])]
    return bad


def _batch_solves(box: tuple[int, int], givens: bytes, grids: bytes) -> bool:
    """Whether every grid solves its givens: each cell a digit 1..N, each given kept, and
    each house's cells, as one bit per digit, adding up to N ones (only N different digits
    do: N powers of two that repeat one add up to fewer ones)."""
    n = box[0] * box[1]
    if grids.translate(None, _digits(n)):
        return False
    if int.from_bytes(grids, "big") & int.from_bytes(givens.translate(_GIVEN), "big") \
            != int.from_bytes(givens, "big"):
        return False
    width, tables, shapes = _bit_reading(box)
    count = len(grids) // (n * n)
    spread = bytearray(width * len(grids))
    for k, table in enumerate(tables):
        spread[k::width] = grids.translate(table)
    bits = int.from_bytes(spread, "little")  # cell i's bit in field i, `width` bytes each
    for k, offsets in enumerate(shapes):
        total = _house_sums(bits, offsets, 8 * width)
        mask, full = _house_masks(box, k, count)
        if total & mask != full:
            return False
    return True


def _house_sums(bits: int, offsets: tuple[int, ...], field: int) -> int:
    """The sum over `offsets` of `bits` shifted down by that many fields: field i then
    adds up the cells i + offset. A house that is a run (a row, a column) or a run of runs
    (a box) takes a few shifts by doubling; any other, one per cell."""
    step = offsets[1] - offsets[0] if len(offsets) > 1 else 1
    length = 1
    while length < len(offsets) and offsets[length] - offsets[0] == length * step:
        length += 1
    runs = len(offsets) // length
    stride = offsets[length] - offsets[0] if runs > 1 else 0
    if runs * length == len(offsets) and set(offsets) == {
            a * step + b * stride for a in range(length) for b in range(runs)}:
        return _run(_run(bits, length, step * field), runs, stride * field)
    return sum(bits >> (field * offset) for offset in offsets)


def _run(bits: int, count: int, shift: int) -> int:
    """bits + (bits >> shift) + ... + (bits >> (count-1) * shift), by doubling."""
    total, block, size, at = 0, bits, 1, 0
    while count:
        if count & 1:
            total += block >> at
            at += size * shift
        count >>= 1
        if count:
            block += block >> (size * shift)
            size *= 2
    return total


@lru_cache(maxsize=16)
def _house_masks(box: tuple[int, int], shape: int, count: int) -> tuple[int, int]:
    """For `count` grids: the mask of the first cells of a house shape's houses (every
    bit of their fields), and the sum each must hold there (one bit per digit)."""
    width, _, shapes = _bit_reading(box)
    n = box[0] * box[1]
    firsts = [0] * (n * n)
    for start in _first_cells(box)[shapes[shape]]:
        firsts[start] = 1
    mask = b"".join(((1 << 8 * width) - 1 if f else 0).to_bytes(width, "little")
                    for f in firsts)
    full = b"".join(((1 << n) - 1 if f else 0).to_bytes(width, "little") for f in firsts)
    return int.from_bytes(mask * count, "little"), int.from_bytes(full * count, "little")


_GIVEN = bytes([0]) + bytes([255]) * 255  # translate: a given -> 0xFF, a blank -> 0


@lru_cache(maxsize=16)
def _bit_reading(box: tuple[int, int]) -> tuple[int, tuple[bytes, ...],
                                                tuple[tuple[int, ...], ...]]:
    """How `_batch_solves` reads a shape: the field width in bytes (a house's sum fits),
    a translate table per byte of a field (digit d -> its byte of 1 << d-1), and the house
    shapes (each house's cells as offsets from its first cell)."""
    n = box[0] * box[1]
    width = 2 if n * (1 << (n - 1)) < 1 << 16 else 4
    tables = tuple(bytes((((1 << (d - 1)) >> (8 * k)) & 255) if 1 <= d <= n else 0
                         for d in range(256)) for k in range(width))
    return width, tables, tuple(_first_cells(box))


@lru_cache(maxsize=16)
def _first_cells(box: tuple[int, int]) -> dict[tuple[int, ...], list[int]]:
    """Each house shape (its cells' offsets from its first cell) and the first cells of
    the houses of that shape, from `_houses`."""
    n = box[0] * box[1]
    first_cells: dict[tuple[int, ...], list[int]] = {}
    for _, house in _houses(Puzzle(box, (0,) * (n * n))):
        cells = sorted(r * n + c for r, c in house)
        first_cells.setdefault(tuple(i - cells[0] for i in cells), []).append(cells[0])
    return first_cells
