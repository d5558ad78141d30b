"""Cells, units and peers of a box shape and rule set, derived once and shared by backends.

Cells are numbered row-major from 0: cell = row * N + col. A *unit* is a group of N
cells that holds every digit exactly once (row, column, box, and the diagonals,
windows or jigsaw regions a rule adds); each unit says what it is. A *relation* is a
rule between two cells (a knight's or king's move apart, orthogonal neighbours),
given as the pairs of cells it relates, with its rule. Two cells are *peers* when the
rules make them differ: they share a unit or a cage, or a chess-move rule relates them.

A multi-grid layout (a samurai) numbers the board's cells instead (`sudokulab.layout`):
its units are every row, column and box of each of its grids, a box two grids share
counted once, and nothing else changes: cells, units and peers mean what they always do.

The geometry trusts its box, rules and layout: a `Puzzle` checks them when it is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from itertools import chain, compress

from sudokulab import rules as R
from sudokulab.layout import Layout

Pair = tuple[int, int]


class Unit(tuple[int, ...]):
    """N cells that hold every digit once, knowing what they are.

    `kind` is 'row', 'column', 'box', 'region', 'diagonal', 'window', 'disjoint group' or
    'extra region' (an extra region of N cells); `rule` is the
    variant rule that adds the unit (None for rows, columns and boxes); `name` is how a
    reader calls it ('row 3', 'box 5', 'main diagonal', 'window r2c2').
    """

    kind: str
    name: str
    rule: R.Rule | None

    def __new__(cls, cells: Iterable[int] = (), kind: str = "", name: str = "",
                rule: R.Rule | None = None) -> Unit:
        unit = super().__new__(cls, cells)
        unit.kind, unit.name, unit.rule = kind, name, rule
        return unit

    @property
    def part(self) -> str:
        """The part of the rules it belongs to: 'row', 'column', 'box' or its rule's name."""
        return self.rule.name if self.rule is not None else self.kind

    @property
    def group(self) -> str:
        """How people call the units of its kind together ('rows', 'jigsaw regions'): the
        groups of a model's parts and of its teaching view."""
        return UNIT_GROUPS.get(self.kind, f"{self.kind}s")


# The groups whose name is not the kind's plural; a new rule's units need no entry here.
UNIT_GROUPS = {"box": "boxes", "region": "jigsaw regions"}

# What each pairwise rule relates: the steps from a cell to the cells it constrains.
STEPS: dict[type, tuple[Pair, ...]] = {kind: kind.moves for kind in R.RULE_TYPES if kind.moves}


