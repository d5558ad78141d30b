"""What a run produces: one Record per backend and puzzle, as runs.jsonl stores it.

Reports, plots, statistics and the run log read records; only the runner (worker
processes) and the cluster make them, so none of the readers imports process code.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from sudokulab.result import Result


@dataclass
class Record:
    """One backend's answer for one puzzle, as stored in runs.jsonl."""

    backend: str
    index: int
    result: Result
    time: float                      # seconds for the solve call, median over repeats
    times: list[float] = field(default_factory=list)
    warmup: float | None = None      # the untimed first solve of a fresh worker

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        return {"backend": self.backend, "index": self.index, "time": self.time,
                "times": self.times, "warmup": self.warmup, "result": self.result.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> Record:
        """The inverse of to_json."""
        return cls(data["backend"], data["index"], Result.from_json(data["result"]),
                   data["time"], list(data["times"]), data["warmup"])


def cores() -> int:
    """The CPU cores this process may use: how many workers a run starts by default, and
    what its records were measured on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
