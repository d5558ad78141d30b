"""The dlx backend: facts about the exact cover matrix, answers equal to norvig's, limits,
timeouts and Ctrl-C that keep what was found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import dlx, make_backend
from sudokulab.check import check
from sudokulab.errors import Interrupted
from sudokulab.formats.text import from_json, parse
from sudokulab.geometry import geometry
from sudokulab.puzzle import empty
from sudokulab.result import Status

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
ROW = "123456" + "." * 30  # a 6x6 with its first row given: 39,168 solutions
NO_PLACE = "12......" + "..3...4."  # r1c3 must be 3 or 4; column 3 already has both


@pytest.fixture(scope="module")
def backend():
    return make_backend("dlx")


def classic() -> dlx.Matrix:
    return dlx.matrix(geometry((3, 3)))


def test_the_classic_matrix_has_729_rows_and_324_primary_columns():
    m = classic()
    assert m.rows == 729 and len(m.column_rows) == 324
    assert m.secondary == {} and m.parity == 0 and m.cages == ()


def test_each_classic_row_covers_its_cell_and_three_unit_digit_columns():
    m = classic()
    assert all(len(m.columns_of(row)) == 4 for row in range(m.rows))
    # r1c1 = 5: its cell, row 1 digit 5, column 1 digit 5, box 1 digit 5
    names = [m.column_names[c] for c in m.columns_of(4)]
    assert names == ["cell r1c1", "row 1 digit 5", "column 1 digit 5", "box 1 digit 5"]


def test_each_column_has_n_rows_and_covering_a_row_removes_its_column_mates():
    m = classic()
    assert all(rows.bit_count() == 9 for rows in m.column_rows)
    removed = m.everything ^ m.keep[0]  # r1c1 = 1
    # itself, 8 other digits of r1c1, and 8 other cells of row 1, column 1, box 1 each
    # minus the 4 cells box 1 shares with row 1 or column 1: 1 + 8 + 8 + 8 + 4
    assert removed.bit_count() == 29


def test_a_diagonal_adds_two_units_of_columns_and_the_centre_covers_six():
    m = dlx.matrix(geometry((3, 3), (R.Diagonal(),)))
    assert len(m.column_rows) == 324 + 2 * 9
    centre = (4 * 9 + 4) * 9
    assert len(m.columns_of(centre)) == 6 and len(m.columns_of(9)) == 4  # r5c5, r1c2


def test_pairwise_rules_are_secondary_columns_of_two_rows():
    m = dlx.matrix(geometry((3, 3), R.MIRACLE))
    geo = geometry((3, 3), R.MIRACLE)
    pairs = sum(not geo.share_unit(a, b) for a, b in geo.moves)
    # knight: 224 pairs, 72 in a box; king: 272, 144 in a row or column, 72 in a box
    assert len(geo.moves) == 496 and pairs == 496 - 72 - 144 - 72 == 208
    assert m.secondary == {"chess move (cells differ)": pairs * 9,
                           "non-consecutive": 144 * 2 * 8}
    r1c1, r2c3, r1c2 = 0, 11, 1
    assert not m.keep[r1c1 * 9 + 4] >> (r2c3 * 9 + 4) & 1  # a knight's move, same digit
    assert m.keep[r1c1 * 9 + 4] >> (r2c3 * 9 + 5) & 1       # a knight's move, other digit
    assert not m.keep[r1c1 * 9 + 4] >> (r1c2 * 9 + 5) & 1   # neighbours: 5 then 6


def test_parity_removes_the_rows_of_the_wrong_digits():
    m = dlx.matrix(geometry((3, 3), (R.Parity(((0, 0),), even=True),)))
    assert m.parity == sum(1 << d for d in (0, 2, 4, 6, 8))  # r1c1 loses 1, 3, 5, 7, 9


def test_top95_solutions_equal_the_bundled_ones(backend):
    puzzles, solutions = datasets.load("top95"), datasets.solutions("top95")
    for puzzle, solution in zip(puzzles, solutions, strict=True):
        result = backend.solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE and result.solutions == (solution,)


def test_limits_give_solved_unique_multiple_and_none(backend):
    puzzle = datasets.load("top95")[0]
    assert backend.solve(puzzle, limit=1).status is Status.SOLVED
    assert (backend.solve(puzzle, limit=None).status,
            backend.solve(puzzle, limit=None).count) == (Status.UNIQUE, 1)
    several = backend.solve(empty(4), limit=3)
    assert (several.status, several.count, several.exact) == (Status.MULTIPLE, 3, False)
    none = backend.solve(parse(NO_PLACE), limit=2)
    assert (none.status, none.count, none.solutions) == (Status.NONE, 0, ())
    assert make_backend("norvig").solve(parse(NO_PLACE)).status is Status.NONE


def test_a_given_of_the_wrong_parity_has_no_solution(backend):
    puzzle = empty(4, (R.Parity(((0, 0),), even=True),)).with_values([1] + [0] * 15)
    assert backend.solve(puzzle).status is Status.NONE


def test_every_rule_is_supported():
    assert set(make_backend("dlx").supported_rules) == set(R.RULE_TYPES)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_puzzles_agree_with_norvig(backend, name):
    puzzle = from_json(json.dumps(VARIANTS[name]))
    result = backend.solve(puzzle, limit=2)
    if backend.unsupported(puzzle):  # a line or dot rule: refused by name, never ignored
        assert result.status is Status.UNSUPPORTED
        assert puzzle.rules[0].name in result.message
        return
    reference = make_backend("norvig").solve(puzzle, limit=2)
    assert result.status is Status.UNIQUE, result.message
    assert result.solutions == reference.solutions
    assert check(puzzle, result.solutions[0]) == []


def test_a_cage_sum_is_kept_not_just_its_digits_differing(backend):
    # r1c1 + r1c2 = 3 forces {1, 2}; 5 would be allowed if only distinctness were kept
    puzzle = empty(4, (R.Cage(((0, 0), (0, 1)), 3),))
    result = backend.solve(puzzle, limit=None)
    assert result.count == make_backend("norvig").solve(puzzle, limit=None).count
    assert result.count and all(sorted(grid[:2]) == [1, 2] for grid in result.solutions)


def test_a_timeout_returns_the_grids_found_so_far(backend, monkeypatch):
    monkeypatch.setattr(dlx, "CHECK_EVERY", 100)  # look at the clock after 100 guesses
    puzzle = parse(ROW)
    result = backend.solve(puzzle, limit=None, timeout=0)
    assert (result.status, result.exact) == (Status.TIMEOUT, False)
    assert 0 < result.count == len(result.solutions) < 39168
    assert all(check(puzzle, grid) == [] for grid in result.solutions)


def test_ctrl_c_keeps_the_solutions_found(backend, monkeypatch):
    reading = dlx.grid_of
    calls = [0]

    def pressed_at_the_fifth(n, chosen):
        calls[0] += 1
        if calls[0] == 5:
            raise KeyboardInterrupt
        return reading(n, chosen)

    monkeypatch.setattr(dlx, "grid_of", pressed_at_the_fifth)
    puzzle = parse(ROW)
    with pytest.raises(Interrupted) as stop:
        backend.solve(puzzle, limit=None)
    result = stop.value.result
    assert (result.status, result.count, result.exact) == (Status.TIMEOUT, 4, False)
    assert "interrupted" in result.message
    assert all(check(puzzle, grid) == [] for grid in result.solutions)


def test_statistics_name_the_matrix_and_the_search(backend):
    stats = backend.solve(datasets.load("top95")[0]).stats
    assert stats["rows"] == 729 and stats["columns"] == 324
    assert stats["nodes"] >= stats["guesses"] >= 1 and stats["backtracks"] >= 0


def test_describe_shows_columns_by_kind_and_the_rules_beyond_exact_cover(backend):
    text = backend.describe(datasets.load("top95")[0])
    assert "729 rows" in text and "324 primary columns" in text
    assert "81 cell, 81 row-digit, 81 column-digit, 81 box-digit" in text
    assert "each row covers 4 primary columns" in text and "givens: 17 rows" in text
    miracle = backend.describe(empty(9, R.MIRACLE))
    assert "secondary columns" in miracle and "non-consecutive: 2304" in miracle
    killer = backend.describe(from_json(json.dumps(VARIANTS["killer"])))
    assert "cage sums: pruning" in killer
    parity = backend.describe(from_json(json.dumps(VARIANTS["parity"])))
    assert "rows of wrong-parity digits removed before search" in parity


def test_sudokulab_model_prints_the_matrix(capsys):
    from sudokulab.cli import main

    code = main(["model", "-b", "dlx", "--rules", "miracle", "." * 81])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("dlx: exact cover, 729 rows")
    assert "chess move (cells differ): 1872" in out and "non-consecutive: 2304" in out


THERMOMETER = R.Thermometer(((0, 0), (0, 1), (1, 1)))


def test_a_thermometer_is_secondary_columns_between_every_two_cells_of_its_line():
    geo = geometry((2, 2), (THERMOMETER,))
    pairs = dlx.secondary_pairs(geo)[dlx.THERMOMETER]
    # bulb r1c1 (cell 0) and top r2c2 (cell 5), two apart, forbid y < x + 2, except the
    # equal digits: the two share box 1, whose (box, digit) columns see to those
    bulb_top = {(x + 1, y + 1) for a, x, b, y in pairs if (a, b) == (0, 5)}
    assert bulb_top == {(x, y) for x in range(1, 5) for y in range(1, 5)
                        if y < x + 2 and x != y}
    # r1c2 and r2c2, neighbours on the line, forbid y < x + 1 (equal: column 2 again)
    assert {(x + 1, y + 1) for a, x, b, y in pairs if (a, b) == (1, 5)} == {
        (x, y) for x in range(1, 5) for y in range(1, x)}


def test_rows_that_leave_a_related_cell_empty_are_removed_before_search():
    m = dlx.matrix(geometry((2, 2), (THERMOMETER,)))
    removed = {divmod(row, 4) for row in range(m.rows) if m.hopeless >> row & 1}
    # on 1..4 the bulb holds 1 or 2, the middle 2 or 3, the top 3 or 4
    assert removed == {(0, 2), (0, 3), (1, 0), (1, 3), (5, 0), (5, 1)}


@pytest.mark.parametrize("rule, line", [
    (R.Thermometer(((0, 0), (0, 1))), "thermometer, the pairs that break a + k <= b"),
    (R.Kropki(white=(((0, 0), (0, 1)),), negative=True),
     "kropki, the pairs that break |a - b| != 1 and a != 2b and b != 2a"),
    # 61 pairs of 1..9 are less than 5 apart; box 1 already keeps the 9 equal ones apart
    (R.Whispers(((0, 0), (1, 2))), "whispers, the pairs that break |a - b| >= 5: 52"),
    (R.SumlessCage(((0, 0), (4, 4))), "cage-without-sum (cells differ): 9"),
    (R.Arrow(((0, 0), (0, 1), (0, 2))), "arrow r1c2+r1c3 = r1c1"),
    (R.LittleKiller(((0, 1), (1, 2)), 5), "little-killer r1c2+r2c3 = 5"),
    (R.Sandwich(True, 2, 10), "sandwich r1c3..r9c3 = 10"),
])
def test_describe_says_how_each_rule_became_columns(backend, rule, line):
    assert line in backend.describe(empty(9, (rule,)))


def test_a_sum_rule_prunes_to_a_dead_end_on_a_full_grid_that_breaks_it(backend):
    grid = backend.solve(empty(4), limit=1).solutions[0]
    line = [grid[k] for k in range(4)]
    a, b = sorted((line.index(1), line.index(4)))
    wrong = R.Sandwich(False, 0, (sum(line[a + 1:b]) + 1) % 6)  # 0..5 fit between 1 and 4
    assert backend.solve(empty(4, (wrong,)).with_values(grid)).status is Status.NONE
    right = R.Sandwich(False, 0, sum(line[a + 1:b]))
    assert backend.solve(empty(4, (right,)).with_values(grid)).status is Status.UNIQUE


# --- conflict weights (dom/wdeg) -----------------------------------------------------------

IMPOSSIBLE = (".....5.8....6.1.43..........1.5........1.6...3......."
              "553.....61........4.........")
# The slowest generated puzzles of issue 19 for dlx (`sudokulab generate --rules FAMILY
# --count 5 --seed 19 --prover cpsat`, puzzle k of each): unique, with their solutions.
GENERATED = Path(__file__).parent / "data" / "generated-corners.jsonl"


def knuth_alone():
    """dlx branching on the fewest rows only, as Knuth's heuristic does."""
    plain = make_backend("dlx")
    plain.weigh_conflicts = False
    return plain


