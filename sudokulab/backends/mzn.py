"""The mzn backend: sudokulab/models/mzn/sudoku.mzn, a MiniZinc model, compiled to FlatZinc and
solved by Gecode (classic constraint programming: propagation and search, no learning).

The model is one file for every shape and rule (rules as predicates); a puzzle is data:
its shape and rules, added to the model once per process (`model`), and its givens,
added to a fresh Instance per puzzle. The PyPI package `minizinc` drives the `minizinc`
executable (Debian's 2.6 with Gecode 6.2), which runs in a process of its own per
puzzle: compiling the model costs more than Gecode's search on a 9x9.

Solutions arrive one by one (`Instance.solutions`), so a timeout (MiniZinc's own
--time-limit) or Ctrl-C keeps those found. Ctrl-C (base.ctrl_c, whose handler keeps
asyncio's own out) cancels the task reading them, from the watching thread; the package
then terminates the MiniZinc process (which ends its Gecode child) and waits for it. That
wait ends only once the process's output is read to its end, which nobody reads after
the cancel (asyncio stops reading a pipe whose buffer is full: a count hung there), so
the backend drains it; the process comes from a copy of the package's driver that keeps
those it starts (`recording`).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator, Sized
from contextlib import contextmanager
from datetime import timedelta
from functools import lru_cache

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Choice,
    Deadline,
    Need,
    ctrl_c,
    interrupted,
)
from sudokulab.backends.extras import install
from sudokulab.layout import Layout
from sudokulab.puzzle import Puzzle
from sudokulab.result import Found, Result, verdict

SOLVER = "gecode"
CONSISTENCY = ("default", "domain", "bounds")  # mzn:consistency=..., models/mzn numbers them
# consistency=auto: domain from this many digits up, the solver's default below. Measured
# (results/slow-corners.md): domain proves a public 25x25 unique in under 3 s where the
# solver's default times out at 60 s, and costs a 9x9 about a fifth more time.
DOMAIN_FROM = 16
FIX = ("apt-get install minizinc (Debian's MiniZinc brings Gecode; scripts/provision-minizinc, "
       f"run by `make install`) and {install('mzn')}")
# MiniZinc's statistics kept, in its own words (times in seconds).
STATS = ("nodes", "failures", "propagations", "propagators", "peakDepth", "restarts",
         "flatIntVars", "flatIntConstraints", "flatTime", "solveTime")


@lru_cache(maxsize=16)
def model(box: tuple[int, int], rules: tuple, layout: Layout | None = None,
          consistency: str = "default"):
    """The MiniZinc model with a shape's and rule set's data added (built once per process),
    alldifferent propagating on the units as `consistency` says."""
    import minizinc

    from sudokulab.geometry import geometry
    from sudokulab.models import mzn

    built = minizinc.Model(mzn.MODEL)
    geo = geometry(box, rules, layout)
    values = {**mzn.rule_data(geo), "consistency": mzn.CONSISTENCY[consistency]}
    built.add_string(mzn.data_text(values, geo.n))
    return built


@contextmanager
def quiet_gecode_library() -> Iterator[None]:
    """MiniZinc's warnings about Debian's Gecode library left out, the others kept.

    Debian's Gecode 6.2 library (/usr/share/minizinc/gecode, package flatzinc) redefines
    global constraints (count.mzn, global_cardinality*.mzn) the pre-2.5 way; MiniZinc 2.6
    warns about each file on every compile. The definitions still hold, and the puzzle is
    not at fault. Nor is "model inconsistency detected": flattening proved the puzzle has
    no solution, which the answer says (status none)."""
    from minizinc.error import MiniZincWarning

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r'included file ".*" overrides a global constraint',
                                MiniZincWarning)
        warnings.filterwarnings("ignore", r"model inconsistency detected", MiniZincWarning)
        # the old name models/mzn/gecode calls, the one Gecode 6.2 knows
        warnings.filterwarnings("ignore", r"The function/predicate .all_different_int. was "
                                r"deprecated", MiniZincWarning)
        yield


@lru_cache(maxsize=1)
@lru_cache(maxsize=8)
def solver(name: str = SOLVER):
    """MiniZinc's configuration of a solver (looked up once)."""
    import minizinc

    return minizinc.Solver.lookup(name)


@lru_cache(maxsize=1)
def solvers() -> tuple[str, ...]:
    """The solvers MiniZinc finds here that run without a window and say their version
    (CPLEX, Gurobi ... are listed as '<unknown version>' when their library is missing)."""
    import minizinc

    if minizinc.default_driver is None:
        return (SOLVER,)
    found = {s.id.rsplit(".", 1)[-1] for group in
             minizinc.default_driver.available_solvers().values() for s in group
             if not s.isGUIApplication and "unknown" not in s.version}
    return tuple(sorted(found | {SOLVER}))


