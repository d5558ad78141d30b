"""Backends that misbehave on purpose, to show that the harness catches and survives them.

They are registered only where a test or a benchmark asks for them: `write_plugin(dir)`
writes a dist-info folder declaring them in the `sudokulab.backends` entry-point group;
put that folder on sys.path (this process and, through multiprocessing, the workers)
and PYTHONPATH (the processes this one runs).

- test-noop            answers nothing, at once (measures the harness's own overhead)
- test-wrong:mode=M    a wrong answer: `repeat` a digit, claim `unique` with another
                       valid grid when there are several, or claim `none`
- test-hang:how=H      hangs, ignoring its timeout: `sleep`s, or holds the `gil`
- test-crash:how=H     ends its own process: `kill` (SIGKILL), `exit` (os._exit) or `segv`
- test-partial:hold=H,found=K  finds K solutions (through norvig), then creates H.ready
                       and waits while H exists; Ctrl-C then stops it with those K kept
- test-count:log=F     solves correctly (through norvig) and appends each puzzle to file F;
                       with hold=H,after=N, once F holds more than N puzzles it waits while
                       file H exists (a run held midway, for a test to interrupt); with
                       hang=LINE or crash=LINE, it hangs on, or kills its process at, the
                       puzzle of that line only (a bad puzzle in the middle of a batch)
"""

from __future__ import annotations

import ctypes
import os
import re
import signal
import time
from collections.abc import Mapping
from pathlib import Path

from sudokulab import rules as R
from sudokulab.backends import PLUGIN_GROUP, make_backend
from sudokulab.backends.base import Availability, Backend, Deadline
from sudokulab.formats.text import format_line
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

TEST_BACKENDS = {
    "test-noop": "NoopBackend",
    "test-wrong": "WrongBackend",
    "test-hang": "HangBackend",
    "test-crash": "CrashBackend",
    "test-count": "CountingBackend",
    "test-partial": "PartialBackend",
}


def write_plugin(directory: str | Path, entry_points: Mapping[str, str] | None = None,
                 name: str = "sudokulab_test_backends") -> Path:
    """Declare backends in `directory` as pip would install a plugin; the directory.

    `entry_points` maps backend names to 'module:Class' (default: the test backends).
    """
    directory = Path(directory)
    if entry_points is None:
        entry_points = {backend: f"{__name__}:{cls}" for backend, cls in TEST_BACKENDS.items()}
    info = directory / f"{name}-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n")
    lines = [f"{backend} = {target}" for backend, target in entry_points.items()]
    (info / "entry_points.txt").write_text(f"[{PLUGIN_GROUP}]\n" + "\n".join(lines) + "\n")
    return directory


class TestBackend(Backend):
    """Common ground: always available, every rule accepted."""

    __test__ = False  # not a pytest test class, despite the name
    paradigm = "test double"
    supported_rules = R.RULE_TYPES

    @classmethod
    def available(cls) -> Availability:
        """Always available: it is part of the harness."""
        return Availability(True, version="test")


class NoopBackend(TestBackend):
    """Returns the same non-answer at once: whatever time a run takes is the harness's."""

    name = "test-noop"

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        return Result(Status.UNSUPPORTED, message="the no-op test backend answers nothing")


class WrongBackend(TestBackend):
    """Solves correctly through norvig, then spoils the answer as `mode` says."""

    name = "test-wrong"
    modes = ("repeat", "other", "none")

    def __init__(self, mode: str = "repeat") -> None:
        if mode not in self.modes:
            raise ValueError(f"mode must be one of {', '.join(self.modes)}")
        self.mode = mode
        self.engine = make_backend("norvig")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        if self.mode == "none":
            return Result(Status.NONE)
        right = self.engine.solve(puzzle, limit=2, timeout=deadline.left())
        if not right.solutions:
            return right
        if self.mode == "other":  # the last grid found, claimed as the only one
            return Result(Status.UNIQUE, (right.solutions[-1],), 1, True)
        return Result(Status.UNIQUE, (repeat_a_digit(puzzle, right.solutions[0]),), 1, True)


def repeat_a_digit(puzzle: Puzzle, grid: tuple[int, ...]) -> tuple[int, ...]:
    """The grid with its first blank cell copied from its row neighbour: a repeated digit."""
    n = puzzle.n
    cell = puzzle.givens.index(0)
    neighbour = cell + 1 if cell % n < n - 1 else cell - 1
    spoiled = list(grid)
    spoiled[cell] = grid[neighbour]
    return tuple(spoiled)


class HangBackend(TestBackend):
    """Never returns, whatever the timeout: only killing its process stops it. It sleeps,
    or with how=gil it keeps Python's GIL, as an engine stuck in native code may (no other
    thread of its process runs then)."""

    name = "test-hang"
    ways = ("sleep", "gil")

    def __init__(self, how: str = "sleep") -> None:
        if how not in self.ways:
            raise ValueError(f"how must be one of {', '.join(self.ways)}")
        self.how = how

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        while self.how == "gil":  # a regular expression that backtracks for ages in C
            re.match(r"(a+)+$", "a" * 64 + "b")
        while True:
            time.sleep(3600)


class CrashBackend(TestBackend):
    """Ends its own process in the middle of a solve, as a broken native engine would."""

    name = "test-crash"
    ways = ("kill", "exit", "segv")

    def __init__(self, how: str = "kill") -> None:
        if how not in self.ways:
            raise ValueError(f"how must be one of {', '.join(self.ways)}")
        self.how = how

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        if self.how == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if self.how == "exit":
            os._exit(3)
        ctypes.string_at(0)  # reads address 0: a segmentation fault
        raise AssertionError("unreachable")


class CountingBackend(TestBackend):
    """Solves correctly through norvig and logs every puzzle it is asked, one line each."""

    name = "test-count"

    def __init__(self, log: str, delay: str = "0", hold: str = "", after: str = "0",
                 hang: str = "", crash: str = "") -> None:
        self.log = Path(log)
        self.delay = float(delay)
        self.hold, self.after = (Path(hold) if hold else None), int(after)
        self.hang, self.crash = hang, crash
        self.engine = make_backend("norvig")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        line = format_line(puzzle)
        with self.log.open("a") as log:
            log.write(line + "\n")
        if line == self.crash:
            os.kill(os.getpid(), signal.SIGKILL)
        while line == self.hang:
            time.sleep(3600)
        time.sleep(self.delay)
        # held, not merely slow: a test interrupts the run midway however busy the machine
        while self.hold is not None and self.hold.exists() and self._asked() > self.after:
            time.sleep(0.01)
        return self.engine.solve(puzzle, limit=limit, timeout=deadline.left())

    def _asked(self) -> int:
        """How many puzzles the log holds."""
        return len(self.log.read_text().splitlines())


class PartialBackend(TestBackend):
    """Finds some solutions, then waits to be interrupted: a solve stopped midway on cue."""

    name = "test-partial"

    def __init__(self, hold: str, found: str = "3") -> None:
        self.hold, self.found = Path(hold), int(found)
        self.engine = make_backend("norvig")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        from sudokulab.backends.base import interrupted

        solutions = self.engine.solve(puzzle, limit=self.found).solutions
        try:  # ready only inside: a Ctrl-C right after the cue still finds the solutions kept
            Path(f"{self.hold}.ready").touch()
            while self.hold.exists():
                time.sleep(0.01)
        except KeyboardInterrupt:
            raise interrupted(solutions, limit) from None
        return Result(Status.ERROR, message="the hold file went away: no interrupt came")
