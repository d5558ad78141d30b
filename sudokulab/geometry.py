"""Cells, units and peers of a box shape and rule set, derived once and shared by backends.

Cells are numbered row-major from 0: cell = row * N + col. A *unit* is a group of N
cells that holds every digit exactly once (row, column, box, and the diagonals,
windows or jigsaw regions a rule adds). Two cells are *peers* when the rules make
them differ: they share a unit, a cage, or a chess move of an anti-knight or
anti-king rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import compress

from sudokulab import rules as R
from sudokulab.puzzle import PuzzleError


@dataclass(frozen=True)
class DigitRelation:
    """Two cells whose digits a rule relates; `kind` names how (see `related`)."""

    rule: str
    kind: str
    a: int
    b: int
    param: int = 0


@dataclass(frozen=True)
class Sum:
    """Cells whose digits (repeats allowed) add up to `total`, or, when `circle` is a cell,
    to that cell's digit (an arrow)."""

    rule: str
    cells: tuple[int, ...]
    total: int = 0
    circle: int = -1


RELATIONS = {
    "less": "a < b",
    "equal": "a = b",
    "white": "|a - b| = 1",
    "black": "a = 2b or b = 2a",
    "no-dot": "|a - b| != 1 and a != 2b and b != 2a",
    "apart": "|a - b| != 1",
    "x": "a + b = 10",
    "v": "a + b = 5",
    "no-xv": "a + b != 5 and a + b != 10",
    "far": "|a - b| >= k",
    "near": "|a - b| <= k",
}


def related(kind: str, param: int, x: int, y: int) -> bool:
    """Whether digits x and y satisfy a relation (`RELATIONS` says each in words)."""
    if kind == "less":
        return x < y
    if kind == "equal":
        return x == y
    if kind == "white":
        return abs(x - y) == 1
    if kind == "black":
        return x == 2 * y or y == 2 * x
    if kind == "no-dot":
        return abs(x - y) != 1 and x != 2 * y and y != 2 * x
    if kind == "apart":
        return abs(x - y) != 1
    if kind == "x":
        return x + y == 10
    if kind == "v":
        return x + y == 5
    if kind == "no-xv":
        return x + y not in (5, 10)
    if kind == "far":
        return abs(x - y) >= param
    if kind == "near":
        return abs(x - y) <= param
    raise ValueError(f"unknown relation {kind!r}")


def relation_text(rel: DigitRelation) -> str:
    """A relation in words, with its parameter: '|a - b| >= 5'."""
    return RELATIONS[rel.kind].replace("k", str(rel.param))


@lru_cache(maxsize=256)
def forbidden_pairs(kind: str, param: int, n: int) -> tuple[tuple[int, int], ...]:
    """The digit pairs (x, y) of 1..n that a relation rules out."""
    return tuple((x, y) for x in range(1, n + 1) for y in range(1, n + 1)
                 if not related(kind, param, x, y))


