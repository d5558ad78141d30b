"""The yardstick for `sudokulab solve --backend sat`: a bare PySAT loop over a puzzle file.

What a programmer would write in an afternoon: the extended CNF encoding of a 9x9 (each
cell, row, column and box has each digit at least and at most once) loaded once into
CaDiCaL 1.9.5; for each line, the givens as assumptions, one solve, the model printed as
a line. No checks, no statistics: the least work that answers each puzzle.

Run: python bench/bare_pysat.py FILE[.gz] > solutions.txt
"""

from __future__ import annotations

import gzip
import sys
from itertools import combinations

from pysat.solvers import Solver

N = 9


def var(row: int, col: int, digit: int) -> int:
    """The variable 'cell (row, col) holds digit' (digit from 1)."""
    return row * N * N + col * N + digit


def groups() -> list[list[tuple[int, int]]]:
    """Rows, columns and boxes as lists of (row, col)."""
    rows = [[(r, c) for c in range(N)] for r in range(N)]
    cols = [[(r, c) for r in range(N)] for c in range(N)]
    boxes = [[(br + r, bc + c) for r in range(3) for c in range(3)]
             for br in range(0, N, 3) for bc in range(0, N, 3)]
    return rows + cols + boxes


def clauses() -> list[list[int]]:
    """The extended encoding: exactly one digit per cell, each digit once per group."""
    cnf = []
    for r in range(N):
        for c in range(N):
            cell = [var(r, c, d) for d in range(1, N + 1)]
            cnf.append(cell)
            cnf += [[-a, -b] for a, b in combinations(cell, 2)]
    for group in groups():
        for d in range(1, N + 1):
            lits = [var(r, c, d) for r, c in group]
            cnf.append(lits)
            cnf += [[-a, -b] for a, b in combinations(lits, 2)]
    return cnf


def main(path: str) -> None:
    """Solve every puzzle line of the file, print each solution as a line."""
    opener = gzip.open if path.endswith(".gz") else open
    out = sys.stdout
    with opener(path, "rt") as lines, Solver(name="cadical195", bootstrap_with=clauses()) as s:
        for line in lines:
            line = line.strip()
            if len(line) != N * N:
                continue
            givens = [i * N + int(ch) for i, ch in enumerate(line) if ch not in ".0"]
            s.solve(assumptions=givens)
            model = s.get_model()
            out.write("".join(str((lit - 1) % N + 1) for lit in model[:N ** 3] if lit > 0))
            out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
