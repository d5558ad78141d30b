"""Ganak's count of a real 9x9 puzzle with a few thousand solutions equals what sat lists."""

from __future__ import annotations

import pytest

from sudokulab import counting, datasets
from sudokulab.backends import make_backend
from sudokulab.puzzle import empty

pytestmark = pytest.mark.skipif(bool(counting.available()), reason="pyganak is missing")


def test_a_9x9_with_its_top_four_rows_blank_counts_as_sat_lists_it():
    # easy50's first solution with rows 1-4 blanked: 1,608 ways to refill them
    grid = datasets.solutions("easy50")[0]
    puzzle = empty(9).with_values([0] * 36 + list(grid[36:]))
    listed = make_backend("sat").solve(puzzle, limit=None)
    assert listed.exact and 1000 < listed.count < 10_000
    assert len(set(listed.solutions)) == listed.count
    result = counting.count(puzzle)
    assert (result.count, result.exact) == (listed.count, True)
