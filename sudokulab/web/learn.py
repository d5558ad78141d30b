"""The page's learn mode: hints and explanations from the human-style solver, new
puzzles from the generator, and puzzles read from photos, as JSON.

These run in a helper process (tutor.py), never on the server's event loop. A step is
`Step.to_json` (what `sudokulab explain --format json` prints: rows, columns and digits
from 1, HoDoKu's notation as `text`) plus what the page draws: the plain sentence, the
pattern's cells, its units with their cells, its chain links, and `removed`, every
candidate the step takes away (its eliminations and what its placements take from their
peers), so that the page can replay the steps on its pencil marks.

The steps come from the lesson service the command line calls too (sudokulab.teaching.lessons):
as with `sudokulab explain` and `hint`, only after the referee's verdict proves one
solution (native on classic grids where it is built, else norvig, or sat on sums:
teaching/verdict.py): a puzzle with none or several, or one the referee cannot judge in
time, is answered at once with that status ('none', 'several', 'timeout') and why,
without steps or a grade. Every step given is
checked against the referee's solution (another paradigm): `verified`, `referee`.

A hint starts from the player's state when the page sends it: the givens plus their
entries, and their pencil marks (within what the rules allow) when they keep any. Entries
and marks are first checked against the referee's solution: one that differs is answered
'wrong' with its cells named, never a step built on it. So a step that only removes
candidates, once the player applies it, leads to the next step instead of itself again.

The generator (`sudokulab.generate`) and the photo reader (`sudokulab.vision`) are
imported only when asked for: without them the server still runs, and /api/generate or
/api/read says why it cannot (503).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

from sudokulab.errors import GridNotFound, InputError, Unavailable, UsageError
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result
from sudokulab.teaching import lessons
from sudokulab.web import certificates

Cell = list[int]  # [row, col] counted from 1



def run(task: str, arguments: dict) -> tuple[str, object]:
    """(in the helper) ('ok', answer), or ('usage' | 'unavailable' | 'error', message)."""
    try:
        return "ok", TASKS[task](**arguments)
    except InputError as error:  # options, entries or an image the task refuses: a 400
        return "usage", str(error)
    except Unavailable as error:
        return "unavailable", str(error)
    except Exception as error:  # a bug must reach the page as a message, not a dead helper
        return "error", f"{type(error).__name__}: {error}"


def settings(techniques: list[str] | None, upto: str | None, uniqueness: str,
             seconds: float) -> lessons.Settings:
    """The lesson settings of a request (an empty `upto`: every technique)."""
    return lessons.Settings(techniques=None if techniques is None else tuple(techniques),
                            upto=upto or None, uniqueness=uniqueness, seconds=seconds)


def judged(puzzle: Puzzle, seconds: float) -> Result | dict:
    """The referee's answer when the puzzle has one solution, else the page's answer instead
    of any step: the status and why, as `sudokulab explain` and `hint` say it. UsageError
    (a 400) when a rule of the puzzle is one no technique knows."""
    answer = lessons.judge(puzzle, seconds)
    if not isinstance(answer, lessons.Refusal):
        return answer
    if answer.status == "unsupported":
        raise UsageError(answer.message)
    referee = None if answer.answer is None else answer.answer.stats.get("referee")
    return {"status": answer.status, "message": answer.message,
            "reference": answer.reference, "referee": referee}


class Lesson(NamedTuple):
    """What explain and hint start from: the settings, their deadline, the techniques
    chosen and the referee's unique answer."""

    chosen: lessons.Settings
    stop: Callable[[], bool]
    selected: tuple
    answer: Result


def lesson(puzzle: Puzzle, techniques: list[str] | None, upto: str | None, uniqueness: str,
           seconds: float) -> Lesson | dict:
    """A request's lesson, or the page's answer instead of one (see `judged`)."""
    chosen = settings(techniques, upto, uniqueness, seconds)
    stop = chosen.deadline()  # the verdict's time counts: the helper's limit
    selected = chosen.selected()  # a bad technique name is refused before any solving
    answer = judged(puzzle, seconds)
    if isinstance(answer, dict):
        return answer
    return Lesson(chosen, stop, selected, answer)


