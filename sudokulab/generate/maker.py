"""One puzzle from a request and a seed: grid, removal of givens, filters, second proof."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import cache

from sudokulab import rules as R
from sudokulab.errors import (
    ProofError,  # a DisagreementError: a bug, never a puzzle
    UsageError,
)
from sudokulab.generate import marks
from sudokulab.generate.engine import Engine, engine
from sudokulab.generate.grids import random_cages, random_grid, random_parity, random_regions
from sudokulab.generate.symmetry import orbits
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle

PASSES_PER_GRID = 4  # removal orders tried on one grid before drawing another
Grade = tuple[str | None, int | None, float | None]  # level, score, rating (Nones: ungraded)


@dataclass(frozen=True)
class Generated:
    """One generated puzzle, with its solution and how it was made and proved."""

    puzzle: Puzzle             # the givens, with the rules
    solution: tuple[int, ...]
    seed: int                  # the seed that reproduces this one puzzle
    symmetry: str
    minimal: bool
    provers: tuple[str, ...]   # engines that proved it unique
    level: str | None          # from sudokulab.human.grading when graded
    score: int | None
    rating: float | None
    tries: int = 1             # grids drawn before one passed every filter

    @property
    def clues(self) -> int:
        """How many givens."""
        return self.puzzle.clues

    def to_json(self) -> dict:
        """The puzzle in the JSON puzzle form (box, givens, rules), with how it was made."""
        from sudokulab.formats.text import puzzle_data
        from sudokulab.puzzle import line_of

        return {**puzzle_data(self.puzzle),
                "puzzle": line_of(self.puzzle.givens), "solution": line_of(self.solution),
                "clues": self.clues, "seed": self.seed, "symmetry": self.symmetry,
                "minimal": self.minimal, "provers": list(self.provers), "level": self.level,
                "score": self.score, "rating": self.rating, "tries": self.tries}


@dataclass(frozen=True)
class Request:
    """Everything that decides a puzzle but its seed (checked, picklable for workers)."""

    box: tuple[int, int]
    rules: tuple[R.Rule, ...]
    random_rules: tuple[str, ...]
    symmetry: str
    minimal: bool
    givens: int | None
    max_givens: int | None
    level: str | None
    rating: tuple[float, float] | None
    grade: bool
    prover: str
    tries: int

    @property
    def n(self) -> int:
        """N, the number of digits."""
        return self.box[0] * self.box[1]


def make(request: Request, seed: int, deadline: float | None = None) -> Generated:
    """The puzzle of a seed: the first try whose puzzle passes every filter, proved twice.

    A try is one removal pass in a new random order; a grid serves PASSES_PER_GRID tries
    (filling it costs about as much as a pass) before another is drawn. TimeoutError when
    a try would start after `deadline` (time.monotonic()): a try under way, with its grade
    and proof, ends first, so a deadline is kept to within one try."""
    rng = random.Random(seed)
    tries = 0
    while tries < request.tries:
        _in_time(deadline, tries)
        drawn = draw(request, rng)
        if drawn is None:  # random jigsaw regions that admit no grid
            tries += 1
            continue
        solution, rules, work, owned, base = drawn
        try:
            for _ in range(min(PASSES_PER_GRID, request.tries - tries)):
                _in_time(deadline, tries)
                tries += 1
                work.next_puzzle()
                givens = remove_givens(work, solution, request, rng)
                puzzle = Puzzle(request.box, givens, rules)
                if base is not None and not rules_needed(base, puzzle, solution):
                    continue
                found = _passes(request, puzzle, solution, work)
                if found is not None:
                    puzzle, minimal, grade = found
                    provers = prove(puzzle, solution, second_name(request.prover, puzzle))
                    return Generated(puzzle, solution, seed, request.symmetry, minimal,
                                     provers, *grade, tries=tries)
        finally:
            if owned:
                work.close()
    raise UsageError(f"no puzzle met the options in {request.tries} tries from seed {seed} "
                     f"(more with --tries, or ask for less)")


def _in_time(deadline: float | None, tries: int) -> None:
    """TimeoutError once the deadline has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise TimeoutError(f"no puzzle met the options by the deadline ({tries} tries)")


def draw(request: Request, rng: random.Random):
    """A random grid with its rules (random ones drawn), the engine that knows them,
    whether that engine is this grid's own, and, when lines, dots, sums or regions of
    marks.py were drawn, the grid's engine (without anything drawn from the solution);
    None when random regions admit no grid."""
    n, box = request.n, request.box
    rules = request.rules
    if "jigsaw" in request.random_rules:
        rules += (random_regions(n, rng),)
    grid_engine = engine(box, rules)
    solution = random_grid(grid_engine, rng)
    if solution is None:
        if "jigsaw" in request.random_rules:
            return None
        raise UsageError(f"no {n}x{n} grid satisfies the rules "
                         f"({', '.join(rule.name for rule in rules)})")
    extra: tuple[R.Rule, ...] = ()
    if "killer" in request.random_rules:
        extra += random_cages(solution, n, rng)
    if "parity" in request.random_rules:
        extra += random_parity(solution, n, rng)
    drawn = [family for family in request.random_rules if family in marks.FAMILIES]
    for family in drawn:
        extra += marks.draw(family, solution, n, rng)
    if not extra:
        return solution, rules, grid_engine, False, None
    return (solution, rules + extra, Engine(box, rules + extra), True,
            grid_engine if drawn else None)


