"""Z3 models of a puzzle, for the smt backend and for export as SMT-LIB 2.

Three ways to say what a cell holds, each compiling the same geometry:
- `int`: one integer per cell in 1..N, and `Distinct` per unit: the textbook model.
- `bool`: one Boolean per (cell, digit), "r1c1_5" meaning row 1, column 1 holds 5; a cell
  holds exactly one digit and a unit holds each digit exactly once, both as pseudo-Boolean
  equalities (`PbEq`) that Z3 propagates natively; a killer cage holds one of the digit
  sets that fill it, each set a selector Boolean (see `BoolModel.cage`).
- `bitvec`: one N-bit vector per cell with exactly one bit set, the bit of its digit (a
  one-hot mask, like the norvig backend's candidate bitmasks); the cells of a unit are
  pairwise disjoint and their union is every digit. Chosen over binary bit-vectors in 1..N
  with `Distinct`, far slower (results/smt.md): `Distinct` only says "at most once",
  while the union says "at least once", so a digit with one place left in a unit (a
  hidden single) is found by propagation instead of by search.

This module builds z3 expressions and never solves them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

import z3

from sudokulab import rules as R
from sudokulab.cages import digit_sets, implied_cages
from sudokulab.geometry import (
    DigitRelation,
    Geometry,
    Sum,
    forbidden_pairs,
    geometry,
)
from sudokulab.puzzle import Puzzle

MODELS = ("bool", "bitvec", "int")

# The line, dot and sum rules of issue 19: the int and bool models compile them.
LINE_RULES = (R.Thermometer, R.Arrow, R.Kropki, R.XV, R.SumlessCage, R.ExtraRegion, R.Renban,
              R.Whispers, R.Palindrome, R.LittleKiller, R.ConsecutiveMarks, R.Sandwich)


class CellModel:
    """The assertions of a box shape and rule set, grouped by the rule each comes from.

    A subclass says how a cell holds a digit; this class walks the geometry. With
    `portable`, only standard SMT-LIB is used (no Z3 pseudo-Boolean operators), for export.
    """

    name: ClassVar[str]
    rules: ClassVar[tuple[type, ...]]  # the variant rules this model can express
    logic: str                         # the SMT-LIB logic of its assertions (a model may widen it)
    kind: ClassVar[str]                # what one cell is, for people
    vars: list[Any]                    # each cell's variable or variables (declare sets them)

    def __init__(self, geo: Geometry, portable: bool = False) -> None:
        self.geo, self.n, self.portable = geo, geo.n, portable
        self.width = self.n.bit_length()  # bits of a digit in the read-out
        self.groups: dict[str, list[z3.BoolRef]] = {}
        self.literals: dict[tuple[int, int, bool], z3.BoolRef] = {}
        self.declare()
        self.compile()

    def declare(self) -> None:
        """Create the cell variables, `self.vars`, indexed by cell."""
        raise NotImplementedError

    def compile(self) -> None:
        """Every assertion the geometry and rules call for, grouped by rule."""
        geo = self.geo
        for cell in geo.cells:
            self.add("cells", self.holds_one_digit(cell))
        for unit in geo.units:
            self.add(unit.group, self.each_digit_once(unit))
        for relation in geo.relations:
            relate = self.differ if relation.differ else self.not_consecutive
            for a, b in relation.pairs:
                self.add(relation.rule.name, relate(a, b))
        for rule in geo.rules:
            if isinstance(rule, R.Cage):
                self.add("cages", self.cage(geo.indices(rule.cells), rule.total))
            elif isinstance(rule, R.Parity):
                for r, c in rule.cells:
                    self.add("parity", self.parity(geo.cell(r, c), rule.even))
        # Redundant but strong: each unit's cells outside its cages sum to what is left of
        # 45 (sudokulab/cages.py); Z3 needed 10 times fewer conflicts on hard killers.
        for cage in implied_cages(geo) if geo.cages else ():
            self.add("implied cages (rule of 45)",
                     self.cage(geo.indices(cage.cells), cage.total))
        for rel in geo.digit_relations:
            self.add(rel.rule, self.relate(rel))
        for name, cells in geo.groups:
            self.add(name, self.all_differ(list(cells)))
        for total in geo.sums:
            self.add(total.rule, self.add_up(total))
        for line, clue in geo.sandwiches:
            self.add("sandwich", self.sandwich(line, clue))

    def add(self, group: str, assertions: list[z3.BoolRef]) -> None:
        """File assertions under the rule they come from."""
        self.groups.setdefault(group, []).extend(assertions)

    def assertions(self) -> list[z3.BoolRef]:
        """Every assertion, group after group."""
        return [a for group in self.groups.values() for a in group]

    def cell_name(self, cell: int) -> str:
        """The r1c1 name of a cell, used for its variables."""
        return self.geo.name(cell)

    # --- what each model says in its own terms -------------------------------------

    def holds_one_digit(self, cell: int) -> list[z3.BoolRef]:
        """A cell holds exactly one digit of 1..N."""
        raise NotImplementedError

    def each_digit_once(self, unit: Sequence[int]) -> list[z3.BoolRef]:
        """N cells hold every digit once."""
        raise NotImplementedError

    def differ(self, a: int, b: int) -> list[z3.BoolRef]:
        """Two cells hold different digits."""
        raise NotImplementedError

    def not_consecutive(self, a: int, b: int) -> list[z3.BoolRef]:
        """Two cells do not hold consecutive digits."""
        raise NotImplementedError

    def cage(self, cells: list[int], total: int) -> list[z3.BoolRef]:
        """The digits of a cage differ and add up to `total`."""
        raise NotImplementedError

    def parity(self, cell: int, even: bool) -> list[z3.BoolRef]:
        """A cell holds an even (or odd) digit."""
        raise NotImplementedError

    def is_digit(self, cell: int, digit: int) -> z3.BoolRef:
        """The assertion 'cell holds digit' (a given, or a literal of a blocking clause)."""
        raise NotImplementedError

    def relate(self, rel: DigitRelation) -> list[z3.BoolRef]:
        """Two cells' digits satisfy a pair relation (a thermometer step, a dot, ...)."""
        raise NotImplementedError

    def all_differ(self, cells: list[int]) -> list[z3.BoolRef]:
        """Some cells hold different digits (a cage without sum, a region, a renban)."""
        raise NotImplementedError

    def add_up(self, total: Sum) -> list[z3.BoolRef]:
        """Cells add up to a total, or to the digit of a circle cell (an arrow)."""
        raise NotImplementedError

    def value(self, cell: int) -> z3.ArithRef:
        """The digit of a cell as an integer term."""
        raise NotImplementedError

    def sandwich(self, line: tuple[int, ...], total: int) -> list[z3.BoolRef]:
        """The digits between the 1 and the N of a line add up to `total`: the two places
        as integer terms, each cell's digit counted when its place lies between them."""
        one = z3.Sum([z3.If(self.is_digit(c, 1), k, 0) for k, c in enumerate(line)])
        top = z3.Sum([z3.If(self.is_digit(c, self.n), k, 0) for k, c in enumerate(line)])
        inside = [z3.Or(z3.And(one < k, k < top), z3.And(top < k, k < one))
                  for k in range(len(line))]
        return [z3.Sum([z3.If(b, self.value(c), 0) for b, c in zip(inside, line)]) == total]

    def digit_term(self, cell: int) -> z3.BitVecRef:
        """The digit of a cell as a bit-vector of `width` bits, for reading a solution."""
        raise NotImplementedError

    # --- givens, read-out and blocking ---------------------------------------------

    def first_digit(self, holds: list[z3.BoolRef]) -> z3.BitVecRef:
        """The first d whose condition holds[d - 1] is true, as a nested if-then-else (which
        Z3 evaluates in a third of the time of a sum of ifs); N when none is."""
        digits = [z3.BitVecVal(d, self.width) for d in range(self.n + 1)]
        term = digits[self.n]
        for digit in range(self.n - 1, 0, -1):
            term = z3.If(holds[digit - 1], digits[digit], term)
        return term

    def literal(self, cell: int, digit: int, holds: bool = True) -> z3.BoolRef:
        """'cell holds digit', or its negation, made once: a warm solver sees the same
        few thousand again and again, and making a z3 term costs several Python calls."""
        key = (cell, digit, holds)
        if key not in self.literals:
            assertion = self.is_digit(cell, digit)
            self.literals[key] = assertion if holds else z3.Not(assertion)
        return self.literals[key]

    def givens(self, puzzle: Puzzle) -> list[z3.BoolRef]:
        """One assertion per given cell."""
        return [self.literal(cell, digit) for cell, digit in enumerate(puzzle.givens) if digit]

    def grid_term(self) -> z3.BitVecRef:
        """Every cell's digit in one bit-vector, first cell highest: one evaluation reads a
        whole solution (evaluating cell by cell costs a Python call into Z3 per variable)."""
        return z3.Concat(*[self.digit_term(cell) for cell in self.geo.cells])

    def read(self, value: int) -> tuple[int, ...]:
        """The grid packed in a value of `grid_term`."""
        mask, width, last = (1 << self.width) - 1, self.width, len(self.geo.cells) - 1
        return tuple((value >> (width * (last - cell))) & mask for cell in self.geo.cells)

    def excluding(self, grid: Sequence[int], cells: Sequence[int]) -> z3.BoolRef:
        """A blocking clause: at least one of `cells` holds another digit than in `grid`."""
        return z3.Or([self.literal(cell, grid[cell], holds=False) for cell in cells])


