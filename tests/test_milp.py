"""The milp backend and its 0-1 program: the LP file read back by HiGHS, the givens and
no-good rows undone after each puzzle, HiGHS's statistics, answers cross-checked."""

from __future__ import annotations

import json
from pathlib import Path

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.backends.milp import SPLIT_AFTER, engine, split_budget
from sudokulab.formats.text import from_json
from sudokulab.geometry import geometry
from sudokulab.models import milp
from sudokulab.puzzle import empty
from sudokulab.result import Status

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
TOP95 = datasets.load("top95")


def test_available_names_highs():
    ready = make_backend("milp").available()
    assert ready.ok and ready.version.startswith("HiGHS 1.")


def test_the_lp_file_solves_to_the_puzzles_solution(tmp_path):
    import highspy

    puzzle = from_json(json.dumps(VARIANTS["sandwich"]))
    path = tmp_path / "sandwich.lp"
    path.write_text(milp.to_lp(puzzle))
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    values = dict(zip(h.allVariableNames(), h.getSolution().col_value))
    grid = tuple(next(d for d in range(1, 10) if values.get(f"{name}_{d}", 0) > 0.5)
                 for name in (geometry((3, 3)).name(c) for c in range(81)))
    assert (grid,) == make_backend("norvig").solve(puzzle).solutions


def test_each_search_leaves_the_shared_program_as_it_found_it():
    warm = engine((2, 2), ())
    rows = warm.highs.getNumRow()
    assert make_backend("milp").solve(empty(4), limit=5).count == 5
    assert warm.highs.getNumRow() == rows
    assert list(warm.highs.getLp().col_lower_) == [0.0] * 64


def test_answers_agree_with_norvig_on_top95():
    backend, norvig = make_backend("milp"), make_backend("norvig")
    for puzzle in TOP95[:15]:
        result = backend.solve(puzzle)
        assert result.status is Status.UNIQUE
        assert result.solutions == norvig.solve(puzzle).solutions


def test_statistics_are_highs_own_words():
    result = make_backend("milp").solve(TOP95[0], limit=2)
    assert result.stats["solves"] == 2  # the solution, then the proof that it is alone
    assert {"mip_node_count", "simplex_iteration_count"} <= set(result.stats)


def test_describe_counts_rows_by_part_of_the_rules():
    text = make_backend("milp").describe(from_json(json.dumps(VARIANTS["sandwich"])))
    assert "729 x(cell, d)" in text and "sandwich" in text and "auxiliary" in text


def test_a_slow_first_solve_sets_the_split_budget_only_until_others_end():
    # The Miracle with r1c1 = 1: its first grid took HiGHS 20 s, each solve that ended
    # after it under a second; a budget of 20 s let each stopped solve waste as much.
    assert split_budget([20.0]) == 20.0
    assert split_budget([20.0, 0.5, 0.6]) == 0.6
    assert split_budget([0.01, 0.02]) == SPLIT_AFTER
