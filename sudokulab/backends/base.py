"""The backend contract: one interface in front of every solving paradigm."""

from __future__ import annotations

import contextlib
import inspect
import math
import os
import select
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokulab import errors
from sudokulab.errors import Interrupted
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.puzzle import clash as givens_clash
from sudokulab.result import Found, Result, Status, verdict

if TYPE_CHECKING:
    from typing import ClassVar

    from sudokulab.backends.timeline import Timeline
    from sudokulab.backends.trace import Recorder


@dataclass(frozen=True)
class Availability:
    """Whether a backend can run on this machine; if not, why and how to fix it."""

    ok: bool
    version: str = ""
    reason: str = ""
    fix: str = ""

    def refusal(self, name: str) -> str:
        """'backend NAME is not available: REASON; FIX', the one line a command prints."""
        fix = f"; {self.fix}" if self.fix else ""
        return f"backend {name} is not available: {self.reason}{fix}"


@dataclass(frozen=True)
class Need:
    """A Python package a backend's engine imports (where it is used, never at module
    level), and how to install it."""

    module: str  # its top-level module: 'pysat', 'ortools'
    fix: str  # how to get it: "pip install 'sudokulab[cpsat]'"

    def missing(self) -> str:
        """Why the package is not there ('' when it is). Looked up, not imported: asking
        costs no engine's start-up, and a module that must not load before its set-up
        (janus) can be asked about too."""
        from sudokulab.backends.extras import absent

        return absent(self.module)


INTERRUPTED = errors.INTERRUPTED


def interrupted(solutions: Sequence[Grid] | Found, limit: int | None, **times) -> Interrupted:
    """The Interrupted exception of a search stopped after finding `solutions`."""
    found = len(solutions)
    return Interrupted(verdict(solutions, limit, complete=False,
                               message=f"{errors.stopped_by()}: {found:,} solution(s) found "
                                       f"before it",
                               **times))


class CtrlC:
    """Whether Ctrl-C came during a `ctrl_c` block (the block then stops its engine)."""

    def __init__(self, stop: Callable[[], None]) -> None:
        self.stop, self.pressed, self.stopped = stop, False, False


class _Watcher:
    """One thread per process that hears SIGINT through Python's wakeup fd.

    Python runs a signal handler only between bytecodes of the main thread, so an
    engine running native code (SWI-Prolog, Z3) would hear Ctrl-C only once it
    returns. The C-level handler also writes the signal number to the wakeup fd
    at once: this thread reads it and asks the engine to stop. The pipe is read only
    under the lock, by this thread or by a block as it ends: a signal number a block
    left behind (this thread may wait for the GIL while an engine holds it)
    is drained by that block, never taken for a Ctrl-C during the next one.
    """

    def __init__(self) -> None:
        self.read, self.write = os.pipe()
        os.set_blocking(self.write, False)  # set_wakeup_fd requires it
        os.set_blocking(self.read, False)  # drain() must not wait
        self.lock = threading.Lock()
        self.current: CtrlC | None = None
        threading.Thread(target=self.listen, daemon=True, name="sudokulab-ctrl-c").start()

    def listen(self) -> None:
        """Forever: on SIGINT (or SIGTERM, answered as Ctrl-C, or SIGHUP where it is
        answered as SIGTERM), stop the block running now. SIGHUP's own handler runs once
        the engine returns: the stop is SIGTERM's then, as for a hangup anywhere else."""
        # the signals go to the main thread, whose C handler writes the wakeup fd this
        # thread reads: delivered here instead, they would run Python's handler in the
        # main thread even inside an `errors.whole()` block, which masks them there only
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM,
                                                  signal.SIGHUP})
        while True:
            select.select([self.read], [], [])
            with self.lock:
                heard = set(self.drain())
                stops = {signal.SIGINT, signal.SIGTERM} | (
                    {signal.SIGHUP} if errors.hangup_is_sigterm() else set())
                if (stops & heard and self.current is not None
                        and not self.current.stopped):
                    self.current.pressed = self.current.stopped = True
                    errors.stop_heard()  # a second stop soon after is let go
                    self.current.stop()  # once: a second Ctrl-C has nothing more to do

    def drain(self) -> bytes:
        """The signal numbers waiting in the pipe, read (call it holding the lock)."""
        try:
            return os.read(self.read, 512)
        except BlockingIOError:
            return b""


