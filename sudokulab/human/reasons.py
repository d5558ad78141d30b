"""Why a cell can hold only one digit: what took each of its other candidates away.

A candidate leaves a cell for one of few reasons, and the naked single's sentence names
the true one: a peer holds the digit (in the cell's row, column or box, in an extra unit
such as a diagonal or window, in its killer cage, or a chess move away), a neighbour holds
a consecutive digit (non-consecutive), the cell's parity, its cage's sum, or an earlier
step eliminated it. The pencil marks (sudokulab.marks) and Candidates.place remove
candidates for exactly the first five, the steps for the last.
"""

from __future__ import annotations

from sudokulab import rules as R
from sudokulab.cages import digit_sets
from sudokulab.geometry import geometry
from sudokulab.human.candidates import Candidates, bit
from sudokulab.human.step import cells_text, digits_text, name

CLASSIC = "classic"   # the cause: a peer in the cell's row, column or box
EARLIER = "earlier"   # the cause: an earlier step's elimination
POSITION = "position"  # the cause: a candidate the pencil-mark position started without
# the causes in the order they are named: peers (the plainest first), rules, steps
ORDER = (CLASSIC, "unit", "cage", "move", "non-consecutive", "parity", "sum", POSITION,
         EARLIER)
MOVES = {"anti-knight": "a knight's move away", "anti-king": "a king's move away"}


def naked_single(g: Candidates, cell: int, digit: int) -> str:
    """The sentence of a naked single: the cell, its digit, and what removed the others."""
    n, head = g.n, f"{name(cell, g.n)} can hold only {digit}"
    others = (1 << n) - 1 & ~bit(digit)
    if not g.puzzle.rules and _seen(g, cell) & others == others:
        return f"{head}: every other digit is already seen by a peer in its row, column or box."
    causes = _causes(g, cell)
    wanted = set(range(1, n + 1)) - {digit}
    # a cage's sum that alone leaves one digit is the reason, whatever the peers hold
    sole = next((cause for cause in sorted(causes, key=lambda c: c[0] != "sum")
                 if cause[0] in ("sum", CLASSIC) and causes[cause] >= wanted), None)
    if sole is not None and sole[0] == "sum":
        return (f"{head}: its cage {sole[1]} is one cell, so the cage sum fixes the digit."
                if sole[2] == 1 else f"{head}: no other digit fits a digit set of its "
                f"cage {sole[1]}.")
    if sole is not None:
        return f"{head}: every other digit is already seen by a peer in its {_classic(g)}."
    grouped: dict[tuple, list[int]] = {}
    for d in sorted(wanted):  # each digit under the first cause that removes it
        cause = min((c for c in causes if d in causes[c]), default=(EARLIER,),
                    key=lambda c: ORDER.index(c[0]))
        grouped.setdefault(cause, []).append(d)
    clauses = [_clause(g, cause, grouped[cause])
               for cause in sorted(grouped, key=lambda cause: ORDER.index(cause[0]))]
    return f"{head}: " + "; ".join(clauses) + "."


def _seen(g: Candidates, cell: int) -> int:
    """The digits the cell's peers hold, as a candidate mask."""
    seen = 0
    for value in g.tables.peer_items[cell](g.values):
        if value:
            seen |= bit(value)
    return seen


def _causes(g: Candidates, cell: int) -> dict[tuple, set[int]]:
    """Each reason a digit cannot go in the cell (a peer's relation, non-consecutive,
    parity, a cage's sum), with the digits it rules out."""
    values, n = g.values, g.n
    causes: dict[tuple, set[int]] = {}
    relations, own = _layout(g, cell)
    for peer, relation in relations.items():
        if values[peer]:
            causes.setdefault(relation, set()).add(values[peer])
    for other in g.tables.neighbours[cell]:
        if values[other]:
            causes.setdefault(("non-consecutive",), set()).update(
                {values[other] - 1, values[other] + 1})
    for rule, cells in own:
        if isinstance(rule, R.Parity):
            causes[("parity", rule.even)] = {d for d in range(1, n + 1)
                                             if (d % 2 == 0) != rule.even}
        else:
            label = f"{cells_text(cells, n)}={rule.total}"
            causes[("sum", label, len(cells))] = _off_sum(values, cells, rule.total, n)
    if hasattr(g.puzzle, "deleted"):  # a pencil-mark position: what it started without
        gone = {d for c, d in g.puzzle.deleted() if c == cell}
        if gone:
            causes[(POSITION,)] = gone
    return causes


