"""ALS-XZ: two almost locked sets joined by a restricted common digit.

An almost locked set (ALS) is k cells of one unit holding k+1 digits between them: take one
digit away and the rest is locked. Two ALSs A and B with a common digit x whose every copy
in A sees every copy in B cannot both hold x, so one of them is locked without x; then for
any other common digit z, one of them holds z, and a cell that sees every z of both loses it.
A step's `length` is the cells of its smaller set: with one (a bivalue cell) it is what
Sukaku Explainer calls an XYZ-, WXYZ- or VWXYZ-Wing, which its rating scale sets apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, combinations, product

from sudokulab.human.candidates import Candidates, cells_of, digits
from sudokulab.human.step import Step, cells_text, make

MOST_CELLS = 3  # bigger sets add little and cost much
WING_CELLS = 4  # but a bivalue cell and 4 cells are a VWXYZ-Wing, which Explainer rates


def almost_locked_sets(g: Candidates, most_cells: int = MOST_CELLS) -> list[tuple[int, int]]:
    """(cells as a bitmask, candidate mask) of every ALS of up to `most_cells` cells."""
    lay, cands = g.layout, g.cands
    most = most_cells + 1   # digits: a group with more can never become an ALS
    seen: dict[int, int] = {}
    found: list[tuple[int, int, int]] = []   # (size, cells, mask) of one unit

    def grow(cells: list[int], start: int, group: int, mask: int, size: int) -> None:
        """Record the group if it is an ALS, then add each later cell that keeps it small."""
        if mask.bit_count() == size + 1:
            found.append((size, group, mask))
        if size < most_cells:
            for k in range(start, len(cells)):
                wider = mask | cands[cells[k]]
                if wider.bit_count() <= most:
                    grow(cells, k + 1, group | 1 << cells[k], wider, size + 1)

    for unit in lay.units:  # unit by unit, smaller sets first
        found.clear()
        grow([c for c in unit if cands[c] and cands[c].bit_count() <= most], 0, 0, 0, 0)
        for _, group, mask in sorted(found, key=lambda f: f[0]):
            seen.setdefault(group, mask)
    return list(seen.items())


def _near(g: Candidates, sets: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(cells, candidates, the cells that see one of them) of each set."""
    peers = g.layout.peer_masks
    out = []
    for cells, mask in sets:
        near = 0
        for c in cells_of(cells):
            near |= peers[c]
        out.append((cells, mask, near))
    return out


def _seen(g: Candidates, cells: int, mask: int) -> dict[int, tuple[int, int]]:
    """Per digit of an ALS: (its cells holding the digit, the cells that see all of those)."""
    where, peers = g.where(), g.layout.peer_masks
    out = {}
    for d in digits(mask):
        holding = cells & where[d - 1]
        seen = -1
        for c in cells_of(holding):
            seen &= peers[c]
        out[d] = (holding, seen)
    return out


def als_xz(g: Candidates, part: str = "all") -> Iterator[Step]:
    """Eliminations of ALS-XZ pairs of sets of up to MOST_CELLS cells; `part` "wings" for
    only those with a bivalue cell (the other set up to WING_CELLS cells), "sets" for only
    the others."""
    n, where = g.n, g.where()
    sets = g.cached(f"als{part == 'wings'}", lambda: _near(g, sorted(
        almost_locked_sets(g, WING_CELLS if part == "wings" else MOST_CELLS),
        key=lambda s: s[0].bit_count())))
    memo: dict[int, dict[int, tuple[int, int]]] = {}

    def seen(cells: int, mask: int) -> dict[int, tuple[int, int]]:
        """_seen of a set, computed when first needed."""
        out = memo.get(cells)
        if out is None:
            out = memo[cells] = _seen(g, cells, mask)
        return out

    cells = [s for s in sets if s[0].bit_count() == 1]  # (cells, candidates, near)
    small = [s for s in sets if 1 < s[0].bit_count() <= MOST_CELLS]
    big = [s for s in sets if s[0].bit_count() > MOST_CELLS]
    # wings (a bivalue cell and a set) first, smaller first: the order of their ratings
    wings = chain(product(cells, small), product(cells, big))
    others = chain(combinations(cells, 2), combinations(small, 2))
    pairs = {"all": chain(wings, others), "wings": wings, "sets": others}[part]
    for (a, ma, near), (b, mb, _) in pairs:
        common = ma & mb
        if common & (common - 1) == 0 or a & b or not b & near:
            continue  # a restricted digit needs two common digits and cells that see each other
        seen_a, seen_b = seen(a, ma), seen(b, mb)
        for x in digits(common):
            if seen_b[x][0] & ~seen_a[x][1]:
                continue  # some x of B does not see every x of A: not restricted
            gone = []
            for z in digits(common & ~(1 << (x - 1))):
                both = seen_a[z][1] & seen_b[z][1] & where[z - 1] & ~(a | b)
                gone += [(c, z) for c in cells_of(both)]
            if gone:
                yield _step(n, gone, *sorted(((a, ma), (b, mb)),
                                             key=lambda s: s[0].bit_count()), x)


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
