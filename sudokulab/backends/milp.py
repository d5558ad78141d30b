"""The milp backend: a 0-1 integer program of the puzzle (models/milp.py) solved by HiGHS:
LP relaxation, presolve, cutting planes, branch and bound.

Each process keeps one HiGHS instance per shape and rule set; a puzzle's givens raise
their binaries' lower bounds to 1 and the bounds go back after the search. Counting
finds a solution, adds a no-good row (the blank cells' chosen binaries sum to at most
blanks - 1) and solves again, until the program is infeasible; the no-good rows are
deleted after the puzzle. HiGHS's `time_limit` carries the deadline. A later solve that
overruns a budget (SPLIT_AFTER) stops, and its part of the search is split on one cell's
digits, fixed as bounds, each part solved the same way (as is a part that has given
SPLIT_GRIDS grids): HiGHS's presolve settles a part with a few more cells fixed in under
a second where its branch and bound took minutes (the Miracle's 72 grids: about 430
solves and 40 splits).

Ctrl-C (base.ctrl_c) sets the engine's `stopping` flag, which HiGHS's interrupt callbacks
(simplex, IPM, MIP) read: the solve running ends with kInterrupt, none starts after it,
and the solutions found are kept. The flag is the engine's own, cleared per puzzle:
highspy's `cancelSolve` flag is cleared only by its threaded `startSolve`, so after one
Ctrl-C every later solve of the cached instance would stop at once. HiGHS's presolve
calls no callback (a 16x16 with variants spends seconds there), so each solve runs in a
thread the backend waits for (the engine's own, one for all its solves): on Ctrl-C it
stops waiting, and an engine still solving is dropped from the cache, to stop at its
first callback; the next puzzle builds a new one.
"""

from __future__ import annotations

import queue
import statistics
import threading
import time
from collections.abc import Sequence
from typing import Any

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Deadline,
    Need,
    ctrl_c,
    interrupted,
)
from sudokulab.backends.extras import install
from sudokulab.layout import Layout
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, verdict

STOP_WAIT = 10.0  # seconds Ctrl-C waits for HiGHS to reach a callback and stop
# A later solve of a part (one more no-good row) may cost HiGHS far more than the first:
# proving that the Miracle with r1c1 = 8 and r1c2 = 2 has no second grid ran past 60 s
# (its root cut rounds take seconds each), while with a third cell fixed presolve proves
# each case in under a second. So a solve longer than this many seconds, or this many
# times the median of the puzzle's solves that ended, stops and its part is split on a
# cell's digits. The time a stopped solve spent is lost, so the budget is short: the
# Miracle's count took a third less time with these values than with 1 s and 3 times.
# The median, not the first solve: finding the first grid can be the hard part (the
# Miracle with r1c1 = 1: 20 s, where each later solve that ended took under a second),
# and a budget of the first solve's length let every stopped solve waste as much.
SPLIT_AFTER = 0.3
SPLIT_FACTOR = 1.0
# Each grid found adds a no-good row, and a part's later solves slow down as they pile up
# (the empty 4x4's 288 grids: 30 ms a solve on average, 8.7 s in all). So a part that
# has given this many grids is split too: in each smaller part the others' rows are void,
# and presolve drops them (1.4 s in all).
SPLIT_GRIDS = 8


