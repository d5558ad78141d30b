"""Random instances of the line, dot, sum and region rules (issue 19), read off a solution
grid with a seeded random.Random, so that the solution satisfies every one of them.

- lines (thermometer, renban, whispers, palindrome, and the shaft of an arrow) follow
  king-move paths of distinct cells, found by a randomised depth-first search that keeps
  only paths whose digits fit the rule;
- dots are put on edges where the solution has the relation: with the negative form (and
  for consecutive marks, whose rule is negative by definition) on every such edge, else on
  a random share of them;
- little killer and sandwich sums are the solution's own sums along random diagonals, rows
  and columns; cages without sums and extra regions grow over distinct digits.

How many instances a puzzle gets is scaled from the 9x9 counts in COUNTS: enough that the
rules do the work of many givens (results/generated.md reports the clue counts).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sudokulab import rules as R

Cell = tuple[int, int]
Grid = tuple[int, ...]
KING = R.KING_MOVES
SEARCH_BUDGET = 3000  # path extensions tried per line before giving up on it
DOT_SHARE = 0.6       # share of the true dots shown when no dot also says something

# Instances on a 9x9 grid, by family; scaled by N / 9 (regions and cages by cells).
COUNTS = {"thermometer": 5, "arrow": 6, "renban": 5, "whispers": 5, "palindrome": 5,
          "little-killer": 6, "sandwich": 8, "cage-without-sum": 12, "extra-region": 2}


def count(family: str, n: int) -> int:
    """How many instances of a family an N x N puzzle gets."""
    scale = n * n / 81 if family == "cage-without-sum" else n / 9
    return max(1, round(COUNTS.get(family, 1) * scale))


def lengths(n: int) -> tuple[int, ...]:
    """Line lengths for an N x N grid: 4 to 6 cells on 9x9, 2 to 3 on 4x4."""
    return tuple(range(max(2, n // 3 + 1), max(3, 2 * n // 3) + 1))


def steps(cell: Cell, n: int, moves=KING) -> list[Cell]:
    """The cells one move away inside the grid."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in moves if 0 <= r + dr < n and 0 <= c + dc < n]


def find_path(rng: random.Random, solution: Grid, n: int, length: int, used: set[Cell],
              fits: Callable[[list[int], int], bool],
              starts: list[Cell] | None = None) -> tuple[Cell, ...] | None:
    """A king-move path of `length` unused cells whose digits `fits` (digits so far, the
    length aimed at) at every step, by randomised depth-first search from random starts."""
    budget = [SEARCH_BUDGET]

    def extend(path: list[Cell], values: list[int]) -> list[Cell] | None:
        budget[0] -= 1
        if budget[0] < 0 or not fits(values, length):
            return None
        if len(path) == length:
            return path
        options = [s for s in steps(path[-1], n) if s not in path and s not in used]
        rng.shuffle(options)
        for nxt in options:
            found = extend(path + [nxt], values + [solution[nxt[0] * n + nxt[1]]])
            if found:
                return found
        return None

    if starts is None:
        starts = [(r, c) for r in range(n) for c in range(n) if (r, c) not in used]
        rng.shuffle(starts)
    for start in starts:
        found = extend([start], [solution[start[0] * n + start[1]]])
        if found or budget[0] < 0:
            return tuple(found) if found else None
    return None


def _apart(kind: type, family: str, tries: int, pick) -> Callable:
    """A drawer of `count` instances of a kind that share no cell: `pick(solution, n, rng,
    used)` draws one instance's cells (None when it finds none), up to `tries` per instance."""
    def draw(solution: Grid, n: int, rng: random.Random) -> tuple[R.Rule, ...]:
        used: set[Cell] = set()
        found: list[R.Rule] = []
        wanted = count(family, n)
        for _ in range(tries * wanted):
            cells = pick(solution, n, rng, used)
            if cells:
                used.update(cells)
                found.append(kind(cells))
                if len(found) == wanted:
                    break
        return tuple(found)
    return draw


