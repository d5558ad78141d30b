"""Knuth's estimate of a count (counting.estimate) on counts known exactly, and `solve
--count` refusing at once, with the reason, a count by enumeration beyond ENUMERABLE grids.

The bound the estimates are held to: within a factor of 2 of the true count and within 4
standard errors of it. With PROBES random paths, seeds 0 to 4 put every estimate of KNOWN
between 0.74 and 1.14 times its count and at most 3.3 standard errors away (the 9x9 with
its first row fixed, the widest tree, at seed 2), so a factor of 2 is a margin, not a fit
to one lucky seed: each case runs on three seeds.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import counting, make_backend
from sudokulab.formats.text import from_json, parse
from sudokulab.puzzle import Puzzle, empty

DATA = Path(__file__).parent / "data"
VARIANTS = json.loads((DATA / "variants.json").read_text())
EMPTY_8X8 = "." * 64


def reduced(puzzle: Puzzle) -> Puzzle:
    """The puzzle with its first row fixed, as a count by relabelling enumerates it."""
    reduction, why = counting.relabelling(puzzle)
    assert reduction is not None, why
    return reduction.reduced


def blanked(cells: int) -> Puzzle:
    """easy50's first solution with its first `cells` cells blanked."""
    grid = datasets.solutions("easy50")[0]
    return empty(9).with_values([0] * cells + list(grid[cells:]))


def two_solutions() -> Puzzle:
    """easy50's first puzzle less its given at r6c4: two solutions."""
    puzzle = datasets.load("easy50")[0]
    return puzzle.with_values([0 if k == 48 else d for k, d in enumerate(puzzle.givens)])


def assert_close(found: counting.Estimate | None, true: int) -> None:
    """Within a factor of 2 of the true count and within 4 standard errors of it."""
    assert found is not None
    assert true / 2 <= found.count <= true * 2, (found, true)
    assert abs(found.count - true) <= 4 * found.error, (found, true)


KNOWN = [  # (name, puzzle, its count), the counts from the literature or enumeration
    ("4x4 first row fixed", lambda: reduced(empty(4)), 12),
    ("4x4", lambda: empty(4), 288),
    ("6x6 first row fixed", lambda: reduced(empty(6)), 39_168),
    ("9x9 first 27 cells blank", lambda: blanked(27), 168),
    ("9x9 first 36 cells blank", lambda: blanked(36), 1_608),
    ("8x8 first row fixed", lambda: reduced(Puzzle((2, 4), (0,) * 64)), 722_631_131_136),
    ("9x9 first row fixed", lambda: reduced(empty(9)), 18_383_222_420_692_992),
]


@pytest.mark.parametrize("name, make, true", KNOWN, ids=[case[0] for case in KNOWN])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_estimate_is_close_to_known_counts(name, make, true, seed):
    assert_close(counting.estimate(make(), seed=seed), true)


def test_the_known_small_counts_are_what_enumeration_lists():
    # the counts KNOWN states for the 9x9s made here, listed by norvig
    norvig = make_backend("norvig")
    assert [norvig.solve(blanked(k), limit=None).count for k in (18, 27, 36)] == [4, 168, 1608]
    assert norvig.solve(two_solutions(), limit=None).count == 2


def test_a_puzzle_with_few_solutions_is_estimated_exactly_when_every_path_ends_in_one():
    # four grids, each path forced to one of them after one choice of two, then another
    assert counting.estimate(blanked(18)) == counting.Estimate(4.0, 0.0, counting.PROBES)


@pytest.mark.parametrize("puzzle", [
    Puzzle((2, 2), (1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0)),  # box 1 has no 2
    Puzzle((2, 2), (1, 1) + (0,) * 14),  # givens that clash
])
def test_a_puzzle_without_solution_is_estimated_zero(puzzle):
    assert counting.estimate(puzzle) == counting.Estimate(0.0, 0.0, counting.PROBES)
    assert make_backend("norvig").solve(puzzle, limit=None).count == 0


def loosened(name: str, every: int = 8) -> Puzzle:
    """A variant of the tests with one given in `every` blanked: several solutions."""
    puzzle = from_json(json.dumps(VARIANTS[name]))
    return puzzle.with_values([0 if k % every == 0 else d for k, d in enumerate(puzzle.givens)])


@pytest.mark.parametrize("puzzle", [empty(4, (R.Diagonal(),)), loosened("main-diagonal"),
                                    loosened("disjoint-groups"), loosened("extra-region")])
