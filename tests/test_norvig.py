"""The Norvig backend: right on every bundled set, counts, verdicts, every size."""

import pytest

from sudokulab import datasets
from sudokulab.backends.norvig import NorvigBackend
from sudokulab.check import check
from sudokulab.formats.text import parse
from sudokulab.puzzle import empty
from sudokulab.result import Status

norvig = NorvigBackend()


@pytest.mark.parametrize("name", ["easy50", "top95", "hardest", "top1465"])
def test_solves_every_puzzle_of(name):
    for puzzle, solution in zip(datasets.load(name), datasets.solutions(name)):
        result = norvig.solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, puzzle
        assert result.solutions == (solution,)
        assert check(puzzle, result.solutions[0]) == []


def test_first_solution_only_with_limit_one(top95):
    puzzle, solution = top95[0]
    result = norvig.solve(puzzle, limit=1)
    assert result.status is Status.SOLVED and result.count_text == ">= 1"
    assert result.solutions == (solution,)


def test_two_solutions_are_both_reported():
    # a solved 4x4 with a 2x2 rectangle of swappable digits blanked: exactly two solutions
    puzzle = parse(".2.4" ".4.2" "2143" "4321")
    result = norvig.solve(puzzle, limit=5)
    assert result.status is Status.MULTIPLE and result.exact and result.count == 2
    assert sorted(result.solutions) == sorted({tuple(s) for s in result.solutions})
    assert all(check(puzzle, s) == [] for s in result.solutions)
    assert norvig.solve(puzzle, limit=2).count_text == ">= 2"


def test_a_contradiction_is_no_solution():
    # no given repeats, yet r1c9 can hold nothing: row 1 has 1-8, column 9 has a 9
    puzzle = parse("12345678." + "." * 8 + "9" + "." * 63)
    result = norvig.solve(puzzle)
    assert result.status is Status.NONE and result.count == 0 and result.exact


def test_a_puzzle_with_no_solution_found_only_by_search():
    # a top95 puzzle with one wrong given added: propagation alone cannot see the conflict
    puzzle = parse("5...14....3....2...7..........9...3.6.1......"
                   ".......8.2.....1.4....5.6.....7.8...")
    result = norvig.solve(puzzle)
    assert result.status is Status.NONE
    assert result.stats["backtracks"] > 0


@pytest.mark.parametrize("n", [6, 8, 12, 16, 25])
def test_larger_sizes_are_solved(n):
    result = norvig.solve(empty(n), limit=1)
    assert result.status is Status.SOLVED
    assert check(empty(n), result.solutions[0]) == []


def test_a_sixteen_by_sixteen_puzzle():
    full = norvig.solve(empty(16), limit=1).solutions[0]
    givens = tuple(d if (i * 7) % 3 else 0 for i, d in enumerate(full))
    puzzle = empty(16).with_values(givens)
    result = norvig.solve(puzzle, limit=2)
    assert result.status in (Status.UNIQUE, Status.MULTIPLE)
    assert all(check(puzzle, s) == [] for s in result.solutions)


def test_a_zero_timeout_is_a_timeout():
    result = norvig.solve(empty(25), limit=None, timeout=1e-9)
    assert result.status is Status.TIMEOUT and not result.exact


def test_statistics_and_times():
    puzzle = parse("4.....8.5.3..........7......2.....6.....8.4......"
                   "1.......6.3.7.5..2.....1.4......")
    result = norvig.solve(puzzle)
    assert set(result.stats) == {"assignments", "eliminations", "nodes", "guesses",
                                 "backtracks"}
    assert result.stats["guesses"] > 0 and result.stats["eliminations"] > 0
    assert result.build_time >= 0 and result.solve_time > 0
