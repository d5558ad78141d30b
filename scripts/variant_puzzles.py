"""Rebuild the line, dot and region puzzles of tests/data/variants.json (issue 19).

For each rule: a solution grid, instances of the rule that the grid satisfies (lines
found along it, dots read off it, regions grown over distinct digits), then givens taken
away one by one, in a seeded random order, while the sat backend still finds exactly one
solution under the rules. A puzzle is kept only when, without its rules, it has several
solutions. The rules without parameters (single diagonals, disjoint groups, any new one of
rules.SIMPLE_RULES) start from the rule instead: a random grid that already satisfies it.

    .venv/bin/python scripts/variant_puzzles.py            # rewrite the new entries
    .venv/bin/python scripts/variant_puzzles.py thermometer # only some
    .venv/bin/python scripts/variant_puzzles.py NEW-RULE    # a new rule without parameters
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.formats.text import from_json, to_json
from sudokulab.puzzle import Puzzle, empty
from sudokulab.result import Status

N = 9
FLOOR = 24  # givens kept at least
DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "variants.json"
SAT = make_backend("sat")
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
Cell = tuple[int, int]
Grid = list[list[int]]


def random_grid(rng: random.Random, rules: tuple = ()) -> Grid:
    """A random solution under the rules: random givens until one is consistent."""
    while True:
        values = [0] * (N * N)
        for cell in rng.sample(range(N * N), 10):
            values[cell] = rng.randint(1, N)
        result = SAT.solve(empty(N, rules).with_values(values), limit=1)
        if result.status is Status.SOLVED:
            flat = result.solutions[0]
            return [list(flat[r * N:(r + 1) * N]) for r in range(N)]


def steps(cell: Cell, moves: list[Cell]) -> list[Cell]:
    """The cells one move away inside the grid."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in moves if 0 <= r + dr < N and 0 <= c + dc < N]


def find_path(rng: random.Random, grid: Grid, length: int, used: set[Cell],
              fits: Callable[[list[int]], bool], done: Callable[[list[int]], bool],
              tries: int = 4000, starts: list[Cell] | None = None) -> tuple[Cell, ...] | None:
    """A king-move path of `length` unused cells whose digits `fits` at each step and
    `done` at the end, by randomised depth-first search from random starts."""
    budget = [tries]

    def extend(path: list[Cell]) -> list[Cell] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        values = [grid[r][c] for r, c in path]
        if not fits(values):
            return None
        if len(path) == length:
            return path if done(values) else None
        options = [s for s in steps(path[-1], KING) if s not in path and s not in used]
        rng.shuffle(options)
        for nxt in options:
            found = extend(path + [nxt])
            if found:
                return found
        return None

    if starts is None:
        starts = [(r, c) for r in range(N) for c in range(N) if (r, c) not in used]
        rng.shuffle(starts)
    for start in starts:
        found = extend([start])
        if found:
            return tuple(found)
    return None


def lines(rng, grid, kind, count, lengths, fits, done=lambda v: True) -> tuple:
    """`count` rules of a line kind along paths the grid satisfies, sharing no cell."""
    used: set[Cell] = set()
    found = []
    for _ in range(count * 5):
        path = find_path(rng, grid, rng.choice(lengths), used, fits, done)
        if path:
            used.update(path)
            found.append(kind(path))
        if len(found) == count:
            break
    return tuple(found)


def increasing(values):
    return all(a < b for a, b in zip(values, values[1:]))


