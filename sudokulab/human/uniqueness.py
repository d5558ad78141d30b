"""Uniqueness: Unique Rectangles (HoDoKu's Uniqueness Tests 1-6 and Hidden Rectangle),
Avoidable Rectangles 1 and 2 and BUG+1, for puzzles known to have one solution.

Four cells in two rows, two columns and two boxes that could all hold only {a, b} would
admit two solutions (swap a and b): a deadly pattern. In a puzzle with one solution some
cell of the rectangle must hold another digit, which is what each type exploits. An
avoidable rectangle is the same pattern in cells already solved (not givens): their digits
could be swapped too. Used only
on classic puzzles (an extra unit or chess rule could break the swap) and only when the
puzzle is declared or proven unique.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from sudokulab.human.candidates import Candidates, digits, union
from sudokulab.human.step import Step, cells_text, make, name


def rectangles(g: Candidates) -> list[tuple[list[int], int]]:
    """(the four cells, the pair mask) of each rectangle of blank cells over two boxes with
    a corner holding just the pair, where each corner holds a pair digit and could hold
    both: a pair digit missing from a corner's candidates (removed by a step, or by the
    player) still counts, unless it is placed in one of the corner's units."""
    n = g.n
    return g.cached("rectangles", lambda: sorted(
        _rectangles(g), key=lambda r: (r[0][0] // n, r[0][2] // n, r[0][0] % n, r[0][1] % n,
                                       digits(r[1]))))


def _rectangles(g: Candidates) -> Iterator[tuple[list[int], int]]:
    """The rectangles, each once: from each bivalue cell, a mate in its row and a row
    below or above (in any order: `rectangles` sorts them)."""
    tables, cands, n, where = g.tables, g.cands, g.n, g.where()
    allowed = _allowed(g)
    seen: set[tuple[tuple[int, ...], int]] = set()
    starts: dict[int, list[int]] = {}
    for cell in tables.cells:
        if cands[cell].bit_count() == 2:
            starts.setdefault(cands[cell], []).append(cell)
    for pair, cells_of_pair in starts.items():
        a, b = digits(pair)   # the cells (a bitmask) holding a pair digit, allowed both
        fit = (where[a - 1] | where[b - 1]) & allowed[a - 1] & allowed[b - 1]
        for cell in cells_of_pair:
            r1, c1 = divmod(cell, n)
            columns = [c for c in range(n) if c != c1 and fit >> (r1 * n + c) & 1]
            rows = [r for r in range(n) if r != r1 and fit >> (r * n + c1) & 1]
            for c2 in columns:
                for r2 in rows:
                    cells = sorted((cell, r1 * n + c2, r2 * n + c1, r2 * n + c2))
                    key = (tuple(cells), pair)
                    if fit >> (r2 * n + c2) & 1 and key not in seen and \
                            len({tables.box_of[c] for c in cells}) == 2:
                        seen.add(key)
                        yield cells, pair


def _allowed(g: Candidates) -> list[int]:
    """Per digit (index d-1), the blank cells none of whose units has it placed, as a
    bitmask (`unplaced`, by digit: a rectangle's cells are then found with a few ANDs)."""
    tables, values = g.tables, g.values
    blocked = [0] * g.n
    blank = 0
    for c, v in enumerate(values):
        if v:
            for u in tables.units_of[c]:
                blocked[v - 1] |= tables.unit_masks[u]
        else:
            blank |= 1 << c
    return [blank & ~mask for mask in blocked]


def _what(pair: int, cells: list[int], n: int) -> str:
    """'1/9 in r1c2,r1c5,r7c2,r7c5'."""
    return f"{'/'.join(map(str, digits(pair)))} in {','.join(name(c, n) for c in cells)}"


def _sentence(pair: int, cells: list[int], n: int, rest: str) -> str:
    """The shared start of every type's sentence."""
    a, b = digits(pair)
    return (f"If {cells_text(cells, n)} held only {a} and {b}, swapping them would give a "
            f"second solution; {rest}")