@dataclass(frozen=True)
class Relation:
    """The pairs of cells (a < b) a pairwise rule relates, with the rule.

    `differ`: the two cells hold different digits (the chess-move rules); otherwise
    they hold digits that are not consecutive (non-consecutive).
    """

    rule: R.Rule
    pairs: tuple[Pair, ...]

    @property
    def differ(self) -> bool:
        """Whether the rule says 'different digits' (else 'not consecutive digits')."""
        return self.rule.moves_differ


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
    units: tuple[Unit, ...]
    units_of: tuple[tuple[Unit, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    relations: tuple[Relation, ...] = field(default=())
    cages: tuple[R.Cage, ...] = field(default=())
    digit_relations: tuple[DigitRelation, ...] = field(default=())
    groups: tuple[tuple[str, tuple[int, ...]], ...] = field(default=())  # (rule, cells) differ
    sums: tuple[Sum, ...] = field(default=())
    sandwiches: tuple[tuple[tuple[int, ...], int], ...] = field(default=())  # (line, total)
    layout: Layout | None = None  # several grids on one board (a samurai); None: one grid

    @property
    def n(self) -> int:
        """N, the number of digits."""
        return self.box[0] * self.box[1]

    @property
    def cells(self) -> range:
        """Every cell index."""
        return range(self.n * self.n if self.layout is None else self.layout.cell_count)

    def cell(self, row: int, col: int) -> int:
        """The index of the cell at (row, col), counted from 0."""
        return row * self.n + col if self.layout is None else self.layout.index[row, col]

    def name(self, cell: int) -> str:
        """The r1c1 name of a cell index."""
        if self.layout is not None:
            return R.cell_name(self.layout.positions[cell])
        return R.cell_name(divmod(cell, self.n))

    def indices(self, cells: tuple[R.Cell, ...]) -> list[int]:
        """The indices of (row, col) cells, as a rule lists them."""
        if self.layout is not None:
            return [self.layout.index[cell] for cell in cells]
        n = self.n
        return [row * n + col for row, col in cells]

    @cached_property
    def moves(self) -> tuple[Pair, ...]:
        """Every pair of cells a chess-move rule makes differ (a < b)."""
        return tuple(sorted({pair for relation in self.relations if relation.differ
                             for pair in relation.pairs}))

    @cached_property
    def near(self) -> tuple[frozenset[int], ...]:
        """For each cell, the cells a unit or a rule ties it to: its peers, and the
        cells of its pairs (differ or not) and digit relations."""
        near = [set(p) for p in self.peers]
        for a, b in chain((pair for relation in self.relations for pair in relation.pairs),
                          ((rel.a, rel.b) for rel in self.digit_relations)):
            near[a].add(b)
            near[b].add(a)
        return tuple(map(frozenset, near))

    def pairs(self, kind: type) -> tuple[Pair, ...]:
        """The pairs a rule type relates, or none when the rules do not hold it."""
        return next((relation.pairs for relation in self.relations
                     if isinstance(relation.rule, kind)), ())

    @cached_property
    def unit_keys(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, a key per unit it lies in: the unit's index times (N + 1)."""
        index = {id(unit): k * (self.n + 1) for k, unit in enumerate(self.units)}
        return tuple(tuple(index[id(unit)] for unit in units) for units in self.units_of)

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

    def beyond_units(self, pairs: Iterable[Pair]) -> list[Pair]:
        """The pairs of cells that must differ which no unit holds: a king's step along a
        row or a knight's jump inside a box says again what the unit says, and posting it
        prunes nothing (for HiGHS it is rows presolve must drop at every solve)."""
        return [(a, b) for a, b in pairs if not self.share_unit(a, b)]

    def why_peers(self, a: int, b: int) -> str:
        """The first unit or rule that makes two cells differ."""
        for unit in self.units:
            if a in unit and b in unit:
                return unit.name
        for cage in self.cages:
            cells = self.indices(cage.cells)
            if a in cells and b in cells:
                return f"cage of {cage.total}"
        for rule, group in self.groups:
            if a in group and b in group:
                return rule
        return "a chess move apart"


@lru_cache(maxsize=64)
def geometry(box: tuple[int, int], rules: tuple[R.Rule, ...] = (),
             layout: Layout | None = None) -> Geometry:
    """The geometry of a box shape and rule set, or of a multi-grid layout (cached:
    backends share it)."""
    if layout is not None:
        return _board(box, layout)
    n = box[0] * box[1]
    units = tuple(_classic_units(box, rules) + _rule_units(box, rules))
    relations = tuple(Relation(rule, _pairs(n, rule.moves))
                      for rule in dict.fromkeys(_known(rules)) if rule.moves)
    cages = tuple(rule for rule in rules if isinstance(rule, R.Cage))
    digit_relations, rule_groups, sums = _lines(n, rules)
    whole = [(rule, cells) for rule, cells in rule_groups if len(cells) == n]
    units += tuple(Unit(cells, "extra region", f"extra region {k + 1}", rule)
                   for k, (rule, cells) in enumerate(whole))
    groups = tuple((rule.name, cells) for rule, cells in rule_groups if len(cells) < n)
    units_of = tuple(tuple(u for u in units if cell in u) for cell in range(n * n))
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for group in list(units) + [[r * n + c for r, c in cage.cells] for cage in cages] \
            + [cells for _, cells in groups]:
        for cell in group:
            peers[cell].update(group)
    for relation in relations:
        if relation.differ:
            for a, b in relation.pairs:
                peers[a].add(b)
                peers[b].add(a)
    return Geometry(
        box=box, rules=rules, units=units, units_of=units_of,
        peers=tuple(tuple(sorted(p - {cell})) for cell, p in enumerate(peers)),
        relations=relations, cages=cages, digit_relations=digit_relations, groups=groups,
        sums=sums, sandwiches=tuple((tuple(_index(c, n) for c in rule.line(n)), rule.total)
                                    for rule in rules if isinstance(rule, R.Sandwich)),
    )


@lru_cache(maxsize=1024)
def rule_geometry(box: tuple[int, int], rule: R.Rule,
                  within: tuple[R.Rule, ...] = ()) -> Geometry:
    """One rule's part of a geometry, apart (the setter's bench compiles each rule on its
    own): its units, relations, cages, lines and sums, over the cells, units and peers of
    the grid `within` shapes (a jigsaw's regions, or the boxes). Much cheaper than
    `geometry(box, within + (rule,))`, which derives every cell's units and peers again."""
    base = geometry(box, within)
    n, rules = base.n, (rule,)
    units = tuple(_rule_units(box, rules))
    digit_relations, groups, sums = _lines(n, rules)
    units += tuple(Unit(cells, "extra region", f"extra region {k + 1}", owner)
                   for k, (owner, cells) in enumerate(g for g in groups if len(g[1]) == n))
    return replace(
        base, rules=(*within, rule), units=units,
        relations=tuple(Relation(r, _pairs(n, r.moves)) for r in _known(rules) if r.moves),
        cages=tuple(r for r in rules if isinstance(r, R.Cage)),
        digit_relations=digit_relations,
        groups=tuple((r.name, cells) for r, cells in groups if len(cells) < n), sums=sums,
        sandwiches=tuple((tuple(_index(c, n) for c in r.line(n)), r.total)
                         for r in rules if isinstance(r, R.Sandwich)))


def _board(box: tuple[int, int], layout: Layout) -> Geometry:
    """The geometry of several grids on one board: each grid's rows, columns and boxes
    moved to its place (a box that two grids share is one unit, named for the first)."""
    units: dict[tuple[int, ...], Unit] = {}
    for k in range(len(layout.grids)):
        cells = layout.grid_cells(k)
        for unit in _classic_units(box, ()):
            board = tuple(sorted(cells[c] for c in unit))
            units.setdefault(board, Unit(board, unit.kind,
                                         f"{layout.grid_name(k)} {unit.name}"))
    count = layout.cell_count
    units_of: list[list[Unit]] = [[] for _ in range(count)]
    peers: list[set[int]] = [set() for _ in range(count)]
    for unit in units.values():
        for cell in unit:
            units_of[cell].append(unit)
            peers[cell].update(unit)
    return Geometry(box=box, rules=(), units=tuple(units.values()),
                    units_of=tuple(map(tuple, units_of)),
                    peers=tuple(tuple(sorted(p - {cell})) for cell, p in enumerate(peers)),
                    layout=layout)


def orthogonal_pairs(n: int) -> tuple[Pair, ...]:
    """Pairs of orthogonally adjacent cells (a < b)."""
    return _pairs(n, R.ORTHOGONAL_MOVES)


def _known(rules: tuple[R.Rule, ...]) -> tuple[R.Rule, ...]:
    """The rules of sudokulab's classes (another's rule adds nothing to the geometry: the
    backends that cannot express it say so)."""
    return tuple(rule for rule in rules if isinstance(rule, R.Rule))


def _lines(n: int, rules: tuple[R.Rule, ...]) -> tuple[
        tuple[DigitRelation, ...], tuple[tuple[R.Rule, tuple[int, ...]], ...], tuple[Sum, ...]]:
    """The pair relations, groups of cells that differ (with their rule), and sums of the
    line and dot rules, each as its rule states them."""
    relations: list[DigitRelation] = []
    groups: list[tuple[R.Rule, tuple[int, ...]]] = []
    sums: list[Sum] = []
    for rule in _known(rules):
        relations += [DigitRelation(rule.name, kind, _index(a, n), _index(b, n), param)
                      for kind, a, b, param in rule.relations(n)]
        if rule.distinct_cells():
            groups.append((rule, tuple(_index(c, n) for c in rule.distinct_cells())))
        found = rule.sum_of()
        if found is not None:
            cells, total, circle = found
            sums.append(Sum(rule.name, tuple(_index(c, n) for c in cells), total,
                            -1 if circle is None else _index(circle, n)))
    return tuple(relations), tuple(groups), tuple(sums)


def _index(cell: R.Cell, n: int) -> int:
    """Row-major index of a (row, col) cell."""
    return cell[0] * n + cell[1]


def _classic_units(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> list[Unit]:
    """Rows, columns and boxes (or jigsaw regions in place of boxes)."""
    rows, cols = box
    n = rows * cols
    units = [Unit(tuple(r * n + c for c in range(n)), "row", f"row {r + 1}") for r in range(n)]
    units += [Unit(tuple(r * n + c for r in range(n)), "column", f"column {c + 1}")
              for c in range(n)]
    jigsaw = R.jigsaw(rules)
    if jigsaw is not None:
        return units + [Unit(tuple(_index(c, n) for c in cells), kind, name, jigsaw)
                        for kind, name, cells in jigsaw.units(box)]
    for b in range(n):
        top, left = (b // rows) * rows, (b % rows) * cols
        units.append(Unit(tuple((top + r) * n + left + c for r in range(rows) for c in range(cols)),
                          "box", f"box {b + 1}"))
    return units


def _rule_units(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> list[Unit]:
    """The extra units the rules add (diagonals, windows, disjoint groups, ...); regions
    that replace the boxes are the classic units'."""
    n = box[0] * box[1]
    return [Unit(tuple(_index(c, n) for c in cells), kind, name, rule)
            for rule in _known(rules) if not rule.replaces_boxes
            for kind, name, cells in rule.units(box)]


def _pairs(n: int, steps: tuple[Pair, ...]) -> tuple[Pair, ...]:
    """Pairs of cells (a < b) one of the steps apart, sorted."""
    pairs = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    a, b = r * n + c, (r + dr) * n + c + dc
                    pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))
