"""Chains: X-Chain, XY-Chain, Remote Pair, AIC (alternating inference chains), grouped,
and the nice loops (chains from a cell back into it).

A node is a candidate (cell, digit). A strong link A = B says A or B is true (the only two
places of a digit in a unit, or the only two candidates of a cell); a weak link A - B says
they are not both true (peers with the same digit, or two digits of one cell). Starting
from "A is false", a chain alternating strong and weak links proves each strong end true:
so A or Z holds for the chain's last node Z, and any candidate that sees both goes. The
search is breadth first, so each start yields its shortest chain. Grouped nodes hold a
digit's places in several cells of one unit; named, the grouped chains also pass through
almost locked sets (a node per digit of a set: the set lacks one digit at most).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from functools import partial

from sudokulab.human.als import every_set as als_sets
from sudokulab.human.candidates import (
    Candidates,
    cells_of,
    digits,
    per_digit,
    seen_by_all,
    union,
)
from sudokulab.human.step import Step, cells_text, make

MAX_LINKS = 20  # longer chains are left to forcing chains


def _graph(g: Candidates, kinds: str, digit: int | None = None, only: int = -1):
    """The strong links (a dict) and weak links (a function) of nodes cell*n + d-1; kinds
    'u' (units, bilocal), 'c' (cells, bivalue); only the cells of the bitmask `only`."""
    tables, n = g.tables, g.n
    cands = g.cands if only == -1 else [m if only >> c & 1 else 0 for c, m in enumerate(g.cands)]
    strong: dict[int, list[int]] = {}
    linked = [0] * n   # per digit (from 0), the cells whose candidate has a strong link
    wanted = range(1, n + 1) if digit is None else (digit,)
    if "u" in kinds:  # (never with `only`)
        where = g.where()
        for unit_mask in tables.unit_masks:
            for d in wanted:
                places = where[d - 1] & unit_mask
                if places.bit_count() == 2:
                    low = places & -places
                    a = (low.bit_length() - 1) * n + d - 1
                    z = (places.bit_length() - 1) * n + d - 1
                    strong.setdefault(a, []).append(z)
                    strong.setdefault(z, []).append(a)
                    linked[d - 1] |= places
    if "c" in kinds:
        for c in tables.cells:
            m = cands[c]
            if m.bit_count() == 2:
                x, y = (m & -m).bit_length(), (m & (m - 1)).bit_length()
                if digit is None or digit in (x, y):
                    a, z = c * n + x - 1, c * n + y - 1
                    strong.setdefault(a, []).append(z)
                    strong.setdefault(z, []).append(a)
                    linked[x - 1] |= 1 << c
                    linked[y - 1] |= 1 << c
    peers, cells_too = tables.peer_masks, "c" in kinds and digit is None
    weak: dict[int, list[int]] = {}

    def weak_links(node: int) -> list[int]:
        """A node's weak links, found when the search first reaches it; only to nodes with
        a strong link (a chain cannot go on from the others), peers in ascending order."""
        out = weak.get(node)
        if out is None:
            c, d = divmod(node, n)
            out = [p * n + d for p in cells_of(peers[c] & linked[d])]
            if cells_too:
                out += [c * n + e for e in range(n)
                        if e != d and cands[c] >> e & 1 and c * n + e in strong]
            weak[node] = out
        return out

    return strong, weak_links


def _eliminations(g: Candidates, a: int, z: int) -> list[tuple[int, int]]:
    """What 'a or z' removes."""
    tables, cands, n = g.tables, g.cands, g.n
    ca, da = divmod(a, n)
    cz, dz = divmod(z, n)
    if ca == cz:
        if da == dz:
            return []
        keep = (1 << da) | (1 << dz)
        return [(ca, e + 1) for e in range(n) if cands[ca] >> e & 1 and not keep >> e & 1]
    if da == dz:
        return [(c, da + 1) for c in tables.peers[ca] & tables.peers[cz] if cands[c] >> da & 1]
    gone = []
    if cz in tables.peers[ca]:
        if cands[ca] >> dz & 1:
            gone.append((ca, dz + 1))
        if cands[cz] >> da & 1:
            gone.append((cz, da + 1))
    return gone


def search(g: Candidates, kinds: str, digit: int | None = None, accept=None, only: int = -1,
           every: bool = False) -> Iterator[tuple[list[int], list[tuple[int, int]]]]:
    """(chain nodes from A to Z, eliminations): the shortest useful chain (the first start's,
    on a tie), then shorter ones of earlier starts. A start's search stops at the length of
    the shortest chain found so far: nothing it finds there would come first. `only` limits
    the chain to a set of cells (a bitmask). With `every`, then every other chain that
    removes something new (see `_every`)."""
    strong, weak = _graph(g, kinds, digit, only)
    found = []
    best = MAX_LINKS + 1
    reaches = _reaches(strong, weak)
    for start in sorted(strong):
        removes = _removes(g, start)
        if not reaches(start, removes, best):
            continue
        hit = _shortest(start, strong, weak, best, removes,
                        partial(_eliminations, g, start), accept)
        if hit:
            found.append(hit)
            best = hit[0]
    yielded: set[frozenset] = set()
    for _, chain, gone in sorted(found, key=lambda f: f[0]):
        yielded.add(frozenset(gone))
        yield chain, gone
    if every and found:  # no first chain: `reaches` proved there is none at all
        for chain, gone in _every(sorted(strong), strong, weak, lambda a: _removes(g, a),
                                  lambda a: partial(_eliminations, g, a), accept, yielded):
            yield chain, gone


def _every(starts: list[int], strong: dict, weak, removes, eliminate, accept,
           yielded: set[frozenset]) -> Iterator[tuple[list[int], list]]:
    """Every chain up to MAX_LINKS links whose eliminations were not yielded yet: the shortest
    from each start to each end, shortest first, equal lengths in the order of their starts
    and ends (a stable order). Only a caller listing every step (`hint --all`) goes on past
    a finder's first step, so the solving paths never pay for this walk."""
    found = []
    for order, start in enumerate(starts):
        removes_from, eliminate_from = removes(start), eliminate(start)
        prev = {start * 2: -1}
        for links, level in _levels(start, strong, weak, prev):
            if links < 3 or not links & 1:
                continue
            for state in level:
                if state == start * 2 + 1 or not removes_from(state >> 1):
                    continue
                gone = eliminate_from(state >> 1)
                if gone:
                    chain = _unwind_states(prev, state)
                    if accept is None or accept(chain):
                        found.append((links, order, chain, gone))
    for _, _, chain, gone in sorted(found, key=lambda f: (f[0], f[1])):
        key = frozenset(gone)
        if key not in yielded:
            yielded.add(key)
            yield chain, gone


