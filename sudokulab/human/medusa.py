"""X-Colors and 3D Medusa: simple colors grown past a digit's strong links.

X-Colors (SudokuWiki's name) colors a cluster of one digit's strong links as simple colors
do, then grows each color one way: when a color holds the digit, a unit whose every other
place for it sees that color holds it in the one place left, so that place joins the color
(only as "true if the color is"). A cell that sees both grown colors loses the digit; a
grown color that empties a unit or puts the digit twice in one cannot hold, so the digit
leaves the cells of its cluster color.

3D Medusa colors candidates of every digit: two places of a digit in a unit and the two
digits of a bivalue cell are strong links, each joining two candidates of opposite colors,
and exactly one color is true. A color is false when two of its candidates share a cell or
a digit in one unit, or when it removes every candidate of an uncolored cell; then all its
candidates go. Otherwise an uncolored candidate that each color removes (by a colored
candidate in its cell, or of its digit in a peer) goes.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, cells_of, digits, per_digit
from sudokulab.human.coloring import _mask, _seen, clusters  # the colours' own helpers
from sudokulab.human.step import Step, cells_text, make, name

Node = tuple[int, int]  # (cell, digit): one candidate


def grow(g: Candidates, d: int, color: int) -> tuple[int, str]:
    """The cells that hold d if the color's cells do, and why the color cannot ('' when
    nothing breaks): a unit whose other places all see the color holds d in the last one."""
    peers, units = g.tables.peer_masks, g.tables.unit_masks
    where, true = g.where()[d - 1], color
    while True:
        seen = _seen(peers, true)
        if seen & true:
            return true, f"two of its cells would hold {d} and see each other"
        added = 0
        for u, unit in enumerate(units):
            places = where & unit
            if not places or places & true:
                continue
            left = places & ~seen
            if not left:
                return true, f"{g.tables.unit_names[u]} would have no place left for {d}"
            if left.bit_count() == 1:
                added |= left
        if not added:
            return true, ""
        true |= added


def _x_colors(g: Candidates, d: int) -> Iterator[Step]:
    """A cluster of d's strong links whose grown colors trap a cell or break a unit."""
    peers, where, n = g.tables.peer_masks, g.where()[d - 1], g.n
    for on, off in clusters(g, d):
        colors = (_mask(on), _mask(off))
        grown = [grow(g, d, color) for color in colors]
        what = f"{d} ({cells_text(on, n)}) / ({cells_text(off, n)})"
        cells = sorted(on + off)
        for k in (0, 1):
            true, why = grown[k]
            wrap = true == colors[k] and _seen(peers, true) & true  # Simple Colors Wrap's
            if why and not wrap:
                yield make("X-Colors", n, what, eliminations=[(c, d) for c in cells_of(colors[k])],
                           cells=sorted(set(cells) | set(cells_of(true))),
                           sentence=f"The strong links of {d} split into two colors and one "
                           f"color holds {d}. If the color of {cells_text(cells_of(colors[k]), n)}"
                           f" did, {why}, so it cannot: the other color holds {d}.",
                           length=len(cells))
        if any(why for _, why in grown):
            continue
        both = grown[0][0] | grown[1][0]
        trap = where & ~both & _seen(peers, grown[0][0]) & _seen(peers, grown[1][0])
        simple = where & ~(colors[0] | colors[1]) & _seen(peers, colors[0]) \
            & _seen(peers, colors[1])
        if trap & ~simple:  # else Simple Colors Trap says it all
            yield make("X-Colors", n, what, eliminations=[(c, d) for c in cells_of(trap)],
                       cells=sorted(cells_of(both)), sentence=f"The strong links of {d} split "
                       f"into two colors and one color holds {d}; a unit whose every other "
                       f"place sees a color holds {d} in its last place if that color does, so "
                       f"the colors grow, and a cell that sees both grown colors cannot hold "
                       f"{d}.", length=len(cells))


x_colors = per_digit(_x_colors)


def _graph(g: Candidates) -> dict[Node, list[Node]]:
    """Every candidate's strong links: the other place of its digit in a unit where it has
    two, and the other digit of a bivalue cell."""
    cands = g.cands
    graph: dict[Node, list[Node]] = {}
    where = g.where()
    for d in range(1, g.n + 1):
        for unit in g.tables.unit_masks:
            places = where[d - 1] & unit
            if places.bit_count() == 2:
                a, b = cells_of(places)
                graph.setdefault((a, d), []).append((b, d))
                graph.setdefault((b, d), []).append((a, d))
    for c, m in enumerate(cands):
        if m.bit_count() == 2:
            x, y = digits(m)
            graph.setdefault((c, x), []).append((c, y))
            graph.setdefault((c, y), []).append((c, x))
    return graph