class IntModel(CellModel):
    """Integer cells in 1..N; a unit is Distinct (the textbook model)."""

    name, logic, kind = "int", "QF_LIA", "an integer in 1..N"
    rules = R.RULE_TYPES  # every rule there is

    def declare(self) -> None:
        """One Int per cell, named r1c1."""
        self.vars = [z3.Int(self.cell_name(cell)) for cell in self.geo.cells]

    def holds_one_digit(self, cell):
        x = self.vars[cell]
        return [z3.And(x >= 1, x <= self.n)]

    def each_digit_once(self, unit):
        return [z3.Distinct([self.vars[c] for c in unit])]

    def differ(self, a, b):
        return [self.vars[a] != self.vars[b]]

    def not_consecutive(self, a, b):
        x, y = self.vars[a], self.vars[b]
        return [x - y != 1, y - x != 1]

    def cage(self, cells, total):
        xs = [self.vars[c] for c in cells]
        return [z3.Distinct(xs), z3.Sum(xs) == total]

    def parity(self, cell, even):
        return [self.vars[cell] % 2 == (0 if even else 1)]

    def is_digit(self, cell, digit):
        return self.vars[cell] == digit

    def relate(self, rel):
        x, y, k = self.vars[rel.a], self.vars[rel.b], rel.param
        return [{
            "less": lambda: x < y,
            "equal": lambda: x == y,
            "white": lambda: z3.Or(x - y == 1, y - x == 1),
            "black": lambda: z3.Or(x == 2 * y, y == 2 * x),
            "no-dot": lambda: z3.And(x - y != 1, y - x != 1, x != 2 * y, y != 2 * x),
            "apart": lambda: z3.And(x - y != 1, y - x != 1),
            "x": lambda: x + y == 10,
            "v": lambda: x + y == 5,
            "no-xv": lambda: z3.And(x + y != 5, x + y != 10),
            "far": lambda: z3.Or(x - y >= k, y - x >= k),
            "near": lambda: z3.And(x - y <= k, y - x <= k),
        }[rel.kind]()]

    def all_differ(self, cells):
        return [z3.Distinct([self.vars[c] for c in cells])]

    def add_up(self, total):
        target = self.vars[total.circle] if total.circle >= 0 else total.total
        return [z3.Sum([self.vars[c] for c in total.cells]) == target]

    def value(self, cell):
        return self.vars[cell]

    def digit_term(self, cell):
        return z3.Int2BV(self.vars[cell], self.width)


