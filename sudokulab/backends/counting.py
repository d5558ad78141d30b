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

- An estimate first. Before a count by enumeration without --timeout, `solve` asks
  Knuth's estimate (`estimate`: random root-to-leaf paths of a search tree, each scoring
  the product of the branchings it took) how many grids it would list, and refuses at
  once, with the figures, what is over ENUMERABLE (`refuse_endless`): the empty 8x8
  would list about 7.8e11 grids with its first row fixed, 1.4 years at norvig's rate. 16
  paths decide most counts in milliseconds (the 6x6: 10 ms, a 9x9 with 1,608 solutions:
  16 ms); 200 paths settle those near the bound and give the figure a refusal quotes (the
  8x8: 0.5 s in all, the 9x9 1 s), each look cut at ESTIMATING seconds (a path of a
  16x16 takes 50 ms: its refusal takes 3 s, on fewer paths). Only rules that say which
  cells differ are estimated (the peers say all they mean); others are counted as
  before, unrefused.

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
        if result.status.counts_nothing:  # a stall's grid and figures: the reduced puzzle's
            said = (f"its grid so far and figures were of the reduced puzzle (row "
                    f"{self.row + 1} filled by digit relabelling): not shown")
            return replace(result, partial=(), stats=self._stats(result),
                           message="; ".join(filter(None, (result.message, said))))
        if not result.status.is_answer:  # each reduced grid found stands for factor grids
            # the engine's words are about the reduced puzzle: said so after them
            reduced = f"the reduced puzzle (its row {self.row + 1} fixed)"
            cut = (f"{result.count:,} grid(s) of {reduced} found, each {self.free}! grids "
                   f"by digit relabelling" if result.count else
                   f"no grid of {reduced} counted yet, each would be {self.free}! grids by "
                   f"digit relabelling")
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
    kept = [rule.name for rule in puzzle.rules if not rule.digit_blind]
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


# --- estimating a count before enumerating it (Knuth 1975) ---------------------------------

PROBES = 200  # random paths per estimate: see ENUMERABLE and tests/test_count_estimate.py
QUICK_PROBES = 16  # the first look before a count: most counts are far from the bound
# Seconds each look may take at most: a path of a 16x16 takes 50 ms, one of a 25x25 more.
ESTIMATING = 2.0
# Grids an enumeration lists in a second, measured on the empty 8x8 (2x4 boxes, its first
# row fixed) in 10 s runs (`solve ... --box 2x4 --count -b NAME --timeout 10`, 2 shared
# CPUs): the time a refusal quotes (a 9x9's grids come slower). Other engines are quoted
# at the fastest rate, a floor.
ENUMERATION_RATES = {"native": 170_000, "norvig": 17_000, "dlx": 14_500}
# The most grids a count without --timeout may enumerate: about 1.6 hours at native's rate
# and 16 at norvig's. Ten times the largest count the tests hold (a samurai's 98 million,
# tests/data/samurai-opened-4.txt, estimated 9.6e7), so an estimate off by a few times
# refuses no count that finishes in hours; the empty 8x8's 7.2e11 with its first row fixed
# is 700 times it. The chance an estimate refuses a puzzle of C solutions is at most
# C / ENUMERABLE (Markov: the estimate is never negative and its mean is C).
ENUMERABLE = 10**9
# A count keeps this many cells' worth of grids for the checker (some 15 MB, 18,518 9x9 grids,
# every 6x6 one of the 39,168 with a row fixed; checking them takes seconds): past
# them the engine counts without keeping (Backend.solve(keep=)), so memory stays flat
# however long it counts.
KEPT_CELLS = 1_500_000


@dataclass(frozen=True)
class Estimate:
    """Knuth's estimate of a puzzle's number of solutions: the mean over `probes` random
    paths of the search tree, and its standard error."""

    count: float
    error: float
    probes: int


