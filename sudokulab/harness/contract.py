"""The backend contract as checks a person can run on one engine: `sudokulab check-backend`.

The same promises tests/test_contract.py holds every registered backend to (statuses,
exact counts, the limit, givens that clash, a search that must prove there is none,
other shapes, the variant rules or UNSUPPORTED, the timeout keeping what it found,
Ctrl-C keeping what it found), plus answers on a bundled dataset, each written to be
read by the student whose engine failed it: the puzzle, what was expected, what came
back, and why that is wrong. Every grid is judged by sudokulab/check.py, which shares no
code with any engine, and unique answers by the dataset's reference solutions.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends.base import Backend
from sudokulab.check import check
from sudokulab.errors import Interrupted
from sudokulab.formats.text import from_json, parse
from sudokulab.puzzle import Puzzle, empty, line_of
from sudokulab.result import Result, Status

# The puzzles of tests/test_contract.py, for the same promises.
NO_SOLUTION = ("5...14....3....2...7..........9...3.6.1......"
               ".......8.2.....1.4....5.6.....7.8...")  # top95's with one wrong given
TWO_SOLUTIONS_4 = ".2.4" ".4.2" "2143" "4321"
VARIANTS = Path(__file__).resolve().parents[2] / "tests" / "data" / "variants.json"
HUNG_AFTER = 60.0  # seconds a single solve may take before the check calls it hung


class Hung(BaseException):
    """A solve ran past HUNG_AFTER (a BaseException: the backend's own guard lets it by)."""


@dataclass
class Outcome:
    """One check: its name, what failed (empty: passed), how long it took."""

    name: str
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    note: str = ""  # what it cost, for a student comparing two versions of an engine
    printed: str = ""  # what the engine wrote to standard output meanwhile (kept from it)

    @property
    def passed(self) -> bool:
        """Whether nothing failed."""
        return not self.failures


@contextlib.contextmanager
def stdout_kept() -> Iterator[list[str]]:
    """What the block writes to standard output kept from it (the report stays clean): the
    text is in the list yielded once the block ends. Python's prints and native code's
    writes to descriptor 1 alike (a plugin's debugging print, a C solver's verbose mode)."""
    from sudokulab.errors import descriptor_to

    written: list[str] = []
    python = io.StringIO()
    with tempfile.TemporaryFile() as file:
        try:
            with descriptor_to(1, file.fileno()), contextlib.redirect_stdout(python):
                try:
                    yield written
                finally:
                    _flush_c()  # what C printf'ed goes to the file before it is restored
        finally:
            file.seek(0)
            written.append(python.getvalue() + file.read().decode(errors="replace"))


def _flush_c() -> None:
    """C's stdio buffers flushed (what native code printf'ed goes to descriptor 1 now)."""
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # no C library to ask: nothing of its buffered
        pass


def load_engine(spec: str) -> Backend:
    """A backend from a registered spec (`norvig:classic`) or a plugin class given as
    MODULE:CLASS (`mypkg.engine:MyBackend`, or `path/to/engine.py:MyBackend`).
    UsageError naming what is wrong; EngineError (one line) when the plugin's own code
    fails as it loads or as its class is made (a first draft's usual state)."""
    from sudokulab.backends import BUILTIN, _plugins, make_backend
    from sudokulab.errors import EngineError, UsageError

    name, _, attr = spec.partition(":")
    if name in BUILTIN or name in _plugins():
        return make_backend(spec)
    if not attr:
        raise UsageError(f"check-backend: {spec!r} is no backend name and no MODULE:CLASS")
    if not name.strip():  # importlib's 'Empty module name' is no fault of a plugin's code
        raise UsageError(f"check-backend: {spec!r} names no module before the colon "
                         "(MODULE:CLASS)")
    try:
        if name.endswith(".py"):
            where = importlib.util.spec_from_file_location(Path(name).stem, name)
            if where is None or where.loader is None or not Path(name).is_file():
                raise UsageError(f"check-backend: no Python file {name}")
            module = importlib.util.module_from_spec(where)
            sys.modules[where.name] = module
            where.loader.exec_module(module)
        else:
            module = importlib.import_module(name)
    except ImportError as error:
        raise UsageError(f"check-backend: cannot import {name}: {error}") from None
    except UsageError:
        raise
    except Exception as error:  # the plugin's own code: a SyntaxError, an error at import
        raise EngineError(f"check-backend: {name} fails as it loads: "
                          f"{type(error).__name__}: {error}") from None
    cls = getattr(module, attr, None)
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise UsageError(f"check-backend: {name} has no Backend subclass {attr} (a class "
                         "deriving from sudokulab.backends.base.Backend)")
    try:
        engine = cls()
    except Exception as error:  # an abstract method left out, a constructor that raises
        raise EngineError(f"check-backend: {attr}() fails: {type(error).__name__}: "
                          f"{error}") from None
    engine.label = spec
    return engine


@dataclass
class Case:
    """A puzzle and what the contract expects of a solve of it."""

    puzzle: Puzzle
    limit: int | None
    status: Status
    count: int | None = None  # the number of solutions expected, when known
    solutions: tuple = ()  # the expected grids, when known
    keep: int | None = None  # the grids the solve keeps (None: all it finds)


def shown(puzzle: Puzzle) -> str:
    """The puzzle as one line (and its rules), to paste into `sudokulab solve`."""
    rules = f" with rules {', '.join(rule.name for rule in puzzle.rules)}" if puzzle.rules else ""
    return line_of(puzzle.givens) + rules


def _on(case: Case) -> str:
    """Which case, in words: the puzzle and the solve's limit (and keep), so two cases of one
    puzzle are told apart."""
    keep = "" if case.keep is None else f", keep {case.keep}"
    return f"on {shown(case.puzzle)} (limit {case.limit}{keep})"


def judge(engine: Backend, case: Case, result: Result) -> list[str]:
    """What is wrong with a result, in words; [] when it keeps the contract."""
    wrong = []
    puzzle, on = case.puzzle, _on(case)
    got = f"{result.status.value}, {result.count_text} solution(s)" + \
        (f" ({result.message})" if result.message else "")
    want = f"{case.status.value}" + (f", {case.count} solution(s)" if case.count is not None
                                     else "")
    if result.status is Status.STALLED and not engine.complete:
        return []
    if result.status is not case.status or (case.count is not None
                                            and result.count != case.count):
        wrong.append(f"{on}: expected {want}, got {got}")
    for k, grid in enumerate(result.solutions, 1):
        problems = check(puzzle, grid)
        if problems:
            expected = (f"; expected {line_of(case.solutions[0])}"
                        if len(case.solutions) == 1 else "")
            wrong.append(f"{on}: solution {k} {line_of(grid)} breaks the rules: "
                         + "; ".join(map(str, problems[:3])) + " (sudokulab/check.py)"
                         + expected)
    if len(set(result.solutions)) != len(result.solutions):
        wrong.append(f"{on}: the same grid is given twice; each solution "
                     "once (block it before searching on)")
    if case.solutions and not wrong and set(result.solutions) - set(case.solutions):
        wrong.append(f"{on}: a grid that is not one of the puzzle's "
                     "solutions was returned")
    returned = result.count if case.keep is None else min(case.keep, result.count)
    if len(result.solutions) != returned:
        kept = "" if case.keep is None else f" (keep={case.keep}: Backend.new_found())"
        wrong.append(f"{on}: count {result.count} but {len(result.solutions)} "
                     f"grids returned{kept}")
    return wrong


def solve(engine: Backend, puzzle: Puzzle, limit: int | None,
          timeout: float | None = None, keep: int | None = None) -> Result:
    """engine.solve, stopped with Hung if it runs past HUNG_AFTER (in the main thread)."""
    if threading.current_thread() is not threading.main_thread() or os.name != "posix":
        return engine.solve(puzzle, limit=limit, timeout=timeout,
                            **({} if keep is None else {"keep": keep}))

    def hung(*_) -> None:
        raise Hung

    old = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, HUNG_AFTER)
    try:
        return engine.solve(puzzle, limit=limit, timeout=timeout,
                            **({} if keep is None else {"keep": keep}))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cases(engine: Backend, cases: list[Case]) -> list[str]:
    """Each case solved and judged."""
    wrong = []
    for case in cases:
        try:
            result = solve(engine, case.puzzle, case.limit, keep=case.keep)
        except Hung:
            wrong.append(f"{_on(case)}: no answer after {HUNG_AFTER:.0f} s "
                         "(a loop that never ends, or a search without propagation?)")
            continue
        wrong += judge(engine, case, result)
    return wrong


