"""Almost locked sets: ALS-XZ (two sets joined by a restricted common digit), ALS-XY-Wing
(three), ALS-XY-Chain (a chain of sets) and Death Blossom (a cell and a set per digit).

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

from sudokulab.human.candidates import (
    MEMO_SIZE,
    Candidates,
    cells_of,
    digits,
    seen_by_all,
    union,
)
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
        holding = cells & where[i]
        out[i] = (holding, seen_by_all(peers, holding))
    return out


def als_xz(g: Candidates, part: str = "all") -> Iterator[Step]:
    """Eliminations of ALS-XZ pairs of sets of up to MOST_CELLS cells; `part` "wings" for
    only those with a bivalue cell (the other set up to WING_CELLS cells), "sets" for only
    the others."""
    sets = _sets(g, WING_CELLS if part == "wings" else MOST_CELLS)
    cells = [s for s in sets if s[0].bit_count() == 1]  # (cells, candidates, near)
    small = [s for s in sets if 1 < s[0].bit_count() <= MOST_CELLS]
    if part != "sets":  # wings (a bivalue cell and a set) first, smaller first: the order
        big = [s for s in sets if s[0].bit_count() > MOST_CELLS]   # of their ratings
        yield from _wing_steps(g, cells, small)
        yield from _wing_steps(g, cells, big)
    if part != "wings":
        yield from _pair_steps(g, chain(_combinations(cells), _combinations(small)))


def _pair_steps(g: Candidates, pairs: Iterable[tuple]) -> Iterator[Step]:
    """The eliminations of pairs of sets, in their order: for each common digit x (ascending)
    that is restricted, what sees every other common digit of both sets."""
    n, where = g.n, g.where()
    memo: dict[int, list[tuple[int, int]]] = {}
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


def _wing_steps(g: Candidates, cells: list, sets: list) -> Iterator[Step]:
    """The eliminations of each bivalue cell {x, z} with each set holding both digits that
    one of its cells sees, as _pair_steps finds them, with what a lone cell makes simple:
    x is restricted when every x of the set sees the cell, and then z goes from the cells
    that see the cell and every z of the set (x ascending, as in _pair_steps)."""
    n, where, peers = g.n, g.where(), g.tables.peer_masks
    seeing: dict[int, int] = {}   # a set's places of a digit: the cells that see them all
    for cell, mask, near in cells:
        low = mask & -mask
        dx, dz = low.bit_length() - 1, (mask ^ low).bit_length() - 1
        wx, wz = where[dx], where[dz]
        for b, mb, _ in sets:
            if mb & mask != mask or cell & b or not b & near:
                continue
            for x, z, wz_, x_free in ((dx, dz, wz, not b & wx & ~near),
                                      (dz, dx, wx, not b & wz & ~near)):
                if not x_free:
                    continue   # some x of the set does not see the cell: not restricted
                hold = b & wz_
                seen = seeing.get(hold)
                if seen is None:
                    seen = seeing[hold] = seen_by_all(peers, hold)
                both = near & seen & wz_ & ~(cell | b)
                if both:
                    yield _step(n, [(c, z + 1) for c in cells_of(both)], (cell, mask),
                                (b, mb), x + 1)


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


def _combinations(sets: list) -> Iterator[tuple]:
    """itertools.combinations(sets, 2), only the pairs that are _related."""
    for k, a in enumerate(sets):
        yield from _related(a, islice(sets, k + 1, None))


def _step(n: int, gone: list, small: tuple[int, int], big: tuple[int, int],
          x: int | str) -> Step:
    """The step of an ALS-XZ, its smaller set first (A); x "4,7" when doubly linked."""
    (a, ma), (b, mb) = sorted((small, big), key=lambda s: s[0].bit_count())
    named = f"{cells_text(cells_of(a), n)} and {cells_text(cells_of(b), n)}"
    if isinstance(x, str) and "," in x:
        why = (f"{named} each hold one digit more than cells and neither can hold both "
               f"{x.replace(',', ' and ')}: each is locked without one of them, so both are "
               f"in the two sets and every other digit of each is in that set.")
    else:
        why = (f"{named} each hold one digit more than cells; they cannot both hold {x}, so "
               f"one of them is locked without it, and every other digit they share is in "
               f"one of them.")
    return make("ALS-XZ", n, f"A={cells_text(cells_of(a), n)} {{{_ds(ma)}}}, "
                f"B={cells_text(cells_of(b), n)} {{{_ds(mb)}}}, X={x}",
                eliminations=gone, cells=cells_of(a | b), sentence=why,
                length=a.bit_count())


def _ds(mask: int) -> str:
    """'1,2,5'."""
    return ",".join(map(str, digits(mask)))



# --- every set, as HoDoKu takes them: ALS-XZ when named, ALS-XY-Wing, ALS-XY-Chain and
# Death Blossom. Sets of any size (a bivalue cell is one) may overlap, so long as no
# restricted digit is in the overlap; each is (cells, digits, per digit its cells and the
# cells that see all of those: _seen).

Als = tuple[int, int, list[tuple[int, int]]]


def _all(g: Candidates) -> list[Als]:
    """Every ALS of the grid, each unit's subsets of blank cells once (the units' searches
    are remembered, as for the small sets), fewest cells first."""
    def make() -> list[Als]:
        found: dict[int, int] = {}
        for u in range(len(g.tables.units)):
            for cells, mask, _ in _unit_sets(g, u, g.n - 1):
                found.setdefault(cells, mask)
        ordered = sorted(found.items(), key=lambda s: s[0].bit_count())
        return [(cells, mask, _seen(g, cells, mask)) for cells, mask in ordered]
    return g.cached("als-all", make)


def every_set(g: Candidates) -> list[Als]:
    """Every ALS of the grid (cells, digits, per digit its cells and the cells that see all
    of those), fewest cells first: the sets the chains' ALS nodes are made of."""
    return _all(g)