def _lines(kind: type, fits, family: str):
    """A drawer of `count` lines of a kind along paths the solution satisfies, apart."""
    return _apart(kind, family, 5, lambda solution, n, rng, used: find_path(
        rng, solution, n, rng.choice(lengths(n)), used, lambda v, size: fits(v, size, n)))


def _increasing(values: list[int], size: int, n: int) -> bool:
    """Strictly increasing, with room left for the digits still to come."""
    return all(a < b for a, b in zip(values, values[1:])) and values[-1] + size - len(values) <= n


def _whispering(values: list[int], size: int, n: int) -> bool:
    """Neighbours at least half of N apart (rounded up)."""
    return all(abs(a - b) >= (n + 1) // 2 for a, b in zip(values, values[1:]))


def _run(values: list[int], size: int, n: int) -> bool:
    """Distinct digits that can still be a run of `size` consecutive ones."""
    return len(set(values)) == len(values) and max(values) - min(values) < size


def _mirrored(values: list[int], size: int, n: int) -> bool:
    """The digits so far past the middle mirror the first ones."""
    return all(values[k] == values[size - 1 - k] for k in range(size - len(values), len(values)))


def arrows(solution: Grid, n: int, rng: random.Random) -> tuple[R.Rule, ...]:
    """Arrows: a circle, then a shaft of 2 or 3 cells starting next to it that adds up to it."""
    used: set[Cell] = set()
    found: list[R.Rule] = []
    circles = [(r, c) for r in range(n) for c in range(n) if solution[r * n + c] >= 3]
    rng.shuffle(circles)
    for circle in circles:
        if circle in used:
            continue
        total = solution[circle[0] * n + circle[1]]
        blocked = used | {circle}
        starts = [s for s in steps(circle, n) if s not in blocked]
        rng.shuffle(starts)
        size = rng.choice((2, 3)) if total >= 6 else 2
        shaft = find_path(rng, solution, n, size, blocked, _adds_up_to(total), starts)
        if shaft:
            found.append(R.Arrow((circle,) + shaft))
            used.update((circle,) + shaft)
            if len(found) == count("arrow", n):
                break
    return tuple(found)


def _adds_up_to(total: int) -> Callable[[list[int], int], bool]:
    """An arrow shaft's test: digits below the total while short, the total at its length."""
    return lambda v, length: (sum(v) < total and len(v) < length
                              or sum(v) == total and len(v) == length)


def edges(n: int) -> list[tuple[Cell, Cell]]:
    """Every pair of orthogonal neighbours, each once."""
    return [((r, c), (r2, c2)) for r in range(n) for c in range(n)
            for r2, c2 in ((r + 1, c), (r, c + 1)) if r2 < n and c2 < n]


def _dots(negative: bool, kropki: bool):
    """A drawer of Kropki dots or XV marks true to the solution: with `negative` on every
    edge that has a relation, else on a random share of them."""
    def draw(solution: Grid, n: int, rng: random.Random) -> tuple[R.Rule, ...]:
        first: list = []
        second: list = []
        for a, b in edges(n):
            x, y = solution[a[0] * n + a[1]], solution[b[0] * n + b[1]]
            if kropki:
                kinds = [first] * (abs(x - y) == 1) + [second] * (x == 2 * y or y == 2 * x)
            else:
                kinds = [first] * (x + y == 10) + [second] * (x + y == 5)
            if kinds and (negative or rng.random() < DOT_SHARE):
                rng.choice(kinds).append((a, b))  # 1 and 2: either dot is true
        kind = R.Kropki if kropki else R.XV
        return (kind(tuple(first), tuple(second), negative=negative),)
    return draw


def consecutive_marks(solution: Grid, n: int, rng: random.Random) -> tuple[R.Rule, ...]:
    """A mark between every two orthogonal neighbours that hold consecutive digits."""
    return (R.ConsecutiveMarks(tuple(
        (a, b) for a, b in edges(n)
        if abs(solution[a[0] * n + a[1]] - solution[b[0] * n + b[1]]) == 1)),)


def little_killers(solution: Grid, n: int, rng: random.Random) -> tuple[R.Rule, ...]:
    """Sums along random diagonals of at least 3 cells, read from the edge of the grid."""
    diagonals = []
    for start in range(-(n - 3), n - 2):  # down-right lines: column - row = start
        cells = tuple((r, r + start) for r in range(n) if 0 <= r + start < n)
        diagonals.append(cells)
        diagonals.append(tuple((r, n - 1 - c) for r, c in cells))  # its mirror, down-left
    rng.shuffle(diagonals)
    found = []
    for cells in diagonals[:count("little-killer", n)]:
        if rng.random() < 0.5:
            cells = cells[::-1]  # the clue sits at the other end
        found.append(R.LittleKiller(cells, sum(solution[r * n + c] for r, c in cells)))
    return tuple(found)


def sandwiches(solution: Grid, n: int, rng: random.Random) -> tuple[R.Rule, ...]:
    """Sandwich sums of random rows and columns, read off the solution."""
    found = []
    lines = [(column, index) for column in (False, True) for index in range(n)]
    for column, index in rng.sample(lines, min(len(lines), count("sandwich", n))):
        line = [solution[k * n + index] if column else solution[index * n + k]
                for k in range(n)]
        a, b = sorted((line.index(1), line.index(n)))
        found.append(R.Sandwich(column, index, sum(line[a + 1:b])))
    return tuple(found)


def grow(rng: random.Random, solution: Grid, n: int, size: int,
         used: set[Cell]) -> tuple[Cell, ...] | None:
    """A connected group of `size` unused cells with distinct digits, or None."""
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in used]
    if not free:
        return None
    group = [rng.choice(free)]
    digits = {solution[group[0][0] * n + group[0][1]]}
    while len(group) < size:
        options = sorted({s for cell in group for s in steps(cell, n, R.ORTHOGONAL_MOVES)
                          if s not in group and s not in used
                          and solution[s[0] * n + s[1]] not in digits})
        if not options:
            return None
        cell = rng.choice(options)
        group.append(cell)
        digits.add(solution[cell[0] * n + cell[1]])
    return tuple(sorted(group))


