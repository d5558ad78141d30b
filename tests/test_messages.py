"""Bad input says what is wrong and where, in one line (issue 36): never a Python
exception's text, never a message about something else."""

import json
import re
from pathlib import Path

import pytest

from sudokulab import rules as R
from sudokulab.errors import PuzzleError, UsageError
from sudokulab.formats import links
from sudokulab.formats.text import parse
from sudokulab.layout import SAMURAI
from sudokulab.puzzle import Puzzle, empty, parse_box

BLANK_4 = [[0] * 4 for _ in range(4)]
LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# Words only Python's own exceptions use: none may reach a user.
PYTHON = re.compile(r"NoneType|bytes-like|int\(\)|not iterable|object is not|unpack|"
                    r"invalid literal|'True'|'None'|'False'")


def puzzle_json(**fields: object) -> str:
    """A 4x4 puzzle's JSON with some fields replaced."""
    return json.dumps({"givens": BLANK_4, **fields})


def cage_json(**fields: object) -> str:
    """A 4x4 puzzle with one cage, some of its fields replaced."""
    return puzzle_json(rules=[{"type": "cage", "cells": ["r1c1", "r1c2"], "total": 3,
                               **fields}])


def one_rule(rule: dict) -> str:
    """A 4x4 puzzle with one rule."""
    return puzzle_json(rules=[rule])


def givens_with(value: object) -> str:
    """A 4x4 puzzle whose first given is value."""
    return json.dumps({"givens": [[value, 0, 0, 0]] + BLANK_4[1:]})


JSON_CASES = [
    # the box is checked first, and named
    (json.dumps({"box": [3, -3], "givens": [[4] + [0] * 8] + [[0] * 9] * 8}),
     "JSON 'box' [3, -3]: a box has at least 1 row and 1 column"),
    (puzzle_json(box=[0, 0]), "JSON 'box' [0, 0]: a box has at least 1 row and 1 column"),
    (puzzle_json(box=[6, 6]), "JSON 'box' [6, 6]: a 6x6 box makes a 36x36 grid; grids go "
                              "from 4x4 to 25x25"),
    (puzzle_json(box=[True, 4]), "JSON 'box' [true, 4]: a box is two whole numbers"),
    (puzzle_json(box=["2", "2"]), "JSON 'box' [\"2\", \"2\"]: a box is two whole numbers"),
    (puzzle_json(box=None), "JSON 'box' null: a box is two whole numbers"),
    # givens: the value as written in JSON, and what is expected
    (givens_with(True), "JSON 'givens' row 1, item 1: true is not a digit"),
    (givens_with(None), "JSON 'givens' row 1, item 1: null is not a digit"),
    (givens_with("1"), "JSON 'givens' row 1, item 1: \"1\" is not a digit"),
    (givens_with([1]), "JSON 'givens' row 1, item 1: [1] is not a digit"),
    (givens_with(1.5), "JSON 'givens' row 1, item 1: 1.5 is not a digit"),
    (givens_with(-1), "JSON 'givens' row 1, item 1: -1 is not a digit"),
    (json.dumps({"givens": {"a": 1}}), "JSON 'givens' must be a string or a list of rows "
                                       "of numbers, not an object"),
    (puzzle_json(rules=None), "JSON 'rules' must be a list, not null"),
    (puzzle_json(layout=5), "JSON 'layout' must be a layout's name (samurai), not 5"),
    (puzzle_json(layout=None), "JSON 'layout' must be a layout's name (samurai), not null"),
    # rule cells in the documented form, or refused naming the rule and the form
    (cage_json(cells=[[1, 2], [1, 3]]),
     "rule 1 (cage): 'cells' must be a list of cell names like [\"r1c1\", \"r1c2\"], "
     "not [[1, 2], [1, 3]]"),
    (cage_json(cells=None), "rule 1 (cage): 'cells' must be a list of cell names"),
    (cage_json(cells="r1c1"), "rule 1 (cage): 'cells' must be a list of cell names"),
    (cage_json(cells={"r1c1": 1}), "rule 1 (cage): 'cells' must be a list of cell names"),
    (one_rule({"type": "thermometer", "cells": [1, 2]}),
     "rule 1 (thermometer): 'cells' must be a list of cell names"),
    (one_rule({"type": "jigsaw", "regions": [[[0, 0]]]}),
     "rule 1 (jigsaw): 'regions' must be a list of regions, each a list of cell names"),
    (one_rule({"type": "jigsaw", "regions": None}),
     "rule 1 (jigsaw): 'regions' must be a list of regions"),
    (one_rule({"type": "kropki", "white": [[[0, 0], [0, 1]]]}),
     "rule 1 (kropki): 'white' must be a list of cell pairs like [[\"r1c1\", \"r1c2\"]]"),
    (one_rule({"type": "kropki", "white": [[None, "r1c1"]]}),
     "rule 1 (kropki): 'white' must be a list of cell pairs"),
    # numbers: whole numbers, not strings, floats, true or null
    (cage_json(total="3"), "rule 1 (cage): 'total' must be a whole number, not \"3\""),
    (cage_json(total=3.5), "rule 1 (cage): 'total' must be a whole number, not 3.5"),
    (cage_json(total=None), "rule 1 (cage): 'total' must be a whole number, not null"),
    (cage_json(total=True), "rule 1 (cage): 'total' must be a whole number, not true"),
    (cage_json(total=[3]), "rule 1 (cage): 'total' must be a whole number, not [3]"),
    (one_rule({"type": "sandwich", "row": "1", "total": 0}),
     "rule 1 (sandwich): 'row' must be a whole number, not \"1\""),
    (one_rule({"type": "sandwich", "row": None, "total": 0}),
     "rule 1 (sandwich): 'row' must be a whole number, not null"),
    (one_rule({"type": "sandwich", "row": 1, "total": "x"}),
     "rule 1 (sandwich): 'total' must be a whole number, not \"x\""),
    (one_rule({"type": "little-killer", "cells": ["r1c1", "r2c2"], "total": None}),
     "rule 1 (little-killer): 'total' must be a whole number, not null"),
    # true or false, not strings or null
    (one_rule({"type": "parity", "cells": ["r1c1"], "even": "yes"}),
     "rule 1 (parity): 'even' must be true or false, not \"yes\""),
    (one_rule({"type": "parity", "cells": ["r1c1"], "even": None}),
     "rule 1 (parity): 'even' must be true or false, not null"),
    (one_rule({"type": "kropki", "negative": "no"}),
     "rule 1 (kropki): 'negative' must be true or false, not \"no\""),
    # sums and cells that make no rule
    (cage_json(total=-3), "cage of -3: the sum must be 1 or more"),
    (cage_json(cells=[]), "cage of 3: needs at least one cell"),
    (one_rule({"type": "little-killer", "cells": ["r1c1", "r2c2"], "total": -3}),
     "little-killer: the sum must be 1 or more"),
    (one_rule({"type": "little-killer", "cells": [], "total": 3}),
     "little-killer: needs at least one cell"),
    (one_rule({"type": "cage-without-sum", "cells": []}),
     "cage-without-sum: needs at least one cell"),
    # a rule that is not an object with a type
    (one_rule({"type": 5}), "rule 1: 'type' must be a rule's name, not 5"),
    (puzzle_json(rules=["diagonal"]),
     "rule 1: must be an object with a 'type', not \"diagonal\""),
    # a key the rule does not take is a typo, not something to skip
    (one_rule({"type": "kropki", "white": [], "negativ": True}),
     "rule 1 (kropki): unknown key 'negativ'; a kropki takes: white, black, negative"),
]


