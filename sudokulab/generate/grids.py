"""Random solution grids, jigsaw regions, killer cages and parity marks, from a seeded
random.Random: the same seed gives the same grid on any machine.

A grid is filled cell by cell in a random order; each cell takes the first digit of a
random permutation that still leaves a solution (a SAT call under assumptions). The
answer to "is there still a solution" is a fact, not a choice of the solver, so the grid
depends on the seed alone; the solver's model only saves calls (a digit the current
model already holds needs no call).
"""

from __future__ import annotations

import random

from sudokulab import rules as R
from sudokulab.generate.engine import Engine
from sudokulab.geometry import geometry
from sudokulab.puzzle import jigsaw_box


def random_grid(engine: Engine, rng: random.Random) -> tuple[int, ...] | None:
    """A random solution grid of the engine's shape and rules, or None if there is none."""
    n = engine.n
    model = engine.grid([])
    if model is None:
        return None
    peers = geometry(engine.box, engine.rules).peers
    grid = [0] * (n * n)
    order = list(range(n * n))
    rng.shuffle(order)
    assumed: list[int] = []
    for cell in order:
        digits = list(range(1, n + 1))
        rng.shuffle(digits)
        taken = {grid[peer] for peer in peers[cell]}
        for digit in digits:
            if digit in taken:
                continue  # a peer holds it: no solution, no call needed
            if model[cell] == digit:
                break
            found = engine.grid([*assumed, cell * n + digit])
            if found is not None:
                model = found
                break
        else:  # pragma: no cover - the model's own digit always fits
            raise RuntimeError("no digit fits a cell the model fills")
        grid[cell] = digit
        assumed.append(cell * n + digit)
    return tuple(grid)


def neighbours(cell: int, n: int) -> list[int]:
    """The cells orthogonally next to a cell."""
    row, col = divmod(cell, n)
    return [r * n + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1),
                                   (row, col + 1)) if 0 <= r < n and 0 <= c < n]


def _connected(cells: set[int], n: int) -> bool:
    """Whether a set of cells is connected by orthogonal steps."""
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for other in neighbours(todo.pop(), n):
            if other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


def random_regions(n: int, rng: random.Random, swaps: int | None = None) -> R.Jigsaw:
    """N connected regions of N cells, from the boxes by random swaps of border cells.

    Each swap gives a cell of region A on the border with B to B and a cell of B on the
    border with A to A, kept only when both regions stay connected.
    """
    rows, cols = jigsaw_box(n)
    region = [(r // rows) * rows + c // cols for r in range(n) for c in range(n)]
    members: list[set[int]] = [set() for _ in range(n)]
    for cell, k in enumerate(region):
        members[k].add(cell)
    for _ in range(swaps if swaps is not None else 30 * n * n):
        a = rng.randrange(n * n)
        others = [region[x] for x in neighbours(a, n) if region[x] != region[a]]
        if not others:
            continue
        ka, kb = region[a], rng.choice(others)
        borders = sorted(c for c in members[kb]
                         if any(region[x] == ka for x in neighbours(c, n)) and c != a)
        if not borders:
            continue
        b = rng.choice(borders)
        new_a = members[ka] - {a} | {b}
        new_b = members[kb] - {b} | {a}
        if _connected(new_a, n) and _connected(new_b, n):
            members[ka], members[kb] = new_a, new_b
            region[a], region[b] = kb, ka
    return R.Jigsaw(tuple(tuple(divmod(c, n) for c in sorted(cells)) for cells in members))


CAGE_SIZES = (1, 2, 2, 3, 3, 3, 4, 4, 5)  # weights of the sizes a cage aims at


def random_cages(solution: tuple[int, ...], n: int, rng: random.Random) -> tuple[R.Cage, ...]:
    """Connected cages covering the grid, each of distinct digits of the solution, with
    their sums; sizes drawn from CAGE_SIZES (a cage stops early where it cannot grow)."""
    free = set(range(n * n))
    order = list(range(n * n))
    rng.shuffle(order)
    cages = []
    for start in order:
        if start not in free:
            continue
        size = rng.choice(CAGE_SIZES)
        cage = [start]
        free.discard(start)
        while len(cage) < size:
            digits = {solution[c] for c in cage}
            room = sorted({x for c in cage for x in neighbours(c, n)
                           if x in free and solution[x] not in digits})
            if not room:
                break
            cell = rng.choice(room)
            cage.append(cell)
            free.discard(cell)
        cages.append(R.Cage(tuple(divmod(c, n) for c in sorted(cage)),
                            sum(solution[c] for c in cage)))
    return tuple(cages)


def random_parity(solution: tuple[int, ...], n: int, rng: random.Random,
                  share: float = 0.3) -> tuple[R.Parity, ...]:
    """Even and odd marks on a random share of the cells, true to the solution."""
    marked = sorted(rng.sample(range(n * n), round(share * n * n)))
    even = tuple(divmod(c, n) for c in marked if solution[c] % 2 == 0)
    odd = tuple(divmod(c, n) for c in marked if solution[c] % 2 == 1)
    return tuple(R.Parity(cells, flag) for cells, flag in ((even, True), (odd, False)) if cells)
