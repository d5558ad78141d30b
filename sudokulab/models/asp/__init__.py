"""The answer set program (sudoku.lp) and the facts that state a puzzle to it.

sudoku.lp holds the rules of Sudoku and of every variant; a puzzle adds facts: its box
shape, one fact (or a few) per rule, and its givens. This module writes those facts and
reads the program's text; it does not import clingo, so a program can be exported and
read without the solver (as the CNF and SMT encodings can).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from sudokulab import rules as R
from sudokulab.cages import implied_cages
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle

PROGRAM = resources.files("sudokulab") / "models" / "asp" / "sudoku.lp"

# The fact that switches on each rule without parameters.
FLAGS = {R.Diagonal: "diagonal", R.MainDiagonal: "main_diagonal",
         R.AntiDiagonal: "anti_diagonal", R.Windoku: "windoku",
         R.DisjointGroups: "disjoint_groups", R.AntiKnight: "anti_knight",
         R.AntiKing: "anti_king", R.NonConsecutive: "non_consecutive"}

# The lines whose cells are numbered from one end: thermo(K,I,R,C), ...
ORDERED: dict[type[R.Rule], str] = {R.Thermometer: "thermo", R.Whispers: "whispers",
                                    R.Palindrome: "palindrome"}

# The paragraphs of sudoku.lp that state each rule (their first comment lines start so).
RELATED = "Related digits"
SECTIONS = {R.Diagonal: ("Diagonal",), R.MainDiagonal: ("Diagonal",),
            R.AntiDiagonal: ("Diagonal",), R.Windoku: ("Windoku",),
            R.DisjointGroups: ("Disjoint groups",), R.Jigsaw: ("Jigsaw",),
            R.AntiKnight: ("Anti-knight",), R.AntiKing: ("Anti-knight",),
            R.NonConsecutive: ("Orthogonal neighbours", "Non-consecutive"),
            R.Cage: ("Groups", "Killer cages"), R.SumlessCage: ("Groups",),
            R.ExtraRegion: ("Groups",), R.Parity: ("Parity",),
            R.Thermometer: (RELATED, "Thermometers"), R.Whispers: (RELATED, "German whispers"),
            R.Palindrome: (RELATED, "Palindromes"), R.Renban: ("Groups", RELATED, "Renban"),
            R.Kropki: ("Orthogonal neighbours", RELATED, "Marks"),
            R.XV: ("Orthogonal neighbours", RELATED, "Marks"),
            R.ConsecutiveMarks: ("Orthogonal neighbours", RELATED, "Marks"),
            R.Arrow: ("Arrows",), R.LittleKiller: ("Little killers",),
            R.Sandwich: ("Sandwiches",)}
# A rule the program has no paragraph of its own for is stated by its geometry (`_geometric`).
GEOMETRIC = ("Units and differing cells", "Anti-knight")


def program() -> str:
    """The text of sudoku.lp."""
    return PROGRAM.read_text(encoding="utf-8")


def rule_facts(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> list[str]:
    """The facts of a box shape and rule set; ValueError for a rule the program lacks."""
    return [fact for facts in facts_by_rule(box, rules).values() for fact in facts]


def facts_by_rule(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> dict[str, list[str]]:
    """The facts of the shape ('shape'), of each rule type present (by its name) and of
    the cages the rule of 45 implies ('implied cages'); ValueError for a rule the program
    lacks."""
    grouped = {"shape": [f"box({box[0]},{box[1]})."]}
    count: dict[str, int] = {}

    def number(kind: str) -> int:
        """The next number K of a kind of rule instance (cages with and without sums
        share theirs, and so do the three dot rules)."""
        count[kind] = count.get(kind, 0) + 1
        return count[kind]

    jigsaw = R.jigsaw(rules)
    for rule in rules:
        if getattr(rule, "replaces_boxes", False):  # as the geometry: the first one's regions
            regions = getattr(rule, "regions", ()) if rule is jigsaw else ()
            facts = [f"region({k},{r + 1},{c + 1})." for k, region in enumerate(regions, 1)
                     for r, c in region]
        else:
            facts = _facts(rule, number, box)
        grouped.setdefault(rule.name, []).extend(facts)
    # Redundant but strong: each unit's cells outside its cages are a cage too, with what
    # is left of 45 (sudokulab/cages.py); clingo's conflicts on hard killers fell 3-fold.
    implied = [_facts(cage, number, box) for cage in implied_cages(geometry(box, rules))]
    if implied:
        grouped["implied cages"] = [fact for facts in implied for fact in facts]
    return grouped


def _facts(rule: R.Rule, number: Callable[[str], int], box: tuple[int, int]) -> list[str]:
    """The facts of one rule (but a jigsaw), numbering its instance by `number`."""
    if type(rule) in FLAGS:
        return [f"{FLAGS[type(rule)]}."]
    if isinstance(rule, (R.Cage, R.SumlessCage)):
        k = number("cage")
        total = [f"cage({k},{rule.total})."] if isinstance(rule, R.Cage) else []
        return total + _cells("cage_cell", k, rule.cells)
    if isinstance(rule, R.Parity):
        kind = "even" if rule.even else "odd"
        return [f"{kind}({r + 1},{c + 1})." for r, c in rule.cells]
    if isinstance(rule, R.Line) and type(rule) in ORDERED:
        name = ORDERED[type(rule)]
        k = number(name)
        return [f"{name}({k},{i},{r + 1},{c + 1})." for i, (r, c) in enumerate(rule.cells, 1)]
    if isinstance(rule, (R.ExtraRegion, R.Renban)):
        name = "extra_region" if isinstance(rule, R.ExtraRegion) else "renban"
        return _cells(name, number(name), rule.cells)
    if isinstance(rule, R.Arrow):
        k = number("arrow")
        return _cells("circle", k, rule.cells[:1]) + _cells("shaft", k, rule.cells[1:])
    if isinstance(rule, R.LittleKiller):
        k = number("little_killer")
        return [f"little_killer({k},{rule.total}).", *_cells("diagonal_cell", k, rule.cells)]
    if isinstance(rule, R.Sandwich):
        line = f"column({rule.index + 1})" if rule.column else f"row({rule.index + 1})"
        return [f"sandwich({line},{rule.total})."]
    if isinstance(rule, R.Dots):
        return _marks(number("mark"), rule)
    return _geometric(rule, number, box)


def _geometric(rule: R.Rule, number: Callable[[str], int], box: tuple[int, int]) -> list[str]:
    """A rule without a paragraph of its own, stated by what it adds to the geometry: its
    units (unit_cell), the cells its moves join (differ) and its cells that differ
    (extra_region). ValueError when it adds digit relations or sums, or nothing at all
    (a rule whose meaning lies elsewhere, as parity's does)."""
    if not isinstance(rule, R.Rule):
        raise ValueError(f"sudoku.lp cannot express rule {getattr(rule, 'name', rule)}")
    n = box[0] * box[1]
    units, cells = rule.units(box), rule.distinct_cells()
    moves = [(dr, dc) for dr, dc in rule.moves if (dr, dc) > (0, 0)]  # each pair once
    if rule.relations(n) or rule.sum_of() is not None or (rule.moves and not rule.moves_differ) \
            or not (units or moves or cells):
        raise ValueError(f"sudoku.lp cannot express rule {rule.name}")
    facts = [fact for _, _, unit in units for fact in _cells("unit_cell", number("unit"), unit)]
    facts += [f"differ({r + 1},{c + 1},{r + dr + 1},{c + dc + 1})." for dr, dc in moves
              for r in range(n) for c in range(n) if 0 <= r + dr < n and 0 <= c + dc < n]
    return facts + (_cells("extra_region", number("extra_region"), cells) if cells else [])


def _cells(name: str, k: int, cells: tuple[R.Cell, ...]) -> list[str]:
    """One fact name(K,R,C) per cell, counted from 1."""
    return [f"{name}({k},{r + 1},{c + 1})." for r, c in cells]


def _marks(k: int, rule: R.Dots) -> list[str]:
    """Dot rule K's negative constraint (first, so that the teaching view shows it), then
    its marks (each field's Kind is the relation it states), each pair in reading order."""
    kinds = rule.marks
    facts = [f"negative({k},{kind})." for kind in dict.fromkeys(kinds.values())
             if rule.is_negative]
    for field, pairs in rule.pairs_by_field().items():
        kind = kinds[field]
        for pair in pairs:
            (r1, c1), (r2, c2) = sorted(pair)
            facts.append(f"mark({k},{kind},{r1 + 1},{c1 + 1},{r2 + 1},{c2 + 1}).")
    return facts


def givens(puzzle: Puzzle) -> list[tuple[int, int, int]]:
    """The givens as (row, column, digit), counted from 1 as in the program."""
    n = puzzle.n
    return [(cell // n + 1, cell % n + 1, digit)
            for cell, digit in enumerate(puzzle.givens) if digit]


def to_lp(puzzle: Puzzle) -> str:
    """A self-contained program for one puzzle: sudoku.lp, then the puzzle's facts."""
    facts = rule_facts(puzzle.box, puzzle.rules)
    given = [f"given({r},{c},{d})." for r, c, d in givens(puzzle)]
    lines = [program().rstrip("\n"), "", "",
             "% " + "-" * 87, "% THE PUZZLE", "% " + "-" * 87, "",
             *_wrapped(facts), "", *_wrapped(given), ""]
    return "\n".join(lines)


def _wrapped(facts: list[str], width: int = 90) -> list[str]:
    """Facts several to a line, lines at most `width` characters."""
    lines, line = [], ""
    for fact in facts:
        if line and len(line) + 1 + len(fact) > width:
            lines.append(line)
            line = ""
        line = f"{line} {fact}" if line else fact
    return lines + [line] if line else lines


def sections(rules: tuple[R.Rule, ...]) -> list[str]:
    """The paragraphs of sudoku.lp's rules that a rule set uses: the classic ones, then
    the paragraphs of each variant rule present."""
    text = program().split("% THE RULES", 1)[1]
    wanted = {name for rule in rules for name in SECTIONS.get(type(rule), GEOMETRIC)}
    names = {name for names in (*SECTIONS.values(), GEOMETRIC) for name in names}
    kept = []
    for paragraph in text.split("\n\n"):
        lines = [line for line in paragraph.strip("\n").splitlines()
                 if not line.startswith(("% ---", "% THE"))]  # section banners
        if not lines:
            continue
        variant = next((name for name in names if lines[0].startswith(f"% {name}")), None)
        if variant is None or variant in wanted:
            kept.append("\n".join(lines))
    return kept