@pytest.mark.parametrize("text, message", JSON_CASES)
def test_a_json_value_of_the_wrong_kind_is_named_as_written(text, message):
    with pytest.raises(PuzzleError) as refused:
        parse(text)
    assert message in str(refused.value)
    assert not PYTHON.search(str(refused.value)), str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("text, box", [
    ("3x2", (3, 2)), ("2X3", (2, 3)), (" 3 x 3 ", (3, 3)), ("1x9", (1, 9)), ("5x5", (5, 5)),
])
def test_parse_box_reads_rows_x_columns(text, box):
    assert parse_box(text) == box


@pytest.mark.parametrize("text, message", [
    ("0x0", "--box 0x0: a box has at least 1 row and 1 column"),
    ("3x0", "--box 3x0: a box has at least 1 row and 1 column"),
    ("1x2", "--box 1x2: a 1x2 box makes a 2x2 grid; grids go from 4x4 to 25x25"),
    ("6x5", "--box 6x5: a 6x5 box makes a 30x30 grid; grids go from 4x4 to 25x25"),
    ("3", "--box '3': expected rows x columns, like 2x3"),
    ("3x-3", "--box '3x-3': expected rows x columns, like 2x3"),
    ("axb", "--box 'axb': expected rows x columns, like 2x3"),
])
def test_parse_box_refuses_a_shape_that_is_no_box(text, message):
    with pytest.raises(UsageError) as refused:
        parse_box(text)
    assert str(refused.value) == message