def check_state(puzzle: Puzzle, values: list[int] | None,
                candidates: list[list[int]] | None) -> None:
    """UsageError (a 400) for the player's entries or pencil marks that do not fit the grid:
    the wrong count, a digit out of range, an entry over a different given."""
    from sudokulab.rules import cell_name

    n, givens = puzzle.n, puzzle.givens
    for field, cells in (("values", values), ("candidates", candidates)):
        if cells is not None and len(cells) != n * n:
            raise UsageError(f"{field}: {len(cells)} cells, the {n}x{n} puzzle has {n * n}")
    for c, d in enumerate(values or ()):
        if d > n:
            raise UsageError(f"values: {cell_name(divmod(c, n))} holds {d}, digits of a "
                             f"{n}x{n} go from 1 to {n}")
        if d and givens[c] and d != givens[c]:
            raise UsageError(f"values: {cell_name(divmod(c, n))} is given {givens[c]}, "
                             f"not {d}")
    for c, marks in enumerate(candidates or ()):
        if any(not 1 <= d <= n for d in marks):
            raise UsageError(f"candidates: {cell_name(divmod(c, n))} has "
                             f"{[d for d in marks if not 1 <= d <= n][0]}, digits of a "
                             f"{n}x{n} go from 1 to {n}")


def entries(puzzle: Puzzle, values: list[int] | None) -> list[int]:
    """The givens with the player's entries on top."""
    return [g or v for g, v in zip(puzzle.givens, values or [0] * len(puzzle.givens))]


def mistakes(puzzle: Puzzle, solution: tuple[int, ...], values: list[int] | None,
             candidates: list[list[int]] | None) -> dict | None:
    """The page's answer when an entry differs from the solution, or the pencil marks of a
    blank cell rule out its digit (the cells named, the digits not); None when none does."""
    from sudokulab.rules import cell_name

    n, placed = puzzle.n, entries(puzzle, values)
    entered = [c for c, d in enumerate(placed) if d and d != solution[c]]
    marked = [c for c, marks in enumerate(candidates or ()) if marks and not placed[c]
              and solution[c] not in marks]
    if not entered and not marked:
        return None
    said = []
    if entered:
        said.append(f"{', '.join(cell_name(divmod(c, n)) for c in entered)} "
                    f"differ{'s' if len(entered) == 1 else ''} from the solution")
    if marked:
        said.append(f"the pencil marks of {', '.join(cell_name(divmod(c, n)) for c in marked)}"
                    f" leave out the solution's digit")
    return {"status": "wrong", "message": "; ".join(said),
            "wrong": [cell(c, n) for c in entered + marked]}


def position(puzzle: Puzzle, values: list[int] | None, candidates: list[list[int]] | None):
    """The player's position as the techniques see it: the givens plus their entries, each
    blank cell's candidates cut to the player's marks when they keep any there."""
    from sudokulab.human.candidates import Candidates, bit

    g = Candidates(puzzle.with_values(entries(puzzle, values)) if values else puzzle)
    for c, marks in enumerate(candidates or ()):
        if marks and not g.values[c]:
            g.cands[c] &= sum(bit(d) for d in set(marks))
    return g