_watcher: _Watcher | None = None


@contextlib.contextmanager
def ctrl_c(stop: Callable[[], None]) -> Iterator[CtrlC]:
    """While the block runs, Ctrl-C calls `stop` (from another thread) and sets `pressed`
    instead of raising KeyboardInterrupt; the caller then raises `interrupted(...)`.

    Only where Ctrl-C would raise KeyboardInterrupt in the main thread; elsewhere (a
    worker that ignores SIGINT, another thread) the block runs as it is. Where Ctrl-C is
    ignored (a script's `cmd &`) but SIGTERM is answered as Ctrl-C, the block hears SIGTERM
    alone: an engine in native code, or a run's workers, would not hear it otherwise, and
    `kill` would lose what they found.
    """
    global _watcher
    state = CtrlC(stop)
    hearing = signal.getsignal(signal.SIGINT)
    sigterm_alone = hearing is signal.SIG_IGN and errors.sigterm_is_ctrl_c()
    if (threading.current_thread() is not threading.main_thread()
            or (not errors.hears_ctrl_c(hearing) and not sigterm_alone)):
        yield state
        return
    if _watcher is None:
        _watcher = _Watcher()

    def note(signum, frame) -> None:
        if signum == signal.SIGTERM:  # in place of sigterm_as_ctrl_c's own handler
            errors.heard_sigterm(signum)
        if not state.pressed:
            errors.stop_heard()
        state.pressed = True

    note.keeps_what_was_found = True  # type: ignore[attr-defined]  # errors.sigterm_stops
    heard = signal.SIGTERM if sigterm_alone else signal.SIGINT  # Ctrl-C stays ignored
    handler = signal.signal(heard, note)
    with _watcher.lock:
        _watcher.current = state
    wakeup = signal.set_wakeup_fd(_watcher.write, warn_on_full_buffer=False)
    try:
        yield state
    finally:
        signal.set_wakeup_fd(wakeup)
        with _watcher.lock:  # a Ctrl-C of this block not yet heard is note()'s alone
            _watcher.drain()
            _watcher.current = None
        signal.signal(heard, handler)  # runs note() first for a signal pending


