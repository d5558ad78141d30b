"""Fish: X-Wing, Swordfish, Jellyfish, the larger Squirmbag, Whale and Leviathan, and
their finned and sashimi forms.

k base lines (rows, or columns) whose places for a digit lie in k cover lines (columns,
or rows) hold the digit's k copies there, so the cover lines' other cells lose it. A fin
is a place of a base line outside the cover lines: then only cells that also see every fin
lose the digit (either a fin holds it, or the fish does). Sashimi: without its fins, a base
line would have one place left.

Franken and Mutant fish take boxes too: base and cover sets of any units (HoDoKu's kinds,
below). Base sets may then share places (endo fins, fins like the others), and a base place
in two cover sets goes as well (cannibalism): were it the digit, two cover sets would hold
one copy between them, one short for the base sets' copies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from sudokulab.human import templates
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
    return _with_siamese(g, _every_digit(g, size, "any"), kind)


def _with_siamese(g: Candidates, search: Iterable[tuple], kind: str) -> Iterator[Step]:
    """The fish of a kind the search finds ((kind, step, base) each), then each siamese
    pair as HoDoKu gives it: two fish of one digit on the same base sets, covered
    differently, both with fins or both without (a finned and a sashimi fish pair), in one
    step with both fishes' eliminations, of the first one's kind. Lazy: a path that takes
    the first fish searches no further digit."""
    found = []
    for one in search:
        found.append(one)
        if one[0] == kind:
            yield one[1]
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


def base_cell(line: int, x: int, n: int, rows_first: bool) -> int:
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
    base_masks = line_masks(n)[0 if rows_first else 1]
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
        outside = where & ~base_cells   # the places that can go
        for cover in covers:
            seen = cover   # the cover lines whose cells can lose the digit
            if kind and stack:  # only those in the fins' box stack can see a fin
                low = (union & ~cover) & -(union & ~cover)
                first = (low.bit_length() - 1) // stack * stack
                seen = cover & ((1 << stack) - 1) << first
                if not seen & open_ or (union & ~cover) >> first >> stack:
                    continue  # nothing to lose, or fins in two box stacks (nothing sees both)
            gone = _cells(seen, n, rows_first) & outside   # what the fish covers
            if kind:
                fins = _cells(union & ~cover, n, rows_first)
                for fin in _bits(where & base_cells & fins):
                    gone &= peers[fin]   # only what sees every fin
            if not gone or any(not places[line] & cover for line in base):
                continue
            if not kind:
                yield _step(g, d, size, kind, base, _bits(cover), [],
                            [(c, d) for c in _bits(gone)], rows_first)
                continue
            sashimi = any((places[line] & cover).bit_count() == 1 for line in base)
            fins_at = [base_cell(line, x, n, rows_first) for line in base
                       for x in _bits(places[line] & ~cover)]
            found = "sashimi" if sashimi else "finned"
            yield found, _step(g, d, size, found, base, _bits(cover), fins_at,
                               [(c, d) for c in _bits(gone)], rows_first), \
                (d, base, rows_first)


@lru_cache(maxsize=1 << 14)
def _cells(lines: int, n: int, rows_first: bool) -> int:
    """The cells of the cross lines of a mask (columns when the base lines are rows),
    remembered: the fish search asks for the same few masks many times."""
    masks = line_masks(n)[1 if rows_first else 0]
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


def _bases(lines: list[int], places: list[int], size: int, widest: int) -> list[tuple]:
    """(base lines, union of their places) for every `size` lines whose places span at most
    `widest` cross lines, pruned as soon as a partial choice spans more; in the order of
    itertools.combinations."""
    found: list[tuple] = []
    last = len(lines)

    def grow(start: int, union: int, chosen: tuple) -> None:
        """Add each later line that keeps the union narrow enough."""
        left = size - len(chosen)
        for k in range(start, last - left + 1):
            joined = union | places[lines[k]]
            if joined.bit_count() <= widest:
                if left == 1:
                    found.append((chosen + (lines[k],), joined))
                else:
                    grow(k + 1, joined, chosen + (lines[k],))

    grow(0, 0, ())
    return found


def _step(g, d, size, kind, base, cover, fins, gone, rows_first) -> Step:
    """The Step of one fish."""
    n = g.n
    name = (f"{kind.capitalize()} " if kind else "") + NAMES[size]
    b_letter, c_letter = ("r", "c") if rows_first else ("c", "r")
    what = (f"{d} {','.join(f'{b_letter}{x + 1}' for x in base)} "
            f"{','.join(f'{c_letter}{x + 1}' for x in cover)}")
    if fins:
        what += " " + ",".join(f"f{cell_name(divmod(f, n))}" for f in fins)
    cells = [base_cell(line, x, n, rows_first) for line in base for x in cover
             if g.cands[base_cell(line, x, n, rows_first)] & (1 << (d - 1))] + fins
    lines = "rows" if rows_first else "columns"
    others = "columns" if rows_first else "rows"
    sentence = (f"In {lines} {', '.join(str(x + 1) for x in base)}, {d} can only go in "
                f"{others} {', '.join(str(x + 1) for x in cover)}")
    sentence += (", apart from the fin(s), so a cell of those " + others + " that also sees "
                 "every fin cannot hold " + str(d) + "." if fins else
                 f", so no other cell of those {others} can hold {d}.")
    return make(name, n, what, eliminations=gone, cells=cells, sentence=sentence)


# Franken and Mutant fish: base and cover sets of any units (HoDoKu's "complex" fish).
# A Franken fish takes boxes beside rows among its base sets and beside columns among its
# covers (or columns and rows the other way round); a Mutant fish mixes them freely.
SHAPES = {"franken": (({"row", "box"}, {"col", "box"}), ({"col", "box"}, {"row", "box"})),
          "mutant": (({"row", "col", "box"}, {"row", "col", "box"}),)}
MAX_FINS, MAX_ENDO_FINS = 5, 2   # HoDoKu's defaults; endo fins count among the fins


def complex_fish(g: Candidates, size: int, shape: str, kind: str = "") -> Iterator[Step]:
    """Franken or Mutant fish (shape 'franken' or 'mutant') of a size; kind '' or 'finned'."""
    return _with_siamese(g, list(_every_complex(g, size, shape)), kind)


def _shape_of(base_kinds: set[str], cover_kinds: set[str]) -> str:
    """HoDoKu's name for the units of a fish: basic, franken or mutant."""
    for lines, across in (("row", "col"), ("col", "row")):
        if base_kinds == {lines} and cover_kinds == {across}:
            return "basic"
        if lines in base_kinds <= {lines, "box"} and across in cover_kinds <= {across, "box"}:
            return "franken"
    return "mutant"


