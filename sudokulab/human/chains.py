"""Chains: X-Chain, XY-Chain, Remote Pair, AIC (alternating inference chains).

A node is a candidate (cell, digit). A strong link A = B says A or B is true (the only two
places of a digit in a unit, or the only two candidates of a cell); a weak link A - B says
they are not both true (peers with the same digit, or two digits of one cell). Starting
from "A is false", a chain alternating strong and weak links proves each strong end true:
so A or Z holds for the chain's last node Z, and any candidate that sees both goes. The
search is breadth first, so each start yields its shortest chain.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, per_digit
from sudokulab.human.step import Step, make

MAX_LINKS = 20  # longer chains are left to forcing chains


def _graph(g: Candidates, kinds: str, digit: int | None = None, only: int = -1):
    """(strong, weak) adjacency over nodes cell*n + d-1; kinds 'u' (units, bilocal), 'c'
    (cells, bivalue); only the cells of the bitmask `only`."""
    lay, n = g.layout, g.n
    cands = g.cands if only == -1 else [m if only >> c & 1 else 0 for c, m in enumerate(g.cands)]
    strong: dict[int, list[int]] = {}
    weak: dict[int, list[int]] = {}
    wanted = range(1, n + 1) if digit is None else (digit,)
    nodes = [c * n + d - 1 for c in lay.cells for d in wanted if cands[c] >> (d - 1) & 1]
    if "u" in kinds:
        for unit in lay.units:
            for d in wanted:
                b = 1 << (d - 1)
                places = [c for c in unit if cands[c] & b]
                if len(places) == 2:
                    a, z = places[0] * n + d - 1, places[1] * n + d - 1
                    strong.setdefault(a, []).append(z)
                    strong.setdefault(z, []).append(a)
    if "c" in kinds:
        for c in lay.cells:
            m = cands[c]
            if m.bit_count() == 2:
                x, y = (m & -m).bit_length(), (m & (m - 1)).bit_length()
                if digit is None or digit in (x, y):
                    a, z = c * n + x - 1, c * n + y - 1
                    strong.setdefault(a, []).append(z)
                    strong.setdefault(z, []).append(a)
    for node in nodes:
        c, d = divmod(node, n)
        b = 1 << d
        out = [p * n + d for p in lay.peers[c] if cands[p] & b]
        if "c" in kinds and digit is None:
            out += [c * n + e for e in range(n) if e != d and cands[c] >> e & 1]
        weak[node] = out
    return strong, weak


def _eliminations(g: Candidates, a: int, z: int) -> list[tuple[int, int]]:
    """What 'a or z' removes."""
    lay, cands, n = g.layout, g.cands, g.n
    ca, da = divmod(a, n)
    cz, dz = divmod(z, n)
    if ca == cz:
        if da == dz:
            return []
        keep = (1 << da) | (1 << dz)
        return [(ca, e + 1) for e in range(n) if cands[ca] >> e & 1 and not keep >> e & 1]
    if da == dz:
        return [(c, da + 1) for c in lay.peers[ca] & lay.peers[cz] if cands[c] >> da & 1]
    gone = []
    if cz in lay.peers[ca]:
        if cands[ca] >> dz & 1:
            gone.append((ca, dz + 1))
        if cands[cz] >> da & 1:
            gone.append((cz, da + 1))
    return gone


def search(g: Candidates, kinds: str, digit: int | None = None, accept=None,
           only: int = -1) -> Iterator[tuple[list[int], list[tuple[int, int]]]]:
    """(chain nodes from A to Z, eliminations): the shortest useful chain (the first start's,
    on a tie), then shorter ones of earlier starts. A start's search stops at the length of
    the shortest chain found so far: nothing it finds there would come first. `only` limits
    the chain to a set of cells (a bitmask)."""
    strong, weak = _graph(g, kinds, digit, only)
    found = []
    best = MAX_LINKS + 1
    for start in sorted(strong):
        prev = {(start, False): None}
        todo = deque([(start, False, 0)])
        while todo:
            node, on, links = todo.popleft()
            if links >= best:
                break
            if on and node != start and links >= 3:
                gone = _eliminations(g, start, node)
                if gone:
                    chain = _unwind(prev, (node, True))
                    if accept is None or accept(chain):
                        found.append((links, chain, gone))
                        best = links
                        break
            if links >= MAX_LINKS:
                continue
            for nxt in (weak.get(node, ()) if on else strong.get(node, ())):
                state = (nxt, not on)
                if state not in prev:
                    prev[state] = (node, on)
                    todo.append((nxt, not on, links + 1))
    for _, chain, gone in sorted(found, key=lambda f: f[0]):
        yield chain, gone


def _unwind(prev, state) -> list[int]:
    """The nodes of the chain ending at a state."""
    out = []
    while state is not None:
        out.append(state[0])
        state = prev[state]
    return out[::-1]


def eureka(chain: list[int], n: int) -> str:
    """(4)r1c2=(4)r1c8-(4)r5c8=(4)r6c9: the chain in Eureka notation."""
    parts = []
    for k, node in enumerate(chain):
        c, d = divmod(node, n)
        if k:
            parts.append("=" if k % 2 else "-")
        parts.append(f"({d + 1})r{c // n + 1}c{c % n + 1}")
    return "".join(parts)


def _step(g: Candidates, technique: str, chain: list[int], gone) -> Step:
    """The Step of one chain."""
    n = g.n
    links = [((a // n, a % n + 1), (b // n, b % n + 1), k % 2 == 0)
             for k, (a, b) in enumerate(zip(chain, chain[1:]))]
    first, last = chain[0], chain[-1]
    a = f"{first % n + 1} in r{first // n // n + 1}c{first // n % n + 1}"
    z = f"{last % n + 1} in r{last // n // n + 1}c{last // n % n + 1}"
    return make(technique, n, eureka(chain, n), eliminations=gone,
                cells=[node // n for node in chain], links=links, length=len(chain) - 1,
                sentence=f"If {a} were false, the chain would make {z} true: one of the two "
                f"is, so what sees both is removed.")


def _x_chain(g: Candidates, d: int) -> Iterator[Step]:
    """A chain of one digit's strong and weak links."""
    for chain, gone in search(g, "u", d):
        yield _step(g, "X-Chain", chain, gone)