def _links(g: Candidates) -> list[list[tuple[int, int]]]:
    """Per set of _all, (another set, their restricted common digits as a mask): digits x
    of both whose every cell in one sees every cell in the other (so none in an overlap).
    Each set is indexed by digit and its first cell holding it, and only the sets whose
    first x sits where every x of this one is seen are tried."""
    def make() -> list[list[tuple[int, int]]]:
        sets, where = _all(g), g.where()
        first: dict[tuple[int, int], list[int]] = {}
        for i, (_, mask, per) in enumerate(sets):
            for d in digits(mask):
                held = per[d - 1][0]
                first.setdefault((d, (held & -held).bit_length() - 1), []).append(i)
        links: list[dict[int, int]] = [{} for _ in sets]
        for i, (_, mask, per) in enumerate(sets):
            for d in digits(mask):
                seen = per[d - 1][1]
                for c in cells_of(seen & where[d - 1]):
                    for j in first.get((d, c), ()):
                        if j > i and not sets[j][2][d - 1][0] & ~seen:
                            links[i][j] = links[i].get(j, 0) | 1 << (d - 1)
                            links[j][i] = links[j].get(i, 0) | 1 << (d - 1)
        return [sorted(out.items()) for out in links]
    return g.cached("als-links", make)


def _shared(a: Als, b: Als, mask: int, where: list[int]) -> list[tuple[int, int]]:
    """(cell, z) for each digit z of `mask` and each cell outside both sets that sees
    every z of both."""
    gone = []
    for z in digits(mask):
        both = a[2][z - 1][1] & b[2][z - 1][1] & where[z - 1] & ~(a[0] | b[0])
        gone += [(c, z) for c in cells_of(both)]
    return gone


def _locked(a: Als, b: Als, rc: int, where: list[int]) -> list[tuple[int, int]]:
    """(cell, d) for each digit d of set a but the restricted ones, and each cell outside
    both sets that sees every d of a: doubly linked, a holds all of those."""
    gone = []
    for d in digits(a[1] & ~rc):
        gone += [(c, d) for c in cells_of(a[2][d - 1][1] & where[d - 1] & ~(a[0] | b[0]))]
    return gone


def als_xz_every(g: Candidates) -> Iterator[Step]:
    """ALS-XZ as HoDoKu finds it, for `--techniques ALS-XZ`: sets of any size, overlapping
    or not, fewest cells first. Doubly linked (two restricted digits), neither set can
    hold both, so each is locked without one of them: both restricted digits are in the
    two sets, and every other digit of each is in that set."""
    n, where = g.n, g.where()
    sets, links = _all(g), _links(g)
    pairs = sorted(((i, j, rc) for i, out in enumerate(links) for j, rc in out if i < j),
                   key=lambda p: sets[p[0]][0].bit_count() + sets[p[1]][0].bit_count())
    for i, j, rc in pairs:
        a, b = sets[i], sets[j]
        gone = _shared(a, b, a[1] & b[1] & ~rc, where)
        if rc.bit_count() > 1:
            gone += _shared(a, b, rc, where) + _locked(a, b, rc, where) + \
                _locked(b, a, rc, where)
        if gone:
            yield _step(n, gone, (a[0], a[1]), (b[0], b[1]), _ds(rc))


