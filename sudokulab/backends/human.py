"""Human-style solving as a backend: named techniques, one step at a time, no guessing.

The answer is a proof when it comes: every step without a uniqueness technique holds in
every solution, so a grid the steps fill is the only one (UNIQUE), and a contradiction
they reach means there is none (NONE): a blank cell without a candidate, or a rule broken
by the givens, a step's placements or the full grid (a cage's sum missed). When the
enabled techniques find no further step, the status is STALLED with the partial grid: no
verdict, and no failure either. Uniqueness techniques (Unique Rectangles, BUG+1) assume
one solution; with `uniqueness=yes` a grid filled with the help of one is only SOLVED,
since the assumption is not proven here (a contradiction after one is STALLED).
"""

from __future__ import annotations

from sudokulab.backends.base import (
    YES,
    Availability,
    Backend,
    Choice,
    Deadline,
    YesNo,
)
from sudokulab.human import FIRST_RULES
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status, verdict


def technique_names() -> list[str]:
    """The techniques `upto` takes, easiest first (importing the solver only when asked)."""
    from sudokulab.human import solver

    return [technique.name for technique in solver.TECHNIQUES]


class HumanBackend(Backend):
    """The technique ladder of sudokulab.human, easiest step first."""

    name = "human"
    paradigm = "human-style techniques (no search)"
    supported_rules = FIRST_RULES  # the line, dot and region rules are beyond its techniques
    complete = False  # no guessing: it stalls where its techniques find no step

    option_table = {
        "upto": Choice(technique_names, fold=True,
                       help="the hardest technique to use (default: every one)"),
        "uniqueness": YesNo(help="also use the techniques that assume one solution (a "
                                 "grid filled with their help is then only SOLVED)"),
    }

    def __init__(self, upto: str = "", uniqueness: str = "no") -> None:
        from sudokulab.human import solver

        super().__init__()
        self.unique = uniqueness.lower() in YES
        self.techniques = solver.select(upto=upto) if upto else solver.TECHNIQUES

    @classmethod
    def available(cls) -> Availability:
        """Plain Python: always available."""
        from sudokulab import __version__

        return Availability(True, version=f"sudokulab {__version__}")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Take steps until the grid is full, broken, or no technique applies."""
        import time

        from sudokulab.human import solver

        start = time.perf_counter()
        path = solver.solve(puzzle, self.techniques, unique=self.unique,
                            stop=deadline.passed)
        took = time.perf_counter() - start
        stats: dict[str, float | str] = {"steps": len(path.steps)}
        stats.update({f"steps: {name}": count for name, count in path.counts().items()})
        assumed = any(t.uniqueness for t in self.techniques if t.name in path.counts())
        if path.stopped:
            return Result(Status.TIMEOUT, exact=False, stats=stats, solve_time=took,
                          message=f"timeout after {len(path.steps)} steps, before the "
                                  "techniques finished")
        if path.broken and not assumed:
            return verdict((), limit, complete=True, stats=stats, solve_time=took,
                           message=f"the steps reach a contradiction ({path.contradiction}): "
                                   f"no solution")
        if path.broken:  # a uniqueness step may be what broke it: no verdict either way
            return Result(Status.STALLED, stats=stats, solve_time=took, partial=path.grid,
                          message=f"the steps reach a contradiction ({path.contradiction}), "
                                  f"but uniqueness techniques assumed one solution")
        if path.solved:
            if assumed:
                return Result(Status.SOLVED, (path.grid,), 1, False, stats, solve_time=took,
                              message="uniqueness techniques assumed one solution")
            return verdict((path.grid,), limit, complete=True, stats=stats, solve_time=took)
        return Result(Status.STALLED, stats=stats, solve_time=took, partial=path.grid,
                      message=f"stalled after {len(path.steps)} steps: no enabled technique "
                              f"applies")

    def describe(self, puzzle: Puzzle) -> str:
        """The techniques, in the order they are tried."""
        from sudokulab.human import solver

        chosen = solver.usable(puzzle, self.techniques, self.unique)
        return "human: tries, in this order, " + ", ".join(t.name for t in chosen)
