"""A 0-1 integer program of a puzzle, for HiGHS (the milp backend) and as an LP file.

One binary x(cell, d) per cell and digit, "r1c1_5" meaning row 1, column 1 holds 5, and
no objective: any feasible point is a solution. Each rule becomes linear rows, as the
Boolean CP-SAT model (models/cpsat.py) posts it:
- a cell holds one digit: sum_d x(c, d) = 1; a unit holds each digit once:
  sum_{c in unit} x(c, d) = 1 for each d;
- cells that differ (chess moves): x(a, d) + x(b, d) <= 1, unless a unit holds both
  (the Miracle's rows fall from 7,098 to 4,500, and HiGHS presolves each part faster);
  not consecutive: x(a, d) + x(b, d+1) <= 1 and x(a, d+1) + x(b, d) <= 1;
- a cage: at most one cell per digit, and sum d * x(c, d) = total (the cages it implies,
  sudokulab/cages.py, too, as CP-SAT gets them); a group of cells that differ: at most one
  per digit; parity: the wrong digits' binaries get an upper bound of 0;
- a pair relation (thermometer, dots, whispers, ...): x(a, d) + x(b, e) <= 1 for each
  pair of digits (d, e) it rules out;
- an arrow or little killer: sum d * x(c, d) over its cells = the total (or the circle's
  sum d * x(circle, d));
- a sandwich line c_0..c_{N-1}: u_k = sum_{j<=k} x(c_j, 1) and v_k = the same for N are
  0 or 1 (a line is a unit); w_k = u_k xor v_k (four rows) says position k lies between
  the 1 and the N, or on one of them; cell k is strictly between when w_{k-1} and w_k;
  z(k, d) = w_{k-1} and w_k and x(c_k, d) (four rows), and sum d * z(k, d) = total.

The givens are no part of the model: the backend raises their binaries' lower bounds to 1
per puzzle and puts them back, so one model of a shape and rule set serves every puzzle.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache

from sudokulab import rules as R
from sudokulab.cages import implied_cages
from sudokulab.errors import descriptor_to
from sudokulab.geometry import Geometry, forbidden_pairs
from sudokulab.puzzle import Puzzle

RULES = R.RULE_TYPES  # every rule there is


@dataclass
class Program:
    """A 0-1 program: binaries with their upper bounds, and rows lo <= a.x <= hi by rule."""

    geo: Geometry
    names: list[str] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)
    rows: list[tuple[list[int], list[float], float, float]] = field(default_factory=list)
    groups: dict[str, int] = field(default_factory=dict)  # rows per part of the rules

    @property
    def n(self) -> int:
        """N, the number of digits."""
        return self.geo.n

    def x(self, cell: int, digit: int) -> int:
        """The column of 'the cell holds digit': cell * N + digit - 1."""
        return cell * self.n + digit - 1

    def binary(self, name: str) -> int:
        """A new auxiliary binary's column."""
        self.names.append(name)
        self.upper.append(1.0)
        return len(self.names) - 1

    def row(self, group: str, terms: dict[int, float], lo: float, hi: float) -> None:
        """Post lo <= sum coef * column <= hi, counted under `group`."""
        self.rows.append((list(terms), list(terms.values()), lo, hi))
        self.groups[group] = self.groups.get(group, 0) + 1

    def at_most_one_each(self, group: str, cells) -> None:
        """Each digit at most once among the cells."""
        for d in range(1, self.n + 1):
            self.row(group, {self.x(c, d): 1.0 for c in cells}, 0, 1)

    def weighted(self, cells, sign: float = 1.0) -> dict[int, float]:
        """sum d * x(c, d) over the cells, as terms."""
        return {self.x(c, d): sign * d for c in cells for d in range(1, self.n + 1)}

    def read(self, values) -> tuple[int, ...]:
        """The grid of a solution's column values."""
        n = self.n
        return tuple(max(range(n), key=lambda d: values[cell * n + d]) + 1
                     for cell in self.geo.cells)


def build(geo: Geometry) -> Program:
    """The 0-1 program of a shape and rule set (givens not included)."""
    program = Program(geo)
    n = geo.n
    for cell in geo.cells:
        for d in range(1, n + 1):
            program.names.append(f"{geo.name(cell)}_{d}")
            program.upper.append(1.0)
    for cell in geo.cells:
        program.row("cells", {program.x(cell, d): 1.0 for d in range(1, n + 1)}, 1, 1)
    for unit in geo.units:
        for d in range(1, n + 1):
            program.row(unit.group, {program.x(c, d): 1.0 for c in unit}, 1, 1)
    for relation in geo.relations:
        if relation.differ:
            for a, b in geo.beyond_units(relation.pairs):
                for d in range(1, n + 1):
                    program.row(relation.rule.name, {program.x(a, d): 1, program.x(b, d): 1},
                                0, 1)
            continue
        for a, b in relation.pairs:
            for d in range(1, n):
                program.row("non-consecutive", {program.x(a, d): 1, program.x(b, d + 1): 1},
                            0, 1)
                program.row("non-consecutive", {program.x(a, d + 1): 1, program.x(b, d): 1},
                            0, 1)
    cages = [(geo.indices(rule.cells), rule.total, "cages") for rule in geo.cages]
    cages += [(geo.indices(cage.cells), cage.total, "implied cages")
              for cage in (implied_cages(geo) if geo.cages else ())]
    for cage_cells, cage_total, group in cages:
        program.at_most_one_each(group, cage_cells)
        program.row(group, program.weighted(cage_cells), cage_total, cage_total)
    for rule in geo.rules:
        if isinstance(rule, R.Parity):
            for cell in geo.indices(rule.cells):
                for d in range(1, n + 1):
                    if (d % 2 == 0) != rule.even:
                        program.upper[program.x(cell, d)] = 0.0
    for rel in geo.digit_relations:
        for d, e in forbidden_pairs(rel.kind, rel.param, n):
            program.row(rel.rule, {program.x(rel.a, d): 1, program.x(rel.b, e): 1}, 0, 1)
    for group, cells in geo.groups:
        program.at_most_one_each(group, cells)
    for total in geo.sums:
        terms = program.weighted(total.cells)
        if total.circle >= 0:
            for column, coef in program.weighted([total.circle], -1.0).items():
                terms[column] = terms.get(column, 0.0) + coef
            program.row(total.rule, terms, 0, 0)
        else:
            program.row(total.rule, terms, total.total, total.total)
    for number, (line, clue) in enumerate(geo.sandwiches):
        _sandwich(program, number, line, clue)
    return program