class Deadline:
    """A point in time after which a search gives up; None (or infinity) means never."""

    def __init__(self, timeout: float | None) -> None:
        if timeout is not None and math.isinf(timeout):
            timeout = None
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

    Subclasses set `name`, `paradigm` and `supported_rules` (and `complete` when they
    are no complete search), declare the packages their engine imports in `needs`, and
    implement `_solve` (and `ready`, to name the engine's version). Options (solver
    name, encoding, ...) are keyword arguments of the constructor, given on the command
    line as `name:key=value,...`. tests/test_contract.py holds every backend to this.
    """

    name: ClassVar[str] = ""
    paradigm: ClassVar[str] = ""
    # (a class's, or an instance's when its options choose a model: smt)
    supported_rules: tuple[type, ...] = ()
    # A complete search finds every solution and proves there is none; a backend that is
    # not (human-style steps) may answer STALLED, no verdict, where a search would go on.
    complete: ClassVar[bool] = True
    # Whether it takes a puzzle of several overlapping grids (a samurai's layout); one that
    # does not answers UNSUPPORTED, naming the layout.
    multi_grid: ClassVar[bool] = False
    # Whether its search reports its events to a sudokulab.backends.trace.Recorder held in its
    # `trace` attribute (`solve --trace`, the page's search you can watch).
    records_trace: ClassVar[bool] = False
    trace: Recorder | None  # set only on a backend that records_trace
    # Whether it samples its engine's counters into a sudokulab.backends.timeline.Timeline held in
    # its `timeline` attribute (`solve --timeline`, the page's learning charts).
    keeps_timeline: ClassVar[bool] = False
    timeline: Timeline | None  # set only on a backend that keeps_timeline
    # Why each solve pays a fixed cost before its search ('' when it does not: an engine
    # started as a process, a model flattened): tests that solve many small puzzles, or
    # cross-check big ones, give it fewer, saying this (its answers are checked elsewhere).
    solve_overhead: ClassVar[str] = ""
    # Why listing thousands of grids is slow in this engine ('' when it is not): the tests
    # that list thousands skip it or list a few, saying this (smaller counts still test it).
    slow_to_enumerate: ClassVar[str] = ""
    # The options (`name:key=value`) by name, each saying the values it allows, checked
    # before the constructor runs; {} for none. None (a backend or plugin that declares
    # none): the constructor's keyword arguments, given as text and judged by it alone.
    option_table: ClassVar[dict[str, Option] | None] = None
    # The packages its engine imports, each where it is used: this module and the registry
    # load without them, `available` names the first one missing with its fix, and
    # `make_backend` refuses the backend (Unavailable) before any option needs them.
    needs: ClassVar[tuple[Need, ...]] = ()
    # How many grids the solve under way keeps (`solve(keep=)`; None: all): its `new_found()`.
    _keep: int | None = None

    def __init__(self, **options: object) -> None:
        if options:
            raise ValueError(unknown_options(type(self), options))

    @classmethod
    def option_names(cls) -> list[str]:
        """The options it takes (`name:key=value`), in the table's or constructor's order."""
        if cls.option_table is not None:
            return list(cls.option_table)
        return [p.name for p in _parameters(cls) if p.name != "self"
                and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]

    @classmethod
    def takes_any_option(cls) -> bool:
        """Whether it takes keys it does not name (a constructor with **options, no table)."""
        return cls.option_table is None and any(p.kind == p.VAR_KEYWORD
                                                for p in _parameters(cls))

    @classmethod
    def read_options(cls, given: dict[str, str]) -> dict[str, object]:
        """The constructor's keyword arguments from a spec's `key=value` texts.

        ValueError, naming the backend, for an unknown key or an empty value, and for a
        value its Option does not allow, saying what it allows.
        """
        unknown = set(given) - set(cls.option_names())
        if unknown and not cls.takes_any_option():
            raise ValueError(unknown_options(cls, unknown))
        table = cls.option_table or {}
        values: dict[str, object] = {}
        for key, text in given.items():
            option = table.get(key)
            allowed = f"it must be {option.allowed()}" if option else "give it a value"
            if not text:
                raise ValueError(f"{cls.name}: {key} is empty; {allowed}")
            if option is None:
                values[key] = text
                continue
            try:
                values[key] = option.read(text)
            except ValueError:
                raise ValueError(f"{cls.name}: {key} must be {option.allowed()}, "
                                 f"not {text}") from None
        return values

    @classmethod
    def option_help(cls) -> list[str]:
        """One line per option: 'workers: a whole number from 1 to 64 (default 1): ...'."""
        defaults = {p.name: p.default for p in _parameters(cls)}
        lines = []
        for key in cls.option_names():
            option = (cls.option_table or {}).get(key)
            default = defaults.get(key, inspect.Parameter.empty)
            try:
                allowed = option.allowed() if option else "text"
            except ImportError:  # the engine lists them, and it is not installed
                allowed = "as its engine lists them (not installed here)"
            line = f"{key}: {allowed}"
            if default not in (inspect.Parameter.empty, ""):
                line += f" (default: {default})"
            lines.append(line + (f": {option.help}" if option and option.help else ""))
        return lines

    @property
    def label(self) -> str:
        """The name with its options, as given on the command line."""
        return getattr(self, "_label", "") or self.name

    @label.setter
    def label(self, value: str) -> None:
        self._label = value

    @classmethod
    def available(cls) -> Availability:
        """Whether this backend can run here, its engine's version, or why not: every one
        of `needs` imports, then `ready` says."""
        return cls.missing() or cls.ready()

    @classmethod
    def missing(cls) -> Availability | None:
        """The first of `needs` that does not import, as an Availability saying why and
        how to fix it; None when they all import."""
        for need in cls.needs:
            if why := need.missing():
                return Availability(False, reason=why, fix=need.fix)
        return None

    @classmethod
    def ready(cls) -> Availability:
        """Once `needs` import: the engine's version, or why it still cannot run (a
        solver that does not load). Plain Python by default."""
        return plain_python()

    def unsupported(self, puzzle: Puzzle) -> str:
        """Why this backend cannot express a rule of the puzzle ('' when it can)."""
        if puzzle.layout is not None and not self.multi_grid:
            return f"{self.name} cannot solve multi-grid puzzles ({puzzle.layout.name})"
        missing = sorted({rule.name for rule in puzzle.rules
                          if not isinstance(rule, self.supported_rules)})
        return f"{self.name} cannot express rule(s): {', '.join(missing)}" if missing else ""

    def solve(self, puzzle: Puzzle, *, limit: int | None = 2,
              timeout: float | None = None, keep: int | None = None) -> Result:
        """Solve, finding up to `limit` solutions (None: all) within `timeout` seconds,
        keeping the first `keep` grids found (None: all; the count counts every one).

        Never raises for a puzzle: unsupported rules and engine failures come back
        as a Result with status UNSUPPORTED or ERROR and a message; givens that clash
        come back as NONE with the clash named, whatever the backend. An infinite
        timeout is no timeout. Ctrl-C raises Interrupted, holding the solutions found.
        """
        if limit is not None and limit < 1:
            raise ValueError("limit must be at least 1 (or None to count all)")
        if timeout is not None and not timeout >= 0:  # negative, or nan
            raise ValueError(f"timeout must be 0 or more seconds, not {timeout}")
        if keep is not None and keep < 0:
            raise ValueError(f"keep must be 0 or more grids, not {keep}")
        self._keep = keep
        clash = givens_clash(puzzle)
        if clash:  # well formed, and no solution: every backend says so alike
            return Result(Status.NONE, message=clash)
        reason = self.unsupported(puzzle) if puzzle.rules or puzzle.layout else ""
        if reason:
            return Result(Status.UNSUPPORTED, message=reason)
        try:
            return kept(self._solve(puzzle, listed(limit), Deadline(timeout)), keep)
        except Interrupted as stop:
            stop.result = kept(stop.result, keep)
            raise
        except KeyboardInterrupt:  # a backend that keeps nothing: nothing was found
            raise interrupted((), limit) from None
        except errors.UnsupportedRule as error:  # a model's guard: a rule it lacks, no failure
            return Result(Status.UNSUPPORTED, message=str(error))
        except Exception as error:  # an engine failure is a result, not a crash
            if errors.stop_behind(error) is not None:  # Ctrl-C as the engine's library loaded
                raise interrupted((), limit) from None
            import traceback

            where = traceback.extract_tb(error.__traceback__)[-1]
            return Result(Status.ERROR, message=f"{type(error).__name__}: {error} "
                                                f"({where.filename}:{where.lineno})")

    def forget(self, puzzle: Puzzle) -> None:  # noqa: B027 (a hook most engines skip)
        """Drop what earlier solves taught the engine (learnt clauses, a warm solver's
        state), so that the next solve of `puzzle` runs and counts as in a fresh process:
        a cold measurement. An engine that keeps nothing between solves has nothing to do;
        one that does rebuilds its model here, outside the timed solve."""

    def new_found(self) -> Found:
        """An empty collection for the grids this solve finds, keeping as many as asked."""
        return Found(self._keep)

    @abstractmethod
    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Search for up to `limit` solutions before `deadline`."""

    def describe(self, puzzle: Puzzle) -> str:
        """What this backend builds for the puzzle's rules (the teaching view)."""
        return f"{self.name}: no model description"


