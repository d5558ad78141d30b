"""Grading a path: HoDoKu's level and score, and a Sudoku Explainer-like rating.

HoDoKu (version 2.2.0, its default step configuration) gives every technique a level and
a score. A puzzle's score is the sum of its steps' scores; its level is the highest level
of a technique it needed, raised while the score exceeds that level's ceiling (Easy 800,
Medium 1000, Hard 1600, Unfair 1800, Extreme unlimited).

Sudoku Explainer (Nicolas Juillerat; its scale is published, e.g. in the Sukaku Explainer
wiki's "Difficulty ratings in Sudoku Explainer v1.2.1") rates a puzzle by the hardest step
of its own path, in which every step is the lowest-rated one available: 1.0 last value in
a unit, 1.2 hidden single in a box, 1.5 in a row or column, 2.3 naked single, 2.6 pointing,
2.8 claiming, 3.0 naked pair, 3.2 X-Wing, 3.4 hidden pair, 3.6 naked triple, 3.8 Swordfish,
4.0 hidden triple, 4.2 XY-Wing, 4.4 XYZ-Wing, 4.5-5.0 unique rectangles, 5.0 naked quad,
5.2 Jellyfish, 5.4 hidden quad, 5.6-6.0 BUG, 6.5-6.9 X-chains and X-cycles, 6.6-7.0
Y-cycles, 7.0-7.5 forcing chains (AIC), 7.5-8.1 Nishio, 8.2-8.7 cell and region forcing
chains, 8.5 and up dynamic forcing chains, 9.0 and up dynamic ones with more inside, 9.5
and up nested ones; chains rate higher with length (+0.1 past each of the lengths 4, 6, 8,
12, 16, 24, 32, 48, 64, ...). Sukaku Explainer, whose `serate` rated the public SE-rated
sets, adds turbot fish (Skyscraper 4.0, 2-String Kite 4.1, Turbot Fish and Empty Rectangle
4.2), chains of 3 to 8 strong links of one digit (5.4, 5.8, 6.2, 6.6, 7.0, 7.4) and wings
of a bivalue cell and an almost locked set of 2, 3 or 4 cells (XYZ-Wing 4.4, WXYZ-Wing
5.5-5.6, VWXYZ-Wing 6.2-6.4; we take the lowest).
Here a chain's length is its links; a forcing chain's, the placements its assumption makes
before the contradiction (or, for a verity, in its longest branch).

The SE-like rating (`explainer_path`, `grade_path`) follows Explainer's method: a path of its
own in which each step is the lowest-rated step our techniques find (the first each finds:
they find the cheapest first), rated on the scale above; the puzzle's rating is that path's
hardest step. ALS-XZ wings are tried after the techniques rated below 5.5 (its wings of 2
cells are XY- and XYZ-Wings, which those find first), its other pairs of sets with the
forcing chains (7.0). Each
technique rates as the Explainer rule that makes the same deduction: an X-Chain as its
strong links (or as an X-chain, 6.6 and up, when that is cheaper); an ALS-XZ
whose smaller set is a bivalue cell as Sukaku's wings, any other as a forcing chain (7.0,
by its cells); an XY-Chain, Remote Pair or W-Wing mixes cell and unit links, so rates as a
forcing chain (7.0; Explainer's Y-only chains, 6.6, ranked worse against its ratings on
the puzzles this table was revised against, bench/data/se_rated.txt); a grouped AIC needs
several candidates at one node, which only its multiple (region) forcing chains express
(8.0 and up). Our forcing chains follow an assumption through the singles of every digit,
which is what Explainer's dynamic forcing chains do (8.5; a verity is its dynamic cell or
region forcing chain); a forcing net also uses locked candidates and pairs (its dynamic
chains "+", 9.0); a nested net uses forcing chains inside (9.5). Finned fish and colors are
its X-chains (6.6). Explainer's unique rectangles are types 1 to 4 with both digits in
all four corners; HoDoKu's (and ours) may lean on a corner that lost one, and HoDoKu has
more uniqueness patterns (types 5 and 6, hidden and avoidable rectangles), whose steps no
chain of Explainer's makes: its path takes none of those, and a path that does is rated
by Explainer's path alone.
So the rating is SE-*like*, not Explainer's own: Explainer knows
techniques our default path lacks (aligned pair exclusion, unique loops, BUG types 2-4,
bigger wings).
`grade` without an Explainer path rates the given path's hardest step instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial, reduce
from itertools import islice
from operator import and_, or_

from sudokulab.human import als, forcing, solver
from sudokulab.human import names as hodoku
from sudokulab.human.candidates import Candidates
from sudokulab.human.step import Step
from sudokulab.puzzle import Puzzle

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
CEILINGS = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}  # Extreme: none

# technique: (HoDoKu level, HoDoKu score, the lowest SE-like rating its steps get)
TABLE: dict[str, tuple[str, int, float]] = {
    "Full House": ("Easy", 4, 1.0),
    "Naked Single": ("Easy", 4, 2.3),
    "Hidden Single": ("Easy", 14, 1.5),  # 1.2 in a box (see rating)
    # killer techniques (HoDoKu and Explainer have none): combinations as easy as singles,
    # the rule of 45 and cage overlaps as intersections
    "Cage Combinations": ("Easy", 10, 2.0),
    "Innies (Rule of 45)": ("Medium", 30, 2.5),
    "Outies (Rule of 45)": ("Medium", 30, 2.5),
    "Cage Splitting": ("Medium", 40, 2.8),
    "Cage Unit Overlap": ("Medium", 50, 2.8),
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
    "Jellyfish": ("Hard", 160, 5.2),
    "Finned X-Wing": ("Hard", 130, 6.6),
    "Sashimi X-Wing": ("Hard", 150, 6.6),
    "Finned Swordfish": ("Unfair", 200, 6.7),
    "Sashimi Swordfish": ("Unfair", 240, 6.7),
    "Finned Jellyfish": ("Unfair", 250, 6.8),
    "Sashimi Jellyfish": ("Unfair", 260, 6.8),
    # Sudoku Explainer rates no fish above Jellyfish: the lab goes on by its steps (0.2 a
    # size for basic fish, 0.1 for finned ones); HoDoKu scores each 470
    # templates settle a digit as forcing chains would (SE has no templates): rated as they
    # no Explainer rating: between ALS-XZ and the chains of nets
    "ALS-XY-Wing": ("Unfair", 320, 7.0), "ALS-XY-Chain": ("Unfair", 340, 7.1),
    "Death Blossom": ("Unfair", 360, 7.2),
    "Template Set": ("Extreme", 10000, 8.5), "Template Delete": ("Extreme", 10000, 8.5),
    "Squirmbag": ("Unfair", 470, 5.4), "Whale": ("Unfair", 470, 5.6),
    "Leviathan": ("Unfair", 470, 5.8),
    "Finned Squirmbag": ("Unfair", 470, 6.9), "Sashimi Squirmbag": ("Unfair", 470, 6.9),
    "Finned Whale": ("Unfair", 470, 7.0), "Sashimi Whale": ("Unfair", 470, 7.0),
    "Finned Leviathan": ("Unfair", 470, 7.1), "Sashimi Leviathan": ("Unfair", 470, 7.1),
    "Skyscraper": ("Hard", 130, 4.0),
    "2-String Kite": ("Hard", 150, 4.1),
    "Turbot Fish": ("Hard", 120, 4.2),
    "Empty Rectangle": ("Hard", 120, 4.2),
    "Dual 2-String Kite": ("Hard", 150, 4.1),
    "Dual Empty Rectangle": ("Hard", 120, 4.2),
    "XY-Wing": ("Hard", 160, 4.2),
    "XYZ-Wing": ("Hard", 180, 4.4),
    # HoDoKu has neither: it makes their deductions as ALS-XZ (its level and score);
    # Explainer's ratings: Sukaku's WXYZ-Wing, Explainer's own Aligned Pair Exclusion
    "WXYZ-Wing": ("Unfair", 300, 5.5),
    "Aligned Pair Exclusion": ("Unfair", 300, 6.2),
    "W-Wing": ("Hard", 150, 7.0),
    "Simple Colors Trap": ("Hard", 150, 6.6),
    "Simple Colors Wrap": ("Hard", 150, 6.5),
    "Multi Colors 1": ("Hard", 200, 6.6),   # Explainer's X-chains, as colors
    "Multi Colors 2": ("Hard", 200, 6.6),
    # HoDoKu has neither: levels and scores of their nearest (Multi Colors, XY-Chain); a
    # grown color needs every other place of a unit gone at once, which only Explainer's
    # multiple forcing chains express (as Grouped AIC), a medusa's links are an AIC's
    "X-Colors": ("Hard", 200, 8.0),
    "3D Medusa": ("Unfair", 260, 7.0),
    "Uniqueness Test 1": ("Hard", 100, 4.5),
    "Uniqueness Test 2": ("Hard", 100, 4.6),
    "Uniqueness Test 3": ("Hard", 100, 4.6),
    "Uniqueness Test 4": ("Hard", 100, 4.6),
    "Uniqueness Test 5": ("Hard", 100, 4.6),
    "Uniqueness Test 6": ("Hard", 100, 4.6),
    "Hidden Rectangle": ("Hard", 100, 7.0),  # Explainer has none: as a forcing chain
    "Avoidable Rectangle Type 1": ("Hard", 100, 4.5),  # Explainer has none: as type 1
    "Avoidable Rectangle Type 2": ("Hard", 100, 4.6),
    "Bivalue Universal Grave + 1": ("Hard", 100, 5.6),
    "BUG Lite": ("Hard", 100, 4.6),   # HoDoKu and Explainer have none: as a rectangle
    "Remote Pair": ("Hard", 110, 7.0),
    "X-Chain": ("Unfair", 260, 5.4),     # 3 strong links and up
    "XY-Chain": ("Unfair", 260, 7.0),
    "AIC": ("Unfair", 280, 7.0),
    "Grouped AIC": ("Unfair", 300, 8.0),
    # HoDoKu's levels and scores (names.py); rated as the AICs they extend
    "Continuous Nice Loop": ("Unfair", 280, 7.0),
    "Discontinuous Nice Loop": ("Unfair", 280, 7.0),
    "Grouped Continuous Nice Loop": ("Unfair", 300, 8.0),
    "Grouped Discontinuous Nice Loop": ("Unfair", 300, 8.0),
    "ALS-XZ": ("Unfair", 300, 5.5),      # WXYZ-Wing and up (see WINGS)
    "Sue de Coq": ("Unfair", 250, 7.0),  # Explainer has none: as two sets (ALS-XZ)
    "Kraken Fish Type 1": ("Extreme", 500, 8.5),   # HoDoKu's; its fins' chains are ours
    "Kraken Fish Type 2": ("Extreme", 500, 8.5),   # (singles from an assumption): as those
    "Forcing Chain Contradiction": ("Extreme", 500, 8.5),   # SE's dynamic forcing chains
    "Forcing Chain Verity": ("Extreme", 500, 8.5),
    "Forcing Net Contradiction": ("Extreme", 700, 9.0),     # its dynamic chains (+)
    "Forcing Net Verity": ("Extreme", 700, 9.0),
    "Nested Forcing Net": ("Extreme", 700, 9.5),            # (+forcing chains)
}



def _complex_fish() -> dict[str, tuple[str, int, float]]:
    """Franken and Mutant fish (Explainer has none): HoDoKu's levels and scores, rated just
    above the finned basic fish of their size, a Mutant above a Franken."""
    out = {}
    for rise, kind in enumerate(("Franken ", "Finned Franken ", "Mutant ", "Finned Mutant "), 1):
        for size, name in enumerate(hodoku.FISH):
            entry = hodoku.entry_named(kind + name)
            assert entry is not None, kind + name
            out[kind + name] = (entry.level, entry.score, round(6.6 + 0.1 * (size + rise), 1))
    return out


TABLE.update(_complex_fish())

LENGTHS = (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)


@dataclass(frozen=True)
class Grade:
    """A path's grade."""

    level: str
    score: int
    rating: float
    hardest: str      # the technique of the hardest step ('' for none)
    solved: bool


