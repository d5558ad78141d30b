"""The generator's families of issue 19's rules (sudokulab/generate/marks.py): each yields
unique puzzles (checked by cpsat, neither the working engine sat nor the prover norvig),
whose solution passes the checker, and whose drawn rules are needed."""

from __future__ import annotations

import json
import random

import pytest

from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.errors import UsageError
from sudokulab.formats.text import from_json
from sudokulab.generate import RANDOM_RULES, Generated, generate, marks
from sudokulab.generate.engine import Engine
from sudokulab.generate.grids import random_grid
from sudokulab.puzzle import Puzzle

CPSAT = make_backend("cpsat")
KINDS = {"thermometer": R.Thermometer, "arrow": R.Arrow, "kropki": R.Kropki,
         "kropki-negative": R.Kropki, "xv": R.XV, "xv-negative": R.XV,
         "consecutive-marks": R.ConsecutiveMarks, "renban": R.Renban, "whispers": R.Whispers,
         "palindrome": R.Palindrome, "little-killer": R.LittleKiller, "sandwich": R.Sandwich,
         "cage-without-sum": R.SumlessCage, "extra-region": R.ExtraRegion}


def assert_unique_and_needed(made: Generated, kind: type) -> None:
    """cpsat finds the generator's solution alone; without the drawn rules, several."""
    assert any(isinstance(rule, kind) for rule in made.puzzle.rules)
    result = CPSAT.solve(made.puzzle, limit=2)
    assert result.status.value == "unique", made.puzzle
    assert result.solutions[0] == made.solution
    assert check(made.puzzle, made.solution) == []
    assert made.provers == ("sat", "norvig")
    kept = [rule for rule in made.puzzle.rules if not isinstance(rule, kind)]
    loose = CPSAT.solve(made.puzzle.with_rules(kept), limit=2)
    assert loose.status.value == "multiple", made.puzzle


def test_every_family_is_a_random_rule():
    assert set(marks.FAMILIES) == set(KINDS)
    assert set(marks.FAMILIES) <= set(RANDOM_RULES)


@pytest.mark.parametrize("family", marks.FAMILIES)
@pytest.mark.parametrize("box", [(2, 2), (2, 3)])
def test_every_family_gives_unique_puzzles_that_need_their_rules(family, box):
    for made in generate(box, [family], number=2, seed=5):
        assert made.puzzle.box == box
        assert_unique_and_needed(made, KINDS[family])


@pytest.mark.parametrize("family", ["thermometer", "kropki-negative", "xv", "little-killer",
                                    "sandwich", "extra-region"])
def test_9x9_puzzles_need_their_rules(family):
    made = next(generate((3, 3), [family], seed=1, prover="cpsat"))
    assert made.provers == ("sat", "cpsat")
    result = make_backend("sat").solve(made.puzzle, limit=2)
    assert result.status.value == "unique" and result.solutions[0] == made.solution
    kept = [rule for rule in made.puzzle.rules if not isinstance(rule, KINDS[family])]
    assert CPSAT.solve(made.puzzle.with_rules(kept), limit=2).status.value == "multiple"


def test_strong_rules_do_the_work_of_givens():
    """A unique classic 9x9 puzzle has at least 17 givens; these need far fewer."""
    for family in ("thermometer", "kropki-negative", "xv-negative", "consecutive-marks"):
        made = next(generate((3, 3), [family], seed=2, prover="cpsat"))
        assert made.clues < 17, (family, made.clues)


def test_a_fixed_rule_and_a_drawn_family_together():
    made = next(generate((2, 3), ["disjoint-groups", "arrow"], seed=3))
    assert R.DisjointGroups() in made.puzzle.rules
    assert_unique_and_needed(made, R.Arrow)


@pytest.mark.parametrize("family", marks.FAMILIES)
def test_drawn_instances_hold_for_the_solution_they_came_from(family):
    rng = random.Random(9)
    for box in ((2, 2), (3, 3)):
        n = box[0] * box[1]
        solution = random_grid(Engine(box), rng)
        drawn = marks.draw(family, solution, n, rng)
        assert drawn and all(isinstance(rule, KINDS[family]) for rule in drawn)
        puzzle = Puzzle(box, solution, drawn)  # the constructor checks each rule's cells
        assert check(puzzle, solution) == []


def test_lines_are_king_move_paths_and_apart():
    rng = random.Random(4)
    solution = random_grid(Engine((3, 3)), rng)
    for family in ("thermometer", "renban", "whispers", "palindrome", "arrow"):
        drawn = marks.draw(family, solution, 9, rng)
        cells = [cell for rule in drawn for cell in rule.cells]
        assert len(cells) == len(set(cells)), family  # no cell on two lines
        for rule in drawn:
            for (r1, c1), (r2, c2) in zip(rule.cells, rule.cells[1:]):
                assert max(abs(r1 - r2), abs(c1 - c2)) == 1, (family, rule)


def test_negative_dots_mark_every_true_edge_and_positive_ones_only_some():
    rng = random.Random(6)
    solution = random_grid(Engine((3, 3)), rng)
    (every,) = marks.draw("kropki-negative", solution, 9, rng)
    (some,) = marks.draw("kropki", solution, 9, rng)
    assert every.negative and not some.negative
    assert len(some.white) + len(some.black) < len(every.white) + len(every.black)
    as_positive = R.Kropki(every.white, every.black, negative=False)
    assert check(Puzzle((3, 3), solution, (as_positive,)), solution) == []


def test_the_same_seed_gives_the_same_variant_puzzle():
    first = next(generate((2, 3), ["whispers", "sandwich"], seed=8))
    again = next(generate((2, 3), ["whispers", "sandwich"], seed=8))
    assert first == again


def test_grading_is_refused_for_rules_the_grader_does_not_know():
    with pytest.raises(UsageError, match="grader knows no thermometer"):
        next(generate((2, 2), ["thermometer"], grade=True))
    with pytest.raises(UsageError, match="grader knows no"):
        next(generate((3, 3), ["sandwich"], level="easy"))
    # fixed rules too, as grade refuses them (before: a level for a puzzle grade refused)
    with pytest.raises(UsageError, match="grader knows no disjoint-groups rules"):
        next(generate((3, 3), [R.DisjointGroups()], grade=True))
    assert next(generate((2, 2), [R.Diagonal()], grade=True)).puzzle.rules == (R.Diagonal(),)


def test_the_command_line_writes_json_that_readers_take_back(tmp_path, capsys):
    out = tmp_path / "p.jsonl"
    assert main(["generate", "--box", "2x3", "--rules", "kropki-negative,little-killer",
                 "--count", "2", "--format", "json", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines() if line[0] == "{"]
    assert len(records) == 2
    for record in records:
        puzzle = from_json(json.dumps(record))
        kinds = {type(rule) for rule in puzzle.rules}
        assert kinds == {R.Kropki, R.LittleKiller}
        result = CPSAT.solve(puzzle, limit=2)
        assert "".join(map(str, result.solutions[0])) == record["solution"]
        assert result.status.value == "unique"
    assert main(["generate", "--rules", "renban"]) == 2
    assert "use --format json" in capsys.readouterr().err
