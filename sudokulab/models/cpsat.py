"""CP-SAT models of a puzzle (OR-Tools), for the cpsat backend and its teaching view.

Two ways to say what a cell holds, each compiling the same geometry:
- `int`: one integer variable per cell in 1..N, `AddAllDifferent` per unit: the textbook
  constraint-programming model, with CP-SAT's native constraints for the variants
  (`!=` for chess moves, a difference outside -1..1 for non-consecutive neighbours, a
  linear sum for a cage, a domain of even or odd digits for parity).
- `bool`: one Boolean per (cell, digit), "r1c1_5" meaning row 1, column 1 holds 5; a cell
  holds exactly one digit and a unit holds each digit exactly once (`AddExactlyOne`, which
  CP-SAT's SAT core propagates natively), the variants as clauses, at-most-ones and a
  weighted sum for cages.

The givens are no part of a model: a model is built once per shape and rule set and
reused, and the backend fixes the givens' variables per puzzle (see `givens`). This module
builds models and never solves them: the backend owns the solver (OR-Tools ships the
model and its solver in one package, so only this split keeps them apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ortools.sat.python import cp_model
from ortools.util.python import sorted_interval_list

from sudokulab import rules as R
from sudokulab.cages import implied_cages
from sudokulab.geometry import (
    DigitRelation,
    Geometry,
    Sum,
    forbidden_pairs,
    relation_text,
)

MODELS = ("bool", "int")
RULES = R.RULE_TYPES  # every rule there is, in both models

Constraint = tuple[str, tuple[int, ...], str]  # kind, cells, detail: for people, not CP-SAT


class CellModel:
    """A CpModel of a shape and rule set; what it posts is also noted, grouped by rule.

    A subclass says how a cell holds a digit; this class walks the geometry.
    """

    name: ClassVar[str]
    kind: ClassVar[str]  # what one cell is, for people ({n}: N)

    def __init__(self, geo: Geometry) -> None:
        self.geo, self.n = geo, geo.n
        self.model = cp_model.CpModel()
        self.groups: dict[str, list[Constraint]] = {}
        self.literals: dict[tuple[int, int], cp_model.IntVar] = {}  # int model: x == d
        self.declare()
        self.compile()

    def declare(self) -> None:
        """Create the cell variables, `self.vars`, indexed by cell."""
        raise NotImplementedError

    def compile(self) -> None:
        """Every constraint the geometry and rules call for, grouped by rule."""
        geo = self.geo
        self.cells_hold_one_digit()
        for unit in geo.units:
            self.each_digit_once(unit.group, unit)
        for relation in geo.relations:
            for a, b in relation.pairs:
                if relation.differ:
                    self.differ(relation.rule.name, a, b)
                else:
                    self.not_consecutive(a, b)
        for rule in geo.rules:
            if isinstance(rule, R.Cage):
                self.cage(geo.indices(rule.cells), rule.total)
            elif isinstance(rule, R.Parity):
                for cell in rule.cells:
                    self.parity(geo.cell(*cell), rule.even)
        # Redundant but strong: each unit's cells outside its cages sum to what is left of
        # 45 (sudokulab/cages.py); CP-SAT's conflicts on hard killers fell 4-fold.
        for cage in implied_cages(geo) if geo.cages else ():
            self.cage(geo.indices(cage.cells), cage.total, "implied cages")
        for rel in geo.digit_relations:
            self.relate(rel)
        for name, cells in geo.groups:
            self.all_differ(name, list(cells))
        for total in geo.sums:
            self.add_up(total)
        for line, clue in geo.sandwiches:
            self.sandwich(line, clue)

    def note(self, group: str, kind: str, cells: Sequence[int], detail: str = "") -> None:
        """Record a constraint posted for a rule (for the teaching view)."""
        self.groups.setdefault(group, []).append((kind, tuple(cells), detail))

    def digits(self, even: bool | None = None) -> list[int]:
        """1..N, or only its even (odd) digits."""
        return [d for d in range(1, self.n + 1) if even is None or (d % 2 == 0) == even]

    # --- what each model says in its own terms -------------------------------------

    def cells_hold_one_digit(self) -> None:
        """Each cell holds exactly one digit of 1..N."""
        raise NotImplementedError

    def each_digit_once(self, group: str, unit: Sequence[int]) -> None:
        """N cells hold every digit once."""
        raise NotImplementedError

    def differ(self, group: str, a: int, b: int) -> None:
        """Two cells hold different digits."""
        raise NotImplementedError

    def not_consecutive(self, a: int, b: int) -> None:
        """Two cells do not hold consecutive digits."""
        raise NotImplementedError

    def cage(self, cells: list[int], total: int, group: str = "cages") -> None:
        """The digits of a cage differ and add up to `total` (noted under `group`)."""
        raise NotImplementedError

    def parity(self, cell: int, even: bool) -> None:
        """A cell holds an even (or odd) digit."""
        raise NotImplementedError

    def relate(self, rel: DigitRelation) -> None:
        """Two cells' digits satisfy a pair relation (a thermometer step, a dot, ...)."""
        raise NotImplementedError

    def all_differ(self, group: str, cells: list[int]) -> None:
        """Some cells hold different digits (a cage without sum, a region, a renban)."""
        raise NotImplementedError

    def add_up(self, total: Sum) -> None:
        """Cells add up to a total, or to the digit of a circle cell (an arrow)."""
        raise NotImplementedError

    def value(self, cell: int):
        """The digit of a cell as a linear expression."""
        raise NotImplementedError

    def holds(self, cell: int, digit: int):
        """A literal true when the cell holds the digit."""
        raise NotImplementedError

    def sandwich(self, line: tuple[int, ...], total: int) -> None:
        """The digits between the 1 and the N add up to `total`: the places of 1 and N, their
        minimum and maximum, and per cell a literal 'between' that lets its digit count."""
        m, size = self.model, len(line)
        one, top = m.new_int_var(0, size - 1, ""), m.new_int_var(0, size - 1, "")
        m.add(one == sum(k * self.holds(c, 1) for k, c in enumerate(line)))
        m.add(top == sum(k * self.holds(c, self.n) for k, c in enumerate(line)))
        low, high = m.new_int_var(0, size - 1, ""), m.new_int_var(0, size - 1, "")
        m.add_min_equality(low, [one, top])
        m.add_max_equality(high, [one, top])
        terms = []
        for k, cell in enumerate(line):
            after, before, inside = (m.new_bool_var("") for _ in range(3))
            m.add(low < k).only_enforce_if(after)
            m.add(low >= k).only_enforce_if(after.negated())
            m.add(high > k).only_enforce_if(before)
            m.add(high <= k).only_enforce_if(before.negated())
            m.add_bool_and([after, before]).only_enforce_if(inside)
            m.add_bool_or([after.negated(), before.negated()]).only_enforce_if(inside.negated())
            term = m.new_int_var(0, self.n, "")
            m.add(term == self.value(cell)).only_enforce_if(inside)
            m.add(term == 0).only_enforce_if(inside.negated())
            terms.append(term)
        m.add(sum(terms) == total)
        self.note("sandwich", "Sum", line, f"of the digits between 1 and N == {total}")

    def given(self, cell: int, digit: int) -> int:
        """The index of the variable a given fixes: the cell's integer, or its literal
        for the digit."""
        raise NotImplementedError

    def given_value(self, digit: int) -> int:
        """The value a given fixes its variable to."""
        raise NotImplementedError

    def read(self, values: Sequence[int]) -> tuple[int, ...]:
        """The grid in a solution's values (CP-SAT's response lists every variable)."""
        raise NotImplementedError

    # --- givens and size --------------------------------------------------------------

    def givens(self, grid: Sequence[int]) -> list[tuple[int, int]]:
        """(variable index, value) for each given cell of a grid (0 = blank)."""
        return [(self.given(cell, d), self.given_value(d)) for cell, d in enumerate(grid) if d]

    def size(self) -> dict[str, int]:
        """The model's size as CP-SAT counts it: variables and constraints."""
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints)}


