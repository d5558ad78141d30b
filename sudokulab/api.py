"""The Python API, for notebooks and scripts: `import sudokulab as sl`.

    puzzle = sl.parse(str(sl.load("hardest")[0]))       # a line, a grid, JSON or a link
    sl.solve(puzzle, backend="sat").status           # Status.UNIQUE
    result = sl.compare("top95", backends=["norvig", "sat"], sample=20, repeat=3)
    print(result.summary())                           # the tables `sudokulab compare` prints
    result.cactus()                                   # a matplotlib Figure
    sl.open_run(result.save("run"))                   # the same run, read back

`sudokulab compare` and `sl.compare` call one service (harness.compare.compare, given one
Settings), so the command and a notebook run and report the same way. A script needs no
`if __name__ == "__main__":` guard: the worker processes never import it
(sudokulab.harness.children).
"""

from __future__ import annotations

import operator
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, overload

from sudokulab import datasets as _datasets
from sudokulab.backends import DEFAULT as DEFAULT_BACKEND
from sudokulab.errors import NothingCompared, PuzzleError, UsageError, time_limit
from sudokulab.harness.comparison import Comparison
from sudokulab.harness.records import Record
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

if TYPE_CHECKING:  # the certify package is imported when first used
    from sudokulab.certificates import Certificate, Report
    from sudokulab.generate.setter import SetterReport
    from sudokulab.rules import Rule

__all__ = ["Comparison", "Puzzle", "Record", "Result", "Status", "certify", "compare", "count",
           "datasets", "load", "open_run", "parse", "rate", "setter", "solve", "solve_many",
           "verify"]

PuzzleLike = Puzzle | str | Mapping[str, object]  # a dict: the JSON form


# --- the door: every public function checks its arguments here, before any work --------
#
# A wrong type is a TypeError naming the function, the argument and what it takes; a bad
# value of the right type is a UsageError (a ValueError), as the command line's option of
# the same name refuses it. Deep inside, either would be an AttributeError about `.box`.

def _kind(value: object) -> str:
    """The type name an error shows: 'list', 'NoneType', 'bytes'."""
    return type(value).__name__


def _puzzle(puzzle: object, where: str, what: str = "puzzle") -> Puzzle:
    """A Puzzle, parsed when given as text or as its JSON form read into a dict (what
    json.load gives of a puzzle file's object); TypeError for anything else."""
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        try:
            return parse(puzzle)
        except PuzzleError:
            from sudokulab.human.positions import holds_position

            if holds_position(puzzle):
                raise PuzzleError(f"{where}: {what} is a pencil-mark position, not a puzzle "
                                  f"(on the command line, hint, explain, grade and show read "
                                  f"positions)") from None
            raise
    if isinstance(puzzle, Mapping):
        return _json_puzzle(puzzle, where, what)
    raise TypeError(f"{where}: {what} must be a Puzzle, a puzzle string or a JSON puzzle "
                    f"(a dict), not {_kind(puzzle)}")


def _nth(puzzle: object, where: str, k: int) -> Puzzle:
    """Puzzle number k (from 0) of a list, as _puzzle makes it; a PuzzleError names it."""
    try:
        return _puzzle(puzzle, where, f"puzzles[{k}]")
    except PuzzleError as error:
        if str(error).startswith(f"{where}: puzzles[{k}]"):  # named already
            raise
        raise PuzzleError(f"{where}: puzzles[{k}]: {error}") from None


def _json_puzzle(data: Mapping, where: str, what: str) -> Puzzle:
    """A puzzle from its JSON form as a dict, read by the JSON puzzle reader the files'
    and the page's puzzles go through; PuzzleError naming what is wrong."""
    import json

    from sudokulab.formats.text import from_json

    try:
        text = json.dumps(dict(data))
    except (TypeError, ValueError) as error:  # a value JSON cannot hold (a set, a NaN key)
        raise PuzzleError(f"{where}: {what} is no JSON puzzle: {error}") from None
    return from_json(text)


def _string(value: object, where: str, what: str, takes: str) -> str:
    """A str argument (a backend spec, a dataset name); TypeError for anything else."""
    if not isinstance(value, str):
        raise TypeError(f"{where}: {what} must be {takes}, not {_kind(value)}")
    return value