def estimate(puzzle: Puzzle, probes: int = PROBES, seed: int = 0,
             seconds: float | None = None) -> Estimate | None:
    """Knuth's (1975) unbiased estimate of the number of solutions, or None for a puzzle
    whose rules say more than which cells differ: each of `probes` random paths from the
    root (naked and hidden singles propagated at each node, a cell with fewest candidates
    branched on) multiplies the candidates it chose among, and scores that product at a
    full grid, 0 at a dead end. Exact in the mean; one estimate is close where propagation
    prunes well (classic grids: within 0.74-1.14 of every count in
    tests/test_count_estimate.py) and can be far low on sparse chess-rule puzzles, where
    few paths reach a grid: the tests' anti-knight with 11 givens, 111 solutions, is
    estimated 0.6 +- 0.6 (seed 0), its error as large as itself. `seconds`: stop drawing
    paths past that time (one at least), the probes drawn told in the estimate."""
    import random

    if probes < 1:
        raise ValueError(f"estimate: probes must be at least 1, not {probes}")
    start = _candidates(puzzle)
    if start is None:
        return None
    geo, root = start
    rng = random.Random(seed)
    units = [unit for unit in geo.units if len(unit) == geo.n]
    deadline = None if seconds is None else time.perf_counter() + seconds
    scores: list[int] = []
    while len(scores) < probes and (deadline is None or not scores or
                                    time.perf_counter() < deadline):
        scores.append(_probe(root, geo.peers, units, rng))
    return _mean(scores)


def _mean(scores: list[int]) -> Estimate:
    """The mean of exact scores and its standard error, inf past a float's range (a 25x25
    has over 1e500 grids)."""
    import math
    from fractions import Fraction

    n, total = len(scores), sum(scores)
    variance = Fraction(n * sum(s * s for s in scores) - total * total, n * n * (n - 1)) \
        if n > 1 else Fraction(0)  # of the mean: the scores' variance over n
    try:
        return Estimate(float(Fraction(total, n)), math.sqrt(float(variance)), n)
    except OverflowError:
        return Estimate(math.inf, math.inf, n)


def refuse_endless(entries: Iterable, backend: str, relabel: bool = True) -> None:
    """UsageError, at once, for a count by enumeration that Knuth's estimate puts beyond
    ENUMERABLE grids (`entries` as solve reads them; with `relabel`, the puzzle estimated
    is the one digit relabelling reduces it to, which is the one enumerated)."""
    from sudokulab.errors import UsageError

    entries = list(entries)
    for number, entry in enumerate(entries, 1):
        why = endless(entry.puzzle, backend, relabel) if entry.puzzle is not None else None
        if why:
            where = f"puzzle {number} ({entry.source}:{entry.line}): " if len(entries) > 1 \
                else ""
            raise UsageError(where + why)


def endless(puzzle: Puzzle, backend: str, relabel: bool = True,
            asked: str = "--count", bound: str = "--timeout S") -> str:
    """Why counting the puzzle by enumeration is refused ('' when it is not): Knuth's
    estimate of the grids listed, beyond ENUMERABLE (`asked` and `bound` name the
    request and the way out in the caller's words: options, or an API's arguments)."""
    reduction = relabelling(puzzle)[0] if relabel else None
    found = beyond_enumeration(puzzle if reduction is None else reduction.reduced)
    return "" if found is None else _refusal(found, backend, reduction, asked, bound)


def _refusal(found: Estimate, backend: str, reduction: Relabelling | None,
             asked: str = "--count", bound: str = "--timeout S") -> str:
    """Why a count is refused: the grids it would list, how long at the engine's rate
    (the fastest engine's for one not measured), and what to do instead."""
    import math

    reduced = "" if reduction is None else \
        f"the puzzle with row {reduction.row + 1} fixed, each grid {reduction.free}! by " \
        f"digit relabelling; "
    name = backend.split(":")[0]
    fastest = max(ENUMERATION_RATES, key=ENUMERATION_RATES.__getitem__)
    rate = ENUMERATION_RATES.get(name, ENUMERATION_RATES[fastest])
    pace = f"{name}'s {rate:,} grids/s" if name in ENUMERATION_RATES else \
        f"{fastest}'s {rate:,} grids/s, the fastest (-b {name}: longer)"
    error = f"{found.error / found.count:.0%}" if found.count < math.inf else "unknown"
    return (f"{asked} would enumerate about {_figure(found.count)} grids ({reduced}Knuth's "
            f"estimate over {found.probes} random paths, standard error "
            f"{error}): {_duration(found.count / rate)} at {pace}, "
            f"beyond enumeration (over {ENUMERABLE:,} grids); give {bound} for a lower "
            f"bound (>= the grids found in S seconds)")


