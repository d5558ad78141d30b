"""Shared fixtures: bundled datasets with their reference solutions."""

from __future__ import annotations

import pytest

from sudokulab.harness import datasets


@pytest.fixture(scope="session")
def top95():
    """The top95 puzzles with their reference solutions (from tdoku)."""
    return list(zip(datasets.load("top95"), datasets.solutions("top95")))