def easy() -> tuple[Puzzle, tuple[int, ...]]:
    """The first puzzle of easy50 and its solution."""
    return datasets.load("easy50")[0], datasets.solutions("easy50")[0]


def check_counts(engine: Backend) -> list[str]:
    """The empty 4x4 has 288 grids (also when the solve keeps only 5 of them); a 4x4 of
    two solutions has exactly two."""
    two = parse(TWO_SOLUTIONS_4)
    return run_cases(engine, [Case(empty(4), None, Status.MULTIPLE, 288),
                              Case(empty(4), None, Status.MULTIPLE, 288, keep=5),
                              Case(two, None, Status.MULTIPLE, 2),
                              Case(two, 2, Status.MULTIPLE, 2)])


def check_limits(engine: Backend) -> list[str]:
    """limit=1 answers SOLVED with one grid; limit=2 on a unique puzzle answers UNIQUE."""
    puzzle, solution = easy()
    return run_cases(engine, [Case(empty(4), 1, Status.SOLVED, 1),
                              Case(puzzle, 1, Status.SOLVED, 1, (solution,)),
                              Case(puzzle, 2, Status.UNIQUE, 1, (solution,))])


def check_none(engine: Backend) -> list[str]:
    """A puzzle whose contradiction only search finds, and givens that clash: NONE."""
    return run_cases(engine, [Case(parse(NO_SOLUTION), 2, Status.NONE, 0),
                              Case(parse("11" + "." * 79), 2, Status.NONE, 0)])