class BoolModel(CellModel):
    """One Boolean per (cell, digit); exactly-one constraints as pseudo-Boolean equalities."""

    name, logic, kind = "bool", "QF_UF", "N Booleans, r1c1_d meaning 'holds d'"
    rules = IntModel.rules

    def declare(self) -> None:
        """cells[cell][d - 1] says the cell holds d."""
        self.negations: dict[int, z3.BoolRef] = {}
        self.cages: list[list[z3.BoolRef]] = []  # each cage's digit-set selectors
        self.selectors: list[z3.BoolRef] = []
        self.vars = [[z3.Bool(f"{self.cell_name(cell)}_{d}") for d in range(1, self.n + 1)]
                      for cell in self.geo.cells]
        if self.portable and (self.geo.sums or self.geo.sandwiches):
            self.logic = "QF_LIA"  # a portable cage sum counts with integers

    def exactly_one(self, literals: list[z3.BoolRef]) -> list[z3.BoolRef]:
        """One literal holds: a PbEq for Z3, pairwise clauses in portable SMT-LIB."""
        if not self.portable:
            return [z3.PbEq([(lit, 1) for lit in literals], 1)]
        return [z3.Or(literals)] + self.at_most_one(literals)

    def at_most_one(self, literals: list[z3.BoolRef]) -> list[z3.BoolRef]:
        """At most one literal holds."""
        if not self.portable:
            return [z3.AtMost(*literals, 1)]
        return [self.nand(a, b) for a, b in combinations(literals, 2)]

    def nand(self, a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
        """(or (not a) (not b)): built through Z3's C API, since a pairwise at-most-one of a
        25x25 makes millions of them and z3.Or's argument coercion dominated the export."""
        ctx = a.ctx
        args = (z3.Ast * 2)(self.negation(a).as_ast(), self.negation(b).as_ast())
        return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), 2, args), ctx)

    def clause(self, literals: list[z3.BoolRef]) -> z3.BoolRef:
        """(or literals...), through Z3's C API as `nand` is (z3.Or coerces every argument)."""
        ctx = literals[0].ctx
        args = (z3.Ast * len(literals))(*(lit.as_ast() for lit in literals))
        return z3.BoolRef(z3.Z3_mk_or(ctx.ref(), len(literals), args), ctx)

    def negation(self, literal: z3.BoolRef) -> z3.BoolRef:
        """not literal, made once per literal."""
        key = literal.get_id()
        if key not in self.negations:
            self.negations[key] = z3.Not(literal)
        return self.negations[key]

    def holds_one_digit(self, cell):
        return self.exactly_one(self.vars[cell])

    def each_digit_once(self, unit):
        return [a for d in range(self.n) for a in self.exactly_one([self.vars[c][d]
                                                                    for c in unit])]

    def differ(self, a, b):
        return [self.nand(x, y) for x, y in zip(self.vars[a], self.vars[b])]

    def not_consecutive(self, a, b):
        x, y = self.vars[a], self.vars[b]
        return [self.nand(p, q) for d in range(self.n - 1)
                for p, q in ((x[d], y[d + 1]), (x[d + 1], y[d]))]

    def cage(self, cells, total):
        """The cage holds one of the digit sets that fill it, chosen by a selector Boolean.

        Measured against a pseudo-Boolean sum (PbEq over the one-hot digits, weight d for
        digit d), which propagates on bounds only: on krazydad's hard killers Z3 took
        10-30 times more conflicts with the sum. With the sets, a digit in no fitting set
        leaves the cage at once, and a digit in every one must find a place in it.
        """
        differ = [a for d in range(self.n) for a in self.at_most_one([self.vars[c][d]
                                                                      for c in cells])]
        sets = digit_sets(len(cells), total, self.n)
        if not sets:
            return [z3.BoolVal(False)]  # nothing fills the cage
        index = len(self.cages) + 1
        chosen = [z3.Bool(f"cage{index}_{'_'.join(map(str, digits))}") for digits in sets]
        self.cages.append(chosen)
        self.selectors += chosen
        fills = []
        for d in range(1, self.n + 1):
            holders = [self.vars[c][d - 1] for c in cells]
            with_d = [selector for selector, digits in zip(chosen, sets) if d in digits]
            # a digit in the cage belongs to the chosen set ...
            fills += [self.clause([self.negation(holder)] + with_d) for holder in holders]
            # ... and each digit of the chosen set is in the cage
            fills += [self.clause([self.negation(selector)] + holders) for selector in with_d]
        return differ + self.exactly_one(chosen) + fills

    def parity(self, cell, even):
        return [z3.Not(lit) for d, lit in enumerate(self.vars[cell], 1) if (d % 2 == 0) != even]

    def is_digit(self, cell, digit):
        return self.vars[cell][digit - 1]

    def relate(self, rel):
        x, y = self.vars[rel.a], self.vars[rel.b]
        return [self.nand(x[d - 1], y[e - 1])
                for d, e in forbidden_pairs(rel.kind, rel.param, self.n)]

    def all_differ(self, cells):
        return [a for d in range(self.n) for a in self.at_most_one([self.vars[c][d]
                                                                    for c in cells])]

    def add_up(self, total):
        # An arrow: the shaft's digits plus (not circle_d) * d for every d add up to
        # 1 + ... + N, since the circle's own digit is the one term left out.
        terms = [(self.vars[c][d], d + 1) for c in total.cells for d in range(self.n)]
        target = total.total
        if total.circle >= 0:
            terms += [(self.negation(lit), d) for d, lit in
                      enumerate(self.vars[total.circle], 1)]
            target = self.n * (self.n + 1) // 2
        if self.portable:
            return [z3.Sum([z3.If(lit, w, 0) for lit, w in terms]) == target]
        return [z3.PbEq(terms, target)]

    def value(self, cell):
        return z3.Sum([z3.If(lit, d, 0) for d, lit in enumerate(self.vars[cell], 1)])

    def sandwich(self, line, total):
        """Booleans and one pseudo-Boolean sum instead of integer places: a cell is inside
        when exactly one of the 1 and the N lies before it, and a place of the 1 and the N
        whose gap no digits can fill to the total is ruled out by a clause. With the places
        as integer terms Z3 took 1 to 2 s on generated sandwich puzzles
        (results/generated.md)."""
        if self.portable:
            return super().sandwich(line, total)
        n = self.n
        ones = [self.vars[c][0] for c in line]
        tops = [self.vars[c][n - 1] for c in line]
        out = [self.nand(ones[i], tops[j]) for i in range(len(line)) for j in range(len(line))
               if i != j and not gap_fits(abs(i - j) - 1, total, n)]
        terms = []
        for k in range(1, len(line) - 1):
            inside = z3.Xor(z3.Or(ones[:k]), z3.Or(tops[:k]))
            terms += [(z3.And(inside, self.vars[line[k]][d - 1]), d) for d in range(2, n)]
        return out + [z3.PbEq(terms, total) if terms else z3.BoolVal(total == 0)]

    def digit_term(self, cell):
        return self.first_digit(self.vars[cell])


