"""Exact cover: Knuth's Algorithm X over a 0/1 matrix, the teaching companion of `norvig`.

Sudoku as exact cover. Each *row* of the matrix is a candidate: a digit d in a cell
(N * N * N rows). Each *primary column* is a constraint that exactly one chosen row must
cover:
- cell: the cell holds one digit;
- (unit, digit): the unit holds the digit once, for every unit of the geometry: rows,
  columns, boxes (or jigsaw regions), diagonals, windoku windows. Every unit has N cells,
  so each of these is an exact "once", like the classic ones.
A row covers its cell's column and one (unit, digit) column per unit of its cell: 4 on a
classic grid. A solution is a set of rows that covers every primary column exactly once.

Algorithm X: pick the open column with the fewest rows left (Knuth's heuristic); for each
of its rows, choose it, *cover* (remove every row that shares a column with it: they can
no longer be chosen), recurse, and undo. A column left with no row is a dead end; one left
with a single row forces it.

Conflict weights (dom/wdeg, as in norvig's search). Each column has a weight, 1 to start
with; each dead end adds one to the column that ran out of rows (or, when a sum rule
cannot add up, to the cell columns of its cells). The branch column is the one with the
fewest rows per weight: before the first dead end exactly Knuth's choice; after it, the
search goes back to the columns where it keeps failing and settles them first, instead of
proving the same small contradiction again under every guess elsewhere.

Extra regions of N cells, single diagonals and disjoint groups are more units, so more
primary columns. Rules that are not "exactly once":
- any rule between two cells is a set of forbidden pairs of rows: cell a holds x together
  with cell b holding y. One *secondary column* (covered at most once) per forbidden pair,
  covered by the two rows (a, x) and (b, y), says exactly that: choosing one removes the
  other. So: anti-knight, anti-king, the cells of a cage, a cage without a sum, a small
  extra region or a renban line ("differ": x = y forbidden, for the pairs of cells that
  share no unit); non-consecutive and consecutive marks (|x - y| = 1 forbidden, or every
  other difference on a marked pair); Kropki dots and XV marks, with their negative
  constraint on the unmarked neighbours; whispers (|x - y| below half of N); palindromes
  (mirrored cells: x != y forbidden); renban (|x - y| beyond the line's length minus one:
  for digits that differ, exactly "a run of consecutive digits"); thermometers (for any
  two cells k apart along the line, y < x + k forbidden: stronger than "each cell below
  the next", and implied by it, so still exact);
- parity: the rows of the wrong digits in the parity cells are removed before search;
  so is a row that conflicts with every row of a cell it is related to (a thermometer's
  bulb cannot hold N): choosing it would leave that cell empty;
- support: that last test runs again after the forced rows of each node, since a
  secondary column acts only once one of its rows is chosen: a row of a cell goes when
  every row left of a related cell conflicts with it (a consecutive mark's neighbour of a
  cell left with 1 or 9 keeps only 2 and 8). Arc consistency, as norvig's pair rules;
- sums are no exact cover: they prune. After the forced rows of a node, each cage keeps
  only the digits of digit sets of its size and total that meet every cell's candidates
  and are covered by them; arrows and little killers keep the digits that the bounds of
  the other cells (lowest and highest candidates) let reach the total (or a digit of the
  arrow's circle); a sandwich tries each place of its 1 and its N and keeps the digits
  that can reach the total between them. A rule with nothing left is a dead end. On a
  full grid each is exactly its rule, so no grid breaks one.

How the matrix is stored. Rows are numbered r = cell * N + (d - 1), and every set of rows
is a Python int used as a bitset: `alive` (the rows not removed) and `chosen` (the rows
in the solution so far). Covering a row is one `&` with a precomputed mask (every row
that shares a primary or secondary column with it, itself included, cleared), so a search
state is two ints: nothing to undo (the dancing links' job) since a branch keeps its own.
A column's rows left are `column_rows[c] & alive`, counted with `int.bit_count()`. The
givens are chosen once, before search. In each node a scan of the open columns chooses
each forced row (a column with a single row) the moment it meets it, so the rest of the
scan already sees it; scans repeat until one forces nothing, and only then is the
fewest-rows column branched on. (Knuth's Algorithm X would branch on each forced column
with one branch: the same choices, with one scan per forced row.)

What makes it fast in Python is that all the work on big sets is done by C: an `&` on
729-bit ints instead of a loop over rows, and no undo at all.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from itertools import combinations

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
from sudokulab.geometry import Geometry, forbidden_pairs, geometry, relation_text
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Found, Result, verdict

CHECK_EVERY = 32  # guesses between two looks at the clock
UNIONS_KEPT = 1 << 16  # the supports of candidate sets kept per matrix (see keep_supported)


@dataclass(frozen=True)
class Matrix:
    """The exact cover matrix of a geometry, as bitsets over rows r = cell * N + d - 1."""

    n: int
    column_rows: tuple[int, ...]      # primary column -> its rows
    column_names: tuple[str, ...]     # primary column -> "cell r1c1", "row 1 digit 5", ...
    keep: tuple[int, ...]             # row -> every row but those sharing a column with it
    secondary: dict[str, int]         # kind of secondary column -> how many
    parity: int                       # rows removed before search (wrong parity)
    hopeless: int                     # rows removed before search (they empty a cell)
    related: tuple[tuple[int, int, int], ...]  # (cell, other cell, its table in `supports`)
    supports: tuple[tuple[int, ...], ...]  # table: digit of the cell -> the other's digits
    cages: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (cells, digit sets)
    sums: tuple[tuple[tuple[int, ...], int, int], ...]  # (cells, circle or -1, total)
    sandwiches: tuple[tuple[tuple[int, ...], int], ...]  # (line, total)
    everything: int                   # every row
    unions: dict[int, int] = field(default_factory=dict, compare=False)  # see keep_supported

    @property
    def rows(self) -> int:
        """How many rows (candidates) the matrix has: one mask to keep per row."""
        return len(self.keep)

    @property
    def prunes(self) -> bool:
        """Whether some pair or sum rule prunes at each node (beyond exact cover)."""
        return bool(self.related or self.cages or self.sums or self.sandwiches)

    def columns_of(self, row: int) -> list[int]:
        """The primary columns a row covers (for the teaching view and the tests)."""
        bit = 1 << row
        return [c for c, rows in enumerate(self.column_rows) if rows & bit]


@lru_cache(maxsize=8)  # a 25x25 matrix holds some 30 MB of masks
def matrix(geo: Geometry) -> Matrix:
    """Build the matrix of a geometry once: columns, the cover masks, parity, sums."""
    n, cells = geo.n, len(geo.cells)  # N * N, or a samurai board's 369
    everything = (1 << cells * n) - 1
    full = (1 << n) - 1
    column_rows = [full << (cell * n) for cell in geo.cells]
    names = [f"cell {geo.name(cell)}" for cell in geo.cells]
    for unit in geo.units:
        for d in range(n):
            column_rows.append(sum(1 << (cell * n + d) for cell in unit))
            names.append(f"{unit.name} digit {d + 1}")
    # A row's conflicts: every row of every primary column it covers (itself included).
    conflicts = [column_rows[cell] for cell in geo.cells for _ in range(n)]
    for rows in column_rows[cells:]:
        row_set = rows
        while rows:
            low = rows & -rows
            rows ^= low
            conflicts[low.bit_length() - 1] |= row_set
    secondary = {}
    # Cells whose rows a secondary column relates more than once: a row of one may lose
    # every row of the other (a difference rule alone takes one digit, never all).
    related: dict[tuple[int, int, int], int] = {}
    for kind, pairs in secondary_pairs(geo).items():
        for a, da, b, db in pairs:
            conflicts[a * n + da] |= 1 << (b * n + db)
            conflicts[b * n + db] |= 1 << (a * n + da)
            related[a, da, b] = related.get((a, da, b), 0) + 1
            related[b, db, a] = related.get((b, db, a), 0) + 1
        secondary[kind] = len(pairs)
    keep = tuple(everything ^ rows for rows in conflicts)
    parity = parity_rows(geo)
    twice = {(min(a, b), max(a, b)) for (a, _, b), count in related.items() if count > 1}
    tables: dict[tuple[int, ...], int] = {}  # a support table -> its number
    supported = []
    for a, b in sorted(twice):
        for cell, other in ((a, b), (b, a)):
            table = tuple(keep[cell * n + d] >> (other * n) & full for d in range(n))
            supported.append((cell, other, tables.setdefault(table, len(tables))))
    m = Matrix(n=n, column_rows=tuple(column_rows), column_names=tuple(names), keep=keep,
               secondary=secondary, parity=parity, hopeless=0,
               related=tuple(supported), supports=tuple(tables),
               cages=tuple((tuple(geo.indices(cage.cells)),
                            tuple(sum(1 << (d - 1) for d in digits)  # as bitmasks
                                  for digits in digit_sets(len(cage.cells), cage.total, n)))
                           for cage in all_cages(geo)),
               sums=tuple((s.cells, s.circle, s.total) for s in geo.sums),
               sandwiches=geo.sandwiches, everything=everything)
    start = everything & ~parity
    return replace(m, hopeless=start & ~all_supported(m, start))


Row = tuple[int, int, int, int]  # a secondary column: the rows (a, da) and (b, db) covering it


def secondary_pairs(geo: Geometry) -> dict[str, list[Row]]:
    """The secondary columns by kind, each as the two rows (a, da), (b, db) that cover it.

    A pair of rows already kept apart (by a unit, or by a kind listed before) gets no
    second column.
    """
    n = geo.n
    kinds: dict[str, list[Row]] = {}
    seen: set[Row] = set()

    def add(kind: str, a: int, b: int, digit_pairs) -> None:
        """Secondary columns for the digit pairs (x, y), 1..N, that cells a and b may not hold."""
        if a > b:
            a, b = b, a
            digit_pairs = [(y, x) for x, y in digit_pairs]
        same_unit = geo.share_unit(a, b)
        for x, y in digit_pairs:
            row = (a, x - 1, b, y - 1)
            if (x == y and same_unit) or row in seen:
                continue  # a (unit, digit) column or an earlier column sees to it
            seen.add(row)
            kinds.setdefault(kind, []).append(row)

    differ = [(d, d) for d in range(1, n + 1)]
    for a, b in sorted(set(geo.moves)):
        add("chess move (cells differ)", a, b, differ)
    for cage in geo.cages:
        for a, b in combinations(geo.indices(cage.cells), 2):
            add("cage (cells differ)", a, b, differ)
    for group, members in geo.groups:
        for a, b in combinations(members, 2):
            add(f"{group} (cells differ)", a, b, differ)
    for a, b in geo.pairs(R.NonConsecutive):
        add("non-consecutive", a, b, forbidden_pairs("apart", 0, n))
    for rule in geo.rules:
        if isinstance(rule, R.Thermometer):
            cells = geo.indices(rule.cells)
            for i, j in combinations(range(len(cells)), 2):
                add(THERMOMETER, cells[i], cells[j],
                    [(x, y) for x in range(1, n + 1) for y in range(1, n + 1) if y < x + j - i])
    for rel in geo.digit_relations:
        if rel.rule != R.Thermometer.name:  # the thermometers, along the whole line, above
            add(f"{rel.rule}, the pairs that break {relation_text(rel)}", rel.a, rel.b,
                forbidden_pairs(rel.kind, rel.param, n))
    return kinds


THERMOMETER = ("thermometer, the pairs that break a + k <= b "
               "(cells a, b k apart along the line from the bulb)")


def parity_rows(geo: Geometry) -> int:
    """The rows of the parity cells that hold a digit of the wrong parity."""
    n, rows = geo.n, 0
    for rule in geo.rules:
        if isinstance(rule, R.Parity):
            for cell in geo.indices(rule.cells):
                for d in range(1 if rule.even else 2, n + 1, 2):  # the digits it may not hold
                    rows |= 1 << (cell * n + d - 1)
    return rows


class Dead(Exception):
    """A primary column lost its last row, or a sum rule its last way to add up.

    `columns` are where it happened (the empty column, or the cell columns of the rule's
    cells): the search weighs them.
    """

    def __init__(self, columns=()) -> None:
        super().__init__()
        self.columns = columns


def add_up_cages(m: Matrix, alive: int, chosen: int) -> int:
    """Cage sums: the rows left once each cage keeps only the digits of sets that fit.

    A set fits when every cell of the cage has a candidate in it and the cells'
    candidates cover it; the digits of a real solution form such a set, so this is sound.
    """
    n, full = m.n, (1 << m.n) - 1
    rows = alive | chosen
    for cells, sets in m.cages:
        candidates = [rows >> (cell * n) & full for cell in cells]
        fitting = 0
        for digits in sets:
            covered = 0
            for mask in candidates:
                meet = mask & digits
                if not meet:
                    break
                covered |= meet
            else:
                if covered == digits:
                    fitting |= digits
        if not fitting:
            raise Dead(cells)
        unfit = full & ~fitting
        for cell, mask in zip(cells, candidates):
            if mask & unfit:
                alive &= ~((mask & unfit) << (cell * n))
    return alive


def digits_between(low: int, high: int) -> int:
    """The digits low..high as a bitmask (none when low > high)."""
    low = max(low, 1)
    return ((1 << max(high, 0)) - 1) & ~((1 << (low - 1)) - 1) if low <= high else 0


def add_up_sums(m: Matrix, alive: int, chosen: int) -> int:
    """Arrows and little killers: the rows left once each cell keeps the digits that can
    still reach the target, given the lowest and highest candidates of the other cells.

    The target is the total, or a digit of the arrow's circle (which keeps only the digits
    the shaft can reach). Sound, since the digits of a solution reach it; on a full grid
    it is exactly "the cells add up to the target".
    """
    n, full = m.n, (1 << m.n) - 1
    rows = alive | chosen
    for cells, circle, total in m.sums:
        masks = [rows >> (cell * n) & full for cell in cells]
        if not all(masks):
            raise Dead(cells)
        lows = [(mask & -mask).bit_length() for mask in masks]
        highs = [mask.bit_length() for mask in masks]
        low, high = sum(lows), sum(highs)
        if circle >= 0:
            mask = rows >> (circle * n) & full
            fits = mask & digits_between(low, high)
            if not fits:
                raise Dead((*cells, circle))
            if fits != mask:
                alive &= ~((mask ^ fits) << (circle * n))
            least, most = (fits & -fits).bit_length(), fits.bit_length()
        elif low <= total <= high:
            least = most = total
        else:
            raise Dead(cells)
        for cell, mask, lo, hi in zip(cells, masks, lows, highs):
            fits = mask & digits_between(least - (high - hi), most - (low - lo))
            if not fits:
                raise Dead(cells if circle < 0 else (*cells, circle))
            if fits != mask:
                alive &= ~((mask ^ fits) << (cell * n))
    return alive


def fill_sandwiches(m: Matrix, alive: int, chosen: int) -> int:
    """Sandwiches: the rows left once each cell of the line keeps the digits of some place
    of the 1 and the N where the cells between can still add up to the total.

    Between them a cell holds neither 1 nor N, and keeps the digits that, with one
    candidate of each other cell between, make the total; elsewhere it keeps any digit but
    1 and N. Sound, and on a full grid exactly the rule (one place is left, one digit each).
    """
    n, full = m.n, (1 << m.n) - 1
    rows = alive | chosen
    ends = 1 | 1 << (n - 1)
    for line, total in m.sandwiches:
        masks = [rows >> (cell * n) & full for cell in line]
        inner = [mask & ~ends for mask in masks]
        kept = [0] * n
        for one in (k for k in range(n) if masks[k] & 1):
            for top in (k for k in range(n) if masks[k] >> (n - 1) & 1 and k != one):
                first, last = min(one, top), max(one, top)
                if total not in between_totals(last - first - 1, n):
                    continue
                if not all(inner[k] for k in range(n) if k not in (one, top)):
                    continue
                fits = digits_to_total(inner[first + 1:last], total)
                if fits is None:
                    continue
                kept[one] |= 1
                kept[top] |= 1 << (n - 1)
                kept[first + 1:last] = [k | f for k, f in zip(kept[first + 1:last], fits)]
                for k in (*range(first), *range(last + 1, n)):
                    kept[k] |= inner[k]
        for cell, mask, left in zip(line, masks, kept):
            if not left:
                raise Dead(line)
            if left != mask:
                alive &= ~((mask ^ left) << (cell * n))
    return alive


def digits_to_total(masks: list[int], total: int) -> list[int] | None:
    """Per cell, the candidates that some choice of one candidate in each other cell
    completes to the total; None when no choice makes it. Totals are sets of bits."""
    prefix = [1]  # the totals the cells before each cell can make
    for mask in masks:
        prefix.append(sums_with(prefix[-1], mask))
    if not prefix[-1] >> total & 1:
        return None
    suffix = [1]  # the totals the cells after each cell can make
    for mask in reversed(masks):
        suffix.append(sums_with(suffix[-1], mask))
    suffix.reverse()
    fits = []
    for k, mask in enumerate(masks):
        others = 0
        after = suffix[k + 1]
        while after:  # every total of the cells before plus one of the cells after
            low = after & -after
            others |= prefix[k] << (low.bit_length() - 1)
            after ^= low
        fits.append(sum(1 << (d - 1) for d in range(1, mask.bit_length() + 1)
                        if mask >> (d - 1) & 1 and d <= total and others >> (total - d) & 1))
    return fits


def sums_with(totals: int, mask: int) -> int:
    """The totals made by adding one candidate of the mask to one of `totals`."""
    out = 0
    for d in range(1, mask.bit_length() + 1):
        if mask >> (d - 1) & 1:
            out |= totals << d
    return out


@cache
def between_totals(count: int, n: int) -> range:
    """The totals that `count` different digits from 2 to N-1 can make: those between
    the count smallest and the count largest (every total in that range is reachable)."""
    middle = range(2, n)
    return range(sum(middle[:count]), sum(middle[len(middle) - count:]) + 1)


def keep_supported(m: Matrix, alive: int, chosen: int) -> int:
    """Pair rules: the rows left once each row of a cell has a partner in every related cell.

    A secondary column takes a row's partners only once the row is chosen. Here a row of
    cell b goes as soon as every row left of a related cell a conflicts with it (arc
    consistency, as norvig's `relate_pairs`): choosing it would leave a empty. A pair's
    table gives, per digit of a, the digits of b that no column forbids with it; the union
    over a's rows left is kept in `m.unions`, since the search meets the same candidates
    again and again.
    """
    n, full, supports, unions = m.n, (1 << m.n) - 1, m.supports, m.unions
    rows = alive | chosen
    for a, b, table in m.related:
        mask = rows >> (a * n) & full
        key = table << 32 | mask
        allowed = unions.get(key)
        if allowed is None:
            if len(unions) >= UNIONS_KEPT:
                unions.clear()  # a 25x25 grid has 2**25 candidate sets per cell: keep a few
            allowed = 0
            for d, partners in enumerate(supports[table]):
                if mask >> d & 1:
                    allowed |= partners
            unions[key] = allowed
        lost = alive >> (b * n) & full & ~allowed
        if lost:
            alive &= ~(lost << (b * n))
            rows = alive | chosen
    return alive


def all_supported(m: Matrix, alive: int) -> int:
    """The rows left once `keep_supported` removes nothing more, before any row is chosen:
    a row that conflicts with every row left of a cell it is related to goes (a
    thermometer's bulb cannot hold N), and so do the rows that lose their support then."""
    while True:
        pruned = keep_supported(m, alive, 0)
        if pruned == alive:
            return alive
        alive = pruned


def prune(m: Matrix, alive: int, chosen: int) -> int:
    """The rows left once every pair and sum rule has pruned (Dead if a sum cannot add up).

    A cell that a pair rule leaves with no row is a dead end at the next scan (its column).
    """
    if m.related:
        alive = keep_supported(m, alive, chosen)
    if m.cages:
        alive = add_up_cages(m, alive, chosen)
    if m.sums:
        alive = add_up_sums(m, alive, chosen)
    if m.sandwiches:
        alive = fill_sandwiches(m, alive, chosen)
    return alive


class DlxBackend(Backend):
    """Knuth's Algorithm X over the exact cover matrix, with bitsets for the rows."""

    name = "dlx"
    paradigm = "exact cover, Algorithm X (Python)"
    supported_rules = R.RULE_TYPES  # pairs as secondary columns, sums by pruning
    multi_grid = True  # a samurai's grids: more cells and units, more columns
    # Conflict weights on the branch choice (dom/wdeg); False is Knuth's fewest rows alone,
    # for the tests to compare the two.
    weigh_conflicts = True
    option_table = {
        "variant": Choice(("bitsets", "links"), help="bitsets: Algorithm X on bitsets; links "
                          "(`dlx:links`): Knuth's dancing links, sudokulab/backends/links.py"),
    }
    trace = None  # a sudokulab.backends.trace.Recorder to watch the search (`solve --trace`)
    records_trace = True

    def __init__(self, variant: str = "bitsets") -> None:
        super().__init__()
        self.variant = variant
        if variant == "links":  # columns for units and peers; no sums, no pairs of digits
            self.supported_rules = UNITS_AND_PEERS

    @classmethod
    def available(cls) -> Availability:
        """Always available: it is plain Python."""
        return plain_python()

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Choose the givens' rows, then search for up to `limit` exact covers."""
        if self.variant == "links":
            return self._solve_links(puzzle, limit, deadline)
        started = time.perf_counter()
        geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
        m = matrix(geo)
        stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "columns": len(m.column_rows),
                 "secondary_columns": sum(m.secondary.values()), "rows": m.rows}
        solutions = self.new_found()
        start = self.start(m, puzzle)
        built = time.perf_counter()
        if start is None:  # two givens (or a given and a rule) clash: no cover at all
            stats["backtracks"] = 1
            return verdict(solutions, limit, complete=True, stats=stats,
                           build_time=built - started)
        if self.trace is not None:
            self.trace.name = geo.name
            self.trace.start(marks_of(m, start[0] | start[1]), m.n)
        try:
            complete = self.search(m, *start, solutions, limit, deadline, stats,
                                   weigh=self.weigh_conflicts, trace=self.trace)
        except KeyboardInterrupt:  # Ctrl-C: keep the solutions found so far
            raise interrupted(solutions, limit, stats=stats, build_time=built - started,
                              solve_time=time.perf_counter() - built) from None
        return verdict(solutions, limit, complete=complete, stats=stats,
                       build_time=built - started, solve_time=time.perf_counter() - built)

    def _solve_links(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Knuth's dancing links (sudokulab/backends/links.py): the givens, then search(0)."""
        from sudokulab.backends.essay import OutOfTime, deep_recursion
        from sudokulab.backends.links import Links

        started = time.perf_counter()
        geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
        links = Links(geo)
        links.at = deadline.at
        givens = links.choose_givens(list(puzzle.givens))
        built = time.perf_counter()
        solutions = self.new_found()
        stats = links.counts
        complete = True
        if givens is None:  # a given's row was gone: it clashes with another given
            stats["backtracks"] = 1
        else:
            if self.trace is not None:
                self.trace.name = geo.name
                self.trace.start(links.marks(givens), geo.n)
                links.trace = self.trace
            try:
                with deep_recursion(4 * len(geo.cells) + 1000):
                    for rows in links.search(0, []):
                        solutions.append(links.grid(rows, givens))
                        if self.trace is not None:
                            self.trace.solution(solutions[-1])
                            if self.trace.full:
                                links.trace = None  # past the cap: solutions only
                        if limit is not None and len(solutions) >= limit:
                            break
            except OutOfTime:
                complete = False
            except KeyboardInterrupt:  # Ctrl-C: keep the solutions found so far
                raise interrupted(solutions, limit, stats=stats, build_time=built - started,
                                  solve_time=time.perf_counter() - built) from None
        stats["updates"] = links.updates
        return verdict(solutions, limit, complete=complete, stats=stats,
                       build_time=built - started, solve_time=time.perf_counter() - built)

    @staticmethod
    def start(m: Matrix, puzzle: Puzzle) -> tuple[int, int] | None:
        """The rows alive and chosen once parity and the givens are applied (None: a clash)."""
        n, keep = m.n, m.keep
        alive, chosen = m.everything & ~m.parity & ~m.hopeless, 0
        for cell, digit in enumerate(puzzle.givens):
            if digit:
                row = cell * n + digit - 1
                if not alive >> row & 1:
                    return None
                alive &= keep[row]
                chosen |= 1 << row
        return alive, chosen

    @staticmethod
    def search(m: Matrix, alive: int, chosen: int, solutions: Found,
               limit: int | None, deadline: Deadline, stats: dict, weigh: bool = True,
               trace=None) -> bool:
        """Algorithm X, depth-first with a stack; False when the deadline cut it short.

        Each node scans its open columns: a column with no row left is a dead end, unless
        a chosen row covers it (then it leaves the open list); a column with a single row
        forces it, chosen on the spot, so the rest of the scan already sees it. A scan that
        forced rows runs again; one that forced none prunes by the sums, then branches on
        the column with the fewest rows per conflict weight (with `weigh`, each dead end
        adds one to the weight of its columns). The stack holds (alive, chosen, open columns, rows
        of the branch column not tried yet): restoring a state is reading it back. `trace`
        (a sudokulab.backends.trace.Recorder) hears of each wave, guess, dead end and backtrack.
        """
        keep, prunes, column_rows = m.keep, m.prunes, m.column_rows
        at, clock = deadline.at, time.perf_counter
        nodes = guesses = backtracks = 0
        check = CHECK_EVERY
        stack: list[list] = []
        columns = list(range(len(column_rows)))  # the open ones, by number
        weight = [1] * len(column_rows)  # 1 + the dead ends met in each column
        complete = True
        recorder = trace  # kept past the cap, for the solutions
        before = marks_of(m, alive | chosen) if trace is not None else None
        try:
            while True:
                # Propagate: choose forced rows until none is left, then prune by the sums.
                try:
                    while True:
                        open_columns: list[int] = []
                        keep_open = open_columns.append
                        branch, fewest, heaviest, forced = 0, 1 << 30, 1, 0
                        for c in columns:
                            rows = column_rows[c] & alive
                            if not rows:
                                if column_rows[c] & chosen:
                                    continue  # covered
                                raise Dead((c,))
                            if not rows & (rows - 1):  # one row left: choose it now
                                alive &= keep[rows.bit_length() - 1]
                                chosen |= rows
                                forced += 1
                                continue
                            keep_open(c)
                            if not forced:
                                # fewest rows per weight: count / weight[c] < fewest / heaviest
                                count = rows.bit_count()
                                if count * heaviest < fewest * weight[c]:
                                    branch, fewest, heaviest = rows, count, weight[c]
                        columns = open_columns
                        if forced:
                            nodes += forced
                            continue
                        if prunes:
                            pruned = prune(m, alive, chosen)
                            if pruned != alive:
                                alive = pruned
                                continue
                        break
                except Dead as dead_end:
                    backtracks += 1
                    if weigh:
                        for c in dead_end.columns:
                            weight[c] += 1
                    if trace is not None and before is not None:  # before: set when tracing
                        trace_dead_end(trace, m, before, alive | chosen, dead_end.columns)
                else:
                    if trace is not None:
                        trace.wave(before, marks_of(m, alive | chosen))
                    if not columns:
                        solutions.append(grid_of(m.n, chosen))
                        if recorder is not None:
                            recorder.solution(solutions[-1])
                        if limit is not None and len(solutions) >= limit:
                            break
                    else:
                        stack.append([alive, chosen, columns, branch])
                        if trace is not None:
                            trace.chose(len(stack) - 1,
                                        why_column(m, alive, columns, branch, weight))
                if not stack:
                    break
                check -= 1
                if not check:
                    check = CHECK_EVERY
                    if at is not None and clock() >= at:
                        complete = False
                        break
                node = stack[-1]
                alive, chosen, columns, untried = node
                bit = untried & -untried
                untried ^= bit
                if trace is not None:
                    row = bit.bit_length() - 1
                    trace.guess(len(stack) - 1, row // m.n, row % m.n + 1)
                    before = marks_of(m, alive | chosen)
                    trace = None if trace.full else trace  # past the cap: solutions only
                if untried:
                    node[3] = untried
                else:
                    stack.pop()
                alive &= keep[bit.bit_length() - 1]
                chosen |= bit
                nodes += 1
                guesses += 1
        finally:
            stats["nodes"] += nodes
            stats["guesses"] += guesses
            stats["backtracks"] += backtracks
        return complete

    def describe(self, puzzle: Puzzle) -> str:
        """The matrix: its columns by kind, its rows, the givens, the rules beyond exact cover."""
        geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
        m = matrix(geo)
        n = geo.n
        kinds: dict[str, int] = {"cell": len(geo.cells)}
        for unit in geo.units:
            kind = f"{unit.kind}-digit"
            kinds[kind] = kinds.get(kind, 0) + n
        per_row = {len(geo.units_of[cell]) + 1 for cell in geo.cells}
        lines = [f"dlx: exact cover, {m.rows} rows (cell, digit) x "
                 f"{len(m.column_rows)} primary columns (each covered exactly once)",
                 "  primary columns: " + ", ".join(f"{count} {kind}"
                                                   for kind, count in kinds.items()),
                 f"  each row covers {words(sorted(per_row))} primary columns: "
                 "its cell and (unit, digit) for each unit of its cell"]
        if m.secondary:
            lines.append("  secondary columns (covered at most once), each covered by the two "
                         "rows that may not both be chosen:")
        for kind, count in m.secondary.items():
            lines.append(f"    {kind}: {count}")
        if m.parity:
            lines.append(f"  parity: {m.parity.bit_count()} rows of wrong-parity digits "
                         "removed before search")
        if m.hopeless:
            lines.append(f"  {m.hopeless.bit_count()} rows removed before search: each "
                         "conflicts with every row of a cell it is related to")
        if m.related:
            lines.append(f"  support: after the forced rows of each node, {len(m.related)} "
                         "ordered pairs of related cells (a, b): a row of b goes when every "
                         "row left of a conflicts with it")
        if m.cages:
            lines.append(f"  cage sums: pruning after the forced rows of each node, "
                         f"{len(m.cages)} cage{'s' if len(m.cages) != 1 else ''}; a digit "
                         "stays only in a digit set of the cage's size and total that meets "
                         "every cell and is covered by their candidates:")
            implied = set(implied_cages(geo))
            for (cells, sets), cage in zip(m.cages, all_cages(geo)):
                how = " (implied: the rule of 45)" if cage in implied else ""
                lines.append(f"    {','.join(geo.name(cell) for cell in cells)}={cage.total}"
                             f"{how}: {len(sets)} digit set{'s' if len(sets) != 1 else ''}")
        if m.sums:
            lines.append("  arrows and little killers: no columns, pruning after the forced rows "
                         "of each node: a digit stays if the other cells' lowest and highest "
                         "candidates let it reach the target (an arrow's circle keeps the "
                         "sums its shaft reaches):")
            for cells, circle, total in m.sums:
                rule = R.Arrow.name if circle >= 0 else R.LittleKiller.name
                target = geo.name(circle) if circle >= 0 else str(total)
                lines.append(f"    {rule} {'+'.join(geo.name(c) for c in cells)} = {target}")
        if m.sandwiches:
            lines.append("  sandwiches: no columns, pruning after the forced rows of each "
                         "node: each place of the 1 and the N is tried; the cells between "
                         "keep the digits the others' bounds let reach the total:")
            for line, total in m.sandwiches:
                lines.append(f"    sandwich {geo.name(line[0])}..{geo.name(line[-1])} = "
                             f"{total}")
        givens = sum(1 for d in puzzle.givens if d)
        lines.append(f"  givens: {givens} rows chosen once before search (their columns "
                     "covered, every row sharing a column removed)")
        lines.append("  search: Algorithm X, branching on the open column with the fewest "
                     "rows; forced rows (a column with one row) chosen at once; rows as "
                     "bitsets, so covering a row is one AND and undoing is free")
        lines.append("  search, after the first dead end: the fewest rows per conflict weight "
                     "(1 + the dead ends met so far in the column, or in the cells of a sum "
                     "that could not add up), so the search settles first where it keeps "
                     "failing")
        return "\n".join(lines)


def words(numbers: list[int]) -> str:
    """'4', '4 or 5', '4, 5 or 6'."""
    text = ", ".join(map(str, numbers[:-1]))
    return f"{text} or {numbers[-1]}" if text else str(numbers[-1])


def marks_of(m: Matrix, rows: int) -> tuple[int, ...]:
    """Each cell's candidates (bit d-1 for digit d) among a set of rows."""
    n, full = m.n, (1 << m.n) - 1
    return tuple(rows >> (cell * n) & full for cell in range(m.rows // n))


def why_column(m: Matrix, alive: int, columns: list[int], branch: int,
               weight: list[int]) -> str:
    """Why the search branches on this column (the trace's words)."""
    c = next(c for c in columns if m.column_rows[c] & alive == branch)
    count = branch.bit_count()
    if weight[c] == 1:
        return f"the column with the fewest rows: {m.column_names[c]} has {count}"
    return (f"the column with the fewest rows per conflict weight: {m.column_names[c]} has "
            f"{count}, weight {weight[c]}")


def trace_dead_end(trace, m: Matrix, before: tuple[int, ...], rows: int,
                   columns: Sequence[int]) -> None:
    """A propagation that met a dead end: what it removed, then the column left empty."""
    trace.wave(before, marks_of(m, rows))
    names = ", ".join(m.column_names[c] for c in columns)
    cells = [c for c in columns if c < m.rows // m.n]  # the cell columns come first
    trace.dead_end(cells, f"no row left in column {names}" if names else "a sum cannot add up")


def grid_of(n: int, chosen: int) -> Grid:
    """The grid of a full cover: each cell's chosen row gives its digit (a full cover has
    one row per cell, so its rows in order are the cells in order, however many)."""
    grid = []
    while chosen:
        low = chosen & -chosen
        chosen ^= low
        grid.append((low.bit_length() - 1) % n + 1)
    return tuple(grid)


def forced_marks(puzzle: Puzzle) -> tuple[int, ...] | None:
    """Each cell's candidates (bit d-1 for digit d) once every forced row is chosen (a column
    left with one row), before the first branch: the inference ladder's level. Sums and
    pairs prune as the search's root does. None when a column runs dry (no cover)."""
    m = matrix(geometry(puzzle.box, puzzle.rules, puzzle.layout))
    start = DlxBackend.start(m, puzzle)
    if start is None:
        return None
    alive, chosen = start
    keep, column_rows = m.keep, m.column_rows
    columns = range(len(column_rows))
    while True:
        forced = False
        for c in columns:
            rows = column_rows[c] & alive
            if not rows:
                if column_rows[c] & chosen:
                    continue
                return None
            if not rows & (rows - 1):
                alive &= keep[rows.bit_length() - 1]
                chosen |= rows
                forced = True
        if not forced and m.prunes:
            try:
                pruned = prune(m, alive, chosen)
            except Dead:
                return None
            forced, alive = pruned != alive, pruned
        if not forced:
            break
    rows, n, full = alive | chosen, m.n, (1 << m.n) - 1
    return tuple(rows >> (cell * n) & full for cell in range(m.rows // n))
