"""Templates: the ways one digit can fill its places in a classic 9x9.

A template of a digit is nine cells, one in each row, each column and each box: where the
digit's nine copies end up in some solution. The templates that fit the position (each
cell holds the digit or has it as a candidate, and every copy already placed is among
them) are all the arrangements left to the digit, so a blank cell in every one of them
holds it (Template Set) and a candidate in none of them cannot (Template Delete). As in
HoDoKu, the digits' templates are refined together: a cell in every template of one digit
is that digit's, so no template of another digit may use it (to a fixpoint). A digit has at
most 46,656 templates; they are walked row by row, each row's cell chosen among the digit's
places there, so a position with few places left has few to walk.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, cells_of
from sudokulab.human.step import Step, make

N = 9  # the classic grid alone: 46,656 templates of a 16x16 digit would be far too many
EVERY_CELL = (1 << N * N) - 1


def template_set(g: Candidates) -> Iterator[Step]:
    """Per digit, the blank cells every template of the digit covers: they hold it."""
    for d, count, every, _ in _each_digit(g):
        placed = [cell for cell in cells_of(every) if not g.values[cell]]
        if placed:
            yield make("Template Set", N, f"{d}", placements=[(cell, d) for cell in placed],
                       cells=placed,
                       sentence=f"Each of the {count:,} ways left to place {d} once in every "
                                f"row, column and box puts it in {_names(placed)}.")


def template_delete(g: Candidates) -> Iterator[Step]:
    """Per digit, the candidates no template of the digit covers: they lose it."""
    for d, count, _, some in _each_digit(g):
        gone = cells_of(g.where()[d - 1] & ~some)
        if gone:
            yield make("Template Delete", N, f"{d}", eliminations=[(cell, d) for cell in gone],
                       cells=gone,
                       sentence=f"None of the {count:,} ways left to place {d} once in every "
                                f"row, column and box puts it in {_names(gone)}.")


def _each_digit(g: Candidates) -> Iterator[tuple[int, int, int, int]]:
    """(digit, its templates' count, the cells all of them cover, the cells some cover) for
    each digit with a template (none: a contradiction, which the singles say better)."""
    if g.n != N or not g.tables.classic:
        return
    for d, templates in enumerate(g.cached("templates", lambda: _refined(g)), 1):
        if templates:
            every, some = EVERY_CELL, 0
            for cells in templates:
                every &= cells
                some |= cells
            yield d, len(templates), every, some


def _refined(g: Candidates) -> list[list[int]]:
    """Each digit's templates, less those that use a cell every template of another digit
    uses, until none is left to take away."""
    templates = [fitting(g, d) for d in range(1, N + 1)]
    while True:
        forced = []
        for listed in templates:
            every = EVERY_CELL if listed else 0
            for cells in listed:
                every &= cells
            forced.append(every)
        kept = [[cells for cells in listed if not cells & others]
                for listed, others in zip(templates, _others(forced))]
        if all(len(a) == len(b) for a, b in zip(kept, templates)):
            return templates
        templates = kept


def _others(forced: list[int]) -> list[int]:
    """Per digit, the cells the other digits hold in every template of theirs."""
    out = []
    for d in range(len(forced)):
        others = 0
        for e, cells in enumerate(forced):
            if e != d:
                others |= cells
        out.append(others)
    return out


def fitting(g: Candidates, d: int) -> list[int]:
    """The templates of a digit that fit the position, each as a mask of its cells."""
    where = g.where()[d - 1]
    rows = []
    for r in range(N):
        placed = [r * N + c for c in range(N) if g.values[r * N + c] == d]
        rows.append(placed if placed else cells_of(where & ((1 << N) - 1) << r * N))
    found: list[int] = []

    def walk(r: int, columns: int, stacks: int, cells: int) -> None:
        if r == N:
            found.append(cells)
            return
        if r % 3 == 0:
            stacks = 0  # a new band: each of its rows in another box
        for cell in rows[r]:
            c = cell % N
            if not (columns >> c & 1 or stacks >> c // 3 & 1):
                walk(r + 1, columns | 1 << c, stacks | 1 << c // 3, cells | 1 << cell)

    if all(len(cells) <= 1 or not g.values[cells[0]] for cells in rows):
        walk(0, 0, 0, 0)
    return found


def _names(cells: list[int]) -> str:
    """'r1c2, r3c4 and r5c6'."""
    from sudokulab.rules import cell_name

    named = [cell_name(divmod(cell, N)) for cell in cells]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