def test_before_the_first_dead_end_the_weights_change_nothing(backend):
    weighted, plain = backend.solve(empty(9), limit=1), knuth_alone().solve(empty(9), limit=1)
    assert weighted.stats["backtracks"] == plain.stats["backtracks"] == 0
    assert weighted.stats == plain.stats and weighted.solutions == plain.solutions


def test_after_dead_ends_the_weights_bring_the_search_back_to_where_it_failed(backend):
    # the same contradiction, proved again under every guess elsewhere by fewest rows alone
    weighted, plain = backend.solve(parse(IMPOSSIBLE)), knuth_alone().solve(parse(IMPOSSIBLE))
    assert weighted.status is plain.status is Status.NONE
    assert weighted.stats["nodes"] * 10 < plain.stats["nodes"]


def test_a_sum_that_cannot_add_up_is_a_dead_end_in_its_cells_columns():
    m = dlx.matrix(geometry((3, 3), (R.LittleKiller(((0, 1), (1, 2)), 30),)))  # 9 + 8 < 30
    with pytest.raises(dlx.Dead) as dead_end:
        dlx.prune(m, m.everything, 0)
    assert [m.column_names[c] for c in dead_end.value.columns] == ["cell r1c2", "cell r2c3"]


@pytest.mark.parametrize("line", GENERATED.read_text().splitlines(),
                         ids=lambda line: json.loads(line)["name"])
