"""Fish: X-Wing, Swordfish, Jellyfish, the larger Squirmbag, Whale and Leviathan, and
their finned and sashimi forms.

k base lines (rows, or columns) whose places for a digit lie in k cover lines (columns,
or rows) hold the digit's k copies there, so the cover lines' other cells lose it. A fin
is a place of a base line outside the cover lines: then only cells that also see every fin
lose the digit (either a fin holds it, or the fish does). Sashimi: without its fins, a base
line would have one place left.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from sudokulab.human.candidates import Candidates, cells_of, line_masks, per_digit
from sudokulab.human.step import Step, make
from sudokulab.rules import cell_name

NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale",
         7: "Leviathan"}


def fish(g: Candidates, size: int, kind: str = "") -> Iterator[Step]:
    """Fish of a size; kind '' (basic), 'finned' or 'sashimi'."""
    if not kind:
        return _every_digit(g, size, "")
    # finned and sashimi fish come from one search, remembered per digit
    return _with_siamese(g, list(_every_digit(g, size, "any")), kind)


def _with_siamese(g: Candidates, found: list, kind: str) -> Iterator[Step]:
    """The fish of a kind among those found ((kind, step, base) each), then each siamese
    pair as HoDoKu gives it: two fish of one digit on the same base sets, covered
    differently, both with fins or both without (a finned and a sashimi fish pair), in one
    step with both fishes' eliminations, of the first one's kind."""
    yield from (step for found_kind, step, _ in found if found_kind == kind)
    for k, (one_kind, one, base) in enumerate(found):
        if one_kind != kind:
            continue
        for other_kind, other, same in found[k + 1:]:
            gone = set(one.eliminations) | set(other.eliminations)
            if same == base and bool(other_kind) == bool(kind) and \
                    len(gone) > max(len(one.eliminations), len(other.eliminations)):
                yield make(one.technique, g.n, f"{_what(one)} + {_what(other)}",
                           eliminations=gone, cells=[*one.cells, *other.cells],
                           sentence=f"Two fish on the same base sets: {one.sentence} "
                                    f"{other.sentence}")


def _what(step: Step) -> str:
    """A fish step's pattern: its notation between the technique and the eliminations."""
    return step.notation.split(": ", 1)[1].split(" => ", 1)[0]


def _digit_fish(g: Candidates, d: int, size: int, kind: str) -> Iterator:
    """The fish of one digit, rows first then columns (as `_fish_of` gives them)."""
    n = g.n
    rows, cols = [0] * n, [0] * n   # per row, the columns of d's places; per column, rows
    for cell in cells_of(g.where()[d - 1]):
        r, c = divmod(cell, n)
        rows[r] |= 1 << c
        cols[c] |= 1 << r
    yield from _fish_of(g, d, size, kind, rows, cols, True)
    yield from _fish_of(g, d, size, kind, cols, rows, False)


_every_digit = per_digit(_digit_fish)


def _cell(line: int, x: int, n: int, rows_first: bool) -> int:
    """The cell of a base line at a cross position."""
    return line * n + x if rows_first else x * n + line


