"""Exact model counting (#SAT): how many solutions a puzzle has, without enumerating them.

The formula is the sat backend's own CNF (encodings/cnf.py, extended encoding, pairwise
at-most-one: the cell variables alone for the classic rules) with the givens as unit
clauses; Ganak (PyPI `pyganak`) counts its models projected on the cell variables, so
the auxiliary variables of cages and sums never count twice. Ganak compiles the formula
into components and caches their counts (knowledge compilation), so it counts the
28,200,960 grids of the 6x6 that enumeration, one solution per SAT call, would take hours
to list.

Two ways the lab helps it:
- Cubes. Ganak's preprocessor (Arjun) settles most of a formula once a cell is given,
  but a formula without givens is symmetric and dense (treewidth ~500 for the Miracle)
  and its search crawls: the Miracle's 72 grids took over 10 minutes whole, and 2 to 10
  s for each digit of one cell. So a puzzle without givens is counted cube by cube, the
  digits of one cell, and the counts added up (a cell holds exactly one digit), in
  parallel processes.
- A race. With givens, neither way wins everywhere. Arjun proves, variable by variable,
  what a small support of the cell variables defines; on a puzzle with few solutions
  that support is tiny and the proofs are hard: the anti-knight puzzle of the tests
  with 11 givens (111 solutions) took Ganak 60 to 330 s whole (the time goes before the
  search: 0 decisions, 48 conflicts), 6.6 s for the nine digits of r1c1 one after the
  other. On a puzzle with many solutions the search dominates and a cube costs nearly
  what the whole does: easy50's first puzzle less 11 givens (949,296) took 53 s whole
  and 193 s in cubes. So the whole formula and the cubes run at once (the cubes on the
  other CPUs) and the first exact count wins; the loser's processes are killed.
  Simplifying the formula first (unit propagation of the givens, the variables
  renumbered, 729 to 406) saved Arjun little (68 to 60 s), and projecting on fewer
  variables nothing (9 variables: 96 s): its cost is in the definability proofs, which
  a fixed cell makes easy. pyganak exposes no Arjun option (verbosity and seed only).
- Regions. `within` counts the ways to fill some cells that break no constraint lying
  wholly inside them. Projecting the whole grid on them would be exact but makes Ganak
  prove, for every filling, that the rest of the grid completes: the 2,612,736 fillings
  of a band with its first box fixed took over 5 minutes projected, 10 s as a region.
  The two agree when every filling of the region completes, as every band of the classic
  grid does; elsewhere the region's count is an upper bound of the projected one.

- Components. Ganak counts each independent part of a formula once and multiplies: a
  samurai whose shared boxes are given is five formulas, and its 98 million solutions
  take a second (tests/data/samurai_opened.py). A 9x9 never falls apart like that, so
  there the time grows with the count.

- Digit relabelling. Permuting the digits maps a grid to a grid under the classic rules
  and every rule that only says which cells are equal or differ (diagonal, anti-knight,
  windoku, jigsaw ...; not cages with sums, thermometers, parity, kropki ...). So when
  every given lies in one row, the digits that row misses can be put in its blanks in
  increasing order and the count multiplied by the number of their orders: the empty
  6x6 is 6! x 39,168 = 28,200,960, the empty 4x4 4! x 12 = 288 (`relabelling`; `solve
  --count` says so: '28,200,960 (6! x 39,168, by digit relabelling)'). It holds for
  any engine that counts: enumeration lists the 39,168 in seconds where Ganak, near
  enumeration on a formula that never splits, takes a minute (the first row fixed, 2
  CPUs), and the empty 8x8's 29,136,487,207,403,520 / 8! is still out of reach of both.

Ganak runs in processes of its own (`python -m sudokulab.backends.counting`, the formula on its
stdin): pyganak offers no way to stop a count, so a deadline or Ctrl-C kills them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from sudokulab.errors import Unavailable
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Result, Status

FIX = "pip install pyganak (or pip install 'sudokulab[count]')"
COUNTERS = ("enumeration", "sharpsat")  # solve --count-with: its choices


class Timeout(Exception):
    """A count overran its deadline."""


# Rules that only say which cells hold equal or different digits: relabelling keeps them.
RELABELLING_KEEPS = frozenset({"diagonal", "anti-knight", "anti-king", "windoku", "jigsaw",
                               "main-diagonal", "anti-diagonal", "disjoint-groups",
                               "cage-without-sum", "extra-region", "palindrome"})


@dataclass(frozen=True)
class Relabelling:
    """A count reduced by digit relabelling: `reduced` (the row's blanks filled with the
    digits it misses, in increasing order) has 1/`free`! of the puzzle's solutions."""

    reduced: Puzzle
    digits: tuple[int, ...]  # the digits permuted: those the row misses
    row: int                 # the row filled, 0-based

    @property
    def free(self) -> int:
        """How many digits are permuted."""
        return len(self.digits)

    @property
    def factor(self) -> int:
        """The number of orders of the free digits: solutions per reduced solution."""
        import math

        return math.factorial(self.free)

    def grids(self, reduced: Iterable[Grid]) -> Iterator[Grid]:
        """The puzzle's solutions from the reduced puzzle's: each with the free digits in
        every order (distinct grids, the reduced one first)."""
        from itertools import permutations

        for grid in reduced:
            for order in permutations(self.digits):
                relabel = dict(zip(self.digits, order))
                yield tuple(relabel.get(digit, digit) for digit in grid)

    def scaled(self, result: Result, grids: int = 0) -> Result:
        """The puzzle's result from the reduced one's: the count times the factor, the
        first `grids` solutions listed, the factor and reduced count in stats and message."""
        from itertools import islice

        shown = tuple(islice(self.grids(result.solutions), grids))
        if not result.status.is_answer:  # each reduced grid found stands for factor grids
            cut = (f"{result.count:,} grid(s) of the reduced puzzle found (its row {self.row + 1} "
                   f"fixed), each {self.free}! grids by digit relabelling")
            return replace(result, count=result.count * self.factor, exact=False,
                           solutions=shown, stats={**result.stats, **self._stats(result)},
                           message="; ".join(filter(None, (result.message, cut))))
        found = result.count * self.factor
        status = Status.NONE if found == 0 else Status.UNIQUE if found == 1 else \
            Status.MULTIPLE
        how = f"{self.free}! \u00d7 {result.count:,}, by digit relabelling"
        return replace(result, status=status, count=found, solutions=shown,
                       stats={**result.stats, **self._stats(result)},
                       message="; ".join(filter(None, (f"{found:,} ({how})",
                                                       result.message))))

    def _stats(self, result: Result) -> dict[str, float | str]:
        """The symmetry used, for the JSON form: factor, reduced count, row filled."""
        return {"symmetry": "digit relabelling", "factor": self.factor,
                "reduced_count": result.count, "row_fixed": self.row + 1}