class MznBackend(Backend):
    """sudoku.mzn (MiniZinc) compiled to FlatZinc and searched by Gecode."""

    name = "mzn"
    paradigm = "constraint modelling language: MiniZinc to FlatZinc, Gecode (propagation " \
               "and search, no learning)"
    supported_rules = R.RULE_TYPES  # sudoku.mzn has a predicate for each
    multi_grid = True  # a samurai's grids: more cells and units, the same model
    option_table = {
        "consistency": Choice(("auto", *CONSISTENCY), help="alldifferent's propagation on "
                              "the units: domain (Regin's matching), bounds, the solver's "
                              "default, or auto (the default: domain from 16x16 up)"),
        "solver": Choice(solvers, help="a solver MiniZinc finds on this machine"),
    }

    def __init__(self, consistency: str = "auto", solver: str = SOLVER) -> None:
        super().__init__()
        self.consistency, self.solver = consistency, solver
    needs = (Need("minizinc", FIX),)  # the PyPI package that drives the executable
    solve_overhead = "a minizinc process and a flattening per solve (some 0.3 s a 4x4, " \
                     "7 s a samurai)"

    @classmethod
    def ready(cls) -> Availability:
        """Whether the minizinc executable and its Gecode are found (the package is: see
        `needs`), and their versions."""
        import minizinc

        if minizinc.default_driver is None:
            return Availability(False, reason="the minizinc executable is not on the PATH",
                                fix=FIX)
        try:
            gecode = solver()
        except LookupError as error:
            return Availability(False, reason=f"MiniZinc has no Gecode: {error}", fix=FIX)
        driver = ".".join(map(str, minizinc.default_driver.parsed_version))
        return Availability(True, version=f"MiniZinc {driver} / Gecode {gecode.version}")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Add the givens to the shape's model and collect Gecode's solutions as they come."""
        import minizinc

        started = time.perf_counter()
        driver = recording(minizinc.default_driver)
        instance = minizinc.Instance(solver(self.solver), model(
            puzzle.box, puzzle.rules, puzzle.layout, self.chosen(puzzle)), driver)
        instance["givens"] = list(puzzle.givens)
        built = time.perf_counter()
        found = self.new_found()
        last: list = [None]
        with quiet_gecode_library():
            pressed = self._run(self._collect(instance, limit, deadline, found, last,
                                              self._flags()), driver.started)
        if pressed:
            raise interrupted(found, limit, build_time=built - started,
                              solve_time=time.perf_counter() - built)
        final = last[0]
        status = final.status if final is not None else minizinc.Status.UNKNOWN
        if status is minizinc.Status.ERROR:
            raise RuntimeError("MiniZinc reported an error")
        complete = status in (minizinc.Status.ALL_SOLUTIONS, minizinc.Status.UNSATISFIABLE,
                              minizinc.Status.OPTIMAL_SOLUTION)
        cut = not complete and (limit is None or len(found) < limit)
        return verdict(found, limit, complete=complete,
                       stats=statistics(final.statistics if final is not None else {}),
                       build_time=built - started, solve_time=time.perf_counter() - built,
                       message=f"MiniZinc stopped before the end: {status.name}" if cut else "")

    def chosen(self, puzzle: Puzzle) -> str:
        """The consistency this puzzle gets: `auto` resolved by its size."""
        if self.consistency != "auto":
            return self.consistency
        return "domain" if puzzle.n >= DOMAIN_FROM else "default"

    @staticmethod
    def _run(collecting, started: list) -> bool:
        """Run the collecting coroutine in an event loop of its own; True if Ctrl-C
        stopped it (its task cancelled, the MiniZinc processes `started` drained and
        terminated by then)."""
        import asyncio

        loop = asyncio.new_event_loop()
        drains: list = []

        def stop() -> None:
            """In the loop: cancel the reading task, then read each process's output to
            its end (after the cancel has landed: one reader at a time)."""
            task.cancel()
            drains.extend(loop.create_task(drain(process)) for process in started)

        def stop_soon() -> None:
            """From any thread: stop() in the loop."""
            loop.call_soon_threadsafe(stop)

        def until(awaitable) -> None:
            """The loop run until `awaitable` is done."""
            run_loop(loop, awaitable, stop_soon)

        try:
            task = loop.create_task(collecting)
            with ctrl_c(stop_soon) as key:
                try:
                    until(task)
                except KeyboardInterrupt:  # heard in a thread that ctrl_c cannot listen in
                    key.pressed = True
                except (asyncio.CancelledError, Exception):
                    # MiniZinc is in the terminal's process group: the same Ctrl-C may end
                    # it before the cancel lands, and the package calls that exit an error
                    if not key.pressed:
                        raise
            return key.pressed
        finally:
            if drains:  # (an empty gather would belong to another loop)
                until(asyncio.gather(*drains, return_exceptions=True))
            until(loop.shutdown_asyncgens())
            loop.close()

    def _flags(self) -> dict[str, str]:
        """MiniZinc's extra flags: for Gecode, the include folder giving it its own
        alldifferent (models/mzn/gecode: else it decomposes into disequalities)."""
        from sudokulab.models.mzn import GECODE_LIBRARY

        return {"-I": str(GECODE_LIBRARY)} if self.solver == SOLVER else {}

    @staticmethod
    async def _collect(instance, limit: int | None, deadline: Deadline, found: Found,
                       last: list, flags: dict[str, str]) -> None:
        """Each solution into `found` as MiniZinc prints it; its final Result into `last`."""
        left = deadline.left()
        # MiniZinc reads --time-limit in whole milliseconds, 0 meaning none.
        time_limit = None if left is None else timedelta(milliseconds=max(1, int(left * 1000)))
        how = {"all_solutions": True} if limit is None else {"nr_solutions": limit}
        async for result in instance.solutions(time_limit=time_limit, **how, **flags):
            if result.solution is not None:
                found.append(read(result.solution))
            last[0] = result

    def describe(self, puzzle: Puzzle) -> str:
        """The model file, its predicates used by the puzzle, and the data's sizes."""
        from sudokulab.geometry import geometry
        from sudokulab.models import mzn

        data = mzn.rule_data(geometry(puzzle.box, puzzle.rules, puzzle.layout))
        sizes = [f"{key} {len(value)}" for key, value in data.items()
                 if isinstance(value, Sized) and value]
        return "\n".join([
            f"mzn: {mzn.MODEL} (MiniZinc) solved by Gecode; rules as predicates "
            "(each_digit_once, not_consecutive, cage, related, sandwich)",
            f"  the puzzle's rules: {R.listed(puzzle.rules)}, as the data of those predicates",
            f"  data (cells from 1): {', '.join(sizes)}",
            f"  givens: {sum(map(bool, puzzle.givens))}, each `grid[c] = givens[c]`; the model "
            "and the shape's data are built once per process, an Instance per puzzle",
            f"  alldifferent: {self.chosen(puzzle)} consistency"
            f"{' (auto: by the grid size)' if self.consistency == 'auto' else ''}",
            "  search: int_search(grid, first_fail, indomain_min); counting: --all-solutions",
            "  run it alone: sudokulab export PUZZLE --to mzn > p.mzn; minizinc -a p.mzn "
            "(the export keeps the solver's default alldifferent)"])