def cell(index: int, n: int) -> Cell:
    """[row, col] counted from 1."""
    return [index // n + 1, index % n + 1]


def candidates_json(g) -> list[list[int]]:
    """Each cell's candidates (empty for a filled cell), row by row."""
    from sudokulab.human.candidates import digits

    return [digits(mask) for mask in g.cands]


def step_json(step, g) -> dict:
    """The step as explain's JSON gives it, plus what to highlight and what it removes
    (from the candidates `g` it was found on; `g` is left after the step)."""
    n, tables = g.n, g.tables
    before = g.cands[:]
    g.apply(step)
    placed = {c for c, _ in step.placements}
    removed = [[*cell(c, n), d] for c in range(n * n) if c not in placed
               for d in range(1, n + 1) if before[c] >> (d - 1) & 1
               and not g.cands[c] >> (d - 1) & 1]
    return {**step.to_json(n), "sentence": step.sentence,
            "cells": [cell(c, n) for c in step.cells],
            "units": [{"name": tables.unit_names[u], "cells": [cell(c, n) for c in
                                                              tables.units[u]]}
                      for u in step.units],
            "links": [{"from": [*cell(a[0], n), a[1]], "to": [*cell(b[0], n), b[1]],
                       "strong": bool(strong)} for a, b, strong in step.links],
            "removed": removed}


def verification(steps, answer: Result, n: int) -> dict:
    """Whether the steps agree with the referee's solution (its verdict proved it unique),
    and which engine the referee was."""
    problems = lessons.wrong_moves(steps, answer, n)
    return {"verified": not problems, "problems": problems[:5],
            "referee": answer.stats.get("referee", "norvig")}


def explain(puzzle: Puzzle, techniques: list[str] | None = None, upto: str | None = None,
            uniqueness: str = "auto", seconds: float = 10.0,
            values: list[int] | None = None,
            candidates: list[list[int]] | None = None) -> dict:
    """Every step to the end (or the stall, or the time limit), with the grade; from the
    player's entries and pencil marks when given."""
    from sudokulab.human import positions
    from sudokulab.human.candidates import Candidates

    ready = lesson(puzzle, techniques, upto, uniqueness, seconds)
    if isinstance(ready, dict):  # refused: no lesson on it
        return ready
    chosen, stop, selected, answer = ready
    wrong = mistakes(puzzle, answer.solutions[0], values, candidates)
    if wrong:
        return wrong
    if any(candidates or ()):  # the path goes on from the player's marks
        entered = [c for c, d in enumerate(values or ()) if d and not puzzle.givens[c]]
        puzzle = positions.of_grid(position(puzzle, values, candidates), entered)
    elif values:  # the entries match the solution: the path goes on from them
        puzzle = puzzle.with_values(entries(puzzle, values))
    walked = lessons.walk(puzzle, selected, chosen.unique, stop)
    path, grade = walked.path, walked.grade
    g = Candidates(puzzle)
    start = candidates_json(g)
    steps = [step_json(step, g) for step in path.steps]
    status = walked.ending
    return {"status": status, "message": explain_message(status, len(steps)),
            "solved": path.solved, "level": grade.level, "score": grade.score,
            "rating": grade.rating, "hardest": grade.hardest, "reference": answer.status.value,
            "candidates": start, "steps": steps,
            **verification(path.steps, answer, puzzle.n)}


def explain_message(status: str, count: int) -> str:
    """One line saying how the path ended."""
    if status == "solved":
        return f"solved in {count} steps"
    if status == "timeout":
        return f"stopped at the time limit after {count} steps"
    if status == "broken":  # on a puzzle of one solution: a wrong step, which verified names
        return f"the steps reach a contradiction after {count} steps"
    return f"stalled after {count} steps: no enabled technique applies"


def hint(puzzle: Puzzle, techniques: list[str] | None = None, upto: str | None = None,
         uniqueness: str = "auto", seconds: float = 10.0, values: list[int] | None = None,
         candidates: list[list[int]] | None = None) -> dict:
    """The easiest next step on the player's position (the givens, or their entries and
    pencil marks), and the pencil marks it was found on."""
    ready = lesson(puzzle, techniques, upto, uniqueness, seconds)
    if isinstance(ready, dict):  # refused: no lesson on it
        return ready
    chosen, stop, selected, answer = ready
    wrong = mistakes(puzzle, answer.solutions[0], values, candidates)
    if wrong:
        return {**wrong, "step": None, "reference": answer.status.value}
    g = position(puzzle, values, candidates)
    out = {"step": None, "candidates": candidates_json(g), "verified": None, "problems": [],
           "reference": answer.status.value}
    if g.solved():
        return {**out, "status": "full", "message": "the grid is full"}
    try:  # stopped by itself at the deadline: the helper stays warm for the next request
        step = lessons.next_step(puzzle, selected, chosen.unique, stop, position=g)
    except lessons.Stopped:
        return {**out, "status": "timeout", "message": f"no step found in {seconds:g} s"}
    if step is None:
        return {**out, "status": "stalled", "message": "no enabled technique applies"}
    return {**out, "status": "step", "message": step.notation, "step": step_json(step, g),
            **verification([step], answer, puzzle.n)}


GRADE_MARGIN = 0.5  # seconds of a generate request kept for grading and checking the puzzle


def generated(box: tuple[int, int] = (3, 3), rules: tuple[str, ...] = (),
              level: str | None = None, symmetry: str = "none", seed: int = 0,
              seconds: float = 30.0) -> dict:
    """One new puzzle (of a level, if asked), graded, its solution checked independently."""
    try:
        from sudokulab.generate import make_request
        from sudokulab.generate.maker import make
    except ImportError as error:
        raise Unavailable(f"the generator is not available here: {error}") from None
    from sudokulab.check import check
    from sudokulab.human import grading, solver

    rows, cols = box  # a pair, as a tuple or as the list JSON makes of one
    request = make_request((rows, cols), tuple(rules), symmetry=symmetry, level=level)
    try:  # a margin for the grade and check below; the helper stays warm for the next one
        made = make(request, seed, deadline=time.monotonic() + max(seconds - GRADE_MARGIN, 0.1))
    except TimeoutError:
        return {"status": "timeout", "message": f"no puzzle in {seconds:g} s"}
    problems = check(made.puzzle, made.solution)
    if problems:  # the generator proved it; a broken grid here is a bug, said as such
        return {"status": "error", "message": f"the generated solution fails the checker: "
                                              f"{problems[0]}"}
    grade = made.level, made.score, made.rating
    unknown = solver.unknown_rules(made.puzzle)
    if made.level is None and not unknown:  # graded here, as `sudokulab grade` does
        path = solver.solve(made.puzzle, unique=True)
        g = grading.grade_path(path, unique=True)
        grade = (g.level, g.score, g.rating) if path.solved else (None, None, None)
    level_, score, rating = grade
    ungraded = (f"not graded (no technique knows {', '.join(unknown)})" if unknown
                else "not graded (the techniques stall)")
    return {"status": "generated", "puzzle": made.puzzle, "solution": list(made.solution),
            "clues": sum(1 for d in made.puzzle.givens if d), "seed": made.seed,
            "symmetry": made.symmetry, "minimal": made.minimal,
            "provers": list(made.provers), "level": level_ and level_.lower(),
            "score": score, "rating": rating,
            "message": f"{level_.lower() if level_ else ungraded}, "
                       f"{sum(1 for d in made.puzzle.givens if d)} givens, seed {made.seed}; "
                       f"unique by {' and '.join(made.provers)}"}


def photo(data: bytes, seconds: float = 30.0) -> dict:
    """The puzzle in a photo (as `sudokulab read` reads it), checked by norvig: the cells
    read with low confidence, and when it is not unique the cells likely misread."""
    try:
        from sudokulab.vision import files
        from sudokulab.vision import read as R
    except ImportError as error:
        raise Unavailable(f"reading photos is not available here: {error}") from None

    image = files.decode(data, "the image")  # ImageError (a 400) naming what is wrong
    try:
        reading = R.read_image(image)
    except GridNotFound as error:
        raise UsageError(f"the image: {error}") from None
    verdict = R.verify(reading, "norvig")
    puzzle, n = verdict.puzzle or reading.puzzle, reading.puzzle.n  # as corrected
    suspects = [{"cell": cell(s.cell, n), "read": s.read, "instead": s.instead}
                for s in verdict.suspects]
    return {"status": verdict.status, "backend": verdict.backend, "puzzle": puzzle,
            "doubtful": [cell(c, n) for c in reading.doubtful],
            "confidence": [round(p, 3) for p in reading.confidence], "suspects": suspects,
            "message": photo_message(puzzle, verdict.status, suspects)}


def photo_message(puzzle: Puzzle, status: str, suspects: list[dict]) -> str:
    """One line: what was read and what norvig says of it."""
    said = {"unique": "one solution", "none": "no solution", "multiple": "several solutions",
            "invalid": "norvig's grid fails the checker"}.get(status, status)
    line = (f"read a {puzzle.n}x{puzzle.n} puzzle with {puzzle.clues} givens: {said} "
            f"(norvig)")
    if status in ("none", "multiple"):
        line += ("; likely misread: " + ", ".join(f"r{s['cell'][0]}c{s['cell'][1]}"
                                                  for s in suspects)
                 if suspects else "; no single cell read otherwise makes it unique")
    return line


def setting(puzzle: Puzzle, seconds: float = 5.0, candidates: bool = True,
            redundancy: bool = True, grade: bool = True, grade_seconds: float = 2.0,
            stop: Callable[[], bool] | None = None) -> dict:
    """The setter's bench (sudokulab.generate.setter) as JSON: the count, candidates and redundancy
    first, then the grade in the time left (at most `grade_seconds`); cut short once
    `stop()` is true (tutor.py's stop: the warm session kept)."""
    from sudokulab.generate import setter

    started = time.monotonic()
    report = setter.setter_report(puzzle, seconds=seconds, candidates=candidates,
                                  redundancy=redundancy, grade=False, stop=stop)
    if grade and report.status == "unique":
        left = seconds - (time.monotonic() - started)
        setter.graded(puzzle, report, max(0.0, min(grade_seconds, left)), stop)
    report.seconds = time.monotonic() - started
    return report.to_json()


TASKS: dict[str, Callable[..., dict]] = {"explain": explain, "hint": hint,
                                         "generate": generated, "read": photo,
                                         "setter": setting,
                                         "certify": certificates.certified,
                                         "verify": certificates.verified}
