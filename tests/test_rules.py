"""The line, dot and region rules (issue 19): data, checker, every engine, brute force.

On 4x4 grids every count is checked against brute force: the 288 grids enumerated here in
plain Python, filtered by the independent checker. Each engine that compiles a rule must
find exactly those grids; the others must answer UNSUPPORTED naming the rule.
"""

import json
from functools import cache
from itertools import permutations
from pathlib import Path

import pytest
from conftest import ready_backend

from sudokulab import rules as R
from sudokulab.backends import complete_searches, make_backend
from sudokulab.check import check
from sudokulab.errors import PuzzleError
from sudokulab.formats.text import format_rules, from_json, to_json
from sudokulab.puzzle import empty
from sudokulab.result import Status

# every complete search in the registry, and the options that compile the rules otherwise
ENGINES = complete_searches() + ["sat:encoding=optimized", "smt:model=int", "cpsat:model=int"]
FEW = 2  # grids asked of an engine that declares itself slow to enumerate
# the spelling of an engine with one given: these options' own paths for givens (the
# optimized CNF's, the integer model's assumptions); each other engine by its name
WITH_GIVEN = {"sat": "sat:encoding=optimized", "smt": "smt:model=int"}
NOT_COMPILING = ["human", "smt:model=bitvec"]


def all_grids_4x4():
    """The 288 4x4 grids, by brute force over row permutations."""
    rows = list(permutations(range(1, 5)))
    grids = []

    def fits(grid):
        n = len(grid)
        for c in range(4):
            if len({row[c] for row in grid}) != n:
                return False
        if n % 2 == 0:
            for left in (0, 2):
                if len({grid[r][c] for r in (n - 2, n - 1) for c in (left, left + 1)}) != 4:
                    return False
        return True

    def extend(grid):
        if len(grid) == 4:
            grids.append(tuple(d for row in grid for d in row))
            return
        for row in rows:
            if fits(grid + [row]):
                extend(grid + [row])

    extend([])
    return grids


GRIDS = all_grids_4x4()
FIRST = [(r, c) for r in range(4) for c in range(4)]


def marks_of(grid, kropki):
    """Every dot (Kropki) or mark (XV) the grid has between orthogonal neighbours."""
    first, second = {}, {}
    for r in range(4):
        for c in range(4):
            for r2, c2 in ((r + 1, c), (r, c + 1)):
                if r2 < 4 and c2 < 4:
                    a, b = grid[r * 4 + c], grid[r2 * 4 + c2]
                    pair = ((r, c), (r2, c2))
                    if kropki and abs(a - b) == 1:
                        first[pair] = 1
                    elif (a == 2 * b or b == 2 * a) if kropki else a + b == 5:
                        second[pair] = 1
    return tuple(first), tuple(second)


WHITE, BLACK = marks_of(GRIDS[100], kropki=True)
_, V = marks_of(GRIDS[100], kropki=False)

CASES = {
    "thermometer": [R.Thermometer(((0, 0), (1, 1), (2, 2)))],
    "arrow": [R.Arrow(((0, 0), (0, 1), (1, 1)))],
    "kropki": [R.Kropki(white=(((0, 0), (0, 1)),), black=(((1, 0), (1, 1)),))],
    "kropki-negative": [R.Kropki(white=WHITE, black=BLACK, negative=True)],
    "xv": [R.XV(v=V[:2])],
    "xv-negative": [R.XV(v=V, negative=True)],
    "main-diagonal": [R.MainDiagonal()],
    "anti-diagonal": [R.AntiDiagonal()],
    "disjoint-groups": [R.DisjointGroups()],
    "cage-without-sum": [R.SumlessCage(((0, 0), (1, 2))), R.SumlessCage(((2, 0), (3, 1)))],
    "extra-region": [R.ExtraRegion(((0, 0), (1, 2), (2, 1), (3, 3)))],
    "extra-region-small": [R.ExtraRegion(((0, 1), (1, 2), (2, 3)))],
    "renban": [R.Renban(((0, 0), (1, 2), (2, 1)))],
    "whispers": [R.Whispers(((0, 0), (1, 1), (2, 1)))],
    "palindrome": [R.Palindrome(((0, 0), (1, 2), (2, 1)))],
    "little-killer": [R.LittleKiller(((1, 0), (2, 1), (3, 2)), 7)],
    "consecutive-marks": [R.ConsecutiveMarks(WHITE)],
    "sandwich": [R.Sandwich(False, 2, 2), R.Sandwich(True, 3, 3)],
    "sandwich-ends": [R.Sandwich(False, 0, 0), R.Sandwich(True, 1, 5)],  # none between; all
}


