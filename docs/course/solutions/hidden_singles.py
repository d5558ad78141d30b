"""Exercise 1, solved: rule (2), hidden singles, put back into the essay's propagation."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))

from naked_singles import EssayBackend, NakedSinglesEssay  # noqa: E402

from sudokulab.backends.essay import Values  # noqa: E402


class HiddenSinglesEssay(NakedSinglesEssay):
    """Rule (2): "If a unit u is reduced to only one place for a value d, then put it there."""

    def only_place(self, values: Values, s: str, d: str) -> Values | bool:
        """For each unit of s, which just lost d: no place left fails, one place takes d."""
        for u in self.units[s]:
            dplaces = [s2 for s2 in u if d in values[s2]]
            if not dplaces:
                self.failed = u
                return False
            if len(dplaces) == 1 and not self.assign(values, dplaces[0], d):
                return False
        return values


class HiddenSingles(EssayBackend):
    """Rules (1) and (2), and search."""

    name = "hidden-singles"
    essay_class = HiddenSinglesEssay
