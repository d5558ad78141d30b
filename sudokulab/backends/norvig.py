"""Constraint propagation and search in plain Python, after Peter Norvig's essay.

The essay's two rules, applied until nothing changes:
1. a cell with one candidate left (a naked single): eliminate that digit from its peers;
2. a unit with one place left for a digit (a hidden single): put the digit there.
Then search: pick the cell with the fewest candidates, try each, propagate, backtrack.

Candidates are bitmasks (bit d-1 set when digit d is possible), so copying a grid for a
guess is one list copy and most tests are a single `&`. Beside them the search keeps,
for every unit and digit, how many places the digit has left in the unit. Every
elimination lowers those counts, so rule 2 fires the moment a count falls to one (at
zero the branch is dead), the way the essay's `eliminate` checks the units of the cell
it just changed, without scanning a unit or sweeping all of them after each change.
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

Values = list[int]  # each cell's candidates, as a bitmask
Places = list[int]  # places[unit * n + d]: how many cells of the unit can still hold digit d+1

PLACED = 1 << 16  # a count for a digit already placed in the unit: no decrement reaches 1


class Contradiction(Exception):
    """A cell lost its last candidate, or a unit lost every place for a digit."""


class Board:
    """What propagation needs of a geometry, laid out for speed."""

    def __init__(self, geo: Geometry) -> None:
        n = self.n = geo.n
        self.full = (1 << n) - 1
        self.peers = geo.peers
        self.units = geo.units
        units_of: list[list[int]] = [[] for _ in geo.cells]
        for u, unit in enumerate(geo.units):
            for cell in unit:
                units_of[cell].append(u)
        # slots[d][cell]: where the counts of digit d+1 in the cell's units live in Places
        self.slots = tuple(tuple(tuple(u * n + d for u in units) for units in units_of)
                           for d in range(n))
        # apart[cell][peer]: the peer's units that the cell is not in, as offsets u * n.
        # Once the cell is solved, the counts of its digit in its own units are parked at
        # PLACED, so a peer that loses the digit need only update these.
        self.apart = tuple({peer: tuple(u * n for u in units_of[peer]
                                        if u not in units_of[cell])
                            for peer in geo.peers[cell]}
                           for cell in geo.cells)

    def start(self, puzzle: Puzzle) -> tuple[Values, Places, list[int], list[int]]:
        """Candidates and place counts before propagation, the givens, and the hidden singles."""
        n, givens = self.n, puzzle.givens
        values = [self.full] * (n * n)
        given = []
        for cell, digit in enumerate(givens):
            if digit:
                values[cell] = 1 << (digit - 1)
                given.append(cell)
        # A unit's blank cells are places for every digit; a given only for its own.
        places = []
        for unit in self.units:
            counts = [0] * n
            for cell in unit:
                if givens[cell]:
                    counts[givens[cell] - 1] += 1
            blanks = n - sum(counts)
            places += [count + blanks for count in counts]
        return values, places, given, [k for k, left in enumerate(places) if left < 2]

    def assign(self, values: Values, places: Places, cell: int, bit: int,
               hidden: list[int]) -> None:
        """Put a digit in a cell: each other candidate loses this place in the cell's units."""
        slots = self.slots
        others = values[cell] & ~bit
        values[cell] = bit
        while others:
            other = others & -others
            others ^= other
            for k in slots[other.bit_length() - 1][cell]:
                left = places[k] - 1
                places[k] = left
                if left < 2:
                    if not left:
                        raise Contradiction  # the digit has no place left in this unit
                    hidden.append(k)

    def propagate(self, values: Values, places: Places, solved: list[int],
                  hidden: list[int], tally: list[int]) -> None:
        """Apply both rules until neither changes anything; raise Contradiction if stuck.

        `solved` holds cells whose digit is not yet eliminated from their peers, `hidden`
        the place counts that fell to one; `tally` adds up assignments and eliminations.
        """
        while solved or hidden:
            self.eliminate(values, places, solved, hidden, tally)
            self.place_hidden_singles(values, places, solved, hidden, tally)

    def eliminate(self, values: Values, places: Places, solved: list[int],
                  hidden: list[int], tally: list[int]) -> None:
        """Rule 1: a solved cell's digit is no candidate of its peers (which may then solve)."""
        peers, apart, slots = self.peers, self.apart, self.slots
        placed = PLACED
        eliminations = 0
        try:
            while solved:
                cell = solved.pop()
                bit = values[cell]
                d = bit.bit_length() - 1
                for k in slots[d][cell]:
                    places[k] = placed  # the digit has its place in these units
                peer_units = apart[cell]
                for peer in peers[cell]:
                    if values[peer] & bit:
                        candidates = values[peer] ^ bit
                        if not candidates:
                            raise Contradiction  # the peer lost its last candidate
                        values[peer] = candidates
                        eliminations += 1
                        if not candidates & (candidates - 1):
                            solved.append(peer)  # a naked single: its turn comes
                        for k in peer_units[peer]:
                            k += d
                            left = places[k] - 1
                            places[k] = left
                            if left < 2:
                                if not left:
                                    raise Contradiction  # no place left in a unit
                                hidden.append(k)
        finally:
            tally[1] += eliminations

    def place_hidden_singles(self, values: Values, places: Places, solved: list[int],
                             hidden: list[int], tally: list[int]) -> None:
        """Rule 2: a digit with one place left in a unit goes there."""
        units, n = self.units, self.n
        assignments = 0
        try:
            while hidden:
                k = hidden.pop()
                left = places[k]
                if left != 1:
                    if left:
                        continue  # placed since its count fell to one
                    raise Contradiction  # no place at all (only the givens do this)
                unit, d = divmod(k, n)
                bit = 1 << d
                for cell in units[unit]:
                    if values[cell] & bit:
                        break
                if values[cell] != bit:  # else it is a naked single, already in `solved`
                    self.assign(values, places, cell, bit, hidden)
                    solved.append(cell)
                    assignments += 1
        finally:
            tally[0] += assignments


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
        values, places, given, hidden = b.start(puzzle)
        stats = {"assignments": len(given), "eliminations": 0, "nodes": 0, "guesses": 0,
                 "backtracks": 0}
        built = time.perf_counter()
        solutions: list[tuple[int, ...]] = []
        complete = self.search(b, values, places, given, hidden, solutions, limit, deadline,
                               stats)
        return verdict(solutions, limit, complete=complete, stats=stats,
                       build_time=built - started, solve_time=time.perf_counter() - built)

    def search(self, b: Board, values: Values, places: Places, solved: list[int],
               hidden: list[int], solutions: list, limit: int | None, deadline: Deadline,
               stats: dict) -> bool:
        """Depth-first search; False when the deadline cut it short.

        The stack holds the cells being guessed: (candidates and place counts before the
        guess, cell, its digits not tried yet). Each try but the last works on copies; the
        last takes the lists as they are, since nothing needs them after it.
        """
        tally = [0, 0]  # assignments, eliminations: counted by propagate
        nodes = guesses = backtracks = 0
        stack: list[tuple[Values, Places, int, int]] = []
        at = deadline.at
        clock = time.perf_counter
        complete = True
        cell = bit = -1  # the root: propagate the givens
        try:
            while True:
                try:
                    if cell >= 0:
                        b.assign(values, places, cell, bit, hidden)
                    b.propagate(values, places, solved, hidden, tally)
                except Contradiction:
                    backtracks += 1
                else:
                    nodes += 1
                    choice = fewest_candidates(values)
                    if choice >= 0:
                        stack.append((values, places, choice, values[choice]))
                    else:
                        solutions.append(digits_of(values))
                        if limit is not None and len(solutions) >= limit:
                            break
                if not stack:
                    break
                if at is not None and clock() >= at:
                    complete = False
                    break
                values, places, cell, untried = stack[-1]
                bit = untried & -untried
                untried ^= bit
                if untried:
                    stack[-1] = (values, places, cell, untried)
                    values, places = values[:], places[:]
                else:
                    stack.pop()
                guesses += 1
                solved, hidden = [cell], []
        finally:
            stats["assignments"] += tally[0] + guesses
            stats["eliminations"] += tally[1]
            stats["nodes"] += nodes
            stats["guesses"] += guesses
            stats["backtracks"] += backtracks
        return complete

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