@lru_cache(maxsize=1)
def _recording_class(base: type) -> type:
    """A subclass of MiniZinc's Driver that keeps the processes it starts in `started`."""

    class Recording(base):
        async def _create_process(self, *args, **kwargs):  # the package's own hook
            process = await super()._create_process(*args, **kwargs)
            self.started.append(process)
            return process

    return Recording


def recording(driver):
    """A copy of MiniZinc's driver (no new version check) keeping the processes it starts."""
    import copy

    copied = copy.copy(driver)
    # a class is hashable, but mypy reads type[...] against Hashable's unbound __hash__
    copied.__class__ = _recording_class(type(driver))  # type: ignore[arg-type]
    copied.started = []
    return copied


def run_loop(loop, awaitable, stop) -> None:
    """loop.run_until_complete(awaitable), in this thread, or, where an event loop runs
    already (a notebook, async code), in a thread of its own: no thread runs two. A
    KeyboardInterrupt while that thread runs calls `stop`, waits for the loop to end, and
    is raised again."""
    import asyncio
    import threading

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # none runs here: the usual case
        loop.run_until_complete(awaitable)
        return
    outcome: list = []
    done = threading.Event()  # not join(): in Python 3.11 a join that Ctrl-C interrupts
                              # marks the thread stopped while it still runs

    def run() -> None:
        """The loop, in its own thread; what it raised kept for the caller."""
        try:
            loop.run_until_complete(awaitable)
        except BaseException as error:  # raised again in the caller's thread
            outcome.append(error)
        finally:
            done.set()

    threading.Thread(target=run, name="sudokulab-minizinc", daemon=True).start()
    try:
        done.wait()
    except KeyboardInterrupt:
        stop()
        done.wait()
        raise
    if outcome:
        raise outcome[0]


async def drain(process) -> None:
    """Read a process's output to its end, so that waiting for it can end."""
    import asyncio

    await asyncio.sleep(0)  # the cancelled reader lets go of the stream first
    if process.stdout is not None:  # stderr: the package's own task reads it to its end
        await process.stdout.read()


def read(solution) -> tuple[int, ...]:
    """The grid of one of MiniZinc's solutions."""
    return tuple(solution.grid)


def statistics(stats: dict) -> dict[str, float]:
    """MiniZinc's and Gecode's own counters, times in seconds."""
    kept = {}
    for key in STATS:
        value = stats.get(key)
        if isinstance(value, timedelta):
            value = value.total_seconds()
        if isinstance(value, (int, float)):
            kept[key] = value
    return kept
