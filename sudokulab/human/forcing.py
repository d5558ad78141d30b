"""Forcing chains and nets: follow an assumption with singles, without guessing.

Assume a candidate true and apply naked and hidden singles until nothing changes. If that
breaks the grid (a cell or a unit with no place left), the candidate is false: a
contradiction. If every candidate of a cell (or every place of a digit in a unit) leads to
the same placement, it holds: a verity. A forcing net also lets the assumption run through
locked candidates and naked pairs; a nested net lets it use forcing chains themselves.
Each is a proof by cases: nothing is tried and kept on luck.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sudokulab.human.candidates import Candidates, digits
from sudokulab.human.step import Step, make, name


class Stopped(Exception):
    """The caller's `stop` said to give up in the middle of a search."""


# The deadline of the solve under way: asked before each cell's assumptions, since one
# search over a nearly empty grid can take far longer than every other step together.
_stop: Callable[[], bool] | None = None


@contextmanager
def stopping(stop: Callable[[], bool] | None) -> Iterator[None]:
    """Within the block, the forcing searches raise Stopped once `stop()` says so."""
    global _stop
    before, _stop = _stop, stop
    try:
        yield
    finally:
        _stop = before


class Contradiction:
    """What an assumption led to when it broke the grid: how many placements it took."""

    def __init__(self, placed: int) -> None:
        self.placed = placed


def propagate(g: Candidates, cell: int, digit: int,
              net: int = 0) -> Candidates | Contradiction:
    """The grid after assuming cell=digit and applying singles (and, for a net, more), or a
    Contradiction saying how many placements it took to break the grid."""
    h = g.copy()
    if not h.cands[cell] >> (digit - 1) & 1:
        return Contradiction(0)
    h.place(cell, digit)
    if not _singles(h):
        return Contradiction(placed(g, h))
    while net:
        if not _net_round(h, net):
            return Contradiction(placed(g, h)) if _broken(h) else h
        if not _singles(h):
            return Contradiction(placed(g, h))
    return h


def placed(g: Candidates, h: Candidates) -> int:
    """How many cells h fills that g leaves blank: the length of the chain that led there."""
    return sum(1 for a, b in zip(g.values, h.values) if b and not a)


def _broken(h: Candidates) -> bool:
    """Whether the grid shows a contradiction."""
    return h.broken()


def _singles(h: Candidates) -> bool:
    """Naked and hidden singles until nothing changes; False on a contradiction."""
    values, cands, units = h.values, h.cands, h.layout.units
    full = (1 << h.n) - 1
    while True:
        progress = False
        for c, m in enumerate(cands):
            if values[c]:
                continue
            if not m:
                return False
            if not m & (m - 1):
                h.place(c, m.bit_length())
                progress = True
        for unit in units:
            once = twice = placed = 0
            for c in unit:
                m = cands[c]
                twice |= once & m
                once |= m
                if values[c]:
                    b = 1 << (values[c] - 1)
                    if placed & b:
                        return False
                    placed |= b
            if (once | placed) != full:
                return False
            singles = once & ~twice & ~placed
            while singles:
                low = singles & -singles
                singles ^= low
                cell = next((c for c in unit if cands[c] & low), -1)
                if cell < 0:  # an earlier single of this unit took the cell
                    return False
                h.place(cell, low.bit_length())
                progress = True
        if not progress:
            return True


def _net_round(h: Candidates, net: int) -> bool:
    """One round of the net's extra techniques; whether it changed anything."""
    from sudokulab.human import intersections, subsets

    finders = [intersections.pointing, intersections.claiming,
               lambda x: subsets.naked(x, 2), lambda x: subsets.hidden(x, 2)]
    if net > 1:
        finders.append(lambda x: contradiction_chain(x))
    for find in finders:
        step = next(find(h), None)
        if step is not None:
            h.apply(step)
            return True
    return False


_memo: dict = {}


def _outcomes(g: Candidates, net: int) -> Iterator[tuple[int, dict]]:
    """For each blank cell (fewest candidates first), each candidate's outcome; computed as
    asked and memoized on the grid's state, so the verity search reuses the contradiction
    search's work."""
    key = (net, tuple(g.values), tuple(g.cands), g.puzzle.box, g.puzzle.rules)
    if _memo.get("key") != key:
        _memo.clear()
        _memo["key"], _memo["out"] = key, {}
    known = _memo["out"]
    cells = sorted((c for c in g.layout.cells if g.cands[c]),
                   key=lambda c: (g.cands[c].bit_count(), c))
    for cell in cells:
        if cell not in known:
            if _stop is not None and _stop():
                raise Stopped
            known[cell] = {d: propagate(g, cell, d, net) for d in digits(g.cands[cell])}
        yield cell, known[cell]


def contradiction_chain(g: Candidates, net: int = 0) -> Iterator[Step]:
    """A candidate whose assumption breaks the grid."""
    n = g.n
    technique = _name(net, "Contradiction")
    for cell, results in _outcomes(g, net):
        for d, h in results.items():
            if isinstance(h, Contradiction):
                yield make(technique, n, f"{name(cell, n)}={d} leads to a contradiction",
                           eliminations=[(cell, d)], cells=[cell],
                           sentence=f"Putting {d} in {name(cell, n)} and following the "
                           f"{'singles' if not net else 'consequences'} leaves a cell or a "
                           f"unit with no place for a digit, so {name(cell, n)} is not {d}.",
                           length=h.placed)


def verity_chain(g: Candidates, net: int = 0) -> Iterator[Step]:
    """A placement that every candidate of a cell leads to."""
    n = g.n
    technique = _name(net, "Verity")
    for cell, results in _outcomes(g, net):
        if any(isinstance(h, Contradiction) for h in results.values()) or len(results) < 2:
            continue
        grids = list(results.values())
        common = [c for c in g.layout.cells if not g.values[c] and c != cell
                  and grids[0].values[c] and all(h.values[c] == grids[0].values[c]
                                                 for h in grids[1:])]
        if common:
            target = common[0]
            d = grids[0].values[target]
            options = ",".join(map(str, results))
            yield make(technique, n, f"{name(cell, n)}={options} all lead to "
                       f"{name(target, n)}={d}", placements=[(target, d)],
                       cells=[cell, target], sentence=f"Whichever of {options} "
                       f"{name(cell, n)} holds, {name(target, n)} ends up {d}, so it is {d}.",
                       length=max(placed(g, h) for h in grids))


def _name(net: int, kind: str) -> str:
    """The technique name of a depth."""
    return {0: "Forcing Chain", 1: "Forcing Net", 2: "Nested Forcing Net"}[net] + \
        ("" if net == 2 else f" {kind}")


def net_contradiction(g: Candidates) -> Iterator[Step]:
    """A contradiction reached through singles, locked candidates and pairs."""
    return contradiction_chain(g, 1)


def net_verity(g: Candidates) -> Iterator[Step]:
    """A verity reached through singles, locked candidates and pairs."""
    return verity_chain(g, 1)


def nested(g: Candidates) -> Iterator[Step]:
    """A contradiction reached through forcing chains inside the assumption."""
    return contradiction_chain(g, 2)
