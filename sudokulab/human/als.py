"""Almost locked sets: ALS-XZ (two sets joined by a restricted common digit), ALS-XY-Wing
(three) and Death Blossom (a cell and a set per digit).

An almost locked set (ALS) is k cells of one unit holding k+1 digits between them: take one
digit away and the rest is locked. Two ALSs A and B with a common digit x whose every copy
in A sees every copy in B cannot both hold x, so one of them is locked without x; then for
any other common digit z, one of them holds z, and a cell that sees every z of both loses it.
A step's `length` is the cells of its smaller set: with one (a bivalue cell) it is what
Sukaku Explainer calls an XYZ-, WXYZ- or VWXYZ-Wing, which its rating scale sets apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, islice

from sudokulab.human.candidates import MEMO_SIZE, Candidates, cells_of, digits
from sudokulab.human.step import Step, cells_text, make

MOST_CELLS = 3  # bigger sets add little and cost much
WING_CELLS = 4  # but a bivalue cell and 4 cells are a VWXYZ-Wing, which Explainer rates


def _every_set(g: Candidates, most_cells: int) -> list[tuple[int, int, int]]:
    """(cells, candidates, the cells that see one of them) of every ALS of up to `most_cells`
    cells: unit by unit, each unit's fewest cells first, each set once."""
    seen: dict[int, tuple[int, int]] = {}
    for u in range(len(g.tables.units)):
        for cells, mask, near in _unit_sets(g, u, most_cells):
            seen.setdefault(cells, (mask, near))
    return [(cells, mask, near) for cells, (mask, near) in seen.items()]


def _unit_sets(g: Candidates, u: int, most_cells: int) -> tuple[tuple[int, int, int], ...]:
    """The ALSs of one unit, (cells, candidates, near) fewest cells first, then in cell order.
    They depend on the unit's candidates only, so they are remembered by those (in the
    tables' memo, as per_digit does): a unit a step left alone is not searched again."""
    tables, cands = g.tables, g.cands
    key = (_unit_sets, most_cells, u, tables.unit_items[u](cands))
    sets = tables.memo.get(key)
    if sets is not None:
        return sets
    most = most_cells + 1   # digits: a group with more can never become an ALS
    found: list[tuple[int, int, int]] = []   # (size, cells, mask)

    def grow(cells: list[int], start: int, group: int, mask: int, size: int) -> None:
        """Record the group if it is an ALS, then add each later cell that keeps it small."""
        if mask.bit_count() == size + 1:
            found.append((size, group, mask))
        if size < most_cells:
            for k in range(start, len(cells)):
                wider = mask | cands[cells[k]]
                if wider.bit_count() <= most:
                    grow(cells, k + 1, group | 1 << cells[k], wider, size + 1)

    grow([c for c in tables.units[u] if cands[c] and cands[c].bit_count() <= most], 0, 0, 0, 0)
    peers = tables.peer_masks
    sets = []
    for _, cells, mask in sorted(found, key=lambda f: f[0]):
        near = 0
        for c in cells_of(cells):
            near |= peers[c]
        sets.append((cells, mask, near))
    if len(tables.memo) >= MEMO_SIZE:
        tables.memo.clear()
    sets = tables.memo[key] = tuple(sets)
    return sets


def _seen(g: Candidates, cells: int, mask: int) -> list[tuple[int, int]]:
    """Per digit of an ALS (index d-1; (0, 0) for the others): (its cells holding the digit,
    the cells that see all of those)."""
    where, peers = g.where(), g.tables.peer_masks
    out = [(0, 0)] * g.n
    while mask:
        low = mask & -mask
        mask ^= low
        i = low.bit_length() - 1
        holding = rest = cells & where[i]
        seen = -1
        while rest:
            c = rest & -rest
            rest ^= c
            seen &= peers[c.bit_length() - 1]
        out[i] = (holding, seen)
    return out


def als_xz(g: Candidates, part: str = "all") -> Iterator[Step]:
    """Eliminations of ALS-XZ pairs of sets of up to MOST_CELLS cells; `part` "wings" for
    only those with a bivalue cell (the other set up to WING_CELLS cells), "sets" for only
    the others."""
    n, where = g.n, g.where()
    sets = _sets(g, WING_CELLS if part == "wings" else MOST_CELLS)
    memo: dict[int, list[tuple[int, int]]] = {}
    cells = [s for s in sets if s[0].bit_count() == 1]  # (cells, candidates, near)
    small = [s for s in sets if 1 < s[0].bit_count() <= MOST_CELLS]
    big = [s for s in sets if s[0].bit_count() > MOST_CELLS]
    # wings (a bivalue cell and a set) first, smaller first: the order of their ratings
    wings = chain(_wings(cells, small, where), _wings(cells, big, where))
    others = chain(_combinations(cells), _combinations(small))
    pairs = {"all": chain(wings, others), "wings": wings, "sets": others}[part]
    for (a, ma, _), (b, mb, _) in pairs:
        seen_a = memo.get(a) or memo.setdefault(a, _seen(g, a, ma))
        seen_b = memo.get(b) or memo.setdefault(b, _seen(g, b, mb))
        common = rest = ma & mb
        while rest:   # each common digit x, ascending
            low = rest & -rest
            rest ^= low
            if seen_b[low.bit_length() - 1][0] & ~seen_a[low.bit_length() - 1][1]:
                continue  # some x of B does not see every x of A: not restricted
            gone = []
            for z in digits(common & ~low):
                both = seen_a[z - 1][1] & seen_b[z - 1][1] & where[z - 1] & ~(a | b)
                gone += [(c, z) for c in cells_of(both)]
            if gone:
                first, second = sorted(((a, ma), (b, mb)), key=lambda s: s[0].bit_count())
                yield _step(n, gone, first, second, low.bit_length())


