"""Peter Norvig's "Solving Every Sudoku Puzzle" (2006), as the essay writes it: `norvig:classic`.

The essay's data: `squares` (here the geometry's cell names, r1c1 ...), `units` and
`peers` of each square, and `values`, a dict from square to the string of its digits
still possible. Its two strategies, named as the essay names them:

- **constraint propagation**, two rules run by `assign` and `eliminate`:
  (1) "If a square has only one possible value, then eliminate that value from the
      square's peers."
  (2) "If a unit has only one possible place for a value, then put the value there."
- **search**: "a depth-first search for a solution ... we choose the unfilled square
  with the minimum number of possible values" (variable ordering: fewest candidates),
  trying its digits in order on a copy of `values`.

The essay's `search` stops at the first solution; to count solutions this one yields
each one and goes on (`solutions`). Contradictions return False, as in the essay; the
square or unit that ran out is kept in `failed` for the trace. Beside the essay: the
statistics (`counts`), the deadline, and the trace (sudokulab.backends.trace). The fast
engine (`norvig`, sudokulab/backends/norvig.py) does the same with bitmasks and place
counts; `sudokulab compare --backends norvig,norvig:classic` measures what that bought.

Digits are characters, one per digit, so a 16x16 writes 10..16 as A..G.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from sudokulab import rules as R
from sudokulab.geometry import Geometry

# The rules whose geometry is more than units and peers (sums, digit pairs, parity): the
# essay has no propagation for them, nor dancing links a column, so `norvig:classic` and
# `dlx:links` answer UNSUPPORTED. tests/test_classic_algorithms.py holds this to the rules
# the fast norvig propagates with code of its own.
OWN_PROPAGATION = (R.NonConsecutive, R.Cage, R.Parity, R.Thermometer, R.Arrow, R.Kropki,
                   R.XV, R.Renban, R.Whispers, R.Palindrome, R.LittleKiller,
                   R.ConsecutiveMarks, R.Sandwich)
UNITS_AND_PEERS = tuple(rule for rule in R.RULE_TYPES if not issubclass(rule, OWN_PROPAGATION))
DIGITS = "123456789ABCDEFGHIJKLMNOP"  # one character per digit, up to 25x25
Values = dict[str, str]  # square -> the digits it may still hold


class OutOfTime(Exception):
    """The deadline passed during the search."""


class Essay:
    """The essay's squares, units and peers for one geometry, and its two strategies."""

    def __init__(self, geo: Geometry) -> None:
        self.squares = [geo.name(cell) for cell in geo.cells]
        self.digits = DIGITS[:geo.n]
        unitlist = [[self.squares[cell] for cell in unit] for unit in geo.units]
        self.units = {s: [u for u in unitlist if s in u] for s in self.squares}
        # The essay's peers are the squares of a square's units; a rule's geometry adds
        # the cells it keeps apart (a knight's move, a windoku box), so take those.
        self.peers = {self.squares[cell]: {self.squares[p] for p in geo.peers[cell]}
                      for cell in geo.cells}
        self.counts = {"assignments": 0, "eliminations": 0, "nodes": 0, "guesses": 0,
                       "backtracks": 0}
        self.failed: list[str] = []  # where the last contradiction happened
        self.at: float | None = None  # the deadline, as time.perf_counter() reads it
        self.trace = None  # a sudokulab.backends.trace.Recorder, or None

    # --- parsing the givens ------------------------------------------------------------

    def parse_grid(self, givens: list[int]) -> Values | bool:
        """Every digit possible in every square, then assign each given (False: a clash)."""
        values = {s: self.digits for s in self.squares}
        for s, d in zip(self.squares, givens):
            if d and not self.assign(values, s, self.digits[d - 1]):
                return False  # (the essay's "Fail if we can't assign d to square s.")
        return values

    # --- constraint propagation ------------------------------------------------------

    def assign(self, values: Values, s: str, d: str) -> Values | bool:
        """Eliminate all the other values (except d) from values[s] and propagate."""
        self.counts["assignments"] += 1
        other_values = values[s].replace(d, "")
        if all(self.eliminate(values, s, d2) for d2 in other_values):
            return values
        return False

    def eliminate(self, values: Values, s: str, d: str) -> Values | bool:
        """Eliminate d from values[s]; propagate when values or places <= 1."""
        if d not in values[s]:
            return values  # already eliminated
        values[s] = values[s].replace(d, "")
        self.counts["eliminations"] += 1
        # (1) If a square s is reduced to one value d2, then eliminate d2 from the peers.
        if len(values[s]) == 0:
            self.failed = [s]
            return False  # contradiction: removed last value
        if len(values[s]) == 1:
            d2 = values[s]
            if not all(self.eliminate(values, s2, d2) for s2 in self.peers[s]):
                return False
        # (2) If a unit u is reduced to only one place for a value d, then put it there.
        return self.only_place(values, s, d)

    def only_place(self, values: Values, s: str, d: str) -> Values | bool:
        """Rule (2) for the units of s, which just lost d: d's one place left takes it."""
        for u in self.units[s]:
            dplaces = [s2 for s2 in u if d in values[s2]]
            if len(dplaces) == 0:
                self.failed = u
                return False  # contradiction: no place for this value
            # d can only be in one place in unit; assign it there
            if len(dplaces) == 1 and not self.assign(values, dplaces[0], d):
                return False
        return values

    # --- search ----------------------------------------------------------------------

    def solutions(self, values: Values | bool, depth: int = 0) -> Iterator[Values]:
        """Using depth-first search and propagation, every solution below `values`."""
        if values is False:
            return  # failed earlier
        assert isinstance(values, dict)
        self.counts["nodes"] += 1
        if self.at is not None and time.perf_counter() >= self.at:
            raise OutOfTime
        if all(len(values[s]) == 1 for s in self.squares):
            yield values  # solved!
            return
        # Choose the unfilled square s with the fewest possibilities
        _, s = min((len(values[s]), s) for s in self.squares if len(values[s]) > 1)
        if self.trace is not None:
            self.trace.chose(depth, f"fewest candidates: {s} has {len(values[s])} "
                                    f"({', '.join(values[s])})")
        for d in values[s]:
            self.counts["guesses"] += 1
            attempt = self.try_digit(values, s, d, depth)
            if attempt is False:
                self.counts["backtracks"] += 1
            yield from self.solutions(attempt, depth + 1)

    def try_digit(self, values: Values, s: str, d: str, depth: int) -> Values | bool:
        """assign(values.copy(), s, d), told to the trace: the guess, then its propagation."""
        if self.trace is None:
            return self.assign(values.copy(), s, d)
        cell = self.squares.index(s)
        self.trace.guess(depth, cell, self.digits.index(d) + 1)
        before = self.marks(values)
        before[cell] = 1 << self.digits.index(d)
        attempt = self.assign(values.copy(), s, d)
        self.propagated(before, attempt)
        return attempt

    # --- the trace (not in the essay) ------------------------------------------------

    def marks(self, values: Values) -> list[int]:
        """Each square's digits as a bitmask (bit d-1 for digit d), square by square."""
        index = self.digits.index
        return [sum(1 << index(d) for d in values[s]) for s in self.squares]

    def propagated(self, before: list[int], after: Values | bool) -> None:
        """Tell the trace what a propagation removed, or where it met a contradiction."""
        if self.trace is None:
            return
        if after is not False:
            assert isinstance(after, dict)
            self.trace.wave(before, self.marks(after))
            return
        cells = [self.squares.index(s) for s in self.failed]
        why = (f"{self.failed[0]} has no candidate left" if len(cells) == 1 else
               "no place left for a digit in the unit " + ",".join(self.failed))
        self.trace.dead_end(cells, why)

    def grid(self, values: Values) -> tuple[int, ...]:
        """The digits of a solved `values`, square by square."""
        return tuple(self.digits.index(values[s]) + 1 for s in self.squares)


@contextmanager
def deep_recursion(frames: int) -> Iterator[None]:
    """Room for `frames` nested calls: rule (1) recurses peer by peer, as in the essay,
    three frames per square it solves, so a 25x25 needs more than Python's default."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, frames))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
