"""Timing figures and native statistics per backend, from the records of a run."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from sudokulab.harness.records import Record
from sudokulab.result import Status


@dataclass
class Figures:
    """One backend's row in the timing table.

    Times are seconds of the solve call measured in the worker (the median over repeats);
    median, p90 and max are over the answered puzzles (None when there are none), the
    rate over the puzzles the backend tried (an unsupported rule is not tried; None
    when it answered none: a rate of refusals or failures would mean nothing).
    """

    backend: str
    puzzles: int
    answered: int
    timeouts: int
    errors: int
    unsupported: int
    rate: float | None
    median: float | None
    p90: float | None
    max: float | None
    build: float
    solve: float
    warmup: float | None
    native: dict[str, tuple[float | None, float]] = field(default_factory=dict)  # total, mean
    stalled: int = 0  # a step-by-step solver's techniques stopped short (not an error)
    # with repeats (harness.uncertainty): 95 % intervals of puzzles/s, median, p90 and max,
    # and the run-to-run spread of the repeats
    intervals: dict = field(default_factory=dict)
    spread: float | None = None
    # CPU seconds of the solve (the worker's threads and children), the median over the
    # answered puzzles, and the largest resident memory (MB) of an engine process; None
    # for records of a run made before they were measured
    cpu: float | None = None
    memory: float | None = None


def figures(backend: str, records: Sequence[Record]) -> Figures:
    """The figures of one backend over its records."""
    statuses = [r.result.status for r in records]
    answered = sorted(r.time for r in records if r.result.status.is_answer)
    tried = [r.time for r in records if r.result.status != Status.UNSUPPORTED]
    total = sum(tried)
    warmups = [r.warmup for r in records if r.warmup is not None]
    return Figures(
        backend=backend, puzzles=len(records), answered=len(answered),
        timeouts=statuses.count(Status.TIMEOUT), errors=statuses.count(Status.ERROR),
        unsupported=statuses.count(Status.UNSUPPORTED),
        rate=len(tried) / total if answered and total > 0 else None,
        median=statistics.median(answered) if answered else None,
        p90=percentile(answered, 90) if answered else None,
        max=max(answered, default=None),
        build=sum(r.result.build_time for r in records),
        solve=sum(r.result.solve_time for r in records),
        warmup=statistics.median(warmups) if warmups else None,
        native=native(records), stalled=statuses.count(Status.STALLED),
        cpu=_median([r.cpu for r in records if r.result.status.is_answer]),
        memory=max((r.memory for r in records if r.memory is not None), default=None))


def _median(values: Sequence[float | None]) -> float | None:
    """The median of the values measured (None when none was)."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def percentile(ordered: Sequence[float], q: float) -> float:
    """The nearest-rank q-th percentile of sorted values, 0.0 for none."""
    if not ordered:
        return 0.0
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


# Sizes of a model or of memory, not work done: their mean says something, their sum nothing.
SIZES = frozenset({"variables", "clauses", "memory_mb", "columns", "secondary_columns", "rows",
                   "atoms", "rules"})


def native(records: Sequence[Record]) -> dict[str, tuple[float | None, float]]:
    """Each native statistic the engine reported: its total (None for a size) and its mean
    per puzzle run. Work (steps of a technique, conflicts) is averaged over every puzzle
    the engine ran, since one that did not report it did none of it; a size over the
    puzzles that have one."""
    # an unsupported puzzle or an error did none of the engine's work: dividing by them
    # too made an engine that declines most of a mixed file look idle
    ran = sum(r.result.status not in (Status.UNSUPPORTED, Status.ERROR) for r in records)
    totals: dict[str, float] = {}
    counts: dict[str, int] = {}
    for record in records:
        for key, value in record.result.stats.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                totals[key] = totals.get(key, 0) + value
                counts[key] = counts.get(key, 0) + 1
    return {key: (None, totals[key] / counts[key]) if key in SIZES
            else (totals[key], totals[key] / max(ran, 1))
            for key in sorted(totals)}
