"""The human solver's shortcuts give what the plain searches give.

Chain searches test nodes with bitmasks and skip starts by a cheaper walk, ALS-XZ wings share
their enumeration, subsets grow groups instead of trying every combination, and grading's
Explainer path asks what the solver's path already found: each is compared here with the
plain form on candidate grids made by removing random wrong candidates from real puzzles.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import datasets
from sudokulab.human import als, chains, grading, solver, subsets
from sudokulab.human.candidates import Candidates, digits

PUZZLES = list(zip(datasets.load("top95")[:30], datasets.solutions("top95")[:30]))
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def grids(draw) -> Candidates:
    """A top95 puzzle's candidates less some of the wrong ones (never the solution's digit)."""
    puzzle, solution = draw(st.sampled_from(PUZZLES))
    rng = draw(st.randoms(use_true_random=False))
    share = draw(st.sampled_from([0, 2, 3]))   # how many random masks a removal must pass
    g = Candidates(puzzle)
    for cell in g.tables.cells:
        wrong = g.cands[cell] & ~(1 << (solution[cell] - 1))
        for _ in range(share):
            wrong &= rng.getrandbits(g.n)
        for d in digits(wrong if share else 0):
            g.eliminate(cell, d)
    return g


def nodes_of(g: Candidates) -> list[int]:
    """Every candidate as a chain node cell*n + d-1."""
    return [c * g.n + d - 1 for c in g.tables.cells for d in digits(g.cands[c])]


@SETTINGS
@given(grids())
def test_the_node_test_says_whether_two_nodes_remove_something(g):
    nodes = nodes_of(g)
    for a in nodes[::3]:
        removes = chains._removes(g, a)
        for z in nodes:
            if z != a:
                assert removes(z) == bool(chains._eliminations(g, a, z)), (a, z)


@SETTINGS
@given(grids())
def test_the_group_test_says_whether_two_group_nodes_remove_something(g):
    nodes, _, _, _ = chains._grouped_graph(g)
    seen = [chains._seen_by_all(g, cells) for cells, _ in nodes]
    for a in range(0, len(nodes), 5):
        removes = chains._group_removes(g, nodes, seen, a)
        for z in range(len(nodes)):
            if z != a:
                wanted = chains._group_eliminations(g, nodes[a], nodes[z])
                assert removes(z) == bool(wanted), (nodes[a], nodes[z])


def plain_search(strong: dict, weak, eliminations, accept=None) -> list:
    """The search without shortcuts: from each start in turn, breadth first over states
    node*2 + on, up to the shortest chain found so far; shortest first."""
    found, best = [], chains.MAX_LINKS + 1
    for start in sorted(strong):
        prev = {start * 2: -1}
        todo = deque([(start * 2, 0)])
        while todo:
            state, links = todo.popleft()
            if links >= best:
                break
            node, on = state >> 1, state & 1
            if on and node != start and links >= 3:
                gone = eliminations(start, node)
                chain = chains._unwind_states(prev, state)
                if gone and (accept is None or accept(chain)):
                    found.append((links, chain, gone))
                    best = links
                    break
            if links < chains.MAX_LINKS:
                for nxt in (weak(node) if on else strong.get(node, ())):
                    if nxt * 2 + 1 - on not in prev:
                        prev[nxt * 2 + 1 - on] = state
                        todo.append((nxt * 2 + 1 - on, links + 1))
    return [(chain, gone) for _, chain, gone in sorted(found, key=lambda f: f[0])]


@SETTINGS
@given(grids())
def test_chain_searches_find_what_a_plain_search_finds(g):
    n, peers, cands = g.n, g.tables.peers, g.cands

    def plain(kinds, digit=None):
        strong, _ = chains._graph(g, kinds, digit)

        def weak(node):  # every weak link, to nodes without a strong link too
            c, d = divmod(node, n)
            out = [p * n + d for p in peers[c] if cands[p] >> d & 1]
            if "c" in kinds and digit is None:
                out += [c * n + e for e in range(n) if e != d and cands[c] >> e & 1]
            return out

        return plain_search(strong, weak, lambda a, z: chains._eliminations(g, a, z))

    for kinds, digit in [("c", None), ("uc", None), ("u", 1), ("u", 5)]:
        assert list(chains.search(g, kinds, digit)) == plain(kinds, digit)


@SETTINGS
@given(grids())
def test_grouped_chains_are_what_a_plain_search_finds(g):
    nodes, strong, weak, _ = chains._grouped_graph(g)
    chained = plain_search({a: sorted(bs) for a, bs in strong.items()}, weak,
                           lambda a, z: chains._group_eliminations(g, nodes[a], nodes[z]),
                           lambda chain: any(nodes[k][0].bit_count() > 1 for k in chain))
    steps = list(chains.grouped_aic(g, every=False))  # the shortest chains only
    assert [(s.length, set(s.eliminations)) for s in steps] == [
        (len(chain) - 1, set(gone)) for chain, gone in chained]


@SETTINGS
@given(grids())
def test_smaller_sets_taken_from_the_wing_enumeration_equal_a_fresh_one(g):
    """Sets of 3 cells or fewer come from the 4-cell enumeration when there is one, and each
    unit's sets are remembered by its candidates: both equal a fresh enumeration."""
    wings = als._sets(g, als.WING_CELLS)
    shared = als._sets(g, als.MOST_CELLS)
    g.tables.memo.clear()
    fresh = Candidates(g.puzzle)
    fresh.cands = g.cands[:]
    assert shared == als._sets(fresh, als.MOST_CELLS)
    g.tables.memo.clear()
    assert wings == als._sets(fresh, als.WING_CELLS)
    assert shared == [s for s in wings if s[0].bit_count() <= als.MOST_CELLS]