class IntModel(CellModel):
    """Integer cells in 1..N; a unit is AddAllDifferent (the textbook model)."""

    name, kind = "int", "an integer variable in 1..{n}"

    def declare(self) -> None:
        """One IntVar per cell, named r1c1: variable index = cell index."""
        self.vars = [self.model.new_int_var(1, self.n, self.geo.name(cell))
                      for cell in self.geo.cells]

    def cells_hold_one_digit(self):
        pass  # an integer in 1..N holds one digit by construction

    def each_digit_once(self, group, unit):
        self.model.add_all_different([self.vars[c] for c in unit])
        self.note(group, "AllDifferent", unit)

    def differ(self, group, a, b):
        self.model.add(self.vars[a] != self.vars[b])
        self.note(group, "!=", (a, b))

    def not_consecutive(self, a, b):
        # a - b outside -1..1, as one linear expression in a domain: no auxiliary
        # variable (AddAbsEquality would need one per pair for |a - b|).
        far = sorted_interval_list.Domain.from_intervals([[1 - self.n, -2], [2, self.n - 1]])
        self.model.add_linear_expression_in_domain(self.vars[a] - self.vars[b], far)
        self.note("non-consecutive", "LinearInDomain", (a, b), "a - b in [-(N-1),-2] u [2,N-1]")

    def cage(self, cells, total, group="cages"):
        xs = [self.vars[c] for c in cells]
        self.model.add_all_different(xs)
        self.model.add(sum(xs) == total)
        self.note(group, "AllDifferent", cells)
        self.note(group, "Sum", cells, f"== {total}")

    def parity(self, cell, even):
        digits = self.digits(even)
        proto = self.model.proto.variables[self.vars[cell].index]
        proto.domain.clear()
        for d in digits:  # a domain of single values: [2, 2, 4, 4, ...]
            proto.domain.extend([d, d])
        self.note("parity", "domain", (cell,), "{" + ",".join(map(str, digits)) + "}")

    def relate(self, rel):
        n = self.n
        allowed = [(x, y) for x in range(1, n + 1) for y in range(1, n + 1)
                   if (x, y) not in set(forbidden_pairs(rel.kind, rel.param, n))]
        self.model.add_allowed_assignments([self.vars[rel.a], self.vars[rel.b]], allowed)
        self.note(rel.rule, "AllowedAssignments", (rel.a, rel.b),
                  f"{rel.kind}: {relation_text(rel)}")

    def all_differ(self, group, cells):
        self.model.add_all_different([self.vars[c] for c in cells])
        self.note(group, "AllDifferent", cells)

    def add_up(self, total):
        target = self.vars[total.circle] if total.circle >= 0 else total.total
        self.model.add(sum(self.vars[c] for c in total.cells) == target)
        self.note(total.rule, "Sum", total.cells,
                  f"== {self.geo.name(total.circle) if total.circle >= 0 else total.total}")

    def value(self, cell):
        return self.vars[cell]

    def holds(self, cell, digit):
        key = (cell, digit)
        if key not in self.literals:
            lit = self.literals[key] = self.model.new_bool_var("")
            self.model.add(self.vars[cell] == digit).only_enforce_if(lit)
            self.model.add(self.vars[cell] != digit).only_enforce_if(lit.negated())
        return self.literals[key]

    def given(self, cell, digit):
        return cell

    def given_value(self, digit):
        return digit

    def read(self, values):
        return tuple(values[: len(self.geo.cells)])