def rules_needed(base: Engine, puzzle: Puzzle, solution: tuple[int, ...]) -> bool:
    """Whether the puzzle's givens have other solutions under the base engine's rules
    alone (without what was drawn from the solution): the drawn rules do work that givens
    would otherwise do."""
    n = base.n
    blanks = [cell for cell, d in enumerate(puzzle.givens) if not d]
    return bool(blanks) and not base.unique_without(_literals(list(puzzle.givens), n),
                                                    solution, blanks)


def remove_givens(work: Engine, solution: tuple[int, ...], request: Request,
                  rng: random.Random) -> tuple[int, ...]:
    """Blank the symmetry's cell groups in a random order while the puzzle stays unique,
    down to `request.givens` when it is set. One pass suffices: a group that cannot go
    now cannot go later either (fewer givens never make a puzzle unique again)."""
    n = work.n
    givens = list(solution)
    left = n * n
    stop = request.givens or 0
    groups = list(orbits(request.symmetry, n))
    rng.shuffle(groups)
    peers = geometry(work.box, work.rules).peers
    for group in groups:
        if left - len(group) < stop:
            continue
        if _forced(givens, group, peers, n) or \
                work.unique_without(_literals(givens, n, group), solution, group):
            for cell in group:
                givens[cell] = 0
            left -= len(group)
            if left == stop and stop:
                break
    return tuple(givens)


def _forced(givens: list[int], group: tuple[int, ...], peers, n: int) -> bool:
    """Whether the givens outside the group leave each of its cells one digit (a naked
    single): then blanking it keeps the puzzle unique, and no SAT call is needed."""
    inside = set(group)
    for cell in group:
        seen = {givens[peer] for peer in peers[cell] if peer not in inside}
        seen.discard(0)
        if len(seen) < n - 1:
            return False
    return True


def _literals(givens: list[int], n: int, without=()) -> list[int]:
    """The given cells' literals, leaving out the cells `without`."""
    skip = set(without)
    return [cell * n + d for cell, d in enumerate(givens) if d and cell not in skip]


def is_minimal(work: Engine, puzzle: Puzzle, solution: tuple[int, ...]) -> bool:
    """Whether no single given can be removed with the puzzle staying unique."""
    givens = list(puzzle.givens)
    n = work.n
    return not any(work.unique_without(_literals(givens, n, (cell,)), solution, (cell,))
                   for cell, d in enumerate(givens) if d)


def _passes(request: Request, puzzle: Puzzle, solution: tuple[int, ...], work: Engine
            ) -> tuple[Puzzle, bool, Grade] | None:
    """(puzzle, minimal, (level, score, rating)) if the puzzle meets the filters, else None."""
    clues = puzzle.clues
    if request.givens is not None and clues != request.givens:
        return None
    if request.max_givens is not None and clues > request.max_givens:
        return None
    # Without symmetry a full pass tests every given alone: the result is minimal.
    if request.symmetry == "none" and request.givens is None:
        minimal = True
    else:
        minimal = is_minimal(work, puzzle, solution)
    if request.minimal and not minimal:
        return None
    grade: Grade = (None, None, None)
    if request.grade:
        grade = grade_of(puzzle)
        level, _, rating = grade
        if request.level is not None and (level or "").lower() != request.level:
            return None
        if request.rating is not None and not (
                rating is not None and request.rating[0] <= rating <= request.rating[1]):
            return None
    return puzzle, minimal, grade


def grade_of(puzzle: Puzzle) -> Grade:
    """HoDoKu's level and score and the SE-like rating; Nones when the techniques stall."""
    from sudokulab.human import grading, solver

    path = solver.solve(puzzle, unique=True)
    if not path.solved:
        return None, None, None
    grade = grading.grade_path(path, unique=True)
    return grade.level, grade.score, grade.rating


PAIRWISE = (R.AntiKnight, R.AntiKing, R.NonConsecutive)  # rules norvig searches slowly


def second_name(prover: str, puzzle: Puzzle) -> str:
    """The second engine `auto` stands for on this puzzle (see generate.PROVERS)."""
    if prover != "auto":
        return prover
    slow = puzzle.n > 9 or any(isinstance(rule, PAIRWISE) for rule in puzzle.rules)
    return "asp" if slow and _asp_available() else "norvig"


@cache
def _asp_available() -> bool:
    """Whether clingo loads here."""
    from sudokulab.backends import backend_class

    return backend_class("asp").available().ok


@cache
def second_engine(name: str):
    """The second prover's backend, made once per process."""
    from sudokulab.backends import make_backend

    return make_backend(name)


def prove(puzzle: Puzzle, solution: tuple[int, ...], prover: str) -> tuple[str, ...]:
    """The engines that proved the puzzle unique: the working one, and a second engine of
    another paradigm that must find the same one solution; ProofError if it does not."""
    from sudokulab.check import check

    problems = check(puzzle, solution)
    if problems:
        raise ProofError(f"the working engine's solution breaks the rules: {problems[0]}")
    result = second_engine(prover).solve(puzzle, limit=2)
    if result.status.value != "unique" or result.solutions[0] != solution:
        raise ProofError(f"{prover} does not confirm the puzzle {puzzle} is unique with the "
                         f"working engine's solution: it answers {result.status.value}"
                         f"{' ' + result.message if result.message else ''}")
    return (Engine.name, prover)
