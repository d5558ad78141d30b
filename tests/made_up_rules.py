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

CENTRES = ((1, 1), (1, 4), (1, 7), (4, 1), (4, 4), (4, 7), (7, 1), (7, 4), (7, 7))


@dataclass(frozen=True)
class CentreDot(R.Rule):
    """The boxes' centres of a 9x9 are a unit; and r1c1 and r5c5 differ, and so on."""

    name = "centre-dot"
    summary = "the boxes' centre cells hold every digit once"
    moves = ((4, 4),)

    def units(self, box: R.Box) -> tuple[R.UnitSpec, ...]:
        """The centre of every box of a 9x9."""
        return (("centre dot", "centre dot", CENTRES),)


@dataclass(frozen=True)
class CentreUnit(R.Rule):
    """The boxes' centres of a 9x9 are a unit, and nothing more."""

    name = "centre-unit"
    summary = "the boxes' centre cells hold every digit once"

    def units(self, box: R.Box) -> tuple[R.UnitSpec, ...]:
        """The centre of every box of a 9x9."""
        return (("centre dot", "centre dot", CENTRES),)


@dataclass(frozen=True)
class Secret(R.Rule):
    """A rule whose meaning is not in the geometry."""

    name = "secret"
    summary = "a meaning no engine reads off the geometry"


def read_back(read: R.Rule | object, puzzle: object) -> bool:
    """Whether a puzzle read back from a link is the puzzle written: the same, or, for a
    rule the sites have no key for, its units as extra regions (the same meaning)."""
    if read.rules == puzzle.rules:  # type: ignore[attr-defined]
        return read == puzzle
    units = {frozenset(cells) for rule in puzzle.rules  # type: ignore[attr-defined]
             for _, _, cells in rule.units(puzzle.box)}  # type: ignore[attr-defined]
    return (all(isinstance(rule, R.ExtraRegion) for rule in read.rules)  # type: ignore
            and {frozenset(rule.cells) for rule in read.rules} == units  # type: ignore
            and (read.box, read.givens) == (puzzle.box, puzzle.givens))  # type: ignore