def _layout(g: Candidates, cell: int) -> tuple[dict[int, tuple], list]:
    """How each peer relates to the cell, and the cell's parity and cage rules with their
    cells: the same for every grid of a shape and rule set, so kept in its tables' memo."""
    key = ("reasons", cell)
    found = g.tables.memo.get(key)
    if found is None:
        geo = geometry(g.puzzle.box, g.puzzle.rules)
        relations = {peer: _relation(geo, cell, peer) for peer in g.tables.peers[cell]}
        own = [(rule, cells) for rule in g.puzzle.rules if isinstance(rule, R.Parity | R.Cage)
               for cells in [geo.indices(rule.cells)] if cell in cells]
        found = g.tables.memo[key] = (relations, own)
    return found


def _off_sum(values: list[int], cells: list[int], total: int, n: int) -> set[int]:
    """The digits no set of distinct digits adding up to the cage's total, holding the
    digits already placed in it, puts in a blank cell of the cage."""
    placed = {values[c] for c in cells if values[c]}
    fits = {d for digits in digit_sets(len(cells), total, n) if placed <= set(digits)
            for d in digits}
    return set(range(1, n + 1)) - fits


def _relation(geo, cell: int, peer: int) -> tuple:
    """Why two cells differ: (CLASSIC,), ('unit', unit name, rule), ('cage', label) or
    ('move', rule name)."""
    shared = [u for u in geo.units_of[cell] if peer in u]
    if any(u.rule is None or u.kind == "region" for u in shared):
        return (CLASSIC,)
    if shared:
        where = "on the" if shared[0].kind == "diagonal" else "in"
        return ("unit", f"{where} {shared[0].name}", shared[0].part)
    for cage in geo.cages:
        cells = geo.indices(cage.cells)
        if cell in cells and peer in cells:
            return ("cage", f"{cells_text(cells, geo.n)}={cage.total}")
    for relation in geo.relations:
        if relation.differ and (min(cell, peer), max(cell, peer)) in relation.pairs:
            return ("move", relation.rule.name)
    return ("move", "a rule")


def _classic(g: Candidates) -> str:
    """'row, column or box', or 'region' in a jigsaw."""
    return "row, column or region" if R.jigsaw(g.puzzle.rules) else "row, column or box"


def _clause(g: Candidates, cause: tuple, ds: list[int]) -> str:
    """'1,3 are already in its row, column or box' for one cause and its digits."""
    what, be = digits_text(ds), "is" if len(ds) == 1 else "are"
    kind = cause[0]
    if kind == CLASSIC:
        return f"{what} {be} already seen by a peer in its {_classic(g)}"
    if kind == "unit":
        return f"{what} {be} already {cause[1]} (the {cause[2]} rule)"
    if kind == "cage":
        return f"{what} {be} already in its cage {cause[1]}"
    if kind == "move":
        return f"{what} {be} {MOVES.get(cause[1], 'in a related cell')} ({cause[1]})"
    if kind == "non-consecutive":
        return f"{what} {be} consecutive to a neighbour's digit (non-consecutive)"
    if kind == "parity":
        return (f"{what} {be} {'odd' if cause[1] else 'even'}, and the cell is "
                f"{'even' if cause[1] else 'odd'} (parity)")
    if kind == "sum":
        return f"{what} fit{'s' if len(ds) == 1 else ''} no digit set of its cage {cause[1]}"
    if kind == POSITION:
        return f"{what} {'was' if len(ds) == 1 else 'were'} deleted in the position given"
    return f"{what} {'was' if len(ds) == 1 else 'were'} eliminated by an earlier step"
