"""Wings: XY-Wing, XYZ-Wing, W-Wing, WXYZ-Wing; Aligned Pair Exclusion."""

from __future__ import annotations

from collections.abc import Iterator, Set
from itertools import combinations, product

from sudokulab.human.candidates import Candidates, digits, union
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


def wxyz_wing(g: Candidates) -> Iterator[Step]:
    """Four cells holding four digits between them, every digit but z held only by cells
    that see each other: without z they would hold three digits in four cells, two of
    them the same digit in cells that see each other. So one holds z, and cells that see
    every z among them cannot."""
    tables, cands, n = g.tables, g.cands, g.n
    small = [c for c in tables.cells if 2 <= _count(cands[c]) <= 4]
    for four in combinations(range(1, n + 1), 4):
        mask = sum(1 << (d - 1) for d in four)
        inside = [c for c in small if cands[c] & ~mask == 0]
        for cells in combinations(inside, 4):
            if union(cands[c] for c in cells) != mask:
                continue
            loose = [d for d in four if not _restricted(g, [c for c in cells
                                                            if cands[c] >> (d - 1) & 1])]
            if len(loose) != 1:
                continue
            z = loose[0]
            holders = [c for c in cells if cands[c] >> (z - 1) & 1]
            seeing = set.intersection(*(set(tables.peers[c]) for c in holders))
            gone = [(c, z) for c in sorted(seeing - set(cells)) if cands[c] >> (z - 1) & 1]
            if gone:
                yield make("WXYZ-Wing", n, f"{'/'.join(map(str, four))} in "
                           f"{','.join(name(c, n) for c in cells)}", eliminations=gone,
                           cells=list(cells), sentence=f"{', '.join(name(c, n) for c in cells)}"
                           f" hold four digits; each but {z} lies only in cells that see each "
                           f"other, so one of them holds {z}, and cells that see every {z} "
                           f"there cannot.")


def _restricted(g: Candidates, cells: list[int]) -> bool:
    """Whether every two of the cells see each other (at most one can hold a digit)."""
    return all(b in g.tables.peers[a] for a, b in combinations(cells, 2))


def aligned_pair_exclusion(g: Candidates) -> Iterator[Step]:
    """Two cells that see each other: a pair of digits for them is excluded when a cell
    seeing both holds no other digit. A candidate in no pair left cannot stay."""
    tables, cands, n = g.tables, g.cands, g.n
    blanks = [c for c in tables.cells if _count(cands[c]) >= 2]
    for a, b in combinations(blanks, 2):
        if b not in tables.peers[a]:
            continue
        both = tables.peers[a] & tables.peers[b]
        blockers = {cands[c] for c in both if 1 <= _count(cands[c]) <= 2}
        kept = [(x, y) for x, y in product(digits(cands[a]), digits(cands[b])) if x != y
                and not any(m & ~((1 << (x - 1)) | (1 << (y - 1))) == 0 for m in blockers)]
        gone = [(a, x) for x in digits(cands[a]) if all(p != x for p, _ in kept)]
        gone += [(b, y) for y in digits(cands[b]) if all(q != y for _, q in kept)]
        if gone:
            used = [c for c in sorted(both) if c in blocking(cands, both, cands[a] | cands[b])]
            yield make("Aligned Pair Exclusion", n, f"{name(a, n)},{name(b, n)}",
                       eliminations=gone, cells=[a, b, *used],
                       sentence=f"{name(a, n)} and {name(b, n)} see each other; a pair of "
                       f"digits for them is excluded when a cell seeing both would be left "
                       f"without a candidate, so "
                       f"{', '.join(f'{name(c, n)} is not {d}' for c, d in gone)}: no pair "
                       f"left has it.")


def blocking(cands: list[int], cells: Set[int], digits_mask: int) -> set[int]:
    """The cells of one or two candidates, all among the digits: those that exclude pairs."""
    return {c for c in cells if 1 <= _count(cands[c]) <= 2 and cands[c] & ~digits_mask == 0}
