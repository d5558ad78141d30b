"""Reading and writing puzzles: every form round-trips, and bad input says what and where."""

import json
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import rules as R
from sudokulab.backends.norvig import NorvigBackend
from sudokulab.errors import PuzzleError
from sudokulab.formats.files import read_puzzles
from sudokulab.formats.text import (
    format_candidates,
    format_grid,
    format_line,
    format_numbers,
    from_json,
    parse,
    parse_many,
    to_json,
)
from sudokulab.puzzle import Puzzle, box_shape, empty, valid_sizes

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ESSAY_GRID = """
4 . . |. . . |8 . 5
. 3 . |. . . |. . .
. . . |7 . . |. . .
------+------+------
. 2 . |. . . |. 6 .
. . . |. 8 . |4 . .
. . . |. 1 . |. . .
------+------+------
. . . |6 . 3 |. 7 .
5 . . |2 . . |. . .
1 . 4 |. . . |. . .
"""


@cache
def solved_grid(box: tuple[int, int]) -> tuple[int, ...]:
    """Some full grid of a shape, found by search from the empty grid."""
    puzzle = Puzzle(box, (0,) * (box[0] * box[1]) ** 2)
    return NorvigBackend().solve(puzzle, limit=1).solutions[0]


@st.composite
def puzzles(draw):
    """Valid puzzles of every shape: a full grid, digits relabelled, some cells blanked."""
    box = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (5, 5)]))
    n = box[0] * box[1]
    relabel = [0] + draw(st.permutations(range(1, n + 1)))
    keep = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    givens = tuple(relabel[d] if k else 0 for d, k in zip(solved_grid(box), keep))
    return Puzzle(box, givens)


@settings(max_examples=60, deadline=None)
@given(puzzles())
def test_every_written_form_reads_back(puzzle):
    box = puzzle.box if puzzle.box != box_shape(puzzle.n) else None
    assert parse(format_line(puzzle), box=box) == puzzle
    assert parse(format_grid(puzzle), box=box) == puzzle
    assert parse(format_numbers(puzzle), box=box) == puzzle
    assert from_json(to_json(puzzle)) == puzzle


def test_the_essay_grid_and_line_are_the_same_puzzle():
    assert parse(ESSAY_GRID) == parse(LINE)
    assert format_line(parse(ESSAY_GRID)) == LINE


@pytest.mark.parametrize("blank", list(".0_-*"))
def test_every_blank_mark(blank):
    assert parse(LINE.replace(".", blank)) == parse(LINE)


def test_sizes_and_box_shapes():
    assert box_shape(6) == (2, 3) and box_shape(12) == (3, 4) and box_shape(25) == (5, 5)
    assert 4 in valid_sizes() and 25 in valid_sizes() and 7 not in valid_sizes()
    assert parse("." * 36).box == (2, 3)
    assert parse("." * 36, box=(3, 2)).box == (3, 2)


def test_symbols_above_nine():
    sixteen = parse("G" + "." * 255)
    assert sixteen.n == 16 and sixteen.givens[0] == 16
    assert parse("g" + "." * 255) == sixteen
    numbers = ",".join(["25"] + ["0"] * 624)
    assert parse(numbers).givens[0] == 25
    assert format_line(parse(numbers))[0] == "P"


def test_a_file_of_many_puzzles_with_comments(tmp_path):
    text = f"# two puzzles\n{LINE}\n\n{LINE.replace('4', '.', 1)}  # the second\n"
    (tmp_path / "p.txt").write_text(text)
    puzzles = read_puzzles(tmp_path / "p.txt")
    assert len(puzzles) == 2 and puzzles[0] == parse(LINE)


def test_a_file_of_grids_separated_by_blank_lines():
    assert parse_many(ESSAY_GRID + "\n" + ESSAY_GRID) == [parse(LINE)] * 2
    four = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n"
    assert parse_many(four)[0].n == 4


def test_json_carries_rules():
    puzzle = Puzzle((3, 3), parse(LINE).givens,
                    (R.Diagonal(), R.Cage(((0, 0), (0, 1)), 10), R.Parity(((8, 8),), True)))
    assert from_json(to_json(puzzle)) == puzzle
    assert json.loads(to_json(puzzle))["rules"][1] == {"type": "cage", "cells": ["r1c1", "r1c2"],
                                                       "total": 10}


def test_candidates_grid_shows_pencil_marks():
    puzzle = empty(4)
    text = format_candidates(puzzle, [range(1, 5)] * 16)
    assert text.splitlines()[0] == "1234 1234 | 1234 1234"
    assert len(text.splitlines()) == 5