@pytest.mark.parametrize("box, message", [
    ((0, 0), "box 0x0: a box has at least 1 row and 1 column"),
    ((3, -3), "box 3x-3: a box has at least 1 row and 1 column"),
    ((6, 6), "box 6x6: a 6x6 box makes a 36x36 grid; grids go from 4x4 to 25x25"),
    ((3, 3, 1), "box (3, 3, 1): a box is two whole numbers, rows and columns"),
    (("3", 3), "box ('3', 3): a box is two whole numbers, rows and columns"),
])
def test_a_puzzle_refuses_a_box_shape_that_is_no_box(box, message):
    with pytest.raises(PuzzleError) as refused:
        Puzzle(box, (0,) * 81)
    assert str(refused.value) == message


@pytest.mark.parametrize("text", [LINE, ",".join("0" * 81), json.dumps({"givens": LINE})])
@pytest.mark.parametrize("box", [(0, 0), (-3, -3), (3, -3)])
def test_a_bad_box_given_to_the_reader_is_named(text, box):
    with pytest.raises(PuzzleError, match=r"^box -?\d+x-?\d+: a box has at least 1 row"):
        parse(text, box=box)


SAMURAI_LINE = "." * SAMURAI.cell_count
SAMURAI_BOARD = Path(__file__).parent / "data" / "samurai.txt"


@pytest.mark.parametrize("text", [
    SAMURAI_LINE,
    json.dumps({"layout": "samurai", "givens": SAMURAI_LINE}),
    SAMURAI_BOARD.read_text(),  # drawn as its board
])
def test_a_box_that_does_not_fit_a_samurai_is_an_error(text):
    assert parse(text).layout is SAMURAI
    assert parse(text, box=(3, 3)).layout is SAMURAI
    with pytest.raises(PuzzleError) as refused:
        parse(text, box=(2, 2))
    assert str(refused.value) == "box 2x2 does not fit this samurai: its grids are 9x9 " \
                                 "with 3x3 boxes"


def test_a_box_given_to_json_without_one_is_its_box_and_one_that_differs_is_an_error():
    six = json.dumps({"givens": [[0] * 6] * 6})
    assert parse(six).box == (2, 3)
    assert parse(six, box=(3, 2)).box == (3, 2)
    with pytest.raises(PuzzleError, match=r"^box 3x2 does not fit this puzzle: its boxes "
                                          r"are 2x3$"):
        parse(json.dumps({"box": [2, 3], "givens": [[0] * 6] * 6}), box=(3, 2))


@pytest.mark.parametrize("link", [
    "https://example.com/puzzle",
    "http://example.com/sudokupad.app/abc",
    "https://sudokupad.app.example.com/abc",
    "https://notf-puzzles.com/?load=abc",
    "www.example.org/x",
])
def test_a_link_to_another_site_is_not_called_a_sudokupad_link(link):
    with pytest.raises(PuzzleError) as refused:
        parse(link)
    message = str(refused.value)
    assert "short link" not in message and "SudokuPad link" not in message
    assert "is not a puzzle link sudokulab knows" in message
    assert "f-puzzles.com, sudokupad.app" in message


@pytest.mark.parametrize("link, message", [
    ("https://sudokupad.app/wsj7iunsg6", "SudokuPad short link 'wsj7iunsg6'"),
    ("https://app.crackingthecryptic.com/wsj7iunsg6", "SudokuPad short link"),
    ("sudokupad.app/wsj7iunsg6", "SudokuPad short link"),
    ("https://www.f-puzzles.com/?id=abc", "f-puzzles link without ?load="),
])
def test_links_of_the_known_sites_still_say_why_they_hold_no_puzzle(link, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        links.read_link(link)


def test_rules_made_in_python_with_no_cells_or_a_sum_below_one_are_refused():
    for rule, message in [(R.Cage((), 3), "cage of 3: needs at least one cell"),
                          (R.Cage(((0, 0),), 0), "cage of 0: the sum must be 1 or more"),
                          (R.LittleKiller(((0, 0),), 0), "little-killer: the sum must be 1"),
                          (R.Renban(()), "renban: needs at least one cell")]:
        with pytest.raises(PuzzleError, match=re.escape(message)):
            empty(4, (rule,))



def test_every_rule_type_reads_its_json_and_refuses_a_key_it_does_not_take():
    for kind in R.RULE_TYPES:
        rule = next(rule for rule in VARIANT_RULES if isinstance(rule, kind))
        data = R.rule_to_json(rule)
        assert R.rule_from_json(data) == rule
        with pytest.raises(PuzzleError, match=f"rule 1 \\({kind.name}\\): unknown key 'colour'"):
            R.rule_from_json({**data, "colour": "red"})


VARIANT_RULES = [R.rule_from_json(rule) for puzzle in
                 json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
                 .values() for rule in puzzle["rules"]] + list(R.SIMPLE_RULES.values())
