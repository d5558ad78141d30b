"""The Norvig backend on the rules that need propagation of their own: parity,
non-consecutive (and so the Miracle rules) and killer cages.

Every answer is checked with the independent checker. On 4x4 the counts are also
cross-checked by brute force: the 288 classic grids, built here without any solver,
filtered with `check`.
"""

from itertools import permutations

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends.norvig import (
    Board,
    Contradiction,
    NorvigBackend,
    RuleBoard,
    board,
)
from sudokulab.check import check
from sudokulab.formats.text import parse
from sudokulab.geometry import geometry
from sudokulab.puzzle import empty
from sudokulab.result import Status

norvig = NorvigBackend()


def all_solutions(puzzle):
    """Every solution norvig finds, after checking each is valid and none repeats."""
    result = norvig.solve(puzzle, limit=None)
    assert result.exact, result
    assert len(set(result.solutions)) == result.count
    assert all(check(puzzle, s) == [] for s in result.solutions)
    return set(result.solutions)


def with_givens(puzzle, givens):
    """The puzzle with digits put in (row, col) cells, counted from 0."""
    values = list(puzzle.givens)
    for (row, col), digit in givens.items():
        values[row * puzzle.n + col] = digit
    return puzzle.with_values(values)


def classic_four_by_four():
    """The 288 classic 4x4 grids, row by row from permutations: no solver involved."""
    grids = [()]
    for _ in range(4):
        grids = [grid + row for grid in grids for row in permutations(range(1, 5))]
        grids = [g for g in grids if _no_repeat_so_far(g)]
    return grids


def _no_repeat_so_far(grid):
    """No column or 2x2 box of the rows filled so far repeats a digit."""
    rows = len(grid) // 4
    for col in range(4):
        column = grid[col::4]
        if len(set(column)) != len(column):
            return False
    for top in range(0, rows, 2):
        for left in (0, 2):
            box = [grid[r * 4 + c] for r in range(top, min(top + 2, rows))
                   for c in (left, left + 1)]
            if len(set(box)) != len(box):
                return False
    return True


CLASSIC_4 = classic_four_by_four()


def brute_force(puzzle):
    """The 4x4 grids the checker accepts for the puzzle."""
    return {g for g in CLASSIC_4 if check(puzzle, g) == []}


def cages_from(layout, solution):
    """Killer cages from a layout of labels (one character a cell), totals from a solution."""
    labels = [ch for ch in layout if not ch.isspace()]
    n = round(len(labels) ** 0.5)
    cells: dict[str, list] = {}
    for index, label in enumerate(labels):
        cells.setdefault(label, []).append(divmod(index, n))
    return tuple(R.Cage(tuple(group), sum(solution[r * n + c] for r, c in group))
                 for group in cells.values())


# --- facts about the design --------------------------------------------------------------

def test_every_rule_is_supported():
    assert set(NorvigBackend.supported_rules) == set(R.RULE_TYPES)


def test_only_rules_with_propagation_of_their_own_get_a_rule_board():
    assert type(board(geometry((3, 3), ()))) is Board
    assert type(board(geometry((3, 3), (R.Diagonal(), R.AntiKnight())))) is Board
    for rule in (R.NonConsecutive(), R.Parity(((0, 0),), even=True),
                 R.Cage(((0, 0), (0, 1)), 3)):
        assert type(board(geometry((3, 3), (rule,)))) is RuleBoard


def test_describe_says_what_each_rule_became():
    puzzle = empty(9, (*R.MIRACLE, R.Cage(((0, 0), (0, 1)), 10),
                       R.Parity(((4, 4),), even=True)))
    text = norvig.describe(puzzle)
    assert "chess moves" in text
    assert "non-consecutive" in text and "144 orthogonal pairs" in text
    assert "r1c1,r1c2=10: 2 cells, 4 digit sets" in text
    assert "1 even cell masked to {2,4,6,8}" in text and "r5c5" in text


# --- the Miracle rules: anti-knight, anti-king, non-consecutive ---------------------------

@pytest.fixture(scope="module")
def miracle_grids():
    grids = all_solutions(empty(9, R.MIRACLE))
    return grids


def test_the_miracle_rules_admit_exactly_72_grids(miracle_grids):
    assert len(miracle_grids) == 72


