"""Effort against difficulty: does a paradigm find hard what people find hard?

Each engine reports its own measure of work (guesses, conflicts, choices, ...); a puzzle's
difficulty for people is a rating: the Sudoku forum's lists carry one after the puzzle
(`<puzzle> ; <rating> ...`), and the human engine gives an SE-like one (`rate`). The
agreement is Spearman's rank correlation, which asks only that the two rise together,
with scipy's p-value (of no association) and a seeded percentile bootstrap interval over
the puzzles (numpy and scipy, the `stats` extra; without them, rho alone).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from sudokulab.harness.records import Record
from sudokulab.harness.uncertainty import CHUNK, DRAWS, LEVEL, SEED
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


def rows(runs: Mapping[str, Sequence[Record]], ratings: Mapping[int, float], *,
         draws: int = DRAWS, seed: int = SEED) -> list[dict]:
    """One row per engine with an effort measure: the measure, the puzzles with both a
    rating and an answer, Spearman's rho between the two, its p-value and its 95 %
    bootstrap interval (the last three None without scipy, or without a rho)."""
    from sudokulab.backends.extras import absent

    tested = not (absent("numpy") or absent("scipy"))
    table = []
    for spec, records in runs.items():
        key = measure(records)
        if key is None:
            continue
        pairs = points(records, ratings, key)
        x, y = [p[0] for p in pairs], [p[1] for p in pairs]
        rho = spearman(x, y)
        p = spearman_p(x, y) if tested and rho is not None else None
        ends = interval(x, y, draws=draws, seed=seed) if tested and rho is not None else None
        table.append({"backend": spec, "effort": key, "puzzles": len(pairs),
                      "spearman rho": None if rho is None else round(rho, 3),
                      "p (Spearman)": None if p is None else float(f"{p:.3g}"),
                      "95% CI low": None if ends is None else round(ends[0], 3),
                      "95% CI high": None if ends is None else round(ends[1], 3)})
    return table


def spearman_p(x: Sequence[float], y: Sequence[float]) -> float | None:
    """The two-sided p-value of 'no monotone association' (scipy's spearmanr: Student's t
    with n - 2 degrees of freedom, rough below about 10 puzzles); None where rho is."""
    from scipy import stats

    if spearman(x, y) is None:
        return None
    return float(stats.spearmanr(x, y).pvalue)


def interval(x: Sequence[float], y: Sequence[float], *, draws: int = DRAWS,
             seed: int = SEED) -> tuple[float, float] | None:
    """The LEVEL percentile bootstrap interval of Spearman's rho: the puzzles drawn again
    with replacement, each with its own rating and effort (paired), DRAWS times, seeded.
    A redraw whose ratings or efforts are all equal has no rho and is left out; None
    when every one is."""
    import numpy as np

    drawn = np.concatenate(list(redrawn_rhos(x, y, draws, seed)))
    drawn = drawn[np.isfinite(drawn)]
    if not drawn.size:
        return None
    low, high = np.quantile(drawn, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return float(low), float(high)


def redrawn_rhos(x: Sequence[float], y: Sequence[float], draws: int, seed: int):
    """Spearman's rho of each bootstrap redraw of the (x, y) pairs, NaN where a side is
    constant; yields chunks (CHUNK values at a time bound the memory)."""
    import numpy as np
    from scipy import stats

    rng = np.random.default_rng(seed)
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = len(xs)
    step = max(1, CHUNK // max(1, n))
    for start in range(0, draws, step):
        picks = rng.integers(0, n, size=(min(step, draws - start), n))
        rx, ry = (stats.rankdata(side[picks], axis=1) for side in (xs, ys))
        rx -= rx.mean(axis=1, keepdims=True)   # Pearson's r of the ranks, row by row
        ry -= ry.mean(axis=1, keepdims=True)
        scale = np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
        with np.errstate(invalid="ignore", divide="ignore"):
            yield np.where(scale > 0, (rx * ry).sum(axis=1) / scale, np.nan)


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
