"""Knuth's "Dancing Links" (2000), as the paper gives it: `dlx:links`.

The exact cover matrix is a toroidal doubly linked list. Each 1 of the matrix is a node
x with four links, L[x], R[x] (its row) and U[x], D[x] (its column), and C[x], its
column header; each column header c has a size S[c] (the rows left in it) and a name
N[c]; the root h links the columns still to cover. Removing x from its column,

    U[D[x]] <- U[x],  D[U[x]] <- D[x],

leaves x's own links alone, so `U[D[x]] <- x, D[U[x]] <- x` puts it back: the links
dance. Algorithm X, search(k):

    if R[h] = h: the rows O_0 .. O_k-1 are a solution
    choose a column c (the S heuristic: the fewest rows), cover(c)
    for each row r <- D[c], D[D[c]], ... while r != c:
        O_k <- r; for each j <- R[r], ... while j != r: cover(C[j])
        search(k + 1)
        for each j <- L[r], ... while j != r: uncover(C[j])
    uncover(c)

cover(c) unlinks c from the header list and every row of c from the other columns;
uncover(c) undoes it in exactly the reverse order.

A Sudoku is a matrix with one row per (cell, digit) and a primary column per cell (it
holds one digit) and per (unit, digit) (the unit holds the digit once). Cells that must
differ without sharing a unit (a knight's move apart, under anti-knight) get one
secondary column per digit, as the paper's N queens gets its diagonals: not in the
header list, so never chosen, covered at most once. The givens' rows are chosen before
the search. The fast engine (`dlx`, sudokulab/backends/dlx.py) runs Algorithm X on
bitsets instead; `sudokulab compare --backends dlx,dlx:links` measures what that bought.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from sudokulab.backends.essay import OutOfTime
from sudokulab.geometry import Geometry

CHECK_EVERY = 256  # search nodes between two looks at the clock


class Node:
    """A 1 of the matrix: its four links, its column header and its row's number."""

    __slots__ = ("L", "R", "U", "D", "C", "row")
    C: Column

    def __init__(self, column: Column | None = None, row: int = -1) -> None:
        self.L: Node = self
        self.R: Node = self
        self.U: Node = self
        self.D: Node = self
        if column is not None:  # a column header sets its own C to itself
            self.C = column
        self.row = row


class Column(Node):
    """A column header: S, the rows left in it, and N, its name."""

    __slots__ = ("S", "N")

    def __init__(self, name: str) -> None:
        super().__init__()
        self.C = self
        self.S = 0
        self.N = name


