"""A count keeps few grids inside every engine (issue 53): each engine counts every grid
it finds and holds only the first `keep`, so counting millions holds no more grids than
asked; Backend.solve's cut after the search (base.kept) is only for plugins."""

from __future__ import annotations

import pytest

from sudokulab.backends import base, make_backend, names
from sudokulab.check import is_solution
from sudokulab.formats.text import parse

ONE_GIVEN = "...............4"  # a 4x4 with 72 grids


@pytest.mark.parametrize("name", names())
def test_each_engine_holds_only_the_grids_it_keeps(name, monkeypatch):
    engine = make_backend(name)
    if not engine.available().ok:
        pytest.skip(f"{name}: {engine.available().reason}")
    if not engine.complete:
        pytest.skip(f"{name} does not search, so cannot count")
    monkeypatch.setattr(base, "kept", lambda result, keep: result)  # no cut after it
    puzzle = parse(ONE_GIVEN)
    result = engine.solve(puzzle, limit=None, keep=5)
    assert result.count == 72 and result.exact
    assert len(result.solutions) == 5
    assert len(set(result.solutions)) == 5
    assert all(is_solution(puzzle, grid) for grid in result.solutions)