@pytest.mark.parametrize("cell", [(0, 0), (4, 4), (8, 2), (2, 7)])
def test_any_single_given_leaves_exactly_8_miracle_grids(miracle_grids, cell):
    row, col = cell
    digit = sorted(miracle_grids)[row + col][row * 9 + col]  # a digit some grid has there
    grids = all_solutions(with_givens(empty(9, R.MIRACLE), {cell: digit}))
    assert len(grids) == 8
    assert grids == {g for g in miracle_grids if g[row * 9 + col] == digit}


def test_two_givens_make_the_miracle_unique():
    puzzle = with_givens(empty(9, R.MIRACLE), {(4, 2): 1, (5, 6): 2})
    result = norvig.solve(puzzle, limit=None)
    assert result.status is Status.UNIQUE and result.exact
    assert check(puzzle, result.solutions[0]) == []
    # unique only because of the rules: classic rules alone leave it wide open
    assert norvig.solve(puzzle.with_rules(()), limit=2).status is Status.MULTIPLE


# --- non-consecutive and parity, cross-checked by brute force on 4x4 ---------------------

def test_the_brute_force_finds_the_288_classic_grids():
    assert len(CLASSIC_4) == len(set(CLASSIC_4)) == 288
    assert all(check(empty(4), g) == [] for g in CLASSIC_4)


def test_non_consecutive_leaves_the_empty_four_by_four_no_grid():
    # a 2x2 box is a cycle of four neighbours: 2 would need two neighbours outside {1, 3}
    puzzle = empty(4, (R.NonConsecutive(),))
    assert brute_force(puzzle) == set()
    assert norvig.solve(puzzle, limit=None).status is Status.NONE


def test_non_consecutive_on_six_by_six_matches_filtering_the_classic_grids():
    # keep the first row and r2c1, r2c2 of a non-consecutive 6x6 grid: of the classic
    # grids that fill the rest, the checker keeps those with no consecutive neighbours
    rule = (R.NonConsecutive(),)
    full = norvig.solve(empty(6, rule), limit=1).solutions[0]
    puzzle = empty(6, rule).with_values([d if i < 8 else 0 for i, d in enumerate(full)])
    classic = norvig.solve(puzzle.with_rules(()), limit=None)
    # 6x6 grids / 6! first rows / 3! ways to finish the first box's second row
    assert classic.exact and classic.count == 28_200_960 // 720 // 6
    grids = all_solutions(puzzle)
    assert full in grids and len(grids) > 1
    assert grids == {g for g in classic.solutions if check(puzzle, g) == []}


def test_one_even_cell_halves_the_empty_four_by_four():
    puzzle = empty(4, (R.Parity(((0, 0),), even=True),))
    grids = all_solutions(puzzle)
    assert len(grids) == 144  # each digit is in r1c1 equally often; 2 of the 4 are even
    assert grids == brute_force(puzzle)
    assert {g[0] for g in grids} == {2, 4}


def test_odd_cells_restrict_solutions():
    puzzle = empty(4, (R.Parity(((0, 0), (1, 2), (3, 3)), even=False),))
    assert all_solutions(puzzle) == brute_force(puzzle)


def test_parity_makes_a_two_solution_puzzle_unique():
    # r1c1 and r3c1 can swap 1 and 2 (with r1c2 and r3c2): an even r1c1 picks one way
    puzzle = parse("..34" "3412" "..43" "4321")
    assert norvig.solve(puzzle, limit=None).count == 2
    even = puzzle.with_rules((R.Parity(((0, 0),), even=True),))
    result = norvig.solve(even, limit=None)
    assert result.status is Status.UNIQUE
    assert result.solutions[0] == (2, 1, 3, 4, 3, 4, 1, 2, 1, 2, 4, 3, 4, 3, 2, 1)


def test_a_given_of_the_wrong_parity_is_no_solution():
    puzzle = parse("1..." + "." * 12).with_rules((R.Parity(((0, 0),), even=True),))
    result = norvig.solve(puzzle, limit=None)
    assert result.status is Status.NONE and result.exact