class Engine:
    """One program of a shape and rule set, loaded once into HiGHS."""

    def __init__(self, box: tuple[int, int], rules: tuple, layout: Layout | None) -> None:
        from sudokulab.geometry import geometry
        from sudokulab.models import milp

        self.program = milp.build(geometry(box, rules, layout))
        self.highs = milp.load(self.program)
        self.highs.HandleKeyboardInterrupt = False  # base.ctrl_c hears Ctrl-C instead
        self.stopping = False  # set by Ctrl-C: the interrupt callbacks stop HiGHS
        for callback in (self.highs.cbSimplexInterrupt, self.highs.cbIpmInterrupt,
                         self.highs.cbMipInterrupt):
            callback += self.interrupt
        self.rows = self.highs.getNumRow()
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.solved = threading.Event()
        self.solving: threading.Thread | None = None

    def interrupt(self, event) -> None:
        """HiGHS's interrupt callback: stop the solve once Ctrl-C asked for it."""
        if self.stopping:
            event.interrupt()

    def stop(self) -> None:
        """Ask the solve running (and any later one of this puzzle) to stop."""
        self.stopping = True

    def run(self, key) -> bool:
        """One solve in the engine's solving thread; False if Ctrl-C came first (it goes
        on, to stop at HiGHS's first callback: the engine is no longer usable then)."""
        self.start()
        self.solved.clear()
        self.jobs.put(None)
        while not self.solved.wait(0.05) and not key.pressed:
            pass  # the wait wakes for Ctrl-C: note() runs in between
        if not self.solved.is_set():
            self.stopping = True
            # HiGHS stops at its next callback; a process that ends while HiGHS is still
            # solving in this thread aborts (SIGABRT), losing the count so far.
            self.solved.wait(STOP_WAIT)
            return False
        return True

    def start(self) -> None:
        """Start the solving thread, if it is not running yet."""
        if self.solving is None:
            self.solving = threading.Thread(target=self.serve, daemon=True,
                                            name="sudokulab-highs")
            self.solving.start()

    def close(self) -> None:
        """End the solving thread once its solve (if any) is done."""
        if self.solving is not None:
            self.jobs.put(False)

    def serve(self) -> None:
        """The solving thread: one solve per job (None), until told to end (False). One
        thread for every solve: HiGHS sets up its task scheduler per thread, and a new
        thread per solve cost a third of the speed on top1465."""
        while self.jobs.get() is None:
            try:
                self.highs.solve()
            finally:
                self.solved.set()

    def read(self) -> tuple[int, ...]:
        """The grid of the solution HiGHS just found."""
        return self.program.read(self.highs.getSolution().col_value)

    def fix(self, givens: Sequence[int]) -> list[int]:
        """Raise each given's binary to 1; the columns to put back."""
        columns = [self.program.x(cell, d) for cell, d in enumerate(givens) if d]
        for column in columns:
            self.highs.changeColBounds(column, 1.0, 1.0)
        return columns

    def unfix(self, columns: list[int]) -> None:
        """Put the bounds of fixed binaries back."""
        for column in columns:
            self.highs.changeColBounds(column, 0.0, self.program.upper[column])

    def restore(self, columns: list[int]) -> None:
        """Put the givens' bounds back and delete this puzzle's no-good rows."""
        import numpy as np

        self.unfix(columns)
        extra = self.highs.getNumRow() - self.rows
        if extra:
            self.highs.deleteRows(extra, np.arange(self.rows, self.rows + extra, dtype=np.int32))

    def split(self, givens: Sequence[int], part: dict[int, int]) -> list[dict[int, int]]:
        """The part cut in one per digit of a cell no given or fixed cell rules out: a
        cell that no filled cell constrains, if any (a far cell settles more, as r5c3 and
        r6c7 settle the Miracle), else the one with the fewest digits left."""
        filled = {c: d for c, d in enumerate(givens) if d} | part
        n = self.program.n
        near = self.program.geo.near
        open_ = [c for c in range(len(givens)) if c not in filled]
        far = [c for c in open_ if not any(f in near[c] for f in filled)]

        def digits(cell: int) -> list[int]:
            taken = {filled[p] for p in self.program.geo.peers[cell] if p in filled}
            return [d for d in range(1, n + 1) if d not in taken
                    and self.program.upper[self.program.x(cell, d)]]

        cell = far[len(far) // 2] if far else min(open_, key=lambda c: len(digits(c)))
        return [part | {cell: d} for d in digits(cell)]

    def exclude(self, grid: tuple[int, ...], blanks: list[int]) -> None:
        """A no-good row: not this grid again on the blank cells."""
        import numpy as np

        columns = np.array([self.program.x(c, grid[c]) for c in blanks], dtype=np.int32)
        self.highs.addRow(-float("inf"), float(len(blanks) - 1), len(columns), columns,
                          np.ones(len(columns)))


def split_budget(took: list[float]) -> float:
    """How long a later solve may run before its part is split, given how long the solves
    that ended took (see SPLIT_AFTER)."""
    return max(SPLIT_AFTER, SPLIT_FACTOR * statistics.median(took))


_engines: dict[tuple, Engine] = {}


def engine(box: tuple[int, int], rules: tuple, layout: Layout | None = None) -> Engine:
    """The process's HiGHS instance for a shape and rule set (built on first use)."""
    key = (box, rules, layout)
    if key not in _engines:
        if len(_engines) >= 8:  # the oldest goes, as an lru_cache's would
            _engines.pop(next(iter(_engines))).close()
        _engines[key] = Engine(box, rules, layout)
    return _engines[key]


def drop(warm: Engine) -> None:
    """Forget an engine whose solve Ctrl-C left running (its thread ends after it)."""
    for key, cached in list(_engines.items()):
        if cached is warm:
            del _engines[key]
    warm.close()


class MilpBackend(Backend):
    """A 0-1 integer program, no objective, solved by HiGHS's MIP solver."""

    name = "milp"
    paradigm = "mixed-integer linear programming: LP relaxation, cuts, branch and bound (HiGHS)"
    supported_rules = R.RULE_TYPES  # every rule is linear rows over the binaries
    multi_grid = True
    slow_to_enumerate = ("each further grid is the integer program solved again with one "
                         "more no-good row: about 50 grids a second on two 4x4s sharing a "
                         "box, 1 on the Miracle")
    option_table = {}
    needs = (Need("highspy", install("milp")),)

    @classmethod
    def ready(cls) -> Availability:
        """HiGHS's version (highspy is installed: see `needs`)."""
        from importlib.metadata import version

        return Availability(True, version=f"HiGHS {version('highspy')}")

    def forget(self, puzzle: Puzzle) -> None:
        """A new HiGHS instance for the puzzle's shape and rules: a warm one starts from
        the basis the last puzzle left, so its iterations depend on that puzzle."""
        for old in _engines.values():
            old.close()
        _engines.clear()
        engine(puzzle.box, puzzle.rules, puzzle.layout).start()

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Fix the givens, solve, and exclude each solution found until the limit; a
        later solve that overruns its budget splits its part on a cell's digits."""
        import highspy

        started = time.perf_counter()
        warm = engine(puzzle.box, puzzle.rules, puzzle.layout)
        fixed = warm.fix(puzzle.givens)
        blanks = [cell for cell, d in enumerate(puzzle.givens) if not d]
        built = time.perf_counter()
        found = self.new_found()
        stats = {"solves": 0, "mip_node_count": 0, "simplex_iteration_count": 0, "splits": 0}
        h, status = warm.highs, None
        complete, running = True, False
        parts: list[dict[int, int]] = [{}]  # digits fixed on top of the givens, per part
        budget: float | None = None  # set once a solve has ended
        took: list[float] = []  # the solves that ended (a solution, or none left)
        warm.stopping = False
        ended = (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kInfeasible)
        try:
            with ctrl_c(warm.stop) as key:
                while parts and complete and not running and not key.pressed:
                    part = parts.pop()
                    columns = warm.fix([part.get(c, 0) for c in range(len(puzzle.givens))])
                    in_part = 0
                    try:
                        while (limit is None or len(found) < limit) and not key.pressed:
                            left = deadline.left()
                            cut = budget is not None and (left is None or left > budget)
                            h.setOptionValue("time_limit", budget if cut else
                                             float("inf") if left is None else left)
                            solving = time.perf_counter()
                            if not warm.run(key):
                                running = True
                                break
                            status = h.getModelStatus()
                            if status in ended:
                                took.append(time.perf_counter() - solving)
                                budget = split_budget(took)
                            info = h.getInfo()
                            stats["solves"] += 1
                            stats["mip_node_count"] += max(0, info.mip_node_count)
                            stats["simplex_iteration_count"] += max(
                                0, info.simplex_iteration_count)
                            if key.pressed or status == highspy.HighsModelStatus.kInfeasible:
                                break
                            if cut and status == highspy.HighsModelStatus.kTimeLimit:
                                stats["splits"] += 1
                                parts += warm.split(puzzle.givens, part)
                                break
                            if status != highspy.HighsModelStatus.kOptimal:
                                complete = False
                                break
                            found.append(warm.read())
                            if not blanks:  # the givens fill the grid: no other solution
                                break
                            warm.exclude(found[-1], blanks)
                            in_part += 1
                            if in_part == SPLIT_GRIDS and len(part) < len(blanks) - 1:
                                stats["splits"] += 1
                                parts += warm.split(puzzle.givens, part)
                                break
                    finally:
                        if not running:
                            warm.unfix(columns)
                    if limit is not None and len(found) >= limit:
                        break
        finally:
            if running:  # HiGHS still owns it: never touched again
                drop(warm)
            else:
                warm.stopping = False
                warm.restore(fixed)
        times: dict[str, Any] = {"build_time": built - started,
                                 "solve_time": time.perf_counter() - built, "stats": stats}
        if key.pressed:
            raise interrupted(found, limit, **times)
        if not complete and status is not None and status not in (
                highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kInterrupt):
            raise RuntimeError(f"HiGHS ended with {h.modelStatusToString(status)}")
        return verdict(found, limit, complete=complete, **times,
                       message="" if complete else "HiGHS stopped at the time limit")

    def describe(self, puzzle: Puzzle) -> str:
        """The program: its binaries, rows by part of the rules, and how givens go in."""
        from sudokulab.geometry import geometry
        from sudokulab.models import milp

        program = milp.build(geometry(puzzle.box, puzzle.rules, puzzle.layout))
        cells = len(program.geo.cells) * program.n
        lines = [f"milp: a 0-1 program for HiGHS, no objective: {len(program.names):,} "
                 f"binaries ({cells:,} x(cell, d), r1c1_5 meaning 'holds 5'"
                 + (f", {len(program.names) - cells} auxiliary" if len(program.names) > cells
                    else "") + f"), {len(program.rows):,} rows by part:"]
        width = max(map(len, program.groups), default=0)
        lines += [f"    {group.ljust(width)}  {rows:>7,}" for group, rows in
                  program.groups.items()]
        lines.append(f"  givens: {sum(map(bool, puzzle.givens))}, each raises its binary's "
                     "lower bound to 1 (the program is loaded once per shape and reused)")
        lines.append("  counting: a no-good row per solution found, solved again until "
                     "infeasible (a part whose solve overruns a budget is split on a "
                     "cell's digits); `sudokulab export --to lp` writes the LP file")
        return "\n".join(lines)