# No search lists more solutions than this: a larger limit asks for every solution, and is
# passed on as None (MiniZinc reads a solution limit as a 32-bit int, clingo and the
# compiled engine as C integers: 2**31 or 2**63 was an engine error, not an answer).
MOST_LISTED = 2**31 - 1


def listed(limit: int | None) -> int | None:
    """The limit an engine is given: None (every solution) for one past MOST_LISTED."""
    return None if limit is not None and limit > MOST_LISTED else limit


def kept(result: Result, keep: int | None) -> Result:
    """The result with its first `keep` grids only: an engine that keeps every grid it
    finds (a plugin that does not use `new_found`) answers as the others do."""
    if keep is None or len(result.solutions) <= keep:
        return result
    from dataclasses import replace

    return replace(result, solutions=result.solutions[:keep])


def plain_python() -> Availability:
    """The availability of a backend written in plain Python: always, this Python's version."""
    import platform

    return Availability(True, version=f"Python {platform.python_version()}")


def unknown_options(cls: type[Backend], options: Iterable[str]) -> str:
    """'sat has no option foo; its options: solver, encoding, amo'."""
    unknown = ", ".join(sorted(options))
    valid = cls.option_names()
    if not valid:
        return f"{cls.name} takes no option {unknown}: it has no options"
    return f"{cls.name} has no option {unknown}; its options: {', '.join(valid)}"