@pytest.mark.parametrize("rules", [
    (R.Parity(((0, 0), (3, 3)), even=True), R.Diagonal()),
    (R.Parity(((0, 0), (1, 1)), even=True), R.Parity(((2, 2),), even=False)),
    (R.Cage(((0, 0), (0, 1)), 3), R.Cage(((1, 1), (2, 1), (2, 2)), 7)),
    (R.Cage(((0, 0), (1, 0)), 7), R.Parity(((0, 1),), even=False), R.Diagonal()),
])
def test_rule_mixes_on_four_by_four_match_brute_force(rules):
    puzzle = empty(4, rules)
    assert all_solutions(puzzle) == brute_force(puzzle)


# --- killer cages --------------------------------------------------------------------------

def test_a_four_by_four_killer_matches_brute_force():
    solution = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    puzzle = empty(4, cages_from("aabb" "cdbe" "cdfe" "ggff", solution))
    assert check(puzzle, solution) == []
    grids = all_solutions(puzzle)
    assert solution in grids and grids == brute_force(puzzle)


KILLER_LAYOUT = """
aabbcccdd
eebfcgghh
eiiffjjhk
limfnnook
limpnqook
llrpsqqtt
urrvswwtx
uurvywzxx
uAAAyyzzx
"""


@pytest.fixture(scope="module")
def killer():
    solution = datasets.solutions("top95")[0]
    cages = cages_from(KILLER_LAYOUT, solution)
    assert {len(cage.cells) for cage in cages} == {2, 3, 4}
    return empty(9, cages), solution


def test_a_killer_without_givens(killer):
    puzzle, solution = killer
    grids = all_solutions(puzzle)
    assert solution in grids and len(grids) == 4
    # the count agrees with the sum of the counts of each digit in r1c1
    parts = [all_solutions(with_givens(puzzle, {(0, 0): d})) for d in range(1, 10)]
    assert set().union(*parts) == grids and sum(map(len, parts)) == len(grids)


def test_a_killer_with_two_givens_is_solved_to_its_solution(killer):
    puzzle, solution = killer
    others = all_solutions(puzzle) - {solution}
    # givens from the solution at cells where the other grids differ from it
    cells = [cell for cell in range(81) if any(g[cell] != solution[cell] for g in others)]
    givens = {divmod(cells[0], 9): solution[cells[0]], divmod(cells[-1], 9): solution[cells[-1]]}
    result = norvig.solve(with_givens(puzzle, givens), limit=None)
    assert result.status is Status.UNIQUE and result.solutions == (solution,)


def test_the_cages_make_it_a_puzzle(killer):
    puzzle, _ = killer
    assert norvig.solve(puzzle.with_rules(()), limit=2).status is Status.MULTIPLE


def test_a_cage_that_cannot_add_up_is_no_solution():
    puzzle = empty(9, (R.Cage(((0, 0), (0, 1), (1, 0)), 5),))  # three digits: at least 6
    assert norvig.solve(puzzle).status is Status.NONE
    puzzle = empty(4, (R.Cage(((0, 0), (0, 1)), 3), R.Cage(((1, 0), (1, 1)), 3)))
    assert norvig.solve(puzzle).status is Status.NONE  # both need 1 and 2 in one box


# Each rule with r1c1 and r1c2 narrowed to one digit each that breaks it.
BROKEN = [
    (R.LittleKiller(((0, 0), (1, 1), (2, 2)), 5), (4, 1), (0, 5, 10)),  # 4 + 1 + 1 is over 5
    (R.Sandwich(False, 0, 5), (2, 3), (0, 1, 2, 3)),  # 2 + 3 between needs the 1 and 4 at the ends
    (R.Kropki(white=(((0, 0), (0, 1)),)), (4, 2), (0, 1)),  # 4 and 2 are not consecutive
]


@pytest.mark.parametrize("rule, digits, cells", BROKEN)
def test_a_rule_that_cannot_hold_names_all_its_cells_as_the_dead_end(rule, digits, cells):
    # The search weighs the cells of a dead end (dom/wdeg): a sum, a sandwich or a related
    # pair that cannot hold is the whole rule's failure, not only of the cell emptied first.
    puzzle = empty(4, (rule,))
    b = board(geometry(puzzle.box, puzzle.rules))
    values, places, _, _ = b.start(puzzle)
    values[0], values[1] = (1 << (d - 1) for d in digits)
    with pytest.raises(Contradiction) as dead_end:
        b.propagate(values, places, [], [], [0, 0])
    assert sorted(dead_end.value.cells) == list(cells)