def als_xy_wing(g: Candidates) -> Iterator[Step]:
    """Sets A and B each joined to a set C by a restricted common digit, x with A and y
    with B (x != y): C cannot lack both, so A or B is locked without its link, and a digit
    z they share (not x or y) is in A or in B; a cell that sees every z of both loses it.
    Each set of eliminations once."""
    n, where = g.n, g.where()
    sets, links = _all(g), _links(g)
    done: set[frozenset] = set()
    for k, c in enumerate(sets):
        for p, (i, xs) in enumerate(links[k]):
            for j, ys in links[k][p + 1:]:
                a, b = sets[i], sets[j]
                for x in digits(xs):
                    for y in digits(ys & ~(1 << (x - 1))):
                        gone = _shared(a, b, a[1] & b[1] & ~(1 << (x - 1) | 1 << (y - 1)),
                                       where)
                        if gone and _new(gone, done):
                            yield _wing_step(n, gone, a, b, c, x, y)


def _new(gone: list, done: set[frozenset]) -> bool:
    """Whether these eliminations are not among those `done` (and now they are)."""
    key = frozenset(gone)
    if key in done:
        return False
    done.add(key)
    return True


def als_xy_chain(g: Candidates) -> Iterator[Step]:
    """Sets A1, A2, ..., Ak (k >= 4) each joined to the next by a restricted common digit,
    no two links in a row on the same digit: if A1 lacks a digit z (not its link r1), it
    is locked and holds r1, so A2 lacks r1 and holds its next link, and so on until Ak,
    locked without its last link r, holds z. So z is in A1 or Ak; a cell that sees every z
    of both loses it. Which ends follow from which starts is read off the reach of each
    "set lacks digit" state (_reach), not by walking every chain."""
    n, where = g.n, g.where()
    sets, links = _all(g), _links(g)
    base, succ, reach = _reach(sets, links)
    # two more links after the first, so that A1..Ak has four sets at least
    near = [union(reach[t] for t in out) for out in succ]
    far = [union(near[t] for t in out) for out in succ]
    states = [[(d, base[j] + k) for k, d in enumerate(digits(s[1]))]
              for j, s in enumerate(sets)]
    every = [((1 << len(out)) - 1) << base[j] for j, out in enumerate(states)]
    done: set[frozenset] = set()
    for i, ends in enumerate(_ends(sets, where)):
        a = sets[i]
        for r1, _ in states[i]:
            starts = [states[j][_rank(sets[j][1], r1)][1] for j, rc in links[i]
                      if rc >> (r1 - 1) & 1]
            reached = union(far[s] for s in starts)
            for j in ends:
                if not reached & every[j]:
                    continue
                b = sets[j]
                for r, state in states[j]:
                    if not reached >> state & 1:
                        continue
                    gone = _shared(a, b, a[1] & b[1] & ~(1 << (r1 - 1) | 1 << (r - 1)), where)
                    if gone and _new(gone, done):
                        chain = _chain(sets, base, succ, starts, state)
                        yield _chain_step(n, gone, [(i, r1), *chain], sets)


def _rank(mask: int, d: int) -> int:
    """How many digits of `mask` are below d: the index of a set's state for d."""
    return (mask & ((1 << (d - 1)) - 1)).bit_count()


def _reach(sets: list[Als], links: list) -> tuple[list[int], list[list[int]], list[int]]:
    """The states "set j lacks its digit d" (numbered from base[j], one per digit of j),
    what each implies at once (j holds its other digits: each linked set loses the link,
    r != d) and, as a bitmask over states, all it implies in any number of steps (the
    first states, repeated until nothing changes)."""
    base, total = [], 0
    for s in sets:
        base.append(total)
        total += s[1].bit_count()
    succ: list[list[int]] = []
    for j, s in enumerate(sets):
        for d in digits(s[1]):
            succ.append([base[k] + _rank(sets[k][1], r) for k, rc in links[j]
                         for r in digits(rc & ~(1 << (d - 1)))])
    reach = [1 << t for t in range(total)]
    changed = True
    while changed:
        changed = False
        for t in range(total - 1, -1, -1):
            now = reach[t] | union(reach[u] for u in succ[t])
            if now != reach[t]:
                reach[t], changed = now, True
    return base, succ, reach


def _ends(sets: list[Als], where: list[int]) -> list[list[int]]:
    """Per set, the other sets that share a digit z with it such that some cell outside
    both sees every z of both: the only ends worth reaching from it (found through an
    index of the cells that see every z of a set, by z and cell)."""
    seeing: dict[tuple[int, int], list[int]] = {}
    for j, (_, mask, per) in enumerate(sets):
        for z in digits(mask):
            for c in cells_of(per[z - 1][1] & where[z - 1]):
                seeing.setdefault((z, c), []).append(j)
    out = []
    for i, (_, mask, per) in enumerate(sets):
        found: set[int] = set()
        for z in digits(mask):
            for c in cells_of(per[z - 1][1] & where[z - 1]):
                found.update(seeing[(z, c)])
        found.discard(i)
        out.append(sorted(found))
    return out