def ur_type1(g: Candidates) -> Iterator[Step]:
    """Three corners hold exactly the pair: the fourth is not the pair."""
    cands, n = g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) == 1 and cands[extra[0]] & pair:
            gone = [(extra[0], d) for d in digits(cands[extra[0]] & pair)]
            yield make("Uniqueness Test 1", n, _what(pair, cells, n), eliminations=gone,
                       cells=cells, sentence=_sentence(pair, cells, n, f"so {name(extra[0], n)}"
                                                       " holds another digit."))


def ur_type2(g: Candidates) -> Iterator[Step]:
    """Two corners hold the pair plus the same one extra digit: one of them holds it."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) != 2 or extra[1] not in tables.peers[extra[0]]:
            continue  # diagonal corners: Uniqueness Test 5
        more = cands[extra[0]] & ~pair
        if more.bit_count() != 1 or cands[extra[1]] & ~pair != more:
            continue
        z = more.bit_length()
        gone = [(c, z) for c in tables.peers[extra[0]] & tables.peers[extra[1]] if cands[c] & more]
        if gone:
            yield make("Uniqueness Test 2", n, _what(pair, cells, n), eliminations=gone,
                       cells=cells, sentence=_sentence(pair, cells, n, f"so {z} is in "
                       f"{name(extra[0], n)} or {name(extra[1], n)}, and cells that see "
                       f"both cannot hold it."))


def ur_type3(g: Candidates) -> Iterator[Step]:
    """The two extra corners act as one cell holding their extra digits, which forms a naked
    subset with other cells of the units they share (a line and a box: both at once)."""
    tables, cands = g.tables, g.cands
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) != 2:
            continue
        more = (cands[extra[0]] | cands[extra[1]]) & ~pair
        shared = sorted(set(tables.units_of[extra[0]]) & set(tables.units_of[extra[1]]))
        for u in shared:
            others = [c for c in tables.units[u] if cands[c] and c not in extra]
            for size in (1, 2, 3):
                for group in combinations(others, size):
                    mask = union(cands[c] for c in group) | more
                    units = [v for v in shared if set(group) <= set(tables.units[v])]
                    if mask.bit_count() != size + 1 or units[0] != u:
                        continue  # not a subset, or found from the first unit holding it
                    yield from _type3(g, (pair, more, mask), cells, extra, list(group), units)


def _type3(g: Candidates, masks: tuple[int, int, int], cells: list[int], extra: list[int],
           group: list[int], units: list[int]) -> Iterator[Step]:
    """The step of one Uniqueness Test 3 subset (masks: the pair, the extra corners' other
    digits, the subset's digits), its digits gone from the rest of every unit holding it."""
    tables, cands, n = g.tables, g.cands, g.n
    pair, more, mask = masks
    rest = sorted({c for u in units for c in tables.units[u]} - set(extra) - set(group))
    gone = [(c, d) for c in rest for d in digits(cands[c] & mask)]
    if not gone:
        return
    where = " and ".join(tables.unit_names[u] for u in units)
    yield make("Uniqueness Test 3", n, _what(pair, cells, n), eliminations=gone,
               cells=cells + group, units=units,
               sentence=_sentence(pair, cells, n, f"so {name(extra[0], n)} or "
                                  f"{name(extra[1], n)} holds one of "
                                  f"{','.join(map(str, digits(more)))}: with "
                                  f"{cells_text(group, n)} they lock "
                                  f"{','.join(map(str, digits(mask)))} in {where}."))


def ur_type4(g: Candidates) -> Iterator[Step]:
    """The two extra corners share a unit where one pair digit has no other place: the other
    pair digit cannot be in either of them."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) != 2:
            continue
        shared = set(tables.units_of[extra[0]]) & set(tables.units_of[extra[1]])
        for u in sorted(shared):
            for a, b in (digits(pair), digits(pair)[::-1]):
                places = [c for c in tables.units[u] if cands[c] >> (a - 1) & 1]
                gone = [(c, b) for c in extra if cands[c] >> (b - 1) & 1]
                if sorted(places) == sorted(extra) and gone:
                    yield make("Uniqueness Test 4", n, _what(pair, cells, n),
                               eliminations=gone, cells=cells, units=[u],
                               sentence=_sentence(pair, cells, n, f"{a} must be in "
                               f"{name(extra[0], n)} or {name(extra[1], n)} "
                               f"({tables.unit_names[u]}), so neither can hold {b}."))


def bug_plus_one(g: Candidates) -> Iterator[Step]:
    """Every blank cell has two candidates but one, which has three: the digit that would
    otherwise appear three times in its units goes there (else a deadly BUG remains)."""
    tables, cands, n = g.tables, g.cands, g.n
    counts = [m.bit_count() for m in cands]
    odd = [c for c in tables.cells if counts[c] > 2]
    if len(odd) != 1 or counts[odd[0]] != 3 or any(k == 1 for k in counts):
        return
    cell = odd[0]
    for d in digits(cands[cell]):
        b = 1 << (d - 1)
        if all(sum(1 for c in tables.units[u] if cands[c] & b) == 3 for u in tables.units_of[cell]):
            # HoDoKu's form: the cell's other candidates go (a naked single follows)
            gone = [(cell, x) for x in digits(cands[cell]) if x != d]
            yield make("Bivalue Universal Grave + 1", n, "", eliminations=gone, cells=[cell],
                       sentence=f"Every other blank cell has two candidates; without {d}, "
                       f"{name(cell, n)} would leave a grid with two solutions, so it holds "
                       f"{d} and none of its other candidates.")
            return


BUG_LITE_CELLS = 12   # the largest pattern searched (a rectangle is 4 cells)


def bug_lite(g: Candidates) -> Iterator[Step]:
    """BUG Lite: bivalue cells and one more cell, each of two pattern digits, every digit
    of the pattern twice (or not at all) in each unit it touches. If each cell held a
    pattern digit, every unit's pattern cells would hold each of their digits once, and
    giving every cell its other digit would be a second solution: so the one cell with
    more candidates holds another, and loses its two pattern digits. Rectangles (4 cells)
    are Uniqueness Test 1's."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    for cell in g.tables.cells:
        if g.cands[cell].bit_count() < 3:
            continue
        for a, b in combinations(digits(g.cands[cell]), 2):
            pattern = _deadly(g, {cell: (1 << (a - 1)) | (1 << (b - 1))})
            gone = ((cell, a), (cell, b))
            if pattern is not None and gone not in seen:
                seen.add(gone)
                cells = sorted(pattern)
                yield make("BUG Lite", g.n, f"{a}/{b} in {name(cell, g.n)} with "
                           f"{cells_text([c for c in cells if c != cell], g.n)}",
                           eliminations=list(gone), cells=cells,
                           sentence=f"{cells_text(cells, g.n)} hold each of their digits twice "
                           f"in every unit they touch; were {name(cell, g.n)} {a} or {b}, they "
                           f"could all swap to their other digit (a second solution), so it "
                           f"holds another.")


def _deadly(g: Candidates, pattern: dict[int, int]) -> dict[int, int] | None:
    """The pattern grown, by bivalue cells, until each of its digits lies twice (or not at
    all) in every unit it touches; None when no such pattern of more than 4 and at most
    BUG_LITE_CELLS cells holds it (depth first: the first unit and digit seen once take
    each bivalue cell that could pair it)."""
    tables, cands = g.tables, g.cands
    counts: dict[tuple[int, int], int] = {}
    for cell, mask in pattern.items():
        for u in tables.units_of[cell]:
            for d in digits(mask):
                counts[u, d] = counts.get((u, d), 0) + 1
    if any(k > 2 for k in counts.values()):
        return None
    odd = next(((u, d) for (u, d), k in sorted(counts.items()) if k == 1), None)
    if odd is None:
        return pattern if len(pattern) > 4 else None
    if len(pattern) == BUG_LITE_CELLS:
        return None
    u, d = odd
    for other in tables.units[u]:
        if other not in pattern and cands[other].bit_count() == 2 and cands[other] >> (d - 1) & 1:
            found = _deadly(g, {**pattern, other: cands[other]})
            if found is not None:
                return found
    return None


def ur_type5(g: Candidates) -> Iterator[Step]:
    """Two diagonal corners, or three corners, hold the pair plus the same one extra digit:
    one of them holds it, so cells that see them all cannot."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        more = union(cands[c] for c in extra) & ~pair
        if more.bit_count() != 1 or any(cands[c] & ~pair != more for c in extra):
            continue
        if len(extra) != 3 and (len(extra) != 2 or extra[1] in tables.peers[extra[0]]):
            continue  # two in one line: Uniqueness Test 2
        z = more.bit_length()
        seeing = set.intersection(*(set(tables.peers[c]) for c in extra))
        gone = [(c, z) for c in sorted(seeing) if cands[c] & more]
        if gone:
            yield make("Uniqueness Test 5", n, _what(pair, cells, n), eliminations=gone,
                       cells=cells, sentence=_sentence(pair, cells, n, f"so {z} is in one of "
                       f"{cells_text(extra, n)}, and cells that see them all cannot hold it."))


def _corners(cells: list[int]) -> list[tuple[int, int, int, int]]:
    """(corner, its opposite, its row mate, its column mate) for each corner of a rectangle
    listed row by row (r1c1, r1c2, r2c1, r2c2)."""
    a, b, c, d = cells
    return [(a, d, b, c), (b, c, a, d), (c, b, d, a), (d, a, c, b)]


def _only(g: Candidates, digit: int, unit_cells: tuple[int, ...], allowed: set[int]) -> bool:
    """Whether a digit's places in a unit all lie in the allowed cells."""
    b = 1 << (digit - 1)
    return all(c in allowed for c in unit_cells if g.cands[c] & b)


def ur_type6(g: Candidates) -> Iterator[Step]:
    """Two diagonal corners hold just the pair; one pair digit lies, in both rows (or both
    columns), only in the rectangle: it is in those two corners, not the other two."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        extra = [c for c in cells if cands[c] != pair]
        if len(extra) != 2 or extra[1] in tables.peers[extra[0]]:
            continue
        inside = set(cells)
        rows = [tables.units[tables.rows[c // n]] for c in (cells[0], cells[3])]
        cols = [tables.units[tables.cols[c % n]] for c in (cells[0], cells[3])]
        for a in digits(pair):
            if not all(_only(g, a, line, inside) for line in rows) and \
                    not all(_only(g, a, line, inside) for line in cols):
                continue
            gone = [(c, a) for c in extra if cands[c] >> (a - 1) & 1]
            if not gone:
                continue
            yield make("Uniqueness Test 6", n, _what(pair, cells, n),
                       eliminations=gone, cells=cells,
                       sentence=_sentence(pair, cells, n, f"{a} lies in two of the corners, "
                       f"diagonally; in {cells_text(extra, n)} it would leave the other two "
                       f"holding only the other digit, so it is not there."))


def hidden_rectangle(g: Candidates) -> Iterator[Step]:
    """A corner holds just the pair, and one pair digit has no place but the rectangle in
    the row and the column of the opposite corner: that corner cannot hold the other."""
    tables, cands, n = g.tables, g.cands, g.n
    for cells, pair in rectangles(g):
        for corner, opposite, row_mate, col_mate in _corners(cells):
            if cands[corner] != pair:
                continue
            row = tables.units[tables.rows[opposite // n]]
            col = tables.units[tables.cols[opposite % n]]
            for a, b in (digits(pair), digits(pair)[::-1]):
                # the opposite corner's row holds the corner's column mate, and vice versa
                if cands[opposite] >> (b - 1) & 1 and _only(g, a, row, {opposite, col_mate}) \
                        and _only(g, a, col, {opposite, row_mate}):
                    yield make("Hidden Rectangle", n, _what(pair, cells, n),
                               eliminations=[(opposite, b)], cells=cells,
                               sentence=_sentence(pair, cells, n, f"{a} is in "
                               f"{name(opposite, n)} or in both {name(row_mate, n)} and "
                               f"{name(col_mate, n)}; if {name(opposite, n)} held {b}, "
                               f"{name(corner, n)} would too, so it does not."))


def _solved(g: Candidates) -> list[int]:
    """Per cell, its digit when it was solved rather than given (0 otherwise)."""
    puzzle = g.puzzle
    placed: frozenset[int] = getattr(puzzle, "placed", frozenset())
    return [v if v and (not puzzle.givens[c] or c in placed) else 0
            for c, v in enumerate(g.values)]


def _lines(g: Candidates) -> tuple[list[int], list[list[int]], dict[tuple[int, int], int]]:
    """The solved digits, each row's solved cells, and (column, digit) -> the row where the
    digit was solved in that column (found once per grid)."""
    def make() -> tuple[list[int], list[list[int]], dict[tuple[int, int], int]]:
        n, solved = g.n, _solved(g)
        rows = [[r * n + c for c in range(n) if solved[r * n + c]] for r in range(n)]
        where = {(c % n, solved[c]): c // n for c in g.tables.cells if solved[c]}
        return solved, rows, where
    return g.cached("solved lines", make)


def _two_boxes(g: Candidates, cells: list[int]) -> bool:
    """Whether four cells lie in exactly two boxes."""
    return len({g.tables.box_of[c] for c in cells}) == 2


def ar_type1(g: Candidates) -> Iterator[Step]:
    """Three corners solved (not given), the two diagonal ones with one digit: the fourth
    cannot hold the third corner's digit (the four could be swapped)."""
    cands, n = g.cands, g.n
    solved, rows, where = _lines(g)
    for row in rows:
        for corner in row:
            a, c1 = solved[corner], corner % n
            for mate in row:
                b = solved[mate]
                r2 = where.get((c1, b))
                if mate == corner or r2 is None:
                    continue
                opposite = r2 * n + mate % n
                cells = sorted((corner, mate, r2 * n + c1, opposite))
                if (g.values[opposite] or not cands[opposite] >> (a - 1) & 1
                        or not _two_boxes(g, cells)):
                    continue
                yield make("Avoidable Rectangle Type 1", n, f"{a}/{b} in "
                           f"{','.join(name(c, n) for c in cells)}", eliminations=[(opposite, a)],
                           cells=cells, sentence=f"{cells_text([corner, mate, r2 * n + c1], n)} "
                           f"were solved, not given; {a} in {name(opposite, n)} would let {a} "
                           f"and {b} swap in the four cells (a second solution), so it cannot go "
                           f"there.")


def ar_type2(g: Candidates) -> Iterator[Step]:
    """Two corners of one line solved (not given) with a and b; the other two hold b or a
    plus the same one extra digit: one of them holds it, so cells seeing both cannot."""
    tables, cands = g.tables, g.cands
    solved, _, _ = _lines(g)
    lines = [(u, tables.kinds[u] == "row") for u in (*tables.rows, *tables.cols)]
    for u, same_row in lines:
        pairs = [c for c in tables.units[u] if cands[c].bit_count() == 2]
        for far, opposite in ((f, o) for f in pairs for o in pairs if f < o):
            # far and opposite share a line, the solved corner and mate a parallel one (the
            # other way round, the same rectangle: one order is enough)
            shared = cands[far] & cands[opposite]
            if shared.bit_count() != 1:
                continue
            yield from _ar2(g, solved, far, opposite, shared, same_row)


def _ar2(g: Candidates, solved: list[int], far: int, opposite: int, shared: int,
         same_row: bool) -> Iterator[Step]:
    """The Avoidable Rectangles Type 2 of two bivalue cells of one line sharing one digit."""
    tables, cands, n = g.tables, g.cands, g.n
    x = shared.bit_length()
    b, a = (cands[far] & ~shared).bit_length(), (cands[opposite] & ~shared).bit_length()
    for k in range(n):
        corner = (k * n + far % n) if same_row else (far // n * n + k)
        mate = (k * n + opposite % n) if same_row else (opposite // n * n + k)
        if solved[corner] == a and solved[mate] == b:
            cells = sorted((corner, mate, far, opposite))
            gone = [(c, x) for c in sorted(tables.peers[far] & tables.peers[opposite])
                    if cands[c] & shared]
            if gone and _two_boxes(g, cells):
                yield make("Avoidable Rectangle Type 2", n, f"{a}/{b} in "
                           f"{','.join(name(c, n) for c in cells)}", eliminations=gone,
                           cells=cells, sentence=f"{name(corner, n)} and {name(mate, n)} "
                           f"were solved, not given; {name(far, n)}={b} with "
                           f"{name(opposite, n)}={a} would let the four cells swap, so one "
                           f"of them holds {x}, and cells that see both cannot.")
