"""The measures of the SAT competitions, from the records of a run: PAR-2, the virtual
best solver and each engine's share of it, and puzzles solved within fixed times.

A puzzle counts as solved by an engine when it answered within the time limit (its
median time, as every figure takes it) and the cross-check did not refute the answer
(`wrong`); everything else (a timeout, an error, an unsupported rule, a wrong answer, an
answer past the limit: the engine's clock is coarser than the harness's) is unsolved and
costs PAR-2 twice the limit. The solved column, PAR-2 and the VBS use this one
definition. A puzzle whose repeats ended differently (answered once, timed out once) is
counted by its median repeat, and the mixed column says how many there were.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from sudokulab.harness.records import Record

VBS = "virtual best"
WITHIN = (0.1, 1.0, 10.0)  # seconds: the solved-within columns
PENALTY = 2                # PAR-2: an unsolved puzzle costs twice the limit

Mark = tuple[str, int]  # (backend, puzzle index)


def solved(record: Record, wrong: Collection[Mark] = (), limit: float | None = None) -> bool:
    """Whether the record is an answer the cross-check let stand, within `limit` seconds
    (None: any time)."""
    return (record.result.status.is_answer and (record.backend, record.index) not in wrong
            and (limit is None or record.time <= limit))


def par(records: Sequence[Record], limit: float | None, wrong: Collection[Mark] = (),
        total: int | None = None) -> float | None:
    """Penalised average runtime over `total` puzzles (default: one per record): the mean
    time, a puzzle unsolved within the limit (or without a record) counted as PENALTY
    times the limit; None without a limit (nothing to penalise with) or puzzles."""
    total = len(records) if total is None else total
    if limit is None or not total:
        return None
    times = [r.time for r in records if solved(r, wrong, limit)]
    return (sum(times) + PENALTY * limit * (total - len(times))) / total


def within(records: Sequence[Record], seconds: float, wrong: Collection[Mark] = ()) -> int:
    """Puzzles solved in at most `seconds` each."""
    return sum(1 for r in records if solved(r, wrong, seconds))


@dataclass(frozen=True)
class Best:
    """The virtual best solver: per puzzle, the fastest engine that solved it."""

    times: dict[int, float]   # puzzle index -> the best time
    winners: dict[int, str]   # puzzle index -> the engine that had it
    puzzles: int              # puzzles any engine was given

    def share(self, spec: str) -> float:
        """The fraction of the VBS's puzzles that `spec` was fastest on."""
        won = sum(1 for w in self.winners.values() if w == spec)
        return won / len(self.winners) if self.winners else 0.0

    def records(self, spec: str = VBS) -> list[Record]:
        """The VBS as records of an engine of its own (for the tables and the cactus)."""
        from sudokulab.result import Result, Status

        return [Record(spec, i, Result(Status.UNIQUE), t, [t])
                for i, t in sorted(self.times.items())]


def virtual_best(runs: Mapping[str, Sequence[Record]], wrong: Collection[Mark] = (),
                 limit: float | None = None) -> Best:
    """The fastest engine per puzzle among those that solved it within `limit` (ties: the
    first in the run's order)."""
    times: dict[int, float] = {}
    winners: dict[int, str] = {}
    indices: set[int] = set()
    for spec, records in runs.items():
        for r in records:
            indices.add(r.index)
            if solved(r, wrong, limit) and (r.index not in times or r.time < times[r.index]):
                times[r.index], winners[r.index] = r.time, spec
    return Best(times, winners, len(indices))


def rows(runs: Mapping[str, Sequence[Record]], limit: float | None,
         wrong: Collection[Mark] = ()) -> list[dict]:
    """One row per engine, then the VBS: solved (within the limit), PAR-2 (s), share of
    the VBS, solved within each of WITHIN (those past the limit are left out), and, when
    any puzzle's repeats ended differently, how many did."""
    best = virtual_best(runs, wrong, limit)
    mixed = any(r.mixed for records in runs.values() for r in records)
    marks = [s for s in WITHIN if limit is None or s <= limit]
    table = []
    for spec, records in [*runs.items(), (VBS, best.records())]:
        total = best.puzzles if spec == VBS else len(records)
        penalised = par(records, limit, wrong, total)
        row = {"backend": spec, "solved": sum(solved(r, wrong, limit) for r in records),
               "PAR-2 s": None if penalised is None else round(penalised, 4),
               "VBS share": "" if spec == VBS else f"{best.share(spec):.0%}"}
        row.update({f"≤ {s:g} s": within(records, s, wrong) for s in marks})
        if mixed:
            row["mixed repeats"] = "" if spec == VBS else sum(r.mixed for r in records)
        table.append(row)
    return table
