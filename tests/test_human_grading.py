"""Grading: HoDoKu's levels and scores, the SE-like rating, monotone on the technique order."""

from __future__ import annotations

import pytest

from sudokulab import datasets
from sudokulab.formats.text import parse
from sudokulab.human import grading, solver
from sudokulab.human.candidates import Candidates
from sudokulab.human.grading import LEVELS, TABLE, grade
from sudokulab.human.step import Step


def steps(*names: str) -> list[Step]:
    """Steps of the named techniques (only the technique matters to the score)."""
    return [Step(name) for name in names]


def test_every_technique_has_a_level_a_score_and_a_rating():
    for technique in solver.ALL:  # those used only when named too
        level, score, rating = TABLE[technique.name]
        assert level in LEVELS and score > 0 and 1.0 <= rating <= 10.0


def test_tiers_never_decrease_along_the_technique_order():
    tiers = [t.tier for t in solver.TECHNIQUES]
    assert tiers == sorted(tiers)
    assert {TABLE[t.name][0] for t in solver.TECHNIQUES if t.tier == 0} == {"Easy"}
    assert {TABLE[t.name][0] for t in solver.TECHNIQUES if t.tier == 5} == {"Extreme"}


def test_score_is_the_sum_and_the_level_rises_past_a_ceiling():
    easy = grade(steps(*["Hidden Single"] * 57), True)
    assert (easy.level, easy.score) == ("Easy", 798)
    over = grade(steps(*["Hidden Single"] * 58), True)
    assert (over.level, over.score) == ("Medium", 812)
    hard = grade(steps("X-Wing", "Naked Single"), True)
    assert (hard.level, hard.score, hard.hardest) == ("Hard", 144, "X-Wing")
    assert grade(steps("Forcing Chain Contradiction"), True).level == "Extreme"


def test_the_rating_is_the_hardest_steps_on_explainers_scale():
    assert grade(steps("Full House"), True).rating == 1.0
    assert grade(steps("Full House", "Naked Single"), True).rating == 2.3
    assert grade(steps("Naked Pair", "X-Wing", "Hidden Pair"), True).rating == 3.4
    box = Step("Hidden Single", sentence="7 has only one place left in box 4: r5c2.")
    row = Step("Hidden Single", sentence="7 has only one place left in row 5: r5c2.")
    assert grading.step_rating(box) == 1.2 and grading.step_rating(row) == 1.5
    assert grading.step_rating(Step("AIC", length=3)) == 7.0
    assert grading.step_rating(Step("AIC", length=9)) == 7.3  # past 4, 6 and 8 links


@pytest.mark.parametrize("index", range(0, 95, 19))
def test_techniques_up_to_the_hardest_used_give_the_same_path(index):
    """The easiest-first order makes grading monotone: enabling only the techniques up to
    the hardest one a path used gives the same path; one fewer tier makes it stall."""
    puzzle = datasets.load("top95")[index]
    full = solver.solve(puzzle, unique=True)
    order = [t.name for t in solver.TECHNIQUES]
    hardest = max(order.index(name) for name in full.counts())
    upto = solver.solve(puzzle, solver.TECHNIQUES[: hardest + 1], unique=True)
    assert [s.notation for s in upto.steps] == [s.notation for s in full.steps]
    tier = solver.TECHNIQUES[hardest].tier
    lower = solver.solve(puzzle, [t for t in solver.TECHNIQUES if t.tier < tier], unique=True)
    assert not lower.solved
    assert grade(lower.steps, False).rating <= grade(full.steps, True).rating