def check_shapes(engine: Backend) -> list[str]:
    """A 6x6 and a 16x16, each unique (a solution with cells blanked)."""
    cases = []
    for n, every in ((6, 4), (16, 5)):
        full = datasets_grid(n)
        puzzle = empty(n).with_values([d if (i * 7) % every else 0 for i, d in enumerate(full)])
        cases.append(Case(puzzle, 2, Status.UNIQUE, 1, (full,)))
    return run_cases(engine, cases)


def datasets_grid(n: int) -> tuple[int, ...]:
    """A full N x N grid, from the lab's reference engine (norvig), checked by check.py."""
    from sudokulab.backends import make_backend

    grid = make_backend("norvig").solve(empty(n), limit=1).solutions[0]
    assert not check(empty(n), grid)
    return grid


@dataclass(frozen=True)
class Thermometer:
    """A rule no backend knows (the contract's stand-in for a rule added later)."""

    name = "thermometer"


def check_rules(engine: Backend) -> list[str]:
    """Each variant puzzle is UNIQUE, or UNSUPPORTED when the engine cannot express its
    rule; a rule no engine knows is UNSUPPORTED, never ignored."""
    wrong = []
    unknown = empty(9, (R.Diagonal(), Thermometer()))  # type: ignore[arg-type]
    result = solve(engine, unknown, 2)
    if result.status is not Status.UNSUPPORTED or result.solutions:
        wrong.append(f"on an empty 9x9 with a rule it cannot know (thermometer): expected "
                     f"unsupported, got {result.status.value}; answer UNSUPPORTED (see "
                     "Backend.unsupported) rather than ignore a rule")
    if not VARIANTS.is_file():
        return wrong
    for name, data in sorted(json.loads(VARIANTS.read_text()).items()):
        puzzle = from_json(json.dumps(data))
        # an engine may decline more than its rule types say (sat's augmented encoding
        # needs the classic boxes): its unsupported() is its word, and the solve must keep it
        if engine.unsupported(puzzle) or not all(isinstance(rule, engine.supported_rules)
                                                 for rule in puzzle.rules):
            wrong += [f"{name}: {line}" for line in
                      run_cases(engine, [Case(puzzle, 2, Status.UNSUPPORTED, 0)])]
            continue
        wrong += [f"{name}: {line}" for line in
                  run_cases(engine, [Case(puzzle, 2, Status.UNIQUE, 1)])]
    return wrong


