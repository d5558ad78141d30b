"""The human-style solver: every step of every path agrees with the solution an engine of
another paradigm found, on bundled puzzles, variants and random candidate grids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.errors import UnknownTechnique
from sudokulab.formats.text import from_json, parse
from sudokulab.human import FIRST_RULES, solver
from sudokulab.human.candidates import Candidates
from sudokulab.puzzle import empty

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
# the rules the human engine reasons about (the line and dot rules are refused by name)
VARIANTS = {name: data for name, data in VARIANTS.items()
            if all(rule["type"] in {r.name for r in FIRST_RULES} for rule in data["rules"])}


def sample(name: str, count: int) -> list:
    """Every k-th puzzle of a dataset with its reference solution (k spreads the sample)."""
    puzzles, solutions = datasets.load(name), datasets.solutions(name)
    step = max(1, len(puzzles) // count)
    return list(zip(puzzles[::step], solutions[::step]))[:count]


def assert_sound(puzzle, solution, **options):
    """Solve with the human solver; every step must agree with the solution."""
    path = solver.solve(puzzle, unique=True, **options)
    assert solver.wrong_moves(path.steps, solution, puzzle.n) == []
    for cell, d in enumerate(path.grid):
        assert d in (0, solution[cell])
    return path


@pytest.mark.parametrize("name,count", [("easy50", 50), ("top95", 30), ("sudoku10k", 150),
                                        ("top1465", 25), ("forum_hardest_1106", 1)])
def test_every_step_of_every_path_agrees_with_the_solution(name, count):
    for puzzle, solution in sample(name, count):
        assert_sound(puzzle, solution)


def test_every_technique_is_verified_on_real_candidates():
    """Along real paths, every technique is run on the candidates before each step that
    needed more than singles, and its first step checked against the solution."""
    fired = set()
    for puzzle, solution in sample("top95", 8) + sample("top1465", 6):
        g = Candidates(puzzle)
        for step in solver.solve(puzzle, unique=True).steps:
            if step.technique not in SINGLES:
                for technique in solver.usable(puzzle, CHEAP, unique=True):
                    found = next(technique.find(g), None)
                    if found is not None:
                        assert found.technique == technique.name
                        assert solver.wrong_moves([found], solution, 9) == []
                        fired.add(technique.name)
            g.apply(step)
    missing = {t.name for t in CHEAP} - fired - RARE - SINGLES - CAGES  # singles: every path
    assert not missing, f"techniques never verified on real candidates: {sorted(missing)}"


SINGLES = {"Full House", "Naked Single", "Hidden Single"}
# the killer techniques: nothing to find without cages (test_human_killer.py checks them)
CAGES = {t.name for t in solver.TECHNIQUES if t.find.__module__ == "sudokulab.human.killer"}
CHEAP = tuple(t for t in solver.TECHNIQUES if t.tier < 5)
# Techniques these samples do not reach; each has its own example test.
RARE = {"Jellyfish", "Simple Colors Wrap", "Remote Pair", "Uniqueness Test 2",
        "Bivalue Universal Grave + 1",
        # cases of their own in tests/data/techniques (test_techniques_hodoku.py)
        "Avoidable Rectangle Type 1", "Avoidable Rectangle Type 2", "Dual 2-String Kite",
        "Uniqueness Test 5", "Uniqueness Test 6"}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_paths_agree_with_norvig(name):
    puzzle = from_json(json.dumps(VARIANTS[name]))
    solution = make_backend("norvig").solve(puzzle, limit=2).solutions[0]
    path = solver.solve(puzzle, CHEAP, unique=True)  # forcing chains: slow on sparse killers
    assert solver.wrong_moves(path.steps, solution, 9) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(box=st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4)]), data=st.data())
def test_steps_hold_for_any_grid_the_givens_come_from(box, data):
    """Blank a random part of a full grid: without uniqueness techniques every step must
    hold for every solution, so for the grid the givens came from."""
    n = box[0] * box[1]
    grid = full_grid(box)
    relabel = data.draw(st.permutations(range(1, n + 1)))
    grid = [relabel[d - 1] for d in grid]
    keep = data.draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    puzzle = empty(n).with_values([d if k else 0 for d, k in zip(grid, keep)])
    path = solver.solve(puzzle, CHEAP, unique=False)  # forcing chains: tested on paths
    assert solver.wrong_moves(path.steps, tuple(grid), n) == []


def full_grid(box):
    """A full grid of a box shape, from norvig (another engine)."""
    n = box[0] * box[1]
    return list(make_backend("norvig").solve(empty(n) if box != (3, 4) else
                                             parse("." * 144, box=box), limit=1).solutions[0])


def test_a_blank_cell_starts_with_the_digits_its_peers_leave():
    puzzle = datasets.load("top95")[0]
    g = Candidates(puzzle)
    for cell in range(81):
        if puzzle.givens[cell]:
            assert g.cands[cell] == 0
        else:
            seen = {puzzle.givens[p] for p in g.tables.peers[cell]}
            assert {d for d in range(1, 10) if g.cands[cell] >> (d - 1) & 1} == \
                set(range(1, 10)) - seen


def test_upto_and_named_selection_keep_the_list_order():
    upto = solver.select(upto="Hidden Single")
    assert [t.name for t in upto] == ["Full House", "Naked Single", "Hidden Single"]
    named = solver.select(names=["hidden single", "full house"])
    assert [t.name for t in named] == ["Full House", "Hidden Single"]
    with pytest.raises(UnknownTechnique, match="known: Full House"):
        solver.lookup("Guessing")


@pytest.mark.parametrize("last", ["Kraken Fish Type 1", "WXYZ-Wing", "BUG Lite", "0371"])
def test_upto_a_technique_used_only_when_named_takes_the_default_ones_before_it(last):
    """Before, `--upto 'Kraken Fish Type 1'` was a traceback: it is in no default list."""
    chosen = solver.select(upto=last)
    wanted = solver.lookup(last)
    assert chosen[-1].name == wanted.name and not wanted.by_default
    assert all(t.by_default for t in chosen[:-1])
    before = [t.name for t in solver.ALL[:[t.name for t in solver.ALL].index(wanted.name)]]
    assert [t.name for t in chosen[:-1]] == [n for n in before if solver.BY_NAME[
        n.lower()].by_default]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(VARIANTS)), data=st.data())
def test_variant_steps_hold_for_the_grid_the_givens_come_from(name, data):
    """A variant's solution with random cells blanked: every step (no uniqueness technique)
    must hold for that solution, whatever the rule."""
    puzzle = from_json(json.dumps(VARIANTS[name]))
    solution = variant_solution(name)
    keep = data.draw(st.lists(st.booleans(), min_size=81, max_size=81))
    blanked = puzzle.with_values([d if k else 0 for d, k in zip(solution, keep)])
    path = solver.solve(blanked, CHEAP, unique=False)
    assert solver.wrong_moves(path.steps, solution, 9) == []


_SOLUTIONS: dict = {}


def variant_solution(name: str) -> tuple:
    """The variant puzzle's solution, from norvig (cached)."""
    if name not in _SOLUTIONS:
        puzzle = from_json(json.dumps(VARIANTS[name]))
        _SOLUTIONS[name] = make_backend("norvig").solve(puzzle, limit=2).solutions[0]
    return _SOLUTIONS[name]


