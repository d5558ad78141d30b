"""Grading a path: HoDoKu's level and score, and a Sudoku Explainer-like rating.

HoDoKu (version 2.2.0, its default step configuration) gives every technique a level and
a score. A puzzle's score is the sum of its steps' scores; its level is the highest level
of a technique it needed, raised while the score exceeds that level's ceiling (Easy 800,
Medium 1000, Hard 1600, Unfair 1800, Extreme unlimited).

Sudoku Explainer (Nicolas Juillerat; its scale is published, e.g. in the Sukaku Explainer
wiki's "Difficulty ratings in Sudoku Explainer v1.2.1") rates a puzzle by its hardest step:
1.0 last value in a unit, 1.2 hidden single in a box, 1.5 in a row or column, 2.3 naked
single, 2.6 pointing, 2.8 claiming, 3.0 naked pair, 3.2 X-Wing, 3.4 hidden pair, 3.6 naked
triple, 3.8 Swordfish, 4.0 hidden triple, 4.2 XY-Wing, 4.4 XYZ-Wing, 4.5-5.0 unique
rectangles, 5.0 naked quad, 5.2 Jellyfish, 5.4 hidden quad, 5.6-6.0 BUG, 6.5-6.9 X-chains
and X-cycles (turbot fish 6.6), 6.6-7.0 Y-cycles, 7.0-7.5 forcing chains (AIC), 7.5-8.1
Nishio, 8.2-8.7 cell and region forcing chains, 8.5 and up dynamic forcing chains, 9.0 and
up dynamic ones with more inside, 9.5 and up nested ones; chains rate higher with length
(+0.1 at each of the lengths 4, 6, 8, 12, 16, 24, 32, 48, 64, ...). Here a chain's length is
its links; a forcing chain's, the placements its assumption makes before the contradiction
(or, for a verity, in its longest branch).

Each technique gets the rating of the Explainer rule that makes the same deduction: an
XY-Chain is a chain of bivalue cells (Explainer's Y-chains, 6.6); an AIC mixes both kinds of
links (its forcing chains, 7.0). Our forcing chains follow an assumption through the singles
of every digit, which is what Explainer's dynamic forcing chains do (8.5; a verity is its
dynamic cell or region forcing chain); a forcing net also uses locked candidates and pairs
(its dynamic chains "+", 9.0); a nested net uses forcing chains inside (9.5). Explainer has no
rule for some of HoDoKu's techniques: single-digit patterns, finned fish and colors are its
X-chains (6.6), a W-Wing (two bivalue cells joined through one strong link) rates with its
Y-chains (6.6; as its forcing chains, 7.0, it ranked worse against Explainer's ratings on the
puzzles the table was revised against); ALS-XZ and grouped AIC need several candidates at
one node, which only its region and cell forcing chains (8.2) express. So the rating is
SE-*like*, not Explainer's own: its path is HoDoKu's technique order, and Explainer knows
techniques we lack (aligned pair exclusion, unique loops, BUG types 2-4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sudokulab.human.step import Step

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
CEILINGS = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}  # Extreme: none

# technique: (HoDoKu level, HoDoKu score, SE-like rating before any length increment)
TABLE: dict[str, tuple[str, int, float]] = {
    "Full House": ("Easy", 4, 1.0),
    "Naked Single": ("Easy", 4, 2.3),
    "Hidden Single": ("Easy", 14, 1.5),  # 1.2 in a box (see rating)
    "Locked Pair": ("Medium", 40, 3.0),
    "Locked Triple": ("Medium", 60, 3.6),
    "Locked Candidates Type 1 (Pointing)": ("Medium", 50, 2.6),
    "Locked Candidates Type 2 (Claiming)": ("Medium", 50, 2.8),
    "Naked Pair": ("Medium", 60, 3.0),
    "Naked Triple": ("Medium", 80, 3.6),
    "Hidden Pair": ("Medium", 70, 3.4),
    "Hidden Triple": ("Medium", 100, 4.0),
    "Naked Quadruple": ("Hard", 120, 5.0),
    "Hidden Quadruple": ("Hard", 150, 5.4),
    "X-Wing": ("Hard", 140, 3.2),
    "Swordfish": ("Hard", 150, 3.8),
    "Jellyfish": ("Unfair", 160, 5.2),
    "Finned X-Wing": ("Hard", 130, 6.6),
    "Sashimi X-Wing": ("Hard", 150, 6.6),
    "Finned Swordfish": ("Unfair", 200, 6.7),
    "Sashimi Swordfish": ("Unfair", 240, 6.7),
    "Skyscraper": ("Hard", 130, 6.6),
    "2-String Kite": ("Hard", 150, 6.6),
    "Turbot Fish": ("Hard", 120, 6.6),
    "Empty Rectangle": ("Hard", 120, 6.6),
    "XY-Wing": ("Hard", 160, 4.2),
    "XYZ-Wing": ("Hard", 180, 4.4),
    "W-Wing": ("Hard", 150, 6.6),
    "Simple Colors Trap": ("Hard", 150, 6.6),
    "Simple Colors Wrap": ("Hard", 150, 6.5),
    "Uniqueness Test 1": ("Hard", 100, 4.5),
    "Uniqueness Test 2": ("Hard", 100, 4.6),
    "Uniqueness Test 3": ("Hard", 100, 4.6),
    "Uniqueness Test 4": ("Hard", 100, 4.6),
    "Bivalue Universal Grave + 1": ("Medium", 100, 5.6),
    "Remote Pair": ("Hard", 110, 6.6),
    "X-Chain": ("Unfair", 260, 6.6),
    "XY-Chain": ("Unfair", 260, 6.6),
    "AIC": ("Unfair", 280, 7.0),
    "Grouped AIC": ("Unfair", 300, 8.2),
    "ALS-XZ": ("Unfair", 300, 8.2),
    "Forcing Chain Contradiction": ("Extreme", 500, 8.5),   # SE's dynamic forcing chains
    "Forcing Chain Verity": ("Extreme", 500, 8.5),
    "Forcing Net Contradiction": ("Extreme", 700, 9.0),     # its dynamic chains (+)
    "Forcing Net Verity": ("Extreme", 700, 9.0),
    "Nested Forcing Net": ("Extreme", 700, 9.5),            # (+forcing chains)
}

LENGTHS = (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)


@dataclass(frozen=True)
class Grade:
    """A path's grade."""

    level: str
    score: int
    rating: float
    hardest: str      # the technique of the hardest step ('' for none)
    solved: bool


def step_rating(step: Step) -> float:
    """The SE-like rating of one step: its technique's, plus 0.1 per length threshold."""
    if step.technique == "Hidden Single":
        return 1.2 if _in_box(step) else 1.5
    base = TABLE[step.technique][2]
    return round(base + 0.1 * sum(1 for k in LENGTHS if step.length > k), 1)


def _in_box(step: Step) -> bool:
    """Whether a hidden single's unit is a box (its sentence names the unit)."""
    return " box " in step.sentence or " region " in step.sentence


def grade(steps: Iterable[Step], solved: bool) -> Grade:
    """HoDoKu's level and score and the SE-like rating of a path (a path that does not
    solve the puzzle is graded on what it did, and says so with `solved`)."""
    steps = list(steps)
    score = sum(TABLE[s.technique][1] for s in steps)
    level = max((TABLE[s.technique][0] for s in steps), key=LEVELS.index, default="Easy")
    while level in CEILINGS and score > CEILINGS[level]:
        level = LEVELS[LEVELS.index(level) + 1]
    rated = [(step_rating(s), s.technique) for s in steps]
    rating, hardest = max(rated, default=(0.0, ""))
    return Grade(level, score, rating, hardest, solved)
