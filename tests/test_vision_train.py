"""`make model`'s training refuses in one line what it cannot do: without scikit-learn, or
without Wicht's photos (the committed model learnt from them too)."""

from __future__ import annotations

import importlib.util

import pytest

pytest.importorskip("cv2")
from sudokulab.vision import train, wicht  # noqa: E402


def test_without_scikit_learn_training_says_how_to_get_it(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "sklearn" else real(name, *rest))
    assert train.main(["--fonts-only"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "scikit-learn" in err and ".[model]" in err


def test_without_the_photos_training_refuses_rather_than_make_a_weaker_model(monkeypatch,
                                                                             capsys):
    monkeypatch.delenv(wicht.ENV, raising=False)
    assert train.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and wicht.ENV in err and "--fonts-only" in err