def _whole(value: object, where: str, what: str, least: int | None = 1,
           none: bool = False) -> int | None:
    """A whole number (at least `least`), or None when `none` allows it."""
    if value is None and none:
        return None
    try:
        if isinstance(value, bool):  # True is an int to Python, never a count to a user
            raise TypeError
        number = operator.index(value)  # int, or numpy's integers: never 2.5
    except TypeError:
        takes = "a whole number" + (" or None" if none else "")
        raise TypeError(f"{where}: {what} must be {takes}, not {_kind(value)}") from None
    if least is not None and number < least:
        raise UsageError(f"{where}: {what} must be {least} or more, not {number}")
    return number


def _seconds(value: object, where: str, what: str = "timeout") -> float | None:
    """Seconds as every command reads --timeout: 0, inf and None mean no limit (None);
    a negative number or NaN is a UsageError, anything but a number a TypeError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{where}: {what} must be a number of seconds or None, "
                        f"not {_kind(value)}")
    try:
        return time_limit(value)
    except ValueError:
        raise UsageError(f"{where}: {what} {value}: give seconds, 0 or more (0, inf or "
                         f"None: no limit)") from None


def _flag(value: object, where: str, what: str) -> bool:
    """A True or False argument; TypeError for anything else (0, 'no', None)."""
    if not isinstance(value, bool):
        raise TypeError(f"{where}: {what} must be True or False, not {_kind(value)}")
    return value


def parse(text: str, *, box: tuple[int, int] | str | None = None,
          rules: Iterable[Rule | str] | str = ()) -> Puzzle:
    """A puzzle from text in any form `sudokulab solve` reads (a line, a grid, JSON, a
    link); PuzzleError (one line) if it is none. `box` is (rows, cols) or the command
    line's '3x2'; `rules` holds rules (sudokulab.rules) or names of rules without
    parameters, as `--rules` takes them ('diagonal,anti-knight', or a list of names)."""
    from sudokulab.formats.text import parse as read
    from sudokulab.puzzle import box_problem, parse_box
    from sudokulab.rules import Rule, named

    if not isinstance(text, str):
        raise TypeError(f"sl.parse: text must be a str, not {_kind(text)}")
    if isinstance(box, str):
        try:
            box = parse_box(box)
        except UsageError as error:  # --box's own words, said of this argument
            raise UsageError(str(error).replace("--box", "sl.parse: box", 1)) from None
    if box is not None and not (isinstance(box, tuple | list) and len(box) == 2 and all(
            isinstance(side, int) and not isinstance(side, bool) for side in box)):
        raise TypeError(f"sl.parse: box must be (rows, cols), two whole numbers, '3x2' or "
                        f"None, not {box!r}")
    if box is not None and box_problem(box):  # as a '0x0' text is refused, in its words
        raise UsageError(f"sl.parse: box {box[0]}x{box[1]}: {box_problem(box)}")
    if isinstance(rules, str):
        rules = [name for name in rules.split(",") if name.strip()]
    if isinstance(rules, bytes) or not isinstance(rules, Iterable):
        raise TypeError(f"sl.parse: rules must be a list of rules or names, not {_kind(rules)}")
    listed = []
    for rule in rules:
        if isinstance(rule, str):
            listed += named(rule.strip())  # UsageError naming the rules there are
        elif isinstance(rule, Rule):
            listed.append(rule)
        else:
            raise TypeError(f"sl.parse: rules must hold rules (sudokulab.rules) or their "
                            f"names, not {_kind(rule)}")
    return read(text, box=tuple(box) if box is not None else None, rules=listed)


def solve(puzzle: PuzzleLike, backend: str = DEFAULT_BACKEND, limit: int | None = 2,
          timeout: float | None = None) -> Result:
    """Solve one puzzle (a Puzzle, its text, or its JSON form as a dict, as json.load
    reads a puzzle file's object) with a backend spec such as 'norvig' or
    'sat:solver=glucose4' (default: the one `sudokulab solve` uses, norvig), looking for
    up to `limit` solutions (2 proves uniqueness; None: all) within `timeout` seconds (0,
    inf or None: no limit, as `--timeout` on the command line). The Result holds the
    status, solutions, count and the engine's own statistics. Ctrl-C, SIGTERM or SIGHUP
    (unless ignored, as under nohup) raise Interrupted, whose `result` holds what was
    found before it."""
    from sudokulab.backends import make_backend
    from sudokulab.backends.base import listed
    from sudokulab.errors import sigterm_stops

    where = "sl.solve"
    puzzle = _puzzle(puzzle, where)
    spec = _string(backend, where, "backend", "a backend spec string such as 'norvig'")
    limit = _whole(limit, where, "limit", none=True)
    engine, seconds = make_backend(spec), _seconds(timeout, where)
    if listed(limit) is None and seconds is None:  # every solution, however it is asked
        _enumerable(puzzle, where)
    with sigterm_stops():  # SIGTERM stops it as Ctrl-C does, keeping the grids found so far
        return engine.solve(puzzle, limit=limit, timeout=seconds)


def count(puzzle: PuzzleLike, backend: str = DEFAULT_BACKEND, timeout: float | None = None,
          grids: int = 0) -> Result:
    """Count a puzzle's solutions as `sudokulab solve --count` does: every grid counted,
    the first `grids` listed in the Result, memory flat however many there are. Where the
    rules and givens allow it (no givens, or all in one row, rules blind to digits) the
    count is of the puzzle with that row filled, times the orders of its free digits: the
    message and stats say so ('28,200,960 (6! x 39,168, by digit relabelling)'; stats'
    factor and reduced_count). Refused (UsageError) without a timeout where Knuth's
    estimate puts the grids enumerated past 10^9; with one, a count cut short is a lower
    bound (exact False). The grids kept are checked by the independent checker first:
    DisagreementError if they do not hold. Ctrl-C or SIGTERM raise Interrupted, whose
    `result` holds the count so far."""
    from sudokulab.backends import make_backend
    from sudokulab.errors import Interrupted, sigterm_stops

    where = "sl.count"
    puzzle = _puzzle(puzzle, where)
    spec = _string(backend, where, "backend", "a backend spec string such as 'norvig'")
    seconds, shown = _seconds(timeout, where), _whole(grids, where, "grids", least=0) or 0
    engine = make_backend(spec)
    if not engine.complete:
        raise UsageError(f"{where}: {engine.label} cannot count: it searches no further than "
                         f"its techniques reach; count with an engine that searches")
    from sudokulab.backends.counting import KEPT_CELLS, endless, relabelling

    if seconds is None and (why := endless(puzzle, engine.label, asked=where,
                                           bound="timeout=S")):
        raise UsageError(why)
    reduction, _ = relabelling(puzzle)
    counted = puzzle if reduction is None else reduction.reduced
    keep = max(shown, KEPT_CELLS // len(puzzle.givens))
    with sigterm_stops():
        try:
            result = engine.solve(counted, limit=None, timeout=seconds, keep=keep)
        except Interrupted as stop:
            stop.result = _counted(stop.result, reduction, shown)
            raise
    from sudokulab.harness.crosscheck import verify

    if why := verify(counted, result, kept=keep):
        from sudokulab.errors import DisagreementError

        raise DisagreementError(f"{where}: {engine.label} {why}")
    return _counted(result, reduction, shown)


def _counted(result: Result, reduction, shown: int) -> Result:
    """The puzzle's count from the one searched: scaled when relabelling reduced it, and
    the first `shown` grids only."""
    from dataclasses import replace

    if reduction is not None:
        return reduction.scaled(result, shown)
    return replace(result, solutions=result.solutions[:shown])


# limit=None keeps every grid in the Result (some 350 bytes a 6x6, as Python holds them):
# past this many, memory would run out long before the count (sl.count and `solve --count`
# count without keeping, by digit relabelling where it holds)
MOST_KEPT = 10**6


def _enumerable(puzzle: Puzzle, where: str) -> None:
    """UsageError, at once, for every solution asked with no timeout where Knuth's
    estimate puts more grids than a Result can keep (MOST_KEPT; `solve --count` refuses
    past 10**9, counting without keeping them)."""
    from sudokulab.backends.counting import beyond_enumeration

    found = beyond_enumeration(puzzle, MOST_KEPT)
    if found is not None:
        raise UsageError(f"{where}: every solution would be listed and kept, about "
                         f"{found.count:.2g} grids (Knuth's estimate over {found.probes} "
                         f"random paths), more than a Result keeps (over {MOST_KEPT:,}); "
                         f"count them with sl.count(), or give timeout= "
                         f"seconds, or a limit")


def solve_many(puzzles: Iterable[PuzzleLike], backend: str = DEFAULT_BACKEND,
               limit: int = 2) -> list[Result]:
    """Solve many puzzles with one backend, each Result in order. An engine with a batch
    path (native) takes the classic 9x9s in one call, so Python's cost per puzzle does not
    hide it (each Result then holds an equal share of the call's time); others solve one
    by one. `limit` is 1 or 2 (2 proves uniqueness). Every grid is checked by the
    independent checker: DisagreementError names the first answer that fails it. Ctrl-C
    or SIGTERM raise SolveManyInterrupted, whose `results` are the answers before it."""
    from sudokulab.backends import make_backend
    from sudokulab.harness.bulk import solve_many as bulk

    where = "sl.solve_many"
    if isinstance(puzzles, str) and puzzles in _datasets.names():  # as sl.compare takes it
        puzzles = _datasets.load(puzzles)
    if isinstance(puzzles, str | Puzzle | Mapping) or not isinstance(puzzles, Iterable):
        given = "a str that names no dataset" if isinstance(puzzles, str) else _kind(puzzles)
        raise TypeError(f"{where}: puzzles must be a dataset's name "
                        f"({', '.join(_datasets.names())}) or a list of Puzzles, puzzle "
                        f"strings or JSON puzzles, not {given}")
    from sudokulab.backends.native import plain

    # a plain classic line stays text: a batch reads it as it is (making a Puzzle of it
    # would cost more than native spends solving it)
    given = [p.strip() if isinstance(p, str) and plain(p.strip())
             else _nth(p, where, k) for k, p in enumerate(puzzles)]
    spec = _string(backend, where, "backend", "a backend spec string such as 'native'")
    if _whole(limit, where, "limit") not in (1, 2):
        raise UsageError(f"{where}: limit must be 1 or 2, not {limit} (sl.solve counts)")
    from sudokulab.errors import sigterm_stops

    with sigterm_stops():  # SIGTERM stops it as Ctrl-C does, keeping the answers so far
        return bulk(make_backend(spec), given, limit)


def datasets() -> list[str]:
    """The names of the bundled puzzle sets, smallest first (`sudokulab datasets`
    describes them). `sl.datasets` is the datasets module itself, which calls this."""
    return _datasets.names()


def load(name: str) -> list[Puzzle]:
    """The puzzles of a bundled dataset, in order; PuzzleError for an unknown name."""
    return list(_datasets.load(_string(name, "sl.load", "name", "a dataset name (a str)")))


def rate(puzzle: PuzzleLike, timeout: float | None = 10.0) -> float | None:
    """The human engine's SE-like rating of a puzzle (how hard it is for people: 1.2 for
    a single up to 9.x for nested forcing nets); None when its techniques stall or the
    timeout passes first (0, inf or None: no limit). UnsupportedRule for a rule the
    human engine lacks (as `grade` exits 5), PuzzleError for a puzzle with no solution or
    several (as `grade` exits 1 or 6): a rating is a unique puzzle's."""
    from sudokulab.errors import UnsupportedRule
    from sudokulab.harness.effort import rate as human_rating
    from sudokulab.teaching import lessons

    puzzle = _puzzle(puzzle, "sl.rate")
    seconds = _seconds(timeout, "sl.rate")
    refused = lessons.judge(puzzle, seconds)  # the lesson service's verdict, as `grade`'s
    if isinstance(refused, lessons.Refusal) and refused.status == "unsupported":
        raise UnsupportedRule(f"sl.rate: {refused.message}")
    if isinstance(refused, lessons.Refusal) and refused.status in ("none", "several"):
        raise PuzzleError(f"sl.rate: the puzzle has {refused.answer.count_text} solution(s): "
                          f"a rating is a unique puzzle's")
    return human_rating(puzzle, seconds)


def setter(puzzle: PuzzleLike, timeout: float | None = 10.0, *, candidates: bool = True,
           redundancy: bool = True, grade: bool = True,
           grade_timeout: float | None = 2.0) -> SetterReport:
    """The setter's bench on a puzzle being set (sudokulab.generate.setter): how many
    solutions are left (0, 1, or at least 2 with two that differ), each cell's true candidates, the
    givens and rules the puzzle stays unique without, and the human grade once unique.
    The SAT parts stop at `timeout` seconds, the grade at `grade_timeout` (0, inf or None:
    no limit); a SetterReport (`.status`, `.solutions`, `.differ`, `.candidates`,
    `.redundant_givens`, `.redundant_rules`, `.grade`, `.to_json()`)."""
    from sudokulab.generate.setter import setter_report

    where = "sl.setter"
    puzzle = _puzzle(puzzle, where)
    seconds = _seconds(timeout, where)
    grade_seconds = _seconds(grade_timeout, where, "grade_timeout")
    return setter_report(puzzle, seconds=seconds,
                         candidates=_flag(candidates, where, "candidates"),
                         redundancy=_flag(redundancy, where, "redundancy"),
                         grade=_flag(grade, where, "grade"), grade_seconds=grade_seconds)


def compare(puzzles: str | Iterable[PuzzleLike], backends: Sequence[str] | str = "all", *,
            timeout: float | None = 10.0, repeat: int = 1, jobs: int | None = None,
            limit: int = 2, sample: int | None = None, seed: int = 0,
            ratings: Mapping[int, float] | str | None = None, warm: bool = False,
            progress: bool = True, certify: str | os.PathLike | None = None) -> Comparison:
    """Run backends over puzzles and compare them, as `sudokulab compare` does.

    `puzzles` is a bundled dataset's name (its reference solutions join the cross-check)
    or puzzles (Puzzle objects or text); `sample` draws that many at random (`seed`).
    Each puzzle is solved `repeat` times per backend, in passes over the puzzles (2 or
    more: intervals, pairwise tests and run-to-run spread), on `jobs` worker processes
    per backend (default: the usable cores), each solve within `timeout` seconds (0, inf
    or None: no limit), cold (an engine as a fresh one would be) unless `warm`.
    `ratings` maps puzzle indices to difficulties, or is "human" for the human engine's
    SE-like rating. `certify`, a folder: each puzzle's verdict proved there, as
    `sl.certify` does, and verified (`.proofs`; `.certified()` gives each engine's
    verdicts proved and given; an answer a certificate contradicts is a finding).
    Each keyword means what the `compare` option of the same name means (--sample K of 1
    or more, --jobs, --repeat and --limit of 1 or more, --seed of 0 or more). The Comparison
    holds the records and makes the tables and plots; NothingCompared (an EngineError)
    when no backend answered any puzzle (all skipped, failed, timed out or unsupported):
    an empty comparison would claim an agreement nobody reached. Works from a plain
    script: the workers never import the caller's main module, so no `if __name__ ==
    "__main__":` is needed.
    """
    from sudokulab.harness import compare as harness

    where = "sl.compare"
    given = _puzzles(puzzles, where)
    settings = harness.Settings(dataset=puzzles if isinstance(puzzles, str) else None,
                                puzzles=tuple(given), backends=_backends(backends, where),
                                limit=_whole(limit, where, "limit"),
                                timeout=_seconds(timeout, where),
                                repeat=_whole(repeat, where, "repeat"),
                                sample=_whole(sample, where, "sample", none=True),
                                seed=_whole(seed, where, "seed", least=0),
                                warm=_flag(warm, where, "warm"),
                                jobs=_whole(jobs, where, "jobs", none=True),
                                progress=_flag(progress, where, "progress"), keep=False,
                                certify=_folder(certify, where))
    ratings = _ratings_asked(ratings, where)
    from sudokulab.errors import sigterm_stops

    with sigterm_stops():  # SIGTERM stops the run as Ctrl-C does, keeping the records
        outcome = harness.compare(settings, caller={"api": "sudokulab.compare"})
    if outcome.stop is not None:  # Ctrl-C in a notebook stops the cell, keeping the records
        from sudokulab.errors import CompareInterrupted

        raise CompareInterrupted(outcome.comparison, outcome.stop) from None
    result = outcome.comparison
    _refuse_nothing(result)
    result.ratings = _ratings(ratings, result.puzzles, settings.timeout)
    return result


def _puzzles(puzzles: object, where: str) -> list[Puzzle]:
    """The puzzles given as a list (none for a dataset's name); TypeError for a value
    that is neither, UsageError for an empty list."""
    if isinstance(puzzles, str):
        from sudokulab import datasets

        if puzzles not in datasets.names() and len(puzzles) >= 16:
            raise UsageError(f"{where}: puzzles is a dataset's name ({', '.join(datasets.names())})"
                             f" or a list: give one puzzle as [\"{puzzles[:12]}...\"]")
        return []
    if isinstance(puzzles, bytes | bytearray | Mapping) or not isinstance(puzzles, Iterable):
        raise TypeError(f"{where}: puzzles must be a dataset name or a list of Puzzles or "
                        f"puzzle strings, not {_kind(puzzles)}")
    given = [_nth(p, where, k) for k, p in enumerate(puzzles)]
    if not given:
        raise UsageError(f"{where}: no puzzles to compare: give a dataset's name or some "
                         f"puzzles")
    return given


def _backends(backends: object, where: str) -> str:
    """The backend specs as `--backends` takes them ('all', or joined by commas);
    TypeError for a value that is no spec or list of specs, UsageError for none."""
    takes = "'all', a backend spec or a list of backend specs"
    if isinstance(backends, str):
        specs = [backends]
    elif isinstance(backends, bytes | bytearray | Mapping) or not isinstance(backends,
                                                                             Iterable):
        raise TypeError(f"{where}: backends must be {takes}, not {_kind(backends)}")
    else:
        specs = list(backends)
    for k, spec in enumerate(specs):
        _string(spec, where, f"backends[{k}]", "a backend spec string such as 'norvig'")
    if not any(spec.strip() for spec in specs):
        raise UsageError(f"{where}: backends names no backend: give 'all' or some specs")
    return ",".join(specs)


def _ratings_asked(ratings: object, where: str) -> Mapping[int, float] | str | None:
    """`ratings` as `compare` takes it: None, 'human', or a mapping of puzzle index to a
    number."""
    if ratings is None:
        return None
    if isinstance(ratings, str):
        if ratings != "human":
            raise UsageError(f"{where}: ratings {ratings!r}: give 'human' or a mapping of "
                             f"puzzle index to rating")
        return ratings
    if not isinstance(ratings, Mapping):
        raise TypeError(f"{where}: ratings must be 'human', a mapping of puzzle index to "
                        f"rating or None, not {_kind(ratings)}")
    for index, rating in ratings.items():
        _whole(index, where, "a ratings index", least=0)
        if isinstance(rating, bool) or not isinstance(rating, int | float):
            raise TypeError(f"{where}: ratings[{index!r}] must be a number, not "
                            f"{_kind(rating)}")
    return ratings


def _refuse_nothing(result: Comparison) -> None:
    """NothingCompared when no backend answered any puzzle: each was skipped, could not
    start, or gave only errors, timeouts, unsupported or stalled results. A comparison
    of no answers would report agreement that was never put to the test."""
    if any(r.result.status.is_answer for r in result.records):
        return
    why = dict(result.skipped)
    for backend in dict.fromkeys(r.backend for r in result.records):
        mine = [r.result for r in result.records if r.backend == backend]
        if all(r.status == Status.ERROR for r in mine):
            why.setdefault(backend, f"an error on every puzzle ({mine[0].message})")
        else:
            said = ", ".join(f"{status.value} {count}" for status, count in
                             _counts(r.status for r in mine).items())
            why.setdefault(backend, f"no answer on any puzzle ({said})")
    failed = all(r.result.status == Status.ERROR for r in result.records)
    from sudokulab.harness.compare import failures

    raise NothingCompared(failures("every backend failed, nothing to compare" if failed
                                    else "no backend answered any puzzle, nothing to "
                                         "compare", why))


def _counts(statuses: Iterable[Status]) -> dict[Status, int]:
    """How many of each status, in the order first seen."""
    counts: dict[Status, int] = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return counts


def open_run(folder: str | Path) -> Comparison:
    """The Comparison of a run from its folder (meta.json and runs.jsonl), written by
    `sudokulab compare` or Comparison.save: the same tables and plots as its
    summary.md, in a notebook."""
    from sudokulab.harness import compare as harness

    if not isinstance(folder, str | os.PathLike):
        raise TypeError(f"sl.open_run: folder must be a path (a str or a Path), not "
                        f"{_kind(folder)}")
    if not str(folder).strip():
        raise UsageError("sl.open_run: folder is empty: give the folder of a run")
    return harness.read_run(Path(folder))


def _ratings(ratings: Mapping[int, float] | str | None, puzzles: Mapping[int, Puzzle],
             timeout: float | None) -> dict[int, float]:
    """The difficulty of each puzzle, as `compare`'s `ratings` asks."""
    if ratings is None:
        return {}
    if ratings == "human":  # checked at the door (_ratings_asked)
        started, rated = time.perf_counter(), {}
        for index, puzzle in puzzles.items():
            rating = rate(puzzle, timeout)
            if rating is not None:
                rated[index] = rating
        if time.perf_counter() - started > 5:
            print(f"rated {len(rated)} of {len(puzzles)} puzzles in "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
        return rated
    return {int(k): float(v) for k, v in ratings.items()}


def certify(puzzle: PuzzleLike, folder: str | os.PathLike | None = None) -> Certificate:
    """The puzzle's verdict proved (issue 56, docs/certified.md): decided on the
    certificates' own CNF, written to `folder` as <name>.json, .cnf and .drat (a new
    temporary folder, kept, when None) and verified by the lab's own checker before it is
    returned. A Certificate: `.verdict` ('none', 'unique' or 'multiple'), `.solutions`,
    `.count`, `.lemmas`, `.json_path` (what `sl.verify` and `sudokulab verify` take)."""
    import tempfile

    from sudokulab.certificates import certificate
    from sudokulab.certificates import verify as check_certificate

    where = "sl.certify"
    puzzle = _puzzle(puzzle, where)
    folder = _folder(folder, where, "folder") or tempfile.mkdtemp(
        prefix="sudokulab-certificate-")
    certificate.writable(folder, f"{where}: folder")  # as the command line says it
    made = certificate.certify(puzzle, Path(folder), certificate.name_of(puzzle))
    check_certificate(made.json_path)  # CertificateRejected: never handed out unchecked
    return made


def _folder(folder: object, where: str, what: str = "certify") -> str | None:
    """A folder argument as a str (None stays None); TypeError for a value that is no
    path, UsageError for an empty one."""
    if folder is None:
        return None
    if not isinstance(folder, str | os.PathLike):
        raise TypeError(f"{where}: {what} must be a path (a str or a Path) or None, not "
                        f"{_kind(folder)}")
    if not str(folder).strip():
        raise UsageError(f"{where}: {what} is empty: give a folder, or None"
                         + (" for a temporary one" if what == "folder" else ""))
    if os.path.isfile(folder):  # said of this argument, not of the command line's --certify
        raise UsageError(f"{where}: {what} {folder} is a file, not a folder: choose another")
    return str(folder)


@overload
def verify(path: Certificate) -> Report: ...


@overload
def verify(path: str | os.PathLike) -> Report | list[Report]: ...


def verify(path: str | os.PathLike | Certificate) -> Report | list[Report]:
    """A certificate checked by the lab's own encoder, DRAT checker and check.py, trusting
    no engine (`sudokulab verify`): `path` is its .json (or the Certificate `sl.certify`
    made). A Report (`.verdict`, `.count`, `.lemmas`, `.ms`); CertificateRejected (a
    DisagreementError, exit code 4 on the command line) saying where it fails. `path` a
    folder: every .json in it checked, as `sudokulab verify FOLDER` does, and their
    Reports (sorted by name) when all are accepted; else the first failure's error, which
    says how many failed."""
    from sudokulab.certificates import Certificate as Made
    from sudokulab.certificates.verify import certificates, check_each

    if isinstance(path, Made):
        path = path.json_path
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"sl.verify: path must be a certificate's .json or a folder of them "
                        f"(a str or a Path) or a Certificate, not {_kind(path)}")
    if not str(path).strip():
        raise UsageError("sl.verify: path is empty: give a certificate's .json or a folder")
    if not Path(path).is_dir():
        from sudokulab.certificates import verify as check_certificate

        return check_certificate(Path(path))
    from sudokulab.errors import sigterm_stops

    checked: list = []
    try:
        with sigterm_stops():  # SIGTERM stops the checks as Ctrl-C does, keeping the reports
            checked.extend(check_each(certificates([path])))
    except KeyboardInterrupt as stop:  # what was checked is kept on the error
        from sudokulab.errors import VerifyInterrupted

        raise VerifyInterrupted([one.report for one in checked if one.report is not None],
                                [one.error for one in checked if one.error is not None],
                                stop) from None
    failed = [one.error for one in checked if one.error is not None]
    if failed:  # its own class (exit code); the message counts the others
        first = failed[0]
        first.args = (f"{len(failed)} of {len(checked)} certificates in {path} not "
                      f"accepted; the first: {first}",)
        raise first
    return [one.report for one in checked if one.report is not None]
