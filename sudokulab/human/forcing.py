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
    if not g.cands[cell] >> (digit - 1) & 1:
        return Contradiction(0)
    key = (net, cell, digit, g.puzzle.box, g.puzzle.rules)
    before = _outcome.get(key)
    if before is not None and _below(before[1], g) and _below(g, before[0]):
        return before[1]
    found = _propagate(g, cell, digit, net)
    if not isinstance(found, Contradiction):
        if len(_outcome) >= OUTCOMES:
            _outcome.clear()
        _outcome[key] = (g.copy(), found)
    return found


# The last grid each assumption led to, with the grid it started from, by (net, cell,
# digit, shape, rules), kept across grids: the steps between two searches only remove
# candidates, and on a grid within the one it started from, an assumption leads to the grid
# it led to before whenever that grid lies within the new one (the singles, the net's
# techniques and the nested chains only ever remove what every grid below theirs lacks too,
# so they end in the same grid). A contradiction is searched again: its length may differ.
_outcome: dict = {}
OUTCOMES = 1 << 16


def _below(h: Candidates, g: Candidates) -> bool:
    """Whether grid h lies within g: g's digits placed alike in h, h's candidates and other
    digits among g's candidates."""
    hv, hc = h.values, h.cands
    for c, (v, m) in enumerate(zip(g.values, g.cands)):
        if v:
            if hv[c] != v:
                return False
        elif hv[c]:
            if not m >> (hv[c] - 1) & 1:
                return False
        elif hc[c] & ~m:
            return False
    return True


def _propagate(g: Candidates, cell: int, digit: int, net: int) -> Candidates | Contradiction:
    """propagate, searched."""
    h = g.copy()
    if g.cached("forcing: quiet", lambda: _quiet(g)):
        # nothing in g shows a single: only what the assumption changes can
        changed, touched = _place(h, cell, digit)
        ok = _singles(h, changed, touched)
    else:
        h.place(cell, digit)
        ok = _singles(h)
    if not ok:
        return Contradiction(placed(g, h))
    while net:
        rounded = _net_round(h, net)
        if rounded is None:
            return Contradiction(placed(g, h)) if _broken(h) else h
        # h showed no single before the round: only the cells it changed can now
        if not _singles(h, *rounded):
            return Contradiction(placed(g, h))
    return h


def _quiet(g: Candidates) -> bool:
    """Whether no cell and no unit of g shows a single or a contradiction."""
    values, cands, full = g.values, g.cands, (1 << g.n) - 1
    for c, m in enumerate(cands):
        if not values[c] and not m & (m - 1):
            return False
    for unit in g.tables.units:
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
        if (once | placed) != full or once & ~twice & ~placed:
            return False
    return True


def placed(g: Candidates, h: Candidates) -> int:
    """How many cells h fills that g leaves blank: the length of the chain that led there."""
    return sum(1 for a, b in zip(g.values, h.values) if b and not a)


def _broken(h: Candidates) -> bool:
    """Whether the grid shows a contradiction."""
    return h.broken()


def _singles(h: Candidates, cells: int = -1, units_: int = -1) -> bool:
    """Naked and hidden singles until nothing changes; False on a contradiction.

    Rounds as a player makes them: the cells in order (naked singles), then the units in
    order (hidden singles), again until a round places nothing. After the first round only
    what changed since it was last looked at is looked at again: a cell or a unit that
    showed nothing then shows nothing now, so the placements, their order and the point
    where a contradiction shows are those of looking at everything every round."""
    values, cands, units = h.values, h.cands, h.tables.units
    full = (1 << h.n) - 1
    h._cache = None

    def place(cell: int, d: int) -> tuple[int, int]:
        return _place(h, cell, d)

    cell_todo = (1 << len(values)) - 1 if cells < 0 else cells
    unit_todo = (1 << len(units)) - 1 if units_ < 0 else units_
    while cell_todo or unit_todo:
        todo, cell_todo, later = cell_todo, 0, 0
        while todo:   # in cell order; a cell changed behind the scan waits a round
            low = todo & -todo
            todo ^= low
            c = low.bit_length() - 1
            if values[c]:
                continue
            m = cands[c]
            if not m:
                return False
            if not m & (m - 1):
                changed, touched = place(c, m.bit_length())
                ahead = changed & ~((low << 1) - 1)
                todo |= ahead
                later |= changed & ~ahead
                unit_todo |= touched
        cell_todo |= later
        todo, unit_todo, later = unit_todo, 0, 0
        while todo:   # in unit order; likewise
            low = todo & -todo
            todo ^= low
            unit = units[low.bit_length() - 1]
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
                bit_ = singles & -singles
                singles ^= bit_
                cell = next((c for c in unit if cands[c] & bit_), -1)
                if cell < 0:  # an earlier single of this unit took the cell
                    return False
                changed, touched = place(cell, bit_.bit_length())
                cell_todo |= changed | (1 << cell)
                ahead = touched & ~((low << 1) - 1)
                todo |= ahead
                later |= touched & ~ahead
        unit_todo |= later
    return True