def _chain(sets: list[Als], base: list[int], succ: list[list[int]], starts: list[int],
           end: int) -> list[tuple[int, int]]:
    """A shortest chain of states from one of `starts` to `end` with two links at least:
    (set, the digit it lacks) per state."""
    owner = [j for j, s in enumerate(sets) for _ in range(s[1].bit_count())]
    parent: dict[tuple[int, int], tuple[int, int] | None] = {(s, 0): None for s in starts}
    frontier = list(parent)
    while frontier:
        nxt = []
        for state in frontier:
            t, depth = state
            if t == end and depth == 2:
                path = []
                at: tuple[int, int] | None = state
                while at is not None:
                    j = owner[at[0]]
                    path.append((j, digits(sets[j][1])[at[0] - base[j]]))
                    at = parent[at]
                return path[::-1]
            for u in succ[t]:
                key = (u, min(depth + 1, 2))
                if key not in parent:
                    parent[key] = state
                    nxt.append(key)
        frontier = nxt
    raise AssertionError("a reached state has a chain")


def _chain_step(n: int, gone: list, chain: list[tuple[int, int]], sets: list[Als]) -> Step:
    """The step of an ALS-XY-Chain: chain[0] is (A1, its first link), then (set, the link
    it lacks) for each next set."""
    name = lambda j: f"{cells_text(cells_of(sets[j][0]), n)} {{{_ds(sets[j][1])}}}"  # noqa: E731
    text = name(chain[0][0]) + "".join(f" -{d}- {name(j)}" for j, d in chain[1:])
    zs = ",".join(map(str, sorted({z for _, z in gone})))
    cells = cells_of(union(sets[j][0] for j, _ in chain))
    return make("ALS-XY-Chain", n, f"{text}, Z={zs}", eliminations=gone, cells=cells,
                sentence=f"If {name(chain[0][0])} lacked {zs}, each set along the chain would "
                f"be locked and push its link out of the next, down to "
                f"{name(chain[-1][0])}, which would then hold it: {zs} is in one of the two "
                f"end sets.", length=len(chain))


def death_blossom(g: Candidates) -> Iterator[Step]:
    """A stem cell with digits d1..dk, each joined to its own set (a petal) by that digit
    (every di of the petal sees the stem): the stem holds one di, so its petal is locked
    without it, and a digit z every petal holds (not a stem digit) is in some petal; a
    cell that sees every z of every petal loses it. Petals may be single cells and may
    overlap; each set of eliminations once."""
    n, where, peers = g.n, g.where(), g.tables.peer_masks
    sets = _all(g)
    done: set[frozenset] = set()
    for stem in range(n * n):
        mask = g.cands[stem]
        if mask.bit_count() < 2:
            continue
        petals = {d: [s for s in sets if not s[0] >> stem & 1 and s[1] >> (d - 1) & 1
                      and not s[2][d - 1][0] & ~peers[stem]] for d in digits(mask)}
        if not all(petals.values()):
            continue
        order = sorted(petals, key=lambda d: len(petals[d]))   # fewest petals first
        targets = {z: where[z - 1] & ~(1 << stem) for z in digits(((1 << n) - 1) & ~mask)}
        for chosen, gone in _blossoms(order, petals, targets, ()):
            if _new(gone, done):
                yield _blossom_step(n, gone, stem, order, chosen)


def _blossoms(order: list[int], petals: dict, targets: dict[int, int],
              chosen: tuple) -> Iterator[tuple[tuple, list]]:
    """(petals, eliminations) of each choice of a petal per stem digit: `targets` holds,
    per digit z every petal so far has, the cells that see every z of them (a choice is
    dropped as soon as none is left)."""
    if len(chosen) == len(order):
        yield chosen, [(c, z) for z, m in targets.items() for c in cells_of(m)]
        return
    for petal in petals[order[len(chosen)]]:
        narrower = {z: m & petal[2][z - 1][1] for z, m in targets.items()
                    if petal[1] >> (z - 1) & 1}
        if any(narrower.values()):
            yield from _blossoms(order, petals, {z: m for z, m in narrower.items() if m},
                                 chosen + (petal,))


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
             for d, p in sorted(zip(stem_digits, petals))]
    return make("Death Blossom", n, f"stem {cells_text([stem], n)}, " + "; ".join(named),
                eliminations=gone, cells=[stem, *cells_of(union(p[0] for p in petals))],
                sentence=f"{cells_text([stem], n)} holds one of "
                f"{', '.join(map(str, sorted(stem_digits)))}; whichever it is, that petal is "
                f"locked without it, and the digits every petal shares are in one of them.",
                length=sum(p[0].bit_count() for p in petals))