STRONG_LINKS = {2: 4.2, 3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6, 7: 7.0, 8: 7.4}  # Sukaku's
WINGS = {2: 4.4, 3: 5.5, 4: 6.2}  # ALS-XZ of a bivalue cell and a set of 2 to 4 cells
# Explainer weighs every step it finds; ours come cheapest first (chains shortest first,
# ALS-XZ wings before other pairs of sets, which rate 7.0 and up), so the path weighs each
# technique's first step, and the first FORCING_LOOK of a forcing technique's.
FORCING = frozenset(name for name in TABLE if "Forcing" in name)
FORCING_LOOK = 3  # forcing steps weighed per step: each costs a search of the grid
# Explainer's unique rectangles are types 1 to 4 over four whole corners; HoDoKu's other
# uniqueness patterns rest on uniqueness too, so no chain of Explainer's makes their step
RECTANGLES = frozenset(f"Uniqueness Test {k}" for k in range(1, 5))
NOT_EXPLAINERS = frozenset({"Uniqueness Test 5", "Uniqueness Test 6", "Hidden Rectangle",
                            "Avoidable Rectangle Type 1", "Avoidable Rectangle Type 2"})
# An Explainer path is taken for paths rated in EXPLAINED: below (up to wings and unique
# rectangles) it seldom finds a cheaper way; from 8.5, the path needed forcing chains, as does
# Explainer's, which has fewer other techniques. Steps rated below EXPLAINED[0] reach the same
# grid in either order (each removes what the others leave valid), so the Explainer path
# starts where the path first takes a step rated EXPLAINED[0] or more.
EXPLAINED = (5.0, 8.5)


