"""The lesson service: one puzzle's human-style lesson (its steps, a hint, its grade), as
`explain`, `hint`, `grade`, the page's /api/hint and /api/explain and `sl.rate` give it.

Each door turns its own arguments into `Settings` and calls the same steps here: whether
the techniques can take the puzzle, the verdict of a search engine of another paradigm
(sudokulab.teaching.verdict: the compiled engine, norvig, or sat on sums), the walk through the
techniques and its grade, the steps checked against the referee's solution, and how the
walk ended (solved, stalled, broken by a contradiction, stopped at the time limit). What a
door prints or sends is its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokulab.errors import Exit
from sudokulab.human import forcing
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

if TYPE_CHECKING:  # slow to import: the techniques load when a walk is taken
    from sudokulab.human.grading import Grade
    from sudokulab.human.solver import Path

Stopped = forcing.Stopped  # a hint's search past its deadline
# a refusal's status word when the referee's verdict leaves no step to give (any other: 'error')
VERDICTS = {Status.NONE: "none", Status.MULTIPLE: "several", Status.TIMEOUT: "timeout"}
# how a walk through the techniques ended, and the exit code the commands give it
ENDINGS = {"solved": Exit.OK, "timeout": Exit.TIMEOUT, "broken": Exit.DISAGREE,
           "stalled": Exit.STALLED}


@dataclass(frozen=True)
class Settings:
    """How a lesson is given: the techniques (named, or up to one, or all), whether
    uniqueness techniques may be used, and the time limit (None: none)."""

    techniques: tuple[str, ...] | None = None
    upto: str | None = None
    uniqueness: str = "auto"  # auto and yes use them, no never does
    seconds: float | None = None

    @property
    def unique(self) -> bool:
        """Whether uniqueness techniques may be used (a puzzle with a lesson has one
        solution: the verdict proved it)."""
        return self.uniqueness != "no"

    def selected(self) -> tuple:
        """The techniques chosen, in the list's order; UnknownTechnique (a UsageError)
        for a name no technique has."""
        from sudokulab.human import solver

        if self.techniques is not None:
            return solver.select(names=[t for t in self.techniques if t.strip()])
        return solver.select(upto=self.upto)

    def deadline(self) -> Callable[[], bool]:
        """A `stop` for the techniques: whether `seconds` have passed since this call."""
        return deadline(self.seconds)


@dataclass(frozen=True)
class Refusal:
    """Why a puzzle gets no lesson: its status word (unsupported, none, several, timeout,
    error), one line saying why, the exit code, and the referee's answer (None: not asked)."""

    status: str
    message: str
    code: int
    answer: Result | None = None

    @property
    def reference(self) -> str | None:
        """the referee's status word, when it was asked."""
        return None if self.answer is None else self.answer.status.value


@dataclass
class Walk:
    """The techniques' path through a puzzle, its grade and how it ended."""

    path: Path
    grade: Grade  # the grade of the path

    @property
    def ending(self) -> str:
        """solved, timeout (stopped at the time limit), broken (a contradiction) or
        stalled (no enabled technique applies)."""
        path = self.path
        return ("timeout" if path.stopped else "solved" if path.solved
                else "broken" if path.broken else "stalled")


def deadline(seconds: float | None) -> Callable[[], bool]:
    """A `stop` for the techniques: whether `seconds` have passed (None: never)."""
    if seconds is None:
        return lambda: False
    end = time.monotonic() + seconds
    return lambda: time.monotonic() > end


def refusal(puzzle: Puzzle) -> str:
    """Why the techniques cannot take the puzzle ('' when they can): a board of several
    grids, or a rule no technique knows."""
    from sudokulab.human import solver

    return solver.refusal(puzzle)


def judge(puzzle: Puzzle, seconds: float | None) -> Result | Refusal:
    """The referee's unique answer for the puzzle, or the Refusal that says why no step may be
    given: rules no technique knows (exit 5), no solution (1), several (6), timeout (3)."""
    from sudokulab.teaching import verdict

    reason = refusal(puzzle)
    if reason:
        return Refusal("unsupported", reason, Exit.ENGINE)
    answer = verdict.referee(puzzle, seconds)
    why = verdict.objection(answer)
    if why:
        return Refusal(VERDICTS.get(answer.status, "error"), why, verdict.exit_code(answer),
                       answer)
    lost = lost_digits(puzzle, answer.solutions[0])
    if lost:  # the player's candidates leave the one solution out: no step leads anywhere
        return Refusal("none", f"the candidates of {lost} leave out the digit of the "
                               f"puzzle's one solution ({answer.stats['referee']}): "
                               f"this position has none",
                       Exit.NONE, answer)
    return answer


def lost_digits(puzzle: Puzzle, solution: Sequence[int]) -> str:
    """The cells (named, comma-separated) whose candidates in a position lack the
    solution's digit ('' when none, or for a puzzle that carries no candidates)."""
    from sudokulab.rules import cell_name

    marks = getattr(puzzle, "marks", None) or ()
    n = puzzle.n
    return ", ".join(cell_name(divmod(c, n)) for c, m in enumerate(marks)
                     if not puzzle.givens[c] and not m >> (solution[c] - 1) & 1)


def walk(puzzle: Puzzle, techniques: Sequence, unique: bool,
         stop: Callable[[], bool]) -> Walk:
    """The techniques' path through the puzzle until it is solved, stalls, breaks or
    `stop` says so, and its grade."""
    from sudokulab.human import grading, solver

    path = solver.solve(puzzle, techniques, unique=unique, stop=stop)
    return Walk(path, grading.grade_path(path, techniques, unique=unique, stop=stop))


def next_step(puzzle: Puzzle, techniques: Sequence, unique: bool,
              stop: Callable[[], bool], position=None):
    """The easiest next step (None: none applies) on the puzzle's pencil marks, or on
    `position` (Candidates: the player's entries and marks); Stopped past `stop`."""
    from sudokulab.human import solver

    if position is None:
        return solver.hint(puzzle, techniques, unique=unique, stop=stop)
    usable = solver.usable(puzzle, techniques, unique=unique)
    with forcing.stopping(stop):
        return solver.next_step(position, usable)


def every_step(puzzle: Puzzle, techniques: Sequence, unique: bool,
               stop: Callable[[], bool]) -> list[tuple[str, list]]:
    """Every step each usable technique finds on the puzzle's pencil marks (a position's
    own), not only the easiest: (technique, its steps) in the list's order, each step once
    and only when it changes the candidates; Stopped past `stop`, with what was found so
    far as its `found`."""
    from sudokulab.human import solver
    from sudokulab.human.candidates import Candidates

    g = Candidates(puzzle)
    found: list[tuple[str, list]] = []
    if solver.broken_rule(g, solver.givens(puzzle)):
        return found
    try:
        with forcing.stopping(stop):
            for technique in solver.usable(puzzle, techniques, unique):
                if stop():
                    raise Stopped()
                steps, seen = [], set()
                for step in technique.find(g):
                    key = (step.placements, step.eliminations, step.notation)
                    if key not in seen and solver.changes(g, step):
                        seen.add(key)
                        steps.append(step)
                if steps:
                    found.append((technique.name, steps))
    except Stopped as stopped:
        stopped.found = found  # type: ignore[attr-defined]
        raise
    return found


def wrong_moves(steps: Iterable, answer: Result, n: int) -> list[str]:
    """Each step that contradicts the referee's (unique) solution, said in one line."""
    from sudokulab.human import solver

    return solver.wrong_moves(steps, answer.solutions[0], n)