def beyond_enumeration(puzzle: Puzzle, bound: float = ENUMERABLE) -> Estimate | None:
    """Knuth's estimate of the puzzle's count when it is over `bound`, else None (None too
    for a puzzle `estimate` does not handle). Cheap first: QUICK_PROBES paths, and all
    PROBES only when those come within a tenth of the bound."""
    found = estimate(puzzle, QUICK_PROBES, seconds=ESTIMATING)
    if found is None or found.count < bound / 10:
        return None
    # the figure a refusal quotes, and near the bound
    found = estimate(puzzle, PROBES, seconds=ESTIMATING)
    return found if found is not None and found.count > bound else None


def _figure(count: float) -> str:
    """A large count in two significant digits: '7.3e11'."""
    if count == float("inf"):
        return "1e308 or more"
    return f"{count:,.0f}" if count < 1e6 else f"{count:.2g}".replace("e+", "e")


def _duration(seconds: float) -> str:
    """A duration in the largest unit that keeps it over 1: '49 days'."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600),
                       ("minutes", 60)):
        if seconds >= size * 1e6:
            return f"about {_figure(seconds / size)} {unit}"
        if seconds >= size:
            return f"about {seconds / size:,.{0 if seconds >= 10 * size else 1}f} {unit}"
    return f"about {seconds:.0f} s"


def _candidates(puzzle: Puzzle) -> tuple | None:
    """The geometry and each cell's candidates before propagation (a bit per digit), or
    None when a rule says more than which cells differ."""
    from sudokulab.geometry import geometry

    if not all(rule.digit_blind for rule in puzzle.rules):
        return None
    geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
    if geo.cages or geo.sums or geo.digit_relations or geo.sandwiches or \
            not all(relation.differ for relation in geo.relations):
        return None  # a rule the names let through relates digits otherwise: not ours
    full = (1 << geo.n) - 1
    cells = [full if not digit else 1 << (digit - 1) for digit in puzzle.givens]
    return geo, cells


def _probe(root: list[int], peers, units: list, rng) -> int:
    """One random path's score: the product of the branchings it took if it reaches a full
    grid, else 0."""
    cells, product = root[:], 1
    placed = [False] * len(cells)
    todo = [c for c, m in enumerate(cells) if not m & (m - 1)]  # the givens
    while True:
        if not _propagate(cells, placed, todo, peers, units):
            return 0
        open_ = [c for c in range(len(cells)) if not placed[c]]
        if not open_:
            return product
        cell = min(open_, key=lambda c: cells[c].bit_count())
        bits = [1 << d for d in range(cells[cell].bit_length()) if cells[cell] >> d & 1]
        product *= len(bits)
        cells[cell] = rng.choice(bits)
        todo.append(cell)


def _propagate(cells: list[int], placed: list[bool], todo: list[int], peers,
               units: list) -> bool:
    """Place every single (naked over the peers, hidden over the units) until none is
    left; False at a contradiction (a cell without candidate, a digit without a cell)."""
    while True:
        while todo:
            cell = todo.pop()
            if placed[cell]:
                continue
            bit = cells[cell]
            if not bit:
                return False
            placed[cell] = True
            for peer in peers[cell]:
                mask = cells[peer]
                if mask & bit:
                    if placed[peer]:
                        return False
                    mask &= ~bit
                    cells[peer] = mask
                    if not mask & (mask - 1):  # a single, or empty: a dead end next
                        todo.append(peer)
        for unit in units:
            once = twice = 0
            for cell in unit:
                mask = cells[cell]
                twice |= once & mask
                once |= mask
            if once.bit_count() < len(unit):
                return False
            hidden = once & ~twice
            for cell in unit if hidden else ():
                mask = cells[cell]
                if mask & hidden and mask & (mask - 1):  # not yet a single
                    mask &= hidden
                    if mask & (mask - 1):  # two digits with no other cell: a dead end
                        return False
                    cells[cell] = mask
                    todo.append(cell)
        if not todo:
            return True


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