class BitVecModel(CellModel):
    """One-hot N-bit vectors: a cell is the bit of its digit, a unit's bits are disjoint."""

    name, logic, kind = "bitvec", "QF_BV", "an N-bit vector with one bit set, bit d-1 for d"
    # A cage sum would have to turn masks back into numbers: the int and bool models say it.
    # sums: see cage(); the line rules: the int and bool models
    rules = tuple(kind for kind in R.RULE_TYPES if kind is not R.Cage and kind not in LINE_RULES)

    def declare(self) -> None:
        """One N-bit vector per cell, named r1c1."""
        self.vars = [z3.BitVec(self.cell_name(cell), self.n) for cell in self.geo.cells]

    def bit(self, digit: int) -> z3.BitVecNumRef:
        """The mask of one digit."""
        return z3.BitVecVal(1 << (digit - 1), self.n)

    def holds_one_digit(self, cell):
        x = self.vars[cell]
        return [x != 0, x & (x - 1) == 0]  # not empty, and a power of two: one bit

    def each_digit_once(self, unit):
        xs = [self.vars[c] for c in unit]
        union = xs[0]
        for x in xs[1:]:
            union = union | x
        # The full union says "at least once"; disjoint pairs say "at most once".
        return [union == (1 << self.n) - 1] + [x & y == 0 for x, y in combinations(xs, 2)]

    def differ(self, a, b):
        return [self.vars[a] & self.vars[b] == 0]

    def not_consecutive(self, a, b):
        x, y = self.vars[a], self.vars[b]
        return [(x << 1) & y == 0, (y << 1) & x == 0]  # neighbouring bits never meet

    def parity(self, cell, even):
        odd_digits = sum(1 << (d - 1) for d in range(1, self.n + 1, 2))
        wrong = odd_digits if even else ((1 << self.n) - 1) ^ odd_digits
        return [self.vars[cell] & wrong == 0]

    def is_digit(self, cell, digit):
        return self.vars[cell] == self.bit(digit)

    def digit_term(self, cell):
        x = self.vars[cell]
        return self.first_digit([z3.Extract(d, d, x) == 1 for d in range(self.n)])


