"""The answer set program (sudoku.lp) and the facts that state a puzzle to it.

sudoku.lp holds the rules of Sudoku and of every variant; a puzzle adds facts: its box
shape, one fact (or a few) per rule, and its givens. This module writes those facts and
reads the program's text; it does not import clingo, so a program can be exported and
read without the solver (as the CNF and SMT encodings can).
"""

from __future__ import annotations

from importlib import resources

from sudokulab import rules as R
from sudokulab.cages import implied_cages
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle

PROGRAM = resources.files("sudokulab") / "asp" / "sudoku.lp"

# The fact that switches on each rule without parameters.
FLAGS = {R.Diagonal: "diagonal", R.Windoku: "windoku", R.AntiKnight: "anti_knight",
         R.AntiKing: "anti_king", R.NonConsecutive: "non_consecutive"}

# The paragraph of sudoku.lp that states each rule (its first comment line starts so).
SECTIONS = {R.Diagonal: "Diagonal", R.Windoku: "Windoku", R.Jigsaw: "Jigsaw",
            R.AntiKnight: "Anti-knight", R.AntiKing: "Anti-knight",
            R.NonConsecutive: "Non-consecutive", R.Cage: "Killer cages", R.Parity: "Parity"}


def program() -> str:
    """The text of sudoku.lp."""
    return PROGRAM.read_text(encoding="utf-8")


def rule_facts(box: tuple[int, int], rules: tuple[R.Rule, ...]) -> list[str]:
    """The facts of a box shape and rule set; ValueError for a rule the program lacks."""
    facts = [f"box({box[0]},{box[1]})."]
    cages = 0
    jigsaws = [rule for rule in rules if isinstance(rule, R.Jigsaw)]
    for rule in rules:
        if type(rule) in FLAGS:
            facts.append(f"{FLAGS[type(rule)]}.")
        elif isinstance(rule, R.Jigsaw):
            if rule is jigsaws[0]:  # as the geometry does: the first jigsaw's regions
                facts += [f"region({k},{r + 1},{c + 1})."
                          for k, region in enumerate(rule.regions, 1) for r, c in region]
        elif isinstance(rule, R.Cage):
            cages += 1
            facts.append(f"cage({cages},{rule.total}).")
            facts += [f"cage_cell({cages},{r + 1},{c + 1})." for r, c in rule.cells]
        elif isinstance(rule, R.Parity):
            kind = "even" if rule.even else "odd"
            facts += [f"{kind}({r + 1},{c + 1})." for r, c in rule.cells]
        else:
            raise ValueError(f"sudoku.lp cannot express rule {rule.name}")
    # Redundant but strong: each unit's cells outside its cages are a cage too, with what
    # is left of 45 (sudokulab/cages.py); clingo's conflicts on hard killers fell 3-fold.
    for rule in implied_cages(geometry(box, rules)) if cages else ():
        cages += 1
        facts.append(f"cage({cages},{rule.total}).")
        facts += [f"cage_cell({cages},{r + 1},{c + 1})." for r, c in rule.cells]
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
    the paragraph of each variant rule present."""
    text = program().split("% THE RULES", 1)[1]
    wanted = {SECTIONS[type(rule)] for rule in rules}
    kept = []
    for paragraph in text.split("\n\n"):
        lines = [line for line in paragraph.strip("\n").splitlines()
                 if not line.startswith(("% ---", "% THE"))]  # section banners
        if not lines:
            continue
        variant = next((name for name in set(SECTIONS.values())
                        if lines[0].startswith(f"% {name}")), None)
        if variant is None or variant in wanted:
            kept.append("\n".join(lines))
    return kept