@SETTINGS
@given(grids())
def test_subsets_grown_cell_by_cell_are_every_combination_that_fits(g):
    tables, cands = g.tables, g.cands
    for size in (2, 3, 4):
        naked = [(u, group, _union(cands[c] for c in group))
                 for u, unit in enumerate(tables.units) if g.blanks[u] > size
                 for group in combinations([c for c in unit if 0 < cands[c].bit_count() <= size],
                                           size)
                 if _union(cands[c] for c in group).bit_count() == size]
        assert subsets._naked_sets(g, size) == naked
        hidden = []
        for u, mask in enumerate(tables.unit_masks):
            places = {d: g.where()[d - 1] & mask for d in range(1, 10)}
            places = {d: p for d, p in places.items() if 2 <= p.bit_count() <= size}
            hidden += [(u, group, _union(places[d] for d in group))
                       for group in combinations(places, size)
                       if _union(places[d] for d in group).bit_count() == size]
        assert list(subsets._hidden_sets(g, size)) == hidden


def _union(masks) -> int:
    """The bits of several masks."""
    out = 0
    for mask in masks:
        out |= mask
    return out


def test_the_explainer_path_rates_the_same_without_the_solver_s_record():
    """Grading asks the path's record of what each finder found on the grids it passed;
    forgetting the record gives the same grade, on puzzles where the Explainer path runs."""
    checked = 0
    for puzzle in datasets.load("sudoku10k")[:400]:
        path = solver.solve(puzzle, unique=True)
        own = grading.grade(path.steps, path.solved)
        if not path.solved or not grading.EXPLAINED[0] <= own.rating < grading.EXPLAINED[1]:
            continue
        assert path.found   # the path recorded the grids past singles
        graded = grading.grade_path(path, unique=True)
        path.found.clear()
        assert grading.grade_path(path, unique=True) == graded
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_every_recorded_grid_is_one_the_path_passed():
    """The record is keyed by the grids the path passed, each with the step taken there."""
    puzzle = datasets.load("top95")[1]
    path = solver.solve(puzzle, unique=True)
    g = Candidates(puzzle)
    passed = {}
    for step in path.steps:
        passed[g.state()] = step
        g.apply(step)
    assert path.found
    for state, (nothing, finder, step) in path.found.items():
        assert passed[state] == step
        assert finder not in nothing
