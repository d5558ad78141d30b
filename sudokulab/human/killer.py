"""Killer techniques: what a cage's size and total allow, and the rule of 45.

- Cage Combinations: a cage of k cells adding up to t holds one of the sets of k distinct
  digits adding up to t (`sudokulab.cages.digit_sets`); a candidate that no such set, laid
  out over the cage's candidates, puts in its cell goes.
- Innies and Outies (the rule of 45): rows, columns and boxes, alone or side by side, each
  add up to 45 (1 + ... + N). Take away the cages wholly inside such a house: the cells
  left over (innies) add up to the rest. Or add up every cage that touches the house: the
  cells they stick out by (outies) add up to the excess. Either sum is a sum region, read
  like a cage, though its cells may repeat a digit where they do not see each other.
- Cage Splitting: when the innies or outies of a house all lie in one cage, they split it
  into two pieces of known sums, each read like a cage of its own.
- Cage Unit Overlap: a digit every combination of a cage holds must go in one of the
  cage's cells that can take it: a cell outside the cage that sees all of those loses it
  (the cells often lie in one unit). Conversely, when a unit's places for a digit all lie
  in one cage, the cage holds it there: its cells outside the unit lose it, and its
  combinations without it go.

Every step holds in every solution (no uniqueness is assumed). The houses and regions
depend only on the cages, so they are laid out once per rule set.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from sudokulab import rules as R
from sudokulab.cages import digit_sets
from sudokulab.geometry import geometry
from sudokulab.human.candidates import Candidates, bit, cells_of, digits
from sudokulab.human.step import Step, cells_text, digits_text, make, name

MAX_REGION = 6   # innies and outies of more cells say little and cost more


@dataclass(frozen=True)
class Region:
    """Cells whose digits add up to a known total; `groups` splits them into cells that see
    each other (a digit appears at most once in each group)."""

    cells: tuple[int, ...]
    total: int
    groups: tuple[tuple[int, ...], ...]
    house: str         # where it comes from: 'rows 1-2', 'box 5', or the cage's cells
    kind: str          # 'innies', 'outies' or 'split'


@dataclass(frozen=True)
class Killer:
    """A rule set's cages and the sum regions the rule of 45 derives from them."""

    cages: tuple[tuple[tuple[int, ...], int], ...]   # (cells, total)
    cage_of: tuple[int, ...]                          # per cell: its cage, -1 if none
    regions: tuple[Region, ...]