def _shortest(start: int, strong: dict, weak, best: int, removes: Callable[[int], bool],
              eliminate: Callable[[int], list], accept=None) -> tuple | None:
    """(links, chain, eliminations) of the shortest chain from a start, shorter than `best`,
    that removes something (`removes` tests an end node, `eliminate` lists what it removes)
    and that `accept` takes; None if there is none. The first such end of a level wins."""
    prev = {start * 2: -1}   # state node*2 + on (reached by a strong link): where from
    for links, level in _levels(start, strong, weak, prev):
        if links >= 3 and links & 1:  # a chain has 3 links or more and ends on
            for state in level:
                if state == start * 2 + 1 or not removes(state >> 1):
                    continue
                gone = eliminate(state >> 1)
                if gone:
                    chain = _unwind_states(prev, state)
                    if accept is None or accept(chain):
                        return links, chain, gone
        if _past(links, best):
            return None
    return None


def _removes(g: Candidates, a: int) -> Callable[[int], bool]:
    """A test of nodes z: whether _eliminations(g, a, z) finds something, with bitmasks."""
    n, cands, peers = g.n, g.cands, g.tables.peer_masks
    ca, da = divmod(a, n)
    others = cands[ca] & ~(1 << da)   # the start cell's other candidates
    targets = peers[ca] & g.where()[da]   # the start digit's places that see the start

    def removes(z: int) -> bool:
        cz, dz = divmod(z, n)
        if cz == ca:
            return bool(others & ~(1 << dz))
        if dz == da:
            return bool(targets & peers[cz])
        return bool(peers[ca] >> cz & 1 and (others >> dz | cands[cz] >> da) & 1)

    return removes


def _reaches(strong: dict, weak: Callable[[int], list[int]]):
    """A filter of starts for the walk of _levels: reaches(start, removes, best) says whether
    some node the test `removes` accepts is on at an odd level from 3 links to best-1. The
    same levels, as sets of nodes (a level's states are all off or all on: the links
    alternate), without recording the way: cheaper, so the walk proper is only taken from
    the starts where it can find something."""

    known: dict[int, list[int]] = {}   # the weak links asked for so far: no call again
    strong_of = strong.get

    def reaches(start: int, removes: Callable[[int], bool], best: int) -> bool:
        # two levels a turn: off nodes out by strong links to on nodes, on nodes out by weak
        # links to off nodes (unrolled: this filter is the chain search's hottest loop)
        level: Iterable[int] = (start,)   # the off nodes at `links` links (even)
        seen_off: set[int] = {start}
        seen_on: set[int] = set()
        links = 0
        while True:
            if links + 1 >= best or links >= MAX_LINKS:   # _past, inline
                return False
            on: set[int] = set()
            for node in level:
                on.update(strong_of(node, ()))
            on -= seen_on
            if not on:
                return False
            seen_on |= on
            links += 1
            if links >= 3:
                for node in on:
                    if node != start and removes(node):
                        return True
            if links + 2 >= best or links >= MAX_LINKS:
                return False
            off: set[int] = set()
            for node in on:
                found = known.get(node)
                if found is None:
                    found = known[node] = weak(node)
                off.update(found)
            off -= seen_off
            if not off:
                return False
            seen_off |= off
            level = off
            links += 1

    return reaches


def _past(links: int, best: int) -> bool:
    """Whether the walk, at a level of so many links, can stop: the next level that can end a
    chain (odd: an on state) is as long as the shortest chain found so far."""
    return links + 1 + (links & 1) >= best


