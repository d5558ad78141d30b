"""The independent validator finds every kind of violation, and accepts real solutions."""

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.check import check, is_solution, violations
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


# --- the quick test against the slow one, over shapes and house rules --------------------

def _variant(name: str):
    """A puzzle of tests/data/variants.json."""
    import json
    from pathlib import Path

    from sudokulab.formats.text import from_json

    data = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
    return from_json(json.dumps(data[name]))


def _house_cases():
    """(puzzle, solution) pairs: blank grids of several shapes with rules that add houses,
    the jigsaw of variants.json, and a grid with more houses than one byte of pairs holds."""
    from sudokulab.backends import make_backend

    jigsaw = _variant("jigsaw")
    cases = [(Puzzle(box, (0,) * (box[0] * box[1]) ** 2, rules))
             for box in ((2, 2), (2, 3), (3, 3), (4, 4))
             for rules in ((), (R.Diagonal(),), (R.MainDiagonal(),), (R.AntiDiagonal(),),
                           (R.DisjointGroups(),))]
    cases += [Puzzle((3, 3), (0,) * 81, (R.Windoku(),)), jigsaw,
              Puzzle((3, 3), (0,) * 81, (R.Diagonal(), R.Windoku(), R.DisjointGroups()))]
    sat = make_backend("sat")
    return [(puzzle, sat.solve(puzzle, limit=1).solutions[0]) for puzzle in cases]


def test_quick_check_agrees_with_the_slow_one_on_every_house_rule():
    import random

    rng = random.Random(37)
    for puzzle, solution in _house_cases():
        n = puzzle.n
        assert check(puzzle, solution) == [] == violations(puzzle, solution), puzzle.rules
        for _ in range(60):
            grid = list(solution)
            for _ in range(rng.randint(0, 2)):
                grid[rng.randrange(n * n)] = rng.choice([0, -1, n + 1, 256, 2.0, "1", None,
                                                         rng.randint(1, n)])
            a, b = rng.randrange(n * n), rng.randrange(n * n)
            grid[a], grid[b] = grid[b], grid[a]
            assert check(puzzle, grid) == violations(puzzle, grid), (puzzle.rules, grid)
            assert check(puzzle, tuple(grid)) == check(puzzle, grid)


def test_a_swap_inside_a_row_breaks_only_the_extra_houses():
    # Rows, columns and boxes stay right; only the diagonal or window can tell.
    for puzzle, solution in _house_cases():
        n = puzzle.n
        for r in range(n):
            for c in range(n - 1):
                grid = list(solution)
                a, b = r * n + c, r * n + c + 1
                grid[a], grid[b] = grid[b], grid[a]
                assert check(puzzle, grid) == violations(puzzle, grid) != []


def test_a_changed_given_fails_even_when_the_houses_hold():
    _, solution = _top95_first()
    # the solution's digits 1 and 2 exchanged everywhere: every house still holds each digit
    other = tuple({1: 2, 2: 1}.get(d, d) for d in solution)
    given = next(i for i, d in enumerate(solution) if d == 1)
    puzzle = Puzzle((3, 3), tuple(d if i == given else 0 for i, d in enumerate(solution)))
    assert [str(v) for v in check(puzzle, other)] == \
        [f"r{given // 9 + 1}c{given % 9 + 1}: given 1 changed to 2"]