def test_techniques_rate_as_the_explainer_rule_that_makes_the_same_deduction():
    """An X-Chain rates by its strong links (Sukaku's 3 to 8 strong links) or as an X-chain
    when that is cheaper; chains that mix cell and unit links as forcing chains; an ALS-XZ
    with a bivalue cell as a wing, any other as a forcing chain; what needs several
    candidates at one node (groups) as multiple forcing chains; forcing chains by singles of
    every digit as its dynamic ones, each deeper kind higher."""
    rate = grading.step_rating
    assert rate(Step("X-Chain", length=5)) == 5.4 < rate(Step("X-Chain", length=7)) == 5.8
    assert rate(Step("X-Chain", length=15)) == 7.0  # 8 strong links 7.4; X-chain 6.6 + 0.4
    assert rate(Step("XY-Chain", length=3)) == rate(Step("AIC", length=3)) == 7.0
    assert rate(Step("Skyscraper")) == 4.0 < rate(Step("2-String Kite")) == 4.1
    wing = Step("ALS-XZ", cells=(0, 1, 2, 3), length=1)   # a bivalue cell and 3 cells
    assert rate(wing) == 5.5
    assert rate(Step("ALS-XZ", cells=(0, 1, 2, 3), length=2)) == 7.1  # two sets of 2
    assert rate(Step("Grouped AIC", length=7)) == 8.2
    contradiction = rate(Step("Forcing Chain Contradiction", length=4))
    net = rate(Step("Forcing Net Contradiction", length=4))
    assert 8.5 == contradiction < net < rate(Step("Nested Forcing Net", length=4))
    assert rate(Step("Forcing Chain Contradiction", length=18)) == 9.0  # past 4, 6, 8, 12, 16


# Two puzzles of bench/data/se_rated.txt with Sudoku Explainer's own rating (serate) and the
# rule it used: a WXYZ-Wing, 3 strong links. Our easiest-first path meets an XY-Chain and a
# color trap first, which rate higher; Explainer's way takes the cheaper steps.
EXPLAINER_RATED = [
    ("007000500000080000900070001025108930003000600009000200000503000700000006010207040",
     5.5, "ALS-XZ"),
    ("010700000406020000902105000048090000601000507000050840000503702000070906000006050",
     5.4, "X-Chain"),
]


@pytest.mark.parametrize("line, rating, hardest", EXPLAINER_RATED)
def test_the_rating_follows_explainers_way_through_the_puzzle(line, rating, hardest):
    puzzle = parse(line)
    path = solver.solve(puzzle, unique=True)
    own = grade(path.steps, True)
    graded = grading.grade_path(path, unique=True)
    assert (graded.rating, graded.hardest) == (rating, hardest) and own.rating > rating
    assert (graded.level, graded.score) == (own.level, own.score)  # HoDoKu's, from its path


# From bench/data/se_rated.txt (Explainer: 7.2). Our path's steps 15 and 16 are Hidden
# Rectangles (HoDoKu's; Explainer has none), the second over r5c1, which lost its 1 at
# step 15 (HoDoKu allows that; Explainer's rectangles need both digits in all four
# corners), so the rating comes from Explainer's own way.
LEANING = "009460080500000016000007000300280700020040090004036008000600000980000002010028400"


def test_a_rectangle_over_a_lost_candidate_is_not_explainers():
    path = solver.solve(parse(LEANING), unique=True)
    k = next(k for k, s in enumerate(path.steps) if s.notation.startswith(
        "Hidden Rectangle: 1/7 in r5c1,r5c4,r6c1,r6c4"))
    g = Candidates(path.puzzle)
    for step in path.steps[:k]:
        g.apply(step)
    hidden = next(t for t in solver.TECHNIQUES if t.name == "Hidden Rectangle")
    assert path.steps[k] in list(hidden.find(g))
    assert path.steps[k] not in list(grading._strict(hidden.find)(g))
    assert grading._foreign(path.puzzle, path.steps)
    first = next(j for j, s in enumerate(path.steps) if s.technique == "Hidden Rectangle")
    assert first == k - 1 and not grading._foreign(path.puzzle, path.steps[:first])
    graded = grading.grade_path(path, unique=True)
    assert graded.rating == 7.2  # was 7.0: Explainer's path with the lost corner's rectangle
    assert "Rectangle" not in graded.hardest


@pytest.mark.parametrize("index", range(0, 95, 31))
def test_each_explainer_step_is_the_lowest_rated_and_sound(index):
    """Every step of the Explainer path rates no higher than the first step of any technique
    Explainer knows (`_order`) on the same candidates, and agrees with the solution."""
    puzzle, solution = datasets.load("top95")[index], datasets.solutions("top95")[index]
    steps = grading.explainer_path(puzzle, unique=True, ceiling=8.4)
    assert solver.wrong_moves(steps, solution, 9) == []
    g = Candidates(puzzle)
    chosen = grading._order(solver.usable(puzzle, solver.TECHNIQUES, unique=True))
    for step in steps[:60]:
        firsts = [s for s in (next(t.find(g), None) for floor, t in chosen if floor <= 8.4)
                  if s is not None]
        assert grading.step_rating(step) <= min(map(grading.step_rating, firsts))
        g.apply(step)

