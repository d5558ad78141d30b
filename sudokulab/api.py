"""The Python API, for notebooks and scripts: `import sudokulab as sl`.

    puzzle = sl.Puzzle.parse(sl.load("hardest")[0].__str__())
    sl.solve(puzzle, backend="sat").status           # Status.UNIQUE
    result = sl.compare("top95", backends=["norvig", "sat"], sample=20, repeat=3)
    print(result.summary())                           # the tables `sudokulab compare` prints
    result.cactus()                                   # a matplotlib Figure

`sudokulab compare` runs on the same pieces (harness.compare builds a Comparison from its
records), so the command and a notebook report the same figures.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from sudokulab import datasets as _datasets
from sudokulab.errors import UsageError
from sudokulab.harness.comparison import Comparison
from sudokulab.harness.records import Record
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

__all__ = ["Comparison", "Puzzle", "Record", "Result", "Status", "compare", "datasets",
           "load", "open_run", "rate", "solve"]

PuzzleLike = Puzzle | str


def _puzzle(puzzle: PuzzleLike) -> Puzzle:
    """A Puzzle, parsed when given as text."""
    return Puzzle.parse(puzzle) if isinstance(puzzle, str) else puzzle


def solve(puzzle: PuzzleLike, backend: str = "sat", limit: int | None = 2,
          timeout: float | None = None) -> Result:
    """Solve one puzzle (a Puzzle or its text) with a backend spec such as 'sat' or
    'sat:solver=glucose4', looking for up to `limit` solutions (2 proves uniqueness;
    None: all) within `timeout` seconds (None: no limit). The Result holds the status,
    solutions, count and the engine's own statistics."""
    from sudokulab.backends import make_backend

    return make_backend(backend).solve(_puzzle(puzzle), limit=limit, timeout=timeout)


def datasets() -> list[str]:
    """The names of the bundled puzzle sets, smallest first (`sudokulab datasets`
    describes them). `sl.datasets` is the datasets module itself, which calls this."""
    return _datasets.names()


def load(name: str) -> list[Puzzle]:
    """The puzzles of a bundled dataset, in order."""
    return list(_datasets.load(name))


def rate(puzzle: PuzzleLike, timeout: float | None = 10.0) -> float | None:
    """The human engine's SE-like rating of a puzzle (how hard it is for people: 1.2 for
    a single up to 9.x for nested forcing nets); None when its techniques stall or the
    timeout passes first."""
    from sudokulab.harness.effort import rate as human_rating

    return human_rating(_puzzle(puzzle), timeout)


def compare(puzzles: str | Iterable[PuzzleLike], backends: Sequence[str] | str = "all", *,
            timeout: float | None = 10.0, repeat: int = 1, jobs: int | None = None,
            limit: int = 2, sample: int | None = None, seed: int = 0,
            ratings: Mapping[int, float] | str | None = None,
            progress: bool = True) -> Comparison:
    """Run backends over puzzles and compare them, as `sudokulab compare` does.

    `puzzles` is a bundled dataset's name (its reference solutions join the cross-check)
    or puzzles (Puzzle objects or text); `sample` draws that many at random (`seed`).
    Each puzzle is solved `repeat` times per backend (2 or more: intervals, pairwise
    tests and run-to-run spread), on `jobs` worker processes per backend (default: the
    usable cores), each solve within `timeout` seconds (None: no limit). `ratings` maps
    puzzle indices to difficulties, or is "human" for the human engine's SE-like rating.
    The Comparison holds the records and makes the tables and plots.
    """
    from sudokulab.harness import compare as harness
    from sudokulab.harness.records import cores

    if repeat < 1 or limit < 1 or (jobs is not None and jobs < 1):
        raise UsageError("repeat, limit and jobs must be 1 or more")
    if timeout is not None and not timeout >= 0:
        raise UsageError(f"timeout {timeout}: give seconds, 0 or more (None: no limit)")
    settings = harness.Settings(dataset=puzzles if isinstance(puzzles, str) else "puzzles",
                                backends=backends if isinstance(backends, str)
                                else ",".join(backends),
                                limit=limit, timeout=timeout or None, repeat=repeat,
                                sample=sample, seed=seed)
    if isinstance(puzzles, str):
        chosen, references = harness.select(settings)
    else:
        given = [_puzzle(p) for p in puzzles]
        chosen = {i: given[i] for i in harness.drawn(len(given), settings)}
        references = {}
    if settings.repeat >= 2:
        from sudokulab.harness import uncertainty

        uncertainty.need()
    lineup, _, skipped = harness.line_up(settings.backends)
    if not lineup:
        raise UsageError("no backend can run here: " +
                         "; ".join(f"{name}: {why}" for name, why in skipped.items()))
    records = run(lineup, chosen, settings, jobs or cores(), skipped, progress)
    result = harness.comparison(settings, chosen, references, records, skipped)
    result.ratings = _ratings(ratings, chosen, timeout)
    return result


def open_run(folder: str | Path) -> Comparison:
    """The Comparison of a `sudokulab compare` run from its folder (meta.json and
    runs.jsonl): the same tables and plots as its summary.md, in a notebook."""
    import json

    from sudokulab.harness import compare as harness
    from sudokulab.harness.runlog import RunLog

    folder = Path(folder)
    try:
        settings = harness.Settings(**json.loads(
            (folder / "meta.json").read_text(encoding="utf-8"))["settings"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{folder}: no readable meta.json ({error})") from None
    puzzles, references = harness.select(settings)
    records = [r for r in RunLog(folder).read() if r.index in puzzles]
    return harness.comparison(settings, puzzles, references, records, {})


def run(lineup: Sequence[str], puzzles: Mapping[int, Puzzle], settings, jobs: int,
        skipped: dict[str, str], progress: bool = True) -> list[Record]:
    """Every backend of the lineup over the puzzles, in memory; a backend that cannot
    start is added to `skipped`."""
    from sudokulab.harness.runner import BackendFailed, run_backend
    from sudokulab.progress import Progress

    records: list[Record] = []
    for spec in lineup:
        shown = Progress(spec, len(puzzles)) if progress else None

        def keep(record: Record, shown: Progress | None = shown) -> None:
            records.append(record)
            if shown:
                shown.step()

        try:
            run_backend(spec, list(puzzles.items()), settings.options(), jobs=jobs,
                        record=keep)
        except BackendFailed as error:
            skipped[spec] = str(error)
        if shown:
            shown.finish()
    return records


def _ratings(ratings: Mapping[int, float] | str | None, puzzles: Mapping[int, Puzzle],
             timeout: float | None) -> dict[int, float]:
    """The difficulty of each puzzle, as `compare`'s `ratings` asks."""
    if ratings is None:
        return {}
    if ratings == "human":
        started, rated = time.perf_counter(), {}
        for index, puzzle in puzzles.items():
            rating = rate(puzzle, timeout)
            if rating is not None:
                rated[index] = rating
        if time.perf_counter() - started > 5:
            print(f"rated {len(rated)} of {len(puzzles)} puzzles in "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
        return rated
    if isinstance(ratings, str):
        raise UsageError(f"ratings {ratings!r}: give 'human' or a mapping of puzzle "
                         f"index to rating")
    return {int(k): float(v) for k, v in ratings.items()}

