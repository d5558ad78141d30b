"""Several engines over the same puzzles at once: the Friedman test with Nemenyi's
critical difference (Demšar 2006, JMLR 7:1-30), and Dolan and Moré's (2002) performance
profiles.

Both read each puzzle's time per engine (Record.time, the median of its repeats) on the
puzzles every engine was given. An engine that did not solve a puzzle right (a timeout,
an error, a rule it cannot express, an answer the cross-check refutes, an answer past
the timeout: competition.solved) is slower on it than every engine that did: its time
is infinite, so it ranks behind every answer, tied with the others that failed. A
puzzle no engine solved says nothing about which is faster and is left out of both.

numpy and scipy are the `stats` extra.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from sudokulab.harness.competition import solved
from sudokulab.harness.records import Record

ALPHA = 0.05        # the level of the Friedman test and of Nemenyi's critical difference
FEWEST = 3          # engines the Friedman test needs (with two, the pairwise test is the one)

Mark = tuple[str, int]  # (backend, puzzle index)


@dataclass(frozen=True)
class Table:
    """Each puzzle's time per engine, infinite where the engine did not solve it right."""

    engines: tuple[str, ...]
    puzzles: tuple[int, ...]   # puzzle indices, one per row
    times: object              # numpy array, puzzles x engines (seconds)


def table(runs: Mapping[str, Sequence[Record]], wrong: Collection[Mark] = (),
          limit: float | None = None) -> Table:
    """The puzzles every engine was given and at least one solved right (within `limit`
    seconds, if given), in index order."""
    import numpy as np

    by_engine = {spec: {r.index: r for r in records} for spec, records in runs.items()}
    given = set.intersection(*(set(found) for found in by_engine.values())) if runs else set()
    rows = []
    for index in sorted(given):
        row = [by_engine[spec][index].time if solved(by_engine[spec][index], wrong, limit)
               else math.inf for spec in runs]
        if any(math.isfinite(t) for t in row):
            rows.append((index, row))
    times = np.array([row for _, row in rows], dtype=float).reshape(len(rows), len(runs))
    return Table(tuple(runs), tuple(i for i, _ in rows), times)


# --- Friedman, Nemenyi, critical difference ------------------------------------------------

@dataclass(frozen=True)
class Ranking:
    """The Friedman test of k engines over N puzzles, and Nemenyi's post-hoc test."""

    engines: tuple[str, ...]      # in the run's order
    ranks: tuple[float, ...]      # each engine's average rank (1: fastest on every puzzle)
    puzzles: int                  # N, the blocks
    unsolved: int                 # of them, puzzles some engine did not solve right
    statistic: float | None       # Friedman's chi-square (ties corrected); None when
    p: float | None               # every puzzle ties every engine
    cd: float                     # Nemenyi's critical difference at ALPHA

    @property
    def rejected(self) -> bool:
        """Whether the Friedman test rejects 'every engine ranks alike' at ALPHA (only then
        does the post-hoc test say anything)."""
        return self.p is not None and self.p < ALPHA

    def rank(self, engine: str) -> float:
        """An engine's average rank."""
        return self.ranks[self.engines.index(engine)]

    def different(self, a: str, b: str) -> bool:
        """Whether Nemenyi's test tells a and b apart: their average ranks differ by at
        least the critical difference."""
        return abs(self.rank(a) - self.rank(b)) >= self.cd

    @property
    def order(self) -> tuple[str, ...]:
        """The engines from the best average rank to the worst."""
        return tuple(sorted(self.engines, key=self.rank))

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        """The largest runs of engines, in rank order, that Nemenyi's test does not tell
        apart (each spans less than the critical difference); the bars of the diagram."""
        order = self.order
        found: list[tuple[int, int]] = []
        for first in range(len(order)):
            last = first
            while last + 1 < len(order) and not self.different(order[first], order[last + 1]):
                last += 1
            if not found or last > found[-1][1]:  # else inside the group before
                found.append((first, last))
        return tuple(order[first:last + 1] for first, last in found)

    def letters(self) -> dict[str, str]:
        """Each engine's groups as letters ('a', 'ab', ...): two engines share a letter
        exactly when the post-hoc test does not tell them apart."""
        return {engine: "".join(chr(ord("a") + k) for k, group in enumerate(self.groups)
                                if engine in group) for engine in self.engines}


