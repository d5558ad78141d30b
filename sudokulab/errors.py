"""What can go wrong, as exceptions and exit codes: one home, imported by everything else.

A command line tool is judged by its failures: every kind of bad input has one exception
type here, the command turns it into one line on stderr and a documented exit code. The
option values every command takes (counts, seconds, ports) are checked here too, once.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType

    from sudokulab.certificates.verify import Report
    from sudokulab.generate.setter import SetterReport
    from sudokulab.harness.comparison import Comparison
    from sudokulab.result import Result

class Exit(IntEnum):
    """The exit code of every command: its meaning in words is MEANINGS[code]."""

    OK = 0            # every puzzle has an answer with a solution
    NONE = 1          # some puzzle has no solution: an answer, not an error
    INPUT = 2         # bad input (puzzle, file, option, backend name) or unwritable output
    TIMEOUT = 3       # some puzzle ran out of time
    DISAGREE = 4      # backends disagree, or a grid fails the independent checker
    ENGINE = 5        # backend unavailable, rule unsupported, or an engine error
    SEVERAL = 6       # explain, hint, grade, setter, ladder: a puzzle has several solutions
    STALLED = 7       # solve, read with -b human: its techniques stopped short (no answer)
    INTERRUPTED = 130  # 128 + SIGINT
    TERMINATED = 143   # 128 + SIGTERM

# When several puzzles end differently, the most serious outcome names the exit code; a
# bad puzzle skipped in a file (Exit.INPUT) counts after wrong answers and engine failures.
# Input that stops a command before it starts (an unknown option, a missing file) and an
# interrupt end it at once, with that code.
PRECEDENCE = (Exit.DISAGREE, Exit.ENGINE, Exit.INPUT, Exit.TIMEOUT, Exit.STALLED, Exit.SEVERAL,
              Exit.NONE, Exit.OK)

# The one table of what each exit code means; each command's --help lists the ones it uses.
MEANINGS: dict[int, str] = {
    Exit.OK: "done: every puzzle answered",
    Exit.NONE: "no solution (an answer, not an error; givens that clash are named)",
    Exit.INPUT: "bad input: a puzzle, file, option or backend name, or output that cannot "
                "be written (a bad puzzle of a file is reported and skipped, the others "
                "answered)",
    Exit.TIMEOUT: "timeout: some puzzle ran out of time",
    Exit.DISAGREE: "disagreement: backends contradict each other, or a grid fails the "
                   "independent checker",
    Exit.ENGINE: "engine failure: backend unavailable, rule unsupported, engine error",
    Exit.SEVERAL: "several solutions: the puzzle has no unique solution (to explain, grade "
                  "or set)",
    Exit.STALLED: "stalled: the human engine's techniques found no further step (no "
                  "answer, and no failure either); the grid so far is printed",
    Exit.INTERRUPTED: "interrupted (Ctrl-C): what was found so far is printed",
    Exit.TERMINATED: "terminated (SIGTERM, or SIGHUP: a closed terminal, unless under nohup): "
                     "stopped as on Ctrl-C",
}


STOPS = (Exit.INTERRUPTED, Exit.TERMINATED)  # every command: the cli's main answers both


def command_exits(codes: Iterable[int]) -> tuple[int, ...]:
    """The codes a command can return: its own, and Ctrl-C's and SIGTERM's, in MEANINGS'
    order (added here, so that no command's --help can leave them out)."""
    given = {*codes, *STOPS}
    return tuple(code for code in MEANINGS if code in given)


def exit_help(codes: Iterable[int], own: Mapping[int, str] | None = None,
              puzzles: bool = True) -> str:
    """The 'exit codes' section of a command's --help: the codes it can return, in
    MEANINGS' words unless the command says a code its `own` way (`puzzles`: whether it
    answers puzzles, whose outcomes then rank)."""
    import textwrap

    chosen = command_exits(codes)
    order = ", ".join(str(code) for code in PRECEDENCE if code in chosen)
    lines = [f"exit codes (when puzzles end differently, the first of {order}):" if puzzles
             else "exit codes:"]
    for code in chosen:
        meaning = (own or {}).get(code, MEANINGS[code])
        lines += textwrap.wrap(meaning, 88, initial_indent=f"  {code:<4} ",
                               subsequent_indent=" " * 7)
    return "\n".join(lines)


ALL_CODES = tuple(MEANINGS)
EXIT_CODES = exit_help(ALL_CODES)


# --- the exceptions: one hierarchy, the exit code on the class ---------------------------
#
# A caller catches SudokulabError once and exits with `error.exit_code`; the web page
# answers `error.http_status`. Each class has this one name: modules import it from here
# (tests/test_errors.py fails on an alias such as `BackendError = errors.BackendError`).
#
# Control-flow exceptions that never reach a user stay in their modules, on purpose:
# human.forcing.Stopped (a deadline inside a forcing search), backends.norvig.Contradiction
# and backends.dlx.Dead (a dead end of a search, undone by backtracking), counting.Timeout
# (a #SAT count past its deadline, answered as a TIMEOUT result), essay.OutOfTime and
# cdcl.OutOfTime (the course engines' deadlines, kept in each file so it reads alone), and
# harness.contract.Hung (a BaseException, so an engine's own guard lets it by), and
# formats.links.TooLarge (a payload past MAX_TEXT, said as a PuzzleError by read_link).
CONTROL_FLOW = ("sudokulab.human.forcing.Stopped", "sudokulab.backends.norvig.Contradiction",
                "sudokulab.backends.dlx.Dead", "sudokulab.backends.counting.Timeout",
                "sudokulab.backends.essay.OutOfTime", "sudokulab.backends.cdcl.OutOfTime",
                "sudokulab.harness.contract.Hung", "sudokulab.formats.links.TooLarge")


class SudokulabError(Exception):
    """Anything sudokulab refuses or fails at: one line of message, an exit code."""

    exit_code: int = Exit.ENGINE
    http_status = 500


class InputError(SudokulabError, ValueError):
    """Bad input of any kind: the message says what is wrong and where (exit code 2)."""

    exit_code: int = Exit.INPUT
    http_status = 400


class PuzzleError(InputError):
    """Text or data that is not a valid puzzle."""


class UsageError(InputError):
    """A bad option, or a bad combination of options."""


class BackendError(UsageError):
    """An unknown backend name or a bad option."""


class UnknownTechnique(UsageError):
    """A technique name that is not in the human solver's list."""


class ClusterError(UsageError):
    """A --cluster that names no cluster, or one that cannot be reached."""


class ImageError(InputError):
    """An image that cannot be read, or a picture that cannot be written."""


class GridNotFound(InputError):
    """No Sudoku grid could be found in the image."""


class WrongSize(GridNotFound):
    """A grid is there, but not of the size asked for."""

    def __init__(self, asked: int, found: int) -> None:
        super().__init__(f"the grid found is {found}x{found}, not {asked}x{asked}")
        self.asked, self.found = asked, found


class EngineError(SudokulabError):
    """An engine cannot run here, or failed (exit code 5)."""

    exit_code: int = Exit.ENGINE


class Unavailable(EngineError):
    """What a command, engine or page needs is not installed or cannot run here (a 503)."""

    http_status = 503


class NotAvailable(Unavailable):
    """SWI-Prolog or janus cannot be used here; the message says why."""


class FontsMissing(Unavailable, RuntimeError):
    """A font file the renderer needs is not installed."""


class BackendFailed(EngineError):
    """The backend's workers cannot even start; the message says why."""


class NothingCompared(EngineError):
    """Every backend of a comparison failed (unavailable, could not start, or an error on
    every puzzle): there is nothing to compare; the message names each and why."""


class UnsupportedRule(EngineError, ValueError):
    """The puzzle has a rule that an encoding does not compile: a guard, so that a rule
    type added to `rules` later is refused there rather than silently left out."""


class DisagreementError(SudokulabError):
    """Engines contradict each other, or an answer fails the checker (exit code 4)."""

    exit_code: int = Exit.DISAGREE


class ProofError(DisagreementError):
    """The generator's second engine did not confirm what the working engine claimed."""


class CertificateRejected(DisagreementError):
    """A certificate that does not prove its verdict (`sudokulab verify`): the message
    says where (a proof's lemma and clause, a solution's cell, a given, a file's hash)."""


# --- stops: KeyboardInterrupt, so that code which does not know them still stops ---------

INTERRUPTED = "interrupted (Ctrl-C)"


class Interruption(KeyboardInterrupt):
    """Ctrl-C, SIGTERM or a lost cluster stopped the work; what was done is kept."""

    exit_code: int = Exit.INTERRUPTED


class Interrupted(Interruption):
    """Ctrl-C (SIGINT) or SIGTERM stopped a solve; `result` holds what was found before it.

    `result` is a Result as a search cut short gives it: status TIMEOUT with `exact`
    False and the grids found so far (SOLVED or MULTIPLE when the limit was reached
    anyway), and a message that says it was interrupted. `exit_code`: 143 after SIGTERM.
    """

    def __init__(self, result: Result) -> None:
        super().__init__(result.message)
        self.result = result
        self.exit_code = Exit.TERMINATED if terminated() else Exit.INTERRUPTED


class RunInterrupted(Interrupted):
    """Ctrl-C stopped a run of worker processes, after every puzzle finished was recorded.

    `partial` maps each puzzle being solved then to what its engine had found (an
    interrupted Result: status TIMEOUT, `exact` False, the grids so far); `index` and
    `result` are the first of them, None when no solve was under way.
    """

    def __init__(self, partial: dict[int, Result]) -> None:
        self.partial = {k: _in_our_words(r) for k, r in sorted(partial.items())}
        self.index = next(iter(self.partial), None)
        first = self.partial[self.index] if self.index is not None else None
        # None when no solve was under way, where Interrupted always has a Result: the
        # engines that read Interrupted.result never meet this one (it is raised above them)
        self.result = first  # type: ignore[assignment]
        KeyboardInterrupt.__init__(self, self.result.message if self.result else INTERRUPTED)


class SetterInterrupted(Interruption):
    """Ctrl-C or SIGTERM stopped the setter's bench midway; `report` (a SetterReport)
    holds what it had established, marked partial (its `stopped` says what stopped it)."""

    def __init__(self, report: SetterReport) -> None:
        super().__init__(report.stopped)
        self.report = report


class CompareInterrupted(Interruption):
    """Ctrl-C or SIGTERM stopped `sl.compare` midway; `comparison` (a Comparison) holds
    every record finished before it (its tables and plots work on them), as the folder
    `sudokulab compare` leaves keeps them for --resume."""

    def __init__(self, comparison: Comparison, stop: KeyboardInterrupt) -> None:
        done = "?" if comparison.finished is None else comparison.finished
        super().__init__(f"{_said(stop)}: {len(comparison.records)} answer(s) "
                         f"recorded before it, {done} of the {len(comparison.puzzles)} "
                         f"puzzle(s) finished by every backend; .comparison holds them")
        self.comparison = comparison
        self.exit_code = _code(stop)


class SolveManyInterrupted(Interruption):
    """Ctrl-C or SIGTERM stopped `sl.solve_many` midway; `results` are the checked Results
    of the puzzles before the one under way (number `index`, from 0), `result` what its
    engine had found of it (None when it had not begun)."""

    def __init__(self, results: list[Result], index: int, result: Result | None,
                 stop: KeyboardInterrupt) -> None:
        super().__init__(f"{_said(stop)}: {len(results)} puzzle(s) answered before it, "
                         f"puzzles[{index}] under way; .results holds them")
        self.results, self.index, self.result = results, index, result
        self.exit_code = _code(stop)


class VerifyInterrupted(Interruption):
    """Ctrl-C or SIGTERM stopped `sl.verify` on a folder midway; `reports` are the
    certificates accepted before it, `rejected` the errors of those that were not."""

    def __init__(self, reports: list[Report], rejected: list[SudokulabError],
                 stop: KeyboardInterrupt) -> None:
        super().__init__(f"{_said(stop)}: {len(reports)} certificate(s) "
                         f"accepted and {len(rejected)} not before it; .reports and "
                         f".rejected hold them")
        self.reports = reports
        self.rejected = rejected
        self.exit_code = _code(stop)


def _code(stop: KeyboardInterrupt) -> int:
    """The exit code of a run `stop` cut short: 143 for SIGTERM, however an engine
    reported it, else the stop's own (130 for Ctrl-C)."""
    if isinstance(stop, Terminated) or terminated():
        return Exit.TERMINATED
    return getattr(stop, "exit_code", Exit.INTERRUPTED)


def _said(stop: KeyboardInterrupt) -> str:
    """stopped_by(), also for a stop raised as Terminated without being recorded."""
    if isinstance(stop, Terminated) and not terminated():
        return "interrupted (SIGTERM)"
    return stopped_by()


def _in_our_words(result: Result) -> Result:
    """A worker's interrupted Result, saying what stopped the run as this process knows it:
    SIGTERM reaches the parent alone, which asks its workers with SIGINT (Ctrl-C's signal)."""
    import dataclasses

    if not result.message.startswith(INTERRUPTED):
        return result
    return dataclasses.replace(result, message=stopped_by() + result.message[len(INTERRUPTED):])


class Terminated(Interruption):
    """SIGTERM: stop as Ctrl-C does, keeping what is done."""

    exit_code: int = Exit.TERMINATED


class ClusterLost(Interruption):
    """The Dask scheduler went away midway: the run is interrupted, what it recorded kept."""

    def __init__(self, why: str) -> None:
        import sys

        super().__init__(why)
        print(f"\n{why}", file=sys.stderr)  # compare then says how to resume


def worst(codes: Iterable[int]) -> int:
    """The exit code of several outcomes: the first of PRECEDENCE among them."""
    seen = set(codes)
    return next((code for code in PRECEDENCE if code in seen), Exit.OK)


class ReaderGone(SudokulabError, BrokenPipeError):
    """The reader of standard output went away (`| head`): the command ends quietly (no
    message), with the exit code of the outcomes it had judged, and said on stderr, before."""

    exit_code: int = Exit.OK

    def __init__(self, code: int) -> None:
        super().__init__("the reader of standard output went away")
        self.exit_code = code


@contextlib.contextmanager
def judged_so_far(codes: list[int]) -> Iterator[None]:
    """A reader gone in the block ends the command with the worst of `codes` so far: a
    timeout said on stderr keeps its exit code 3 under `| head` too."""
    try:
        yield
    except ReaderGone:
        raise
    except BrokenPipeError:
        raise ReaderGone(worst(codes)) from None


def unknown(kind: str, name: str, known: Iterable[str]) -> str:
    """The message for a name that is not one of the known ones."""
    return f"unknown {kind} {name!r}; known: {', '.join(known)}"


# Every character str.splitlines() breaks a line at: an error stays one line for any reader.
_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def error_line(message: object) -> str:
    """'sudokulab: error: MESSAGE', with any line break the input put in it escaped."""
    return f"sudokulab: error: {str(message).translate(_LINE_BREAKS)}"


# --- option values: argparse types, shared by every command ---------------------------

def _refuse(message: str) -> Exception:
    """argparse's error for a bad option value (argparse prints its message as it is)."""
    import argparse  # only a command parsing options calls this, and it has argparse

    return argparse.ArgumentTypeError(message)


def whole_number(text: str) -> int:
    """argparse type: an integer."""
    try:
        return int(text)
    except ValueError:
        raise _refuse(f"{text!r} is not a whole number") from None


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    value = whole_number(text)
    if value < 1:
        raise _refuse(f"must be at least 1, not {value}")
    return value


def count_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    value = whole_number(text)
    if value < 0:
        raise _refuse(f"must be 0 or more, not {value}")
    return value


def port_number(text: str) -> int:
    """argparse type: a TCP port, 0 (any free one) to 65535."""
    value = whole_number(text)
    if not 0 <= value <= 65535:
        raise _refuse(f"must be a port from 0 to 65535, not {value}")
    return value


def seconds(text: str) -> float:
    """argparse type: a number of seconds, any float (a caller may check it later)."""
    try:
        return float(text)
    except ValueError:
        raise _refuse(f"{text!r} is not a number of seconds") from None


NO_LIMIT_PAST = 1e9  # seconds (31 years): a timeout past it is no limit, as inf is


def time_limit(value: float) -> float | None:
    """A timeout as the command line and the API both read it: 0, inf or more than
    NO_LIMIT_PAST seconds is no limit (None; an int too large for a float too, where
    float() would overflow); TypeError for anything but a number, UsageError (a
    ValueError) for a negative number or NaN, which no limit could mean."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"time_limit: value must be a number of seconds (0 or inf: no "
                        f"limit), not {type(value).__name__}")
    if value != value or value < 0:  # NaN is the one number unequal to itself
        raise UsageError(f"time_limit: value {value}: give seconds, 0 or more (0 or inf: "
                         f"no limit)")
    return None if value == 0 or value > NO_LIMIT_PAST else float(value)


@contextlib.contextmanager
def sigterm_stops() -> Iterator[None]:
    """SIGTERM (and SIGHUP, unless ignored) raises Terminated (a KeyboardInterrupt) here,
    so the run ends as on Ctrl-C: what each command keeps on Ctrl-C is kept, and its
    workers are ended."""
    def stop(signum: int, frame: FrameType | None) -> None:
        heard_sigterm(signum)  # an engine may answer it as its own Ctrl-C: `terminated()`
        if _deferred(signum, frame) or stopping():
            return  # sent again in a moment, or a stop under way: its report comes first
        if getattr(signal.getsignal(signal.SIGINT), "keeps_what_was_found", False):
            # an engine in native code listens for Ctrl-C (backends.base.ctrl_c): it stops
            # and keeps its grids so far, where Terminated raised here would lose them
            signal.raise_signal(signal.SIGINT)
        else:
            stop_heard()
            raise Terminated

    _TERMS.clear()  # a new run (a script may make many)
    _HANGUPS.clear()
    with _answered(signal.SIGTERM, stop), _hangups():
        yield


@contextlib.contextmanager
def whole() -> Iterator[None]:
    """A block no signal cuts in two: Ctrl-C, SIGTERM and SIGHUP wait for its end (then
    stop the run as always), so a row printed is a row counted and the other way round."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread hears signals in Python
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK,
                                  {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextlib.contextmanager
def descriptor_to(fd: int, target: int) -> Iterator[bool]:
    """What is written to descriptor `fd` (1 or 2) goes to descriptor `target` in the block,
    native code's writes included; yields False and moves nothing when `fd` is closed.
    Restored under whole(): a signal there would leave `fd` pointing at `target`."""
    stream = sys.stdout if fd == 1 else sys.stderr
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stream.flush()  # what Python wrote before goes where it was meant to
    try:
        saved = os.dup(fd)
    except OSError:  # no such descriptor: nothing to move
        yield False
        return
    try:
        os.dup2(target, fd)
        yield True
    finally:
        with whole():
            os.dup2(saved, fd)
            os.close(saved)


@contextlib.contextmanager
def stops_through_c() -> Iterator[None]:
    """Ctrl-C or SIGTERM raised again as itself when a C library reported it as an error
    of its own, which no `except KeyboardInterrupt` would catch: ctypes, when the signal
    came while it converted an argument (each z3 call converts its arguments in Python),
    PySAT's plain solve(), which catches SIGINT itself, and a C extension's import."""
    import ctypes

    try:
        yield
    except ctypes.ArgumentError as error:
        stop = re.match(r"argument \d+: (\w+):", str(error))
        if stop is None or stop.group(1) not in _STOPS:
            raise
        raise (Terminated() if stop.group(1) == "Terminated" else KeyboardInterrupt()) from None
    except Exception as error:
        behind = stop_behind(error)
        if behind is not None:
            raise behind from None
        if type(error).__module__ != "pysolvers" or str(error) != "Caught keyboard interrupt":
            raise
        raise KeyboardInterrupt from None


def stop_behind(error: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM an error stands for, if any: a C extension whose import
    a signal cut short says ImportError('initialization failed'), caused by the signal."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


_STOPS = {"KeyboardInterrupt", "Interruption", "Terminated"}  # what a signal raises


@contextlib.contextmanager
def _answered(signum: int, handler: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """The signal answered by `handler` in the block, then as before; left alone outside
    the main thread (where Python cannot set a handler)."""
    try:
        previous = signal.signal(signum, handler)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signum, previous)


_TERMS: list[int] = []  # the SIGTERMs sigterm_as_ctrl_c has answered


def heard_sigterm(signum: int) -> None:
    """Record a SIGTERM answered as Ctrl-C: `terminated()` says so from now on."""
    _TERMS.append(signum)


def sigterm_is_ctrl_c() -> bool:
    """Whether SIGTERM is answered as Ctrl-C now (sigterm_as_ctrl_c's block is running)."""
    return signal.getsignal(signal.SIGTERM) is _term


def terminated() -> bool:
    """Whether SIGTERM came under sigterm_as_ctrl_c: the command then exits 143, not 130."""
    return bool(_TERMS)


def stopped_by() -> str:
    """What stopped the run, in words: 'interrupted (SIGTERM)', '... (SIGHUP)' (answered
    as SIGTERM) or INTERRUPTED (Ctrl-C)."""
    return f"interrupted ({termination()})" if terminated() else INTERRUPTED


def termination() -> str:
    """The terminating signal's name: 'SIGHUP' when a hangup was answered as SIGTERM."""
    return "SIGHUP" if _HANGUPS else "SIGTERM"


def _deferred(signum: int, frame: FrameType | None) -> bool:
    """Whether the signal is sent again in a moment, because Python is finalising an
    object or converting a C argument (z3's) where it came: an exception raised there
    would be printed and lost (__del__) or made into ctypes' own error (from_param)."""
    import os
    import threading

    while frame is not None and frame.f_code.co_name not in ("__del__", "from_param"):
        frame = frame.f_back
    if frame is None:
        return False
    later = threading.Timer(0.02, os.kill, (os.getpid(), signum))
    later.daemon = True
    later.start()
    return True


@contextlib.contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM does here what Ctrl-C does, whoever listens for Ctrl-C now (the main
    thread's KeyboardInterrupt, an engine's base.ctrl_c, a run's workers): the command
    keeps and prints what it keeps on Ctrl-C; `terminated()` then says exit 143. A second
    stop soon after the first is let go (`interrupt_once`)."""
    _TERMS.clear()  # a new command (main() may run many in one process)
    _HANGUPS.clear()
    _STOP_TIMES.clear()
    with _answered(signal.SIGTERM, _term), _hangups(), _interrupting_once():
        yield


def _hangups() -> contextlib.AbstractContextManager[None]:
    """SIGHUP answered as SIGTERM in the block (`_send_on_as_sigterm`), unless it is
    ignored: under nohup a closed terminal must not stop the run."""
    if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
        return contextlib.nullcontext()
    return _answered(signal.SIGHUP, _send_on_as_sigterm)


# A stop (Ctrl-C, SIGTERM, SIGHUP) makes a run print what it kept; a second KeyboardInterrupt
# raised while it does (a second Ctrl-C, `kill` sent twice, a hangup then `kill`) would lose
# that report. So for REPEAT_GRACE seconds after a stop, another is let go.
REPEAT_GRACE = 5.0
_STOP_TIMES: list[float] = []


def stop_heard() -> None:
    """A stop has begun (for REPEAT_GRACE seconds, another is let go)."""
    _STOP_TIMES.append(time.monotonic())


def stop_was_heard() -> bool:
    """Whether Ctrl-C, SIGTERM or SIGHUP stopped the command under way (sigterm_as_ctrl_c
    forgets the stops of the commands before it)."""
    return bool(_STOP_TIMES)


def stopping() -> bool:
    """Whether a stop began less than REPEAT_GRACE seconds ago."""
    return bool(_STOP_TIMES) and time.monotonic() - _STOP_TIMES[-1] < REPEAT_GRACE


def interrupt_once(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C as Python's own handler answers it (KeyboardInterrupt), but let go within
    REPEAT_GRACE seconds of a stop already under way: the run is printing what it kept."""
    if stopping():
        return
    stop_heard()
    raise KeyboardInterrupt


def hears_ctrl_c(handler: object) -> bool:
    """Whether a SIGINT handler is Python's own answer to Ctrl-C (or `interrupt_once`)."""
    return handler is signal.default_int_handler or handler is interrupt_once


def _interrupting_once() -> contextlib.AbstractContextManager[None]:
    """Ctrl-C answered by `interrupt_once` in the block, where Python's handler answered
    it; left alone when ignored (a background job) or another listener's."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return contextlib.nullcontext()
    return _answered(signal.SIGINT, interrupt_once)


_HANGUPS: list[int] = []  # the SIGHUPs sent on as SIGTERM: the words name SIGHUP


def _send_on_as_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGHUP's handler under sigterm_as_ctrl_c (the terminal closed, an ssh link dropped):
    SIGTERM to this process, so that every part that answers SIGTERM answers it alike; the
    children, born with SIGHUP blocked (harness.children.held), leave it to the parent as
    they leave SIGTERM."""
    import os

    _HANGUPS.append(signum)
    os.kill(os.getpid(), signal.SIGTERM)


def hangup_is_sigterm() -> bool:
    """Whether SIGHUP is answered as SIGTERM here (the command line's main sets it)."""
    return signal.getsignal(signal.SIGHUP) is _send_on_as_sigterm


def _term(signum: int, frame: FrameType | None) -> None:
    """sigterm_as_ctrl_c's handler: SIGTERM recorded, then answered as Ctrl-C is."""
    heard_sigterm(signum)
    if _deferred(signum, frame) or stopping():
        return  # sent again in a moment, or a stop under way: its report comes first
    if callable(signal.getsignal(signal.SIGINT)):
        signal.raise_signal(signal.SIGINT)  # its handler runs now, in this frame
    else:  # Ctrl-C ignored (a background job) or fatal here: SIGTERM still stops
        stop_heard()
        raise Terminated
