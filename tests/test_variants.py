"""The Miracle facts, counted by every complete search of the registry.

Facts from the variants issue: the Miracle rules (anti-knight, anti-king,
non-consecutive) admit exactly 72 grids; with any single given, exactly 8; with
r5c3 = 1 and r6c7 = 2, exactly one. The puzzles of data/variants.json (one per rule)
are solved by every backend in tests/test_contract.py; they were made by thinning a
grid of each rule until one more blank would break uniqueness (the non-consecutive one
then got ten givens back, so that CLP(FD), whose propagation of that rule is weak,
proves it in seconds); each is unique under its rule and has several solutions without it.
"""

from pathlib import Path

import pytest
from conftest import ready_backend

from sudokulab import rules as R
from sudokulab.backends import backend_class, complete_searches
from sudokulab.check import check
from sudokulab.puzzle import empty
from sudokulab.result import Status

MIRACLE_GIVENS = [((0, 0), 1), ((4, 4), 5), ((8, 2), 7)]


def miracle_searches() -> list[str]:
    """Every complete search that expresses the Miracle rules (one that cannot answers
    UNSUPPORTED: tests/test_contract.py holds it to that)."""
    return [name for name in complete_searches() if all(
        isinstance(rule, backend_class(name).supported_rules) for rule in R.MIRACLE)]


@pytest.fixture(scope="module", params=miracle_searches())
def backend(request):
    """Each backend; Prolog is skipped only on explicit request, never silently."""
    return ready_backend(request.param)


def miracle(*givens):
    """The empty 9x9 under the Miracle rules, with some givens ((row, col), digit)."""
    grid = [0] * 81
    for (row, col), digit in givens:
        grid[row * 9 + col] = digit
    return empty(9, R.MIRACLE).with_values(grid)


# The 72 grids, listed by norvig and sat and checked when the file was made
# (data/miracle_grids.py): every backend is compared with them, and a puzzle with givens
# has those of them that hold its givens.
GRIDS = frozenset(tuple(map(int, line)) for line in
                  (Path(__file__).parent / "data" / "miracle-grids.txt").read_text().split())


def grids_of(puzzle) -> frozenset:
    """The Miracle grids that hold the puzzle's givens: all of its solutions."""
    return frozenset(g for g in GRIDS
                     if all(not d or g[k] == d for k, d in enumerate(puzzle.givens)))


def counts_as_listed(backend, puzzle, expected):
    """The backend counts exactly `expected` grids, and they are those on file."""
    result = backend.solve(puzzle, limit=None)
    reference = grids_of(puzzle)
    assert len(reference) == expected
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, expected, True)
    assert set(result.solutions) == reference and len(result.solutions) == expected
    return result


def test_miracle_rules_admit_72_grids(backend):
    if backend.slow_to_enumerate:  # its Miracle count is held to one given's 8 grids below
        pytest.skip(f"{backend.name}: {backend.slow_to_enumerate}")
    result = counts_as_listed(backend, miracle(), 72)
    assert all(check(miracle(), grid) == [] for grid in result.solutions)


@pytest.mark.parametrize("given", MIRACLE_GIVENS, ids=lambda g: f"r{g[0][0] + 1}c{g[0][1] + 1}")
def test_one_miracle_given_leaves_8_grids(backend, given):
    # one case enumerates: r5c5, whose 8 grids milp proves the last in about 7 s (r1c1's
    # and r9c3's take it 85 and 100 s)
    if backend.slow_to_enumerate and given != MIRACLE_GIVENS[1]:
        pytest.skip(f"{backend.name}: {backend.slow_to_enumerate}")
    result = counts_as_listed(backend, miracle(given), 8)
    assert all(grid[given[0][0] * 9 + given[0][1]] == given[1] for grid in result.solutions)


def test_the_miracle_puzzle_is_unique(backend):
    puzzle = miracle(((4, 2), 1), ((5, 6), 2))
    result = backend.solve(puzzle, limit=None)
    assert (result.status, result.count) == (Status.UNIQUE, 1)
    assert check(puzzle, result.solutions[0]) == []
    assert result.solutions[0][:9] == (4, 8, 3, 7, 2, 6, 1, 5, 9)  # the published answer