def test_rules_of_different_digits_are_estimated_over_their_peers(puzzle):
    listed = make_backend("norvig").solve(puzzle, limit=None)
    assert listed.exact and listed.count > 1
    assert_close(counting.estimate(puzzle), listed.count)


@pytest.mark.parametrize("puzzle", [
    from_json(json.dumps(VARIANTS["killer"])),
    empty(4, (R.NonConsecutive(),)),
    from_json(json.dumps(VARIANTS["thermometer"])),
])
def test_rules_that_say_more_than_which_cells_differ_are_not_estimated(puzzle):
    assert counting.estimate(puzzle) is None
    assert counting.beyond_enumeration(puzzle) is None  # so a count of it is never refused


def test_the_estimate_repeats_with_its_seed_and_needs_a_path():
    puzzle = reduced(empty(6))
    assert counting.estimate(puzzle, 50, seed=7) == counting.estimate(puzzle, 50, seed=7)
    assert counting.estimate(puzzle, 50, seed=7) != counting.estimate(puzzle, 50, seed=8)
    with pytest.raises(ValueError, match="probes must be at least 1"):
        counting.estimate(puzzle, 0)


@pytest.mark.parametrize("puzzle", [
    reduced(empty(4)), reduced(empty(6)), two_solutions(), blanked(36),
    parse((DATA / "samurai-opened-4.txt").read_text()),  # 98 million solutions
])
def test_ordinary_counts_are_not_beyond_enumeration(puzzle):
    assert counting.beyond_enumeration(puzzle) is None


def test_the_empty_8x8_and_9x9_are_beyond_enumeration():
    for puzzle in (reduced(Puzzle((2, 4), (0,) * 64)), reduced(empty(9))):
        found = counting.beyond_enumeration(puzzle)
        assert found is not None and found.count > counting.ENUMERABLE


def test_the_estimate_stops_drawing_paths_past_its_seconds_after_one_at_least():
    found = counting.estimate(reduced(empty(9)), probes=10**6, seconds=0)
    assert found is not None and found.probes == 1


def solve(*args: str) -> subprocess.CompletedProcess:
    """`sudokulab solve ARGS` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "sudokulab", "solve", *args],
                          capture_output=True, text=True)


def test_the_command_refuses_the_empty_8x8_count_with_the_reason():
    run = solve(EMPTY_8X8, "--box", "2x4", "--count")
    assert (run.returncode, run.stdout) == (2, "")
    as_csv = solve(EMPTY_8X8, "--box", "2x4", "--count", "--format", "csv")
    assert (as_csv.returncode, as_csv.stdout) == (2, "")  # refused before any header
    line = run.stderr.strip()
    assert len(line.splitlines()) == 1
    for part in ("--count would enumerate about 7", "grids (the puzzle with row 1 fixed, each "
                 "grid 8! by digit relabelling; Knuth's estimate over ",
                 "at norvig's 17,000 grids/s", "beyond enumeration (over 1,000,000,000 grids)",
                 "give --timeout S for a lower bound"):
        assert part in line, line
    assert re.search(r"over \d+ random paths, standard error \d+%\): about [\d.]+ years", line)


def test_a_count_past_the_range_of_floats_is_estimated_and_refused_all_the_same():
    # a 25x25 has over 1e500 grids: the third path of seed 0 reaches one (the first two
    # end in dead ends), its product past a float's range
    found = counting.estimate(reduced(empty(25)), probes=3)
    assert found == counting.Estimate(math.inf, math.inf, 3)
    line = counting._refusal(found, "norvig", None)
    assert "about 1e308 or more grids" in line and "standard error unknown" in line


def test_the_command_names_the_puzzle_of_a_file_it_refuses(tmp_path):
    file = tmp_path / "two.txt"
    file.write_text("." * 16 + "\n" + "." * 81 + "\n")
    run = solve("--file", str(file), "--count", "-b", "dlx")
    assert run.returncode == 2 and run.stdout == ""
    assert re.search(rf"puzzle 2 \({re.escape(str(file))}:2\): --count would enumerate "
                     rf"about 1\.\de16 grids", run.stderr), run.stderr
    assert "9! by digit relabelling" in run.stderr and "at dlx's 14,500 grids/s" in run.stderr


def test_the_command_still_counts_the_6x6_and_gives_a_lower_bound_with_a_timeout():
    assert solve("." * 36, "--count", "--format", "line").stdout.strip() == "28200960"
    bounded = solve(EMPTY_8X8, "--box", "2x4", "--count", "--timeout", "1")
    assert bounded.returncode == 3 and bounded.stdout.startswith("timeout: >= ")
    assert "each 8! grids by digit relabelling" in bounded.stdout