@lru_cache(maxsize=1 << 16)
def _bits(mask: int) -> tuple[int, ...]:
    """The set bit positions of a mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _fish_of(g, d, size, kind, places, cross, rows_first) -> Iterator:
    """The fish of one digit and orientation: steps, or (kind, step) when kind is "any";
    places[line] masks the cross positions of the digit in each base line, and cross[x] the
    base lines at each cross position."""
    tables, n = g.tables, g.n
    count = [m.bit_count() for m in places]
    if sum(1 for m in count if m) <= size:
        return  # every line holding the digit is a base line: no cell is left to lose it
    most = size if not kind else size + 2
    lines = [line for line in range(n) if places[line] and count[line] <= most
             and (kind or count[line] >= 2)]
    # classic boxes: a cover cell sees a fin only through the fin's box
    stack = (tables.box[1] if rows_first else tables.box[0]) if tables.classic else 0
    rows, cols = line_masks(n)
    base_masks, cross_masks = (rows, cols) if rows_first else (cols, rows)
    where, peers = g.where()[d - 1], tables.peer_masks
    for base, union in _bases(lines, places, size, size + 2 if kind else size):
        width = union.bit_count()
        if not kind:
            covers: Sequence[int] = [union]
        elif width > size:
            covers = _covers(union, size, stack, n)
        else:
            continue
        base_cells = lines_in = 0
        for line in base:
            base_cells |= base_masks[line]
            lines_in |= 1 << line
        # the cross positions where the digit has a place outside the base lines: only
        # their cells can lose it
        open_ = 0
        for x in _bits(union):
            if cross[x] & ~lines_in:
                open_ |= 1 << x
        if not open_:
            continue
        for cover in covers:
            seen = cover   # the cover lines whose cells can lose the digit
            if kind and stack:  # only those in the fins' box stack can see a fin
                low = (union & ~cover) & -(union & ~cover)
                first = (low.bit_length() - 1) // stack * stack
                seen = cover & ((1 << stack) - 1) << first
                if not seen & open_ or (union & ~cover) >> first >> stack:
                    continue  # nothing to lose, or fins in two box stacks (nothing sees both)
            if any(not places[line] & cover for line in base):
                continue
            cover_cells = _cells(cover, cross_masks)
            gone = where & _cells(seen, cross_masks) & ~base_cells   # what the fish covers
            if not kind:
                if gone:
                    yield _step(g, d, size, kind, base, _bits(cover), [],
                                [(c, d) for c in _bits(gone)], rows_first)
                continue
            for fin in _bits(where & base_cells & ~cover_cells):
                gone &= peers[fin]   # only what sees every fin
            if gone:
                sashimi = any((places[line] & cover).bit_count() == 1 for line in base)
                fins = [_cell(line, x, n, rows_first) for line in base
                        for x in _bits(places[line] & ~cover)]
                found = "sashimi" if sashimi else "finned"
                yield found, _step(g, d, size, found, base, _bits(cover), fins,
                                   [(c, d) for c in _bits(gone)], rows_first), \
                    (d, base, rows_first)


def _cells(lines: int, masks: tuple[int, ...]) -> int:
    """The cells of the cross lines of a mask."""
    out = 0
    while lines:
        low = lines & -lines
        out |= masks[low.bit_length() - 1]
        lines ^= low
    return out


@lru_cache(maxsize=1 << 14)
def _covers(union: int, size: int, stack: int, n: int) -> tuple[int, ...]:
    """The cover sets of `size` positions out of `union` that leave the rest as fins; with
    classic boxes only those whose fins share one box stack (else nothing sees them all)."""
    if not stack:
        return tuple(sum(1 << x for x in xs) for xs in combinations(_bits(union), size))
    covers = set()
    for first in range(0, n, stack):
        band = ((1 << stack) - 1) << first
        outside = union & ~band
        free = size - outside.bit_count()
        if free < 0:
            continue
        for xs in combinations(_bits(union & band), free):
            covers.add(outside | sum(1 << x for x in xs))
    return tuple(sorted(covers))


def _bases(lines: list[int], places: list[int], size: int, widest: int,
           start: int = 0, union: int = 0, chosen: tuple = ()) -> Iterator[tuple]:
    """(base lines, union of their places) for every `size` lines whose places span at most
    `widest` cross lines, pruned as soon as a partial choice spans more."""
    if len(chosen) == size:
        yield chosen, union
        return
    for k in range(start, len(lines) - (size - len(chosen)) + 1):
        joined = union | places[lines[k]]
        if joined.bit_count() <= widest:
            yield from _bases(lines, places, size, widest, k + 1, joined,
                              chosen + (lines[k],))


def _step(g, d, size, kind, base, cover, fins, gone, rows_first) -> Step:
    """The Step of one fish."""
    n = g.n
    name = (f"{kind.capitalize()} " if kind else "") + NAMES[size]
    b_letter, c_letter = ("r", "c") if rows_first else ("c", "r")
    what = (f"{d} {','.join(f'{b_letter}{x + 1}' for x in base)} "
            f"{','.join(f'{c_letter}{x + 1}' for x in cover)}")
    if fins:
        what += " " + ",".join(f"f{cell_name(divmod(f, n))}" for f in fins)
    cells = [_cell(line, x, n, rows_first) for line in base for x in cover
             if g.cands[_cell(line, x, n, rows_first)] & (1 << (d - 1))] + fins
    lines = "rows" if rows_first else "columns"
    others = "columns" if rows_first else "rows"
    sentence = (f"In {lines} {', '.join(str(x + 1) for x in base)}, {d} can only go in "
                f"{others} {', '.join(str(x + 1) for x in cover)}")
    sentence += (", apart from the fin(s), so a cell of those " + others + " that also sees "
                 "every fin cannot hold " + str(d) + "." if fins else
                 f", so no other cell of those {others} can hold {d}.")
    return make(name, n, what, eliminations=gone, cells=cells, sentence=sentence)
