"""What every backend does alike: options, infinite timeouts, Ctrl-C without partial results."""

from __future__ import annotations

import math
import os

import pytest

from sudokulab.backends import BackendError, make_backend
from sudokulab.backends.base import Interrupted
from sudokulab.harness import datasets
from sudokulab.result import Status

BACKENDS = ["norvig", "sat", "smt", "dlx", "asp", "cpsat"] + \
    ([] if os.environ.get("SUDOKULAB_SKIP_PROLOG") == "1" else ["prolog"])


@pytest.mark.parametrize("spec, valid", [
    ("sat:foo=1", "its options: solver, encoding, amo"),
    ("prolog:bar=2", "its options: strength, labeling, order, branching"),
    ("smt:model=int,zz=3", "its options: model, solver, givens"),
    ("cpsat:model=int,zz=3", "its options: model, workers, presolve"),
    ("norvig:x=1", "takes no option x: it has no options"),
    ("dlx:x=1", "takes no option x: it has no options"),
])
def test_an_unknown_option_is_named_with_the_valid_keys(spec, valid):
    with pytest.raises(BackendError) as error:
        make_backend(spec)
    text = str(error.value)
    assert valid in text and "no option" in text
    assert "__init__" not in text and "unexpected keyword" not in text


@pytest.mark.parametrize("spec", BACKENDS)
def test_an_infinite_timeout_is_no_timeout(spec):
    puzzle = datasets.load("hardest")[0]
    result = make_backend(spec).solve(puzzle, timeout=math.inf)
    assert result.status == Status.UNIQUE, result.message


@pytest.mark.parametrize("timeout", [math.nan, -1.0])
def test_a_timeout_that_is_no_number_of_seconds_is_refused(timeout):
    with pytest.raises(ValueError, match="timeout"):
        make_backend("norvig").solve(datasets.load("hardest")[0], timeout=timeout)


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
