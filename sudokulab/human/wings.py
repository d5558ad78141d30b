"""Wings: XY-Wing, XYZ-Wing, W-Wing."""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, digits
from sudokulab.human.patterns import strong_links
from sudokulab.human.step import Step, make, name


def _count(mask: int) -> int:
    """How many candidates."""
    return mask.bit_count()


def xy_wing(g: Candidates) -> Iterator[Step]:
    """A pivot xy seeing pincers xz and yz: whichever the pivot holds, a pincer holds z."""
    tables, cands, n = g.tables, g.cands, g.n
    pairs = [c for c in tables.cells if _count(cands[c]) == 2]
    for pivot in pairs:
        m = cands[pivot]
        wings = [c for c in pairs if c in tables.peers[pivot] and cands[c] != m
                 and _count(cands[c] & m) == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                za, zb = cands[a] & ~m, cands[b] & ~m
                if za != zb or (cands[a] & m) == (cands[b] & m):
                    continue
                z = za.bit_length()
                gone = [(c, z) for c in tables.peers[a] & tables.peers[b]
                        if cands[c] & za and c != pivot]
                if gone:
                    x, y = digits(m)
                    yield make("XY-Wing", n, f"{x}/{y}/{z} in {name(pivot, n)},"
                               f"{name(a, n)},{name(b, n)}", eliminations=gone,
                               cells=[pivot, a, b], sentence=f"{name(pivot, n)} holds {x} or "
                               f"{y}; either way {name(a, n)} or {name(b, n)} holds {z}, so "
                               f"cells that see both cannot.")


def xyz_wing(g: Candidates) -> Iterator[Step]:
    """A pivot xyz seeing pincers xz and yz: one of the three holds z."""
    tables, cands, n = g.tables, g.cands, g.n
    for pivot in tables.cells:
        m = cands[pivot]
        if _count(m) != 3:
            continue
        wings = [c for c in tables.peers[pivot] if _count(cands[c]) == 2 and cands[c] & m ==
                 cands[c]]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                common = cands[a] & cands[b]
                if cands[a] | cands[b] != m or _count(common) != 1:
                    continue
                z = common.bit_length()
                gone = [(c, z) for c in tables.peers[a] & tables.peers[b] & tables.peers[pivot]
                        if cands[c] & common]
                if gone:
                    yield make("XYZ-Wing", n, f"{'/'.join(map(str, digits(m)))} in "
                               f"{name(pivot, n)},{name(a, n)},{name(b, n)}",
                               eliminations=gone, cells=[pivot, a, b],
                               sentence=f"One of {name(pivot, n)}, {name(a, n)} and "
                               f"{name(b, n)} holds {z}, so cells that see all three cannot.")


def w_wing(g: Candidates) -> Iterator[Step]:
    """Two equal bivalue cells xy and a strong link on x between cells seeing one each:
    one of the two cells holds y."""
    tables, cands, n = g.tables, g.cands, g.n
    pairs = [c for c in tables.cells if _count(cands[c]) == 2]
    links = {d: strong_links(g, d) for d in range(1, n + 1)}
    for i, a in enumerate(pairs):
        for b in pairs[i + 1:]:
            if cands[a] != cands[b] or b in tables.peers[a]:
                continue
            for x in digits(cands[a]):
                y = digits(cands[a] & ~(1 << (x - 1)))[0]
                both = tables.peers[a] & tables.peers[b]
                gone = [(c, y) for c in both if cands[c] >> (y - 1) & 1]
                if not gone:
                    continue
                for p, q, _ in links[x]:
                    for s, t in ((p, q), (q, p)):
                        if s in tables.peers[a] and t in tables.peers[b] and not {s, t} & {a, b}:
                            yield make("W-Wing", n, f"{x}/{y} in {name(a, n)},{name(b, n)} "
                                       f"connected by {x} in {name(s, n)},{name(t, n)}",
                                       eliminations=gone, cells=[a, b, s, t],
                                       sentence=f"{name(s, n)} or {name(t, n)} holds {x}, so "
                                       f"{name(a, n)} or {name(b, n)} is not {x} and holds "
                                       f"{y}: cells that see both cannot.", length=5)
