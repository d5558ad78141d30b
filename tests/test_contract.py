"""The backend contract, tested once over every registered backend (plugins included).

What `Backend.solve` promises whatever the engine: the status of each kind of puzzle,
exact counts, the solutions found before a timeout, UNSUPPORTED rather than a wrong
answer for a rule it cannot express, every shape and every variant rule. Each grid is
checked by the independent checker and compared with an engine of another paradigm.
A backend that is no complete search (`complete = False`: human-style steps) may answer
STALLED where a search would give a verdict; nothing else is relaxed for it.
Tests of what is specific to one engine (its options, statistics, model) stay in its file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ready_backend

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import make_backend, names
from sudokulab.check import check
from sudokulab.errors import BackendError, Interrupted
from sudokulab.formats.text import from_json, parse
from sudokulab.puzzle import Puzzle, empty
from sudokulab.result import Status

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
EASY = parse("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
# A top95 puzzle with one wrong given added: no givens clash and propagation alone does
# not see the conflict; only search proves there is no solution.
NO_SOLUTION = parse("5...14....3....2...7..........9...3.6.1......"
                    ".......8.2.....1.4....5.6.....7.8...")
TWO_SOLUTIONS_4 = parse(".2.4" ".4.2" "2143" "4321")


def blanked(solution: str, cells: list[tuple[int, int]]) -> Puzzle:
    """A 9x9 solution with some cells blanked."""
    givens = [int(c) for c in solution]
    for row, col in cells:
        givens[row * 9 + col] = 0
    return empty(9).with_values(givens)


# Two independent deadly rectangles of SOLUTION (each swaps two digits across two boxes):
# the puzzle with their eight cells blank has exactly 2 x 2 solutions.
FOUR_SOLUTIONS = blanked(SOLUTION, [(0, 1), (0, 6), (1, 1), (1, 6),
                                    (6, 4), (6, 7), (8, 4), (8, 7)])


def shape(n: int, every: int) -> Puzzle:
    """A puzzle of size N: the first grid norvig finds, one cell in `every` blanked."""
    full = make_backend("norvig").solve(empty(n), limit=1).solutions[0]
    return empty(n).with_values(d if (i * 7) % every else 0 for i, d in enumerate(full))


@dataclass(frozen=True)
class Thermometer:
    """A rule no backend knows: a stand-in for a plugin's rule, or one added later."""

    name = "thermometer"


@pytest.fixture(scope="module", params=names())
def backend(request):
    """Each registered backend; Prolog is skipped only on explicit request, never silently."""
    return ready_backend(request.param)


def reference(backend) -> str:
    """An engine of another paradigm to compare answers with."""
    return "sat" if backend.name == "norvig" else "norvig"


def stalled(backend, result) -> bool:
    """Whether the result is a step-by-step backend stopping short, which it may."""
    if result.status is not Status.STALLED:
        return False
    assert not backend.complete, f"{backend.name} is a complete search yet stalled"
    assert result.solutions == ()
    return True


def all_checked(puzzle: Puzzle, result) -> None:
    """Every grid of the result is a distinct solution of the puzzle."""
    assert len(set(result.solutions)) == len(result.solutions)
    assert all(check(puzzle, grid) == [] for grid in result.solutions)


# --- status and counts ----------------------------------------------------------------

def test_the_empty_4x4_has_288_grids(backend):
    result = backend.solve(empty(4), limit=None)
    if stalled(backend, result):
        return
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, 288, True)
    assert len(result.solutions) == 288
    all_checked(empty(4), result)


def test_limit_1_gives_solved(backend):
    for puzzle in (empty(4), EASY):
        result = backend.solve(puzzle, limit=1)
        if stalled(backend, result):
            continue
        assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, False)
        all_checked(puzzle, result)


def test_limit_2_on_a_unique_puzzle_gives_unique(backend):
    result = backend.solve(EASY, limit=2)
    assert (result.status, result.count, result.exact) == (Status.UNIQUE, 1, True)
    assert result.solutions == (tuple(int(c) for c in SOLUTION),)


def test_a_contradiction_found_only_by_search_is_none(backend):
    result = backend.solve(NO_SOLUTION, limit=2)
    if stalled(backend, result):
        return
    assert (result.status, result.count, result.exact, result.solutions) == \
        (Status.NONE, 0, True, ())


def test_givens_that_clash_are_none_with_the_clash_named(backend):
    clash = parse("11" + "." * 79)
    result = backend.solve(clash)
    assert result.status is Status.NONE and "givens repeat: 1 at r1c1 and r1c2" in result.message


@pytest.mark.parametrize("puzzle, count", [(TWO_SOLUTIONS_4, 2), (FOUR_SOLUTIONS, 4)],
                         ids=["4x4-2", "9x9-4"])
def test_counts_are_exact_on_puzzles_of_several_solutions(backend, puzzle, count):
    result = backend.solve(puzzle, limit=None)
    if stalled(backend, result):
        return
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, count, True)
    all_checked(puzzle, result)
    assert set(result.solutions) == set(make_backend(reference(backend))
                                        .solve(puzzle, limit=None).solutions)
    capped = backend.solve(puzzle, limit=2)
    assert (capped.status, capped.count, capped.exact) == (Status.MULTIPLE, 2, False)
    assert capped.count_text == ">= 2"


