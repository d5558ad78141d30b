"""#SAT counting (`solve --count --count-with sharpsat`): Ganak's exact counts on the sat
backend's CNF, cross-checked with enumeration where enumeration finishes, and counts
enumeration never reaches (the 6x6 grids)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import counting
from sudokulab.backends import make_backend
from sudokulab.formats.text import from_json, parse
from sudokulab.puzzle import empty
from sudokulab.result import Status

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())


def loosened(puzzle, every: int):
    """The puzzle with one given in `every` blanked: several solutions, few enough to list."""
    return puzzle.with_values(0 if k % every == 0 else d for k, d in enumerate(puzzle.givens))


def test_the_4x4_grids_are_288():
    result = counting.count(empty(4))
    assert (result.status, result.count, result.exact, result.solutions) == \
        (Status.MULTIPLE, 288, True, ())


@pytest.mark.parametrize("name, every", [("killer", 3), ("arrow", 3), ("sandwich", 3),
                                         ("thermometer", 3), ("kropki", 3), ("jigsaw", 8),
                                         ("anti-knight", 8), ("little-killer", 3)])
def test_counts_agree_with_enumeration(name, every):
    puzzle = loosened(from_json(json.dumps(VARIANTS[name])), every)
    listed = make_backend("sat").solve(puzzle, limit=None, timeout=60)
    assert listed.status.is_answer and listed.exact
    assert counting.count(puzzle).count == listed.count


def test_a_puzzle_without_solution_counts_zero():
    no_solution = parse("1..." "..2." "...." ".2..")  # box 1 has no room left for its 2
    listed = make_backend("sat").solve(no_solution, limit=None)
    result = counting.count(no_solution)
    assert (result.status, result.count) == (listed.status, listed.count)


def test_the_6x6_grids_are_28200960():
    # Relabelling the digits maps grids to grids, so the count with the first row fixed to
    # 1..6 is the count of all grids divided by 6! (Ganak alone needs far longer for all).
    first_row = empty(6).with_values([1, 2, 3, 4, 5, 6] + [0] * 30)
    assert counting.count(first_row).count * 720 == 28_200_960


def test_a_count_past_its_deadline_is_a_timeout():
    result = counting.count(empty(9), timeout=0.5)
    assert result.status is Status.TIMEOUT and not result.exact


def test_the_command_counts_and_refuses_sharpsat_without_count():
    run = [sys.executable, "-m", "sudokulab", "solve", "." * 16, "--count-with", "sharpsat"]
    counted = subprocess.run(run + ["--count", "--format", "line"], capture_output=True,
                             text=True)
    assert (counted.returncode, counted.stdout.strip()) == (0, "288")
    refused = subprocess.run(run, capture_output=True, text=True)
    assert refused.returncode == 2 and "give --count too" in refused.stderr
