"""The cross-check's rules, on hand-made answers for small puzzles."""

from __future__ import annotations

import warnings

import pytest

from sudokulab.backends import make_backend
from sudokulab.formats.text import parse
from sudokulab.harness.crosscheck import answer_text, cross_check, judge, reproduce, verify
from sudokulab.harness.records import Record
from sudokulab.harness.stats import figures, percentile
from sudokulab.result import Result, Status
from sudokulab.rules import Diagonal

MANY = parse("1...............")           # 4x4, many solutions
ONE = parse("...43...21.....1")           # 4x4 with a single solution
NONE = parse("12.....3........")           # row 1 needs a 3 where its box already has one


def grids(puzzle, k):
    """k distinct solutions of a puzzle, found by norvig."""
    return make_backend("norvig").solve(puzzle, limit=k).solutions


def unique(grid):
    return Result(Status.UNIQUE, (grid,), 1, True)


def at_least(*found):
    status = Status.SOLVED if len(found) == 1 else Status.MULTIPLE
    return Result(status, tuple(found), len(found), False)


def exact(*found):
    return Result(Status.MULTIPLE if len(found) > 1 else Status.UNIQUE, tuple(found),
                  len(found), True)


def test_solved_with_limit_1_is_compatible_with_unique_and_multiple():
    one, = grids(ONE, 1)
    assert judge(ONE, {"a": at_least(one), "b": unique(one)}) == ("unique", {})
    x, y, z = grids(MANY, 3)
    assert judge(MANY, {"a": at_least(z), "b": at_least(x, y)}) == ("multiple (>= 3)", {})


def test_exact_counts_must_match():
    x, y, z = grids(MANY, 3)
    consensus, why = judge(MANY, {"two": exact(x, y), "three": exact(x, y, z)})
    assert consensus == "multiple (3)" and list(why) == ["two"]
    assert "3 different valid grids were found" in why["two"]


def test_unique_with_another_valid_grid_is_wrong():
    x, y = grids(MANY, 2)
    consensus, why = judge(MANY, {"right": at_least(x, y), "wrong": unique(y)})
    assert consensus == "multiple (>= 2)" and list(why) == ["wrong"]


def test_two_backends_claiming_different_unique_grids_are_both_wrong():
    x, y = grids(MANY, 2)
    assert set(judge(MANY, {"a": unique(x), "b": unique(y)})[1]) == {"a", "b"}


def test_no_solution_against_a_valid_grid_is_wrong_and_agreement_on_none_stands():
    one, = grids(ONE, 1)
    assert list(judge(ONE, {"a": unique(one), "b": Result(Status.NONE)})[1]) == ["b"]
    none = Result(Status.NONE)
    assert judge(NONE, {"a": none, "b": none}) == ("none", {})


def test_an_invalid_grid_is_wrong_whatever_its_claim():
    one, = grids(ONE, 1)
    spoiled = (one[1],) + one[1:]
    consensus, why = judge(ONE, {"a": unique(one), "b": at_least(spoiled)})
    assert consensus == "unique" and why["b"].startswith("invalid grid:")


def test_grids_must_match_the_count():
    x, _ = grids(MANY, 2)
    why = judge(MANY, {"dup": Result(Status.MULTIPLE, (x, x), 2, False)})[1]
    assert why["dup"] == "claims >= 2 solution(s) but returns 1 distinct grid(s)"
    assert "returns 0" in judge(ONE, {"empty": Result(Status.UNIQUE, (), 1, True)})[1]["empty"]


def test_a_count_that_kept_some_grids_is_checked_on_those():
    x, y = grids(MANY, 2)
    counted = Result(Status.MULTIPLE, (x, y), 12, True)  # 12 counted, the first 2 kept
    assert verify(MANY, counted, kept=2) == ""
    assert "returns 2 distinct" in verify(MANY, counted)  # not told: the count is off
    assert "1 distinct" in verify(MANY, Result(Status.MULTIPLE, (x, x), 12, True), kept=2)
    spoiled = (x[1],) + x[1:]
    assert verify(MANY, Result(Status.MULTIPLE, (spoiled, y), 12, True),
                  kept=2).startswith("invalid grid:")
    assert "returns 2 distinct" in verify(MANY, counted, kept=3)  # fewer than it keeps