@pytest.mark.parametrize("text, message", [
    (LINE[:-1], "wrong length: 80 cells"),
    (LINE + ".", "wrong length: 82 cells"),
    (LINE[:10] + "x" + LINE[11:], "row 2, column 2 (line 1, column 11): 'x' is not a digit"),
    ("." * 49, "wrong length: 49 cells"),
    ("5" + "." * 15, None),
    ("5" + "." * 15 + "", "row 1, column 1"),
    ("A" + "." * 80, "'A' is not a digit of a 9x9 puzzle (digits 1-9)"),
    (",".join(["17"] + ["0"] * 255), "row 1, column 1 (line 1, item 1): 17 is too large"),
    ("", "empty input"),
    ('{"givens": 3}', "JSON 'givens' must be"),
    ('{"givens": "' + LINE + '", "rules": [{"type": "zigzag"}]}', "rule 1: unknown type"),
    ("{bad json", "bad JSON at line 1"),
])
def test_bad_input_names_what_and_where(text, message):
    if message is None:  # a 4x4 with a 5 in it
        message = "'5' is not a digit of a 4x4 puzzle (digits 1-4)"
    with pytest.raises(PuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(text)


def test_a_size_with_no_box_shape():
    with pytest.raises(PuzzleError, match="size 7x7 has no box shape"):
        box_shape(7)
    with pytest.raises(PuzzleError, match="wrong length: 49 cells"):
        parse("." * 49)


def test_file_errors_name_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{LINE}\n# comment\n{LINE[:-1]}\n")
    with pytest.raises(PuzzleError, match=r"bad.txt:3: wrong length: 80 cells"):
        read_puzzles(path)
    with pytest.raises(PuzzleError, match="cannot read"):
        read_puzzles(tmp_path / "missing.txt")


def test_puzzle_is_immutable_and_hashable():
    puzzle = parse(LINE)
    assert hash(puzzle) == hash(parse(LINE))
    with pytest.raises(AttributeError):
        puzzle.givens = ()  # type: ignore[misc]


def test_the_json_form_follows_the_bundled_schema():
    from importlib import resources

    import jsonschema

    schema = json.loads((resources.files("sudokulab") / "data" / "puzzle.schema.json")
                        .read_text())
    every_rule = (R.Diagonal(), R.AntiKnight(), R.AntiKing(), R.NonConsecutive(), R.Windoku(),
                  R.Cage(((0, 0), (0, 1)), 10), R.Parity(((8, 8),), False),
                  R.parse_regions("".join(str(r // 3 * 3 + c // 3) for r in range(9)
                                          for c in range(9))))
    jsonschema.validate(json.loads(to_json(Puzzle((3, 3), (0,) * 81, every_rule))), schema)
    for bad in ({"givens": "." * 81, "rules": [{"type": "zigzag"}]},
                {"givens": "." * 81, "rules": [{"type": "cage", "cells": ["r1c1"]}]},
                {"box": [3], "givens": "." * 81}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
        with pytest.raises(PuzzleError):
            from_json(json.dumps(bad))


# --- the Puzzle owns its invariants, whoever makes it -----------------------------------

BAD_RULES = [
    ((R.Cage(((9, 9), (0, 0)), 5),), "cage of 5: cell r10c10 is outside the 9x9 grid"),
    ((R.Cage(((0, 0), (0, 0)), 5),), "cage of 5: a cell is listed twice"),
    ((R.Cage(((0, 0), (0, 1)), "5"),), "cage of '5': the sum must be a whole number"),
    ((R.Parity(((0, 9),), True),), "even cells: cell r1c10 is outside the 9x9 grid"),
    ((R.Jigsaw((((0, 0),),)),), "jigsaw: needs 9 regions of 9 cells each"),
    ((R.Jigsaw(tuple(tuple((0, c) for c in range(9)) for _ in range(9))),),
     "jigsaw: a cell is listed twice"),
    (("diagonal",), "rule 1: 'diagonal' is not a rule"),
]


@pytest.mark.parametrize("rules, message", BAD_RULES)
def test_a_puzzle_made_in_python_checks_its_rules_as_the_readers_do(rules, message):
    with pytest.raises(PuzzleError) as made:
        Puzzle((3, 3), (0,) * 81, rules)
    assert str(made.value) == message
    with pytest.raises(PuzzleError) as emptied:
        empty(9, rules)
    assert str(emptied.value) == message
    if all(isinstance(rule, R.RULE_TYPES) for rule in rules) and \
            isinstance(getattr(rules[0], "total", 0), int):
        text = json.dumps({"givens": LINE, "rules": [R.rule_to_json(r) for r in rules]})
        with pytest.raises(PuzzleError) as read:
            parse(text)
        assert str(read.value) == message  # the reader gives the very same line
        with pytest.raises(PuzzleError) as fast:
            parse(LINE, rules=rules)  # the fast line reader, too
        assert str(fast.value) == message


def test_windows_need_boxes_whoever_makes_the_puzzle():
    with pytest.raises(PuzzleError, match="windoku needs boxes, and a 5x5 grid has none"):
        Puzzle((1, 5), (0,) * 25, (R.Windoku(),))


def test_no_backend_sees_a_rule_that_does_not_fit_the_grid():
    good = empty(9, (R.Cage(((0, 0), (0, 1)), 5),))
    with pytest.raises(PuzzleError):
        good.with_rules((R.Cage(((9, 9), (0, 0)), 5),))
    assert NorvigBackend().solve(good, limit=1).status.name == "SOLVED"


def test_two_sets_of_regions_are_refused():
    # held-out pass 9: a second jigsaw was kept in the puzzle and read by no engine nor the
    # checker (every engine answered the first jigsaw's solution)
    rows = R.parse_regions("AAAB CABB CCDB CDDD")
    cols = R.parse_regions("AABB AABB CCDD CCDD")
    with pytest.raises(PuzzleError, match="two jigsaw rules: the regions replace the boxes"):
        Puzzle((2, 2), (0,) * 16, (rows, cols))
    assert Puzzle((2, 2), (0,) * 16, (rows,)).rules == (rows,)