def _parameters(cls: type[Backend]) -> list[inspect.Parameter]:
    """The constructor's parameters, `self` included."""
    return list(inspect.signature(cls.__init__).parameters.values())


# --- option values: what each `key=value` of a backend spec allows ----------------------

YES, NO = ("yes", "true", "1", "on"), ("no", "false", "0", "off")


@dataclass(frozen=True, kw_only=True)
class Option:
    """One backend option: a line of help and the values it allows (any text here; the
    subclasses narrow it). The default is the constructor's."""

    help: str = ""

    def allowed(self) -> str:
        """What it allows, to end 'KEY must be ...'."""
        return "any text"

    def read(self, text: str) -> object:
        """The value the constructor takes for a text; ValueError if not allowed."""
        return text


@dataclass(frozen=True)
class Choice(Option):
    """One word of a list; `fold`: in any case, read as the list spells it. `words` may be
    a function, for a list that costs an import to make."""

    words: tuple[str, ...] | Callable[[], Iterable[str]] = ()
    fold: bool = False

    def choices(self) -> tuple[str, ...]:
        """The words it allows, in order."""
        return tuple(self.words() if callable(self.words) else self.words)

    def allowed(self) -> str:
        """'bool, bitvec or int'."""
        *first, last = self.choices()
        return f"{', '.join(first)} or {last}" if first else last

    def read(self, text: str) -> str:
        """The word as the list spells it."""
        for word in self.choices():
            if text == word or (self.fold and text.lower() == word.lower()):
                return word
        raise ValueError(text)


@dataclass(frozen=True)
class Whole(Option):
    """A whole number from `low` to `high`."""

    low: int = 1
    high: int = 1

    def allowed(self) -> str:
        """'a whole number from 1 to 64'."""
        return f"a whole number from {self.low} to {self.high}"

    def read(self, text: str) -> int:
        """The number."""
        number = int(text)  # ValueError when it is none
        if not self.low <= number <= self.high:
            raise ValueError(text)
        return number


@dataclass(frozen=True)
class YesNo(Option):
    """A switch: yes or no (true/false, 1/0, on/off alike), read as 'yes' or 'no'."""

    def allowed(self) -> str:
        """'yes or no'."""
        return "yes or no"

    def read(self, text: str) -> str:
        """'yes' or 'no'."""
        if text.lower() in YES + NO:
            return "yes" if text.lower() in YES else "no"
        raise ValueError(text)

