"""The killer techniques (issue 37): cage combinations, innies and outies, cage splitting and
cage/unit overlaps find steps that hold in every solution, on real killers and on random
cages over grids of every size."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.formats.text import from_json
from sudokulab.human import killer, solver
from sudokulab.human.candidates import Candidates, digits
from sudokulab.puzzle import empty

KILLERS = [json.loads(line) for line in
           (Path(__file__).parent / "data" / "killers.jsonl").read_text().splitlines()
           if not json.loads(line).get("partial")]
KILLER_TECHNIQUES = {"Cage Combinations", "Innies (Rule of 45)", "Outies (Rule of 45)",
                     "Cage Splitting", "Cage Unit Overlap"}


def solution_of(data: dict) -> tuple[int, ...]:
    """krazydad's solution of a killers.jsonl line, as a grid."""
    text = "".join(str(x) for x in data["solution"]) if isinstance(data["solution"], list) \
        else data["solution"]
    return tuple(int(c) for c in text if c.isdigit())


def test_hard_krazydad_killers_get_a_full_path_of_sound_steps():
    used: set[str] = set()
    for data in KILLERS[::3]:
        path = solver.solve(from_json(json.dumps(data)))
        assert path.solved, data["name"]
        assert solver.wrong_moves(path.steps, solution_of(data), 9) == []
        used |= set(path.counts())
    assert {"Cage Combinations", "Innies (Rule of 45)", "Outies (Rule of 45)"} <= used


def test_every_killer_technique_holds_on_the_grids_along_real_paths():
    """Before each step of real killer paths, every killer technique's every step agrees
    with the solution, and each of them finds something somewhere."""
    fired = set()
    techniques = [solver.lookup(name) for name in sorted(KILLER_TECHNIQUES)]
    for data in KILLERS[:4]:
        puzzle, solution = from_json(json.dumps(data)), solution_of(data)
        g = Candidates(puzzle)
        for step in solver.solve(puzzle).steps:
            for technique in techniques:
                found = list(technique.find(g))
                assert solver.wrong_moves(found, solution, 9) == [], technique.name
                if found:
                    assert {s.technique for s in found} == {technique.name}
                    fired.add(technique.name)
            g.apply(step)
    assert fired == KILLER_TECHNIQUES


def test_a_two_cell_cage_keeps_only_what_its_other_cell_allows():
    # r1c1+r1c2=4 holds 1 and 3; column 1 has a 1, so r1c1=3 and r1c2 cannot be 3
    cage = R.Cage(((0, 0), (0, 1)), 4)
    puzzle = empty(9, [cage]).with_values([0] * 27 + [1] + [0] * 53)
    g = Candidates(puzzle)
    assert digits(g.cands[1]) == [1, 3]
    step = next(killer.combinations(g))
    assert step.technique == "Cage Combinations"
    assert (1, 3) in step.eliminations and "{1,3}" in step.sentence


def test_a_sum_region_lets_cells_that_do_not_see_each_other_repeat_a_digit():
    puzzle = empty(9, [R.Cage(((0, 0), (0, 1)), 3)])
    g = Candidates(puzzle)
    # r1c1 and r5c5 do not see each other: 1+1 and 2+... 2 = 4 with repeats allowed
    apart = killer.survivors(g, ((0,), (40,)), 2)
    assert apart is not None and digits(apart[1]) == [1]
    together = killer.survivors(g, ((0, 1),), 2)
    assert together is None   # two distinct digits never add up to 2


def test_innies_of_a_row_add_up_to_the_rest_of_45():
    # row 1: cages r1c1-4=10 and r1c5-8=30 leave r1c9 = 45 - 40 = 5
    cages = [R.Cage(tuple((0, c) for c in range(4)), 10),
             R.Cage(tuple((0, c) for c in range(4, 8)), 30)]
    g = Candidates(empty(9, cages))
    step = next(killer.innies(g))
    assert step.placements == ((8, 5),) and "row 1" in step.notation


def test_the_techniques_find_nothing_without_cages():
    g = Candidates(empty(9))
    for name in KILLER_TECHNIQUES:
        assert next(solver.lookup(name).find(g), None) is None


def random_cages(grid: list[int], n: int, cuts: list[int]) -> list[R.Cage]:
    """Cages of consecutive cells along the rows (snake order), cut where `cuts` says and
    before a digit would repeat, with the grid's sums."""
    order = [r * n + (c if r % 2 == 0 else n - 1 - c) for r in range(n) for c in range(n)]
    cages, current = [], []
    for k, cell in enumerate(order):
        current.append(cell)
        ahead = order[k + 1] if k + 1 < len(order) else -1
        if (ahead < 0 or cuts[k] % 3 == 0
                or grid[ahead] in {grid[c] for c in current}):
            cages.append(R.Cage(tuple(divmod(c, n) for c in current),
                                sum(grid[c] for c in current)))
            current = []
    return cages


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(box=st.sampled_from([(2, 2), (2, 3), (3, 3)]), data=st.data())
def test_killer_steps_hold_for_the_grid_the_cages_come_from(box, data):
    """Random cages drawn over a full grid (with that grid's sums): every step of the path
    (no forcing chains, no uniqueness) agrees with that grid, since it is a solution."""
    n = box[0] * box[1]
    grid = list(make_backend("norvig").solve(empty(n), limit=1).solutions[0])
    relabel = data.draw(st.permutations(range(1, n + 1)))
    grid = [relabel[d - 1] for d in grid]
    cuts = data.draw(st.lists(st.integers(0, 5), min_size=n * n, max_size=n * n))
    puzzle = empty(n, random_cages(grid, n, cuts))
    cheap = tuple(t for t in solver.TECHNIQUES if t.tier < 5)
    path = solver.solve(puzzle, cheap, unique=False)
    assert solver.wrong_moves(path.steps, tuple(grid), n) == []