def test_uniqueness_techniques_are_skipped_under_variant_rules():
    puzzle = from_json(json.dumps(VARIANTS["diagonal"]))
    chosen = solver.usable(puzzle, solver.TECHNIQUES, unique=True)
    assert not any(t.uniqueness for t in chosen)
    classic = solver.usable(datasets.load("top95")[0], solver.TECHNIQUES, unique=True)
    assert any(t.uniqueness for t in classic)
    assert not any(t.uniqueness for t in solver.usable(datasets.load("top95")[0],
                                                      solver.TECHNIQUES, unique=False))


def test_blank_counts_and_digit_places_follow_every_step():
    """The per-unit blank counts and per-digit places kept beside the candidates match the
    grid after every step of a path."""
    puzzle = datasets.load("top95")[3]
    g = Candidates(puzzle)
    for step in solver.solve(puzzle, unique=True).steps:
        g.apply(step)
        assert g.blanks == [sum(1 for c in unit if not g.values[c]) for unit in g.tables.units]
        assert g.where() == [sum(1 << c for c in g.tables.cells if g.cands[c] >> d & 1)
                             for d in range(9)]


def test_remembered_single_digit_steps_equal_a_fresh_search():
    """Single-digit finders remember their steps by the digit's places: along real paths,
    what they give equals a search with nothing remembered."""
    from sudokulab.human import chains, coloring, patterns

    finders = [partial_fish(2, ""), partial_fish(3, "finned"), patterns.skyscraper,
               patterns.kite, patterns.empty_rectangle, coloring.color_trap, chains.x_chain]
    for puzzle, _ in sample("top1465", 4):
        g = Candidates(puzzle)
        for step in solver.solve(puzzle, unique=True).steps:
            remembered = [[s.notation for s in find(g)] for find in finders]
            g.tables.memo.clear()
            assert [[s.notation for s in find(g)] for find in finders] == remembered
            g.apply(step)


