"""The Python API, for notebooks and scripts: `import sudokulab as sl`.

    puzzle = sl.Puzzle.parse(sl.load("hardest")[0].__str__())
    sl.solve(puzzle, backend="sat").status           # Status.UNIQUE
    result = sl.compare("top95", backends=["norvig", "sat"], sample=20, repeat=3)
    print(result.summary())                           # the tables `sudokulab compare` prints
    result.cactus()                                   # a matplotlib Figure
    sl.open_run(result.save("run"))                   # the same run, read back

`sudokulab compare` runs on the same pieces (harness.compare builds a Comparison from its
records), so the command and a notebook report the same figures. A script needs no
`if __name__ == "__main__":` guard: the worker processes never import it (sudokulab.children).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from sudokulab import datasets as _datasets
from sudokulab.errors import NothingCompared, UsageError
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
            ratings: Mapping[int, float] | str | None = None, warm: bool = False,
            progress: bool = True) -> Comparison:
    """Run backends over puzzles and compare them, as `sudokulab compare` does.

    `puzzles` is a bundled dataset's name (its reference solutions join the cross-check)
    or puzzles (Puzzle objects or text); `sample` draws that many at random (`seed`).
    Each puzzle is solved `repeat` times per backend, in passes over the puzzles (2 or
    more: intervals, pairwise tests and run-to-run spread), on `jobs` worker processes
    per backend (default: the usable cores), each solve within `timeout` seconds (None:
    no limit), cold (an engine as a fresh one would be) unless `warm`. `ratings` maps
    puzzle indices to difficulties, or is "human" for the human engine's SE-like rating.
    The Comparison holds the records and makes the tables and plots; NothingCompared
    (an EngineError) when every backend failed. Works from a plain script: the workers
    never import the caller's main module, so no `if __name__ == "__main__":` is needed.
    """
    from sudokulab.harness import compare as harness
    from sudokulab.harness import provenance
    from sudokulab.harness.records import cores

    if repeat < 1 or limit < 1 or (jobs is not None and jobs < 1):
        raise UsageError("repeat, limit and jobs must be 1 or more")
    if timeout is not None and not timeout >= 0:
        raise UsageError(f"timeout {timeout}: give seconds, 0 or more (None: no limit)")
    settings = harness.Settings(dataset=puzzles if isinstance(puzzles, str) else None,
                                backends=backends if isinstance(backends, str)
                                else ",".join(backends),
                                limit=limit, timeout=timeout or None, repeat=repeat,
                                sample=sample, seed=seed, warm=warm)
    given = [] if isinstance(puzzles, str) else [_puzzle(p) for p in puzzles]
    if isinstance(puzzles, str):
        chosen, references = harness.select(settings)
    elif not given:
        raise UsageError("no puzzles to compare: give a dataset's name or some puzzles")
    else:
        chosen, references = {i: given[i] for i in harness.drawn(len(given), settings)}, {}
    if settings.repeat >= 2:
        from sudokulab.harness import uncertainty

        uncertainty.need()
    lineup, engines, skipped = harness.line_up(settings.backends)
    if not lineup:
        raise NothingCompared(_failures("no backend can run here", skipped))
    session = {"started": harness.now(), "command": harness.command(), "api": "sudokulab.compare",
               "jobs": jobs or cores(), "backends": {}}
    meta = _meta(settings, engines, session)  # before the run: its load is the load before
    records = run(lineup, chosen, settings, jobs or cores(), skipped, progress,
                  walls=session["backends"])
    session.update(finished=harness.now(), interrupted=False, skipped=dict(skipped))
    meta["environment"]["load after"] = provenance.load()
    result = harness.comparison(settings, chosen, references, records, skipped, meta)
    result.given = given
    _refuse_nothing(result)
    result.ratings = _ratings(ratings, chosen, timeout)
    return result


def _refuse_nothing(result: Comparison) -> None:
    """NothingCompared when no backend gave a record other than an error (each was
    skipped, could not start, or failed on every puzzle)."""
    if any(r.result.status != Status.ERROR for r in result.records):
        return
    why = dict(result.skipped)
    for record in result.records:
        why.setdefault(record.backend, f"an error on every puzzle ({record.result.message})")
    raise NothingCompared(_failures("every backend failed, nothing to compare", why))


def _failures(headline: str, why: Mapping[str, str]) -> str:
    """'headline: norvig: why; sat: why' on one line."""
    return f"{headline}: " + "; ".join(f"{name}: {reason}" for name, reason in why.items())


def _meta(settings, engines: Mapping[str, str], session: dict) -> dict:
    """meta.json of a run made here, in the form `sudokulab compare` writes it (what
    Comparison.save writes)."""
    from sudokulab.harness import compare as harness

    meta = harness.new_meta(settings, engines)
    meta["sessions"].append(session)
    return meta


def open_run(folder: str | Path) -> Comparison:
    """The Comparison of a run from its folder (meta.json and runs.jsonl), written by
    `sudokulab compare` or Comparison.save: the same tables and plots as its
    summary.md, in a notebook."""
    import json
    from dataclasses import asdict

    from sudokulab.harness import compare as harness
    from sudokulab.harness.runlog import RunLog

    folder = Path(folder)
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        settings = harness.Settings.saved(meta["settings"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{folder}: no readable meta.json ({error})") from None
    moved = folder / Path(settings.file or "").name
    if settings.file and not Path(settings.file).exists() and moved.is_file():
        settings.file = str(moved)  # a saved run's puzzles.jsonl, moved with its folder
    puzzles, references = harness.select(settings)
    records = [r for r in RunLog(folder).read() if r.index in puzzles]
    skipped = dict((meta.get("sessions") or [{}])[-1].get("skipped", {}))
    result = harness.comparison(settings, puzzles, references, records, skipped)
    result.meta = {**meta, "settings": asdict(settings)}
    if "ratings" in meta:  # kept by Comparison.save
        result.ratings = {int(k): float(v) for k, v in meta["ratings"].items()}
    return result


def run(lineup: Sequence[str], puzzles: Mapping[int, Puzzle], settings, jobs: int,
        skipped: dict[str, str], progress: bool = True,
        walls: dict | None = None) -> list[Record]:
    """Every backend of the lineup over the puzzles, in memory, in the passes `sudokulab
    compare` makes (harness.compare.solve_passes); a backend that cannot start is added
    to `skipped`, each backend's solves and wall time to `walls` (as meta.json's
    sessions hold them)."""
    from sudokulab.harness.compare import solve_passes
    from sudokulab.harness.records import merged

    lines: list[Record] = []
    solve_passes(list(lineup), puzzles, settings, jobs, lines.append, skipped,
                 progress=progress, walls=walls)
    return merged(lines)


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

