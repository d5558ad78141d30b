"""Constraint propagation and search in plain Python, after Peter Norvig's essay.

The essay's two rules, applied until nothing changes:
1. a cell with one candidate left (a naked single): eliminate that digit from its peers;
2. a unit with one place left for a digit (a hidden single): put the digit there.
Then search: pick the cell with the fewest candidates, try each, propagate, backtrack.
Once a guess has met a dead end, the pick weighs conflicts too (dom/wdeg): each dead end
adds one to the weight of the cells where it happened (the cell that lost its last
candidate, the unit that lost a digit's last place, the cage with no digit set left, the
sum or sandwich line that cannot add up, the related pair with no partner digit), and the
search guesses in the cell with the fewest candidates per weight. Without it, a
puzzle with no solution can send the search through millions of guesses elsewhere, each
proving the same small contradiction again (`.....5.8....6.1.43...`, the kind Norvig's
essay reports needing 188 s; results/corners.md has norvig's times before and after).

Candidates are bitmasks (bit d-1 set when digit d is possible), so copying a grid for a
guess is one list copy and most tests are a single `&`. Beside them the search keeps,
for every unit and digit, how many places the digit has left in the unit. Every
elimination lowers those counts, so rule 2 fires the moment a count falls to one (at
zero the branch is dead), the way the essay's `eliminate` checks the units of the cell
it just changed, without scanning a unit or sweeping all of them after each change.

Variant rules come in two kinds. Diagonal, anti-knight, anti-king, windoku and jigsaw
only add units and peers, so the classic Board runs them unchanged. Parity,
non-consecutive and cages need code of their own: a RuleBoard masks the parity cells at
the start, and after every fixpoint of the two rules runs the rule filters
(`separate_consecutive`, `add_up_cages`), then propagates again, until nothing changes.
Every elimination a rule makes goes through one helper, `remove`, which keeps the place
counts right. A classic puzzle never meets any of this.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache, lru_cache

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Choice,
    Deadline,
    interrupted,
    plain_python,
)
from sudokulab.backends.essay import UNITS_AND_PEERS
from sudokulab.cages import all_cages, digit_sets, implied_cages
from sudokulab.geometry import Geometry, geometry, related, relation_text
from sudokulab.puzzle import Puzzle
from sudokulab.result import Found, Result, verdict

Values = list[int]  # each cell's candidates, as a bitmask
Places = list[int]  # places[unit * n + d]: how many cells of the unit can still hold digit d+1

PLACED = 1 << 16  # a count for a digit already placed in the unit: no decrement reaches 1


class Contradiction(Exception):
    """A cell lost its last candidate, or a unit lost every place for a digit.

    `cells` are where it happened (the cell, the unit or the cage): the search weighs them.
    """

    def __init__(self, cells: Sequence[int] = ()) -> None:
        super().__init__()
        self.cells = cells


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
        # offsets[cell]: the cell's units as offsets u * n; the count of digit d+1 in unit u
        # lives at Places[u * n + d]
        self.offsets = tuple(tuple(u * n for u in units) for units in units_of)
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
        values = [self.full] * len(givens)
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

    def no_place(self, k: int) -> Contradiction:
        """The Contradiction of place count k fallen to zero: it happened in k's unit."""
        return Contradiction(self.units[k // self.n])

    def lose_place(self, places: Places, offsets: tuple[int, ...], d: int,
                   hidden: list[int]) -> None:
        """Digit d+1 loses a place in the units at `offsets`: the one way a count goes down.

        A count left at one is a hidden single (it joins `hidden`); at zero, the digit has no
        place in that unit: Contradiction.
        """
        for k in offsets:
            k += d
            left = places[k] - 1
            places[k] = left
            if left < 2:
                if not left:
                    raise self.no_place(k)  # the digit has no place left in this unit
                hidden.append(k)

    def assign(self, values: Values, places: Places, cell: int, bit: int,
               hidden: list[int]) -> None:
        """Put a digit in a cell: each other candidate loses this place in the cell's units."""
        offsets = self.offsets[cell]
        others = values[cell] & ~bit
        values[cell] = bit
        while others:
            other = others & -others
            others ^= other
            self.lose_place(places, offsets, other.bit_length() - 1, hidden)

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
        peers, apart, offsets = self.peers, self.apart, self.offsets
        placed = PLACED
        eliminations = 0
        try:
            while solved:
                cell = solved.pop()
                bit = values[cell]
                d = bit.bit_length() - 1
                for k in offsets[cell]:
                    places[k + d] = placed  # the digit has its place in these units
                peer_units = apart[cell]
                for peer in peers[cell]:
                    if values[peer] & bit:
                        candidates = values[peer] ^ bit
                        if not candidates:
                            raise Contradiction((peer,))  # the peer lost its last candidate
                        values[peer] = candidates
                        eliminations += 1
                        if not candidates & (candidates - 1):
                            solved.append(peer)  # a naked single: its turn comes
                        # lose_place(places, peer_units[peer], d, hidden), written out:
                        # the backend's hottest loop, once per elimination, where a call
                        # would cost more than the loop itself
                        for k in peer_units[peer]:
                            k += d
                            left = places[k] - 1
                            places[k] = left
                            if left < 2:
                                if not left:
                                    raise self.no_place(k)  # no place left in a unit
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
                    raise self.no_place(k)  # no place at all (only the givens do this)
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


def parity_mask(n: int, even: bool) -> int:
    """The candidates of a cell that must hold an even (or an odd) digit."""
    return sum(1 << (d - 1) for d in range(2 if even else 1, n + 1, 2))


class RuleBoard(Board):
    """A Board for the rules that need propagation of their own: parity, non-consecutive, cages.

    The two classic rules run to their fixpoint, then each rule filter runs once; while a
    filter removes anything, the classic rules (and the filters) go round again.
    """

    # Non-consecutive, stronger form: a cell with just the candidates d-1 and d+1 also takes
    # d from its neighbours. Counting the 72 Miracle grids it saves a few nodes and a
    # little time (bench/bench_variants.py counts them: results/variants.md).
    consecutive_pairs = True

    def __init__(self, geo: Geometry) -> None:
        super().__init__(geo)
        n = self.n
        rules = geo.rules
        # parity: the candidates each parity cell keeps (what all its parity rules allow)
        self.parity: dict[int, int] = {}
        for rule in rules:
            if isinstance(rule, R.Parity):
                for row, col in rule.cells:
                    cell = geo.cell(row, col)
                    self.parity[cell] = self.parity.get(cell, self.full) & \
                        parity_mask(n, rule.even)
        # non-consecutive: each cell with its orthogonal neighbours
        self.adjacent: tuple[tuple[int, tuple[int, ...]], ...] = ()
        if geo.pairs(R.NonConsecutive):
            neighbours: list[list[int]] = [[] for _ in geo.cells]
            for a, b in geo.pairs(R.NonConsecutive):
                neighbours[a].append(b)
                neighbours[b].append(a)
            self.adjacent = tuple((cell, tuple(near)) for cell, near in enumerate(neighbours))
        # bans[candidates]: what a cell's neighbours lose, for the candidate sets that ban any
        self.bans: dict[int, int] = {}
        for d in range(n if self.adjacent else 0):
            bit = 1 << d
            self.bans[bit] = (bit >> 1 | bit << 1) & self.full  # holds d: d-1, d+1 go
            if self.consecutive_pairs and d + 2 < n:
                self.bans[bit | bit << 2] = bit << 1  # d or d+2: d+1 goes
        # cages, drawn and implied (the rule of 45): each cage's cells with the digit
        # sets that fill it
        self.cages = tuple((tuple(geo.indices(cage.cells)),
                            tuple(sum(1 << (d - 1) for d in digits)  # as bitmasks
                                  for digits in digit_sets(len(cage.cells), cage.total, n)))
                           for cage in all_cages(geo))
        # pair relations (thermometers, dots, whispers, ...): per relation, the digits a
        # partner may hold for each digit of the cell, as masks, both ways
        tables: dict[tuple, int] = {}
        self.supports: list[tuple[int, ...]] = []
        self.relations: list[tuple[int, int, int, int]] = []
        for rel in geo.digit_relations:
            ways = []
            for forward in (True, False):
                key = (rel.kind, rel.param, forward)
                if key not in tables:
                    tables[key] = len(self.supports)
                    self.supports.append(tuple(
                        sum(1 << (y - 1) for y in range(1, n + 1)
                            if (related(rel.kind, rel.param, x, y) if forward
                                else related(rel.kind, rel.param, y, x)))
                        for x in range(1, n + 1)))
                ways.append(tables[key])
            self.relations.append((rel.a, rel.b, ways[0], ways[1]))
        self.unions: dict[int, int] = {}  # (table, candidates) -> what a partner may hold
        # sums (arrows, little killers): cells, the circle cell (-1: none), the total
        self.sums = tuple((s.cells, s.circle, s.total) for s in geo.sums)
        self.sandwiches = geo.sandwiches
        self.filters = [rule_filter for rule_filter, wanted in
                        ((self.separate_consecutive, self.adjacent),
                         (self.add_up_cages, self.cages),
                         (self.relate_pairs, self.relations),
                         (self.add_up_sums, self.sums),
                         (self.fill_sandwiches, self.sandwiches)) if wanted]

    def remove(self, values: Values, places: Places, cell: int, bits: int,
               solved: list[int], hidden: list[int]) -> int:
        """Take candidates out of a cell, lowering their place counts; how many went.

        The one way a rule eliminates: a cell left with one candidate joins `solved`, a
        count that falls to one joins `hidden`, and a cell or unit left with nothing is a
        Contradiction, exactly as in `eliminate`.
        """
        bits &= values[cell]
        if not bits:
            return 0
        candidates = values[cell] ^ bits
        if not candidates:
            raise Contradiction((cell,))  # the rule took the cell's last candidate
        values[cell] = candidates
        if not candidates & (candidates - 1):
            solved.append(cell)
        removed = 0
        offsets = self.offsets[cell]
        while bits:
            bit = bits & -bits
            bits ^= bit
            removed += 1
            self.lose_place(places, offsets, bit.bit_length() - 1, hidden)
        return removed

    def start(self, puzzle: Puzzle) -> tuple[Values, Places, list[int], list[int]]:
        """The classic start, then parity: each parity cell keeps only even (or odd) digits."""
        values, places, given, hidden = super().start(puzzle)
        for cell, mask in self.parity.items():
            self.remove(values, places, cell, ~mask & self.full, given, hidden)
        return values, places, given, hidden

    def propagate(self, values: Values, places: Places, solved: list[int],
                  hidden: list[int], tally: list[int]) -> None:
        """The classic rules and the rule filters, in turn, until none changes anything."""
        while True:
            super().propagate(values, places, solved, hidden, tally)
            removed = 0
            for rule_filter in self.filters:
                removed += rule_filter(values, places, solved, hidden)
            tally[1] += removed
            if not removed:
                return

    def separate_consecutive(self, values: Values, places: Places, solved: list[int],
                             hidden: list[int]) -> int:
        """Non-consecutive: a cell holding d takes d-1 and d+1 from its orthogonal neighbours.

        A neighbour's digit x must differ by more than one from some candidate of the cell,
        so x goes only when all the cell's candidates are among x-1 and x+1: the cell holds
        d (x = d-1 or d+1), or, in the stronger form, it has just the two candidates d-1
        and d+1 (x = d).
        """
        bans, remove = self.bans, self.remove
        removed = 0
        for cell, near in self.adjacent:
            banned = bans.get(values[cell])
            if banned:
                for neighbour in near:
                    if values[neighbour] & banned:
                        removed += remove(values, places, neighbour, banned, solved, hidden)
        return removed

    def add_up_cages(self, values: Values, places: Places, solved: list[int],
                     hidden: list[int]) -> int:
        """Cage: a digit stays in a cage only as part of a digit set that can still fill it.

        A set of the cage's size and total fits when it meets every cell's candidates and
        the cells' candidates within it cover it; the cells keep the digits of the fitting
        sets. The filter is sound: the digits of a real solution form a fitting set.
        """
        full, remove = self.full, self.remove
        removed = 0
        for cells, sets in self.cages:
            fitting = 0
            for digits in sets:
                covered = 0
                for cell in cells:
                    meet = values[cell] & digits
                    if not meet:
                        break
                    covered |= meet
                else:
                    if covered == digits:
                        fitting |= digits
            if not fitting:
                raise Contradiction(cells)  # no digit set can fill the cage any more
            unfit = ~fitting & full
            for cell in cells:
                if values[cell] & unfit:
                    removed += remove(values, places, cell, unfit, solved, hidden)
        return removed


    def relate_pairs(self, values: Values, places: Places, solved: list[int],
                     hidden: list[int]) -> int:
        """Pair relations: a digit stays in a cell only if its partner has a candidate that
        the relation allows with it (arc consistency, both ways)."""
        supports, unions, remove, full = self.supports, self.unions, self.remove, self.full
        removed = 0
        for a, b, forward, backward in self.relations:
            for x, y, table in ((a, b, forward), (b, a, backward)):
                key = table << 32 | values[x]
                allowed = unions.get(key)
                if allowed is None:
                    allowed = 0
                    for d, mask in enumerate(supports[table]):
                        if values[x] >> d & 1:
                            allowed |= mask
                    unions[key] = allowed
                if values[y] & ~allowed:
                    if not values[y] & allowed:
                        raise Contradiction((x, y))  # the pair cannot be related: both weigh
                    removed += remove(values, places, y, ~allowed & full, solved, hidden)
        return removed

    def add_up_sums(self, values: Values, places: Places, solved: list[int],
                    hidden: list[int]) -> int:
        """Sums: a sum's circle and cells keep what `sum_keeps` allows them."""
        n, full, remove = self.n, self.full, self.remove
        removed = 0
        for cells, circle, total in self.sums:
            circled = values[circle] if circle >= 0 else 0
            circle_keep, keeps = sum_keeps(tuple(values[cell] for cell in cells), circled,
                                           total, n)
            if not all(keeps) or (circle >= 0 and not circled & circle_keep):
                raise Contradiction(cells)  # the sum cannot be made: its cells weigh more
            if circled & ~circle_keep:
                removed += remove(values, places, circle, ~circle_keep & full, solved, hidden)
            for cell, keep in zip(cells, keeps):
                if values[cell] & ~keep:
                    removed += remove(values, places, cell, ~keep & full, solved, hidden)
        return removed

    def fill_sandwiches(self, values: Values, places: Places, solved: list[int],
                        hidden: list[int]) -> int:
        """Sandwich: each line's cells keep what `sandwich_keeps` allows them."""
        n, full, remove = self.n, self.full, self.remove
        removed = 0
        for line, total in self.sandwiches:
            keeps = sandwich_keeps(tuple(values[cell] for cell in line), total, n)
            if not all(keeps):
                raise Contradiction(line)  # no place for the 1 and the N fits the total
            for cell, keep in zip(line, keeps):
                if values[cell] & ~keep:
                    removed += remove(values, places, cell, ~keep & full, solved, hidden)
        return removed


# As sandwich lines, sums meet the same candidates again and again: the answers are kept.
@lru_cache(maxsize=1 << 16)
def sum_keeps(line: tuple[int, ...], circled: int, total: int,
              n: int) -> tuple[int, tuple[int, ...]]:
    """The candidates a circle (`circled`, 0 without one: then the total is `total`) and
    each cell of a sum keep: a digit stays if the other cells' candidates can complete a
    total the circle allows. Totals reachable are sets of bits."""
    before = [1]  # the totals the cells before each cell can reach
    for candidates in line:
        before.append(add_digits(before[-1], candidates))
    after = [1]
    for candidates in reversed(line):
        after.append(add_digits(after[-1], candidates))
    after.reverse()
    circle_keep = (before[-1] >> 1) & ((1 << n) - 1)  # circle digit d: bit d of the totals
    targets = circled << 1 if circled else 1 << total
    keeps = []
    for k, candidates in enumerate(line):
        others = add_totals(before[k], after[k + 1])
        keep, rest = 0, candidates
        while rest:  # each candidate d: does some total of the others plus d hit a target?
            bit = rest & -rest
            rest ^= bit
            if (others << bit.bit_length()) & targets:
                keep |= bit
        keeps.append(keep)
    return circle_keep, tuple(keeps)


# The search meets the same line again and again (each propagation ends with a round
# that changes nothing, and backtracking restores lines), so the answers are kept.
@lru_cache(maxsize=1 << 16)
def sandwich_keeps(line: tuple[int, ...], total: int, n: int) -> tuple[int, ...]:
    """For each place of the 1 and the N the candidates allow, whether the cells between
    can add up to the total; per cell, the candidates some such place keeps."""
    low, high = 1, 1 << (n - 1)
    middle = ((1 << n) - 1) & ~low & ~high
    keep = [0] * n
    for a in range(n):
        for b in range(a + 1, n):
            if b - a - 1 not in sandwich_lengths(total, n):
                continue
            ends = [(x, y) for x, y in ((low, high), (high, low)) if line[a] & x and line[b] & y]
            if not ends:
                continue
            # the cells between are a sum of the total: some digit of each fits, or none
            _, inner = sum_keeps(tuple(c & middle for c in line[a + 1:b]), 0, total, n)
            if not all(inner):
                continue  # the cells between cannot add up to the total
            for x, y in ends:
                keep[a] |= x
                keep[b] |= y
            for k, fits in enumerate(inner, a + 1):
                keep[k] |= fits
            for k in list(range(a)) + list(range(b + 1, n)):
                keep[k] |= line[k] & middle
    return tuple(keep)


@cache
def sandwich_lengths(total: int, n: int) -> frozenset[int]:
    """How many cells can lie between the 1 and the N: distinct digits from 2 to N-1,
    that many of them, must be able to add up to the total."""
    middle = range(2, n)
    return frozenset(length for length in range(n - 1)
                     if sum(middle[:length]) <= total <= sum(middle[len(middle) - length:]))


def add_digits(totals: int, candidates: int) -> int:
    """The totals reachable by adding one of the candidates to one of `totals` (bit sets)."""
    reach = 0
    d = 1
    while candidates:
        if candidates & 1:
            reach |= totals << d
        candidates >>= 1
        d += 1
    return reach


def add_totals(a: int, b: int) -> int:
    """Every total of one from `a` plus one from `b` (bit sets)."""
    reach = 0
    while a:
        low = a & -a
        reach |= b << (low.bit_length() - 1)
        a ^= low
    return reach


NEEDS_RULE_BOARD = (R.NonConsecutive, R.Cage, R.Parity, R.Thermometer, R.Arrow, R.Kropki,
                    R.XV, R.Renban, R.Whispers, R.Palindrome, R.LittleKiller,
                    R.ConsecutiveMarks, R.Sandwich)


@lru_cache(maxsize=32)
def board(geo: Geometry) -> Board:
    """The Board of a geometry, built once: a RuleBoard only if a rule needs propagation."""
    if any(isinstance(rule, NEEDS_RULE_BOARD) for rule in geo.rules):
        return RuleBoard(geo)
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


def most_conflicts(values: Values, weight: list[int]) -> int:
    """The unsolved cell with the fewest candidates per conflict weight, or -1 when solved.

    A cell's weight is 1 plus the dead ends met in it, its units, cages, sums and pairs so far
    (dom/wdeg in the constraint programming literature); with no dead end yet it is
    `fewest_candidates`.
    """
    best, best_count, best_weight = -1, 99, 1
    for cell, candidates in enumerate(values):
        if candidates & (candidates - 1):
            count = candidates.bit_count()
            if count * best_weight < best_count * weight[cell]:
                best, best_count, best_weight = cell, count, weight[cell]
    return best


def why_cell(values: Values, weight: list[int], cell: int, backtracks: int, name) -> str:
    """Why the search guesses in this cell (the trace's words)."""
    digits = ", ".join(str(d + 1) for d in range(values[cell].bit_length())
                       if values[cell] >> d & 1)
    count = values[cell].bit_count()
    if not backtracks:
        return f"fewest candidates: {name(cell)} has {count} ({digits})"
    return (f"fewest candidates per conflict weight: {name(cell)} has {count} ({digits}), "
            f"weight {weight[cell]}")


def trace_dead_end(trace, before: Values, values: Values, cells: Sequence[int]) -> None:
    """A propagation that met a contradiction: what it removed, then where it stopped."""
    trace.wave(before, values)
    if len(cells) == 1:
        why = f"{trace.name(cells[0])} has no candidate left"
    else:
        why = ("no place left for a digit among " + ",".join(map(trace.name, cells)))
    trace.dead_end(cells, why)


def digits_of(values: Values) -> tuple[int, ...]:
    """The grid of a fully solved candidates list."""
    return tuple(v.bit_length() for v in values)


class NorvigBackend(Backend):
    """Hand-written propagation (naked and hidden singles) and depth-first search."""

    name = "norvig"
    paradigm = "propagation and search (Python)"
    supported_rules = R.RULE_TYPES
    multi_grid = True  # a samurai's grids are only more units and peers
    option_table = {
        "variant": Choice(("fast", "classic"), help="fast: bitmasks and place counts; "
                          "classic (`norvig:classic`): the essay's dict of strings, "
                          "sudokulab/backends/essay.py"),
    }
    trace = None  # a sudokulab.backends.trace.Recorder to watch the search (`solve --trace`)
    records_trace = True

    def __init__(self, variant: str = "fast") -> None:
        super().__init__()
        self.variant = variant
        if variant == "classic":  # the essay knows units and peers, nothing else
            self.supported_rules = UNITS_AND_PEERS

    @classmethod
    def available(cls) -> Availability:
        """Always available: it is plain Python."""
        return plain_python()

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Propagate the givens, then search depth-first for up to `limit` solutions."""
        if self.variant == "classic":
            return self._solve_classic(puzzle, limit, deadline)
        started = time.perf_counter()
        geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
        b = board(geo)
        stats = {"assignments": 0, "eliminations": 0, "nodes": 0, "guesses": 0,
                 "backtracks": 0}
        solutions = self.new_found()
        try:
            values, places, given, hidden = b.start(puzzle)
        except Contradiction:  # a rule forbids a given (an odd digit in an even cell)
            built = time.perf_counter()
            stats["backtracks"] = 1
            return verdict(solutions, limit, complete=True, stats=stats,
                           build_time=built - started, solve_time=0.0)
        stats["assignments"] = len(given)
        if self.trace is not None:
            self.trace.name = geo.name
            self.trace.start(values, geo.n)
        built = time.perf_counter()
        try:
            complete = self.search(b, values, places, given, hidden, solutions, limit,
                                   deadline, stats, self.trace)
        except KeyboardInterrupt:  # Ctrl-C: keep the solutions found so far
            raise interrupted(solutions, limit, stats=stats, build_time=built - started,
                              solve_time=time.perf_counter() - built) from None
        return verdict(solutions, limit, complete=complete, stats=stats,
                       build_time=built - started, solve_time=time.perf_counter() - built)

    def _solve_classic(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """The essay's parse_grid and search (sudokulab/backends/essay.py), to `limit`."""
        from sudokulab.backends.essay import Essay, OutOfTime, deep_recursion

        started = time.perf_counter()
        geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
        essay = Essay(geo)
        essay.at, essay.trace = deadline.at, self.trace
        built = time.perf_counter()
        solutions = self.new_found()
        complete = True
        try:
            with deep_recursion(10 * len(geo.cells) + 1000):
                marks = [1 << (d - 1) if d else (1 << geo.n) - 1 for d in puzzle.givens]
                if self.trace is not None:
                    self.trace.name = geo.name
                    self.trace.start(marks, geo.n)
                values = essay.parse_grid(list(puzzle.givens))
                essay.propagated(marks, values)
                if values is False:
                    essay.counts["backtracks"] += 1
                for solved in essay.solutions(values):
                    solutions.append(essay.grid(solved))
                    if self.trace is not None:
                        self.trace.solution(solutions[-1])
                        if self.trace.full:
                            essay.trace = None  # past the cap: solutions only
                    if limit is not None and len(solutions) >= limit:
                        break
        except OutOfTime:
            complete = False
        except KeyboardInterrupt:  # Ctrl-C: keep the solutions found so far
            raise interrupted(solutions, limit, stats=essay.counts,
                              build_time=built - started,
                              solve_time=time.perf_counter() - built) from None
        return verdict(solutions, limit, complete=complete, stats=essay.counts,
                       build_time=built - started, solve_time=time.perf_counter() - built)

    def search(self, b: Board, values: Values, places: Places, solved: list[int],
               hidden: list[int], solutions: Found, limit: int | None, deadline: Deadline,
               stats: dict, trace=None) -> bool:
        """Depth-first search; False when the deadline cut it short.

        The stack holds the cells being guessed: (candidates and place counts before the
        guess, cell, its digits not tried yet). Each try but the last works on copies; the
        last takes the lists as they are, since nothing needs them after it. `trace` (a
        sudokulab.backends.trace.Recorder) hears of each wave, guess, dead end and backtrack.
        """
        tally = [0, 0]  # assignments, eliminations: counted by propagate
        nodes = guesses = backtracks = 0
        weight = [1] * len(values)  # 1 + the dead ends met in each cell and its constraints
        stack: list[tuple[Values, Places, int, int]] = []
        at = deadline.at
        clock = time.perf_counter
        complete = True
        cell = bit = -1  # the root: propagate the givens
        recorder = trace  # kept past the cap, for the solutions
        before = values[:] if trace is not None else None
        try:
            while True:
                try:
                    if cell >= 0:
                        b.assign(values, places, cell, bit, hidden)
                    b.propagate(values, places, solved, hidden, tally)
                except Contradiction as dead_end:
                    backtracks += 1
                    for dead in dead_end.cells:
                        weight[dead] += 1
                    if trace is not None and before is not None:  # before: set when tracing
                        trace_dead_end(trace, before, values, dead_end.cells)
                else:
                    nodes += 1
                    choice = (most_conflicts(values, weight) if backtracks
                              else fewest_candidates(values))
                    if trace is not None:
                        trace.wave(before, values)
                    if choice >= 0:
                        stack.append((values, places, choice, values[choice]))
                        if trace is not None:
                            trace.chose(len(stack) - 1, why_cell(values, weight, choice,
                                                                  backtracks, trace.name))
                    else:
                        solutions.append(digits_of(values))
                        if recorder is not None:
                            recorder.solution(solutions[-1])
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
                if trace is not None:
                    trace.guess(len(stack) - 1, cell, bit.bit_length())
                    before = values[:]
                    trace = None if trace.full else trace  # past the cap: solutions only
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
        """What each rule became: extra units, extra peers, or propagation of its own."""
        geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
        b = board(geo)
        degrees = sorted({len(p) for p in geo.peers})
        lines = [f"norvig: {len(geo.units)} units of {geo.n} cells, "
                 f"peers per cell: {', '.join(map(str, degrees))}"]
        if geo.layout is not None:
            layout = geo.layout
            lines.append(f"  {layout.name}: {len(layout.grids)} grids of {geo.n}x{geo.n} on one "
                         f"board, {layout.cell_count} cells; each grid's rows, columns and boxes "
                         "are units, a box two grids share is one unit, so a cell there has the "
                         "peers of both grids")
        extra = [unit.name for unit in geo.units if unit.rule is not None]
        if extra:
            lines.append(f"  extra units: {', '.join(extra)}")
        if geo.moves:
            lines.append(f"  extra peers from chess moves: {len(geo.moves)} pairs")
        for rule, cells in geo.groups:
            lines.append(f"  {rule}: {','.join(geo.name(c) for c in cells)} differ "
                         "(extra peers)")
        if isinstance(b, RuleBoard):
            lines += self.describe_rules(geo, b)
        lines.append("  search: depth first, guessing in the cell with the fewest candidates; "
                     "after the first dead end, the fewest candidates per conflict weight "
                     "(1 + the dead ends met so far in the cell, its units, cages, sums, "
                     "sandwiches and related pairs), so "
                     "the search returns to where it keeps failing instead of re-proving "
                     "one contradiction under every guess elsewhere")
        return "\n".join(lines)

    @staticmethod
    def describe_rules(geo: Geometry, b: RuleBoard) -> list[str]:
        """The lines for the rules with propagation of their own."""
        lines = []
        if b.cages:
            in_units = {(a, c) for unit in geo.units for a in unit for c in unit if a < c}
            cage_pairs = {(a, c) for cells, _ in b.cages for a in cells for c in cells
                          if a < c} - in_units - set(geo.moves)
            lines.append(f"  extra peers from cages (cells differ): {len(cage_pairs)} pairs "
                         "not already in a unit")
        if b.adjacent:
            pairs = len(geo.pairs(R.NonConsecutive))
            also = "; a cell with just d-1 and d+1 takes d" if b.consecutive_pairs else ""
            lines.append(f"  non-consecutive: adjacency propagation over {pairs} orthogonal "
                         "pairs, after each fixpoint: a cell holding d takes d-1 and d+1 "
                         f"from its neighbours{also}")
        if b.cages:
            lines.append(f"  cages: sum filter after each fixpoint, {len(b.cages)} "
                         f"cage{'s' if len(b.cages) != 1 else ''}; a digit stays only in a "
                         "digit set of the cage's size and total that meets every cell and "
                         "is covered by their candidates:")
            implied = set(implied_cages(geo))
            for (cells, sets), cage in zip(b.cages, all_cages(geo)):
                names = ",".join(geo.name(cell) for cell in cells)
                how = " (implied: the rule of 45)" if cage in implied else ""
                lines.append(f"    {names}={cage.total}{how}: {len(cells)} cells, "
                             f"{len(sets)} digit set{'s' if len(sets) != 1 else ''}")
        kinds: dict[tuple[str, str, str], int] = {}
        for rel in geo.digit_relations:
            key = (rel.rule, rel.kind, relation_text(rel))
            kinds[key] = kinds.get(key, 0) + 1
        for (rule, kind, text), count in kinds.items():
            lines.append(f"  {rule}: {count} pair{'s' if count != 1 else ''} '{kind}' "
                         f"({text}), arc consistency after each fixpoint")
        for line, clue in geo.sandwiches:
            lines.append(f"  sandwich: {geo.name(line[0])}..{geo.name(line[-1])} = {clue}: "
                         "each place of the 1 and the N is tried; the cells between keep the "
                         "digits that can reach the total")
        for total in geo.sums:
            target = geo.name(total.circle) if total.circle >= 0 else str(total.total)
            lines.append(f"  {total.rule}: {'+'.join(geo.name(c) for c in total.cells)} = "
                         f"{target}: a digit stays if the totals the other cells' candidates "
                         "reach (bit sets) can still meet it")
        if b.parity:
            for even in (True, False):
                masked = [cell for cell, mask in b.parity.items()
                          if mask == parity_mask(geo.n, even)]
                if masked:
                    digits = ",".join(str(d) for d in range(2 if even else 1, geo.n + 1, 2))
                    lines.append(f"  parity: {len(masked)} {'even' if even else 'odd'} "
                                 f"cell{'s' if len(masked) != 1 else ''} masked to "
                                 f"{{{digits}}} at the start: "
                                 f"{', '.join(geo.name(cell) for cell in masked)}")
            clash = [geo.name(cell) for cell, mask in b.parity.items() if not mask]
            if clash:
                lines.append(f"  parity: even and odd at once (no solution): "
                             f"{', '.join(clash)}")
        return lines


def root_marks(puzzle: Puzzle) -> tuple[int, ...] | None:
    """Each cell's candidates (bit d-1 for digit d) where the two rules stop on the givens,
    before the first guess (the inference ladder's level); None at a contradiction."""
    b = board(geometry(puzzle.box, puzzle.rules, puzzle.layout))
    try:
        values, places, given, hidden = b.start(puzzle)
        b.propagate(values, places, given, hidden, [0, 0])
    except Contradiction:
        return None
    return tuple(values)