def step_rating(step: Step) -> float:
    """The SE-like rating of one step: its technique's, plus 0.1 per length threshold."""
    technique = step.technique
    if technique == "Hidden Single":
        return 1.2 if _in_box(step) else 1.5
    if technique == "ALS-XZ":
        if step.length == 1:  # a wing: a bivalue cell and a set of 2 or 3 cells
            return WINGS.get(len(step.cells) - 1, 6.6)
        return round(7.0 + _longer(len(step.cells) + 1), 1)
    if technique == "X-Chain":
        chain = round(6.6 + _longer(step.length), 1)
        return min(STRONG_LINKS.get((step.length + 1) // 2, chain), chain)
    return round(TABLE[technique][2] + _longer(step.length), 1)


def _longer(length: int) -> float:
    """Explainer's length increment: 0.1 past each threshold."""
    return 0.1 * sum(1 for k in LENGTHS if length > k)


def _in_box(step: Step) -> bool:
    """Whether a hidden single's unit is a box (its sentence names the unit)."""
    return " box " in step.sentence or " region " in step.sentence


def records() -> list[dict]:
    """Each technique, easiest first, as `explain --list --format json` and the page's
    /api/techniques give it: name, tier, HoDoKu level and score, SE-like rating, whether it
    assumes uniqueness, and whether a path takes it unless named (`by_default`)."""
    return [{"name": t.name, "tier": solver.TIERS[t.tier],
             **dict(zip(("level", "score", "rating"), TABLE[t.name])),
             "uniqueness": t.uniqueness, "by_default": t.by_default} for t in solver.ALL]


def grade(steps: Iterable[Step], solved: bool) -> Grade:
    """HoDoKu's level and score of a path and the SE-like rating of its hardest step. A path
    that does not solve the puzzle is graded on what it did, and says so with `solved`."""
    steps = list(steps)
    score = sum(TABLE[s.technique][1] for s in steps)
    level = max((TABLE[s.technique][0] for s in steps), key=LEVELS.index, default="Easy")
    while level in CEILINGS and score > CEILINGS[level]:
        level = LEVELS[LEVELS.index(level) + 1]
    rating, hardest = _hardest(steps)
    return Grade(level, score, rating, hardest, solved)


def grade_path(path: solver.Path, techniques: Iterable[solver.Technique] | None = None, *,
               unique: bool = False, stop: Callable[[], bool] | None = None) -> Grade:
    """A path's grade, rated by the easier of two paths: its own and the Explainer path of
    the same puzzle and techniques (see `explainer_path`), taken where they can differ and
    given up as soon as it rates no lower."""
    own = grade(path.steps, path.solved)
    if not path.solved or not EXPLAINED[0] <= own.rating < EXPLAINED[1]:
        return own
    basic = next(k for k, step in enumerate(path.steps) if step_rating(step) >= EXPLAINED[0])
    foreign = _foreign(path.puzzle, path.steps)
    explained = explainer_path(path.puzzle, techniques, unique=unique, stop=stop,
                               ceiling=None if foreign else own.rating,
                               given=path.steps[:basic], known=path.found)
    if not _solves(path.puzzle, explained):
        return own
    rating, hardest = _hardest(explained)
    return replace(own, rating=rating, hardest=hardest) \
        if foreign or rating < own.rating else own


def _hardest(steps: Iterable[Step]) -> tuple[float, str]:
    """The highest SE-like rating of the steps, and its technique ((0.0, '') for none)."""
    return max(((step_rating(s), s.technique) for s in steps), default=(0.0, ""))


def explainer_path(puzzle: Puzzle, techniques: Iterable[solver.Technique] | None = None, *,
                   unique: bool = False, stop: Callable[[], bool] | None = None,
                   ceiling: float | None = None, given: Iterable[Step] = (),
                   known: dict | None = None) -> list[Step]:
    """Explainer's way through a puzzle: each step the lowest-rated one the techniques find
    (on a tie, the first technique's first), until the grid is full or nothing applies.
    With a ceiling, only what rates below it: techniques whose steps can, and the path stops
    before a step that does not. The `given` steps are taken first. `known` is what another
    path's finders found on the grids it passed (`Path.found`): not searched again."""
    chosen = [(floor, t) for floor, t in _order(solver.usable(
        puzzle, solver.TECHNIQUES if techniques is None else techniques, unique))
        if ceiling is None or floor < ceiling]
    g = Candidates(puzzle)
    steps = list(given)
    for step in steps:
        g.apply(step)
    try:
        with forcing.stopping(stop):
            while not g.solved() and all(map(or_, g.values, g.cands)):
                if stop is not None and stop():
                    break
                lowest = _lowest(g, chosen, known.get(g.state()) if known else None)
                if lowest is None or ceiling is not None and step_rating(lowest) >= ceiling:
                    break
                g.apply(lowest)
                steps.append(lowest)
    except forcing.Stopped:
        pass
    return steps


def _foreign(puzzle: Puzzle, steps: list[Step]) -> bool:
    """Whether the path takes a uniqueness step Explainer cannot: HoDoKu's rectangles may
    use a corner that lost a pair digit and its catalogue has more patterns, where
    Explainer's need both digits in all four corners, so such a path is not one Explainer
    could rate (its own path is taken instead)."""
    g = Candidates(puzzle)
    for step in steps:
        if step.technique in NOT_EXPLAINERS or \
                step.technique in RECTANGLES and not _whole(g, step):
            return True
        g.apply(step)
    return False


def _whole(g: Candidates, step: Step) -> bool:
    """Whether a rectangle step's four corners (its first cells) share two candidates."""
    return reduce(and_, (g.cands[c] for c in step.cells[:4])).bit_count() >= 2


def _strict(find: Callable[[Candidates], Iterable[Step]]) -> Callable[[Candidates],
                                                                     Iterator[Step]]:
    """A rectangle finder that keeps only Explainer's rectangles (see `_foreign`)."""
    def strict(g: Candidates) -> Iterator[Step]:
        return (step for step in find(g) if _whole(g, step))
    return strict


def _solves(puzzle: Puzzle, steps: list[Step]) -> bool:
    """Whether the steps fill every blank cell."""
    filled = {cell for step in steps for cell, _ in step.placements}
    return all(d or cell in filled for cell, d in enumerate(puzzle.givens))


def _order(techniques: list[solver.Technique]) -> list[tuple[float, solver.Technique]]:
    """Explainer's order: (lowest rating, technique), ALS-XZ split into its wings and the
    other pairs of sets (forcing chains to Explainer, 7.0 and up)."""
    out = []
    for t in techniques:
        if t.name == "ALS-XZ":
            out.append((TABLE[t.name][2], replace(t, find=partial(als.als_xz, part="wings"))))
            out.append((7.0, replace(t, find=partial(als.als_xz, part="sets"))))
        elif t.name in RECTANGLES:
            out.append((TABLE[t.name][2], replace(t, find=_strict(t.find))))
        elif t.name in NOT_EXPLAINERS:
            continue
        else:
            out.append((1.2 if t.name == "Hidden Single" else TABLE[t.name][2], t))
    return sorted(out, key=lambda pair: pair[0])


def _lowest(g: Candidates, chosen: list[tuple[float, solver.Technique]],
            known: tuple | None = None) -> Step | None:
    """The lowest-rated step of the techniques, in Explainer's order; `known`: (finders that
    find nothing on this grid, a finder, its first step)."""
    nothing, finder, first = known or ((), None, None)
    best, best_rating = None, 0.0
    for floor, technique in chosen:
        if best is not None and floor >= best_rating:
            break
        if technique.find in nothing:
            continue
        look = FORCING_LOOK if technique.name in FORCING else 1
        found = [first] if technique.find is finder and look == 1 else islice(
            technique.find(g), look)
        for step in found:
            rating = step_rating(step)
            if best is None or rating < best_rating:
                best, best_rating = step, rating
    return best