def test_generated_variant_puzzles_get_norvigs_unique_answer(backend, line):
    puzzle = from_json(line)
    answer, norvig = backend.solve(puzzle), make_backend("norvig").solve(puzzle)
    assert answer.status is norvig.status is Status.UNIQUE
    assert answer.solutions == norvig.solutions
    assert "".join(map(str, answer.solutions[0])) == json.loads(line)["solution"]


# --- support: pair rules prune at each node ------------------------------------------------

def candidates(m: dlx.Matrix, alive: int, cell: int) -> set[int]:
    """The digits whose rows of the cell are alive."""
    return {d + 1 for d in range(m.n) if alive >> (cell * m.n + d) & 1}


def test_a_row_with_no_partner_left_in_a_related_cell_goes():
    m = dlx.matrix(geometry((3, 3), (R.ConsecutiveMarks((((0, 0), (0, 1)),)),)))
    r1c1, r1c2, r2c1 = 0, 1, 9
    alive = m.everything & ~sum(1 << (r1c1 * 9 + d - 1) for d in range(2, 9))  # r1c1: 1 or 9
    pruned = dlx.keep_supported(m, alive, 0)
    assert candidates(m, pruned, r1c2) == {2, 8}  # marked: consecutive with 1 or 9
    # unmarked (not consecutive): 1 or 9 leaves r2c1 every digit but those two (column 1)
    assert candidates(m, pruned, r2c1) == set(range(1, 10))
    assert candidates(m, pruned, r1c1) == {1, 9}
    # the secondary columns alone wait for a row of r1c1 to be chosen
    assert candidates(m, alive, r1c2) == set(range(1, 10))


def test_a_difference_rule_alone_prunes_nothing_by_support():
    # chess moves forbid one pair per digit: a row always keeps a partner, so no table
    assert dlx.matrix(geometry((3, 3), R.MIRACLE[:2])).related == ()
    assert len(dlx.matrix(geometry((3, 3), R.MIRACLE)).related) == 2 * 144  # non-consecutive


def test_the_supports_kept_between_nodes_are_bounded():
    m = dlx.matrix(geometry((3, 3), (R.ConsecutiveMarks((((0, 0), (0, 1)),)),)))
    m.unions.update((-k, 0) for k in range(1, dlx.UNIONS_KEPT + 1))  # keys no pair makes
    alive = m.everything & ~0b111111110  # r1c1 holds 1
    assert candidates(m, dlx.keep_supported(m, alive, 0), 1) == {2}
    assert 0 < len(m.unions) < 300  # cleared, then refilled by this call's pairs only
