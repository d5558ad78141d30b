"""The verdict before any human step: a search engine of another paradigm (the compiled
engine, norvig, or sat on sums) says whether the puzzle has exactly one solution. Steps are
explained, hinted and graded only then, so no broken puzzle is ever called solved and no
empty grid is searched for a step.
`explain`, `hint`, `grade` and the page's hint and explanation all start here."""

from __future__ import annotations

from functools import cache

from sudokulab.errors import Exit
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

# The compiled engine judges a classic grid (up to 16 x 16) in microseconds where norvig,
# in Python, takes milliseconds: on 300 top1465 puzzles 0.03 s against 0.75 s, a tenth of
# what `grade` spends. Neither shares code with the techniques.
FAST_REFEREE = "native"
REFEREE = "norvig"  # variant rules, samurai, 25 x 25, or no C compiler here
# norvig's search is blind to sums: on hard killers from the forums it runs out of 10 s
# where sat proves each unique in about a second (neither shares code with the techniques)
SUMS_REFEREE = "sat"
REFEREES = (f"{FAST_REFEREE} on classic grids where it is built, else {REFEREE}, or "
            f"{SUMS_REFEREE} on sums")  # who judges a set of puzzles
CODES = {Status.UNIQUE: Exit.OK, Status.NONE: Exit.NONE, Status.MULTIPLE: Exit.SEVERAL,
         Status.TIMEOUT: Exit.TIMEOUT}


def referee_name(puzzle: Puzzle) -> str:
    """The engine that judges this puzzle: sat where it has sums, the compiled engine on a
    classic grid it takes (where it is built), else norvig."""
    from sudokulab import rules as R

    sums = (R.Cage, R.Arrow, R.LittleKiller, R.Sandwich)
    if any(isinstance(rule, sums) for rule in puzzle.rules):
        return SUMS_REFEREE
    if not puzzle.rules and puzzle.layout is None and puzzle.n <= 16 and _fast_built():
        return FAST_REFEREE
    return REFEREE


@cache
def _fast_built() -> bool:
    """Whether the compiled engine loads here (asked once: a machine without a C compiler
    or cffi would otherwise try to build it for every puzzle)."""
    from sudokulab.backends import make_backend
    from sudokulab.errors import SudokulabError

    try:
        return make_backend(FAST_REFEREE).ready().ok
    except (SudokulabError, ImportError, OSError):  # not installed, or no compiler
        return False


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
