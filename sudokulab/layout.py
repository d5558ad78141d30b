"""Multi-grid layouts: several N x N grids overlapping on one board (samurai).

A layout places classic grids on a board. Each grid keeps all of its own rules (every
row, column and box holds each digit once); where two grids overlap they share cells, so
the digits there serve both. The board's cells are the cells some grid covers, numbered
row by row from 0 and skipping the void between grids: a puzzle with a layout lists its
givens in that order. Rows and columns are the board's, counted from 0 (r1c1 names them
from 1), so a samurai's centre grid starts at r7c7.

A layout is data, like a rule: the geometry derives its units, the checker re-derives
them on its own, and a backend that cannot take several grids says UNSUPPORTED.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from sudokulab.errors import PuzzleError

Cell = tuple[int, int]


@dataclass(frozen=True)
class Layout:
    """Grids of N x N cells on one board: where each grid's top-left cell lies."""

    name: str
    n: int
    grids: tuple[Cell, ...]
    grid_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.grids) < 2 or any(min(corner) < 0 for corner in self.grids):
            raise PuzzleError(f"layout {self.name}: needs two grids or more, at (row, column) "
                              f"corners from 0")
        if len(set(self.grids)) != len(self.grids):
            raise PuzzleError(f"layout {self.name}: two grids at one corner")

    @cached_property
    def height(self) -> int:
        """Rows of the board."""
        return max(row for row, _ in self.grids) + self.n

    @cached_property
    def width(self) -> int:
        """Columns of the board."""
        return max(col for _, col in self.grids) + self.n

    @cached_property
    def positions(self) -> tuple[Cell, ...]:
        """The (row, column) of each cell, in cell order: row by row over the board."""
        n = self.n
        covered = {(top + r, left + c) for top, left in self.grids
                   for r in range(n) for c in range(n)}
        return tuple(sorted(covered))

    @cached_property
    def index(self) -> dict[Cell, int]:
        """The cell at each (row, column) of the board that a grid covers."""
        return {position: cell for cell, position in enumerate(self.positions)}

    @property
    def cell_count(self) -> int:
        """How many cells the board has (a samurai: 369)."""
        return len(self.positions)

    def grid_cells(self, k: int) -> tuple[int, ...]:
        """The cells of grid k (from 0), row by row within the grid."""
        (top, left), n, index = self.grids[k], self.n, self.index
        return tuple(index[top + r, left + c] for r in range(n) for c in range(n))

    def grid_name(self, k: int) -> str:
        """How a reader calls grid k: 'top-left grid', or 'grid 3'."""
        return f"{self.grid_names[k]} grid" if self.grid_names else f"grid {k + 1}"


# Five 9x9 grids: four corners, each sharing its inner corner box with the centre grid.
SAMURAI = Layout("samurai", 9, ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12)),
                 ("top-left", "top-right", "centre", "bottom-left", "bottom-right"))

LAYOUTS = {layout.name: layout for layout in (SAMURAI,)}
BY_CELLS = {layout.cell_count: layout for layout in LAYOUTS.values()}  # 369: a samurai


def named(name: str) -> Layout:
    """The layout of a name ('samurai'); PuzzleError naming the known ones."""
    try:
        return LAYOUTS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise PuzzleError(f"unknown layout {name!r}; known: {', '.join(LAYOUTS)}") from None