@cache
def brute_force(puzzle):
    """The grids among the 288 that the checker accepts for the puzzle."""
    return {grid for grid in GRIDS if not check(puzzle, grid)}


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    """Each complete search (those that compile none of a puzzle's rules say so)."""
    return ready_backend(request.param)


def finds_exactly(engine, puzzle, expected: set) -> None:
    """The engine finds exactly the expected grids, or says it cannot express the rules.
    One slow to enumerate (it declares why) finds FEW of them, each one of the expected."""
    slow = bool(engine.slow_to_enumerate)
    result = engine.solve(puzzle, limit=FEW if slow else None)
    if engine.unsupported(puzzle):
        assert result.status is Status.UNSUPPORTED
    elif slow:
        assert set(result.solutions) <= expected, result.message
        assert len(result.solutions) == min(FEW, len(expected)), result.message
    else:
        assert result.exact and result.count == len(expected), result.message
        assert set(result.solutions) == expected


def test_brute_force_finds_the_288_grids():
    assert len(GRIDS) == len(set(GRIDS)) == 288
    assert all(not check(empty(4), grid) for grid in GRIDS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_counts_on_4x4_match_brute_force(engine, name):
    puzzle = empty(4, CASES[name])
    expected = brute_force(puzzle)
    assert 0 < len(expected) < 288  # the rule matters, and some grid obeys it
    finds_exactly(engine, puzzle, expected)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("spec", [WITH_GIVEN.get(name, name) for name in complete_searches()])
def test_a_given_narrows_the_count_as_brute_force_does(spec, name):
    """With one given (so the optimized CNF and givens-as-assumptions paths run)."""
    engine = ready_backend(spec)
    if engine.solve_overhead:  # its rules are counted on the empty 4x4s above
        pytest.skip(f"{engine.name}: {engine.solve_overhead}")
    puzzle = empty(4, CASES[name])
    some = sorted(brute_force(puzzle))[0]
    values = [0] * 16
    values[5] = some[5]
    puzzle = puzzle.with_values(values)
    finds_exactly(engine, puzzle, brute_force(puzzle))


@pytest.mark.parametrize("name", ["thermometer", "kropki", "renban", "little-killer", "arrow"])
@pytest.mark.parametrize("backend", NOT_COMPILING)
def test_engines_that_cannot_express_a_rule_say_so_by_name(backend, name):
    engine = make_backend(backend)
    if not engine.available().ok:
        pytest.skip(f"{backend} is not available here")
    result = engine.solve(empty(4, CASES[name]), limit=2)
    assert result.status is Status.UNSUPPORTED
    assert CASES[name][0].name in result.message


def test_dlx_compiles_every_rule():
    for rules in CASES.values():
        assert not make_backend("dlx").unsupported(empty(4, rules))


@pytest.mark.parametrize("name", sorted(CASES))
def test_rules_round_trip_through_json(name):
    puzzle = empty(4, CASES[name])
    assert from_json(to_json(puzzle)) == puzzle


def test_a_cage_without_sum_has_a_type_of_its_own():
    rule = R.rule_from_json({"type": "cage-without-sum", "cells": ["r1c1", "r1c2"]})
    assert rule == R.SumlessCage(((0, 0), (0, 1)))
    assert R.rule_to_json(rule) == {"type": "cage-without-sum", "cells": ["r1c1", "r1c2"]}
    with pytest.raises(PuzzleError, match="missing 'total'"):  # a cage keeps its sum
        R.rule_from_json({"type": "cage", "cells": ["r1c1", "r1c2"]})


def test_the_json_of_every_rule_follows_the_bundled_schema():
    from importlib import resources

    import jsonschema

    schema = json.loads((resources.files("sudokulab") / "data" / "puzzle.schema.json")
                        .read_text())
    for rules in CASES.values():
        jsonschema.validate(json.loads(to_json(empty(4, rules))), schema)
    for data in json.loads((Path(__file__).parent / "data" / "variants.json").read_text()).values():
        jsonschema.validate(data, schema)
    with pytest.raises(jsonschema.ValidationError):
        bad = {"type": "kropki", "white": [["r1c1"]]}
        jsonschema.validate({"givens": "." * 16, "rules": [bad]}, schema)


@pytest.mark.parametrize("data, message", [
    ({"type": "kropki", "white": [["r1c1"]]}, "not a pair of cells"),
    ({"type": "xv", "x": "r1c1"}, "list of cell pairs"),
    ({"type": "thermometer"}, "missing 'cells'"),
    ({"type": "little-killer", "cells": ["r1c1", "r2c2"]}, "missing 'total'"),
    ({"type": "arrow", "cells": ["r1c1", "x"]}, "not a cell name"),
])
def test_malformed_rules_are_named(data, message):
    with pytest.raises(PuzzleError, match=message):
        R.rule_from_json(data, 3)


@pytest.mark.parametrize("rule, message", [
    (R.Thermometer(((0, 0), (0, 4))), "outside the 4x4 grid"),
    (R.Thermometer(((0, 0),)), "at least two cells"),
    (R.Arrow(((0, 0), (0, 1), (0, 0))), "listed twice"),
    (R.Kropki(white=(((0, 0), (1, 1)),)), "not orthogonal neighbours"),
    (R.XV(x=(((0, 0), (0, 1)),), v=(((0, 1), (0, 0)),)), "two marks"),
    (R.Renban(tuple((0, c) for c in range(4)) + ((1, 0),)), "cannot all differ"),
    (R.LittleKiller(((0, 0), (1, 1), (2, 1)), 6), "not one diagonal line"),
    (R.Sandwich(False, 4, 0), "row 5 is outside the grid"),
    (R.Sandwich(True, 0, 6), "no digits between 1 and 4 add up to 6"),
])
def test_rule_cells_are_validated(rule, message):
    with pytest.raises(PuzzleError, match=message):
        empty(4, (rule,))


# --- the independent checker names each broken rule -----------------------------------

GRID = GRIDS[0]  # 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1


@pytest.mark.parametrize("rule, where, what", [
    (R.Thermometer(((0, 1), (0, 0))), "thermometer r1c2-r1c1", "does not increase"),
    (R.Arrow(((0, 0), (0, 1))), "arrow r1c1-r1c2", "shaft adds up to 2, circle holds 1"),
    (R.Kropki(black=(((0, 2), (0, 3)),)), "kropki black r1c3-r1c4", "3 and 4"),
    (R.Kropki(white=(((0, 0), (0, 1)),), negative=True), "kropki r1c2-r2c2",
     "would take a black one"),
    (R.XV(v=(((0, 0), (0, 1)),)), "xv v r1c1-r1c2", "1 and 2"),
    (R.XV(v=(((0, 0), (0, 1)),), negative=True), "xv v r1c1-r1c2", "1 and 2"),
    (R.MainDiagonal(), "main diagonal", "4 at r2c2 and r3c3"),
    (R.SumlessCage(((0, 0), (1, 2))), "cage-without-sum r1c1-r2c3", "repeats a digit"),
    (R.Renban(((0, 0), (0, 2))), "renban r1c1-r1c3", "not a run"),
    (R.Whispers(((0, 0), (0, 1))), "whispers r1c1-r1c2", "closer than 2"),
    (R.Palindrome(((0, 0), (0, 1))), "palindrome r1c1-r1c2", "read the same"),
    (R.LittleKiller(((0, 0), (1, 1)), 6), "little-killer r1c1-r2c2", "adds up to 5, not 6"),
    (R.ConsecutiveMarks((((0, 0), (1, 0)),)), "consecutive-marks r1c1-r2c1",
     "marked, but holds 1 and 3"),
    (R.Sandwich(True, 0, 3), "sandwich column 1", "between 1 and 4: [3, 2], not 3"),
])
def test_the_checker_names_each_broken_rule(rule, where, what):
    problems = check(empty(4, (rule,)), GRID)
    assert problems and str(problems[0]).startswith(where)
    assert what in str(problems[0])


def test_the_checker_names_a_missing_mark_under_the_negative_option():
    problems = check(empty(4, (R.XV(negative=True),)), GRID)
    assert "xv r1c1-r2c1: no mark, but 1 and 3" not in map(str, problems)  # 1 + 3 is no mark
    assert "xv r1c2-r1c3: no mark, but 2 and 3 would take a v one" in map(str, problems)


def test_the_checker_accepts_rules_the_grid_obeys():
    # 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1
    rules = (R.Thermometer(((0, 0), (0, 1), (0, 2))), R.Arrow(((0, 2), (0, 0), (0, 1))),
             R.Kropki(white=(((0, 0), (0, 1)),), black=(((0, 1), (1, 1)),)),
             R.XV(v=(((0, 1), (0, 2)),)), R.Renban(((0, 0), (0, 1), (1, 0))),
             R.Whispers(((0, 0), (1, 0))), R.Palindrome(((0, 1), (1, 2), (2, 0))),
             R.SumlessCage(((0, 0), (1, 1))), R.LittleKiller(((0, 1), (1, 2), (2, 3)), 6))
    assert check(empty(4, rules), GRID) == []


# --- the teaching view shows each rule in each engine ----------------------------------

SHOWN_AS = {"main-diagonal": "diagonal", "anti-diagonal": "diagonal",
            "disjoint-groups": "disjoint"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_shows_each_rule(engine, name):
    puzzle = empty(4, CASES[name])
    if engine.unsupported(puzzle):
        return
    rule = CASES[name][0].name
    text = engine.describe(puzzle)
    shown = SHOWN_AS.get(rule, rule) in text or rule.replace("-", " ") in text
    assert shown


@pytest.mark.parametrize("backend", ["norvig", "sat", "smt", "cpsat:model=int", "asp"])
def test_whispers_on_9x9_keep_neighbours_five_apart(backend):
    line = R.Whispers(((0, 0), (0, 1)))
    result = make_backend(backend).solve(empty(9, (line,)).with_values([5] + [0] * 80))
    assert result.status is Status.NONE  # nothing is 5 away from 5
    result = make_backend(backend).solve(empty(9, (line,)).with_values([4] + [0] * 80),
                                         limit=1)
    assert result.solutions[0][1] == 9


def test_variants_file_holds_a_puzzle_for_every_new_rule():
    data = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
    kinds = {rule["type"] for puzzle in data.values() for rule in puzzle["rules"]}
    assert {rule.name for rule in (
        R.Thermometer(()), R.Arrow(()), R.Kropki(), R.XV(), R.MainDiagonal(),
        R.AntiDiagonal(), R.DisjointGroups(), R.SumlessCage(()), R.ExtraRegion(()),
        R.Renban(()), R.Whispers(()), R.Palindrome(()), R.LittleKiller((), 0),
        R.ConsecutiveMarks(), R.Sandwich(False, 0, 0))} <= kinds
    negative = [p for p in data.values() for rule in p["rules"] if rule.get("negative")]
    assert len(negative) == 2  # Kropki and XV, each with "no mark means neither"


# --- f-puzzles links ---------------------------------------------------------------------

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_puzzle_survives_an_fpuzzles_link(name):
    from sudokulab.formats import links

    puzzle = from_json(json.dumps(VARIANTS[name]))
    from made_up_rules import read_back

    assert read_back(links.read_link(links.fpuzzles_link(puzzle)), puzzle)


def test_dot_rules_sharing_an_f_puzzles_key_merge_or_are_refused():
    # held-out pass 8: the writer merged two rules' marks under one negative constraint
    # (a link to another puzzle) and wrote a pair twice (a link the reader refused)
    from sudokulab.formats import links

    white, other = ((0, 0), (0, 1)), ((2, 2), (2, 3))
    both = empty(4, (R.Kropki(white=(white,)), R.Kropki(white=(white, other))))
    read = links.read_link(links.fpuzzles_link(both))  # no negative: one list, each pair once
    assert read.rules == (R.Kropki(white=(white, other)),)
    for rules, key in [((R.Kropki(white=(white,)), R.Kropki(white=(other,), negative=True)),
                        "difference"),  # the same key named every run (pass 9)
                       ((R.XV(x=(white,), negative=True), R.XV(v=(other,))), "xv"),
                       ((R.ConsecutiveMarks((white,)), R.Kropki(black=(other,))),
                        "difference")]:
        with pytest.raises(PuzzleError, match=f"one list of '{key}' marks with one negative"):
            links.fpuzzles_link(empty(4, rules))
    with pytest.raises(PuzzleError, match="two 'xv' marks between R1C1 and R1C2"):
        links.fpuzzles_link(empty(4, (R.XV(x=(white,)), R.XV(v=(white,)))))
    with pytest.raises(PuzzleError, match="a white and a black dot between R1C1 and R1C2"):
        links.fpuzzles_link(empty(4, (R.Kropki(white=(white,)), R.Kropki(black=(white,)))))


def test_a_rule_f_puzzles_has_no_key_for_travels_as_its_units_or_is_refused():
    from made_up_rules import CentreDot, CentreUnit, Secret

    from sudokulab.formats import links

    puzzle = empty(9, (CentreUnit(),))
    read = links.read_link(links.fpuzzles_link(puzzle))
    assert read.rules == (R.ExtraRegion(tuple(sorted(CentreUnit().units((3, 3))[0][2]))),)
    for rule in (CentreDot(), Secret()):  # a move, or a meaning outside the units: no link
        with pytest.raises(PuzzleError, match=f"f-puzzles has no form for the rule {rule.name}"):
            links.fpuzzles_link(empty(9, (rule,)))


def fpuzzles(**keys):
    """An empty 4x4 f-puzzles JSON with some constraint keys."""
    return {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], **keys}


def test_fpuzzles_keys_become_rules():
    from sudokulab.formats.fpuzzles import from_fpuzzles

    puzzle = from_fpuzzles(fpuzzles(
        thermometer=[{"lines": [["R1C1", "R1C2", "R1C3"]]}],
        arrow=[{"cells": ["R4C4"], "lines": [["R4C4", "R3C3"], ["R4C4", "R4C3"]]}],
        difference=[{"cells": ["R2C1", "R2C2"]}], ratio=[{"cells": ["R3C1", "R3C2"]}],
        xv=[{"cells": ["R4C1", "R4C2"], "value": "V"}], negative=["xv"],
        sandwichsum=[{"cell": "R0C2", "value": "0"}, {"cell": "R3C0", "value": "5"}],
        killercage=[{"cells": ["R1C4", "R2C4"]}], littlekillersum=[
            {"cell": "R0C2", "direction": "DR", "value": "7"}],
        **{"diagonal+": True}))
    assert puzzle.rules == (
        R.AntiDiagonal(), R.SumlessCage(((0, 3), (1, 3))),
        R.Thermometer(((0, 0), (0, 1), (0, 2))),
        R.Arrow(((3, 3), (2, 2))), R.Arrow(((3, 3), (3, 2))),
        R.Kropki(white=(((1, 0), (1, 1)),), black=(((2, 0), (2, 1)),)),
        R.XV(v=(((3, 0), (3, 1)),), negative=True),
        R.Sandwich(True, 1, 0), R.Sandwich(False, 2, 5),
        R.LittleKiller(((0, 2), (1, 3)), 7))


def test_fpuzzles_difference_dots_with_negative_difference_are_consecutive_marks():
    from sudokulab.formats.fpuzzles import from_fpuzzles

    puzzle = from_fpuzzles(fpuzzles(difference=[{"cells": ["R1C1", "R1C2"]}],
                                    negative=["difference"]))
    assert puzzle.rules == (R.ConsecutiveMarks((((0, 0), (0, 1)),)),)


@pytest.mark.parametrize("keys, refused", [
    ({"ratio": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}, "ratio of value '3'"),
    ({"negative": ["ratio"]}, "negative ratio alone"),
    ({"negative": ["difference"], "ratio": [{"cells": ["R1C1", "R1C2"]}]},
     "negative difference alone"),
    ({"arrow": [{"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C3"]]}]},
     "arrow with a circle of several cells"),
    ({"sandwichsum": [{"cell": "R1C1", "value": "5"}]}, "sandwichsum without a sum or out"),
])
def test_fpuzzles_constraints_still_out_of_reach_are_refused_by_name(keys, refused):
    from sudokulab.formats.fpuzzles import from_fpuzzles

    with pytest.raises(PuzzleError, match=refused):
        from_fpuzzles(fpuzzles(**keys))