def _digit_complex(g: Candidates, d: int, size: int, shape: str) -> Iterator:
    """One digit's fish of a shape: (kind, step, base sets) for each base and cover sets
    that eliminate something."""
    tables, where = g.tables, g.where()[d - 1]
    kinds, peers = tables.kinds, tables.peer_masks
    # what any fish of the digit removes, no template of the digit uses (HoDoKu's check):
    # the places no template uses are the only ones a fin need see
    targets = where & ~_some_template(g, d) if tables.classic and g.n == 9 else where
    if not targets:
        return
    places = {u: mask & where for u, mask in enumerate(tables.unit_masks)
              if kinds[u] in ("row", "col", "box") and mask & where}
    for base_kinds, cover_kinds in SHAPES[shape]:
        bases = [u for u in places if kinds[u] in base_kinds]
        # per cell, the units that may cover it
        options = [tuple(u for u in tables.units_of[c] if u in places and kinds[u] in cover_kinds)
                   for c in range(g.n * g.n)]
        for base, in_base, endo in _complex_bases(bases, places, size, 0, (), 0, 0):
            barred = sum(1 << u for u in base)   # a base set is no cover set
            sight = targets   # the targets that see every endo fin
            for fin in cells_of(endo):
                sight &= peers[fin]
            if not sight:
                continue
            for cover, covered, twice, fins, seen in _complex_covers(
                    in_base, endo, size, (), 0, 0, sight, barred, options, places, peers):
                if _shape_of({kinds[u] for u in base}, {kinds[u] for u in cover}) != shape:
                    continue
                gone = ((covered & ~in_base) | twice) & seen
                if not fins and any(places[u].bit_count() > size for u in base):
                    continue  # as HoDoKu: a fish without fins has at most `size` in a base set
                if gone:
                    found = "finned" if fins else ""
                    yield found, _complex_step(g, d, size, found, base, cover, in_base, fins,
                                               endo, gone), (d, base)