def partial_fish(size: int, kind: str):
    """A fish finder of one size and kind."""
    from sudokulab.human import fish

    return lambda g: fish.fish(g, size, kind)


def test_a_stop_is_heard_inside_a_long_forcing_search():
    """On an empty grid only the forcing searches are left to try, at length; a stop that
    comes after the step began ends the search there instead of after it."""
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 1  # go on at the check before the first step, stop after

    path = solver.solve(empty(9), stop=stop)
    assert path.stopped and not path.steps and not path.solved
    assert len(calls) == 2  # the second question came from inside the search


def test_remembered_forcing_outcomes_equal_a_fresh_search():
    """What an assumption led to is kept across grids (issue 37): along a real path through
    forcing steps, every kept outcome given back equals a fresh search on that grid."""
    from sudokulab.human import forcing
    from sudokulab.human.candidates import digits

    puzzle = datasets.load("forum_hardest_1106")[0]
    g = Candidates(puzzle)
    reused = 0
    for step in solver.solve(puzzle, unique=True).steps[:40]:
        if "Forcing" in step.technique:
            for cell in g.tables.cells:
                for d in digits(g.cands[cell]):
                    for net in (0, 1):
                        kept = forcing._outcome.get((net, cell, d, puzzle.box, puzzle.rules))
                        got = forcing.propagate(g, cell, d, net)
                        fresh = forcing._propagate(g, cell, d, net)
                        if isinstance(fresh, forcing.Contradiction):
                            assert isinstance(got, forcing.Contradiction)
                            assert got.placed == fresh.placed
                        else:
                            assert (got.values, got.cands) == (fresh.values, fresh.cands)
                            reused += kept is not None and got is kept[1]
        g.apply(step)
    assert reused > 0


def nets() -> dict[str, int]:
    """The forcing contradiction techniques by depth (0 chain, 1 net, 2 nested net)."""
    from sudokulab.human import forcing

    return {forcing._name(net, "Contradiction"): net for net in (0, 1, 2)}


def test_the_contradiction_searches_skip_only_what_a_solution_holds():
    """Candidates a solution met bears are not assumed (issue 37): on a grid of several
    solutions, each forcing contradiction is the first that assuming every candidate finds."""
    from sudokulab.human import forcing

    hard = datasets.load("forum_hardest_1106")[1]
    first = next(cell for cell, d in enumerate(hard.givens) if d)
    puzzle = hard.with_values(0 if cell == first else d for cell, d in enumerate(hard.givens))
    g, checked, depths = Candidates(puzzle), 0, nets()
    for step in solver.solve(puzzle).steps:
        net = depths.get(step.technique)
        if net is not None and checked < 2:
            held = next(forcing.contradiction_chain(g, net))
            assert forcing._covered(g)  # the solutions met: candidates to skip
            every = next((cell, d) for cell, outcomes in forcing._outcomes(g, net)
                         for d, h in outcomes.items() if isinstance(h, forcing.Contradiction))
            assert list(held.eliminations) == [every] == list(step.eliminations)
            checked += 1
        g.apply(step)
    assert checked == 2


def test_on_a_grid_of_several_solutions_the_nested_net_assumes_few_candidates(monkeypatch):
    """The solutions a nested net meets cover most candidates of a grid with few givens,
    so it stalls after assuming a few of them, not all (a 5-given grid took 21.5 CPU s)."""
    from sudokulab.human import forcing

    puzzle = from_json(json.dumps(VARIANTS["jigsaw"])).with_rules(())  # 20 givens, no rule
    g = Candidates(puzzle)
    assumed = []
    propagate = forcing.propagate
    monkeypatch.setattr(forcing, "propagate", lambda h, cell, d, net=0:
                        assumed.append(net) or propagate(h, cell, d, net))
    while (step := solver.next_step(g, solver.TECHNIQUES[:-1])) is not None:
        g.apply(step)  # every technique but the nested net, until none finds a step
    before = len(assumed)
    assert next(forcing.nested(g), None) is None
    candidates = sum(m.bit_count() for m in g.cands)
    assert 0 < assumed[before:].count(2) < candidates // 4