@lru_cache(maxsize=1024)
def gap_fits(size: int, total: int, n: int) -> bool:
    """Whether `size` distinct digits of 2..N-1 can add up to `total` (every total between
    the smallest and the largest such sum can)."""
    if size > n - 2:
        return False
    return sum(range(2, size + 2)) <= total <= sum(range(n - size, n))


KINDS: dict[str, type[CellModel]] = {m.name: m for m in (BoolModel, BitVecModel, IntModel)}


def model_class(model: str) -> type[CellModel]:
    """The class of a model name; ValueError naming the models if unknown."""
    if model not in KINDS:
        raise ValueError(f"unknown SMT model {model!r}; models: {', '.join(MODELS)}")
    return KINDS[model]


def unsupported(rules: Iterable[R.Rule], model: str) -> list[str]:
    """The names of the rules that a model cannot express."""
    expressible = model_class(model).rules
    return sorted({rule.name for rule in rules if not isinstance(rule, expressible)})


def build(geo: Geometry, model: str = "bool", portable: bool = False) -> CellModel:
    """The assertions of a shape and rule set in one of the MODELS (givens not included).

    ValueError if the model cannot express one of the rules.
    """
    missing = unsupported(geo.rules, model)
    if missing:
        raise ValueError(f"the {model} model cannot express rule(s): {', '.join(missing)}")
    return model_class(model)(geo, portable)