def test_failures_to_answer_are_no_disagreement_but_their_grids_are_checked():
    one, = grids(ONE, 1)
    assert judge(ONE, {"t": Result(Status.TIMEOUT), "e": Result(Status.ERROR, message="boom"),
                       "u": Result(Status.UNSUPPORTED)}) == ("no answer", {})
    late = Result(Status.TIMEOUT, ((0,) * 16,), 1, False)
    assert list(judge(ONE, {"a": unique(one), "t": late})[1]) == ["t"]


def test_cross_check_uses_references_and_names_a_command_to_reproduce():
    one, = grids(ONE, 1)
    records = [Record("liar", 0, Result(Status.NONE), 0.001)]
    check = cross_check({0: ONE}, records, {0: one}, limit=2, timeout=5)
    finding, = check.findings
    assert (finding.backend, finding.answer) == ("liar", "none")
    assert finding.command == f"sudokulab solve {ONE} --backend liar --limit 2 --timeout 5"
    assert check.consensus() == {"unique": 1} and check.wrong("liar") == 1


def test_a_variant_puzzle_is_reproduced_in_json():
    puzzle = parse("." * 81, rules=[Diagonal()])
    assert '"rules"' in reproduce(puzzle, "sat", 1, None)
    assert "--timeout" not in reproduce(puzzle, "sat", 1, None)


@pytest.mark.parametrize("result, text", [
    (Result(Status.MULTIPLE, count=2, exact=False), "multiple (>= 2)"),
    (Result(Status.MULTIPLE, count=3, exact=True), "multiple (3)"),
    (Result(Status.TIMEOUT), "timeout"),
])
def test_answers_read_as_people_say_them(result, text):
    assert answer_text(result) == text


def test_figures_take_times_of_answers_and_sum_native_statistics():
    records = [Record("b", i, Result(Status.UNIQUE, stats={"nodes": i, "clauses": 7},
                                     build_time=0.5, solve_time=1.0), float(i))
               for i in range(1, 11)]
    records.append(Record("b", 11, Result(Status.TIMEOUT), 99.0))
    f = figures("b", records)
    assert (f.answered, f.timeouts, f.median, f.p90, f.max) == (10, 1, 5.5, 9.0, 10.0)
    assert f.native["nodes"] == (55, 5.0)  # per puzzle run: the timeout did none reported
    assert f.native["clauses"] == (None, 7)  # a model's size: a sum would mean nothing
    assert f.build == 5.0 and f.rate == 11 / (55 + 99)
    assert percentile([], 90) == 0.0


def test_a_statistic_some_puzzles_lack_is_averaged_over_every_puzzle_run():
    used = Result(Status.UNIQUE, stats={"x-wing": 2})
    records = [Record("human", 0, used, 0.1)] + [Record("human", i, Result(Status.UNIQUE), 0.1)
                                                 for i in range(1, 4)]
    assert figures("human", records).native["x-wing"] == (2, 0.5)


def test_plots_fit_long_backend_specs_and_titles(tmp_path):
    folder = "/tmp/pytest-of-someone/pytest-60/test_an_interrupted_run_resume1"
    long = f"test-count:log={folder}/asked.log,hold={folder}/hold,after=8"
    runs = {name: [Record(name, i, Result(Status.UNIQUE), 0.001 * (i + 1)) for i in range(5)]
            for name in (long, "norvig")}
    title = f"{folder}/puzzles.txt (40 puzzles)"
    from sudokulab.harness import plots  # matplotlib: imported by the one test that draws

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns when the layout cannot fit them
        plots.cactus(runs, tmp_path / "cactus.png", title)
        plots.scatter(long, "norvig", runs, tmp_path / "scatter.png", title)
    assert (tmp_path / "cactus.png").stat().st_size and (tmp_path / "scatter.png").stat().st_size


def test_statistics_per_puzzle_divide_by_the_puzzles_the_engine_ran():
    """An unsupported puzzle (or an error) did no work of the engine's: 24 steps over the 2
    puzzles it ran, not over the 4 asked."""
    records = [Record("human", 0, Result(Status.UNIQUE, stats={"steps": 20}), 0.1),
               Record("human", 1, Result(Status.STALLED, stats={"steps": 4}), 0.1),
               Record("human", 2, Result(Status.UNSUPPORTED), 0.0),
               Record("human", 3, Result(Status.ERROR), 0.0)]
    assert figures("human", records).native["steps"] == (24, 12.0)
