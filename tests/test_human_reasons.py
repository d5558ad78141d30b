"""A step's sentence names its true reason (issue 53): a naked single whose other digits a
rule took away (a one-cell cage's sum, parity, non-consecutive, a chess move, a diagonal)
or an earlier step eliminated is not explained as "seen by a peer"; and explain, hint and
grade exit 7 when the techniques stop short, as `solve -b human` does."""

from __future__ import annotations

import json

import pytest

from sudokulab import rules as R
from sudokulab.cli import main
from sudokulab.formats.text import parse
from sudokulab.human import singles, solver
from sudokulab.human.candidates import Candidates
from sudokulab.puzzle import Puzzle, empty

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def row(*values: int) -> list[int]:
    """One row of a 9x9 grid, blanks after the values given."""
    return [*values] + [0] * (9 - len(values))


def first_naked_single(puzzle: Puzzle, cell: int):
    """The naked single the technique finds in a cell (r1c1 is 0)."""
    return next(s for s in singles.naked_single(Candidates(puzzle))
                if s.placements[0][0] == cell)


def test_a_one_cell_cage_is_explained_by_its_sum():
    step = first_naked_single(empty(9, [R.Cage(((0, 0),), 5)]), 0)
    assert step.placements == ((0, 5),)
    assert step.sentence == ("r1c1 can hold only 5: its cage r1c1=5 is one cell, so the cage "
                             "sum fixes the digit.")
    # peers holding some of the other digits do not hide the reason
    puzzle = empty(9, [R.Cage(((0, 0),), 5)]).with_values(row(0, 1, 2, 3) + [0] * 72)
    assert "the cage sum fixes the digit" in first_naked_single(puzzle, 0).sentence


@pytest.mark.parametrize(("rules", "values", "cell", "digit", "reasons"), [
    ([R.Cage(((0, 0), (0, 1)), 3)], row() + row(0, 1), 0, 2,
     ["1 is already seen by a peer in its row, column or box",
      "3,4,5,6,7,8,9 fit no digit set of its cage r1c12=3"]),
    ([R.Parity(((0, 0),), True)], row(0, 0, 0, 4, 0, 8, 0, 2), 0, 6,
     ["2,4,8 are already seen by a peer in its row, column or box",
      "1,3,5,7,9 are odd, and the cell is even (parity)"]),
    ([R.AntiKnight()], row(1, 2, 0, 3, 4, 5, 6, 7) + row(0, 0, 0, 0, 8), 2, 9,
     ["1,2,3,4,5,6,7 are already seen by a peer in its row, column or box",
      "8 is a knight's move away (anti-knight)"]),
    ([R.AntiKing()], row(1, 2, 0, 3, 4, 5, 6, 7) + row(0, 0, 0, 8), 2, 9,
     ["8 is a king's move away (anti-king)"]),
    ([R.NonConsecutive()], row(0, 2, 7, 8) + row(5), 0, 9,
     ["2,5,7,8 are already seen by a peer in its row, column or box",
      "1,3,4,6 are consecutive to a neighbour's digit (non-consecutive)"]),
    ([R.Diagonal()], row(0, 1, 2, 3) + row() + row(0, 0, 4) + row(0, 0, 0, 5)
     + row(0, 0, 0, 0, 6) + row(0, 0, 0, 0, 0, 7) + row(0, 0, 0, 0, 0, 0, 8) + [0] * 18,
     0, 9, ["5,6,7,8 are already on the main diagonal (the diagonal rule)"]),
], ids=["cage sum", "parity", "anti-knight", "anti-king", "non-consecutive", "diagonal"])
def test_a_rule_that_removed_candidates_is_named(rules, values, cell, digit, reasons):
    puzzle = empty(9, rules).with_values(values + [0] * (81 - len(values)))
    step = first_naked_single(puzzle, cell)
    assert step.placements == ((cell, digit),)
    for reason in reasons:
        assert reason in step.sentence, step.sentence
    assert "every other digit" not in step.sentence


def test_a_classic_single_is_still_seen_by_peers():
    puzzle = empty(9).with_values(row(1, 2, 3, 4, 5, 6, 7, 8) + [0] * 72)
    assert first_naked_single(puzzle, 8).sentence == (
        "r1c9 can hold only 9: every other digit is already seen by a peer in its row, "
        "column or box.")


def test_digits_an_earlier_step_eliminated_are_not_said_to_be_seen():
    """Along a real path, every naked single's sentence holds: each digit it says a peer
    sees is placed in a peer; the rest are said to be eliminated by an earlier step."""
    puzzle = parse(HARD)
    g = Candidates(puzzle)
    earlier = 0
    for step in solver.solve(puzzle).steps:
        if step.technique == "Naked Single":
            (cell, digit), = step.placements
            seen = {g.values[p] for p in g.tables.peers[cell]} - {0}
            if seen >= set(range(1, 10)) - {digit}:
                assert "every other digit is already seen by a peer" in step.sentence
            else:
                assert "eliminated by an earlier step" in step.sentence, step.sentence
                earlier += 1
        g.apply(step)
    assert earlier  # this path has such singles


def test_explain_names_the_one_cell_cage(capsys):
    code = main(["explain", HARD, "--cage", "r1c2=1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "r1c2 can hold only 1: its cage r1c2=1 is one cell, so the cage sum fixes the " \
           "digit." in out
    assert "seen by a peer.\n" not in out.split("2. ")[0]


def test_rules_no_technique_knows_are_refused_not_explained(capsys):
    # thermometers, arrows, kropki and XV: no step, so no sentence that could be wrong
    code = main(["hint", HARD, "--line", "thermometer:r1c2,r1c3"])
    err = capsys.readouterr().err
    assert code == 5 and "know no thermometer rule" in err


@pytest.mark.parametrize("command", ["explain", "hint", "grade"])
def test_stalled_techniques_exit_7(command, capsys):
    code = main([command, HARD, "--techniques", "naked single"])
    out, err = capsys.readouterr()
    assert code == 7, (out, err)
    if command == "explain":
        assert "stalled after 0 steps" in out and "stalled after 0 steps" in err


def test_hint_json_null_when_stalled_exits_7(capsys):
    code = main(["hint", HARD, "--techniques", "naked single", "--format", "json"])
    assert (code, json.loads(capsys.readouterr().out)) == (7, None)


@pytest.mark.parametrize("command", ["explain", "hint", "grade"])
def test_a_finished_path_still_exits_0_and_7_is_in_the_help(command, capsys):
    assert main([command, EASY]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "\n  7    stalled" in capsys.readouterr().out
