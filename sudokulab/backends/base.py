"""The backend contract: one interface in front of every solving paradigm."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokulab import rules as R
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

if TYPE_CHECKING:
    from typing import ClassVar


@dataclass(frozen=True)
class Availability:
    """Whether a backend can run on this machine; if not, why and how to fix it."""

    ok: bool
    version: str = ""
    reason: str = ""
    fix: str = ""


class Deadline:
    """A point in time after which a search gives up; None means never."""

    def __init__(self, timeout: float | None) -> None:
        self.timeout = timeout
        self.at = None if timeout is None else time.perf_counter() + timeout

    def passed(self) -> bool:
        """Whether the deadline is behind us."""
        return self.at is not None and time.perf_counter() >= self.at

    def left(self) -> float | None:
        """Seconds left (never negative), or None without a deadline."""
        return None if self.at is None else max(0.0, self.at - time.perf_counter())


class Backend(ABC):
    """A solving paradigm: builds its own model of a puzzle and searches it.

    Subclasses set `name`, `paradigm` and `supported_rules`, and implement
    `available` and `_solve`. Options (solver name, encoding, ...) are keyword
    arguments of the constructor, given on the command line as `name:key=value,...`.
    """

    name: ClassVar[str] = ""
    paradigm: ClassVar[str] = ""
    supported_rules: ClassVar[tuple[type, ...]] = ()

    def __init__(self, **options: str) -> None:
        if options:
            raise ValueError(f"backend {self.name!r} takes no option "
                             f"{', '.join(sorted(options))}")

    @property
    def label(self) -> str:
        """The name with its options, as given on the command line."""
        return getattr(self, "_label", "") or self.name

    @label.setter
    def label(self, value: str) -> None:
        self._label = value

    @classmethod
    @abstractmethod
    def available(cls) -> Availability:
        """Whether this backend can run here, its engine's version, or why not."""

    def unsupported(self, puzzle: Puzzle) -> str:
        """Why this backend cannot express a rule of the puzzle ('' when it can)."""
        missing = sorted({rule.name for rule in puzzle.rules
                          if not isinstance(rule, self.supported_rules)})
        return f"{self.name} cannot express rule(s): {', '.join(missing)}" if missing else ""

    def solve(self, puzzle: Puzzle, *, limit: int | None = 2,
              timeout: float | None = None) -> Result:
        """Solve, finding up to `limit` solutions (None: all) within `timeout` seconds.

        Never raises for a puzzle: unsupported rules and engine failures come back
        as a Result with status UNSUPPORTED or ERROR and a message.
        """
        if limit is not None and limit < 1:
            raise ValueError("limit must be at least 1 (or None to count all)")
        reason = self.unsupported(puzzle) if puzzle.rules else ""
        if reason:
            return Result(Status.UNSUPPORTED, message=reason)
        try:
            return self._solve(puzzle, limit, Deadline(timeout))
        except Exception as error:  # an engine failure is a result, not a crash
            import traceback

            where = traceback.extract_tb(error.__traceback__)[-1]
            return Result(Status.ERROR, message=f"{type(error).__name__}: {error} "
                                                f"({where.filename}:{where.lineno})")

    @abstractmethod
    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Search for up to `limit` solutions before `deadline`."""

    def describe(self, puzzle: Puzzle) -> str:
        """What this backend builds for the puzzle's rules (the teaching view)."""
        return f"{self.name}: no model description"


CLASSIC: tuple[type, ...] = ()
ALL_RULES: tuple[type, ...] = (R.Diagonal, R.AntiKnight, R.AntiKing, R.NonConsecutive,
                               R.Windoku, R.Jigsaw, R.Cage, R.Parity)
