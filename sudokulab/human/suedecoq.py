"""Sue de Coq: two or three cells where a line crosses a box, with two more digits than
cells, split between a set of cells in the rest of the line and one in the rest of the box.

The core cells C (in line and box) hold digits V, |V| >= |C| + 2. A set L of other cells of
the line holds digits V_L, a set B of other cells of the box digits V_B, V_L and V_B share
none, each set has at least one digit more than cells, and C, L and B together hold exactly
as many digits as they have cells. Then each digit is in them once: a digit of V_L, or of V
but not V_B, lies in C or L (in the line), and one of V_B, or of V but not V_L, in C or B
(in the box); the line's other cells lose the first, the box's other cells the second.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudokulab.human.candidates import MEMO_SIZE, Candidates, cells_of, digits
from sudokulab.human.step import Step, cells_text, digits_text, make

Group = tuple[tuple[int, ...], int]  # (cells, their candidates)


def _sets(cands: list[int], cells: list[int], core: int, most: int) -> list[Group]:
    """The groups of the cells, each cell sharing a digit with the core's, holding at least
    one digit more than cells and at most `most` more."""
    usable = [c for c in cells if cands[c] & core]
    out = []
    for size in range(1, len(usable) + 1):
        for group in combinations(usable, size):
            mask = 0
            for c in group:
                mask |= cands[c]
            if 1 <= mask.bit_count() - size <= most:
                out.append((group, mask))
    return out


def _eliminations(g: Candidates, cells: int, used: tuple[int, ...],
                  mask: int) -> list[tuple[int, int]]:
    """The candidates of `mask`'s digits in `cells` outside `used`."""
    cands = g.cands
    out: list[tuple[int, int]] = []
    for c in cells_of(cells):
        if c not in used and cands[c] & mask:
            out.extend((c, d) for d in digits(cands[c] & mask))
    return out


def _crossings(g: Candidates) -> list[tuple[int, int, tuple[int, ...]]]:
    """(line, box, the cells they share) for every line and box sharing two cells or more:
    the same for every grid of a shape, so kept in its tables' memo."""
    tables = g.tables
    found = tables.memo.get(_crossings)
    if found is None:
        masks = tables.unit_masks
        boxes = [u for u, kind in enumerate(tables.kinds) if kind == "box"]
        found = tables.memo[_crossings] = [
            (line, box, tuple(cells_of(masks[line] & masks[box])))
            for line in (*tables.rows, *tables.cols) for box in boxes
            if (masks[line] & masks[box]).bit_count() >= 2]
    return found


def sue_de_coq(g: Candidates) -> Iterator[Step]:
    """Every Sue de Coq of a line and a box whose locked digits remove something."""
    tables, cands = g.tables, g.cands
    for line, box, both in _crossings(g):
        blanks = [c for c in both if cands[c]]
        if len(blanks) < 2:
            continue
        key = (sue_de_coq, line, box, tables.unit_items[line](cands),
               tables.unit_items[box](cands))
        found = tables.memo.get(key)
        if found is None:  # what a line and box hold decides: remembered by that
            if len(tables.memo) >= MEMO_SIZE:
                tables.memo.clear()
            found = tables.memo[key] = tuple(_crossing(g, line, box, blanks))
        yield from found


def _crossing(g: Candidates, line: int, box: int, blanks: list[int]) -> Iterator[Step]:
    """The Sue de Coqs where one line crosses one box."""
    cands, masks = g.cands, g.tables.unit_masks
    both = masks[line] & masks[box]
    rest_line = [c for c in cells_of(masks[line] & ~both) if cands[c]]
    rest_box = [c for c in cells_of(masks[box] & ~both) if cands[c]]
    for size in range(2, len(blanks) + 1):
        for core in combinations(blanks, size):
            yield from _at(g, line, box, core, rest_line, rest_box)


def _at(g: Candidates, line: int, box: int, core: tuple[int, ...], rest_line: list[int],
        rest_box: list[int]) -> Iterator[Step]:
    """The Sue de Coqs of one core."""
    cands, masks = g.cands, g.tables.unit_masks
    v = 0
    for c in core:
        v |= cands[c]
    if v.bit_count() < len(core) + 2:
        return
    most = len(core) - 1  # the other set has one extra digit at least
    line_sets = _sets(cands, rest_line, v, most)
    box_sets = _sets(cands, rest_box, v, most) if line_sets else []
    for lcells, lmask in line_sets:
        for bcells, bmask in box_sets:
            if lmask & bmask:
                continue
            total = len(core) + len(lcells) + len(bcells)
            if (v | lmask | bmask).bit_count() != total:
                continue
            in_line, in_box = lmask | v & ~bmask, bmask | v & ~lmask
            gone = _eliminations(g, masks[line], core + lcells, in_line)
            gone += _eliminations(g, masks[box], core + bcells, in_box)
            if gone:
                yield _step(g, line, box, core, (lcells, lmask), (bcells, bmask), v, gone)


def _step(g: Candidates, line: int, box: int, core: tuple[int, ...], in_line: Group,
          in_box: Group, v: int, gone: list[tuple[int, int]]) -> Step:
    """The Step of one Sue de Coq."""
    n, names = g.n, g.tables.unit_names
    lcells, lmask = in_line
    bcells, bmask = in_box
    what = (f"{cells_text(core, n)} - {{{_d(v)}}} ({cells_text(lcells, n)} - {{{_d(lmask)}}}, "
            f"{cells_text(bcells, n)} - {{{_d(bmask)}}})")
    return make("Sue de Coq", n, what, eliminations=gone, cells=[*core, *lcells, *bcells],
                units=[line, box], sentence=f"Where {names[line]} crosses {names[box]}, "
                f"{cells_text(core, n)} hold {digits_text(digits(v))}; with "
                f"{cells_text(lcells, n)} of the line ({digits_text(digits(lmask))}) and "
                f"{cells_text(bcells, n)} of the box ({digits_text(digits(bmask))}), sharing "
                f"no digit, these cells hold as many digits as cells, so the line's digits "
                f"stay in the line and the box's in the box.",
                length=len(core) + len(lcells) + len(bcells))


def _d(mask: int) -> str:
    """'1234': a mask's digits, run together as HoDoKu writes them."""
    return "".join(str(d) for d in digits(mask))