def _groups(kind: type, sizes: Callable[[int], tuple[int, ...]], family: str):
    """A drawer of groups of a kind, each connected over distinct digits, apart."""
    return _apart(kind, family, 50, lambda solution, n, rng, used: grow(
        rng, solution, n, rng.choice(sizes(n)), used))


# Each family: how its instances are drawn from a solution (N, and a random.Random).
DRAWERS: dict[str, Callable[[Grid, int, random.Random], tuple[R.Rule, ...]]] = {
    "thermometer": _lines(R.Thermometer, _increasing, "thermometer"),
    "arrow": arrows,
    "kropki": _dots(negative=False, kropki=True),
    "kropki-negative": _dots(negative=True, kropki=True),
    "xv": _dots(negative=False, kropki=False),
    "xv-negative": _dots(negative=True, kropki=False),
    "consecutive-marks": consecutive_marks,
    "renban": _lines(R.Renban, _run, "renban"),
    "whispers": _lines(R.Whispers, _whispering, "whispers"),
    "palindrome": _lines(R.Palindrome, _mirrored, "palindrome"),
    "little-killer": little_killers,
    "sandwich": sandwiches,
    "cage-without-sum": _groups(R.SumlessCage, lambda n: (2, 3, 4), "cage-without-sum"),
    "extra-region": _groups(R.ExtraRegion, lambda n: (n,), "extra-region"),
}
FAMILIES = tuple(DRAWERS)


def draw(family: str, solution: Grid, n: int, rng: random.Random) -> tuple[R.Rule, ...]:
    """Random instances of one family that the solution satisfies."""
    return DRAWERS[family](solution, n, rng)