def whispering(values):
    return all(abs(a - b) >= (N + 1) // 2 for a, b in zip(values, values[1:]))


def run_of_digits(values):
    return len(set(values)) == len(values) and max(values) - min(values) < len(values) + 3


def is_run(values):
    return len(set(values)) == len(values) and max(values) - min(values) == len(values) - 1


def arrows(rng, grid, count):
    """Arrows: a circle, then a shaft starting next to it whose digits add up to it."""
    used: set[Cell] = set()
    found = []
    circles = [(r, c) for r in range(N) for c in range(N) if grid[r][c] >= 4]
    rng.shuffle(circles)
    for circle in circles:
        if circle in used:
            continue
        total = grid[circle[0]][circle[1]]
        blocked = used | {circle}
        starts = [s for s in steps(circle, KING) if s not in blocked]
        rng.shuffle(starts)
        shaft = find_path(rng, grid, rng.choice((2, 3)), blocked,
                          lambda v, t=total: sum(v) <= t, lambda v, t=total: sum(v) == t,
                          tries=300, starts=starts)
        if shaft:
            found.append(R.Arrow((circle,) + shaft))
            used.update((circle,) + shaft)
        if len(found) == count:
            break
    return tuple(found)


def dots(grid, first, second, negative):
    """Every dot (or mark) the grid has between orthogonal neighbours."""
    kropki = first == "white"
    marks: dict[str, list] = {first: [], second: []}
    for r in range(N):
        for c in range(N):
            for r2, c2 in ((r + 1, c), (r, c + 1)):
                if r2 < N and c2 < N:
                    a, b = grid[r][c], grid[r2][c2]
                    if kropki and abs(a - b) == 1:
                        marks["white"].append(((r, c), (r2, c2)))
                    elif kropki and (a == 2 * b or b == 2 * a):
                        marks["black"].append(((r, c), (r2, c2)))
                    elif not kropki and a + b == 10:
                        marks["x"].append(((r, c), (r2, c2)))
                    elif not kropki and a + b == 5:
                        marks["v"].append(((r, c), (r2, c2)))
    rule = R.Kropki if kropki else R.XV
    return rule(tuple(marks[first]), tuple(marks[second]), negative=negative)


def grow(rng, grid, size, used):
    """A connected group of `size` unused cells with distinct digits, or None."""
    start = rng.choice([(r, c) for r in range(N) for c in range(N) if (r, c) not in used])
    group = [start]
    digits = {grid[start[0]][start[1]]}
    while len(group) < size:
        options = [s for cell in group for s in steps(cell, ORTHOGONAL)
                   if s not in group and s not in used and grid[s[0]][s[1]] not in digits]
        if not options:
            return None
        cell = rng.choice(options)
        group.append(cell)
        digits.add(grid[cell[0]][cell[1]])
    return tuple(group)


def groups(rng, grid, kind, count, sizes):
    """`count` groups of a kind, each connected over distinct digits, sharing no cell."""
    used: set[Cell] = set()
    found = []
    while len(found) < count:
        group = grow(rng, grid, rng.choice(sizes), used)
        if group:
            used.update(group)
            found.append(kind(group))
    return tuple(found)


def little_killers(rng, grid, count):
    """Diagonal sums from the edge of the grid, each along a whole diagonal."""
    found = []
    starts = [(0, c) for c in range(1, N - 2)] + [(r, 0) for r in range(1, N - 2)]
    rng.shuffle(starts)
    for r, c in starts[:count]:
        cells = tuple((r + k, c + k) for k in range(N) if r + k < N and c + k < N)
        found.append(R.LittleKiller(cells, sum(grid[a][b] for a, b in cells)))
    return tuple(found)


def sandwiches(rng, grid, count):
    """Sandwich sums of random rows and columns, read off the grid."""
    found = []
    for column, index in rng.sample([(c, i) for c in (False, True) for i in range(N)], count):
        line = [grid[k][index] if column else grid[index][k] for k in range(N)]
        a, b = sorted((line.index(1), line.index(N)))
        found.append(R.Sandwich(column, index, sum(line[a + 1:b])))
    return tuple(found)


def palindromes(rng, grid, count):
    """Palindrome lines of 3 to 5 cells the grid reads the same both ways."""
    return lines(rng, grid, R.Palindrome, count, (3, 4, 5), lambda v: True,
                 lambda v: v == v[::-1])


def thin(rng: random.Random, grid: Grid, rules: tuple) -> Puzzle:
    """Take givens away in random order while the puzzle stays unique under the rules,
    down to FLOOR givens: CLP(FD), whose propagation of sums and relations is weak, then
    proves each puzzle in seconds."""
    values = [d for row in grid for d in row]
    order = list(range(N * N))
    rng.shuffle(order)
    for cell in order:
        if sum(map(bool, values)) <= FLOOR:
            break
        trial = values[:]
        trial[cell] = 0
        if SAT.solve(empty(N, rules).with_values(trial), limit=2).status is Status.UNIQUE:
            values = trial
    return empty(N, rules).with_values(values)


def make(name: str, seed: int) -> Puzzle:
    """The puzzle of one rule: unique with it, several solutions without."""
    rng = random.Random(seed)
    fixed = R.SIMPLE_RULES  # a rule without parameters: any new one, with no edit here
    grid = random_grid(rng, (fixed[name],) if name in fixed else ())
    rules = {
        "thermometer": lambda: lines(rng, grid, R.Thermometer, 5, (4, 5, 6), increasing),
        "arrow": lambda: arrows(rng, grid, 6),
        "kropki": lambda: (dots(grid, "white", "black", False),),
        "kropki-negative": lambda: (dots(grid, "white", "black", True),),
        "xv": lambda: (dots(grid, "x", "v", False),),
        "xv-negative": lambda: (dots(grid, "x", "v", True),),
        "consecutive-marks": lambda: (R.ConsecutiveMarks(dots(grid, "white", "black",
                                                              False).white),),
        "cage-without-sum": lambda: groups(rng, grid, R.SumlessCage, 12, (2, 3, 4)),
        "extra-region": lambda: groups(rng, grid, R.ExtraRegion, 2, (N,)),
        "renban": lambda: lines(rng, grid, R.Renban, 5, (3, 4, 5), run_of_digits, is_run),
        "whispers": lambda: lines(rng, grid, R.Whispers, 5, (4, 5, 6), whispering),
        "palindrome": lambda: palindromes(rng, grid, 5),
        "little-killer": lambda: little_killers(rng, grid, 5),
        "sandwich": lambda: sandwiches(rng, grid, 8),
    }
    made = (fixed[name],) if name in fixed else rules[name]()
    return thin(rng, grid, made)


NAMES = ["thermometer", "arrow", "kropki", "kropki-negative", "xv", "xv-negative",
         "main-diagonal", "anti-diagonal", "cage-without-sum", "extra-region",
         "disjoint-groups", "renban", "whispers", "palindrome", "little-killer",
         "consecutive-marks", "sandwich"]


def main(names: list[str]) -> None:
    """Rebuild the named entries (all of NAMES by default) of variants.json."""
    data = json.loads(DATA.read_text())
    for name in names or NAMES:
        for seed in range(1, 50):
            puzzle = make(name, seed)
            loose = SAT.solve(puzzle.with_rules(()), limit=2)
            if loose.status is Status.MULTIPLE:
                break
        else:
            raise SystemExit(f"{name}: no seed gave a puzzle that needs its rule")
        data[name] = json.loads(to_json(puzzle))
        assert from_json(to_json(puzzle)) == puzzle
        print(f"{name}: seed {seed}, {puzzle.clues} givens, {len(puzzle.rules)} rule(s)")
    DATA.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
