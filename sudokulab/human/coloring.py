"""Simple colors: the strong links of one digit, colored in two alternating colors.

In a cluster of strong links exactly one color holds the digit. Color wrap: two cells of
one color see each other, so that color is false. Color trap: a cell that sees both colors
loses the digit.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, per_digit
from sudokulab.human.patterns import strong_links
from sudokulab.human.step import Step, cells_text, make


def clusters(g: Candidates, d: int) -> list[tuple[list[int], list[int]]]:
    """The two color classes of each connected cluster of d's strong links."""
    graph: dict[int, set[int]] = {}
    for a, b, _ in strong_links(g, d):
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    color: dict[int, int] = {}
    out = []
    for start in sorted(graph):
        if start in color:
            continue
        color[start] = 0
        classes: tuple[list[int], list[int]] = ([start], [])
        todo = [start]
        while todo:
            cell = todo.pop()
            for other in sorted(graph[cell]):
                if other not in color:
                    color[other] = 1 - color[cell]
                    classes[color[other]].append(other)
                    todo.append(other)
        if len(classes[0]) + len(classes[1]) >= 3:
            out.append(classes)
    return out


def _what(d: int, on: list[int], off: list[int], n: int) -> str:
    """'4 (r1c2,r3c4) / (r5c6)'."""
    return f"{d} ({cells_text(on, n)}) / ({cells_text(off, n)})"


def _color_trap(g: Candidates, d: int) -> Iterator[Step]:
    """A cell outside the cluster that sees both colors."""
    tables, cands, n = g.tables, g.cands, g.n
    b = 1 << (d - 1)
    for on, off in clusters(g, d):
        inside = set(on) | set(off)
        gone = [(c, d) for c in tables.cells if cands[c] & b and c not in inside
                and tables.peers[c] & set(on) and tables.peers[c] & set(off)]
        if gone:
            yield make("Simple Colors Trap", n, _what(d, on, off, n), eliminations=gone,
                       cells=sorted(inside), sentence=f"The strong links of {d} split "
                       f"into two colors and one color holds {d}; a cell that sees both "
                       f"colors cannot.", length=len(inside))


color_trap = per_digit(_color_trap)


def _color_wrap(g: Candidates, d: int) -> Iterator[Step]:
    """Two cells of one color see each other: that whole color is false."""
    tables, n = g.tables, g.n
    for on, off in clusters(g, d):
        for bad in (on, off):
            if any(tables.peers[a] & set(bad) for a in bad):
                yield make("Simple Colors Wrap", n, _what(d, on, off, n),
                           eliminations=[(c, d) for c in bad], cells=on + off,
                           sentence=f"Two cells of one color see each other, so that "
                           f"color cannot hold {d}; the other color does.",
                           length=len(on) + len(off))
                break


color_wrap = per_digit(_color_wrap)