def relabelling(puzzle: Puzzle) -> tuple[Relabelling | None, str]:
    """The digit relabelling that reduces the count, or None and why it does not hold:
    every given in one row and every rule kept by relabelling digits."""
    if puzzle.layout is not None:
        return None, f"a {puzzle.layout.name} is counted whole (no relabelling of its grids)"
    kept = [rule.name for rule in puzzle.rules if rule.name not in RELABELLING_KEEPS]
    if kept:
        return None, f"relabelling the digits breaks the rule {kept[0]}"
    n = puzzle.n
    rows = {cell // n for cell, digit in enumerate(puzzle.givens) if digit}
    if len(rows) > 1:
        return None, "the givens lie in more than one row: relabelling would move them"
    row = rows.pop() if rows else 0
    cells = range(row * n, row * n + n)
    missing = sorted(set(range(1, n + 1)) - {puzzle.givens[c] for c in cells})
    blanks = [c for c in cells if not puzzle.givens[c]]
    if len(missing) != len(blanks) or len(blanks) < 2:
        return None, "the row holds a digit twice or leaves fewer than two digits free"
    values = list(puzzle.givens)
    for cell, digit in zip(blanks, missing):
        values[cell] = digit
    return Relabelling(puzzle.with_values(values), tuple(missing), row), ""


def available() -> str:
    """Why the counter cannot run here ('' when it can)."""
    try:
        import pyganak  # noqa: F401  (whether it imports is the question)
    except ImportError as error:
        return f"the #SAT counter needs pyganak ({error}): {FIX}"
    return ""


def formula(puzzle: Puzzle, within: Iterable[int] | None = None) -> tuple[list[list[int]],
                                                                          list[int]]:
    """The puzzle's clauses (its givens as unit clauses) and the variables counted: every
    cell's, or, `within` some cells, their variables and the clauses whose cell
    variables all lie among them (auxiliaries kept: a relaxation, never a stronger one)."""
    from sudokulab.models import cnf

    base = cnf.base(puzzle.box, puzzle.rules, "extended", "pairwise", puzzle.layout)
    n, top = puzzle.n, base.top
    clauses = base.cnf.clauses + [[lit] for lit in cnf.givens_literals(puzzle)]
    if within is None:
        return clauses, list(range(1, top + 1))
    counted = [cnf.var(n, cell, d) for cell in sorted(set(within)) for d in range(1, n + 1)]
    inside = set(counted)
    return [c for c in clauses if all(abs(lit) in inside or abs(lit) > top for lit in c)], \
        counted


def count(puzzle: Puzzle, timeout: float | None = None,
          within: Iterable[int] | None = None, split: bool | None = None,
          symmetry: bool = True) -> Result:
    """The exact number of solutions, counted by Ganak (no grids); TIMEOUT with count 0
    past `timeout` seconds. `within` some cells: the ways to fill them that break no
    constraint inside them (see the module docstring). `split`: True counts cube by cube
    over one cell's digits, False the whole formula at once; by default a puzzle without
    givens is split and one with givens races both ways. `symmetry`: reduce the count by
    digit relabelling where it holds (`relabelling`). Unavailable when pyganak is
    missing."""
    from sudokulab.puzzle import clash

    if why := available():
        raise Unavailable(why)
    if reason := clash(puzzle):
        return Result(Status.NONE, message=reason)
    if symmetry and within is None:
        reduction, _ = relabelling(puzzle)
        if reduction is not None:
            return reduction.scaled(count(reduction.reduced, timeout, split=split,
                                          symmetry=False))
    started = time.perf_counter()
    within = None if within is None else sorted(set(within))
    clauses, counted = formula(puzzle, within)
    if not all(clauses):  # the encoding found no way at all (a cage with no digit set)
        return Result(Status.NONE, message="the formula holds the empty clause")
    cubes = _cubes(puzzle, within) if split is not False else [[]]
    race = split is None and any(puzzle.givens) and len(cubes) > 1
    built = time.perf_counter()
    deadline = None if not timeout else built + timeout
    texts = [_text(counted, clauses + cube) for cube in cubes]
    try:
        if race:
            found, won = _race(_text(counted, clauses), texts, deadline)
        else:
            found, won = sum(_parallel(texts, deadline)), "cubes" if len(cubes) > 1 else "whole"
    except Timeout:
        return Result(Status.TIMEOUT, count=0, exact=False, build_time=built - started,
                      solve_time=time.perf_counter() - built,
                      message=f"Ganak did not finish within {timeout:g} s")
    status = Status.NONE if found == 0 else Status.UNIQUE if found == 1 else Status.MULTIPLE
    return Result(status, count=found, exact=True, build_time=built - started,
                  solve_time=time.perf_counter() - built,
                  stats={"counted_variables": len(counted), "clauses": len(clauses),
                         "cubes": len(cubes) if won == "cubes" else 1, "won": won})


def _cubes(puzzle: Puzzle, within: list[int] | None) -> list[list[list[int]]]:
    """One unit clause per digit of the first open cell (of `within`): the cubes."""
    from sudokulab.models import cnf

    cells = within if within is not None else range(len(puzzle.givens))
    cell = next((c for c in cells if not puzzle.givens[c]), None)
    if cell is None:
        return [[]]
    return [[[cnf.var(puzzle.n, cell, d)]] for d in range(1, puzzle.n + 1)]


def _text(counted: list[int], clauses: list[list[int]]) -> str:
    """The counting process's input: the counted variables, then a clause per line."""
    return " ".join(map(str, counted)) + "\n" + "".join(" ".join(map(str, c)) + " 0\n"
                                                       for c in clauses)


def _parallel(texts: list[str], deadline: float | None, running: list | None = None,
              workers: int | None = None) -> list[int]:
    """Each formula's count, one process each, as many at once as there are CPUs."""
    own = running is None
    processes = [] if running is None else running  # None in it: stop, start no more
    pool = ThreadPoolExecutor(min(len(texts), workers or os.cpu_count() or 1))
    try:
        return list(pool.map(lambda text: _one(text, deadline, processes), texts))
    finally:  # a timeout or Ctrl-C: the counts stop with their processes
        if own:
            _stop(processes)
        pool.shutdown(cancel_futures=True)


def _race(whole: str, cubes: list[str], deadline: float | None) -> tuple[int, str]:
    """The count of the first to finish, the whole formula or the sum of its cubes (the
    cubes on the other CPUs), and which won."""
    from concurrent.futures import FIRST_COMPLETED, wait

    running: list[subprocess.Popen | None] = []
    pool = ThreadPoolExecutor(2)
    try:
        jobs = {pool.submit(_one, whole, deadline, running): "whole",
                pool.submit(lambda: sum(_parallel(cubes, deadline, running,
                                                  max((os.cpu_count() or 1) - 1, 1)))):
                "cubes"}
        done, _ = wait(jobs, return_when=FIRST_COMPLETED)
        first = done.pop()
        return first.result(), jobs[first]
    finally:  # the loser, a timeout or Ctrl-C: the counts stop with their processes
        _stop(running)
        pool.shutdown(cancel_futures=True)


def _stop(running: list) -> None:
    """Start no more counting processes and kill those still running."""
    running.append(None)
    for process in running:
        if process is not None and process.poll() is None:
            process.kill()


def _one(text: str, deadline: float | None, running: list) -> int:
    """One formula's count in a process of its own; Timeout past the deadline."""
    with tempfile.TemporaryFile("w+") as err:  # Ganak's comment lines: no pipe to fill
        process = subprocess.Popen([sys.executable, "-m", "sudokulab.backends.counting",
                                    str(os.getpid())], text=True,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        running.append(process)
        if None in running or (deadline is not None and time.perf_counter() >= deadline):
            # stopped, or out of time, while this one started: communicate() would not
            # always say so (it ignores the broken pipe of a process killed mid-input)
            process.kill()
            process.wait()
            raise Timeout
        try:
            out, _ = process.communicate(text, timeout=None if deadline is None else
                                         max(deadline - time.perf_counter(), 0.001))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise Timeout from None
        except BrokenPipeError:  # killed before it read its formula
            process.wait()
            raise Timeout from None
        if process.returncode != 0 or not out.strip().isdigit():
            if process.returncode == -9 and None in running:
                raise Timeout
            err.seek(0)
            raise RuntimeError(f"Ganak failed (exit {process.returncode}): "
                               f"{err.read().strip().splitlines()[-1:] or out.strip()}")
    return int(out)


def main() -> None:
    """The counting process: read the variables counted and the clauses, print the count."""
    from pyganak import Counter

    _die_with(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    lines = sys.stdin.read().splitlines()
    counter = Counter()
    counter.add_clauses([int(x) for x in line.split()[:-1]] for line in lines[1:])
    counter.set_sampling_set([int(v) for v in lines[0].split()])
    answer = os.dup(1)
    os.dup2(2, 1)  # Ganak prints comment lines ('c o ...') to stdout: the count alone goes there
    found = counter.count()
    os.write(answer, f"{found}\n".encode())


def _die_with(parent: int | None) -> None:
    """Be killed when the parent dies (Linux), whatever kills it: a count left alone would
    run on at full CPU for as long as Ganak takes; end now if it is gone already."""
    if sys.platform.startswith("linux"):
        import contextlib
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if parent is not None and os.getppid() != parent:
        os._exit(1)


if __name__ == "__main__":
    main()
