"""What a run produces: one Record per backend, puzzle and pass, as runs.jsonl stores it,
and one per backend and puzzle once its passes are merged.

Reports, plots, statistics and the run log read records; only the runner (worker
processes) and the cluster make them, so none of the readers imports process code.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sudokulab.result import Result


@dataclass
class Record:
    """One backend's answer for one puzzle, as stored in runs.jsonl."""

    backend: str
    index: int
    result: Result
    time: float                      # seconds for the solve call, median over repeats
    times: list[float] = field(default_factory=list)   # each repeat's, in the order run
    warmup: float | None = None      # the untimed first solve of a fresh worker
    cpu: float | None = None         # CPU seconds of the solve (the worker's and its
    cpus: list[float | None] = field(default_factory=list)  # children's), median and
                                                            # each (None: not measured)
    memory: float | None = None      # MB: the worker process's peak resident memory
    statuses: list[str] = field(default_factory=list)  # each repeat's status, when they
                                                        # differ (empty when they agree)
    repeat: int | None = None        # which pass over the puzzles made this line (1, 2, ...):
                                     # None once a puzzle's passes are merged (`merge`)

    @property
    def solves(self) -> int:
        """How many timed solves (passes) the record holds: one per repeat merged in."""
        return len(self.times or [self.time])

    @property
    def mixed(self) -> bool:
        """Whether its repeats ended differently (say, answered once and timed out once)."""
        return len(set(self.statuses)) > 1

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        data = {"backend": self.backend, "index": self.index, "time": self.time,
                "times": self.times, "warmup": self.warmup, "cpu": self.cpu,
                "cpus": self.cpus, "memory": self.memory}
        if self.statuses:
            data["statuses"] = self.statuses
        if self.repeat is not None:
            data["repeat"] = self.repeat
        return data | {"result": self.result.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> Record:
        """The inverse of to_json (a record of an older run has no CPU time or memory)."""
        return cls(data["backend"], data["index"], Result.from_json(data["result"]),
                   data["time"], list(data["times"]), data["warmup"], data.get("cpu"),
                   list(data.get("cpus", [])), data.get("memory"),
                   list(data.get("statuses", [])), data.get("repeat"))


def merge(passes: Sequence[Record]) -> Record:
    """One puzzle's records of several passes (the same backend and puzzle) as one: every
    repeat's time in the order of the passes, their median as its time, and the result
    of the repeat whose time is the median (the lower middle one, for an even count);
    `statuses` holds each repeat's status when they differ."""
    if len(passes) == 1:
        return passes[0]
    ordered = sorted(passes, key=lambda r: r.repeat or 0)
    times = [t for r in ordered for t in (r.times or [r.time])]
    # a pass whose worker was killed has a time and no CPU time: None keeps them aligned
    cpus = [c for r in ordered for c in (r.cpus or [None] * len(r.times or [r.time]))]
    measured = [c for c in cpus if c is not None]
    statuses = [s for r in ordered for s in (r.statuses or [r.result.status.value] *
                                              len(r.times or [r.time]))]
    middle = sorted(ordered, key=lambda r: r.time)[(len(ordered) - 1) // 2]
    memories = [r.memory for r in ordered if r.memory is not None]
    warmups = [r.warmup for r in ordered if r.warmup is not None]
    return Record(middle.backend, middle.index, middle.result, statistics.median(times),
                  times, warmups[0] if warmups else None,
                  statistics.median(measured) if measured else None,
                  cpus if measured else [],
                  max(memories) if memories else None,
                  statuses if len(set(statuses)) > 1 else [])


def merged(records: Iterable[Record]) -> list[Record]:
    """Records with each (backend, puzzle)'s passes merged, in order of first appearance."""
    groups: dict[tuple[str, int], list[Record]] = {}
    for record in records:
        groups.setdefault((record.backend, record.index), []).append(record)
    return [merge(group) for group in groups.values()]


def cores() -> int:
    """The CPU cores this process may use: how many workers a run starts by default, and
    what its records were measured on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
