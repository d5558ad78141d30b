"""How sure a comparison is: bootstrap intervals, paired tests and run-to-run spread.

A run with `--repeat R` holds R times per puzzle and engine. An interval is a seeded
percentile bootstrap over both sources of variation: the puzzles are drawn again with
replacement, then each drawn puzzle's repeats, and the figure is computed on the medians
of the redrawn repeats; LEVEL of the DRAWS redraws fall inside it, once their median is
moved onto the figure (`centred`). The puzzles are a
sample of what an engine meets, the repeats a sample of the machine's noise: more
repeats narrow only the second part.

Two engines are compared on the puzzles both answered: the geometric mean of the
per-puzzle time ratio (the usual summary of speed-ups, symmetric in the two engines),
with a bootstrap interval drawn the same way (the puzzles paired), and the Wilcoxon
signed-rank test of the log times (scipy's: exact for small samples without ties, the
normal approximation with tie and zero corrections otherwise). A run tests every pair of
its engines at once, so `pairs` adjusts their p-values by Holm's step-down method over
that family, and a pair is called significant on the adjusted one.

numpy and scipy are the `stats` extra; only runs with repeats need them.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from sudokulab.harness.records import Record
from sudokulab.result import Status

LEVEL = 0.95
DRAWS = 2000        # bootstrap redraws: the ends of a median's interval over 20 puzzles move
                    # by up to about 5 % between seeds (tests/test_measurement.py holds
                    # them under 10 %); more puzzles move them less
SEED = 0
CHUNK = 2_000_000   # values drawn at once (draws x puzzles x repeats): bounds the memory
FLOOR = 1e-6        # seconds: a ratio of two times needs neither to be 0
SIGNIFICANT = 0.05  # the p-value below which the paired test calls a difference
SAME = "no clear difference"

Figure = Callable[["numpy.ndarray"], "numpy.ndarray"]  # noqa: F821  (rows of times -> one per row)


def need() -> None:
    """Unavailable (one line) unless numpy and scipy, the `stats` extra, are installed."""
    from sudokulab.backends.extras import absent, install
    from sudokulab.errors import Unavailable

    why = absent("numpy") or absent("scipy")
    if why:
        raise Unavailable(f"intervals and paired tests (--repeat 2 or more) need the stats "
                          f"extra ({why}): {install('stats')}")


@dataclass(frozen=True)
class Interval:
    """A figure and its bootstrap interval (seconds, or whatever the figure measures)."""

    value: float
    low: float
    high: float

    def covers(self, x: float) -> bool:
        """Whether x lies in the interval."""
        return self.low <= x <= self.high

    @property
    def width(self) -> float:
        """high - low."""
        return self.high - self.low


def answered(records: Sequence[Record]) -> list[Record]:
    """The records with an answer (a time worth a figure), in puzzle order."""
    return sorted((r for r in records if r.result.status.is_answer), key=lambda r: r.index)


def repeats(records: Sequence[Record]):
    """The repeat times as a puzzles x R array, NaN past a puzzle's own repeats."""
    import numpy as np

    width = max((len(r.times) or 1 for r in records), default=1)
    table = np.full((len(records), width), np.nan)
    for row, record in enumerate(records):
        times = record.times or [record.time]
        table[row, :len(times)] = np.maximum(times, FLOOR)
    return table


