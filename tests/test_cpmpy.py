"""The cpmpy backend: one CPMpy model, each solver it offers (Choco, Pumpkin, Exact)
counting and solving alike, an unknown solver refused, answers cross-checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.errors import BackendError
from sudokulab.formats.text import from_json
from sudokulab.puzzle import empty
from sudokulab.result import Status

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
TOP95 = datasets.load("top95")
SOLVERS = ["choco", "pumpkin", "exact"]


def test_available_names_cpmpy_choco_and_the_other_solvers():
    ready = make_backend("cpmpy").available()
    assert ready.ok and "CPMpy" in ready.version and "Choco" in ready.version
    assert "pumpkin" in ready.version and "exact" in ready.version


@pytest.mark.parametrize("solver", SOLVERS)
def test_each_solver_counts_the_4x4_grids(solver):
    result = make_backend(f"cpmpy:solver={solver}").solve(empty(4), limit=None)
    assert (result.status, result.count, len(set(result.solutions))) == \
        (Status.MULTIPLE, 288, 288)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("name", ["killer", "sandwich", "whispers", "parity"])
def test_each_solver_solves_variants_as_norvig_does(solver, name):
    puzzle = from_json(json.dumps(VARIANTS[name]))
    result = make_backend(f"cpmpy:solver={solver}").solve(puzzle)
    assert result.status is Status.UNIQUE, result.message
    assert result.solutions == make_backend("norvig").solve(puzzle).solutions


def test_answers_agree_with_norvig_on_top95():
    backend, norvig = make_backend("cpmpy"), make_backend("norvig")
    for puzzle in TOP95[:15]:
        assert backend.solve(puzzle).solutions == norvig.solve(puzzle).solutions


def test_an_unknown_solver_is_refused_naming_those_installed():
    with pytest.raises(BackendError, match="cpmpy: solver must be choco, pumpkin, exact"):
        make_backend("cpmpy:solver=cplex")


def test_describe_lists_constraints_by_kind():
    text = make_backend("cpmpy").describe(empty(9))
    assert "AllDifferent: 27" in text and "81 integers in 1..9" in text


@pytest.mark.parametrize("solver", ["", ":solver=choco", ":solver=pumpkin", ":solver=exact"])
@pytest.mark.parametrize("negative", [False, True])
def test_a_relation_no_pair_of_digits_meets_has_no_solution(solver, negative):
    """On a 4x4 no two digits add up to 10: an X allows no pair, so no grid (CPMpy's Table
    refuses an empty table, so the model states a falsehood instead)."""
    from sudokulab import rules as R

    puzzle = empty(4, (R.XV(x=(((0, 0), (0, 1)),), negative=negative),))
    result = make_backend(f"cpmpy{solver}").solve(puzzle, limit=None)
    assert (result.status, result.count) == (Status.NONE, 0), result.message


def test_a_solver_lacking_a_library_for_a_rule_says_unsupported():
    """PySAT through CPMpy needs PBLib for a cage's sum: without it the puzzle is
    unsupported here (exit 5 as for any rule an engine lacks), not an engine error."""
    import importlib.util

    if importlib.util.find_spec("pypblib") is not None:
        pytest.skip("PBLib is installed: PySAT takes the sum")
    killer = from_json(json.dumps({"box": [3, 3], "givens": "." * 81, "rules": [
        {"type": "cage", "cells": ["r1c1", "r1c2"], "total": 3}]}))
    result = make_backend("cpmpy:solver=pysat").solve(killer, limit=1)
    assert result.status is Status.UNSUPPORTED and "PBLib" in result.message
