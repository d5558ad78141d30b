"""Exercise 2, solved: conflict analysis to the first unique implication point."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))

from decision_cut import CdclBackend  # noqa: E402

from sudokulab.backends import cdcl  # noqa: E402


class FirstUipSolver(cdcl.Solver):
    """Resolve the conflict with the reasons of the current level's literals, latest
    first, until one literal of that level is left: the first UIP."""

    def analyze(self, conflict: list[int]) -> tuple[list[int], int]:
        """The first-UIP clause and the second highest level in it (the backjump)."""
        here, seen = len(self.levels), set()
        learnt, pending, index, p = [0], 0, len(self.trail) - 1, 0
        clause = conflict
        while True:
            for q in clause:
                if q != p and abs(q) not in seen and self.level[abs(q)] > 0:
                    seen.add(abs(q))
                    self.bump_activity(abs(q))
                    if self.level[abs(q)] == here:
                        pending += 1
                    else:
                        learnt.append(q)
            while abs(self.trail[index]) not in seen:
                index -= 1
            p, index, pending = self.trail[index], index - 1, pending - 1
            if not pending:
                break
            clause = self.reason[abs(p)]
        learnt[0] = -p
        self.decay_activities()
        if len(learnt) == 1:
            return learnt, 0
        top = max(range(1, len(learnt)), key=lambda k: self.level[abs(learnt[k])])
        learnt[1], learnt[top] = learnt[top], learnt[1]
        return learnt, self.level[abs(learnt[1])]


class FirstUip(CdclBackend):
    """The teaching CDCL with first-UIP learning, as sat:solver=teach."""

    name = "first-uip"
    solver_class = FirstUipSolver
