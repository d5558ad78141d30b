"""The JSON API's request bodies: typed, bounded, documented on FastAPI's /docs page."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from sudokulab import rules as R
from sudokulab.generate import RANDOM_RULES

DEFAULT_TIMEOUT = 10.0   # seconds a solve may take when the request does not say
MAX_TIMEOUT = 60.0       # and at most, whatever it says: every solve is bounded
MAX_LIMIT = 100          # grids one answer may carry
MAX_TEXT = 100_000       # characters of puzzle text (a long SudokuPad link fits)
GENERATE_TIMEOUT = 30.0  # seconds a new puzzle may take when the request does not say
Level = Literal["easy", "medium", "hard", "unfair", "extreme"]  # HoDoKu's, as the generator's
Side = Annotated[int, Field(ge=1, le=5, strict=True)]  # a box side: grids from 4x4 to 25x25
MAX_CELLS = 625          # cells of the largest grid (25x25)
MAX_TAG = 100            # characters of a request's tag
Digit = Annotated[int, Field(ge=0, le=25, strict=True)]  # checked against the size by the route
Marks = Annotated[list[Digit], Field(max_length=25)]  # one cell's pencil marks
# Numbers and flags are taken as JSON gives them, never coerced: `"limit": true` or
# `"candidates": "no"` is a 422, as in the Python API a TypeError.
Seconds = Annotated[float, Field(gt=0, le=MAX_TIMEOUT, strict=True, allow_inf_nan=False)]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT, strict=True)]
Seed = Annotated[int, Field(ge=0, lt=2**31, strict=True)]
Flag = Annotated[bool, Field(strict=True)]


class Tagged(BaseModel):
    """A request the page can cancel: its tag comes back in the answer."""

    tag: str | None = Field(None, max_length=MAX_TAG, description="the client's name for "
                            "this request (e.g. puzzle id and counter): every answer and "
                            "event echoes it, and POST /api/cancel with it stops the work")


class PuzzleText(Tagged):
    """A puzzle in any form the command line reads."""

    puzzle: str = Field(max_length=MAX_TEXT, description="a line, a grid, numbers, JSON, "
                        "or an f-puzzles / SudokuPad link")


class SolveRequest(PuzzleText):
    """POST /api/solve."""

    backend: str = Field("norvig", max_length=200, description="a backend spec, "
                         "e.g. norvig, sat:solver=glucose4")
    limit: Limit = Field(2, description="stop after K solutions "
                       "(2 proves uniqueness)")
    timeout: Seconds = Field(DEFAULT_TIMEOUT, description="seconds; the worker is killed past it")


class CompareRequest(PuzzleText):
    """POST /api/compare: every available backend, or those named."""

    backends: list[str] | None = Field(None, max_length=20)
    limit: Limit = Field(2)
    timeout: Seconds = Field(DEFAULT_TIMEOUT)


class ModelRequest(PuzzleText):
    """POST /api/model: the teaching view of one backend for one puzzle."""

    backend: str = Field("norvig", max_length=200)


class LearnRequest(PuzzleText):
    """POST /api/hint and /api/explain: the human-style solver's steps."""

    techniques: list[str] | None = Field(None, max_length=100, description="only these "
                                         "techniques (names as `sudokulab explain --list` "
                                         "gives them)")
    upto: str | None = Field(None, max_length=200, description="every technique up to and "
                             "including this one")
    uniqueness: Literal["auto", "yes", "no"] = Field("auto", description="uniqueness "
                                                     "techniques: auto and yes use them "
                                                     "(the referee first proves one "
                                                     "solution, or "
                                                     "no step is given), no never does")
    timeout: Seconds = Field(DEFAULT_TIMEOUT, description="seconds; the helper is stopped past it")
    values: list[Digit] | None = Field(None, max_length=MAX_CELLS, description="the "
                                       "player's entries on top of the givens, N*N digits "
                                       "row by row (0: blank)")
    candidates: list[Marks] | None = Field(
        None, max_length=MAX_CELLS, description="the player's pencil marks (hint and explain), "
        "N*N lists of digits row by row ([] for a filled cell, or a blank cell without "
        "marks); the steps are found on them (within what the rules allow) instead of the "
        "full candidates")


class SetterRequest(PuzzleText):
    """POST /api/setter: the setter's bench on a puzzle being set (sudokulab.generate.setter)."""

    timeout: Seconds = Field(5.0, description="seconds for the whole "
                           "answer; the count, candidates and redundancy first, the grade "
                           "in what is left; the helper is stopped past it")
    grade_timeout: Seconds = Field(2.0, description="seconds the "
                                 "human grade may take at most, within `timeout` (no grade: "
                                 "`grade: false`)")
    candidates: Flag = Field(True, description="the true candidates of every cell")
    redundancy: Flag = Field(True, description="the givens and rules the puzzle stays "
                             "unique without")
    grade: Flag = Field(True, description="the human grade, once the puzzle is unique")


class CancelRequest(BaseModel):
    """POST /api/cancel: stop the work running for a tag."""

    tag: str = Field(max_length=MAX_TAG)


class GenerateRequest(Tagged):
    """POST /api/generate: one new puzzle, proved unique by two engines."""

    level: Level | None = Field(None, description="HoDoKu's level from the human-style "
                                "grader; none: any level")
    box: tuple[Side, Side] = Field((3, 3), description="box rows and columns: [3, 3] for "
                                   "9x9, [2, 3] for 6x6")
    rules: list[Annotated[str, Field(max_length=40)]] = Field(
        [], max_length=10, description="rule names, as `sudokulab generate --rules` takes "
        f"them: {R.rule_names()}, and {', '.join(RANDOM_RULES)} (drawn at random)")
    symmetry: str = Field("none", max_length=40, description="of the givens: none, "
                          "rotational, quarter, diagonal, mirror, ...")
    seed: Seed | None = Field(None, description="the same seed and options "
                             "give the same puzzle; none: a random one")
    timeout: Seconds = Field(GENERATE_TIMEOUT, description="seconds; the helper is stopped past it")
