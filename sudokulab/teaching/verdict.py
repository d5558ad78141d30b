"""The verdict before any human step: a search engine of another paradigm (norvig, or sat
on sums) says whether the puzzle has exactly one solution. Steps are explained, hinted and
graded only then, so no broken puzzle is ever called solved and no empty grid is searched
for a step.
`explain`, `hint`, `grade` and the page's hint and explanation all start here."""

from __future__ import annotations

from sudokulab.errors import Exit
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

REFEREE = "norvig"  # instant on any classic 9x9, and shares no code with the techniques
# norvig's search is blind to sums: on hard killers from the forums it runs out of 10 s
# where sat proves each unique in about a second (neither shares code with the techniques)
SUMS_REFEREE = "sat"
REFEREES = f"{REFEREE}, or {SUMS_REFEREE} on sums"  # who judges a set of puzzles
# Not the compiled engine (native), though it judges 300 top1465 puzzles in 0.03 s against
# norvig's 0.75 s: as the referee it ended `grade` once in a test run with SIGSEGV after
# its verdict, and `ladder` once with glibc's "corrupted size" abort; until that is found
# (issue 53's notes), the referee is Python.
CODES = {Status.UNIQUE: Exit.OK, Status.NONE: Exit.NONE, Status.MULTIPLE: Exit.SEVERAL,
         Status.TIMEOUT: Exit.TIMEOUT}


def referee_name(puzzle: Puzzle) -> str:
    """The engine that judges this puzzle: sat where it has sums, else norvig."""
    from sudokulab import rules as R

    sums = (R.Cage, R.Arrow, R.LittleKiller, R.Sandwich)
    return SUMS_REFEREE if any(isinstance(rule, sums) for rule in puzzle.rules) else REFEREE


def referee(puzzle: Puzzle, seconds: float | None = None) -> Result:
    """The referee's answer, looking for two solutions: unique, several, none or timeout
    (its `stats['referee']` names the engine)."""
    from sudokulab.backends import make_backend

    name = referee_name(puzzle)
    answer = make_backend(name).solve(puzzle, limit=2, timeout=seconds)
    answer.stats["referee"] = name
    return answer


def objection(answer: Result) -> str:
    """Why no step may be given for a puzzle with this answer ('' when it is unique)."""
    status, name = answer.status, str(answer.stats.get("referee", REFEREE))
    if status is Status.UNIQUE:
        return ""
    if status is Status.NONE:
        return f"no solution{': ' + answer.message if answer.message else ''} ({name})"
    if status is Status.MULTIPLE:
        return (f"several solutions ({name} found {answer.count_text}): only a puzzle "
                f"with one solution has steps to explain, a hint or a grade")
    if status is Status.TIMEOUT:
        return f"{name} could not tell in time whether the puzzle has one solution"
    return f"{name} failed: {answer.message or status.value}"


def exit_code(answer: Result) -> int:
    """The exit code of a puzzle whose answer is not unique (0 when it is)."""
    return CODES.get(answer.status, Exit.ENGINE)
