"""Rules no module of the lab knows, for tests of what a new rule gets without an edit:
`CentreDot` is made of geometry alone (a unit, and cells a move apart that differ);
`Secret` means something its geometry does not say (as parity does), so an engine or a
format that reads only the geometry must refuse it, never drop it.

Defining them registers nothing the engines read: `rules.RULE_TYPES` is fixed when
rules.py is imported.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudokulab import rules as R
from sudokulab.puzzle import Puzzle

CENTRES = ((1, 1), (1, 4), (1, 7), (4, 1), (4, 4), (4, 7), (7, 1), (7, 4), (7, 7))


@dataclass(frozen=True)
class CentreUnit(R.Rule):
    """The boxes' centres of a 9x9 are a unit, and nothing more."""

    name = "centre-unit"
    summary = "the boxes' centre cells hold every digit once"

    def units(self, box: R.Box) -> tuple[R.UnitSpec, ...]:
        """The centre of every box of a 9x9."""
        return (("centre dot", "centre dot", CENTRES),)


@dataclass(frozen=True)
class CentreDot(CentreUnit):
    """The centre unit, and cells a (4, 4) move apart differ: r1c1 and r5c5, and so on."""

    name = "centre-dot"
    moves = ((4, 4),)


@dataclass(frozen=True)
class Secret(R.Rule):
    """A rule whose meaning is not in the geometry."""

    name = "secret"
    summary = "a meaning no engine reads off the geometry"


def read_back(read: Puzzle, puzzle: Puzzle) -> bool:
    """Whether a puzzle read back from a link is the puzzle written: the same, or, for a
    rule the sites have no key for, its units as extra regions (the same meaning)."""
    if read.rules == puzzle.rules:
        return read == puzzle
    units = {frozenset(cells) for rule in puzzle.rules for _, _, cells in rule.units(puzzle.box)}
    return (all(isinstance(rule, R.ExtraRegion) for rule in read.rules)
            and {frozenset(getattr(rule, "cells", ())) for rule in read.rules} == units
            and (read.box, read.givens) == (puzzle.box, puzzle.givens))