def redrawn(tables: Sequence, draws: int = DRAWS, seed: int = SEED):
    """Per-puzzle medians of bootstrap redraws: for each table (puzzles x R, the same
    puzzles in each, NaN-padded), a draws x puzzles array; the puzzles drawn are shared by
    the tables (paired), the repeats drawn are each table's own. Yields chunks."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = tables[0].shape[0]
    width = max(t.shape[1] for t in tables)
    step = max(1, CHUNK // max(1, n * width * len(tables)))
    counts = [np.sum(~np.isnan(t), axis=1) for t in tables]
    for start in range(0, draws, step):
        size = min(step, draws - start)
        puzzles = rng.integers(0, n, size=(size, n))
        chunk = []
        for table, count in zip(tables, counts):
            r = table.shape[1]
            own = count[puzzles][..., None]                               # size x n x 1
            picks = np.floor(rng.random((size, n, r)) * own).astype(int)  # within its repeats
            values = table[puzzles[..., None], picks]
            values[np.broadcast_to(np.arange(r) >= own, values.shape)] = np.nan
            chunk.append(np.nanmedian(values, axis=2))
        yield chunk


def interval(records: Sequence[Record], figure: Figure, *, draws: int = DRAWS,
             seed: int = SEED) -> Interval | None:
    """A figure of per-puzzle median times (median, p90, ...) and its interval; None
    for no records."""
    import numpy as np

    if not records:
        return None
    table = repeats(records)
    value = float(figure(np.nanmedian(table, axis=1)[None, :])[0])
    drawn = np.concatenate([figure(times) for (times,) in redrawn([table], draws, seed)])
    low, high = centred(np.log(drawn), math.log(value))
    return Interval(value, math.exp(low), math.exp(high))


def centred(drawn, value: float) -> tuple[float, float]:
    """The LEVEL percentile interval of the redrawn figures (in log scale), moved so that
    their median falls on the figure itself.

    The median of a few redrawn repeats runs high when the noise is skewed (one slow
    repeat in three is common: a cache, a collection, a neighbour), so the redraws'
    centre drifts above the figure; moving them back is the usual bootstrap correction
    of that bias, and the interval then always holds its figure.
    """
    import numpy as np

    low, middle, high = np.quantile(drawn, [(1 - LEVEL) / 2, 0.5, (1 + LEVEL) / 2])
    shift = value - middle
    return float(low + shift), float(high + shift)


def median(times):
    """Each row's median."""
    import numpy as np

    return np.median(times, axis=1)


def nearest_rank(q: float) -> Figure:
    """Each row's nearest-rank q-th percentile, as stats.percentile takes it."""
    import numpy as np

    def figure(times):
        k = max(0, math.ceil(q / 100 * times.shape[1]) - 1)
        return np.sort(times, axis=1)[:, k]
    return figure


def rate(times):
    """Puzzles per second of solving: each row's count over its sum."""
    return times.shape[1] / times.sum(axis=1)


# The bootstrap cannot carry the max (a redraw never exceeds the slowest puzzle, so the
# interval's top is that puzzle whatever the seed), nor a tail percentile of few puzzles:
# p90 of n puzzles rests on its n/10 slowest, and its redraws take a handful of values.
# Ten puzzles past the p90 is the usual rule of thumb (Davison & Hinkley 1997, ch. 2).
P90_PUZZLES = 100


def intervals(records: Sequence[Record], *, draws: int = DRAWS,
              seed: int = SEED) -> dict[str, Interval | None]:
    """One engine's time figures with their intervals: puzzles/s over what it tried,
    median over what it answered, and p90 when it answered P90_PUZZLES puzzles or more;
    none for the max."""
    tried = sorted((r for r in records if r.result.status != Status.UNSUPPORTED),
                   key=lambda r: r.index)
    found = answered(records)
    middle = interval(found, median, draws=draws, seed=seed)
    return {"puzzles/s": interval(tried, rate, draws=draws, seed=seed) if middle else None,
            "median": middle,
            "p90": interval(found, nearest_rank(90), draws=draws, seed=seed)
            if len(found) >= P90_PUZZLES else None}


