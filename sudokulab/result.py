"""What a backend returns: a status, the solutions found, a count, statistics, times."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from sudokulab.puzzle import Grid


class Status(str, Enum):
    """The verdict of one solve."""

    UNIQUE = "unique"            # exactly one solution, proven
    MULTIPLE = "multiple"        # two or more solutions (count exact or "at least")
    SOLVED = "solved"            # one solution found, uniqueness not asked (limit=1)
    NONE = "none"                # no solution, proven
    TIMEOUT = "timeout"
    UNSUPPORTED = "unsupported"  # the backend cannot express a rule of this puzzle
    ERROR = "error"
    STALLED = "stalled"          # a step-by-step solver's techniques stopped short: no verdict,
    #                              no failure either (the partial grid is in Result.partial)

    @property
    def is_answer(self) -> bool:
        """Whether this status is a verdict about the puzzle (not a failure to get one)."""
        return self in (Status.UNIQUE, Status.MULTIPLE, Status.SOLVED, Status.NONE)

    @property
    def counts_nothing(self) -> bool:
        """Whether this status has neither a verdict nor a bound (a timeout's count is a
        lower bound): its count is of grids found, not of grids there are."""
        return self in (Status.UNSUPPORTED, Status.ERROR, Status.STALLED)


@dataclass
class Result:
    """One backend's answer for one puzzle."""

    status: Status
    solutions: tuple[Grid, ...] = ()
    count: int = 0
    exact: bool = True
    # the engine's own counters; a few engines add a word (counting's 'won': which way won)
    stats: dict[str, float | str] = field(default_factory=dict)
    build_time: float = 0.0
    solve_time: float = 0.0
    message: str = ""
    partial: Grid = ()  # STALLED: the cells filled when the techniques stopped (0 = blank)

    def __post_init__(self) -> None:
        """No verdict, no exact count (Status.counts_nothing); a timeout's count is a lower
        bound, whoever made the Result (a worker killed past its deadline, say)."""
        if self.status.counts_nothing or self.status is Status.TIMEOUT:
            self.exact = False

    @property
    def time(self) -> float:
        """Model building plus solving, in seconds."""
        return self.build_time + self.solve_time

    @property
    def count_text(self) -> str:
        """The count as people read it: '3' or '>= 2'."""
        return str(self.count) if self.exact else f">= {self.count}"

    @property
    def count_claim(self) -> str:
        """The count an answer states: '' for none found without a verdict or a bound (a
        stall, an error, unsupported), where '0' would read as "the puzzle has none"; a
        count stopped early keeps its lower bound, unless that is 0 (">= 0" says nothing: a
        counter stopped before its count, as Ganak keeps no partial one)."""
        return "" if not self.count and (self.status.counts_nothing or not self.exact) \
            else self.count_text

    def stats_text(self) -> str:
        """The statistics as people read them: 'conflicts=12, cpu_time=0.0155'."""
        return ", ".join(f"{key}={readable(value)}" for key, value in self.stats.items())

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"status": self.status.value, "count": self.count, "exact": self.exact,
                "solutions": [list(s) for s in self.solutions], "stats": self.stats,
                "build_time": self.build_time, "solve_time": self.solve_time,
                "message": self.message,
                **({"partial": list(self.partial)} if self.partial else {})}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        """The inverse of to_json."""
        return cls(Status(data["status"]), tuple(tuple(s) for s in data["solutions"]),
                   data["count"], data["exact"], dict(data["stats"]), data["build_time"],
                   data["solve_time"], data.get("message", ""),
                   tuple(data.get("partial", ())))


class Found:
    """The grids a search finds: every one counted, the first `keep` kept (None: all), so
    that counting millions holds few grids in memory. Reads as the list of grids kept,
    except that its length is the count and [-1] the last grid found, kept or not."""

    def __init__(self, keep: int | None = None) -> None:
        self.keep, self.count = keep, 0
        self.grids: list[Grid] = []
        self.last: Grid = ()

    def append(self, grid: Grid) -> None:
        """Count a grid found; keep it while fewer than `keep` are kept."""
        self.count += 1
        self.last = grid
        if self.keep is None or len(self.grids) < self.keep:
            self.grids.append(grid)

    def counted(self, total: int) -> None:
        """The count set to `total`: a search that counted in its own memory (Prolog's)
        and handed over only the grids kept."""
        if total < len(self.grids):
            raise ValueError(f"{total} grids counted, fewer than the {len(self.grids)} kept")
        self.count = total

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Grid]:
        return iter(self.grids)

    def __getitem__(self, index: int) -> Grid:
        return self.last if index == -1 else self.grids[index]


def verdict(solutions: Sequence[Grid] | Found, limit: int | None, *, complete: bool,
            stats: Mapping[str, float | str] | None = None, build_time: float = 0.0,
            solve_time: float = 0.0, message: str = "") -> Result:
    """The Result of a search that found `solutions`, stopping at `limit`.

    `limit` None means count them all. `complete` says the search space was
    exhausted; otherwise it was cut short (by the timeout) and the result is a
    timeout carrying what was found so far.
    """
    found = len(solutions)
    grids = tuple(tuple(s) for s in solutions)
    if limit is not None and found >= limit:
        status = Status.SOLVED if limit == 1 else Status.MULTIPLE
        exact = False
    elif not complete:
        status, exact = Status.TIMEOUT, False
    else:
        status = (Status.NONE, Status.UNIQUE)[found] if found < 2 else Status.MULTIPLE
        exact = True
    return Result(status, grids, found, exact, dict(stats or {}), build_time, solve_time,
                  message)


def readable(value: object) -> str:
    """A number as people read it: whole numbers whole, others to 3 significant digits
    (at least to the microsecond), never in exponent form."""
    if isinstance(value, bool) or not isinstance(value, float):
        return str(value)
    if value.is_integer():
        return str(int(value))
    digits = max(3 - len(str(int(abs(value)))) if abs(value) >= 1 else 6, 0)
    text = f"{value:.{digits}f}"
    if abs(value) < 1:  # 3 significant digits after the zeros
        lead = len(text.split(".")[1]) - len(text.split(".")[1].lstrip("0"))
        text = f"{value:.{min(lead + 3, 6)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