def medusa_clusters(g: Candidates) -> list[tuple[list[Node], list[Node]]]:
    """The two color classes of each cluster of strong links that spans two digits or
    more (one digit alone is simple colors)."""
    graph = _graph(g)
    color: dict[Node, int] = {}
    out = []
    for start in sorted(graph):
        if start in color:
            continue
        color[start] = 0
        classes: tuple[list[Node], list[Node]] = ([start], [])
        todo = [start]
        while todo:
            node = todo.pop()
            for other in graph[node]:
                if other not in color:
                    color[other] = 1 - color[node]
                    classes[color[other]].append(other)
                    todo.append(other)
        if len({d for _, d in classes[0] + classes[1]}) > 1:
            out.append((sorted(classes[0]), sorted(classes[1])))
    return out


def _false(g: Candidates, nodes: list[Node], colored: int) -> str:
    """Why a color cannot be true ('' when nothing says so)."""
    n, peers = g.n, g.tables.peer_masks
    cells: dict[int, int] = {}
    by_digit: dict[int, int] = {}
    for c, x in nodes:
        if c in cells:
            return f"{name(c, n)} would hold both {cells[c]} and {x}"
        cells[c] = x
        by_digit[x] = by_digit.get(x, 0) | 1 << c
    seen = {x: _seen(peers, mask) for x, mask in by_digit.items()}
    for x, mask in by_digit.items():
        if seen[x] & mask:
            a = cells_of(seen[x] & mask)[0]
            b = cells_of(peers[a] & mask)[0]
            return f"{name(a, n)} and {name(b, n)} would both hold {x} and see each other"
    where, alive = g.where(), 0
    for x in range(1, n + 1):  # the cells where some candidate is left if the color is true
        alive |= where[x - 1] & ~seen.get(x, 0)
    blanks = 0
    for x in range(n):
        blanks |= where[x]
    emptied = blanks & ~colored & ~alive
    if emptied:
        return f"{name(cells_of(emptied)[0], n)} would have no candidate left"
    return ""


def _kills(g: Candidates, nodes: list[Node]) -> set[Node]:
    """The uncolored candidates a color removes if true: the others of its cells and those
    of its digits in peers."""
    peers = g.tables.peer_masks
    cells = {c for c, _ in nodes}
    by_digit: dict[int, int] = {}
    for c, x in nodes:
        by_digit[x] = by_digit.get(x, 0) | peers[c]
    out = {(c, x) for c in cells for x in digits(g.cands[c])}
    where = g.where()
    for x, seen in by_digit.items():
        out.update((c, x) for c in cells_of(seen & where[x - 1]))
    return out - set(nodes)


def medusa(g: Candidates) -> Iterator[Step]:
    """3D Medusa: a false color loses all its candidates; else uncolored candidates that
    both colors remove go."""
    n = g.n
    for first, second in medusa_clusters(g):
        cells = sorted({c for c, _ in first + second})
        colored = _mask(cells)
        what = f"({_nodes(first, n)}) / ({_nodes(second, n)})"
        size = len(first) + len(second)
        broken = False
        for k, color in enumerate((first, second)):
            why = _false(g, color, colored)
            if why:
                broken = True
                yield make("3D Medusa", n, what, eliminations=color, cells=cells,
                           sentence=f"Strong links of places and of bivalue cells color the "
                           f"candidates in two colors, one of which is true. If the "
                           f"{'first' if k == 0 else 'second'} color were, {why}, so all of "
                           f"its candidates go.", length=size)
                break
        if broken:
            continue
        gone = (_kills(g, first) & _kills(g, second)) - set(first) - set(second)
        if gone:
            yield make("3D Medusa", n, what, eliminations=gone, cells=cells,
                       sentence="Strong links of places and of bivalue cells color the "
                       "candidates in two colors, one of which is true; a candidate that "
                       "either color would remove (a colored candidate in its cell, or of "
                       "its digit in a peer) cannot be.", length=size)


def _nodes(nodes: list[Node], n: int) -> str:
    """'3r1c2,5r4c4': each candidate as digit and cell."""
    return ",".join(f"{d}{name(c, n)}" for c, d in nodes)
