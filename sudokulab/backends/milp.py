"""The milp backend: a 0-1 integer program of the puzzle (encodings/milp.py) solved by HiGHS:
LP relaxation, presolve, cutting planes, branch and bound.

Each process keeps one HiGHS instance per shape and rule set; a puzzle's givens raise
their binaries' lower bounds to 1 and the bounds go back after the search. Counting
finds a solution, adds a no-good row (the blank cells' chosen binaries sum to at most
blanks - 1) and solves again, until the program is infeasible; the no-good rows are
deleted after the puzzle. HiGHS's `time_limit` carries the deadline; Ctrl-C asks
HiGHS to stop (`cancelSolve`, checked in its callbacks) and keeps the solutions found.
"""

from __future__ import annotations

import time
from functools import lru_cache

from sudokulab import rules as R
from sudokulab.backends.base import Availability, Backend, Deadline, ctrl_c, interrupted
from sudokulab.layout import Layout
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, verdict

FIX = "pip install highspy (or pip install 'sudokulab[milp]', or `make install`)"


class Engine:
    """One program of a shape and rule set, loaded once into HiGHS."""

    def __init__(self, box: tuple[int, int], rules: tuple, layout: Layout | None) -> None:
        from sudokulab.encodings import milp
        from sudokulab.geometry import geometry

        self.program = milp.build(geometry(box, rules, layout))
        self.highs = milp.load(self.program)
        self.highs.HandleKeyboardInterrupt = False  # base.ctrl_c hears Ctrl-C instead
        self.highs.HandleUserInterrupt = True  # so that cancelSolve() stops a solve
        self.rows = self.highs.getNumRow()

    def fix(self, givens: list[int]) -> list[int]:
        """Raise each given's binary to 1; the columns to put back."""
        columns = [self.program.x(cell, d) for cell, d in enumerate(givens) if d]
        for column in columns:
            self.highs.changeColBounds(column, 1.0, 1.0)
        return columns

    def restore(self, columns: list[int]) -> None:
        """Put the givens' bounds back and delete this puzzle's no-good rows."""
        import numpy as np

        for column in columns:
            self.highs.changeColBounds(column, 0.0, self.program.upper[column])
        extra = self.highs.getNumRow() - self.rows
        if extra:
            self.highs.deleteRows(extra, np.arange(self.rows, self.rows + extra, dtype=np.int32))

    def exclude(self, grid: tuple[int, ...], blanks: list[int]) -> None:
        """A no-good row: not this grid again on the blank cells."""
        import numpy as np

        columns = np.array([self.program.x(c, grid[c]) for c in blanks], dtype=np.int32)
        self.highs.addRow(-float("inf"), float(len(blanks) - 1), len(columns), columns,
                          np.ones(len(columns)))


@lru_cache(maxsize=8)
def engine(box: tuple[int, int], rules: tuple, layout: Layout | None = None) -> Engine:
    """The process's HiGHS instance for a shape and rule set (built on first use)."""
    return Engine(box, rules, layout)


class MilpBackend(Backend):
    """A 0-1 integer program, no objective, solved by HiGHS's MIP solver."""

    name = "milp"
    paradigm = "mixed-integer linear programming: LP relaxation, cuts, branch and bound (HiGHS)"
    supported_rules = R.RULE_TYPES  # every rule is linear rows over the binaries
    multi_grid = True
    option_table: dict = {}

    @classmethod
    def available(cls) -> Availability:
        """Available when highspy imports."""
        try:
            import highspy  # noqa: F401  (whether it imports is the question)
        except ImportError as error:
            return Availability(False, reason=f"cannot import highspy: {error}", fix=FIX)
        from importlib.metadata import version

        return Availability(True, version=f"HiGHS {version('highspy')}")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Fix the givens, solve, and exclude each solution found until the limit."""
        import highspy

        started = time.perf_counter()
        warm = engine(puzzle.box, puzzle.rules, puzzle.layout)
        fixed = warm.fix(puzzle.givens)
        blanks = [cell for cell, d in enumerate(puzzle.givens) if not d]
        built = time.perf_counter()
        found: list[tuple[int, ...]] = []
        stats = {"solves": 0, "mip_node_count": 0, "simplex_iteration_count": 0}
        h, status = warm.highs, None
        complete = True
        try:
            with ctrl_c(h.cancelSolve) as key:
                while limit is None or len(found) < limit:
                    left = deadline.left()
                    h.setOptionValue("time_limit", float("inf") if left is None else left)
                    h.solve()
                    status = h.getModelStatus()
                    info = h.getInfo()
                    stats["solves"] += 1
                    stats["mip_node_count"] += max(0, info.mip_node_count)
                    stats["simplex_iteration_count"] += max(0, info.simplex_iteration_count)
                    if key.pressed:
                        break
                    if status != highspy.HighsModelStatus.kOptimal:
                        complete = status == highspy.HighsModelStatus.kInfeasible
                        break
                    found.append(warm.program.read(h.getSolution().col_value))
                    if not blanks:  # the givens fill the grid: no other solution
                        break
                    warm.exclude(found[-1], blanks)
        finally:
            warm.restore(fixed)
        times = {"build_time": built - started, "solve_time": time.perf_counter() - built,
                 "stats": stats}
        if key.pressed:
            raise interrupted(found, limit, **times)
        if not complete and status is not None and status not in (
                highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kInterrupt):
            raise RuntimeError(f"HiGHS ended with {h.modelStatusToString(status)}")
        return verdict(found, limit, complete=complete, **times,
                       message="" if complete else "HiGHS stopped at the time limit")

    def describe(self, puzzle: Puzzle) -> str:
        """The program: its binaries, rows by part of the rules, and how givens go in."""
        from sudokulab.encodings import milp
        from sudokulab.geometry import geometry

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
                     "infeasible; `sudokulab export --to milp-lp` writes the LP file")
        return "\n".join(lines)