class BoolModel(CellModel):
    """One Boolean per (cell, digit); exactly-one constraints for cells and units."""

    name, kind = "bool", "{n} Booleans, r1c1_d meaning 'holds d'"

    def declare(self) -> None:
        """cells[cell][d - 1] says the cell holds d: variable index = cell * N + d - 1."""
        self.vars = [[self.model.new_bool_var(f"{self.geo.name(cell)}_{d}")
                       for d in range(1, self.n + 1)] for cell in self.geo.cells]

    def cells_hold_one_digit(self):
        for cell, literals in enumerate(self.vars):
            self.model.add_exactly_one(literals)
            self.note("cells", "ExactlyOne", (cell,), "over its N digits")

    def each_digit_once(self, group, unit):
        for d in range(self.n):
            self.model.add_exactly_one([self.vars[c][d] for c in unit])
        self.note(group, f"ExactlyOne x{self.n}", unit, "one per digit")

    def differ(self, group, a, b):
        for x, y in zip(self.vars[a], self.vars[b]):
            self.model.add_bool_or([x.negated(), y.negated()])
        self.note(group, f"clauses x{self.n}", (a, b), "not (a_d and b_d)")

    def not_consecutive(self, a, b):
        x, y = self.vars[a], self.vars[b]
        for d in range(self.n - 1):
            self.model.add_bool_or([x[d].negated(), y[d + 1].negated()])
            self.model.add_bool_or([x[d + 1].negated(), y[d].negated()])
        self.note("non-consecutive", f"clauses x{2 * (self.n - 1)}", (a, b),
                  "not (a_d and b_d+1), not (a_d+1 and b_d)")

    def cage(self, cells, total, group="cages"):
        for d in range(self.n):
            self.model.add_at_most_one([self.vars[c][d] for c in cells])
        weighted = [(d + 1) * self.vars[c][d] for c in cells for d in range(self.n)]
        self.model.add(sum(weighted) == total)
        self.note(group, f"AtMostOne x{self.n}", cells, "one per digit")
        self.note(group, "Sum", cells, f"of d * cell_d == {total}")

    def parity(self, cell, even):
        wrong = self.digits(not even)
        for d in wrong:  # the literal's domain becomes {0}
            proto = self.model.proto.variables[self.vars[cell][d - 1].index]
            proto.domain.clear()
            proto.domain.extend([0, 0])
        self.note("parity", "domain", (cell,), f"{{0}} for digits {','.join(map(str, wrong))}")

    def relate(self, rel):
        x, y = self.vars[rel.a], self.vars[rel.b]
        pairs = forbidden_pairs(rel.kind, rel.param, self.n)
        for d, e in pairs:
            self.model.add_bool_or([x[d - 1].negated(), y[e - 1].negated()])
        self.note(rel.rule, f"clauses x{len(pairs)}", (rel.a, rel.b),
                  f"not (a_d and b_e) where not {relation_text(rel)}")

    def all_differ(self, group, cells):
        for d in range(self.n):
            self.model.add_at_most_one([self.vars[c][d] for c in cells])
        self.note(group, f"AtMostOne x{self.n}", cells, "one per digit")

    def add_up(self, total):
        weighted = [(d + 1) * self.vars[c][d] for c in total.cells for d in range(self.n)]
        if total.circle >= 0:
            circle = [(d + 1) * self.vars[total.circle][d] for d in range(self.n)]
            self.model.add(sum(weighted) == sum(circle))
        else:
            self.model.add(sum(weighted) == total.total)
        target = self.geo.name(total.circle) if total.circle >= 0 else total.total
        self.note(total.rule, "Sum", total.cells, f"of d * cell_d == {target}")

    def value(self, cell):
        return sum((d + 1) * lit for d, lit in enumerate(self.vars[cell]))

    def holds(self, cell, digit):
        return self.vars[cell][digit - 1]

    def given(self, cell, digit):
        return cell * self.n + digit - 1

    def given_value(self, digit):
        return 1

    def read(self, values):
        n = self.n
        return tuple(values[cell * n: cell * n + n].index(1) + 1 for cell in self.geo.cells)


KINDS: dict[str, type[CellModel]] = {m.name: m for m in (BoolModel, IntModel)}


def build(geo: Geometry, model: str = "bool") -> CellModel:
    """The CP-SAT model of a shape and rule set (givens not included)."""
    if model not in KINDS:
        raise ValueError(f"unknown CP-SAT model {model!r}; models: {', '.join(MODELS)}")
    return KINDS[model](geo)