def test_a_real_arrow_puzzle_has_the_setters_solution():
    """chess-moves (tests/data/formats/links.json): 6x6 anti-knight with five arrows."""
    import lzstring

    from sudokulab.formats import links

    entry = next(e for e in json.loads((Path(__file__).parent / "data" / "formats" /
                                        "links.json").read_text()) if e["name"] == "chess-moves")
    payload = entry["link"].split("load=")[1]
    solution = json.loads(lzstring.LZString().decompressFromBase64(payload))["solution"]
    puzzle = links.read_link(entry["link"])
    for backend in ("norvig", "sat", "smt", "asp"):
        result = make_backend(backend).solve(puzzle)
        assert result.status is Status.UNIQUE and list(result.solutions[0]) == solution


# --- pretty output draws the lines and the dots --------------------------------------------

def test_pretty_output_draws_lines_with_a_legend():


    text = format_rules(empty(4, (R.Thermometer(((0, 0), (0, 1))), R.Renban(((3, 3), (3, 2))),
                                  R.AntiDiagonal())))
    assert "rules: anti-diagonal" in text
    assert "lines: a thermometer (A bulb), b renban" in text
    assert "A a | . ." in text and ". . | b b" in text


def test_pretty_output_draws_dots_between_cells():


    rule = R.Kropki(white=(((0, 0), (0, 1)),), black=(((0, 0), (1, 0)),), negative=True)
    text = format_rules(empty(4, (rule,)))
    assert text.splitlines()[:3] == ["kropki (o consecutive, * ratio 2), no mark means neither:",
                                     ".o. . .", "*"]