def _levels(start: int, strong: dict, weak, prev: dict[int, int], on: int = 0,
            keep: Callable[[int, int], bool] | None = None) -> Iterator[tuple]:
    """(links, states) of a breadth-first walk from a start's state start*2 + on (off unless
    `on`), a level at a time: states node*2 + on, alternately reached by strong links (on)
    and weak links (off), each where first reached (`prev` records from where) and where
    `keep` (given the state it comes from and the state) takes it; up to MAX_LINKS links."""
    level, links = [start * 2 + on], 0
    while level:
        yield links, level
        if links >= MAX_LINKS:
            return
        after = []
        for state in level:
            if state & 1:
                nexts = [nxt * 2 for nxt in weak(state >> 1)]
            else:
                nexts = [nxt * 2 + 1 for nxt in strong.get(state >> 1, ())]
            for nxt in nexts:
                if nxt not in prev and (keep is None or keep(state, nxt)):
                    prev[nxt] = state
                    after.append(nxt)
        level, links = after, links + 1


def _unwind_states(prev: dict[int, int], state: int) -> list[int]:
    """The nodes of the chain ending at a state node*2 + on."""
    out = []
    while state >= 0:
        out.append(state >> 1)
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
    chains = []
    for chain, gone in search(g, "c", accept=lambda ch: len(ch) >= 8 and _same_pair(g, ch),
                              only=only, every=True):
        chains.append(chain)
        yield _step(g, "Remote Pair", chain, gone)
    yield from _both_digits(g, chains)