def _place(h: Candidates, cell: int, d: int) -> tuple[int, int]:
    """Candidates.place, saying which cells (a bitmask) and units (another) it changed."""
    tables, values, cands = h.tables, h.values, h.cands
    unit_bits = _unit_bits(tables)
    h._cache = None
    values[cell], cands[cell] = d, 0
    blanks = h.blanks
    for u in tables.units_of[cell]:
        blanks[u] -= 1
    b = 1 << (d - 1)
    changed, touched = 0, unit_bits[cell]
    for peer in tables.peers[cell]:
        if cands[peer] & b:
            cands[peer] ^= b
            changed |= 1 << peer
            touched |= unit_bits[peer]
    if tables.neighbours[cell]:
        near = (b >> 1 | b << 1) & ((1 << h.n) - 1)
        for other in tables.neighbours[cell]:
            if cands[other] & near:
                cands[other] &= ~near
                changed |= 1 << other
                touched |= unit_bits[other]
    return changed, touched


def _unit_bits(tables) -> list[int]:
    """Per cell, its units as a bitmask over the units (kept in the tables' memo)."""
    found = tables.memo.get("forcing: unit bits")
    if found is None:
        found = tables.memo["forcing: unit bits"] = [
            sum(1 << u for u in tables.units_of[c]) for c in tables.cells]
    return found


def _net_round(h: Candidates, net: int) -> tuple[int, int] | None:
    """One round of the net's extra techniques: the cells and the units it changed (as
    bitmasks, -1 for all), or None when it finds nothing."""
    from sudokulab.human import intersections, subsets

    finders = [intersections.pointing, intersections.claiming,
               lambda x: subsets.naked(x, 2), lambda x: subsets.hidden(x, 2)]
    if net > 1:
        finders.append(_first_contradiction)
    for find in finders:
        step = next(find(h), None)
        if step is not None:
            h.apply(step)
            if step.placements:
                return -1, -1
            bits = _unit_bits(h.tables)
            cells = units = 0
            for cell, _ in step.eliminations:
                cells |= 1 << cell
                units |= bits[cell]
            return cells, units
    return None