@dataclass(frozen=True)
class Geometry:
    """The derived structure of a box shape under a rule set."""

    box: tuple[int, int]
    rules: tuple[R.Rule, ...]
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]
    units_of: tuple[tuple[tuple[int, ...], ...], ...]
    peers: tuple[tuple[int, ...], ...]
    moves: tuple[tuple[int, int], ...] = field(default=())
    cages: tuple[R.Cage, ...] = field(default=())
    digit_relations: tuple[DigitRelation, ...] = field(default=())
    groups: tuple[tuple[str, tuple[int, ...]], ...] = field(default=())  # (rule, cells) differ
    sums: tuple[Sum, ...] = field(default=())
    sandwiches: tuple[tuple[tuple[int, ...], int], ...] = field(default=())  # (line, total)

    @property
    def n(self) -> int:
        """N, the number of digits."""
        return self.box[0] * self.box[1]

    @property
    def cells(self) -> range:
        """Every cell index."""
        return range(self.n * self.n)

    def cell(self, row: int, col: int) -> int:
        """The index of the cell at (row, col), counted from 0."""
        return row * self.n + col

    def name(self, cell: int) -> str:
        """The r1c1 name of a cell index."""
        return R.cell_name(divmod(cell, self.n))

    @cached_property
    def unit_keys(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, a key per unit it lies in: the unit's index times (N + 1)."""
        index = {unit: k * (self.n + 1) for k, unit in enumerate(self.units)}
        return tuple(tuple(index[unit] for unit in units) for units in self.units_of)

    def clash_free(self, values: tuple[int, ...]) -> bool:
        """Whether no two filled cells that must differ hold the same digit (0 = blank)."""
        # A digit seen twice in one unit gives one (unit, digit) key twice.
        keys = [key + d for d, cell_keys in compress(zip(values, self.unit_keys), values)
                for key in cell_keys]
        if len(keys) != len(set(keys)):
            return False
        if not (self.moves or self.cages or self.groups):
            return True
        peers = self.peers
        return not any(d and values[peer] == d for cell, d in enumerate(values)
                       for peer in peers[cell])

    def share_unit(self, a: int, b: int) -> bool:
        """Whether some unit holds both cells (so they differ without any pairwise rule)."""
        return any(b in unit for unit in self.units_of[a])

    def why_peers(self, a: int, b: int) -> str:
        """The first unit or rule that makes two cells differ."""
        for unit, name in zip(self.units, self.unit_names):
            if a in unit and b in unit:
                return name
        for cage in self.cages:
            cells = {self.cell(*c) for c in cage.cells}
            if a in cells and b in cells:
                return f"cage of {cage.total}"
        for rule, cells in self.groups:
            if a in cells and b in cells:
                return rule
        return "a chess move apart"


@lru_cache(maxsize=64)
def geometry(box: tuple[int, int], rules: tuple[R.Rule, ...] = ()) -> Geometry:
    """The geometry of a box shape and rule set (cached: backends share it)."""
    n = box[0] * box[1]
    named = _classic_units(box, rules) + _rule_units(box, rules)
    units = tuple(unit for _, unit in named)
    moves = _moves(n, rules)
    cages = tuple(rule for rule in rules if isinstance(rule, R.Cage))
    for cage in cages:
        _check_cells(cage.cells, n, f"cage of {cage.total}")
    for rule in rules:
        problem = R.rule_problem(rule, n)
        if problem:
            raise PuzzleError(f"{rule.name}: {problem}")
    relations, groups, sums = _lines(n, rules)
    units += tuple(cells for _, cells in groups if len(cells) == n)
    named += [(f"extra region {k + 1}", cells)
              for k, cells in enumerate(c for _, c in groups if len(c) == n)]
    groups = tuple((rule, cells) for rule, cells in groups if len(cells) < n)
    units_of = tuple(tuple(u for u in units if cell in u) for cell in range(n * n))
    peers = [set() for _ in range(n * n)]
    for group in list(units) + [[_index(c, n) for c in cage.cells] for cage in cages] \
            + [cells for _, cells in groups]:
        for cell in group:
            peers[cell].update(group)
    for a, b in moves:
        peers[a].add(b)
        peers[b].add(a)
    return Geometry(
        box=box, rules=rules, units=units, unit_names=tuple(name for name, _ in named),
        units_of=units_of,
        peers=tuple(tuple(sorted(p - {cell})) for cell, p in enumerate(peers)),
        moves=moves, cages=cages, digit_relations=relations, groups=groups, sums=sums,
        sandwiches=tuple((tuple(_index(c, n) for c in rule.line(n)), rule.total)
                         for rule in rules if isinstance(rule, R.Sandwich)),
    )


def _lines(n: int, rules: tuple[R.Rule, ...]) -> tuple[tuple, tuple, tuple]:
    """The pair relations, groups of cells that differ, and sums of the line and dot rules."""
    relations: list[DigitRelation] = []
    groups: list[tuple[str, tuple[int, ...]]] = []
    sums: list[Sum] = []
    for rule in rules:
        cells = tuple(_index(c, n) for c in getattr(rule, "cells", ()))
        name = rule.name
        if isinstance(rule, R.Thermometer):
            relations += [DigitRelation(name, "less", a, b) for a, b in zip(cells, cells[1:])]
        elif isinstance(rule, R.Whispers):
            relations += [DigitRelation(name, "far", a, b, (n + 1) // 2)
                          for a, b in zip(cells, cells[1:])]
        elif isinstance(rule, R.Palindrome):
            relations += [DigitRelation(name, "equal", a, b)
                          for a, b in zip(cells[:len(cells) // 2], reversed(cells))]
        elif isinstance(rule, R.Renban):
            groups.append((name, cells))
            relations += [DigitRelation(name, "near", a, b, len(cells) - 1)
                          for k, a in enumerate(cells) for b in cells[k + 1:]]
        elif isinstance(rule, (R.SumlessCage, R.ExtraRegion)):
            groups.append((name, cells))
        elif isinstance(rule, R.Arrow):
            sums.append(Sum(name, cells[1:], circle=cells[0]))
        elif isinstance(rule, R.LittleKiller):
            sums.append(Sum(name, cells, total=rule.total))
        elif isinstance(rule, R.ConsecutiveMarks):
            marked = {tuple(sorted((_index(a, n), _index(b, n)))) for a, b in rule.pairs}
            relations += [DigitRelation(name, "white" if pair in marked else "apart", *pair)
                          for pair in orthogonal_pairs(n)]
        elif isinstance(rule, (R.Kropki, R.XV)):
            first, second = ("white", "black") if isinstance(rule, R.Kropki) else ("x", "v")
            marked = set()
            for kind in (first, second):
                for a, b in getattr(rule, kind):
                    pair = tuple(sorted((_index(a, n), _index(b, n))))
                    marked.add(pair)
                    relations.append(DigitRelation(name, kind, *pair))
            if rule.negative:
                kind = "no-dot" if isinstance(rule, R.Kropki) else "no-xv"
                relations += [DigitRelation(name, kind, a, b) for a, b in orthogonal_pairs(n)
                              if (a, b) not in marked]
    return tuple(relations), tuple(groups), tuple(sums)


def _index(cell: R.Cell, n: int) -> int:
    """Row-major index of a (row, col) cell."""
    return cell[0] * n + cell[1]


def _check_cells(cells: tuple[R.Cell, ...], n: int, what: str) -> None:
    """PuzzleError if a rule names a cell outside the grid or names one twice."""
    for row, col in cells:
        if not (0 <= row < n and 0 <= col < n):
            raise PuzzleError(f"{what}: cell {R.cell_name((row, col))} is outside the "
                              f"{n}x{n} grid")
    if len(set(cells)) != len(cells):
        raise PuzzleError(f"{what}: a cell is listed twice")


def _classic_units(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> list:
    """Rows, columns and boxes (or jigsaw regions in place of boxes)."""
    rows, cols = box
    n = rows * cols
    units = [(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
    units += [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
    jigsaws = [rule for rule in rules if isinstance(rule, R.Jigsaw)]
    if jigsaws:
        return units + _regions(jigsaws[0], n)
    for b in range(n):
        top, left = (b // rows) * rows, (b % rows) * cols
        units.append((f"box {b + 1}", tuple((top + r) * n + left + c
                                            for r in range(rows) for c in range(cols))))
    return units


def _regions(jigsaw: R.Jigsaw, n: int) -> list:
    """Jigsaw regions as units, after checking they tile the grid."""
    if len(jigsaw.regions) != n or any(len(region) != n for region in jigsaw.regions):
        raise PuzzleError(f"jigsaw: needs {n} regions of {n} cells each")
    seen = [c for region in jigsaw.regions for c in region]
    _check_cells(tuple(seen), n, "jigsaw")
    return [(f"region {k + 1}", tuple(sorted(_index(c, n) for c in region)))
            for k, region in enumerate(jigsaw.regions)]


def _rule_units(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> list:
    """The extra units of diagonal, windoku and disjoint-groups rules."""
    rows, cols = box
    n = rows * cols
    units = []
    for rule in rules:
        if isinstance(rule, R.Diagonal):
            units.append(("main diagonal", tuple(i * n + i for i in range(n))))
            units.append(("anti-diagonal", tuple(i * n + n - 1 - i for i in range(n))))
        elif isinstance(rule, R.MainDiagonal):
            units.append(("main diagonal", tuple(i * n + i for i in range(n))))
        elif isinstance(rule, R.AntiDiagonal):
            units.append(("anti-diagonal", tuple(i * n + n - 1 - i for i in range(n))))
        elif isinstance(rule, R.DisjointGroups):
            for r in range(rows):
                for c in range(cols):
                    units.append((f"disjoint group r{r + 1}c{c + 1}",
                                  tuple((top + r) * n + left + c for top in range(0, n, rows)
                                        for left in range(0, n, cols))))
        elif isinstance(rule, R.Windoku):
            tops = range(1, n - rows + 1, rows + 1)
            lefts = range(1, n - cols + 1, cols + 1)
            for top in tops:
                for left in lefts:
                    units.append((f"window r{top + 1}c{left + 1}",
                                  tuple((top + r) * n + left + c
                                        for r in range(rows) for c in range(cols))))
    return units


def _moves(n: int, rules: tuple[R.Rule, ...]) -> tuple[tuple[int, int], ...]:
    """Pairs of cells (a < b) a knight's or king's move apart, as the rules ask."""
    steps: list[tuple[int, int]] = []
    if any(isinstance(rule, R.AntiKnight) for rule in rules):
        steps += R.KNIGHT_MOVES
    if any(isinstance(rule, R.AntiKing) for rule in rules):
        steps += R.KING_MOVES
    pairs = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    a, b = r * n + c, (r + dr) * n + c + dc
                    pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))


def orthogonal_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Pairs of orthogonally adjacent cells (a < b): what non-consecutive constrains."""
    return tuple((r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)) + \
        tuple((r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n))


def pencil_marks(puzzle) -> list[list[int]]:
    """Each cell's candidates: its given, or the digits the givens and rules leave open.

    Peers (units, cages, chess moves) remove a given's digit; non-consecutive removes its
    neighbours' digits from orthogonal cells; parity and cage sums keep only digits that
    can still fit. Only what the givens show directly: no search, no deduction chains.
    """
    from itertools import combinations

    n, givens = puzzle.size, puzzle.givens
    geo = geometry(puzzle.box, puzzle.rules)
    marks = [{d} if d else set(range(1, n + 1)) for d in givens]
    for cell, d in enumerate(givens):
        if d:
            for peer in geo.peers[cell]:
                if not givens[peer]:
                    marks[peer].discard(d)
    if any(isinstance(rule, R.NonConsecutive) for rule in puzzle.rules):
        for a, b in orthogonal_pairs(n):
            for x, y in ((a, b), (b, a)):
                if givens[x] and not givens[y]:
                    marks[y] -= {givens[x] - 1, givens[x] + 1}
    for rule in puzzle.rules:
        if isinstance(rule, R.Parity):
            for cell in (_index(c, n) for c in rule.cells):
                if not givens[cell]:
                    marks[cell] = {d for d in marks[cell] if (d % 2 == 0) == rule.even}
        elif isinstance(rule, R.Cage) and len(rule.cells) <= 9:
            cells = [_index(c, n) for c in rule.cells]
            placed = {givens[c] for c in cells if givens[c]}
            fits = set()
            for digits in combinations(range(1, n + 1), len(cells)):
                if sum(digits) == rule.total and placed <= set(digits):
                    fits.update(digits)
            for cell in cells:
                if not givens[cell]:
                    marks[cell] &= fits - placed
    return [sorted(m) for m in marks]