def _both_digits(g: Candidates, chains: list[list[int]]) -> Iterator[Step]:
    """Each remote pair as HoDoKu gives it, after the chains above: both digits leave every
    cell that sees two of its cells an odd number of links apart (one of them holds each
    digit), in one step; only where that removes more than one chain did."""
    n, peers, done = g.n, g.tables.peer_masks, set()
    for chain in chains:
        cells = [node // n for node in chain[::2]]
        key = min(tuple(cells), tuple(reversed(cells)))
        if key in done:
            continue
        done.add(key)
        seeing = 0
        for i, a in enumerate(cells):
            for b in cells[i + 1::2]:
                seeing |= peers[a] & peers[b]
        seeing &= ~sum(1 << c for c in cells)
        pair = g.cands[cells[0]]
        gone = [(c, d) for c in cells_of(seeing) for d in digits(pair) if g.cands[c] >> (d - 1) & 1]
        if len({d for _, d in gone}) == 2:
            yield _step(g, "Remote Pair", chain, gone)


def xy_chain(g: Candidates) -> Iterator[Step]:
    """A chain of bivalue cells, each linked to the next by a shared digit."""
    for chain, gone in search(g, "c", every=True):
        yield _step(g, "XY-Chain", chain, gone)


def aic(g: Candidates) -> Iterator[Step]:
    """An alternating inference chain over every kind of link."""
    for chain, gone in search(g, "uc", every=True):
        yield _step(g, "AIC", chain, gone)


def _group_nodes(g: Candidates, groups: bool = True) -> list[tuple[int, int]]:
    """(cells as a bitmask, digit): every candidate as a node, and (with `groups`) every
    group: the 2 or more places of a digit where a box meets a row or a column."""
    tables, cands, n, where = g.tables, g.cands, g.n, g.where()
    nodes = [(1 << c, d) for c, m in enumerate(cands) if m for d in digits(m)]
    if not groups:
        return nodes
    boxes = [u for u, kind in enumerate(tables.kinds) if kind == "box"]
    lines = [u for u, kind in enumerate(tables.kinds) if kind in ("row", "col")]
    seen = set()
    for box in boxes:
        for line in lines:
            meet = tables.unit_masks[box] & tables.unit_masks[line]
            if not meet:
                continue   # no cell in both: no group
            for d in range(1, n + 1):
                cells = where[d - 1] & meet
                if cells.bit_count() >= 2 and (cells, d) not in seen:
                    seen.add((cells, d))
                    nodes.append((cells, d))
    return nodes


def _seen_by_all(g: Candidates, cells: int) -> int:
    """The cells that see every cell of a bitmask."""
    masks = g.tables.peer_masks
    if not cells & (cells - 1):   # one cell: its peers (most nodes)
        return masks[cells.bit_length() - 1]
    return seen_by_all(masks, cells)


def _grouped_graph(g: Candidates, groups: bool = True, alses: bool = False,
                   forcing: bool = True):
    """Nodes, the strong links over their indexes (a dict of sets), the weak links (a
    function giving a node's, sorted, when the search first reaches it) and the ALS nodes
    (a dict: node index to its set, see _als_nodes); without `groups`, the candidates
    alone; with `alses`, a node per digit of each almost locked set too (and, unless not
    `forcing`, the cells a set forces)."""
    tables, cands, where = g.tables, g.cands, g.where()
    nodes = _group_nodes(g, groups)
    index = {node: k for k, node in enumerate(nodes)}
    strong: dict[int, set[int]] = {}
    by_digit: dict[int, list[int]] = {}
    for k, (_, d) in enumerate(nodes):
        by_digit.setdefault(d, []).append(k)
    unit_masks, units_of = tables.unit_masks, tables.units_of
    for a, (cells, d) in enumerate(nodes):   # the units holding all of a node's cells
        for u in units_of[(cells & -cells).bit_length() - 1]:
            if cells & ~unit_masks[u]:
                continue  # not inside the unit
            places = where[d - 1] & unit_masks[u]
            rest = places & ~cells
            if places.bit_count() >= 2 and rest:
                b = index.get((rest, d))
                if b is not None and b != a:
                    strong.setdefault(a, set()).add(b)
    for c in tables.cells:
        if cands[c].bit_count() == 2:
            x, y = digits(cands[c])
            a, b = index[(1 << c, x)], index[(1 << c, y)]
            strong.setdefault(a, set()).add(b)
            strong.setdefault(b, set()).add(a)
    sets = _als_nodes(g, nodes, strong, index, forcing) if alses else {}
    linked = set(strong)   # the nodes a chain can go on from (as in _graph: only those)
    near = _near(nodes, linked, where) if sets else _of_digit(nodes, linked, by_digit)
    weak: dict[int, list[int]] = {}

    def weak_links(a: int) -> list[int]:
        """The nodes that cannot be true with node a."""
        out = weak.get(a)
        if out is None:
            cells, d = nodes[a]
            found: set[int] = set()  # the nodes a is weakly linked to
            if cells.bit_count() == 1 and a not in sets:  # the cell's other candidates
                c = cells.bit_length() - 1
                found.update(index[(cells, e)] for e in digits(cands[c]) if e != d)
            seen = _seen_by_all(g, cells)
            found.update(b for b, bcells in near(d, seen) if b != a and not bcells & ~seen)
            out = weak[a] = sorted(found & linked)
        return out

    return nodes, strong, weak_links, sets


def _of_digit(nodes: list, linked: set[int], by_digit: dict[int, list[int]]) -> Callable:
    """The linked nodes of a digit, (index, cells) each, that may lie in the cells that see
    all of a node's (the graph without sets): the digit's candidates found by cell among
    those cells, its groups all (few)."""
    single: dict[int, dict[int, int]] = {}   # per digit: cell to node
    groups: dict[int, list[tuple[int, int]]] = {}
    for d, ks in by_digit.items():
        single[d], groups[d] = {}, []
        for b in ks:
            cells = nodes[b][0]
            if b not in linked:
                continue
            if cells & (cells - 1):
                groups[d].append((b, cells))
            else:
                single[d][cells.bit_length() - 1] = b
    in_cells = {d: union(1 << c for c in of) for d, of in single.items()}

    def near(d: int, seen: int) -> list[tuple[int, int]]:
        """The digit's linked nodes that may lie in the cells `seen`."""
        of = single.get(d)
        if of is None:
            return []
        return [(of[c], 1 << c) for c in cells_of(seen & in_cells[d])] + groups[d]

    return near


def _near(nodes: list, linked: set[int], where: list[int]) -> Callable:
    """As _of_digit, for a graph with sets (many nodes a digit): the linked nodes whose
    first cell lies in the cells that see all of a node's, found by digit and first cell."""
    by_first: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for b in sorted(linked):
        cells, d = nodes[b]
        by_first.setdefault((d, (cells & -cells).bit_length() - 1), []).append((b, cells))
    return lambda d, seen: (x for c in cells_of(seen & where[d - 1])
                            for x in by_first.get((d, c), ()))


def _als_nodes(g: Candidates, nodes: list, strong: dict[int, set[int]], index: dict,
               forcing: bool = True) -> dict[int, tuple]:
    """Add to the nodes and strong links a node per digit of each almost locked set of two
    cells or more (als.py's sets; a bivalue cell's link is there already): the digit's
    cells in the set, a group true when one of them holds it. Take one digit away and the
    set is locked, so of any two of its digits one is in it: a strong link between each
    two. The weak links are a group's: to a node of the digit whose cells all see all of
    these. Only digits some candidate outside the set could be linked to that way: a node
    of the others could not be entered or left. And a cell of three candidates or more
    outside the set that would lose all but one e if the set lacked x (each other digit
    it holds is the set's, and it sees all of that digit's cells there): x is in the set
    or e in the cell, a strong link too. Returns each new node's set."""
    where, cands = g.where(), g.cands
    sets: dict[int, tuple] = {}
    for als in als_sets(g):
        cells, mask, per = als
        if cells & (cells - 1) == 0:
            continue
        usable = [d for d in digits(mask) if where[d - 1] & per[d - 1][1]]
        forced = _forced(cands, mask, per, where, usable, index) if forcing else []
        if len(usable) < 2 and not forced:
            continue
        first = len(nodes)
        for d in usable:
            sets[len(nodes)] = als
            nodes.append((per[d - 1][0], d))
        for a in range(first, len(nodes)):
            strong[a] = {b for b in range(first, len(nodes)) if b != a}
        for x, b in forced:
            a = first + usable.index(x)
            strong[a].add(b)
            strong.setdefault(b, set()).add(a)
    return sets


def _forced(cands: list[int], mask: int, per: list, where: list[int], usable: list[int],
            index: dict) -> list[tuple[int, int]]:
    """(x, candidate node) for each digit x of an almost locked set and candidate e of a
    cell outside it that the set, locked without x, leaves alone in the cell: the cell
    holds three candidates or more (with two, the chain goes through the other's node)."""
    lose: dict[int, int] = {}   # each cell seeing all of a digit's cells: the digits
    for d in digits(mask):
        for c in cells_of(per[d - 1][1] & where[d - 1]):
            lose[c] = lose.get(c, 0) | 1 << (d - 1)
    out = []
    for c, gone in lose.items():
        if cands[c].bit_count() < 3 or gone.bit_count() < cands[c].bit_count() - 2:
            continue
        for x in usable:
            left = cands[c] & ~(gone & ~(1 << (x - 1)))
            if left.bit_count() == 1:
                out.append((x, index[(1 << c, left.bit_length())]))
    return out


def _group_eliminations(g: Candidates, a, z) -> list[tuple[int, int]]:
    """What 'node a or node z' removes."""
    (ca, da), (cz, dz) = a, z
    if ca.bit_count() == 1 and cz.bit_count() == 1:
        n = g.n
        return _eliminations(g, (ca.bit_length() - 1) * n + da - 1,
                             (cz.bit_length() - 1) * n + dz - 1)
    if da != dz or ca & cz:
        return []
    gone = _seen_by_all(g, ca | cz) & g.where()[da - 1]
    return [(c, da) for c in cells_of(gone)]


def _group_removes(g: Candidates, nodes: list, seen: list[int],
                   a: int) -> Callable[[int], bool]:
    """A test of nodes z (indexes): whether _group_eliminations finds something for nodes a
    and z; `seen` has the cells that see every cell of each node."""
    ca, da = nodes[a]
    where = g.where()[da - 1] & seen[a]

    def removes(z: int) -> bool:
        cz, dz = nodes[z]
        return dz == da and not ca & cz and bool(where & seen[z])

    if ca & (ca - 1):
        return removes
    # a candidate: against another, _removes's test, written out (a call less: hot)
    cands, peers, c = g.cands, g.tables.peer_masks, ca.bit_length() - 1
    others = cands[c] & ~(1 << (da - 1))   # the start cell's other candidates
    targets = peers[c] & g.where()[da - 1]   # the start digit's places that see the start

    def single(z: int) -> bool:
        cz, dz = nodes[z]
        if cz & (cz - 1):
            return removes(z)   # a group: as from a group
        x = cz.bit_length() - 1
        if x == c:
            return bool(others & ~(1 << (dz - 1)))
        if dz == da:
            return bool(targets & peers[x])
        return bool(peers[c] >> x & 1 and (others >> (dz - 1) | cands[x] >> (da - 1)) & 1)

    return single


def grouped_aic(g: Candidates, every: bool = True, alses: bool = False) -> Iterator[Step]:
    """An AIC whose nodes may be groups: a digit's places where a box meets a line; with
    `every`, after the shortest chains, every other that removes something new; with
    `alses`, through almost locked sets too (entered and left, never an end)."""
    nodes, strong, weak, sets = _grouped_graph(g, alses=alses)
    found = []
    best = MAX_LINKS + 1   # as in `search`: a start's search stops at the shortest so far
    strong_links = {a: sorted(bs) for a, bs in strong.items()}
    seen = [_seen_by_all(g, cells) for cells, _ in nodes]
    reaches = _reaches(strong_links, weak)
    starts = sorted(a for a in strong if a not in sets)

    def eliminations(start: int) -> Callable[[int], list]:
        """What 'the start node or node z' removes, for each end z."""
        a = nodes[start]
        return lambda z: _group_eliminations(g, a, nodes[z])

    def removes(start: int) -> Callable[[int], bool]:
        """_group_removes, for ends that are no ALS node."""
        test = _group_removes(g, nodes, seen, start)
        return (lambda z: z not in sets and test(z)) if sets else test

    def grouped(chain: list[int]) -> bool:
        """Whether a chain goes through a group or a set."""
        return any(nodes[k][0].bit_count() > 1 or k in sets for k in chain)

    for start in starts:
        ends = removes(start)
        if not reaches(start, ends, best):
            continue
        hit = _shortest(start, strong_links, weak, best, ends, eliminations(start), grouped)
        if hit:
            found.append(hit)
            best = hit[0]
    n = g.n
    yielded: set[frozenset] = set()
    chains = [(chain, gone) for _, chain, gone in sorted(found, key=lambda f: f[0])]
    others = _every(starts, strong_links, weak, removes, eliminations, grouped, yielded)
    for chain, gone in itertools.chain(chains, others if every and chains else ()):
        yielded.add(frozenset(gone))
        yield make("Grouped AIC", n, _chain_text(nodes, sets, chain, 0, n), eliminations=gone,
                   cells=cells_of(union(sets[x][0] if x in sets else nodes[x][0]
                                         for x in chain)),
                   length=len(chain) - 1,
                   sentence="If the chain's first node were false its last would be true "
                   "(a group is true when one of its cells holds the digit): one of the two "
                   "is, so what sees both is removed." + (_ALS_SENTENCE if any(
                       x in sets for x in chain) else ""))


_ALS_SENTENCE = (" An almost locked set (k cells, k+1 digits) that loses one digit is "
                 "locked: it then holds each of its other digits.")


def grouped_aic_als(g: Candidates) -> Iterator[Step]:
    """Grouped AIC as named (--techniques): through almost locked sets too, as HoDoKu's
    chains take them when asked; the default paths keep the groups alone."""
    yield from grouped_aic(g, alses=True)


def _chain_text(nodes: list, sets: dict, chain: list[int], on: int, n: int) -> str:
    """The chain in Eureka notation from a first node true if `on` (false otherwise): a link
    is strong (=) where it makes its node true; a set entered on x and left on y is one
    node (x=y) of the set's cells; one linked to a cell it forces is (x)ALS:cells."""
    parts, k = [], 0
    while k < len(chain):
        x = chain[k]
        link = "" if k == 0 else "=" if on ^ (k & 1) else "-"
        if x in sets and k + 1 < len(chain) and sets.get(chain[k + 1]) is sets[x]:
            parts.append(f"{link}({nodes[x][1]}={nodes[chain[k + 1]][1]})"
                         f"{_cells(sets[x][0], n)}")
            k += 2
            continue
        where = f"ALS:{_cells(sets[x][0], n)}" if x in sets else _cells(nodes[x][0], n)
        parts.append(f"{link}({nodes[x][1]}){where}")   # a set forcing a cell, or forced
        k += 1
    return "".join(parts)


def _cells(cells: int, n: int) -> str:
    """A node's cells in HoDoKu's compact form."""
    return cells_text(cells_of(cells), n)


# --- nice loops: chains from a cell back into it ---------------------------------------------

def _loop_graph(g: Candidates, groups: bool, alses: bool = False, forcing: bool = True) -> tuple:
    """(nodes, strong links as sorted lists, weak links, node indexes, the cells that see
    every cell of each node, the ALS nodes' sets) for the nice loops: with `alses`, almost
    locked sets too (and the cells they force, unless not `forcing`), which no index holds
    (a premise is a candidate)."""
    nodes, strong, weak, sets = _grouped_graph(g, groups, alses, forcing)
    strong_links = {a: sorted(bs) for a, bs in strong.items()}
    index = {node: k for k, node in enumerate(nodes) if k not in sets}
    seen = [_seen_by_all(g, cells) for cells, _ in nodes]
    return nodes, strong_links, weak, index, seen, sets


def _closing(graph: tuple, home: int) -> Callable[[int], list[int]]:
    """The weak links of a loop from the home cell: a node's own, and the one back into the
    home cell: the way a loop ends needs no strong link from its last node, as a chain's
    other weak links do."""
    nodes, strong, weak, index, seen, _ = graph
    cell = home.bit_length() - 1

    def closing(x: int) -> list[int]:
        cx, dx = nodes[x]
        back = index.get((home, dx))
        if back is None or back in strong or cx & home or not seen[x] >> cell & 1:
            return weak(x)
        return [*weak(x), back]

    return closing


def _loops(g: Candidates, groups: bool, alses: bool = False,
           forcing: bool = True) -> Iterator[tuple[int, bool, list, dict, list[int], list, int]]:
    """(links, continuous, nodes, ALS nodes, chain, eliminations, premise true or false) of
    each nice loop as HoDoKu takes it: from a premise on a candidate (true: its first link
    is weak; false: strong) out of its cell and, by the shortest way to each state that
    enters no cell it has left (the home cell aside), back into the cell 3 links or more
    later; with `groups`, over group nodes too, and with `alses` almost locked sets (and
    the cells they force, unless not `forcing`)."""
    graph = _loop_graph(g, groups, alses, forcing)
    nodes, strong_links, _, index, seen, sets = graph
    for start, (home, _) in enumerate(nodes):
        if home & (home - 1) or start in sets:
            continue   # a premise is one candidate
        ends = {index[(home, e)] for e in digits(g.cands[home.bit_length() - 1])}
        closing = _closing(graph, home)
        for on in (0, 1):
            prev = {start * 2 + on: -1}
            left = {start * 2 + on: 0}   # the cells left before each state's node

            def keep(state: int, nxt: int, home: int = home, left: dict = left) -> bool:
                """Whether the walk's way to a state enters no cell it has left (a
                lasso, which HoDoKu drops; the home cell aside): so the first way to a
                state that is no lasso is the one recorded."""
                if nodes[nxt >> 1][0] & left[state]:
                    return False
                left[nxt] = left[state] | nodes[state >> 1][0] & ~home
                return True

            for links, level in _levels(start, strong_links, closing, prev, on, keep):
                if links < 3:
                    continue
                for state in level:
                    if state >> 1 in ends:
                        chain = _unwind_states(prev, state)
                        if _no_lasso(nodes, chain, home):
                            loop = _loop_eliminations(g, nodes, seen, chain, on, state & 1,
                                                      sets)
                            if loop[1]:
                                yield links, loop[0], nodes, sets, chain, loop[1], on


LOOP_WALK = 200_000   # the steps of the walk for every loop (one listing of every step)


def _every_loop(g: Candidates, groups: bool) -> Iterator[tuple[int, bool, list, dict,
                                                               list[int], list, int]]:
    """As _loops, but by every way that enters no cell it has left, not only the first to
    each state: a continuous loop's eliminations hang on its way (HoDoKu's may be another
    than the shortest). Depth first, up to MAX_LINKS links and LOOP_WALK steps in all."""
    graph = _loop_graph(g, groups)
    nodes, strong_links, _, index, seen, sets = graph
    budget = LOOP_WALK
    for start, (home, _) in enumerate(nodes):
        if home & (home - 1):
            continue
        ends = {index[(home, e)] for e in digits(g.cands[home.bit_length() - 1])}
        closing = _closing(graph, home)
        for on in (0, 1):
            chain, stack = [start], [iter(closing(start) if on else strong_links.get(start, ()))]
            lefts = [0]
            while stack and budget > 0:
                nxt = next(stack[-1], None)
                if nxt is None:
                    stack.pop(), chain.pop(), lefts.pop()
                    continue
                budget -= 1
                cells, links = nodes[nxt][0], len(chain)
                if cells & lefts[-1] or nxt in chain or (links == 1 and cells & home):
                    continue
                if nxt in ends:
                    if links >= 3 and not nodes[chain[-1]][0] & home:
                        loop = _loop_eliminations(g, nodes, seen, [*chain, nxt], on,
                                                  on ^ (links & 1))
                        if loop[1]:
                            yield links, loop[0], nodes, sets, [*chain, nxt], loop[1], on
                    continue
                if links < MAX_LINKS:
                    lefts.append(lefts[-1] | nodes[chain[-1]][0] & ~home)
                    chain.append(nxt)
                    stack.append(iter(closing(nxt) if on ^ (links & 1) else
                                      strong_links.get(nxt, ())))


def _no_lasso(nodes: list, chain: list[int], home: int) -> bool:
    """Whether the chain leaves the home cell at once, enters it from another cell at its
    end, and enters no other cell it has left (a lasso, which HoDoKu drops)."""
    if nodes[chain[1]][0] & home or nodes[chain[-2]][0] & home:
        return False
    left, last = 0, 0
    for k in chain:
        cells = nodes[k][0]
        if cells & left:
            return False
        left |= last & ~home   # a group may hold the home cell (another digit's), as in HoDoKu
        last = cells
    return True


def _loop_eliminations(g: Candidates, nodes: list, seen: list[int], chain: list[int],
                       first_on: int, last_on: int,
                       sets: dict[int, tuple] | None = None
                       ) -> tuple[bool, list[tuple[int, int]]]:
    """(continuous, eliminations) of a loop from a premise (true if `first_on`) back to a
    state of its cell (true if `last_on`): discontinuous, the home cell's candidate that
    the premise contradicts or all but the one it proves; continuous, what each weak link
    (now strong) removes: a digit from the cells that see both ends (not the loop's own
    cells), or a cell's other digits when it is entered and left by strong links, or an
    almost locked set's digits but the two it is entered and left by (`sets`: the ALS
    nodes' sets): it lacks one of those two, so holds every other."""
    cands = g.cands
    home, a = nodes[chain[0]]
    b = nodes[chain[-1]][1]
    cell = home.bit_length() - 1
    first_strong, last_strong = not first_on, bool(last_on)
    if a == b and first_strong == last_strong:   # a contradicts a, or a is proved
        if not first_strong:
            return False, [(cell, a)]
        return False, [(cell, d) for d in digits(cands[cell]) if d != a]
    if a != b and first_strong != last_strong:   # the weak end's digit is false
        return False, [(cell, a if not first_strong else b)]
    if a != b and not first_strong and cands[cell].bit_count() != 2:
        return False, []   # two weak links need a bivalue cell to close the loop
    used = union(nodes[k][0] for k in chain)
    gone: set[tuple[int, int]] = set()
    if first_strong and last_strong:
        gone.update((cell, d) for d in digits(cands[cell]) if d not in (a, b))
    where = g.where()
    state = [first_on ^ (k & 1) for k in range(len(chain))]   # each node true or false
    for k in range(1, len(chain)):
        cells, d = nodes[chain[k]]
        crosses = cells != nodes[chain[k - 1]][0]
        if not state[k] and crosses:   # a weak link between cells
            gone.update((c, d) for c in cells_of(seen[chain[k - 1]] & seen[chain[k]]
                                                  & where[d - 1] & ~used))
        if (state[k] and crosses and k + 2 < len(chain) and not state[k + 1]
                and nodes[chain[k + 1]][0] == cells and nodes[chain[k + 2]][0] != cells):
            keep = (d, nodes[chain[k + 1]][1])   # a cell entered and left by strong links
            c = cells.bit_length() - 1
            gone.update((c, e) for e in digits(cands[c]) if e not in keep)
        if sets and state[k]:   # a strong link: within a set, or a set forcing a cell
            gone.update(_als_locked(g, nodes, sets, chain[k - 1], chain[k]))
    return True, sorted(gone)


def _als_locked(g: Candidates, nodes: list, sets: dict, a: int,
                b: int) -> list[tuple[int, int]]:
    """What a continuous loop's strong link from node a to b removes when it is in an
    almost locked set (entered on one digit x, left on another y; the set lacks x or y,
    so holds each other digit, which leaves the cells that see all its cells there) or
    links a set's node x with a cell it forces to e (either the set lacks x and holds
    the cell's other digits, or it holds x, the cell one of those others, so the set lacks
    that one and holds the rest: each digit but x and those is in the set, and each of
    those is in the set or the cell)."""
    where, cands = g.where(), g.cands
    als = sets.get(a, sets.get(b))
    if als is None:
        return []
    inside, mask, per = als
    if sets.get(a) is sets.get(b):
        keep, cell = 1 << (nodes[a][1] - 1) | 1 << (nodes[b][1] - 1), -1
    else:
        x, (cells, e) = (a, nodes[b]) if a in sets else (b, nodes[a])
        cell = cells.bit_length() - 1
        keep = 1 << (nodes[x][1] - 1) | (cands[cell] & ~(1 << (e - 1)))
    gone = [(c, d) for d in digits(mask & ~keep)
            for c in cells_of(per[d - 1][1] & where[d - 1] & ~inside)]
    if cell >= 0:
        seen = g.tables.peer_masks[cell]
        gone += [(c, d) for d in digits(keep & mask & ~(1 << (nodes[x][1] - 1)))
                 for c in cells_of(per[d - 1][1] & seen & where[d - 1] & ~inside)]
    return gone


def _nice_loops(g: Candidates, groups: bool, continuous: bool) -> Iterator[Step]:
    """The nice loops of one kind, each set of eliminations once, shorter loops first; with
    `groups`, only those through a group node."""
    n = g.n
    # with groups, the loops without sets, then with sets, then with the cells they force
    # too: a shorter way to a state through them would hide another loop (HoDoKu finds
    # the loops of each kind, asked for each, and prefers the ways without a set)
    walks = itertools.chain(_loops(g, groups), *((_loops(g, True, True, False),
                                                  _loops(g, True, True)) if groups else ()))
    name = ("Grouped " if groups else "") + ("Continuous" if continuous else
                                             "Discontinuous") + " Nice Loop"
    yielded: set[frozenset] = set()
    for links, _, nodes, sets, chain, gone, on in itertools.chain(
            _of_kind(walks, groups, continuous), _every_way(g, groups, continuous)):
        if frozenset(gone) in yielded:
            continue
        yielded.add(frozenset(gone))
        yield make(name, n, _chain_text(nodes, sets, chain, on, n), eliminations=gone,
                   cells=cells_of(union(sets[k][0] if k in sets else nodes[k][0]
                                         for k in chain)), length=links,
                   sentence=_LOOP_SENTENCE[continuous] + (_ALS_SENTENCE if any(
                       k in sets for k in chain) else ""))


def _every_way(g: Candidates, groups: bool, continuous: bool) -> Iterator[tuple]:
    """The loops of one kind by every way (_every_loop), shorter first: walked only when a
    caller lists past the shortest ways' loops (`hint --all`), so solving never pays."""
    yield from _of_kind(_every_loop(g, groups), groups, continuous)


def _of_kind(loops: Iterable[tuple], groups: bool, continuous: bool) -> list[tuple]:
    """The loops of one kind (continuous or not), shorter first, then as found, each with
    its place in the walk; with `groups`, only those through a group node or a set."""
    found = [(links, order, nodes, sets, chain, gone, on)
             for order, (links, kind, nodes, sets, chain, gone, on) in enumerate(loops)
             if kind == continuous and (not groups or any(nodes[k][0] & (nodes[k][0] - 1)
                                                          or k in sets for k in chain))]
    return sorted(found, key=lambda f: (f[0], f[1]))


_LOOP_SENTENCE = {
    False: "The chain leaves a cell and comes back into it: what its premise would make "
           "there contradicts it (or it proves the premise), so that candidate goes.",
    True: "The chain closes on itself with strong and weak links alternating: either all its "
          "odd nodes are true or all its even ones, so each weak link is strong too, and "
          "what sees both its ends (or a cell's other digits) goes.",
}


def continuous_nice_loop(g: Candidates) -> Iterator[Step]:
    """A loop of alternating strong and weak links: each weak link becomes strong."""
    yield from _nice_loops(g, False, True)


def discontinuous_nice_loop(g: Candidates) -> Iterator[Step]:
    """A chain from a candidate back into its cell: what it proves or contradicts there."""
    yield from _nice_loops(g, False, False)


def grouped_continuous_nice_loop(g: Candidates) -> Iterator[Step]:
    """A continuous nice loop through a group node."""
    yield from _nice_loops(g, True, True)


def grouped_discontinuous_nice_loop(g: Candidates) -> Iterator[Step]:
    """A discontinuous nice loop through a group node."""
    yield from _nice_loops(g, True, False)