_every_complex = per_digit(_digit_complex)


def _some_template(g: Candidates, d: int) -> int:
    """The cells some template of the digit uses (every cell when none fits: a broken
    position, which the singles report)."""
    some = 0
    for cells in templates.fitting(g, d):
        some |= cells
    return some or (1 << g.n * g.n) - 1


def _complex_bases(units: list[int], places: dict[int, int], size: int, start: int,
                   chosen: tuple, in_base: int, endo: int) -> Iterator[tuple]:
    """(base sets, their places, endo fins) for every `size` units whose places overlap in
    at most MAX_ENDO_FINS cells (those endo fins hold the digit in two base sets)."""
    if len(chosen) == size:
        yield chosen, in_base, endo
        return
    for k in range(start, len(units) - (size - len(chosen)) + 1):
        mask = places[units[k]]
        both = endo | (in_base & mask)
        if both.bit_count() <= MAX_ENDO_FINS:
            yield from _complex_bases(units, places, size, k + 1, chosen + (units[k],),
                                      in_base | mask, both)


def _complex_covers(in_base: int, fins: int, size: int, chosen: tuple, covered: int,
                    twice: int, sight: int, banned: int, options: list, places: dict,
                    peers: tuple) -> Iterator[tuple]:
    """(cover sets, their places, places in two of them, fins, the places that see every
    fin) for every `size` cover sets that leave at most MAX_FINS fins (endo fins with them)
    that some place of the digit sees. Each set once: the first place not yet covered is a
    fin, or lies in the first of its units that the cover sets hold (those before it are
    barred)."""
    rest = in_base & ~covered & ~fins
    if len(chosen) == size:
        if (fins | rest).bit_count() <= MAX_FINS:
            for cell in cells_of(rest):
                sight &= peers[cell]
            if sight:
                yield chosen, covered, twice, fins | rest, sight
        return
    if not rest:
        return  # covered by fewer sets: a degenerate pattern
    low = rest & -rest
    cell = low.bit_length() - 1
    bar = banned
    for u in options[cell]:
        if not bar >> u & 1:
            yield from _complex_covers(in_base, fins, size, chosen + (u,), covered | places[u],
                                       twice | (covered & places[u]), sight, bar, options,
                                       places, peers)
            bar |= 1 << u
    if fins.bit_count() < MAX_FINS and sight & peers[cell]:
        yield from _complex_covers(in_base, fins | low, size, chosen, covered, twice,
                                   sight & peers[cell], bar, options, places, peers)


def _short(name: str) -> str:
    """A unit's short name: r1, c1, b1 (a jigsaw region is a box)."""
    return {"row": "r", "column": "c"}.get(name.split()[0], "b") + name.split()[-1]


def _complex_step(g, d, size, kind, base, cover, in_base, fins, endo, gone) -> Step:
    """The Step of one Franken or Mutant fish."""
    names = [_short(name) for name in g.tables.unit_names]
    shape = _shape_of({g.tables.kinds[u] for u in base}, {g.tables.kinds[u] for u in cover})
    name = ("Finned " if kind else "") + shape.capitalize() + " " + NAMES[size]
    base, cover = sorted(base), sorted(cover)   # rows, then columns, then boxes
    what = f"{d} {','.join(names[u] for u in base)} {','.join(names[u] for u in cover)}"
    marks = [("ef" if endo >> f & 1 else "f") + cell_name(divmod(f, g.n)) for f in cells_of(fins)]
    if marks:
        what += " " + ",".join(marks)
    sentence = (f"In {', '.join(names[u] for u in base)}, {d} can only go in "
                f"{', '.join(names[u] for u in cover)}")
    sentence += (", apart from the fin(s), so a cell of those that also sees every fin "
                 f"cannot hold {d}." if fins else f", so no other cell of those can hold {d}.")
    return make(name, g.n, what, eliminations=[(c, d) for c in cells_of(gone)],
                cells=cells_of(in_base), sentence=sentence)
