"""#SAT counting (`solve --count --count-with sharpsat`): Ganak's exact counts on the sat
backend's CNF, cross-checked with enumeration where enumeration finishes, and counts
enumeration never reaches (the 6x6 grids, a samurai's 98 million solutions)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import counting, make_backend
from sudokulab.check import check
from sudokulab.formats.text import from_json, parse
from sudokulab.puzzle import empty
from sudokulab.result import Status

DATA = Path(__file__).parent / "data"
VARIANTS = json.loads((DATA / "variants.json").read_text())


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


def test_the_6x6_grids_are_28200960_by_digit_relabelling():
    # Relabelling the digits maps grids to grids, so the count with the first row fixed to
    # 1..6 is the count of all grids divided by 6! (Ganak alone needs far longer for all).
    result = counting.count(empty(6))
    assert (result.count, result.exact, result.stats["factor"],
            result.stats["reduced_count"]) == (28_200_960, True, 720, 39_168)
    assert "6! \u00d7 39,168, by digit relabelling" in result.message


def test_relabelling_keeps_the_4x4_count_of_ganak_alone_and_of_enumeration():
    whole = counting.count(empty(4), symmetry=False)
    reduced = counting.count(empty(4))
    listed = make_backend("sat").solve(empty(4), limit=None)
    assert whole.count == reduced.count == listed.count == 288
    assert "factor" not in whole.stats and reduced.stats["reduced_count"] == 12


@pytest.mark.parametrize("rules", [(R.Diagonal(),), (R.AntiDiagonal(),)])
def test_relabelling_keeps_counts_under_rules_of_equal_and_different_digits(rules):
    puzzle = empty(4, rules)
    listed = make_backend("sat").solve(puzzle, limit=None)
    result = counting.count(puzzle)
    assert result.stats["factor"] == 24 and result.count == listed.count


def test_a_relabelled_count_lists_as_many_distinct_grids_as_asked():
    # 12 grids of the reduced 4x4, 30 asked: the relabelled ones fill the rest, all
    # distinct, all among the 288 that sat lists of the puzzle itself
    every = set(make_backend("sat").solve(empty(4), limit=None).solutions)
    reduction, _ = counting.relabelling(empty(4))
    result = make_backend("norvig").solve(reduction.reduced, limit=None)
    listed = reduction.scaled(result, grids=30).solutions
    assert len(set(listed)) == 30 and set(listed) <= every
    assert set(reduction.grids(result.solutions)) == every


def test_a_6x6_with_part_of_its_first_row_given_counts_as_norvig_lists_it():
    # 1234.. given: the two digits left, 5 and 6, swap freely, so 2! x the count with 56
    puzzle = parse("1234.." + "." * 30)
    listed = make_backend("norvig").solve(puzzle, limit=None)
    result = counting.count(puzzle)
    assert listed.exact and (result.count, result.stats["factor"]) == (listed.count, 2)


def _relabelled(grid: tuple[int, ...], order: tuple[int, ...]) -> tuple[int, ...]:
    """A grid with digit d written as order[d - 1]."""
    return tuple(order[d - 1] for d in grid)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_rule_is_digit_blind_exactly_when_relabelled_solutions_still_keep_it(name):
    # The flag that lets a count be reduced (rules.Rule.digit_blind), held against the
    # independent checker: a blind rule's solution keeps it under every relabelling tried;
    # any other rule is broken by one of them (the rule is then about the digits).
    puzzle = from_json(json.dumps(VARIANTS[name]))
    solution = make_backend("sat").solve(puzzle).solutions[0]
    blank = puzzle.with_values((0,) * len(puzzle.givens))
    n = puzzle.n
    orders = [tuple(range(n, 0, -1)), (*range(2, n + 1), 1), (2, 1, *range(3, n + 1)),
              (1, *range(3, n + 1, 2), *range(2, n + 1, 2))]
    kept = [check(blank, _relabelled(solution, order)) == [] for order in orders]
    blind = all(rule.digit_blind for rule in puzzle.rules)
    assert all(kept) if blind else not all(kept)


@pytest.mark.parametrize("puzzle, why", [
    (parse("123456" + "654321" + "." * 24), "more than one row"),
    (empty(4, (R.NonConsecutive(),)), "breaks the rule non-consecutive"),
    (from_json(json.dumps(VARIANTS["killer"])), "breaks the rule cage"),
])
def test_relabelling_is_refused_where_it_does_not_hold(puzzle, why):
    reduction, reason = counting.relabelling(puzzle)
    assert reduction is None and why in reason


def test_the_command_counts_the_empty_6x6_by_enumeration_and_relabelling():
    run = [sys.executable, "-m", "sudokulab", "solve", "." * 36, "--count"]
    line = subprocess.run(run + ["--format", "line"], capture_output=True, text=True)
    pretty = subprocess.run(run, capture_output=True, text=True)
    assert (line.returncode, line.stdout.strip()) == (0, "28200960")
    assert "28,200,960 (6! \u00d7 39,168, by digit relabelling)" in pretty.stdout


def test_the_miracle_grids_are_72_counted_cube_by_cube():
    # No givens: Ganak counts each digit of one cell apart (whole, it took over 10 minutes)
    result = counting.count(empty(9, R.MIRACLE))
    listed = make_backend("sat").solve(empty(9, R.MIRACLE), limit=None)
    assert (result.count, result.stats["cubes"]) == (listed.count, 9)


def test_a_9x9_with_its_top_four_rows_blank_counts_as_sat_lists_it():
    # easy50's first solution with rows 1-4 blanked: 1,608 ways to refill them
    grid = datasets.solutions("easy50")[0]
    puzzle = empty(9).with_values([0] * 36 + list(grid[36:]))
    listed = make_backend("sat").solve(puzzle, limit=None)
    assert listed.exact and 1000 < listed.count < 10_000
    assert len(set(listed.solutions)) == listed.count
    result = counting.count(puzzle)
    assert (result.count, result.exact) == (listed.count, True)


def test_a_samurai_with_millions_of_solutions_is_the_product_of_its_grids():
    # Its four shared boxes are given (data/samurai_opened.py), so its five grids share no
    # open cell: Ganak splits the formula into five components, and the count must be the
    # product of each grid's own count, which norvig enumerates.
    puzzle = parse((DATA / "samurai-opened-4.txt").read_text())
    result = counting.count(puzzle)
    norvig = make_backend("norvig")
    grids = [empty(9).with_values([puzzle.givens[c] for c in puzzle.layout.grid_cells(k)])
             for k in range(len(puzzle.layout.grids))]
    listed = [norvig.solve(grid, limit=None) for grid in grids]
    assert all(grid.exact for grid in listed)
    assert (result.exact, result.count) == (True, math.prod(g.count for g in listed))
    assert result.count > 10 ** 6  # the claim: millions, out of enumeration's reach


def test_splitting_into_cubes_keeps_the_count():
    puzzle = loosened(from_json(json.dumps(VARIANTS["killer"])), 3)
    assert counting.count(puzzle, split=True).count == counting.count(puzzle).count


def test_a_band_with_its_first_box_fixed_has_56_times_6_to_the_6_completions():
    # Felgenhauer and Jarvis: 56 ways to fill the rest of the top rows of boxes 2 and 3
    # as sets, 6^6 orders of their rows; every band completes to a grid, so its region
    # count is the number of band completions.
    box = [1, 2, 3, 0, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 7, 8, 9]
    result = counting.count(empty(9).with_values(box + [0] * 60), within=range(27))
    assert (result.count, result.exact) == (56 * 6 ** 6, True)


def test_a_region_counts_its_fillings_under_its_own_constraints_only():
    # The top row of the 4x4 alone: its 4! orders; the other rows add no constraint.
    assert counting.count(empty(4), within=range(4)).count == 24
    # A given outside the region is no constraint of it
    assert counting.count(parse("...." "1..." "...." "...."), within=range(4)).count == 24


def test_a_count_past_its_deadline_is_a_timeout():
    result = counting.count(empty(9), timeout=0.5)
    assert result.status is Status.TIMEOUT and not result.exact


def test_a_cube_started_past_the_deadline_is_a_timeout():
    # The pool's threads go on starting the cubes left until the count stops them: one
    # started after the deadline is killed at once, and counts as the timeout it is.
    clauses, counted = counting.formula(empty(9))
    text = counting._text(counted, clauses)
    with pytest.raises(counting.Timeout):
        counting._one(text, time.perf_counter() - 1, running=[])


def test_the_command_counts_and_refuses_sharpsat_without_count():
    run = [sys.executable, "-m", "sudokulab", "solve", "." * 16, "--count-with", "sharpsat"]
    counted = subprocess.run(run + ["--count", "--format", "line"], capture_output=True,
                             text=True)
    assert (counted.returncode, counted.stdout.strip()) == (0, "288")
    refused = subprocess.run(run, capture_output=True, text=True)
    assert refused.returncode == 2 and "give --count too" in refused.stderr


def test_the_api_counts_as_solve_count_does_by_relabelling(tmp_path):
    """sl.count and `solve --count` give one answer: the count, the symmetry, the factor."""
    import sudokulab as sl

    api = sl.count("." * 16, grids=3)
    done = subprocess.run([sys.executable, "-m", "sudokulab", "solve", "." * 16, "--count",
                           "--grids", "3", "--format", "json"], capture_output=True, text=True)
    cli = json.loads(done.stdout)
    assert (api.status, api.count, api.exact) == (Status.MULTIPLE, 288, True)
    assert (cli["count"], cli["stats"]["factor"], cli["stats"]["reduced_count"]) == \
        (api.count, api.stats["factor"], api.stats["reduced_count"]) == (288, 24, 12)
    assert len(set(api.solutions)) == 3 and not any(check(empty(4), g) for g in api.solutions)
    assert "4! \u00d7 12, by digit relabelling" in api.message


def test_the_api_count_by_relabelling_equals_every_grid_listed():
    """Two givens in the first row: 2! x the count with that row filled, as listing says;
    givens in two rows: no relabelling, the count is the grids listed."""
    import sudokulab as sl

    for text, relabelled in (("12" + "." * 14, True), ("1" + "." * 3 + "2" + "." * 11, False)):
        listed = sl.solve(text, backend="sat", limit=None)
        counted = sl.count(text, backend="dlx")
        assert counted.count == listed.count > 0 and counted.exact
        assert ("by digit relabelling" in counted.message) == relabelled


def test_the_api_count_cut_short_is_a_scaled_lower_bound():
    import sudokulab as sl

    cut = sl.count("." * 36, backend="norvig", timeout=0.3)
    assert cut.status is Status.TIMEOUT and not cut.exact
    assert cut.count % 720 == 0 and cut.stats["factor"] == 720
    assert "each 6! grids by digit relabelling" in cut.message


def test_the_api_refuses_a_count_no_enumeration_ends_and_one_that_cannot_count():
    import sudokulab as sl
    from sudokulab.errors import UsageError

    with pytest.raises(UsageError, match=r"^sl.count would enumerate about .* give timeout=S"):
        sl.count("." * 81)
    with pytest.raises(UsageError, match="human cannot count"):
        sl.count("." * 16, backend="human")


def test_the_api_count_checks_the_grids_it_keeps(monkeypatch):
    """An engine that returns one grid twice for a count of two is caught."""
    import sudokulab as sl
    from sudokulab import backends
    from sudokulab.errors import DisagreementError

    real = backends.make_backend

    def lying(spec):
        engine = real(spec)
        solve = engine.solve

        def twice(puzzle, **options):
            found = solve(puzzle, **options)
            return replace(found, solutions=(found.solutions[0],) * len(found.solutions))

        engine.solve = twice
        return engine

    monkeypatch.setattr(backends, "make_backend", lying)
    with pytest.raises(DisagreementError, match="sl.count: norvig claims"):
        sl.count("12" + "." * 14, backend="norvig")


def test_a_stall_on_the_relabelled_puzzle_shows_none_of_its_grid():
    """sat:root=yes stalls on the puzzle whose row relabelling filled: that row (1 2 | 3 4)
    is no deduction of the puzzle asked, so its grid so far is not shown as one."""
    import sudokulab as sl

    stalled = sl.count("12" + "." * 14, backend="sat:root=yes")
    assert stalled.status is Status.STALLED and stalled.partial == ()
    assert "were of the reduced puzzle (row 1 filled by digit relabelling)" in stalled.message
