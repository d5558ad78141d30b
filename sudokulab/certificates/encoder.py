"""The certificates' own CNF encoding of a puzzle: written for reading, not for speed.

It shares no code with `sudokulab/encodings` or any backend, and, like check.py, none with
geometry.py: it reads the puzzle's box, givens, layout and each rule's data fields, and
derives every unit and pair itself. A certified verdict is a proof about this CNF, so an
engine's encoding bug can never be certified.

Variables: cell k (reading order; on a samurai board the board's covered cells) holding
digit d is variable k * N + d, so 1 .. cells * N are the cells' variables; variables
after those are the states of the sum and sandwich rules' automata.

Clauses, in order (see `Encoding.dimacs`): the rules (every cell one digit, every unit
each digit once, then each variant rule), the givens as unit clauses, then one blocking
clause per solution a certificate lists.

How each rule becomes clauses:
- a unit (row, column, box, region, diagonal, window, disjoint group): each digit at
  least once in it (one clause) and at most once (a clause per pair of cells);
- digits that differ (cage, cage without sum, extra region, renban): at most once each;
- a relation between two cells (anti-knight, anti-king, non-consecutive, kropki, XV,
  consecutive marks, thermometer, whispers, palindrome, renban's spread): one clause
  per forbidden pair of digits, ¬x(a, i) ∨ ¬x(b, j);
- parity: one unit clause per forbidden digit of each cell;
- a killer cage: the sets of digits that add up to its total, one selector each (see
  `_cage`: a 9x9 cage has at most 126 sets);
- a sum (arrow, little killer, sandwich, a big cage): a small automaton read along its cells,
  one variable per reachable (position, state), the start state a unit clause, one
  clause per transition (state ∧ digit → next state, or ¬(state ∧ digit) when the digit
  leads nowhere) and a unit clause ¬state for every last state that does not accept.
  The run of a grid is forced state by state from the start, so a grid satisfies the
  clauses exactly when its run ends in an accepting state. Sizes: a sum over k cells of
  total T has at most k * (T + 1) states and N clauses per state (a 9-cell cage: under
  4,000 clauses).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any, Literal, Protocol, TypeVar

from sudokulab import rules as R
from sudokulab.errors import UnsupportedRule
from sudokulab.puzzle import Puzzle

VERSION = "sudokulab.certificates.encoder 2"  # written into each certificate; change with the CNF
COMBINATIONS = 5000  # a cage of k cells is encoded by its digit sets when C(N, k) <= this
Cell = tuple[int, int]
Clause = tuple[int, ...]
State = TypeVar("State", bound=Hashable)  # an automaton's state: any label a dict can key


class _Board(Protocol):
    """What the encoder reads of a multi-grid board (sudokulab.layout's Layout, not
    imported: see the module's docstring): each grid's top-left cell."""

    @property
    def grids(self) -> tuple[Cell, ...]: ...


class _Builder:
    """Clauses and variables being built: each clause kept once, in the order added."""

    def __init__(self, cells: Sequence[Cell], n: int) -> None:
        self.n = n
        self.index = {cell: k for k, cell in enumerate(cells)}
        self.variables = len(cells) * n
        self.clauses: list[Clause] = []
        self._seen: set[Clause] = set()

    def x(self, cell: Cell, digit: int) -> int:
        """The variable 'cell holds digit'."""
        return self.index[cell] * self.n + digit

    def new(self) -> int:
        """A fresh auxiliary variable."""
        self.variables += 1
        return self.variables

    def add(self, clause: Iterable[int]) -> None:
        """One clause (duplicates, as where a row and a box share two cells, kept once)."""
        clause = tuple(clause)
        key = tuple(sorted(clause))
        if key not in self._seen:
            self._seen.add(key)
            self.clauses.append(clause)

    def digits(self) -> range:
        """1 .. N."""
        return range(1, self.n + 1)

    # --- the building blocks ---------------------------------------------------------

    def one_digit(self, cell: Cell) -> None:
        """A cell holds at least one digit and at most one."""
        self.add(self.x(cell, d) for d in self.digits())
        for i in self.digits():
            for j in range(i + 1, self.n + 1):
                self.add((-self.x(cell, i), -self.x(cell, j)))

    def exactly_once(self, cells: Sequence[Cell]) -> None:
        """A unit: each digit at least once and at most once."""
        for d in self.digits():
            self.add(self.x(cell, d) for cell in cells)
        self.distinct(cells)

    def distinct(self, cells: Sequence[Cell]) -> None:
        """No digit twice among the cells."""
        for d in self.digits():
            for i, a in enumerate(cells):
                for b in cells[i + 1:]:
                    self.add((-self.x(a, d), -self.x(b, d)))

    def forbid(self, a: Cell, b: Cell, bad: Callable[[int, int], bool]) -> None:
        """Cells a and b never hold digits i, j with bad(i, j)."""
        for i in self.digits():
            for j in self.digits():
                if bad(i, j):
                    self.add((-self.x(a, i), -self.x(b, j)))

    def automaton(self, cells: Sequence[Cell], start: State,
                  step: Callable[[int, State, int], State | None],
                  accept: Callable[[State], bool]) -> None:
        """The digits along the cells lead from `start` to an accepting state.

        step(i, state, digit) is the next state after cell i, or None for a dead end.
        """
        layer = {start: self.new()}
        self.add((layer[start],))
        for i, cell in enumerate(cells):
            following: dict[State, int] = {}
            for state, q in layer.items():
                for d in self.digits():
                    nxt = step(i, state, d)
                    if nxt is None:
                        self.add((-q, -self.x(cell, d)))
                        continue
                    if nxt not in following:
                        following[nxt] = self.new()
                    self.add((-q, -self.x(cell, d), following[nxt]))
            layer = following
        for state, q in layer.items():
            if not accept(state):
                self.add((-q,))

    def total(self, cells: Sequence[Cell], total: int) -> None:
        """The cells' digits add up to total (digits may repeat)."""
        k, n = len(cells), self.n

        def step(i: int, s: int, d: int) -> int | None:
            left = k - 1 - i  # cells still to come, each adding 1 .. N
            s += d
            return s if s + left <= total and s + left * n >= total else None

        self.automaton(cells, 0, step, lambda s: s == total)


@dataclass(frozen=True)
class Encoding:
    """The CNF of a puzzle: rules' clauses, givens' unit clauses, and how to read it."""

    n: int
    cells: tuple[Cell, ...]  # (row, column) of each cell variable block, in cell order
    variables: int
    rules: tuple[Clause, ...]
    givens: tuple[Clause, ...]

    def x(self, cell: int, digit: int) -> int:
        """The variable of cell index `cell` holding `digit`."""
        return cell * self.n + digit

    def grid(self, model: Iterable[int]) -> tuple[int, ...]:
        """The grid of a model (its true cell variables)."""
        n, grid = self.n, [0] * len(self.cells)
        for lit in model:
            if 0 < lit <= len(self.cells) * n:
                grid[(lit - 1) // n] = (lit - 1) % n + 1
        return tuple(grid)

    def blocking(self, grid: Sequence[int]) -> Clause:
        """The clause 'not this grid': some cell holds another digit."""
        return tuple(-self.x(k, d) for k, d in enumerate(grid))

    def clauses(self, solutions: Sequence[Sequence[int]] = ()) -> list[Clause]:
        """Rules, givens, then one blocking clause per solution."""
        return [*self.rules, *self.givens, *(self.blocking(s) for s in solutions)]

    def dimacs(self, solutions: Sequence[Sequence[int]] = ()) -> str:
        """The DIMACS text a certificate carries (comments only before the header)."""
        extra = [*self.givens, *(self.blocking(s) for s in solutions)]
        head = [f"c {VERSION}: sudokulab/certificates/encoder.py",
                f"c cell k (reading order, from 0) holds digit d: variable k*{self.n}+d, "
                f"1..{len(self.cells) * self.n}; then the sum rules' states",
                f"c clauses: {len(self.rules)} of the rules, {len(self.givens)} givens "
                f"(unit clauses), {len(solutions)} blocking (one per solution listed)",
                f"p cnf {self.variables} {len(self.rules) + len(extra)}"]
        body = [" ".join(map(str, clause)) + " 0" for clause in extra]
        return "\n".join(head) + "\n" + _text(self.rules) + "\n".join(body) + "\n"


def _text(rules: tuple[Clause, ...]) -> str:
    """The rules' clauses as DIMACS lines, cached by the tuple's identity (`_rules` hands
    out one tuple per shape and rule set; hashing 10,000 clauses costs about as much as
    writing them). The cache holds the tuple, so its identity is not reused meanwhile."""
    cached = _TEXTS.get(id(rules))
    if cached is None or cached[0] is not rules:
        text = "".join(" ".join(map(str, clause)) + " 0\n" for clause in rules)
        cached = _TEXTS[id(rules)] = (rules, text)
        if len(_TEXTS) > 32:
            del _TEXTS[next(iter(_TEXTS))]
    return cached[1]


_TEXTS: dict[int, tuple[tuple[Clause, ...], str]] = {}


def encode(puzzle: Puzzle) -> Encoding:
    """The puzzle's CNF; UnsupportedRule for a rule this encoder does not know."""
    n, cells, variables, rules = _rules(puzzle.box, puzzle.rules, puzzle.layout)
    givens = tuple((cell * n + d,) for cell, d in enumerate(puzzle.givens) if d)
    return Encoding(n, cells, variables, rules, givens)


@lru_cache(maxsize=32)
def _rules(box: tuple[int, int], rules: tuple[R.Rule, ...],
           layout: _Board | None) -> tuple[int, tuple[Cell, ...], int, tuple[Clause, ...]]:
    """The clauses of a shape and rule set (the same for every puzzle of it: cached)."""
    n = box[0] * box[1]
    if layout is not None:
        if rules:  # Puzzle refuses them today; a board's rules would need encoding here
            raise UnsupportedRule("certificates of a multi-grid board take no rules")
        return _board(box, layout)
    cells = tuple((r, c) for r in range(n) for c in range(n))
    b = _Builder(cells, n)
    for cell in cells:
        b.one_digit(cell)
    for unit in _units(box, rules):
        b.exactly_once(unit)
    for rule in rules:
        encoder = ENCODERS.get(type(rule))
        if encoder is None:
            raise UnsupportedRule(f"certify: no encoding of the rule {rule.name!r}")
        encoder(b, rule)
    return n, cells, b.variables, tuple(b.clauses)


def _board(box: tuple[int, int],
           layout: _Board) -> tuple[int, tuple[Cell, ...], int, tuple[Clause, ...]]:
    """A multi-grid board: the covered cells, each grid's rows, columns and boxes."""
    n = box[0] * box[1]
    corners = layout.grids
    cells = tuple(sorted({(top + r, left + c) for top, left in corners
                          for r in range(n) for c in range(n)}))
    b = _Builder(cells, n)
    for cell in cells:
        b.one_digit(cell)
    for top, left in corners:
        for unit in _units(box, ()):
            b.exactly_once([(top + r, left + c) for r, c in unit])
    return n, cells, b.variables, tuple(b.clauses)


def _units(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> list[list[Cell]]:
    """Every group of N cells holding each digit once: rows, columns, boxes or the jigsaw's
    regions, and the units of diagonal, windoku and disjoint-groups rules."""
    br, bc = box
    n = br * bc
    units = [[(r, c) for c in range(n)] for r in range(n)]
    units += [[(r, c) for r in range(n)] for c in range(n)]
    jigsaws = [rule for rule in rules if isinstance(rule, R.Jigsaw)]
    if len(jigsaws) > 1:  # check.py reads only the first: refuse rather than disagree
        raise UnsupportedRule("certify: two jigsaw rules on one grid")
    if jigsaws:
        units += [list(region) for region in jigsaws[0].regions]
    else:
        units += [[(top + r, left + c) for r in range(br) for c in range(bc)]
                  for top in range(0, n, br) for left in range(0, n, bc)]
    main = [(i, i) for i in range(n)]
    anti = [(i, n - 1 - i) for i in range(n)]
    for rule in rules:
        if isinstance(rule, (R.Diagonal, R.MainDiagonal)):
            units.append(main)
        if isinstance(rule, (R.Diagonal, R.AntiDiagonal)):
            units.append(anti)
        if isinstance(rule, R.Windoku):
            units += [[(top + r, left + c) for r in range(br) for c in range(bc)]
                      for top in range(1, n - br + 1, br + 1)
                      for left in range(1, n - bc + 1, bc + 1)]
        if isinstance(rule, R.DisjointGroups):
            units += [[(top + r, left + c) for top in range(0, n, br)
                       for left in range(0, n, bc)] for r in range(br) for c in range(bc)]
    return units


# --- the variant rules that are not units: one function each ------------------------------

def _houses_only(b: _Builder, rule: R.Rule) -> None:
    """Diagonals, windows, disjoint groups, jigsaw: their units are in `_units`."""


def _moves(b: _Builder, steps: Sequence[tuple[int, int]],
           bad: Callable[[int, int], bool]) -> None:
    """Every two cells one step apart never hold a bad pair of digits."""
    n = b.n
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                r2, c2 = r + dr, c + dc
                if (r2, c2) > (r, c) and 0 <= r2 < n and 0 <= c2 < n:
                    b.forbid((r, c), (r2, c2), bad)


def _anti_knight(b: _Builder, rule: R.Rule) -> None:
    """A knight's move apart: different digits."""
    _moves(b, R.KNIGHT_MOVES, lambda i, j: i == j)


def _anti_king(b: _Builder, rule: R.Rule) -> None:
    """A king's move apart: different digits."""
    _moves(b, R.KING_MOVES, lambda i, j: i == j)


def _non_consecutive(b: _Builder, rule: R.Rule) -> None:
    """Orthogonal neighbours: never consecutive."""
    _moves(b, R.ORTHOGONAL_MOVES, lambda i, j: abs(i - j) == 1)


def _cage(b: _Builder, rule: R.Cage) -> None:
    """Different digits adding up to the total.

    With k cells, the digits are k different ones, so they add up to the total exactly when
    they form one of the sets of k digits that do: one selector variable per such set,
    some selector holds, and a selector keeps every other digit out of the cage (and,
    redundant but a stronger propagation, puts each of its digits in some cell). A cage
    with more than COMBINATIONS candidate sets (C(N, k); a big cage past 9x9) is summed
    by the automaton instead."""
    cells, k = rule.cells, len(rule.cells)
    b.distinct(cells)
    if comb(b.n, k) > COMBINATIONS:
        b.total(cells, rule.total)
        return
    selectors = []
    for digits in combinations(b.digits(), k):
        if sum(digits) != rule.total:
            continue
        s = b.new()
        selectors.append(s)
        for cell in cells:
            for d in b.digits():
                if d not in digits:
                    b.add((-s, -b.x(cell, d)))
        for d in digits:
            b.add((-s, *(b.x(cell, d) for cell in cells)))
    if selectors:
        b.add(selectors)
    else:  # no set adds up: the first cell can hold no digit (no empty clause in a CNF)
        for d in b.digits():
            b.add((-b.x(cells[0], d),))


def _distinct(b: _Builder, rule: R.Line) -> None:
    """A cage without its sum, an extra region: different digits."""
    b.distinct(rule.cells)


def _parity(b: _Builder, rule: R.Parity) -> None:
    """Each cell even (or odd): the other digits are forbidden."""
    for cell in rule.cells:
        for d in b.digits():
            if d % 2 != (0 if rule.even else 1):
                b.add((-b.x(cell, d),))


def _thermometer(b: _Builder, rule: R.Thermometer) -> None:
    """Each cell less than the next."""
    for a, c in zip(rule.cells, rule.cells[1:]):
        b.forbid(a, c, lambda i, j: i >= j)


def _whispers(b: _Builder, rule: R.Whispers) -> None:
    """Neighbours on the line at least (N + 1) // 2 apart."""
    gap = (b.n + 1) // 2
    for a, c in zip(rule.cells, rule.cells[1:]):
        b.forbid(a, c, lambda i, j: abs(i - j) < gap)


def _palindrome(b: _Builder, rule: R.Palindrome) -> None:
    """Each cell equal to its mirror."""
    cells = rule.cells
    for k in range(len(cells) // 2):
        b.forbid(cells[k], cells[-1 - k], lambda i, j: i != j)


def _renban(b: _Builder, rule: R.Renban) -> None:
    """Different digits, every two at most len - 1 apart: k different digits spread over
    at most k - 1 are a run of consecutive digits."""
    cells, spread = rule.cells, len(rule.cells) - 1
    b.distinct(cells)
    for k, a in enumerate(cells):
        for c in cells[k + 1:]:
            b.forbid(a, c, lambda i, j: abs(i - j) > spread)


ArrowState = int | Literal["ok"]  # the shaft's sum so far; "ok" once the circle holds it


def _arrow(b: _Builder, rule: R.Arrow) -> None:
    """The shaft's digits (cells[1:]) add up to the circle's (cells[0]): the automaton reads
    the shaft, summing, then the circle, which must hold the sum."""
    shaft, circle = rule.cells[1:], rule.cells[0]
    last = len(shaft)

    def step(i: int, s: ArrowState, d: int) -> ArrowState | None:
        if i == last:
            return "ok" if d == s else None
        assert s != "ok"  # before the circle a state is the shaft's sum so far
        return s + d if s + d <= b.n else None  # a sum past N fits no circle

    start: ArrowState = 0  # declared: the states are those of step, not ints alone
    b.automaton([*shaft, circle], start, step, lambda s: s == "ok")


def _little_killer(b: _Builder, rule: R.LittleKiller) -> None:
    """The diagonal's digits add up to the total."""
    b.total(rule.cells, rule.total)


SandwichState = Literal["before", "after"] | tuple[Literal["in"], int, int]


def _sandwich(b: _Builder, rule: R.Sandwich) -> None:
    """Along the row or column: states 'before' the first of 1 and N, ('in', closer, sum)
    until the other one, then 'after'; the sum between them must be the total."""
    n = b.n
    line = [(k, rule.index) if rule.column else (rule.index, k) for k in range(n)]

    def step(i: int, state: SandwichState, d: int) -> SandwichState | None:
        if state == "before":
            return ("in", n if d == 1 else 1, 0) if d in (1, n) else "before"
        if state == "after":
            return "after"
        _, closer, s = state
        if d == closer:
            return "after" if s == rule.total else None
        return ("in", closer, s + d) if s + d <= rule.total else None

    start: SandwichState = "before"  # declared: the states are those of step, not strs alone
    b.automaton(line, start, step, lambda state: state == "after")


def _orthogonal_pairs(n: int) -> list[tuple[Cell, Cell]]:
    """Every pair of orthogonal neighbours, once."""
    return [((r, c), (r2, c2)) for r in range(n) for c in range(n)
            for r2, c2 in ((r + 1, c), (r, c + 1)) if r2 < n and c2 < n]


_DOT_TESTS: dict[str, Callable[[int, int], bool]] = {
    "white": lambda i, j: abs(i - j) == 1,
    "black": lambda i, j: i == 2 * j or j == 2 * i,
    "x": lambda i, j: i + j == 10,
    "v": lambda i, j: i + j == 5,
}


def _dots(b: _Builder, rule: R.Dots, kinds: tuple[str, str]) -> None:
    """Marked pairs hold their relation; with `negative`, unmarked neighbours hold none of
    the kinds' relations."""
    marked: set[frozenset[Cell]] = set()
    for kind in kinds:
        test = _DOT_TESTS[kind]
        for a, c in getattr(rule, kind):
            marked.add(frozenset((a, c)))
            b.forbid(a, c, _negation(test))
    if rule.negative:
        tests = [_DOT_TESTS[kind] for kind in kinds]
        for a, c in _orthogonal_pairs(b.n):
            if frozenset((a, c)) not in marked:
                b.forbid(a, c, lambda i, j: any(test(i, j) for test in tests))


def _negation(test: Callable[[int, int], bool]) -> Callable[[int, int], bool]:
    """The pairs of digits a test refuses."""
    return lambda i, j: not test(i, j)


def _kropki(b: _Builder, rule: R.Kropki) -> None:
    """White dots consecutive, black dots ratio 2."""
    _dots(b, rule, ("white", "black"))


def _xv(b: _Builder, rule: R.XV) -> None:
    """X: sum 10, V: sum 5."""
    _dots(b, rule, ("x", "v"))


def _consecutive_marks(b: _Builder, rule: R.ConsecutiveMarks) -> None:
    """Marked neighbours consecutive, every other pair of orthogonal neighbours not."""
    marked = {frozenset(pair) for pair in rule.pairs}
    for a, c in _orthogonal_pairs(b.n):
        if frozenset((a, c)) in marked:
            b.forbid(a, c, lambda i, j: abs(i - j) != 1)
        else:
            b.forbid(a, c, lambda i, j: abs(i - j) == 1)


# Every rule type of rules.py, by class: a type missing here is refused (UnsupportedRule),
# and a test checks that none is missing. Each function takes the rule class it is listed
# under (`_rules` looks it up by type(rule)), which a dict's one value type cannot say:
# hence Any for the rule.
ENCODERS: dict[type[R.Rule], Callable[[_Builder, Any], None]] = {
    R.Diagonal: _houses_only, R.MainDiagonal: _houses_only, R.AntiDiagonal: _houses_only,
    R.Windoku: _houses_only, R.Jigsaw: _houses_only, R.DisjointGroups: _houses_only,
    R.AntiKnight: _anti_knight, R.AntiKing: _anti_king, R.NonConsecutive: _non_consecutive,
    R.Cage: _cage, R.SumlessCage: _distinct, R.ExtraRegion: _distinct, R.Parity: _parity,
    R.Thermometer: _thermometer, R.Whispers: _whispers, R.Palindrome: _palindrome,
    R.Renban: _renban, R.Arrow: _arrow, R.LittleKiller: _little_killer,
    R.Sandwich: _sandwich, R.Kropki: _kropki, R.XV: _xv,
    R.ConsecutiveMarks: _consecutive_marks,
}