def to_smt2(puzzle: Puzzle, model: str = "bool") -> str:
    """A complete SMT-LIB 2 script for the puzzle, in standard SMT-LIB any solver reads.

    ValueError if the model cannot express a rule of the puzzle.
    """
    m = build(geometry(puzzle.box, puzzle.rules), model, portable=True)
    n = puzzle.n
    rules = R.listed(puzzle.rules)
    lines = [f"; sudokulab: a {n}x{n} puzzle ({rules}), {model} model: a cell is {m.kind}",
             f"; {puzzle.clues} givens: {puzzle}",
             "(set-option :produce-models true)",
             f"(set-logic {m.logic})"]
    lines += [_declaration(v) for v in _variables(m)]
    for group, assertions in list(m.groups.items()) + [("givens", m.givens(puzzle))]:
        lines.append(f"; {group}: {len(assertions)} assertion(s)")
        lines += [f"(assert {a.sexpr()})" for a in assertions]
    lines += ["(check-sat)", "(get-model)"]
    return "\n".join(lines) + "\n"


def _variables(m: CellModel) -> list[z3.ExprRef]:
    """The cell variables in cell order (and digit order for the bool model), then the
    bool model's cage selectors."""
    return ([v for cell in m.vars for v in (cell if isinstance(cell, list) else [cell])]
            + getattr(m, "selectors", []))


def _declaration(var: z3.ExprRef) -> str:
    """`(declare-fun name () Sort)`: the SMT-LIB 2.0 form every solver reads."""
    return f"(declare-fun {var.decl().name()} () {var.sort().sexpr()})"