@lru_cache(maxsize=64)
def killer(box: tuple[int, int], rules: tuple) -> Killer:
    """The cages of a rule set and the sum regions they imply (cached)."""
    geo = geometry(box, rules)
    n = geo.n
    cages = tuple((tuple(geo.indices(rule.cells)), rule.total) for rule in rules
                  if isinstance(rule, R.Cage))
    cage_of = [-1] * (n * n)
    for k, (cells, _) in enumerate(cages):
        for cell in cells:
            cage_of[cell] = k if cage_of[cell] < 0 else -2   # -2: overlapping cages
    if not cages or -2 in cage_of:
        return Killer(cages, tuple(cage_of), ())
    peers = geo.peers
    regions: dict[tuple[int, ...], Region] = {}
    for house, members, count in _houses(geo):
        for region in _regions(house, members, count * n * (n + 1) // 2, cages, cage_of, peers):
            regions.setdefault(region.cells, region)
    return Killer(cages, tuple(cage_of), tuple(sorted(regions.values(),
                                                      key=lambda r: len(r.cells))))


def _houses(geo) -> Iterator[tuple[str, frozenset[int], int]]:
    """Unions of units that hold each digit `count` times: runs of adjacent rows, of
    adjacent columns, single boxes and two boxes side by side."""
    n = geo.n
    rows = [u for u in geo.units if u.kind == "row"]
    cols = [u for u in geo.units if u.kind == "column"]
    for kind, lines in (("rows", rows), ("columns", cols)):
        for size in range(1, n):
            for first in range(n - size + 1):
                cells = frozenset(c for line in lines[first:first + size] for c in line)
                label = (f"{kind[:-1]} {first + 1}" if size == 1 else
                         f"{kind} {first + 1}-{first + size}")
                yield label, cells, size
    boxes = [u for u in geo.units if u.kind in ("box", "region")]
    for k, one in enumerate(boxes):
        yield one.name, frozenset(one), 1
        for other in boxes[k + 1:]:
            if any(abs(a // n - b // n) + abs(a % n - b % n) == 1 for a in one for b in other):
                yield f"{one.name} and {other.name}", frozenset(one) | frozenset(other), 2


def _regions(house: str, cells: frozenset[int], whole: int, cages, cage_of,
             peers) -> Iterator[Region]:
    """The innies and outies of one house, and the cage pieces they split off."""
    touching = {cage_of[c] for c in cells if cage_of[c] >= 0}
    inside = [k for k in touching if set(cages[k][0]) <= cells]
    crossing = [k for k in touching if k not in inside]
    innies = cells - {c for k in inside for c in cages[k][0]}
    total = whole - sum(cages[k][1] for k in inside)
    if 0 < len(innies) <= MAX_REGION and innies != cells:
        yield from _found(house, innies, total, "innies", cages, cage_of, peers)
    if len(touching) and all(cage_of[c] >= 0 for c in cells) and crossing:
        outies = {c for k in crossing for c in cages[k][0]} - cells
        excess = sum(cages[k][1] for k in touching) - whole
        if len(outies) <= MAX_REGION:
            yield from _found(house, frozenset(outies), excess, "outies", cages, cage_of,
                              peers)


def _found(house: str, cells: frozenset[int], total: int, kind: str, cages, cage_of,
           peers) -> Iterator[Region]:
    """A region, or the two pieces of the cage it splits when it lies in one cage."""
    owners = {cage_of[c] for c in cells}
    if len(owners) == 1 and -1 not in owners:
        k = owners.pop()
        whole, cage_total = set(cages[k][0]), cages[k][1]
        if cells == whole:
            return   # a drawn cage again
        rest = tuple(sorted(whole - cells))
        piece = tuple(sorted(cells))
        where = f"{house}, cage {cage_label(cages[k][0], cage_total)}"
        yield Region(piece, total, (piece,), where, "split")
        yield Region(rest, cage_total - total, (rest,), where, "split")
        return
    yield Region(tuple(sorted(cells)), total, _groups(sorted(cells), peers), house, kind)


def _groups(cells: list[int], peers) -> tuple[tuple[int, ...], ...]:
    """The cells in groups that see each other (greedily)."""
    groups: list[list[int]] = []
    for cell in cells:
        for group in groups:
            if all(other in peers[cell] for other in group):
                group.append(cell)
                break
        else:
            groups.append([cell])
    return tuple(tuple(group) for group in groups)


def cage_label(cells, total: int, n: int = 9) -> str:
    """A cage as r1c12=7."""
    return f"{cells_text(cells, n)}={total}"


def survivors(g: Candidates, groups, total: int, allowed: int = -1) -> list[int] | None:
    """Per blank cell of the groups (in order), the candidates that some filling of the
    region with its total keeps (a digit at most once per group, only `allowed` digits);
    None when no filling is left. Placed cells count towards the total."""
    values, cands = g.values, g.cands
    order: list[tuple[int, bool]] = []   # (cell, first of its group)
    rest = total
    for group in groups:
        first = True
        for cell in group:
            if values[cell]:
                rest -= values[cell]
            else:
                order.append((cell, first))
                first = False
    if rest < 0:
        return None
    # forward: the (sum, digits of the current group) reachable before each cell
    layers = [{(0, 0)}]
    for cell, first in order:
        m = cands[cell] & allowed
        nxt = set()
        for s, used in layers[-1]:
            if first:
                used = 0
            free = m & ~used
            while free:
                low = free & -free
                free ^= low
                t = s + low.bit_length()
                if t <= rest:
                    nxt.add((t, used | low))
        layers.append(nxt)
    good = {state for state in layers[-1] if state[0] == rest}
    if not good:
        return None
    kept = [0] * len(order)
    for i in range(len(order) - 1, -1, -1):
        cell, first = order[i]
        m = cands[cell] & allowed
        back = set()
        for s, used in layers[i]:
            before = 0 if first else used
            free = m & ~before
            ok = False
            while free:
                low = free & -free
                free ^= low
                if (s + low.bit_length(), before | low) in good:
                    kept[i] |= low
                    ok = True
            if ok:
                back.add((s, used))
        good = back
    return kept


def _blanks(g: Candidates, groups) -> list[int]:
    """The blank cells of the groups, in order."""
    return [c for group in groups for c in group if not g.values[c]]


def _combos(g: Candidates, cells: tuple[int, ...], total: int) -> list[int]:
    """The digit sets (as bitmasks) the cage's blank cells may still hold."""
    blank = [c for c in cells if not g.values[c]]
    rest = total - sum(g.values[c] for c in cells)
    out = []
    for combo in digit_sets(len(blank), rest, g.n):
        mask = sum(bit(d) for d in combo)
        if survivors(g, (tuple(blank),), rest, mask) is not None:
            out.append(mask)
    return out


def _cages_of(g: Candidates) -> Killer | None:
    """The puzzle's cages as the killer techniques read them, or None without cages."""
    if not g.puzzle.rules:
        return None
    k = killer(g.puzzle.box, g.puzzle.rules)
    return k if k.cages else None


def _eliminations(g: Candidates, blanks: list[int], kept: list[int]) -> list[tuple[int, int]]:
    """The candidates of the blank cells outside `kept`."""
    return [(c, d) for c, m in zip(blanks, kept) for d in digits(g.cands[c] & ~m)]


def combinations(g: Candidates) -> Iterator[Step]:
    """Candidates no allowed digit set of their cage puts there."""
    k = _cages_of(g)
    if k is None:
        return
    n = g.n
    for cells, total in k.cages:
        blank = [c for c in cells if not g.values[c]]
        if not blank:
            continue
        kept = survivors(g, (cells,), total)
        if kept is None:
            continue   # a broken cage: the contradiction check names it
        gone = _eliminations(g, blank, kept)
        if gone:
            combos = _combos(g, cells, total)
            shown = "/".join("{" + "".join(map(str, digits(m))) + "}" for m in combos)
            label = cage_label(cells, total, n)
            yield make("Cage Combinations", n, f"cage {label}: {shown}", eliminations=gone,
                       cells=cells, sentence=f"The cage {label} can only hold "
                       f"{_sets_text(combos)} with the candidates left, so "
                       f"{_gone_text(gone, n)}.")


def _sets_text(combos: list[int]) -> str:
    """{1,2,4} or {1,2,6} for digit sets."""
    return " or ".join("{" + digits_text(digits(m)) + "}" for m in combos)


def _gone_text(gone: list[tuple[int, int]], n: int) -> str:
    """'r1c2 cannot be 3, r1c3 cannot be 3 or 5'."""
    by_cell: dict[int, list[int]] = {}
    for c, d in gone:
        by_cell.setdefault(c, []).append(d)
    return ", ".join(f"{name(c, n)} cannot be {' or '.join(map(str, ds))}"
                     for c, ds in sorted(by_cell.items()))


def _regions_of(g: Candidates, kinds: tuple[str, ...], technique: str) -> Iterator[Step]:
    """Steps of the sum regions of these kinds."""
    k = _cages_of(g)
    if k is None:
        return
    n = g.n
    for region in k.regions:
        if region.kind not in kinds:
            continue
        blanks = _blanks(g, region.groups)
        if not blanks:
            continue
        kept = survivors(g, region.groups, region.total)
        if kept is None:
            continue
        gone = _eliminations(g, blanks, kept)
        if not gone:
            continue
        label = f"{cells_text(region.cells, n)}={region.total}"
        placements = []
        if len(blanks) == 1 and kept[0] & (kept[0] - 1) == 0:
            placements, gone = [(blanks[0], kept[0].bit_length())], []
        what = {"innies": "the cells of {h} outside the cages inside it",
                "outies": "the cells that the cages touching {h} have outside it",
                "split": "a piece of a cage split off by {h}"}[region.kind]
        yield make(technique, n, f"{region.house}: {label}", placements=placements,
                   eliminations=gone, cells=region.cells,
                   sentence=f"By the rule of 45, {what.format(h=region.house)} add up to "
                   f"{region.total}: " + (f"{name(blanks[0], n)} is "
                                          f"{kept[0].bit_length()}." if placements else
                                          f"{_gone_text(gone, n)}."))


def innies(g: Candidates) -> Iterator[Step]:
    """The cells of a house outside the cages inside it add up to the rest of 45."""
    return _regions_of(g, ("innies",), "Innies (Rule of 45)")


def outies(g: Candidates) -> Iterator[Step]:
    """The cells sticking out of a house from the cages touching it add up to the excess."""
    return _regions_of(g, ("outies",), "Outies (Rule of 45)")


def splitting(g: Candidates) -> Iterator[Step]:
    """A cage cut by a house's innies or outies: each piece has a known sum."""
    return _regions_of(g, ("split",), "Cage Splitting")


def overlap(g: Candidates) -> Iterator[Step]:
    """A digit a cage must hold, confined to cells that another cell sees; or a unit's
    places for a digit all inside one cage."""
    k = _cages_of(g)
    if k is None:
        return
    n, tables = g.n, g.tables
    where = g.where()
    for cells, total in k.cages:
        blank = [c for c in cells if not g.values[c]]
        if not blank:
            continue
        combos = _combos(g, cells, total)
        if not combos:
            continue
        required = combos[0]
        for m in combos[1:]:
            required &= m
        cage_mask = sum(1 << c for c in cells)
        for d in digits(required):
            places = [c for c in blank if g.cands[c] & bit(d)]
            seen = -1
            for c in places:
                seen &= tables.peer_masks[c]
            targets = cells_of(seen & where[d - 1] & ~cage_mask)
            if targets:
                label = cage_label(cells, total, n)
                yield make("Cage Unit Overlap", n, f"cage {label} holds {d} in "
                           f"{cells_text(places, n)}", eliminations=[(c, d) for c in targets],
                           cells=places, sentence=f"Every digit set the cage {label} can "
                           f"hold has a {d}, and only {cells_text(places, n)} can take it: "
                           f"{cells_text(targets, n)}, which see{'s' if len(targets) == 1 else ''}"
                           f" all of them, cannot be {d}.")
    yield from _unit_in_cage(g, k)


def _unit_in_cage(g: Candidates, k: Killer) -> Iterator[Step]:
    """A unit whose places for a digit all lie in one cage: the cage holds it there."""
    n, tables = g.n, g.tables
    for u, unit in enumerate(tables.units):
        for d in range(1, n + 1):
            places = [c for c in unit if g.cands[c] & bit(d)]
            if not places or any(g.values[c] == d for c in unit):
                continue
            owner = k.cage_of[places[0]]
            if owner < 0 or any(k.cage_of[c] != owner for c in places):
                continue
            cells, total = k.cages[owner]
            blank = tuple(c for c in cells if not g.values[c])
            rest = total - sum(g.values[c] for c in cells)
            outside = [(c, d) for c in blank if c not in places and g.cands[c] & bit(d)]
            combos = [m for m in _combos(g, cells, total) if m & bit(d)]
            kept = [0] * len(blank)
            for m in combos:
                part = survivors(g, (blank,), rest, m) or [0] * len(blank)
                kept = [a | b for a, b in zip(kept, part)]
            gone = sorted(set(outside) | set(_eliminations(g, list(blank), kept)))
            if gone and combos:
                label = cage_label(cells, total, n)
                yield make("Cage Unit Overlap", n, f"{tables.unit_names[u]} has {d} only in "
                           f"cage {label}", eliminations=gone, cells=places, units=[u],
                           sentence=f"{tables.unit_names[u].capitalize()} can hold {d} only in "
                           f"{cells_text(places, n)}, inside the cage {label}: the cage holds "
                           f"{d} there, so {_gone_text(gone, n)}.")