def _sandwich(program: Program, number: int, line: tuple[int, ...], total: int) -> None:
    """The rows of one sandwich line (see the module docstring)."""
    n, x = program.n, program.x
    w = []
    for k in range(len(line)):
        u = {x(c, 1): 1.0 for c in line[:k + 1]}
        v = {x(c, n): 1.0 for c in line[:k + 1]}
        wk = program.binary(f"sandwich{number + 1}_w{k}")
        w.append(wk)
        minus = {**u, **{col: -1.0 for col in v}}  # u - v (their columns differ)
        program.row("sandwich", {wk: 1.0, **{c: -a for c, a in minus.items()}}, 0, 2)
        program.row("sandwich", {wk: 1.0, **minus}, 0, 2)
        program.row("sandwich", {wk: 1.0, **{c: -1.0 for c in {**u, **v}}}, -2, 0)
        program.row("sandwich", {wk: 1.0, **{c: 1.0 for c in {**u, **v}}}, -2, 2)
    terms: dict[int, float] = {}
    for k in range(1, len(line)):
        for d in range(1, n + 1):
            z = program.binary(f"sandwich{number + 1}_z{k}_{d}")
            cell = x(line[k], d)
            for bound in (w[k - 1], w[k], cell):
                program.row("sandwich", {z: 1.0, bound: -1.0}, -1, 0)
            program.row("sandwich", {z: 1.0, w[k - 1]: -1.0, w[k]: -1.0, cell: -1.0}, -2, 1)
            terms[z] = float(d)
    program.row("sandwich", terms, total, total)


@cache
def _banner_shown() -> bool:
    """Construct one Highs with fd 1 pointing nowhere: HiGHS prints its copyright banner
    to stdout on the first construction in a process, which would break `--format json`."""
    import highspy

    with open(os.devnull, "w") as null, descriptor_to(1, null.fileno()):
        highspy.Highs()
    return True


def load(program: Program):
    """A quiet HiGHS instance holding the program (binaries, rows, no objective)."""
    import highspy
    import numpy as np

    _banner_shown()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    # `threads` stays at its default: one thread made a 4x4 count (289 solves) 2.3 times
    # faster, but HiGHS's thread pool is one per process, and any other Highs (an LP file
    # read back, CPMpy's highs) then made this one's solves fail with status 'Not Set'.
    count = len(program.names)
    h.addVars(count, np.zeros(count), np.array(program.upper))
    h.changeColsIntegrality(count, np.arange(count, dtype=np.int32),
                            np.full(count, highspy.HighsVarType.kInteger))
    lower = np.array([lo for *_, lo, _ in program.rows], dtype=float)
    upper = np.array([hi for *_, hi in program.rows], dtype=float)
    starts: list[int] = []
    index: list[int] = []
    value: list[float] = []
    for columns, coefs, _, _ in program.rows:
        starts.append(len(index))
        index += columns
        value += coefs
    h.addRows(len(program.rows), lower, upper, len(index), np.array(starts, dtype=np.int32),
              np.array(index, dtype=np.int32), np.array(value, dtype=float))
    for column, name in enumerate(program.names):
        h.passColName(column, name)
    return h


def to_lp(puzzle: Puzzle) -> str:
    """The puzzle's program in CPLEX LP format, its givens as bounds (HiGHS writes it)."""
    import tempfile

    from sudokulab.geometry import geometry

    program = build(geometry(puzzle.box, puzzle.rules, puzzle.layout))
    h = load(program)
    for cell, d in enumerate(puzzle.givens):
        if d:
            h.changeColBounds(program.x(cell, d), 1.0, 1.0)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sudoku.lp")
        h.writeModel(path)
        with open(path, encoding="utf-8") as text:
            body = text.read()
    where = "" if puzzle.layout is None else " of the board"
    return (f"\\ sudokulab: {puzzle.shape} as a 0-1 program; x r1c1_5 = 1 means row 1, "
            f"column 1{where} holds 5; solve with: highs this.lp\n{body}")
