"""CNF encodings of a puzzle, after Lynce & Ouaknine (2006) and Kwon & Jain (2006).

Variables: x(r, c, d) is true when the cell in row r, column c (both from 0) holds
digit d (from 1 to N). It is numbered

    var = r*N*N + c*N + d        (equivalently cell*N + d with cell = r*N + c)

so the cell variables are exactly 1..N^3. Auxiliary variables (of at-most-one
encodings such as the sequential counter, and the selectors of cages) come from one
IDPool starting at N^3 + 1, so they never collide with cell variables. A multi-grid
board (a samurai, `sudokulab.layout`) numbers its cells row by row over the board, so
var = cell*N + d still holds and the cell variables are 1..cells*N (369*9 for a samurai);
its units are every row, column and box of each grid.

Encodings, each a superset of the one before (Lynce & Ouaknine, "Sudoku as a SAT
problem", 2006):
- minimal:   every cell holds at least one digit; every unit holds each digit at most once;
- efficient: + every cell holds at most one digit;
- extended:  + every unit holds each digit at least once.
- augmented (tdoku's fourth MiniSat encoding, `other/other_minisat.cc`): cells exactly-one
  as in efficient, but rows, columns and boxes through triads. A triad is the three (box
  width or height) cells a row or a column shares with a box; t(triad, d) is true exactly
  when one of them holds d (exactly one of x1, x2, x3, not-t), and each row, column and
  box holds d in exactly one of its triads (a box: once over its row triads, once over its
  column triads). Unit propagation on it does what singles plus locked candidates do.
  Other units (diagonals, windows) are as in extended; jigsaw regions and multi-grid
  boards have no triads, and this encoding refuses them.
- optimized (Kwon & Jain, "Optimized CNF encoding for Sudoku puzzles", 2006): the
  extended encoding with every variable the givens decide left out, and every clause
  they satisfy dropped. It depends on the givens, so a solver cannot reuse it.
Lynce & Ouaknine's efficient encoding is tdoku's "natural" one, extended its "complete".

A unit is any group of N cells holding each digit once: rows, columns, boxes, and
the diagonals, windows or jigsaw regions a rule adds. Chess-move rules (anti-knight,
anti-king) add "not both d" for each pair of cells a move apart; non-consecutive adds
"not d and d+1" for orthogonal neighbours; parity rules out the digits of the wrong
parity. At-most-one constraints go through `pysat.card` or stay native cardinality
constraints (CNFPlus atmost) for solvers that take them (MiniCard, GlueCard, ...).

Killer cages (part "cage"), by digit sets. A cage of k cells with total T can only be
filled by a set S of k distinct digits adding up to T (a 3-cell cage of 15 over 1..9:
{1,5,9}, {1,6,8}, {2,4,9}, {2,5,8}, {2,6,7}, {3,4,8}, {3,5,7}, {4,5,6}). The sets are
enumerated once; if there is none, the formula gets the empty clause. Each set S gets a
selector variable s(S) from the same IDPool as the auxiliaries (above N^3), and
- exactly one selector is true: one at-least-one clause, and at-most-one in the chosen
  at-most-one encoding;
- s(S) -> every cage cell holds a digit of S: (-s(S) | -x(cell, d)) for each d not in S;
- s(S) -> each digit of S is somewhere in the cage: (-s(S) | x(c1, d) | ... | x(ck, d));
- the cells differ: at most one cage cell holds d, for each digit d; left out when
  every pair of the cage's cells already shares a unit (a cage inside a row, column or
  box), whose at-most-one clauses say it already.
Any two of "cells in S", "each digit of S present", "cells differ" imply the third (k
cells, k digits), and together they say the cage holds exactly the digits of S, whose
sum is T. The redundant third is there for propagation. Selectors are auxiliary: a
solution is read, and blocked when counting, on the cell variables only.

This module builds formulas only: it never imports a solver, so a CNF can be
exported and inspected without solving it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, compress
from operator import add

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, CNFPlus, IDPool

from sudokulab import rules as R
from sudokulab.cages import digit_sets
from sudokulab.errors import UnsupportedRule, unknown
from sudokulab.geometry import Geometry, Sum, forbidden_pairs, geometry, rule_geometry
from sudokulab.layout import Layout
from sudokulab.puzzle import Puzzle

ENCODINGS = ("minimal", "efficient", "extended", "augmented", "optimized")
AMO_ENCODINGS = ("pairwise", "seqcounter", "ladder", "bitwise", "totalizer", "mtotalizer",
                 "kmtotalizer", "sortnetwrk", "cardnetwrk", "native")
REUSABLE = ("minimal", "efficient", "extended", "augmented")  # independent of the givens
RULES = R.RULE_TYPES  # what these encodings compile: every rule there is, cages by digit sets



def var(n: int, cell: int, digit: int) -> int:
    """The variable of 'the cell holds digit' (cell = row * N + col from 0, digit from 1).

    The one mapping of this module; `Formula.decode` and `givens_literals` are its
    inverse and its bulk form.
    """
    return cell * n + digit


@dataclass
class Formula:
    """A CNF of a puzzle, its clauses counted by the part of the rules they come from.

    `cnf` is a CNFPlus when at-most-one constraints are native (its `atmosts`), else a
    plain CNF. `candidates` is None when every cell variable is in play; the optimized
    encoding lists the ones it kept and fixes the given cells in `fixed`.
    """

    n: int
    encoding: str
    amo: str
    cnf: CNF
    parts: dict[str, int] = field(default_factory=dict)
    candidates: frozenset[int] | None = None
    fixed: tuple[int, ...] = ()
    selectors: int = 0  # cage digit sets, one auxiliary variable each
    cells: int = 0  # how many cells: N * N, or a multi-grid board's count (Builder sets it)

    @property
    def top(self) -> int:
        """The last cell variable (N^3 for one grid); auxiliaries come after it."""
        return self.cells * self.n

    @property
    def variables(self) -> int:
        """How many variables the formula uses: cell variables in play plus auxiliaries."""
        cells = self.top if self.candidates is None else len(self.candidates)
        return cells + max(0, self.cnf.nv - self.top)

    @property
    def size(self) -> int:
        """The number of constraints: clauses plus native at-most-one constraints."""
        return sum(self.parts.values())

    def decode(self, model: Iterable[int]) -> tuple[int, ...]:
        """The grid a model describes, read from its true cell variables."""
        n, top = self.n, self.top
        grid = list(self.fixed) or [0] * (top // n)
        keep = self.candidates
        for lit in model:
            if 0 < lit <= top and (keep is None or lit in keep):
                grid[(lit - 1) // n] = (lit - 1) % n + 1
        return tuple(grid)


class Builder:
    """Collects the clauses of one formula, counting them per part."""

    def __init__(self, n: int, encoding: str, amo: str, cells: int) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(unknown("encoding", encoding, ENCODINGS))
        if amo not in AMO_ENCODINGS:
            raise ValueError(unknown("at-most-one encoding", amo, AMO_ENCODINGS))
        self.n = n
        self.cnf = CNFPlus() if amo == "native" else CNF()
        self.formula = Formula(n, encoding, amo, self.cnf, cells=cells)
        self.cnf.nv = self.formula.top
        self.pool = IDPool(start_from=self.cnf.nv + 1)
        self.amo_type = None if amo in ("pairwise", "native") else getattr(EncType, amo)

    def add(self, part: str, clauses: Iterable[list[int]]) -> None:
        """Add clauses under a part name."""
        before = len(self.cnf.clauses)
        self.cnf.clauses.extend(clauses)  # nv is kept by hand: faster than CNF.append
        self._count(part, len(self.cnf.clauses) - before)

    def at_most_one(self, part: str, lits: Sequence[int]) -> None:
        """Add 'at most one of lits' in the chosen at-most-one encoding."""
        if len(lits) < 2:
            return
        amo = self.formula.amo
        if amo == "native":
            self.cnf.atmosts.append([list(lits), 1])
            self._count(part, 1)
        elif amo == "pairwise":
            self.add(part, ([-a, -b] for a, b in combinations(lits, 2)))
        else:
            encoded = CardEnc.atmost(list(lits), bound=1, vpool=self.pool,
                                     encoding=self.amo_type)
            self.add(part, encoded.clauses)
            self.cnf.nv = max(self.cnf.nv, self.pool.top)

    def _count(self, part: str, k: int) -> None:
        """Count k more constraints in a part."""
        if k:
            self.formula.parts[part] = self.formula.parts.get(part, 0) + k


def check_rules(rules: Iterable[R.Rule]) -> None:
    """UnsupportedRule naming every rule these encodings cannot express."""
    missing = sorted({rule.name for rule in rules if not isinstance(rule, RULES)})
    if missing:
        raise UnsupportedRule(f"the CNF encodings do not compile rule(s): {', '.join(missing)}")


# --- the encodings that do not depend on the givens --------------------------------------

def base(box: tuple[int, int], rules: tuple[R.Rule, ...] = (), encoding: str = "extended",
         amo: str = "pairwise", layout: Layout | None = None) -> Formula:
    """The formula of a box shape and rule set (or a multi-grid layout), without givens
    (solvers reuse it)."""
    if encoding not in REUSABLE:
        raise ValueError(f"encoding {encoding!r} depends on the givens; "
                         f"use one of {', '.join(REUSABLE)}")
    check_rules(rules)
    geo = geometry(box, rules, layout)
    n = geo.n
    build = Builder(n, encoding, amo, len(geo.cells))
    digits = range(1, n + 1)
    for cell in geo.cells:
        lits = [var(n, cell, d) for d in digits]
        build.add("cell", [lits])
        if encoding != "minimal":
            build.at_most_one("cell", lits)
    triads = encoding == "augmented"
    if triads:
        _triad_clauses(build, geo, box, layout)
    units = [unit for unit in geo.units if not (triads and unit.kind in TRIAD_UNITS)]
    _units_and_rules(build, geo, units, n, encoding)
    return build.formula


TRIAD_UNITS = ("row", "column", "box")  # the units the augmented encoding states by triads


def _triad_clauses(build: Builder, geo: Geometry, box: tuple[int, int],
                   layout: Layout | None) -> None:
    """The augmented encoding's rows, columns and boxes: triads (see the module docstring),
    with tdoku's exactly-one (pairwise) in each of them."""
    if layout is not None or any(unit.kind == "region" for unit in geo.units):
        raise UnsupportedRule("the augmented encoding needs the classic boxes (no jigsaw "
                              "regions, one grid)")
    n, (rows, cols) = geo.n, box

    def exactly_one(part: str, lits: list[int]) -> None:
        _exactly_one(build, part, lits)

    for d in range(1, n + 1):
        across = {}  # (row, box column) -> the row triad's variable
        down = {}  # (box row, column) -> the column triad's variable
        for r in range(n):
            for b in range(n // cols):
                t = across[r, b] = build.pool.id(("row triad", r, b, d))
                exactly_one("row", [var(n, r * n + c, d) for c in range(b * cols, b * cols + cols)]
                            + [-t])
        for c in range(n):
            for b in range(n // rows):
                t = down[b, c] = build.pool.id(("column triad", b, c, d))
                exactly_one("column", [var(n, r * n + c, d)
                                       for r in range(b * rows, b * rows + rows)] + [-t])
        build.cnf.nv = max(build.cnf.nv, build.pool.top)
        for r in range(n):
            exactly_one("row", [across[r, b] for b in range(n // cols)])
        for c in range(n):
            exactly_one("column", [down[b, c] for b in range(n // rows)])
        for band in range(n // rows):
            for stack in range(n // cols):
                exactly_one("box", [across[r, stack] for r in range(band * rows,
                                                                    band * rows + rows)])
                exactly_one("box", [down[band, c] for c in range(stack * cols,
                                                                 stack * cols + cols)])


def _exactly_one(build: Builder, part: str, lits: list[int]) -> None:
    """At least one of lits, and at most one in the chosen at-most-one encoding."""
    build.add(part, [lits])
    build.at_most_one(part, lits)


def _units_and_rules(build: Builder, geo: Geometry, units, n: int, encoding: str) -> None:
    """Each digit at most once in each unit (and at least once in the extended and
    augmented encodings), then the clauses of the rules, cages and lines."""
    for unit in units:
        for d in range(1, n + 1):
            lits = [var(n, cell, d) for cell in unit]
            if encoding in ("extended", "augmented"):
                build.add(unit.part, [lits])
            build.at_most_one(unit.part, lits)
    _rule_clauses(build, geo, lambda lit: True)
    _cage_clauses(build, geo, lambda lit: True)
    _line_clauses(build, geo, lambda lit: True)


def _rule_clauses(build: Builder, geo: Geometry, kept) -> None:
    """Pairwise and parity clauses over the variables `kept` accepts."""
    n = geo.n
    for relation in geo.relations:
        if relation.differ:  # not both d
            build.add(relation.rule.name, ([-x, -y] for a, b in relation.pairs
                                           for d in range(1, n + 1)
                                           for x, y in ((var(n, a, d), var(n, b, d)),)
                                           if kept(x) and kept(y)))
        else:  # not d and d + 1, either way round
            build.add(relation.rule.name, ([-x, -y] for a, b in relation.pairs
                                           for d in range(1, n)
                                           for x, y in ((var(n, a, d), var(n, b, d + 1)),
                                                        (var(n, a, d + 1), var(n, b, d)))
                                           if kept(x) and kept(y)))
    for rule in geo.rules:
        if isinstance(rule, R.Parity):
            build.add(rule.name, ([-var(n, cell, d)] for cell in geo.indices(rule.cells)
                                  for d in _wrong_parity(rule, n) if kept(var(n, cell, d))))


def _cage_clauses(build: Builder, geo: Geometry, kept,
                  givens: Sequence[int] | None = None) -> None:
    """The digit-set encoding of every cage (see the module docstring), over the cell
    variables `kept` accepts; given cells are decided, so only sets holding their digits
    stay and their clauses are left out."""
    n = geo.n
    digits = range(1, n + 1)
    for index, cage in enumerate(geo.cages):
        cells = geo.indices(cage.cells)
        placed = {givens[c] for c in cells if givens[c]} if givens else set()
        blanks = [c for c in cells if not (givens and givens[c])]
        sets = [s for s in digit_sets(len(cells), cage.total, n) if placed.issubset(s)]
        if not sets:
            build.add("cage", [[]])  # no digits fill the cage: the empty clause says so
            continue
        selectors = [build.pool.id(("cage", index, s)) for s in sets]
        build.formula.selectors += len(selectors)
        build.cnf.nv = max(build.cnf.nv, build.pool.top)
        build.add("cage", [selectors])
        build.at_most_one("cage", selectors)
        for s, selector in zip(sets, selectors):
            build.add("cage", ([-selector, -var(n, c, d)] for c in blanks for d in digits
                               if d not in s and kept(var(n, c, d))))
            build.add("cage", ([-selector] + [var(n, c, d) for c in blanks if kept(var(n, c, d))]
                               for d in s if d not in placed))
        if not all(geo.share_unit(a, b) for a, b in combinations(cells, 2)):
            for d in digits:
                if d not in placed:
                    build.at_most_one("cage", [var(n, c, d) for c in blanks
                                               if kept(var(n, c, d))])


def _line_clauses(build: Builder, geo: Geometry, kept,
                  givens: Sequence[int] | None = None) -> None:
    """Pair relations, groups that differ and sums (the line and dot rules), over the cell
    variables `kept` accepts; given cells count as decided."""
    n = geo.n
    for rel in geo.digit_relations:
        build.add(rel.rule, ([-(rel.a * n + x), -(rel.b * n + y)]
                             for x, y in forbidden_pairs(rel.kind, rel.param, n)
                             if kept(rel.a * n + x) and kept(rel.b * n + y)))
    for rule, cells in geo.groups:
        if not all(geo.share_unit(a, b) for a, b in combinations(cells, 2)):
            for d in range(1, n + 1):
                build.at_most_one(rule, [c * n + d for c in cells if kept(c * n + d)])
    for total in geo.sums:
        _sum_clauses(build, geo, total, kept, givens)
    for line, clue in geo.sandwiches:
        _sandwich_clauses(build, n, line, clue, kept, givens)


def _sandwich_clauses(build: Builder, n: int, line: tuple[int, ...], total: int, kept,
                      givens: Sequence[int] | None) -> None:
    """A sandwich sum. An end is a cell holding 1 or N; left(k) says an end lies before cell
    k, right(k) one after it, and between(k) = left(k) and right(k). Partial sums q(k, v),
    "the digits between, up to cell k, add up to v" (v up to the total), follow cell by
    cell both ways, and q(last, total) must hold. Literals here are variables, True or
    False (decided by the givens), and `clause` simplifies them away."""
    pool, size = build.pool, len(line)
    clauses: list[list[int]] = []

    def clause(*lits) -> None:
        if True not in lits:
            clauses.append([lit for lit in lits if lit is not False])

    def neg(lit):
        return -lit if isinstance(lit, int) and not isinstance(lit, bool) else not lit

    def x(k: int, d: int):
        cell = line[k]
        if givens and givens[cell]:
            return givens[cell] == d
        return cell * n + d if kept(cell * n + d) else False

    key = ("sandwich", line, total)
    left = {0: False}
    for k in range(1, size):  # left(k) <-> left(k-1) or an end at k-1
        left[k] = pool.id(key + ("left", k))
        sources = [left[k - 1], x(k - 1, 1), x(k - 1, n)]
        clause(-left[k], *sources)
        for source in sources:
            clause(neg(source), left[k])
    right = {size - 1: False}
    for k in range(size - 2, -1, -1):
        right[k] = pool.id(key + ("right", k))
        sources = [right[k + 1], x(k + 1, 1), x(k + 1, n)]
        clause(-right[k], *sources)
        for source in sources:
            clause(neg(source), right[k])
    between = {0: False, size - 1: False}
    for k in range(1, size - 1):
        b = between[k] = pool.id(key + ("between", k))
        clause(-b, left[k])
        clause(-b, right[k])
        clause(b, -left[k], -right[k])
        clause(-b, neg(x(k, 1)))
        clause(-b, neg(x(k, n)))
    q = {(k, v): pool.id(key + ("sum", k, v)) for k in range(size) for v in range(total + 1)}

    def earlier(k: int, v: int):
        if k == 0:
            return v == 0
        return q.get((k - 1, v), False)

    for k in range(size):
        b = between[k]
        for v in range(total + 1):
            now = q[k, v]
            clause(-now, b, earlier(k, v))  # not between: the sum carries over
            clause(neg(earlier(k, v)), b, now)
            for d in range(2, n):  # between and holding d: the sum grows by d
                clause(-now, neg(b), neg(x(k, d)), earlier(k, v - d) if v >= d else False)
                clause(neg(earlier(k, v)), neg(b), neg(x(k, d)), q.get((k, v + d), False))
    clause(q[size - 1, total])
    build.cnf.nv = max(build.cnf.nv, pool.top)
    build.add("sandwich", clauses)


def _sum_clauses(build: Builder, geo: Geometry, total: Sum, kept,
                 givens: Sequence[int] | None) -> None:
    """A sum by its partial totals: an auxiliary p(k, v) says "the first k cells may add up
    to v". p(k-1, v) and x(cell k, d) imply p(k, v + d); a last partial total that the
    target (the given total, or the circle's digit) does not allow is false. Only the true
    digits' path is forced, so a grid whose total misses the target has no model."""
    n = geo.n
    target = total.total if total.circle < 0 else n
    states: Mapping[int, int | None] = {0: None}  # a total reached -> its variable (None: true)

    def options(cell: int) -> list[tuple[int, int | None]]:
        if givens and givens[cell]:
            return [(givens[cell], None)]
        return [(d, cell * n + d) for d in range(1, n + 1) if kept(cell * n + d)]

    for k, cell in enumerate(total.cells):
        reached: dict[int, int] = {}
        clauses = []
        for v, state in states.items():
            for d, lit in options(cell):
                premise = [-x for x in (state, lit) if x is not None]
                if v + d > target:
                    clauses.append(premise)
                    continue
                if v + d not in reached:
                    reached[v + d] = build.pool.id(("sum", total, k, v + d))
                clauses.append(premise + [reached[v + d]])
        build.cnf.nv = max(build.cnf.nv, build.pool.top)
        build.add(total.rule, clauses)
        states = reached
    ends = []
    for v, state in states.items():
        # a sum of no cells keeps its start, true: its wrong total is then the empty clause
        reach = [] if state is None else [-state]
        if total.circle < 0:
            if v != total.total:
                ends.append(reach)
        elif givens and givens[total.circle]:
            if v != givens[total.circle]:
                ends.append(reach)
        elif kept(total.circle * n + v):
            ends.append(reach + [total.circle * n + v])
        else:
            ends.append(reach)
    if not states:
        ends.append([])
    build.add(total.rule, ends)


def _wrong_parity(rule: R.Parity, n: int) -> range:
    """The digits a parity rule forbids: odd ones for even cells, even ones for odd."""
    return range(1 if rule.even else 2, n + 1, 2)


# --- one rule's clauses apart (the setter's bench switches rules on and off) -----------

def rule_clauses(box: tuple[int, int], rule: R.Rule, start: int, within: tuple[R.Rule, ...] = (),
                 encoding: str = "extended", amo: str = "pairwise") -> tuple[list[list[int]], int]:
    """The clauses one rule adds to `base(box, within, ...)`, auxiliaries numbered from
    `start`, and the last variable they use.

    The rule's geometry is derived alone (`rule_geometry`: over the units of the grid
    `within` shapes, a jigsaw's regions or the boxes), so a cage's cells are tied by more
    at-most-one clauses than in the whole formula: said twice, never missing. The union of
    the base and every rule's clauses has the models of `base(box, within + rules)`.
    """
    check_rules((rule,))
    if rule.replaces_boxes:
        raise ValueError(f"rule {rule.name} shapes the grid: it belongs in `within`")
    geo = rule_geometry(box, rule, within)
    n = geo.n
    build = Builder(n, encoding, amo, n * n)
    build.pool = IDPool(start_from=max(start, build.formula.top + 1))
    build.cnf.nv = build.pool.top
    _units_and_rules(build, geo, geo.units, n, encoding)  # the rule's own units only
    return build.cnf.clauses, max(build.cnf.nv, build.pool.top, start - 1)


# --- the optimized encoding (Kwon & Jain) -------------------------------------------------

def optimized(puzzle: Puzzle, amo: str = "pairwise") -> Formula:
    """The extended encoding restricted to the variables the givens leave undecided."""
    check_rules(puzzle.rules)
    geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
    n, givens = geo.n, puzzle.givens
    build = Builder(n, "optimized", amo, len(geo.cells))
    false = _ruled_out(geo, givens)
    true = {var(n, cell, d) for cell, d in enumerate(givens) if d}
    if true & false:
        build.add("given", [[]])  # two givens contradict: the empty clause says so
    candidates = frozenset(v for v in range(1, build.formula.top + 1)
                           if v not in false and v not in true)
    digits = range(1, n + 1)
    for cell in geo.cells:
        if not givens[cell]:
            lits = [v for v in (var(n, cell, d) for d in digits) if v in candidates]
            build.add("cell", [lits])
            build.at_most_one("cell", lits)
    for unit in geo.units:
        placed = {givens[cell] for cell in unit}
        for d in digits:
            if d not in placed:
                lits = [v for v in (var(n, cell, d) for cell in unit) if v in candidates]
                build.add(unit.part, [lits])
                build.at_most_one(unit.part, lits)
    _rule_clauses(build, geo, candidates.__contains__)
    _cage_clauses(build, geo, candidates.__contains__, givens)
    _line_clauses(build, geo, candidates.__contains__, givens)
    build.formula.candidates = candidates
    build.formula.fixed = tuple(givens)
    return build.formula


def _ruled_out(geo: Geometry, givens: Sequence[int]) -> set[int]:
    """Cell variables the givens make false, directly (no propagation beyond one step)."""
    n = geo.n
    false: set[int] = set()
    for cell, d in enumerate(givens):
        if d:
            false.update(var(n, cell, other) for other in range(1, n + 1) if other != d)
            false.update(var(n, peer, d) for peer in geo.peers[cell])
    for a, b in geo.pairs(R.NonConsecutive):
        for cell, other in ((a, b), (b, a)):
            d = givens[cell]
            false.update(var(n, other, e) for e in (d - 1, d + 1) if d and 1 <= e <= n)
    for rule in geo.rules:
        if isinstance(rule, R.Parity):
            false.update(var(n, cell, d) for cell in geo.indices(rule.cells)
                         for d in _wrong_parity(rule, n))
    for rel in geo.digit_relations:
        for x, y in forbidden_pairs(rel.kind, rel.param, n):
            if givens[rel.a] == x:
                false.add(rel.b * n + y)
            if givens[rel.b] == y:
                false.add(rel.a * n + x)
    return false


# --- a puzzle as one formula: export and counting -------------------------------------

def givens_literals(puzzle: Puzzle) -> list[int]:
    """The true literals the givens state, one per given cell, in cell order."""
    n, givens = puzzle.n, puzzle.givens
    # var = cell*N + d, for the given cells only; compress and map keep the loop in C.
    return list(map(add, compress(range(0, len(givens) * n, n), givens),
                    compress(givens, givens)))


def encode(puzzle: Puzzle, encoding: str = "extended", amo: str = "pairwise") -> Formula:
    """The whole formula of a puzzle: its rules, plus the givens as unit clauses."""
    if encoding == "optimized":
        formula = optimized(puzzle, amo)
    else:
        formula = base(puzzle.box, puzzle.rules, encoding, amo, puzzle.layout)
    givens = givens_literals(puzzle)
    formula.cnf.clauses.extend([lit] for lit in givens)
    if givens:
        formula.parts["given"] = formula.parts.get("given", 0) + len(givens)
    return formula


def clause_counts(puzzle: Puzzle, encoding: str = "extended",
                  amo: str = "pairwise") -> dict[str, int]:
    """Clauses per part of the rules ('cell', 'row', ..., 'given'), as exported."""
    return dict(encode(puzzle, encoding, amo).parts)


def to_dimacs(puzzle: Puzzle, encoding: str = "extended", amo: str = "pairwise") -> str:
    """The puzzle as DIMACS text any SAT solver reads (with amo='native', MiniCard's 'p cnf+',
    which only MiniCard and GlueCard read); comments map variables to cells."""
    formula = encode(puzzle, encoding, amo)
    n, geo = formula.n, geometry(puzzle.box, puzzle.rules, puzzle.layout)
    rules = R.listed(puzzle.rules)
    shape = (f"{n}x{n} sudoku (box {puzzle.box[0]}x{puzzle.box[1]}), rules: {rules}"
             if puzzle.layout is None else
             f"{puzzle.layout.name}, {len(puzzle.layout.grids)} grids of {n}x{n} on one board")
    where = (f"r*{n * n} + c*{n} + d for row r and column c from 0" if puzzle.layout is None
             else f"cell*{n} + d, cells numbered row by row over the board from 0")
    comments = [
        f"c sudokulab: {shape}",
        f"c encoding {encoding}, at-most-one {amo}"
        + (" (native 'lits <= 1' lines: the cnf+ format of MiniCard)" if amo == "native" else ""),
        f"c variables: var = {where}, digit d from 1; cells are 1..{formula.top}, "
        f"auxiliaries above",
        "c constraints per part: " + ", ".join(f"{k} {v}" for k, v in formula.parts.items()),
        f"c givens: {len(givens_literals(puzzle))} unit clauses, at the end",
    ]
    if formula.candidates is not None:
        comments.append("c cell variables in no clause are ruled out by the givens: read them "
                        "as false")
    comments += [f"c var {var(n, cell, d)} = {geo.name(cell)} d{d}"
                 for cell in geo.cells for d in range(1, n + 1)]
    formula.cnf.comments = comments
    return formula.cnf.to_dimacs() + "\n"
