"""Contradictions: the first rule the filled cells break, said in one line naming the cells.

The pencil marks carry the rules only as far as placing a digit removes it from peers and
its neighbours' from non-consecutive cells; parity and cage sums are read from the givens
once. So a step may fill a cage whose digits miss its sum, and givens may break a rule from
the start. Every step that assumes no uniqueness holds in every solution: a grid that
breaks a rule proves there is none, and is never a solved grid.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from sudokulab import rules as R
from sudokulab.geometry import geometry
from sudokulab.human.candidates import Candidates
from sudokulab.human.step import name


@dataclass(frozen=True)
class Watch:
    """What the sum and parity rules ask of each cell, laid out once per rule set."""

    parity: tuple[tuple[bool, ...], ...]     # per cell: `even` of each parity rule on it
    cages_of: tuple[tuple[int, ...], ...]    # per cell: the indexes of its cages
    cages: tuple[tuple[tuple[int, ...], int], ...]  # (cells, total)


@lru_cache(maxsize=64)
def watch(box: tuple[int, int], rules: tuple) -> Watch:
    """The watch of a box shape and rule set (cached)."""
    geo = geometry(box, rules)
    parity: list[tuple[bool, ...]] = [() for _ in geo.cells]
    for rule in rules:
        if isinstance(rule, R.Parity):
            for cell in geo.indices(rule.cells):
                parity[cell] += (rule.even,)
    cages = tuple((tuple(geo.indices(cage.cells)), cage.total) for cage in geo.cages)
    cages_of = tuple(tuple(k for k, (cells, _) in enumerate(cages) if cell in cells)
                     for cell in geo.cells)
    return Watch(tuple(parity), cages_of, cages)


def broken_rule(g: Candidates, cells: Iterable[int]) -> str:
    """The first rule the digits in these cells break, with the cells already filled: one
    line naming the cells, or '' when they break none. Checks every rule the techniques
    know: units and peers (cages, chess moves), non-consecutive, parity, cage sums."""
    values, n, tables = g.values, g.n, g.tables
    rules = g.puzzle.rules
    w = watch(g.puzzle.box, rules) if rules else None
    for cell in cells:
        d = values[cell]
        if not d:
            continue
        if d in tables.peer_items[cell](values):  # the usual case, answered without a loop
            other = min(p for p in tables.peers[cell] if values[p] == d)
            why = geometry(g.puzzle.box, rules).why_peers(cell, other)
            return f"{d} at {name(cell, n)} and {name(other, n)} ({why})"
        for other in tables.neighbours[cell]:
            if values[other] and abs(values[other] - d) == 1:
                return (f"{d} at {name(cell, n)} and {values[other]} at {name(other, n)} are "
                        f"consecutive (non-consecutive)")
        if w is None:
            continue
        for even in w.parity[cell]:
            if (d % 2 == 0) != even:
                return (f"{d} at {name(cell, n)} is {'odd' if d % 2 else 'even'} "
                        f"(parity: the cell is {'even' if even else 'odd'})")
        for k in w.cages_of[cell]:
            problem = cage_problem(values, *w.cages[k], n)
            if problem:
                return problem
    return ""


def cage_problem(values: list[int], cells: tuple[int, ...], total: int, n: int) -> str:
    """Why a cage's filled cells cannot make its total with distinct digits, or ''."""
    placed = [values[c] for c in cells if values[c]]
    blanks = len(cells) - len(placed)
    rest = total - sum(placed)
    if reachable(rest, blanks, frozenset(range(1, n + 1)) - set(placed)):
        return ""
    where = f"cage {'+'.join(name(c, n) for c in cells)}={total}"
    if not blanks:
        return f"{where} adds up to {sum(placed)}"
    filled = ", ".join(f"{name(c, n)}={values[c]}" for c in cells if values[c])
    return (f"{where} cannot reach its sum: {filled} leave {rest} for {blanks} blank "
            f"cell{'s' if blanks > 1 else ''}")


@lru_cache(maxsize=4096)
def reachable(rest: int, blanks: int, digits: frozenset[int]) -> bool:
    """Whether `blanks` distinct digits of `digits` add up to `rest`."""
    return any(sum(chosen) == rest for chosen in combinations(sorted(digits), blanks))

