"""Effort against difficulty: does a paradigm find hard what people find hard?

Each engine reports its own measure of work (guesses, conflicts, choices, ...); a puzzle's
difficulty for people is a rating: the Sudoku forum's lists carry one after the puzzle
(`<puzzle> ; <rating> ...`), and the human engine gives an SE-like one (`rate`). The
agreement is Spearman's rank correlation, which asks only that the two rise together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from sudokulab.harness.records import Record
from sudokulab.puzzle import Puzzle

# Each engine's effort: the first of these its records report (search work, not model size).
EFFORT = ("guesses", "conflicts", "choices", "failures", "branches", "nodes", "inferences",
          "decisions", "mip_node_count", "steps")


def measure(records: Sequence[Record]) -> str | None:
    """The effort statistic an engine reports, by EFFORT's order; None if it reports none."""
    reported = {key for r in records for key in r.result.stats}
    return next((key for key in EFFORT if key in reported), None)


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank, 1 for the smallest, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            result[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on the ranks, ties averaged); None when
    either side is constant or there are fewer than 3 pairs."""
    if len(x) != len(y) or len(x) < 3:
        return None
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return None if sxx == 0 or syy == 0 else sxy / math.sqrt(sxx * syy)


def points(records: Sequence[Record], ratings: Mapping[int, float],
           key: str) -> list[tuple[float, float]]:
    """(rating, effort) for each answered puzzle that has both."""
    return [(ratings[r.index], float(r.result.stats[key])) for r in records
            if r.result.status.is_answer and r.index in ratings and key in r.result.stats]


def rows(runs: Mapping[str, Sequence[Record]], ratings: Mapping[int, float]) -> list[dict]:
    """One row per engine with an effort measure: the measure, the puzzles with both a
    rating and an answer, and Spearman's rho between the two."""
    table = []
    for spec, records in runs.items():
        key = measure(records)
        if key is None:
            continue
        pairs = points(records, ratings, key)
        rho = spearman([p[0] for p in pairs], [p[1] for p in pairs])
        table.append({"backend": spec, "effort": key, "puzzles": len(pairs),
                      "spearman rho": None if rho is None else round(rho, 3)})
    return table


def file_ratings(path: str | Path, lines: Mapping[int, int]) -> dict[int, float]:
    """The forum ratings of a file's puzzles, by puzzle index, from `lines` (index -> its
    line number); a puzzle whose line carries no number after it has none."""
    import gzip

    from sudokulab.formats.files import FORUM

    path = Path(path)
    opened = gzip.open if path.suffix == ".gz" else open
    with opened(path, "rt", encoding="utf-8", errors="replace") as text:
        content = text.read().splitlines()
    found = {}
    for index, number in lines.items():
        match = FORUM.match(content[number - 1]) if 0 < number <= len(content) else None
        rating = _number(match[2].replace(";", " ").split()[0]) if match and match[2] else None
        if rating is not None:
            found[index] = rating
    return found


def _number(text: str) -> float | None:
    """A finite float, or None."""
    try:
        value = float(text.rstrip("/,"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def rate(puzzle: Puzzle, timeout: float | None = 10.0) -> float | None:
    """The human engine's SE-like rating of a puzzle (the hardest step of its path); None
    when its techniques stall or the timeout passes first."""
    import time

    from sudokulab.human import grading, solver

    end = None if timeout is None else time.monotonic() + timeout
    stop = (lambda: False) if end is None else (lambda: time.monotonic() > end)
    path = solver.solve(puzzle, unique=True, stop=stop)
    if not path.solved or getattr(path, "stopped", False):
        return None
    return grading.grade_path(path, unique=True, stop=stop).rating
