"""Kraken fish (HoDoKu's Types 1 and 2): a finned fish whose fins need not see the target.

Rows (or columns) as base lines, as many columns as cover lines, and fins: the base lines'
places outside the cover lines. Either a fin holds the digit, or the fish does: then every
cover line holds it in a base cell. Type 1: a cover line's place outside the base lines
loses the digit when the fish holds, so it goes if each fin, placed, removes it too.
Type 2: one cover line holds the digit in one of its base cells (or a fin does): a
candidate that each of those, placed, removes goes. "Placed, removes" is what the forcing
chains follow (singles from the assumption, forcing.propagate), so each elimination is a
proof by cases, like theirs.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudokulab.human import forcing
from sudokulab.human.candidates import Candidates, cells_of
from sudokulab.human.fish import NAMES, base_cell
from sudokulab.human.step import Step, cells_text, make, name

SIZES = (2, 3, 4)
MAX_FINS = 5   # as HoDoKu's fish search


def type1(g: Candidates) -> Iterator[Step]:
    """Kraken Fish Type 1: the fish's digit goes from a cover cell that each fin rules out
    (each elimination once, by the smallest fish found)."""
    return _once(_type1(g))


def type2(g: Candidates) -> Iterator[Step]:
    """Kraken Fish Type 2: a candidate of another digit goes when each fin, and each base
    place of one cover line, rules it out (each set of eliminations once)."""
    return _once(_type2(g))


def _once(steps: Iterator[Step]) -> Iterator[Step]:
    """The steps, each set of eliminations once: many fish share one target."""
    seen: set[tuple] = set()
    for step in steps:
        if step.eliminations not in seen:
            seen.add(step.eliminations)
            yield step


def _type1(g: Candidates) -> Iterator[Step]:
    """Every Kraken Fish Type 1."""
    for d, size, rows, base, cover, fins in _finned(g):
        kept = [t for t in _cover_cells(g, d, rows, base, cover)
                if not all(t in g.tables.peers[f] for f in fins)]   # else a finned fish
        gone = [t for t in kept if all(_removes(g, (f, d), (t, d)) for f in fins)]
        for t in gone:
            yield _step(g, "Kraken Fish Type 1", (d, size, rows, base, cover, fins), [(t, d)],
                        f"either the fish holds, and {name(t, g.n)} is a cover cell outside "
                        f"the base lines, or a fin holds {d}, and each fin placed removes "
                        f"{d} from {name(t, g.n)}.")


def _type2(g: Candidates) -> Iterator[Step]:
    """Every Kraken Fish Type 2."""
    n = g.n
    for d, size, rows, base, cover, fins in _finned(g):
        for line in cover:
            places = [c for c in _line_cells(n, line, not rows)
                      if g.cands[c] >> (d - 1) & 1 and _line_of(c, n, rows) in base]
            premises = [(c, d) for c in [*fins, *places]]
            gone = _removed_by_all(g, premises, d)
            if gone:
                kind = "column" if rows else "row"
                yield _step(g, "Kraken Fish Type 2", (d, size, rows, base, cover, fins), gone,
                            f"{kind} {line + 1} holds {d} in {cells_text(places, n)} unless a "
                            f"fin does, and each of those, placed, removes "
                            f"{', '.join(f'{e} from {name(c, n)}' for c, e in gone)}.")


def _finned(g: Candidates) -> Iterator[tuple]:
    """(digit, size, rows first, base lines, cover lines, fins) of each fish with 1 to
    MAX_FINS fins whose base lines each have a place in the cover lines."""
    n, where = g.n, g.where()
    for d in range(1, n + 1):
        for rows in (True, False):
            places = [0] * n   # per base line, the cross positions of d
            for c in cells_of(where[d - 1]):
                r, col = divmod(c, n)
                places[r if rows else col] |= 1 << (col if rows else r)
            lines = [k for k in range(n) if places[k]]
            for size in SIZES:
                for base in combinations(lines, size):
                    union = 0
                    for k in base:
                        union |= places[k]
                    yield from _covers(n, d, size, rows, base, places, union)


def _covers(n: int, d: int, size: int, rows: bool, base: tuple, places: list,
            union: int) -> Iterator[tuple]:
    """The cover lines of one choice of base lines that leave 1 to MAX_FINS fins."""
    xs = [x for x in range(n) if union >> x & 1]
    if len(xs) <= size:
        return   # no fins: a plain fish
    for cover in combinations(xs, size):
        mask = sum(1 << x for x in cover)
        if any(not places[k] & mask for k in base):
            continue
        fins = [base_cell(k, x, n, rows) for k in base for x in range(n)
                if places[k] >> x & 1 and not mask >> x & 1]
        if len(fins) <= MAX_FINS:
            yield d, size, rows, base, cover, fins


def _cover_cells(g: Candidates, d: int, rows: bool, base: tuple, cover: tuple) -> list[int]:
    """The cover lines' places of the digit outside the base lines."""
    return [c for x in cover for c in _line_cells(g.n, x, not rows)
            if g.cands[c] >> (d - 1) & 1 and _line_of(c, g.n, rows) not in base]


def _line_cells(n: int, line: int, row: bool) -> list[int]:
    """The cells of a row (or a column)."""
    return [line * n + k for k in range(n)] if row else [k * n + line for k in range(n)]


def _line_of(cell: int, n: int, rows: bool) -> int:
    """The base line (row or column) a cell lies in."""
    return cell // n if rows else cell % n


def _removes(g: Candidates, premise: tuple[int, int], target: tuple[int, int]) -> bool:
    """Whether placing the premise's digit rules the target out (or breaks the grid)."""
    cell, digit = target
    return _lost(g, premise) >> (cell * g.n + digit - 1) & 1 == 1


def _lost(g: Candidates, premise: tuple[int, int]) -> int:
    """The candidates that placing the premise's digit rules out, as forcing.allowed's
    bitmask over (cell, digit) pairs; -1 (every one) when it breaks the grid. Once per
    grid and premise."""
    known = g.cached("kraken: lost", dict)
    if premise not in known:
        after = forcing.propagate(g, *premise)
        known[premise] = -1 if isinstance(after, forcing.Contradiction) else \
            forcing.allowed(g) & ~forcing.allowed(after)
    return known[premise]


def _removed_by_all(g: Candidates, premises: list[tuple[int, int]],
                    d: int) -> list[tuple[int, int]]:
    """The candidates of digits other than d that every premise, placed, rules out."""
    common = -1
    for premise in premises:
        common &= _lost(g, premise)   # a premise that breaks the grid rules out everything
        if not common:
            return []
    if common == -1:
        return []   # no premise can hold: the grid is broken, which the singles say
    n = g.n
    return [(bit // n, bit % n + 1) for bit in cells_of(common) if bit % n + 1 != d]


def _step(g: Candidates, technique: str, fish: tuple, gone: list[tuple[int, int]],
          why: str) -> Step:
    """The step of one kraken fish."""
    d, size, rows, base, cover, fins = fish
    n = g.n
    b, c = ("r", "c") if rows else ("c", "r")
    what = (f"{NAMES[size]} {d} {','.join(f'{b}{k + 1}' for k in base)} "
            f"{','.join(f'{c}{x + 1}' for x in cover)} "
            f"{','.join('f' + name(f, n) for f in fins)}")
    cells = [base_cell(k, x, n, rows) for k in base for x in cover
             if g.cands[base_cell(k, x, n, rows)] >> (d - 1) & 1] + list(fins)
    return make(technique, n, what, eliminations=gone, cells=cells,
                sentence=f"A {NAMES[size]} of {d} with fin(s) {cells_text(fins, n)}: {why}")
