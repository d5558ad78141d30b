"""The verdict before any human step: a search engine of another paradigm (norvig) says
whether the puzzle has exactly one solution. Steps are explained, hinted and graded only
then, so no broken puzzle is ever called solved and no empty grid is searched for a step.
`explain`, `hint`, `grade` and the page's hint and explanation all start here."""

from __future__ import annotations

from sudokulab.errors import EXIT_ENGINE, EXIT_NONE, EXIT_OK, EXIT_SEVERAL, EXIT_TIMEOUT
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

REFEREE = "norvig"  # instant on any 9x9, and shares no code with the human techniques
CODES = {Status.UNIQUE: EXIT_OK, Status.NONE: EXIT_NONE, Status.MULTIPLE: EXIT_SEVERAL,
         Status.TIMEOUT: EXIT_TIMEOUT}


def referee(puzzle: Puzzle, seconds: float | None = None) -> Result:
    """norvig's answer, looking for two solutions: unique, several, none or timeout."""
    from sudokulab.backends import make_backend

    return make_backend(REFEREE).solve(puzzle, limit=2, timeout=seconds)


def objection(answer: Result) -> str:
    """Why no step may be given for a puzzle with this answer ('' when it is unique)."""
    status = answer.status
    if status is Status.UNIQUE:
        return ""
    if status is Status.NONE:
        return f"no solution{': ' + answer.message if answer.message else ''} ({REFEREE})"
    if status is Status.MULTIPLE:
        return (f"several solutions ({REFEREE} found {answer.count_text}): only a puzzle "
                f"with one solution has steps to explain, a hint or a grade")
    if status is Status.TIMEOUT:
        return f"{REFEREE} could not tell in time whether the puzzle has one solution"
    return f"{REFEREE} failed: {answer.message or status.value}"


def exit_code(answer: Result) -> int:
    """The exit code of a puzzle whose answer is not unique (0 when it is)."""
    return CODES.get(answer.status, EXIT_ENGINE)