x_chain = per_digit(_x_chain)


def _same_pair(g: Candidates, chain: list[int]) -> bool:
    """Whether every cell of the chain holds the same two candidates."""
    n = g.n
    return len({g.cands[node // n] for node in chain}) == 1


def remote_pair(g: Candidates) -> Iterator[Step]:
    """An XY-Chain through four cells or more that all hold the same two digits."""
    pairs: dict[int, int] = {}   # each pair of digits: the bivalue cells holding it
    for c, m in enumerate(g.cands):
        if m.bit_count() == 2:
            pairs[m] = pairs.get(m, 0) | 1 << c
    only = 0
    for cells in pairs.values():
        if cells.bit_count() >= 4:
            only |= cells
    if not only:
        return
    for chain, gone in search(g, "c", accept=lambda ch: len(ch) >= 8 and _same_pair(g, ch),
                              only=only):
        yield _step(g, "Remote Pair", chain, gone)


def xy_chain(g: Candidates) -> Iterator[Step]:
    """A chain of bivalue cells, each linked to the next by a shared digit."""
    for chain, gone in search(g, "c"):
        yield _step(g, "XY-Chain", chain, gone)


def aic(g: Candidates) -> Iterator[Step]:
    """An alternating inference chain over every kind of link."""
    for chain, gone in search(g, "uc"):
        yield _step(g, "AIC", chain, gone)


def _group_nodes(g: Candidates) -> list[tuple[frozenset[int], int]]:
    """Every candidate as a node, and every group: the 2 or more places of a digit where a
    box meets a row or a column."""
    lay, cands, n = g.layout, g.cands, g.n
    nodes = [(frozenset([c]), d) for c in lay.cells for d in range(1, n + 1)
             if cands[c] >> (d - 1) & 1]
    boxes = [u for u, kind in enumerate(lay.kinds) if kind == "box"]
    lines = [u for u, kind in enumerate(lay.kinds) if kind in ("row", "col")]
    seen = set()
    for box in boxes:
        for line in lines:
            meet = set(lay.units[box]) & set(lay.units[line])
            for d in range(1, n + 1):
                cells = frozenset(c for c in meet if cands[c] >> (d - 1) & 1)
                if len(cells) >= 2 and (cells, d) not in seen:
                    seen.add((cells, d))
                    nodes.append((cells, d))
    return nodes


def _grouped_graph(g: Candidates):
    """Nodes, and strong and weak adjacency over their indexes."""
    lay, cands, n = g.layout, g.cands, g.n
    nodes = _group_nodes(g)
    index = {node: k for k, node in enumerate(nodes)}
    strong: dict[int, set[int]] = {}
    weak: dict[int, set[int]] = {}
    by_digit: dict[int, list[int]] = {}
    for k, (_, d) in enumerate(nodes):
        by_digit.setdefault(d, []).append(k)
    for unit in lay.units:
        members = set(unit)
        for d in range(1, n + 1):
            places = frozenset(c for c in unit if cands[c] >> (d - 1) & 1)
            if len(places) < 2:
                continue
            inside = [k for k in by_digit.get(d, ()) if nodes[k][0] <= members]
            for a in inside:
                rest = places - nodes[a][0]
                b = index.get((rest, d))
                if rest and b is not None and b != a:
                    strong.setdefault(a, set()).add(b)
    for c in lay.cells:
        ds = [d for d in range(1, n + 1) if cands[c] >> (d - 1) & 1]
        singles = [index[(frozenset([c]), d)] for d in ds]
        for a in singles:
            weak.setdefault(a, set()).update(x for x in singles if x != a)
        if len(singles) == 2:
            strong.setdefault(singles[0], set()).add(singles[1])
            strong.setdefault(singles[1], set()).add(singles[0])
    for ks in by_digit.values():
        for a in ks:
            ca = nodes[a][0]
            seen_by_all = lay.peers[next(iter(ca))].intersection(*(lay.peers[c] for c in ca))
            for b in ks:
                if b != a and nodes[b][0] <= seen_by_all:
                    weak.setdefault(a, set()).add(b)
    return nodes, strong, weak


def _group_eliminations(g: Candidates, a, z) -> list[tuple[int, int]]:
    """What 'node a or node z' removes."""
    lay, cands = g.layout, g.cands
    (ca, da), (cz, dz) = a, z
    if len(ca) == 1 and len(cz) == 1:
        n = g.n
        return _eliminations(g, next(iter(ca)) * n + da - 1, next(iter(cz)) * n + dz - 1)
    if da != dz or ca & cz:
        return []
    cells = ca | cz
    seen = lay.peers[next(iter(cells))].intersection(*(lay.peers[c] for c in cells))
    return [(c, da) for c in seen - cells if cands[c] >> (da - 1) & 1]


def grouped_aic(g: Candidates) -> Iterator[Step]:
    """An AIC whose nodes may be groups: a digit's places where a box meets a line."""
    nodes, strong, weak = _grouped_graph(g)
    found = []
    best = MAX_LINKS + 1   # as in `search`: a start's search stops at the shortest so far
    for start in sorted(strong):
        prev = {(start, False): None}
        todo = deque([(start, False, 0)])
        while todo:
            node, on, links = todo.popleft()
            if links >= best:
                break
            if on and node != start and links >= 3:
                gone = _group_eliminations(g, nodes[start], nodes[node])
                if gone:
                    chain = _unwind(prev, (node, True))
                    if any(len(nodes[k][0]) > 1 for k in chain):
                        found.append((links, chain, gone))
                        best = links
                        break
            if links >= MAX_LINKS:
                continue
            for nxt in sorted(weak.get(node, ()) if on else strong.get(node, ())):
                state = (nxt, not on)
                if state not in prev:
                    prev[state] = (node, on)
                    todo.append((nxt, not on, links + 1))
    n = g.n
    for _, chain, gone in sorted(found, key=lambda f: f[0]):
        text = "".join(("" if k == 0 else "=" if k % 2 else "-")
                       + f"({nodes[x][1]}){_cells(nodes[x][0], n)}"
                       for k, x in enumerate(chain))
        yield make("Grouped AIC", n, text, eliminations=gone,
                   cells=sorted({c for x in chain for c in nodes[x][0]}),
                   length=len(chain) - 1,
                   sentence="If the chain's first node were false its last would be true "
                   "(a group is true when one of its cells holds the digit): one of the two "
                   "is, so what sees both is removed.")


def _cells(cells: frozenset[int], n: int) -> str:
    """A node's cells in HoDoKu's compact form."""
    from sudokulab.human.step import cells_text

    return cells_text(cells, n)