def test_a_timeout_keeps_what_was_found_so_far(backend):
    result = backend.solve(empty(9), limit=None, timeout=0.5)
    if stalled(backend, result):
        return
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count == len(result.solutions)
    all_checked(empty(9), result)


def test_an_infinite_timeout_is_no_timeout(backend):
    result = backend.solve(datasets.load("hardest")[0], timeout=math.inf)
    assert result.status is Status.UNIQUE or stalled(backend, result), result.message


@pytest.mark.parametrize("n, every", [(6, 4), (16, 5)])
def test_other_shapes(backend, n, every):
    puzzle = shape(n, every)
    result = backend.solve(puzzle, limit=2)
    if stalled(backend, result):
        return
    assert result.status is Status.UNIQUE, result.message
    all_checked(puzzle, result)
    assert result.solutions == make_backend(reference(backend)).solve(puzzle).solutions


# --- rules ----------------------------------------------------------------------------

def test_a_rule_it_cannot_express_is_unsupported_never_ignored(backend):
    result = backend.solve(empty(9, (R.Diagonal(), Thermometer())), limit=2)
    assert result.status is Status.UNSUPPORTED and "thermometer" in result.message
    assert result.solutions == ()


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_puzzle(backend, name):
    puzzle = from_json(json.dumps(VARIANTS[name]))
    result = backend.solve(puzzle, limit=2)
    if not all(isinstance(rule, backend.supported_rules) for rule in puzzle.rules):
        assert result.status is Status.UNSUPPORTED and result.solutions == ()
        return
    if stalled(backend, result):
        return
    assert result.status is Status.UNIQUE, result.message
    all_checked(puzzle, result)
    assert result.solutions == make_backend(reference(backend)).solve(puzzle).solutions


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_without_its_rule_a_variant_puzzle_has_several_solutions(backend, name):
    puzzle = from_json(json.dumps(VARIANTS[name])).with_rules(())
    result = backend.solve(puzzle, limit=2)
    if stalled(backend, result):
        return
    assert result.status is Status.MULTIPLE
    all_checked(puzzle, result)


def test_every_rule_type_has_a_variant_puzzle_and_a_branch_in_the_checker():
    for kind in R.RULE_TYPES:
        found = [name for name, data in VARIANTS.items()
                 if any(isinstance(rule, kind) for rule in from_json(json.dumps(data)).rules)]
        assert found, f"tests/data/variants.json has no puzzle of rule {kind.name}"
        puzzle = from_json(json.dumps(VARIANTS[found[0]]))
        # Unique under its rule, several solutions without: one of those breaks the rule,
        # and the checker, which shares no code with the backends, must say so.
        grids = make_backend("norvig").solve(puzzle.with_rules(()), limit=2).solutions
        assert any(check(puzzle, grid) for grid in grids), f"check() ignores {kind.name}"


# --- options and interruption ---------------------------------------------------------

@pytest.mark.parametrize("spec, valid", [
    ("sat:foo=1", "its options: solver, encoding, amo"),
    ("prolog:bar=2", "its options: strength, labeling, order, branching"),
    ("smt:model=int,zz=3", "its options: model, solver, givens"),
    ("cpsat:model=int,zz=3", "its options: model, workers, presolve"),
    ("norvig:x=1", "its options: variant"),
    ("dlx:x=1", "its options: variant"),
])
def test_an_unknown_option_is_named_with_the_valid_keys(spec, valid):
    with pytest.raises(BackendError) as error:
        make_backend(spec)
    text = str(error.value)
    assert valid in text and "no option" in text
    assert "__init__" not in text and "unexpected keyword" not in text


@pytest.mark.parametrize("timeout", [math.nan, -1.0])
def test_a_timeout_that_is_no_number_of_seconds_is_refused(backend, timeout):
    with pytest.raises(ValueError, match="timeout"):
        backend.solve(EASY, timeout=timeout)


def test_a_backend_that_keeps_nothing_is_interrupted_with_nothing(monkeypatch):
    backend = make_backend("norvig")

    def pressed(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(backend, "_solve", pressed)
    with pytest.raises(Interrupted) as stop:
        backend.solve(datasets.load("hardest")[0])
    assert stop.value.result.status == Status.TIMEOUT
    assert stop.value.result.solutions == () and "interrupted" in stop.value.result.message
    assert isinstance(stop.value, KeyboardInterrupt)


def test_a_result_without_a_verdict_claims_no_exact_count():
    from sudokulab.result import Result

    for status in (Status.UNSUPPORTED, Status.ERROR, Status.STALLED):
        assert Result(status).exact is False and Result(status).count_text == ">= 0"
    arrow = empty(9, (R.Arrow(((0, 0), (0, 1), (0, 2))),))
    result = make_backend("human").solve(arrow)
    assert result.status is Status.UNSUPPORTED and result.to_json()["exact"] is False
    assert Result(Status.NONE).exact is True   # a proof of no solution counts 0 exactly
