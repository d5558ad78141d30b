"""Constraint propagation and search in plain Python, after Peter Norvig's essay.

The essay's two rules, applied until nothing changes:
1. a cell with one candidate left (a naked single): eliminate that digit from its peers;
2. a unit with one place left for a digit (a hidden single): put the digit there.
Then search: pick the cell with the fewest candidates, try each, propagate, backtrack.

Candidates are bitmasks (bit d-1 set when digit d is possible), so copying a grid for a
guess is one list copy and most tests are a single `&`.
"""

from __future__ import annotations

import platform
import time
from functools import lru_cache

from sudokulab import rules as R
from sudokulab.backends.base import Availability, Backend, Deadline
from sudokulab.geometry import Geometry, geometry
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, verdict

Values = list[int]


class Contradiction(Exception):
    """A cell lost its last candidate, or a unit lost every place for a digit."""


class Board:
    """What propagation needs of a geometry, laid out for speed."""

    def __init__(self, geo: Geometry) -> None:
        self.n = geo.n
        self.full = (1 << geo.n) - 1
        self.peers = geo.peers
        self.units = geo.units
        index = {unit: k for k, unit in enumerate(geo.units)}
        self.units_of = tuple(tuple(index[u] for u in units) for units in geo.units_of)

    def start(self, puzzle: Puzzle) -> tuple[Values, list[int]]:
        """Every cell's candidates before propagation, and the given cells to propagate."""
        values = [self.full] * (self.n * self.n)
        given = []
        for cell, digit in enumerate(puzzle.givens):
            if digit:
                values[cell] = 1 << (digit - 1)
                given.append(cell)
        return values, given

    def propagate(self, values: Values, solved: list[int], tally: list[int]) -> None:
        """Apply both rules until neither changes anything; raise Contradiction if stuck."""
        while solved:
            changed = self.eliminate_from_peers(values, solved, tally)
            self.place_hidden_singles(values, changed, solved, tally)

    def eliminate_from_peers(self, values: Values, solved: list[int],
                             tally: list[int]) -> list[int]:
        """Rule 1: a solved cell's digit is no candidate of its peers (which may then solve).

        Returns the cells that lost a candidate (solved cells included, as they lost all
        but one): only their units can hold a new hidden single.
        """
        peers = self.peers
        changed = []
        while solved:
            cell = solved.pop()
            changed.append(cell)
            bit = values[cell]
            for peer in peers[cell]:
                candidates = values[peer]
                if candidates & bit:
                    candidates ^= bit
                    if not candidates:
                        raise Contradiction
                    values[peer] = candidates
                    changed.append(peer)
                    tally[1] += 1
                    if not candidates & (candidates - 1):
                        solved.append(peer)
        return changed

    def place_hidden_singles(self, values: Values, changed: list[int], solved: list[int],
                             tally: list[int]) -> None:
        """Rule 2: a digit with one place left in a unit goes there."""
        full = self.full
        units = self.units
        units_of = self.units_of
        touched = set()
        for cell in changed:
            touched.update(units_of[cell])
        for u in touched:
            unit = units[u]
            once = twice = placed = 0
            for cell in unit:
                candidates = values[cell]
                if candidates & (candidates - 1):
                    twice |= once & candidates
                    once |= candidates
                else:
                    placed |= candidates
            if once | placed != full:
                raise Contradiction  # some digit has no place left in this unit
            singles = once & ~twice & ~placed
            if singles:
                for cell in unit:
                    candidates = values[cell]
                    digit = candidates & singles
                    if digit:
                        if digit & (digit - 1):
                            raise Contradiction  # two digits need this one cell
                        values[cell] = digit
                        solved.append(cell)
                        tally[0] += 1


@lru_cache(maxsize=32)
def board(geo: Geometry) -> Board:
    """The Board of a geometry, built once."""
    return Board(geo)


def fewest_candidates(values: Values) -> int:
    """The unsolved cell with the fewest candidates, or -1 when every cell is solved."""
    best, best_count = -1, 99
    for cell, candidates in enumerate(values):
        if candidates & (candidates - 1):
            count = candidates.bit_count()
            if count < best_count:
                best, best_count = cell, count
                if count == 2:
                    break
    return best


def digits_of(values: Values) -> tuple[int, ...]:
    """The grid of a fully solved candidates list."""
    return tuple(v.bit_length() for v in values)


class NorvigBackend(Backend):
    """Hand-written propagation (naked and hidden singles) and depth-first search."""

    name = "norvig"
    paradigm = "propagation and search (Python)"
    supported_rules = (R.Diagonal, R.AntiKnight, R.AntiKing, R.Windoku, R.Jigsaw)

    @classmethod
    def available(cls) -> Availability:
        """Always available: it is plain Python."""
        return Availability(True, version=f"Python {platform.python_version()}")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Propagate the givens, then search depth-first for up to `limit` solutions."""
        started = time.perf_counter()
        geo = geometry(puzzle.box, puzzle.rules)
        b = board(geo)
        values, given = b.start(puzzle)
        stats = {"assignments": len(given), "eliminations": 0, "nodes": 0, "guesses": 0,
                 "backtracks": 0}
        built = time.perf_counter()
        solutions: list[tuple[int, ...]] = []
        complete = self.search(b, values, given, solutions, limit, deadline, stats)
        return verdict(solutions, limit, complete=complete, stats=stats,
                       build_time=built - started, solve_time=time.perf_counter() - built)

    def search(self, b: Board, values: Values, solved: list[int], solutions: list,
               limit: int | None, deadline: Deadline, stats: dict) -> bool:
        """Depth-first search; False when the deadline cut it short.

        The stack holds guesses still to try: (candidates before the guess, cell, digit).
        """
        stack = [(values, -1, 0)]
        tally = [0, 0]
        while stack:
            if deadline.at is not None and deadline.passed():
                return False
            values, cell, bit = stack.pop()
            values = values[:]
            if cell >= 0:
                values[cell] = bit
                solved = [cell]
                stats["guesses"] += 1
                stats["assignments"] += 1
            try:
                b.propagate(values, solved, tally)
            except Contradiction:
                stats["backtracks"] += 1
                continue
            stats["nodes"] += 1
            cell = fewest_candidates(values)
            if cell < 0:
                solutions.append(digits_of(values))
                if limit is not None and len(solutions) >= limit:
                    break
                continue
            candidates = values[cell]
            bits = []
            while candidates:
                bit = candidates & -candidates
                bits.append(bit)
                candidates ^= bit
            stack.extend((values, cell, bit) for bit in reversed(bits))
        stats["assignments"] += tally[0]
        stats["eliminations"] += tally[1]
        return True

    def describe(self, puzzle: Puzzle) -> str:
        """The units and peers the geometry derived, as the search uses them."""
        geo = geometry(puzzle.box, puzzle.rules)
        degrees = sorted({len(p) for p in geo.peers})
        lines = [f"norvig: {len(geo.units)} units of {geo.n} cells, "
                 f"peers per cell: {', '.join(map(str, degrees))}"]
        extra = [name for name in geo.unit_names
                 if name.split()[0] not in ("row", "column", "box")]
        if extra:
            lines.append(f"  extra units: {', '.join(extra)}")
        if geo.moves:
            lines.append(f"  extra peer pairs from chess moves: {len(geo.moves)}")
        return "\n".join(lines)