# --- the command line -------------------------------------------------------------------

def cli(capsys, *argv):
    """(exit code, stdout, stderr) of the command line run in this process."""
    from sudokulab.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sandwiches_on_the_command_line(capsys):
    code, out, _ = cli(capsys, "solve", "." * 16, "--sandwich", "r3=2", "--sandwich", "c4=3",
                       "--count", "--format", "json")
    assert code == 0 and json.loads(out)["count"] == len(brute_force(empty(4, CASES["sandwich"])))


def test_consecutive_marks_on_the_command_line(capsys):
    pairs = ",".join(f"{R.cell_name(a)}-{R.cell_name(b)}" for a, b in WHITE)
    code, out, _ = cli(capsys, "solve", "." * 16, "--consecutive", pairs, "--count",
                       "--format", "json")
    expected = brute_force(empty(4, CASES["consecutive-marks"]))
    assert code == 0 and json.loads(out)["count"] == len(expected) > 0


def test_rule_flags_on_the_command_line(capsys):
    code, out, _ = cli(capsys, "solve", "1" + "." * 15, "--line", "thermometer:r1c1,r2c2,r3c3",
                       "--little-killer", "r2c1,r3c2,r4c3=7", "--rules", "anti-diagonal",
                       "--kropki", "w:r1c3-r1c4", "--xv", "v:r1c3-r1c4", "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["status"] == "unique"
    types = [rule["type"] for rule in result["rules"]]
    assert types == ["anti-diagonal", "thermometer", "little-killer", "kropki", "xv"]
    expected = brute_force(from_json(json.dumps({"box": [2, 2], "givens": [
        [1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "rules": result["rules"]})))
    assert [tuple(result["solutions"][0])] == list(expected)


@pytest.mark.parametrize("argv, message", [
    (["--line", "thermo:r1c1,r1c2"], "expected KIND:CELLS"),
    (["--kropki", "q:r1c1-r1c2"], "expected w|b:CELL-CELL"),
    (["--little-killer", "r1c1,r2c2"], "expected cells=total"),
    (["--line", "arrow:r1c1,r1c9"], "arrow: cell r1c9 is outside the 4x4 grid"),
])
def test_bad_rule_flags_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = cli(capsys, "solve", "." * 16, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


@pytest.mark.parametrize("model", ["bool", "int"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_exported_smt2_says_what_brute_force_says(name, model):
    """The portable SMT-LIB script (no Z3 extensions) of each rule, read back by Z3."""
    import z3

    from sudokulab.models.smt import to_smt2

    puzzle = empty(4, CASES[name])
    solver = z3.Solver()
    solver.from_string(to_smt2(puzzle, model))
    assert solver.check() == z3.sat
    values = {str(d): solver.model()[d] for d in solver.model().decls()}
    grid = tuple(int(str(values[f"r{r}c{c}"])) if model == "int" else
                 next(d for d in range(1, 5) if z3.is_true(values.get(f"r{r}c{c}_{d}")))
                 for r in range(1, 5) for c in range(1, 5))
    assert grid in brute_force(puzzle)  # a grid the rule allows, read from the model


# --- each rule class owns its name, summary and JSON (issue 30) --------------------------

def every_rule_class():
    """The concrete subclasses of rules.Rule (those that set their own name), found by
    walking the class tree, not by reading the registry."""
    found, todo = [], list(R.Rule.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        if kind.__module__ == R.__name__ and "name" in vars(kind):
            found.append(kind)
    return found


SAMPLES = {type(rule): rule for rule in
           [R.rule_from_json(rule) for puzzle in VARIANTS.values() for rule in puzzle["rules"]]
           + list(R.SIMPLE_RULES.values())}


def test_the_registry_holds_every_rule_class_under_its_name():
    classes = every_rule_class()
    assert set(R.RULE_TYPES) == set(classes) and len(R.RULE_TYPES) == len(classes)
    assert len({kind.name for kind in classes}) == len(classes)  # no name twice
    assert {kind.name: kind for kind in classes} == R.BY_NAME
    assert set(R.LINES) | set(R.DOTS) <= set(classes)


def test_the_schema_names_every_rule_and_the_keys_each_takes():
    from importlib import resources

    schema = json.loads((resources.files("sudokulab") / "data" / "puzzle.schema.json")
                        .read_text())
    keys = {}
    for form in schema["properties"]["rules"]["items"]["oneOf"]:
        kind = form["properties"]["type"]
        for name in kind.get("enum", [kind.get("const")]):
            keys[name] = set(form["properties"]) - {"type"}
    assert keys == {name: set(kind.keys) for name, kind in R.BY_NAME.items()}


@pytest.mark.parametrize("kind", R.RULE_TYPES, ids=lambda kind: kind.name)
def test_every_rule_class_round_trips_its_json(kind):
    rule = SAMPLES[kind]  # every class has a puzzle in tests/data/variants.json
    data = rule.to_json()
    assert data["type"] == kind.name and set(data) - {"type"} <= set(kind.keys)
    assert json.loads(json.dumps(data)) == data  # plain JSON values
    assert kind.from_json(data) == rule
    assert R.rule_from_json(data) == rule and R.rule_to_json(rule) == data


@pytest.mark.parametrize("kind", R.RULE_TYPES, ids=lambda kind: kind.name)
def test_every_rule_class_has_a_name_and_a_one_line_summary(kind):
    assert kind.name and kind.name == kind.name.strip().lower() and " " not in kind.name
    assert kind.summary and "\n" not in kind.summary and len(kind.summary) <= 80
    assert f"{kind.name}: {kind.summary}" in R.summaries(R.RULE_TYPES)


def test_the_rules_help_lists_each_simple_rule_with_its_summary(capsys):
    from sudokulab.cli import main

    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for rule in R.SIMPLE_RULES.values():
        assert rule.name in text and " ".join(rule.summary.split()) in text.replace("- ", "-")
    assert all(kind.name in text for kind in R.LINES)  # --line's kinds


def test_every_sample_fits_its_puzzle_and_a_bad_one_is_named():
    for name, data in VARIANTS.items():
        puzzle = from_json(json.dumps(data))
        assert all(rule.problem(puzzle.box) == "" for rule in puzzle.rules), name
    for kind, rule in SAMPLES.items():
        if "cells" in kind.keys:
            far = type(rule)(**{**vars(rule), "cells": rule.cells[:-1] + ((0, 30),)})
            assert "outside the 9x9 grid" in far.problem((3, 3)), kind.name


@pytest.mark.parametrize("parse, text, message", [
    (R.parse_line, "thermo:r1c1,r1c2", "expected KIND:CELLS"),
    (R.parse_cage, "r1c1,r1c2", "expected cells=total"),
    (R.parse_sandwich, "r0=3", "expected r3=10"),
    (R.named, "zigzag", "unknown rule 'zigzag'"),
    (R.parse_cells, "r1c1,x", "not a cell name"),
])
def test_the_rules_text_forms_raise_one_line_input_errors(parse, text, message):
    from sudokulab.errors import InputError

    with pytest.raises(InputError, match=message):
        parse(text)