def _sets(g: Candidates, most_cells: int) -> list[tuple[int, int, int]]:
    """(cells, candidates, near) of every ALS of up to `most_cells` cells, fewer cells first,
    once per candidate state; sets of fewer cells are taken from the bigger enumeration when
    it is there (the same sets in the same order: each unit's are found in cell order, fewest
    cells first)."""
    bigger = g._cache.get(f"als{WING_CELLS}") if g._cache else None
    if bigger is not None and most_cells < WING_CELLS:
        return g.cached(f"als{most_cells}",
                        lambda: [s for s in bigger if s[0].bit_count() <= most_cells])
    return g.cached(f"als{most_cells}", lambda: sorted(_every_set(g, most_cells),
                                                      key=lambda s: s[0].bit_count()))


def _related(a: tuple[int, int, int], others: Iterable[tuple[int, int, int]]) -> list:
    """The pairs of set a with each of the others that can make an ALS-XZ: two common digits
    or more (a restricted one and one to remove), no common cell, a cell of one seeing one of
    the other."""
    cells, mask, near = a
    return [(a, b) for b in others
            if (mask & b[1]).bit_count() > 1 and not cells & b[0] and b[0] & near]


def _wings(cells: list, sets: list, where: list[int]) -> Iterator[tuple]:
    """itertools.product(cells, sets) of bivalue cells and sets, only the pairs that are
    _related and have a restricted common digit: both of the cell's digits in the set, and
    all of the set's places for one of them seeing the cell (`near`: the cell's peers)."""
    for a in cells:
        cell, mask, near = a
        low = mask & -mask
        x, z = where[low.bit_length() - 1], where[(mask ^ low).bit_length() - 1]
        yield from ((a, b) for b in sets
                    if b[1] & mask == mask and not cell & b[0] and b[0] & near
                    and (not b[0] & x & ~near or not b[0] & z & ~near))


def _combinations(sets: list) -> Iterator[tuple]:
    """itertools.combinations(sets, 2), only the pairs that are _related."""
    for k, a in enumerate(sets):
        yield from _related(a, islice(sets, k + 1, None))


def _step(n: int, gone: list, small: tuple[int, int], big: tuple[int, int], x: int) -> Step:
    """The step of an ALS-XZ, its smaller set first (A)."""
    (a, ma), (b, mb) = small, big
    return make("ALS-XZ", n, f"A={cells_text(cells_of(a), n)} {{{_ds(ma)}}}, "
                f"B={cells_text(cells_of(b), n)} {{{_ds(mb)}}}, X={x}",
                eliminations=gone, cells=cells_of(a | b),
                sentence=f"{cells_text(cells_of(a), n)} and {cells_text(cells_of(b), n)} "
                f"each hold one digit more than cells; they cannot both hold {x}, so one of "
                f"them is locked without it, and every other digit they share is in one of "
                f"them.", length=a.bit_count())


def _ds(mask: int) -> str:
    """'1,2,5'."""
    return ",".join(map(str, digits(mask)))


# --- ALS-XY-Wing and Death Blossom: three sets, or a cell and its petals -------------------

def als_xy_wing(g: Candidates) -> Iterator[Step]:
    """Sets A and B each joined to a set C by a restricted common digit, x with A and y
    with B (x != y): C cannot lack both, so A or B is locked without its link, and a digit
    z they share (not x or y) is in A or in B; a cell that sees every z of both loses it."""
    n, where = g.n, g.where()
    sets = _sets(g, MOST_CELLS)
    memo: dict[int, list[tuple[int, int]]] = {}

    def seen(s: tuple[int, int, int]) -> list[tuple[int, int]]:
        return memo.get(s[0]) or memo.setdefault(s[0], _seen(g, s[0], s[1]))

    for c in sets:
        linked = [(s, x) for s in sets if not s[0] & c[0] and s[0] & c[2]
                  for x in (_restricted(seen(c), seen(s), c[1] & s[1]),) if x]
        for k, (a, xs) in enumerate(linked):
            for b, ys in linked[k + 1:]:
                if a[0] & b[0]:
                    continue
                for x in digits(xs):
                    for y in digits(ys & ~(1 << (x - 1))):
                        gone = _common(seen(a), seen(b), a, b, where,
                                       a[1] & b[1] & ~(1 << (x - 1) | 1 << (y - 1)))
                        if gone:
                            yield _wing_step(n, gone, a, b, c, x, y)