def _first_contradiction(h: Candidates) -> Iterator[Step]:
    """The step contradiction_chain(h) finds first, searched faster for a nested net: a
    candidate that a solution within h holds cannot lead to a contradiction (singles keep
    every solution within the grid), so only the candidates no known solution holds are
    followed, and each assumption that breaks nothing is carried on to a solution."""
    n = h.n
    cover = _covered(h)
    # searching for solutions pays where they are many (a grid with few givens); where they
    # are scarce it is given up for the puzzle after eight searches with less than 1 in 4
    searching = _witnesses["found"] * 4 + 8 > _witnesses["tried"]
    cells = sorted((c for c in h.tables.cells if h.cands[c]),
                   key=lambda c: (h.cands[c].bit_count(), c))
    for cell in cells:
        if _stop is not None and _stop():
            raise Stopped
        for d in _unheld(h, cell, cover):
            found = propagate(h, cell, d)
            if isinstance(found, Contradiction):
                yield make("Forcing Chain Contradiction", n, f"{name(cell, n)}={d} leads "
                           "to a contradiction", eliminations=[(cell, d)], cells=[cell],
                           length=found.placed)
                return
            if not searching:
                continue
            solution = _solution(found, cover)
            _witnesses["tried"] += 1
            # h holds no solution when its assumption is false (most of a unique puzzle's):
            # after one search in vain, only the singles are followed, as before
            searching = bool(solution)
            if solution:
                _witnesses["found"] += 1
                grids = _witnesses["grids"]
                if len(grids) >= WITNESSES:
                    del grids[: WITNESSES // 2]
                grids.append(solution)
                cover |= solution


# Solutions met by the nested nets' searches (see _first_contradiction), kept across grids
# of one puzzle: a solution within one grid is one within every later grid it lies in. Each
# is a bitmask over (cell, digit) pairs, bit cell * n + digit - 1, as is a grid's candidates.
_witnesses: dict = {"puzzle": None, "grids": [], "tried": 0, "found": 0}
WITNESSES = 1 << 10


def allowed(h: Candidates) -> int:
    """The grid's digits and candidates as one bitmask over (cell, digit) pairs."""
    n, mask = h.n, 0
    for c in reversed(h.tables.cells):
        v = h.values[c]
        mask = mask << n | (1 << (v - 1) if v else h.cands[c])
    return mask


def _covered(h: Candidates) -> int:
    """The (cell, digit) pairs, as a bitmask, that some known solution within h holds."""
    if _witnesses["puzzle"] != h.puzzle:
        _witnesses.update(puzzle=h.puzzle, grids=[], tried=0, found=0)
    within, cover = allowed(h), 0
    for grid in _witnesses["grids"]:
        if not grid & ~within:
            cover |= grid
    return cover


def _unheld(h: Candidates, cell: int, cover: int) -> list[int]:
    """The cell's candidates that no known solution (`cover`, from _covered) holds."""
    return digits(h.cands[cell] & ~(cover >> (cell * h.n)) & ((1 << h.n) - 1))


def _solution(h: Candidates, cover: int, budget: int = 64) -> int:
    """A solution of the puzzle within h (a grid on which singles find nothing), searched
    depth first with singles, fewest candidates first, the digits no known solution holds
    (`cover`) before the others; as a bitmask over (cell, digit) pairs (see _witnesses), 0
    when none turns up within the budget of assumptions. Every solution is checked against
    the puzzle's rules."""
    from sudokulab.check import check

    left, n, full = [budget], h.n, (1 << h.n) - 1

    def search(x: Candidates) -> int:
        blanks = [c for c in x.tables.cells if not x.values[c]]
        if not blanks:
            return 0 if check(x.puzzle, x.grid()) else allowed(x)
        cell = min(blanks, key=lambda c: x.cands[c].bit_count())
        known = cover >> (cell * n) & full
        for d in digits(x.cands[cell] & ~known) + digits(x.cands[cell] & known):
            if left[0] <= 0:
                return 0
            left[0] -= 1
            y = x.copy()
            if _singles(y, *_place(y, cell, d)):
                found = search(y)
                if found:
                    return found
        return 0

    return search(h)


_memo: dict = {}


def _outcomes(g: Candidates, net: int, held: bool = False) -> Iterator[tuple[int, dict]]:
    """For each blank cell (fewest candidates first), each candidate's outcome in digit
    order; computed as asked and memoized on the grid's state, so the verity search reuses
    the contradiction search's work. With `held`, the candidates a known solution within g
    holds are left out: no assumption a solution bears can break the grid."""
    key = (net, tuple(g.values), tuple(g.cands), g.puzzle.box, g.puzzle.rules)
    if _memo.get("key") != key:
        _memo.clear()
        _memo["key"], _memo["out"] = key, {}
    known = _memo["out"]
    cover, seen = 0, -1
    cells = sorted((c for c in g.tables.cells if g.cands[c]),
                   key=lambda c: (g.cands[c].bit_count(), c))
    for cell in cells:
        if held and seen != _witnesses["found"]:  # the nested searches found more
            cover, seen = _covered(g), _witnesses["found"]
        wanted = _unheld(g, cell, cover)
        results = known.setdefault(cell, {})
        if any(d not in results for d in wanted):
            if _stop is not None and _stop():
                raise Stopped
            for d in wanted:
                if d not in results:
                    results[d] = propagate(g, cell, d, net)
        yield cell, {d: results[d] for d in wanted}


def contradiction_chain(g: Candidates, net: int = 0) -> Iterator[Step]:
    """A candidate whose assumption breaks the grid."""
    n = g.n
    technique = _name(net, "Contradiction")
    for cell, results in _outcomes(g, net, held=True):
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
        common = [c for c in g.tables.cells if not g.values[c] and c != cell
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