def friedman(runs: Mapping[str, Sequence[Record]], wrong: Collection[Mark] = (),
             limit: float | None = None) -> Ranking | None:
    """The Friedman test and Nemenyi's critical difference over the puzzles of `table`;
    None with fewer than FEWEST engines or fewer than 2 such puzzles."""
    import numpy as np
    from scipy import stats

    if len(runs) < FEWEST:
        return None
    found = table(runs, wrong, limit)
    n, k = found.times.shape
    if n < 2:
        return None
    ranks = stats.rankdata(found.times, axis=1)  # ties (failures too) share their mean rank
    tied = bool(np.all(ranks == (k + 1) / 2))     # scipy would divide by zero
    result = None if tied else stats.friedmanchisquare(*ranks.T)
    return Ranking(found.engines, tuple(float(r) for r in ranks.mean(axis=0)), n,
                   int(np.sum(~np.isfinite(found.times).all(axis=1))),
                   None if result is None else float(result.statistic),
                   None if result is None else float(result.pvalue),
                   critical_difference(k, n))


def q_alpha(k: int, alpha: float = ALPHA) -> float:
    """Nemenyi's critical value for k engines: the studentized range over sqrt(2)
    (Demšar's table: 2.343 for 3, 2.569 for 4, 2.728 for 5)."""
    from scipy import stats

    return float(stats.studentized_range.ppf(1 - alpha, k, math.inf) / math.sqrt(2))


def critical_difference(k: int, n: int, alpha: float = ALPHA) -> float:
    """The least difference of average ranks Nemenyi's test calls significant, for k
    engines over n puzzles: q_alpha * sqrt(k (k + 1) / (6 n))."""
    return q_alpha(k, alpha) * math.sqrt(k * (k + 1) / (6 * n))


# --- performance profiles -------------------------------------------------------------------

@dataclass(frozen=True)
class Profile:
    """Dolan and Moré's performance profiles: per puzzle, each engine's time over the best
    engine's time on it (infinite where it did not solve it right)."""

    engines: tuple[str, ...]
    ratios: object             # numpy array, puzzles x engines, each >= 1 or infinite

    @property
    def puzzles(self) -> int:
        """The puzzles profiled."""
        return self.ratios.shape[0]

    def fraction(self, engine: str, tau: float) -> float:
        """rho(tau): the fraction of the puzzles the engine solved within tau times the
        best engine's time (a puzzle it did not solve is within no tau, infinite too)."""
        import numpy as np

        column = self.ratios[:, self.engines.index(engine)]
        return float((np.isfinite(column) & (column <= tau)).mean()) if len(column) else 0.0

    def steps(self, engine: str) -> list[float]:
        """The ratios at which the engine's profile rises, ascending (its finite ones)."""
        import numpy as np

        column = self.ratios[:, self.engines.index(engine)]
        return sorted(float(r) for r in column[np.isfinite(column)])

    @property
    def widest(self) -> float:
        """The largest finite ratio (1.0 when every engine ties the best)."""
        import numpy as np

        finite = self.ratios[np.isfinite(self.ratios)]
        return float(finite.max()) if finite.size else 1.0


def profile(runs: Mapping[str, Sequence[Record]], wrong: Collection[Mark] = (),
            limit: float | None = None, floor: float = 1e-6) -> Profile | None:
    """The performance profiles of the engines over the puzzles of `table` (times below
    `floor` seconds count as `floor`: a ratio needs no 0); None for no such puzzle."""
    import numpy as np

    found = table(runs, wrong, limit)
    if not found.puzzles:
        return None
    times = np.maximum(found.times, floor)
    return Profile(found.engines, times / times.min(axis=1, keepdims=True))