def death_blossom(g: Candidates) -> Iterator[Step]:
    """A stem cell with digits d1..dk, each joined to its own set (a petal) by that digit
    (every di of the petal sees the stem): the stem holds one di, so its petal is locked
    without it, and a digit z every petal holds (none a link) is in some petal; a cell that
    sees every z of every petal loses it."""
    n, where, peers = g.n, g.where(), g.tables.peer_masks
    sets = [s for s in _sets(g, MOST_CELLS) if s[0].bit_count() > 1]
    memo: dict[int, list[tuple[int, int]]] = {}
    for stem in range(n * n):
        mask = g.cands[stem]
        if not 2 <= mask.bit_count() <= 3:
            continue
        petals: list[list[tuple[int, int, int]]] = []
        for d in digits(mask):
            petals.append([s for s in sets if not s[0] >> stem & 1 and s[1] >> (d - 1) & 1
                           and not (s[0] & where[d - 1]) & ~peers[stem]])
        yield from _blossoms(g, n, where, stem, digits(mask), petals, memo)


def _blossoms(g, n, where, stem, stem_digits, petals, memo) -> Iterator[Step]:
    """The Death Blossoms of one stem: a petal per digit, the petals' cells apart."""
    def grow(k: int, chosen: tuple, cells: int, shared: int) -> Iterator[Step]:
        if not shared:
            return
        if k == len(stem_digits):
            seen = [memo.get(p[0]) or memo.setdefault(p[0], _seen(g, p[0], p[1]))
                    for p in chosen]
            gone = []
            for z in digits(shared):
                both = where[z - 1] & ~cells & ~(1 << stem)
                for s in seen:
                    both &= s[z - 1][1]
                gone += [(c, z) for c in cells_of(both)]
            if gone:
                yield _blossom_step(n, gone, stem, stem_digits, chosen)
            return
        for petal in petals[k]:
            if not petal[0] & cells:
                yield from grow(k + 1, chosen + (petal,), cells | petal[0],
                                shared & petal[1] & ~(1 << (stem_digits[k] - 1)))

    everything = (1 << n) - 1
    yield from grow(0, (), 0, everything & ~sum(1 << (d - 1) for d in stem_digits))


def _restricted(seen_a: list, seen_b: list, common: int) -> int:
    """The common digits of two sets whose every copy in one sees every copy in the other."""
    out = 0
    for x in digits(common):
        if not seen_b[x - 1][0] & ~seen_a[x - 1][1]:
            out |= 1 << (x - 1)
    return out


def _common(seen_a: list, seen_b: list, a: tuple, b: tuple, where: list[int],
            shared: int) -> list[tuple[int, int]]:
    """(cell, z) for each digit z of `shared` and each cell outside both sets that sees
    every z of both."""
    gone = []
    for z in digits(shared):
        both = seen_a[z - 1][1] & seen_b[z - 1][1] & where[z - 1] & ~(a[0] | b[0])
        gone += [(c, z) for c in cells_of(both)]
    return gone


def _wing_step(n: int, gone: list, a: tuple, b: tuple, c: tuple, x: int, y: int) -> Step:
    """The step of an ALS-XY-Wing."""
    name = lambda s: cells_text(cells_of(s[0]), n)  # noqa: E731
    return make("ALS-XY-Wing", n, f"A={name(a)} {{{_ds(a[1])}}}, B={name(b)} {{{_ds(b[1])}}}, "
                f"C={name(c)} {{{_ds(c[1])}}}, X,Y={x},{y}",
                eliminations=gone, cells=cells_of(a[0] | b[0] | c[0]),
                sentence=f"{name(c)} cannot lack both {x} and {y}: so {name(a)} is locked "
                f"without {x} or {name(b)} without {y}, and every other digit they share is "
                f"in one of them.", length=a[0].bit_count() + b[0].bit_count())


def _blossom_step(n: int, gone: list, stem: int, stem_digits: list, petals: tuple) -> Step:
    """The step of a Death Blossom."""
    named = [f"{d}: {cells_text(cells_of(p[0]), n)} {{{_ds(p[1])}}}"
             for d, p in zip(stem_digits, petals)]
    return make("Death Blossom", n, f"stem {cells_text([stem], n)}, " + "; ".join(named),
                eliminations=gone, cells=[stem, *cells_of(sum(p[0] for p in petals))],
                sentence=f"{cells_text([stem], n)} holds one of "
                f"{', '.join(map(str, stem_digits))}; whichever it is, that petal is locked "
                f"without it, and the digits every petal shares are in one of them.",
                length=sum(p[0].bit_count() for p in petals))