@dataclass(frozen=True)
class Pair:
    """Engine b against engine a on the puzzles both answered."""

    a: str
    b: str
    puzzles: int
    ratio: Interval | None    # geometric mean of time(b) / time(a): above 1, b is slower
    p: float | None           # Wilcoxon signed-rank, two-sided, as if it were the only test
    holm: float | None = None  # p adjusted by Holm's step-down over the `family` of pairs
    family: int = 1           # the pairs tested together (a pair alone: holm is p)

    @property
    def verdict(self) -> str:
        """'b 2.03x slower', 'b 1.5x faster', 'no clear difference' (the interval holds
        1), or 'b 1.32x slower, not significant (Holm)' when the corrected test does not
        agree with the interval."""
        if self.ratio is None or self.ratio.covers(1.0):
            return SAME
        if self.ratio.value >= 1:
            found = f"{self.b} {self.ratio.value:.2f}x slower"
        else:
            found = f"{self.b} {1 / self.ratio.value:.2f}x faster"
        return found if self.significant else f"{found}, not significant (Holm)"

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 1 and the paired test agrees, corrected for the
        family of pairs it was tested in (Holm)."""
        return (self.ratio is not None and not self.ratio.covers(1.0)
                and self.holm is not None and self.holm < SIGNIFICANT)


def pair(a: str, b: str, runs: Mapping[str, Sequence[Record]], *,
         wrong: frozenset | set = frozenset(), draws: int = DRAWS, seed: int = SEED) -> Pair:
    """Engine b against engine a on the puzzles both answered right."""
    import numpy as np

    def right(spec: str) -> dict[int, Record]:
        return {r.index: r for r in answered(runs[spec]) if (spec, r.index) not in wrong}

    by_a, by_b = right(a), right(b)
    both = sorted(set(by_a) & set(by_b))
    if not both:
        return Pair(a, b, 0, None, None)
    ta, tb = repeats([by_a[i] for i in both]), repeats([by_b[i] for i in both])
    logs = np.log(np.nanmedian(tb, axis=1)) - np.log(np.nanmedian(ta, axis=1))
    drawn = np.concatenate([np.mean(np.log(mb) - np.log(ma), axis=1)
                            for ma, mb in redrawn([ta, tb], draws, seed)])
    low, high = centred(drawn, float(np.mean(logs)))
    ratio = Interval(float(np.exp(np.mean(logs))), math.exp(low), math.exp(high))
    p = wilcoxon(logs)
    return Pair(a, b, len(both), ratio, p, p)


def wilcoxon(differences) -> float | None:
    """The two-sided p-value of the Wilcoxon signed-rank test that the differences are
    centred on 0 (1.0 when every difference is 0; None for none)."""
    import numpy as np
    from scipy import stats

    if len(differences) == 0:
        return None
    if not np.any(differences):
        return 1.0
    return float(stats.wilcoxon(differences).pvalue)


def pairs(runs: Mapping[str, Sequence[Record]], *, wrong: frozenset | set = frozenset(),
          draws: int = DRAWS, seed: int = SEED) -> list[Pair]:
    """Every pair of engines, each once, in the order of the run, with its p-value
    Holm-adjusted over the family of the pairs that have one (a pair with no puzzle in
    common tests nothing)."""
    specs = list(runs)
    found = [pair(a, b, runs, wrong=wrong, draws=draws, seed=seed)
             for k, a in enumerate(specs) for b in specs[k + 1:]]
    tested = [k for k, p in enumerate(found) if p.p is not None]
    for k, adjusted in zip(tested, holm([found[k].p for k in tested])):
        found[k] = replace(found[k], holm=adjusted, family=len(tested))
    return found


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's (1979) step-down adjustment of a family of m p-values, in their order: the
    i-th smallest times (m - i + 1), never below the adjusted one before it (so that
    rejecting stops at the first hypothesis kept), at most 1. It bounds the chance of any
    false 'significant' in the family by the level, whatever the tests' dependence."""
    order = sorted(range(len(ps)), key=ps.__getitem__)
    adjusted = [1.0] * len(ps)
    running = 0.0
    for step, k in enumerate(order):
        running = max(running, min(1.0, (len(ps) - step) * ps[k]))
        adjusted[k] = running
    return adjusted


def spread(records: Sequence[Record]) -> float | None:
    """An engine's run-to-run noise: the median over answered puzzles of the relative
    spread of its repeats ((max - min) / median of each puzzle's times); None without
    repeats."""
    spreads = [(max(r.times) - min(r.times)) / max(statistics.median(r.times), FLOOR)
               for r in answered(records) if len(r.times) >= 2]
    return statistics.median(spreads) if spreads else None
