"""Templates: the ways one digit can fill its places in a classic 9x9.

A template of a digit is nine cells, one in each row, each column and each box: where the
digit's nine copies end up in some solution. The templates that fit the position (each
cell holds the digit or has it as a candidate, and every copy already placed is among
them) are all the arrangements left to the digit, so a blank cell in every one of them
holds it (Template Set) and a candidate in none of them cannot (Template Delete). A digit
has at most 46,656 templates; they are walked row by row, each row's cell chosen among the
digit's places there, so a position with few places left has few to walk.
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
    for d in range(1, N + 1):
        count, every, some = _templates(g, d)
        if count:
            yield d, count, every, some


def _templates(g: Candidates, d: int) -> tuple[int, int, int]:
    """How many templates of a digit fit the position, and the AND and OR of their cells."""
    where = g.where()[d - 1]
    rows = []
    for r in range(N):
        placed = [r * N + c for c in range(N) if g.values[r * N + c] == d]
        rows.append(placed if placed else cells_of(where & ((1 << N) - 1) << r * N))
    found = [0, EVERY_CELL, 0]  # count, every, some

    def walk(r: int, columns: int, stacks: int, cells: int) -> None:
        if r == N:
            found[0] += 1
            found[1] &= cells
            found[2] |= cells
            return
        if r % 3 == 0:
            stacks = 0  # a new band: each of its rows in another box
        for cell in rows[r]:
            c = cell % N
            if not (columns >> c & 1 or stacks >> c // 3 & 1):
                walk(r + 1, columns | 1 << c, stacks | 1 << c // 3, cells | 1 << cell)

    if all(len(cells) <= 1 or not g.values[cells[0]] for cells in rows):
        walk(0, 0, 0, 0)
    return found[0], found[1] if found[0] else 0, found[2]


def _names(cells: list[int]) -> str:
    """'r1c2, r3c4 and r5c6'."""
    from sudokulab.rules import cell_name

    named = [cell_name(divmod(cell, N)) for cell in cells]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
