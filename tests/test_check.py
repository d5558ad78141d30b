"""The independent validator finds every kind of violation, and accepts real solutions."""

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.check import check, is_solution
from sudokulab.puzzle import Puzzle


def _top95_first():
    return datasets.load("top95")[0], datasets.solutions("top95")[0]


def test_reference_solutions_pass():
    for puzzle, solution in zip(datasets.load("top95"), datasets.solutions("top95")):
        assert check(puzzle, solution) == []


def test_a_swap_breaks_columns_and_boxes():
    puzzle, solution = _top95_first()
    grid = list(solution)
    grid[0], grid[1] = grid[1], grid[0]  # still a valid row, but columns 1 and 2 break
    places = {v.where for v in check(Puzzle(puzzle.box, (0,) * 81), grid)}
    assert places == {"column 1", "column 2"}


def test_a_changed_given_is_reported():
    puzzle, solution = _top95_first()
    given = next(i for i, d in enumerate(puzzle.givens) if d)
    other = next(i for i in range(81) if i // 9 == given // 9 and i != given)
    grid = list(solution)
    grid[given], grid[other] = grid[other], grid[given]
    problems = [str(v) for v in check(puzzle, grid)]
    assert any("given" in p and p.startswith(f"r{given // 9 + 1}c{given % 9 + 1}")
               for p in problems)


def test_repeats_and_blanks_and_wrong_length():
    puzzle, solution = _top95_first()
    grid = list(solution)
    grid[80] = grid[79]
    problems = [str(v) for v in check(puzzle, grid)]
    assert any(p.startswith("row 9:") and "at r9c8 and r9c9" in p for p in problems)
    assert any("lacks" in p for p in problems)
    assert any(str(v).startswith("r9c9: holds 0") for v in check(puzzle, solution[:80] + (0,)))
    assert [str(v) for v in check(puzzle, solution[:80])] == ["grid: has 80 cells, expected 81"]


def test_rules_are_checked():
    _, solution = _top95_first()
    blank = (0,) * 81
    for rule in (R.Diagonal(), R.AntiKnight(), R.AntiKing(), R.NonConsecutive(), R.Windoku()):
        # an ordinary solution almost surely breaks each variant rule: the checker must say so
        assert not is_solution(Puzzle((3, 3), blank, (rule,)), solution), rule.name
    cage = R.Cage(((0, 0), (0, 1)), solution[0] + solution[1])
    assert is_solution(Puzzle((3, 3), blank, (cage,)), solution)
    wrong = R.Cage(((0, 0), (0, 1)), solution[0] + solution[1] + 1)
    assert [v.what for v in check(Puzzle((3, 3), blank, (wrong,)), solution)] == \
        [f"adds up to {solution[0] + solution[1]}"]
    even = R.Parity(((0, 0),), solution[0] % 2 == 0)
    assert is_solution(Puzzle((3, 3), blank, (even,)), solution)
    odd = R.Parity(((0, 0),), solution[0] % 2 == 1)
    assert not is_solution(Puzzle((3, 3), blank, (odd,)), solution)


def test_the_checker_imports_no_backend_and_no_geometry():
    import ast
    import inspect

    import sudokulab.check as module

    tree = ast.parse(inspect.getsource(module))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for a in node.names}
    assert not any("backends" in m or "geometry" in m or "encodings" in m for m in imported)