def check_timeout(engine: Backend) -> list[str]:
    """Counting the empty 9x9 with a 0.5 s timeout: TIMEOUT, keeping valid grids found."""
    try:
        result = solve(engine, empty(9), None, timeout=0.5)
    except Hung:
        return [f"counting the empty 9x9 with timeout 0.5 s: still running after "
                f"{HUNG_AFTER:.0f} s; look at the deadline (`deadline.at`) in the search"]
    wrong = []
    if result.status is not Status.TIMEOUT or result.exact:
        wrong.append(f"counting the empty 9x9 with timeout 0.5 s: expected timeout, got "
                     f"{result.status.value}")
    return wrong + judge(engine, Case(empty(9), None, result.status), result)


def check_ctrl_c(engine: Backend) -> list[str]:
    """Ctrl-C while counting the empty 9x9: Interrupted, keeping the valid grids found."""
    if threading.current_thread() is not threading.main_thread() or os.name != "posix":
        return []
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = solve(engine, empty(9), None, timeout=20)
    except Interrupted as stop:
        return [f"after Ctrl-C: kept grid {line_of(grid)} breaks the rules"
                for grid in stop.result.solutions if check(empty(9), grid)]
    except Hung:
        return ["Ctrl-C while counting the empty 9x9: still running; let "
                "KeyboardInterrupt through, or raise base.interrupted(...)"]
    except KeyboardInterrupt:
        return ["Ctrl-C while counting the empty 9x9: a bare KeyboardInterrupt escaped; "
                "raise base.interrupted(solutions, limit) with the grids found"]
    finally:
        timer.cancel()
    return [f"Ctrl-C while counting the empty 9x9: it went on and answered "
            f"{result.status.value}; stop on KeyboardInterrupt"]


def check_dataset(engine: Backend, name: str, count: int | None,
                  totals: dict | None = None) -> list[str]:
    """The first `count` puzzles of a bundled dataset (all: None): each its reference
    solution, UNIQUE. `totals` adds up the engine's statistics over them."""
    puzzles, solutions = datasets.load(name), datasets.solutions(name)
    wrong = []
    for k, (puzzle, solution) in enumerate(list(zip(puzzles, solutions))[:count], 1):
        case = Case(puzzle, 2, Status.UNIQUE, 1, (solution,))
        try:
            result = solve(engine, puzzle, 2)
        except Hung:
            wrong.append(f"{name} #{k}: on {shown(puzzle)}: no answer after "
                         f"{HUNG_AFTER:.0f} s")
            continue
        wrong += [f"{name} #{k}: {line}" for line in judge(engine, case, result)]
        for key, value in result.stats.items():
            if totals is not None and isinstance(value, int) and not isinstance(value, bool):
                totals[key] = totals.get(key, 0) + value
    return wrong


CHECKS: dict[str, tuple[str, Callable[[Backend], list[str]]]] = {
    "counts": ("counts are exact: the empty 4x4 has 288 grids, however many are kept",
               check_counts),
    "limits": ("the limit: 1 gives SOLVED, 2 on a unique puzzle UNIQUE", check_limits),
    "none": ("no solution is NONE: found by search, or givens that clash", check_none),
    "shapes": ("other shapes: 6x6 and 16x16", check_shapes),
    "rules": ("variant rules solved, or UNSUPPORTED; an unknown rule never ignored",
              check_rules),
    "timeout": ("a timeout keeps the grids found so far", check_timeout),
    "ctrl-c": ("Ctrl-C keeps the grids found so far", check_ctrl_c),
}


def run(engine: Backend, dataset: str | None = "top95", count: int | None = 10,
        only: list[str] | None = None) -> Iterator[Outcome]:
    """Each check on the engine, as it finishes."""
    todo = [(key, *CHECKS[key]) for key in (only or CHECKS)]
    totals: dict[str, int] = {}
    if dataset:
        how_many = "all" if count is None else f"the first {count}"
        todo.append(("dataset", f"answers: {how_many} of {dataset}, each its reference "
                                "solution", lambda e: check_dataset(e, dataset, count, totals)))
    for key, title, function in todo:
        started = time.perf_counter()
        with stdout_kept() as printed:  # an engine's prints stay out of the report
            try:
                failures = function(engine)
            except Exception as error:  # a check never crashes the report: it fails
                failures = [f"the check itself stopped: {type(error).__name__}: {error}"]
        note = ""
        if key == "dataset" and totals:
            note = "in all: " + ", ".join(f"{value} {name}" for name, value in totals.items())
        yield Outcome(title, failures, time.perf_counter() - started, note, printed[0])