class Links:
    """The toroidal list of one puzzle's exact cover matrix, and Algorithm X over it."""

    def __init__(self, geo: Geometry) -> None:
        self.n = n = geo.n
        self.h = Column("h")  # the root
        self.updates = 0  # link changes, as the paper counts them
        self.trace = None  # a sudokulab.backends.trace.Recorder, or None
        self.at: float | None = None  # the deadline, as time.perf_counter() reads it
        self.counts = {"nodes": 0, "guesses": 0, "backtracks": 0, "updates": 0}
        cells = [self.primary(f"cell {geo.name(cell)}") for cell in geo.cells]
        unit_digit = [[self.primary(f"{unit.name} #{d}") for d in range(1, n + 1)]
                      for unit in geo.units]
        units_of: list[list[int]] = [[] for _ in geo.cells]
        for u, unit in enumerate(geo.units):
            for cell in unit:
                units_of[cell].append(u)
        apart: list[list[list[Column]]] = [[[] for _ in range(n)] for _ in geo.cells]
        for cell in geo.cells:
            for peer in geo.peers[cell]:
                if peer > cell and not set(units_of[cell]) & set(units_of[peer]):
                    for d in range(n):  # secondary: not in the header list
                        column = Column(f"{geo.name(cell)}/{geo.name(peer)} #{d + 1}")
                        apart[cell][d].append(column)
                        apart[peer][d].append(column)
        self.rows: list[Node] = []  # a node of each row, in its cell's column
        for cell in geo.cells:
            for d in range(n):
                columns = [cells[cell], *(unit_digit[u][d] for u in units_of[cell]),
                           *apart[cell][d]]
                self.rows.append(self.add_row(cell * n + d, columns))

    def primary(self, name: str) -> Column:
        """A new column at the end of the header list."""
        c = Column(name)
        c.R, c.L = self.h, self.h.L
        self.h.L.R = c
        self.h.L = c
        return c

    @staticmethod
    def add_row(row: int, columns: list[Column]) -> Node:
        """A row's nodes, one per column, linked left-right and at the foot of each column."""
        first: Node | None = None
        for c in columns:
            x = Node(c, row)
            x.D, x.U = c, c.U
            c.U.D = x
            c.U = x
            c.S += 1
            if first is None:
                first = x
            else:
                x.R, x.L = first, first.L
                first.L.R = x
                first.L = x
        assert first is not None
        return first

    # --- the dance -------------------------------------------------------------------

    def cover(self, c: Column) -> None:
        """Remove c from the header list and each of its rows from the other columns."""
        c.R.L = c.L
        c.L.R = c.R
        i = c.D
        while i is not c:
            j = i.R
            while j is not i:
                j.D.U = j.U
                j.U.D = j.D
                j.C.S -= 1
                self.updates += 1
                j = j.R
            i = i.D

    def uncover(self, c: Column) -> None:
        """Put back what cover(c) removed, bottom to top, right to left."""
        i = c.U
        while i is not c:
            j = i.L
            while j is not i:
                j.C.S += 1
                j.D.U = j
                j.U.D = j
                j = j.L
            i = i.U
        c.R.L = c
        c.L.R = c

    def choose(self) -> Column:
        """The S heuristic: the column with the fewest rows left (the first of those)."""
        best, fewest = self.h.R.C, 1 << 30
        c = self.h.R
        while c is not self.h:  # each c here is a header: c.C is c
            size = c.C.S
            if size < fewest:
                best, fewest = c.C, size
            c = c.R
        return best

    def search(self, k: int, o: list[Node]) -> Iterator[list[Node]]:
        """Algorithm X: every exact cover extending the rows O_0 .. O_k-1 in `o`."""
        self.counts["nodes"] += 1
        if not self.counts["nodes"] % CHECK_EVERY and self.at is not None \
                and time.perf_counter() >= self.at:
            raise OutOfTime
        if self.h.R is self.h:
            yield o[:k]
            return
        c = self.choose()
        if c.S == 0:
            self.counts["backtracks"] += 1
            if self.trace is not None:
                self.trace.dead_end([], f"no row left in column {c.N}")
            return
        if self.trace is not None:
            self.trace.chose(k, f"the column with the fewest rows: {c.N} has {c.S}")
        self.cover(c)
        r = c.D
        while r is not c:
            del o[k:]
            o.append(r)
            self.counts["guesses"] += 1
            before = self.marks(o[:k]) if self.trace is not None else None
            j = r.R
            while j is not r:
                self.cover(j.C)
                j = j.R
            if before is not None:
                self.traced_row(k, r, c, before, o[:k + 1])
            yield from self.search(k + 1, o)
            r = o[k]
            c = r.C
            j = r.L
            while j is not r:
                self.uncover(j.C)
                j = j.L
            r = r.D
        self.uncover(c)
        if self.trace is not None:
            self.trace.add({"event": "uncover", "depth": k, "columns": [c.N],
                            "why": f"every row of column {c.N} tried: uncover it"})

    # --- the givens --------------------------------------------------------------------

    def choose_givens(self, givens: list[int]) -> list[Node] | None:
        """The givens' rows, chosen and their columns covered (None: two of them clash)."""
        chosen = []
        for cell, digit in enumerate(givens):
            if not digit:
                continue
            r = self.rows[cell * self.n + digit - 1]
            if not self.present(r):
                return None
            x = r
            while True:
                self.cover(x.C)
                x = x.R
                if x is r:
                    break
            chosen.append(r)
        return chosen

    def present(self, r: Node) -> bool:
        """Whether row r is still in the matrix: in its cell's column, that column open."""
        c = r.C
        return r.U.D is r and c.L.R is c

    # --- the trace (not in the paper) --------------------------------------------------

    def marks(self, chosen: list[Node]) -> list[int]:
        """Each cell's candidates (bit d-1 for digit d): its rows chosen or still present."""
        n = self.n
        marks = [0] * (len(self.rows) // n)
        for r in self.rows:
            if self.present(r):
                marks[r.row // n] |= 1 << (r.row % n)
        for r in chosen:
            marks[r.row // n] = 1 << (r.row % n)
        return marks

    def traced_row(self, k: int, r: Node, c: Column, before: list[int],
                   chosen: list[Node]) -> None:
        """Tell the trace: row r tried for column c, the columns it covers, what went."""
        assert self.trace is not None
        self.trace.guess(k, r.row // self.n, r.row % self.n + 1)
        names = [c.N]
        j = r.R
        while j is not r:
            names.append(j.C.N)
            j = j.R
        self.trace.add({"event": "cover", "depth": k + 1, "columns": names,
                        "why": "cover the columns of the row: " + ", ".join(names)})
        before[r.row // self.n] = 1 << (r.row % self.n)
        self.trace.wave(before, self.marks(chosen))

    def grid(self, rows: list[Node], givens: list[Node]) -> tuple[int, ...]:
        """The grid of an exact cover: each chosen row puts its digit in its cell."""
        grid = [0] * (len(self.rows) // self.n)
        for r in (*givens, *rows):
            grid[r.row // self.n] = r.row % self.n + 1
        return tuple(grid)
