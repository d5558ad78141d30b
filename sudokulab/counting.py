"""Exact model counting (#SAT): how many solutions a puzzle has, without enumerating them.

The formula is the sat backend's own CNF (encodings/cnf.py, extended encoding, pairwise
at-most-one) with the givens as unit clauses; Ganak (PyPI `pyganak`) counts its models
projected on the cell variables 1..cells*N, so the auxiliary variables of cages and sums
never count twice. Ganak compiles the formula into components and caches their counts
(knowledge compilation), so it counts the 28,200,960 grids of the 6x6 that enumeration,
one solution per SAT call, would take hours to list.

Ganak runs in a process of its own (`python -m sudokulab.counting`, the formula on its
stdin): pyganak offers no way to stop a count, so a deadline or Ctrl-C kills that process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterable

from sudokulab.errors import Unavailable
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

FIX = "pip install pyganak (or pip install 'sudokulab[count]')"
COUNTERS = ("enumeration", "sharpsat")  # solve --count-with: its choices


def available() -> str:
    """Why the counter cannot run here ('' when it can)."""
    try:
        import pyganak  # noqa: F401  (whether it imports is the question)
    except ImportError as error:
        return f"the #SAT counter needs pyganak ({error}): {FIX}"
    return ""


def formula(puzzle: Puzzle, cells: Iterable[int] | None = None) -> tuple[list[list[int]],
                                                                         list[int]]:
    """The puzzle's clauses (its givens as unit clauses) and the variables counted: every
    cell's, or those of `cells` only."""
    from sudokulab.encodings import cnf

    base = cnf.base(puzzle.box, puzzle.rules, "extended", "pairwise", puzzle.layout)
    n = puzzle.n
    counted = list(range(1, base.top + 1)) if cells is None else \
        [cnf.var(n, cell, d) for cell in cells for d in range(1, n + 1)]
    return base.cnf.clauses + [[lit] for lit in cnf.givens_literals(puzzle)], counted


def count(puzzle: Puzzle, timeout: float | None = None,
          cells: Iterable[int] | None = None) -> Result:
    """The exact number of solutions, counted by Ganak (no grids); TIMEOUT with count 0
    past `timeout` seconds. With `cells`, the number of ways to fill those cells that
    extend to a solution. Unavailable when pyganak is missing."""
    from sudokulab.puzzle import clash

    if why := available():
        raise Unavailable(why)
    if reason := clash(puzzle):
        return Result(Status.NONE, message=reason)
    started = time.perf_counter()
    clauses, counted = formula(puzzle, cells)
    if not all(clauses):  # the encoding found no way at all (a cage with no digit set)
        return Result(Status.NONE, message="the formula holds the empty clause")
    text = " ".join(map(str, counted)) + "\n" + "".join(" ".join(map(str, c)) + " 0\n"
                                                       for c in clauses)
    built = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "sudokulab.counting"], text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        out, err = process.communicate(text, timeout=timeout or None)
    except subprocess.TimeoutExpired:
        return Result(Status.TIMEOUT, count=0, exact=False, build_time=built - started,
                      solve_time=time.perf_counter() - built,
                      message=f"Ganak did not finish within {timeout:g} s")
    finally:
        if process.poll() is None:  # a timeout, or Ctrl-C: the count stops with its process
            process.kill()
            process.wait()
    if process.returncode != 0 or not out.strip().isdigit():
        raise RuntimeError(f"Ganak failed (exit {process.returncode}): "
                           f"{err.strip().splitlines()[-1:] or out.strip()}")
    found = int(out)
    status = Status.NONE if found == 0 else Status.UNIQUE if found == 1 else Status.MULTIPLE
    return Result(status, count=found, exact=True, build_time=built - started,
                  solve_time=time.perf_counter() - built,
                  stats={"counted_variables": len(counted), "clauses": len(clauses)})


def main() -> None:
    """The counting process: read the variables counted and the clauses, print the count."""
    from pyganak import Counter

    lines = sys.stdin.read().splitlines()
    counter = Counter()
    counter.add_clauses([int(x) for x in line.split()[:-1]] for line in lines[1:])
    counter.set_sampling_set([int(v) for v in lines[0].split()])
    answer = os.dup(1)
    os.dup2(2, 1)  # Ganak prints comment lines ('c o ...') to stdout: the count alone goes there
    found = counter.count()
    os.write(answer, f"{found}\n".encode())


if __name__ == "__main__":
    main()
