"""Simple colors: the strong links of one digit, colored in two alternating colors.

In a cluster of strong links exactly one color holds the digit. Color wrap: two cells of
one color see each other, so that color is false. Color trap: a cell that sees both colors
loses the digit. Multi Colors (HoDoKu's names) take two clusters of one digit: a color that
sees both colors of the other cluster is false (type 2); a color of each that see each other
cannot both hold the digit, so one of their opposite colors does (type 1).
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokulab.human.candidates import Candidates, cells_of, per_digit
from sudokulab.human.patterns import strong_links
from sudokulab.human.step import Step, cells_text, make


def clusters(g: Candidates, d: int, smallest: int = 3) -> list[tuple[list[int], list[int]]]:
    """The two color classes of each connected cluster of d's strong links (of `smallest`
    cells or more)."""
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
        if len(classes[0]) + len(classes[1]) >= smallest:
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


def _multi_colors(g: Candidates, d: int) -> Iterator[Step]:
    """Two clusters of one digit: Multi Colors 2 when a color sees both colors of the other
    cluster (that color is false), Multi Colors 1 when a color of each sees the other
    (one of their opposite colors holds d, so a cell that sees both loses it)."""
    peers, where = g.tables.peer_masks, g.where()[d - 1]
    found = clusters(g, d, 2)
    masks = [(_mask(on), _mask(off)) for on, off in found]
    seen = [(_seen(peers, on), _seen(peers, off)) for on, off in masks]
    for i, j in ((i, j) for i in range(len(found)) for j in range(len(found)) if i != j):
        both = masks[i][0] | masks[i][1] | masks[j][0] | masks[j][1]
        for k in (0, 1):  # type 2: color k of cluster i sees both colors of cluster j
            color = masks[i][k]
            if color & seen[j][0] and color & seen[j][1]:
                yield _multi_step(g, d, "Multi Colors 2", found[i], found[j], [
                    (c, d) for c in cells_of(color)], f"One color of the first cluster sees "
                    f"both colors of the second, one of which holds {d}, so that color cannot.")
        if i > j:
            continue
        why = (f"A color of each cluster sees the other, so they cannot both hold {d}: one "
               f"of their opposite colors does, and a cell that sees both of those cannot.")
        given: set[int] = set()
        union = 0
        for k in (0, 1):  # type 1: color k of i sees color m of j: 1-k or 1-m holds d
            for m in (0, 1):
                if not masks[i][k] & seen[j][m]:
                    continue
                trap = where & seen[i][1 - k] & seen[j][1 - m]
                union |= trap & ~(masks[i][1 - k] | masks[j][1 - m])
                gone = trap & ~both
                if gone and gone not in given:
                    given.add(gone)
                    yield _multi_step(g, d, "Multi Colors 1", found[i], found[j], [
                        (c, d) for c in cells_of(gone)], why)
        # HoDoKu's one step per cluster pair: every pairing's trap, the other two colors'
        # cells included (such a cell's color sees both colors of the other cluster, Multi
        # Colors 2); after the single pairings, and only beside one, so first steps stay.
        if given and union not in given:
            yield _multi_step(g, d, "Multi Colors 1", found[i], found[j], [
                (c, d) for c in cells_of(union)], why)


def _mask(cells: list[int]) -> int:
    """Cells as a bitmask."""
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def _seen(peers: tuple[int, ...], cells: int) -> int:
    """The cells that see at least one of the cells of a mask."""
    out = 0
    for c in cells_of(cells):
        out |= peers[c]
    return out


def _multi_step(g: Candidates, d: int, technique: str, first, second, gone, why: str) -> Step:
    """The Step of a Multi Colors elimination."""
    n = g.n
    cells = sorted(set(first[0] + first[1] + second[0] + second[1]))
    what = (f"{_what(d, first[0], first[1], n)}, ({cells_text(second[0], n)}) / "
            f"({cells_text(second[1], n)})")
    return make(technique, n, what, eliminations=gone, cells=cells,
                sentence=f"The strong links of {d} form two clusters, each split into two "
                f"colors of which one holds {d}. {why}", length=len(cells))


multi_colors = per_digit(_multi_colors)


def multi_colors_1(g: Candidates) -> Iterator[Step]:
    """Two clusters, a color of each seeing the other: their opposite colors trap a cell."""
    return (step for step in multi_colors(g) if step.technique == "Multi Colors 1")


def multi_colors_2(g: Candidates) -> Iterator[Step]:
    """A color that sees both colors of another cluster is false."""
    return (step for step in multi_colors(g) if step.technique == "Multi Colors 2")
