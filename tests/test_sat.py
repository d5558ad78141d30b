"""The SAT backend: right answers for every encoding and solver, counts, reuse, timeouts."""

import random
import subprocess
import sys

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.backends.base import Deadline
from sudokulab.backends.norvig import NorvigBackend
from sudokulab.backends.sat import NATIVE_AMO, Engine, SatBackend, engine
from sudokulab.check import check
from sudokulab.geometry import geometry
from sudokulab.models import cnf
from sudokulab.puzzle import Puzzle, empty
from sudokulab.result import Status

TOP95 = datasets.load("top95")
SOLUTIONS = dict(zip(TOP95, datasets.solutions("top95")))
JIGSAW_4 = R.Jigsaw((((0, 0), (0, 1), (1, 0), (2, 0)), ((0, 2), (0, 3), (1, 3), (2, 3)),
                     ((1, 1), (1, 2), (2, 1), (2, 2)), ((3, 0), (3, 1), (3, 2), (3, 3))))


def backend(encoding="extended", amo="pairwise", solver=None):
    """A backend; native at-most-one needs a solver that takes cardinality constraints."""
    return SatBackend(solver=solver or ("minicard" if amo == "native" else "cadical195"),
                      encoding=encoding, amo=amo)


def assert_solves(sat, puzzles):
    """Each puzzle comes back UNIQUE with the reference solution, which the validator accepts."""
    for puzzle in puzzles:
        result = sat.solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, (puzzle, result.message)
        assert result.solutions == (SOLUTIONS[puzzle],)
        assert check(puzzle, result.solutions[0]) == []


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_every_encoding_solves_top95(encoding):
    assert_solves(backend(encoding), TOP95)


@pytest.mark.parametrize("amo", cnf.AMO_ENCODINGS)
def test_every_at_most_one_encoding_solves_top95(amo):
    assert_solves(backend("extended", amo), TOP95)


@pytest.mark.parametrize("amo", cnf.AMO_ENCODINGS)
@pytest.mark.parametrize("encoding", ["minimal", "efficient", "optimized"])
def test_every_encoding_with_every_at_most_one(encoding, amo):
    assert_solves(backend(encoding, amo), TOP95[::5])


@pytest.mark.parametrize("solver", ["glucose4", "minisat22", "maplechrono", "lingeling",
                                    "cadical153", *NATIVE_AMO])
def test_other_solvers_agree(solver):
    assert_solves(SatBackend(solver=solver), TOP95[:12])
    assert_solves(SatBackend(solver=solver, encoding="optimized"), TOP95[12:16])


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_the_empty_4x4_grid_has_288_solutions(encoding):
    result = backend(encoding).solve(empty(4), limit=None)
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, 288, True)
    assert len(set(result.solutions)) == 288
    assert all(check(empty(4), grid) == [] for grid in result.solutions)


def test_the_miracle_rules_admit_72_grids():
    result = SatBackend().solve(empty(9, R.MIRACLE), limit=None)
    assert (result.count, result.exact) == (72, True)
    assert all(check(empty(9, R.MIRACLE), grid) == [] for grid in result.solutions)


def loosened(puzzle, k):
    """A puzzle with several solutions: the givens plus every fourth cell of the solution,
    less the first k of those givens."""
    solution = SOLUTIONS[puzzle]
    givens = [d or (solution[i] if i % 4 == 0 else 0) for i, d in enumerate(puzzle.givens)]
    for cell in [c for c, d in enumerate(givens) if d][:k]:
        givens[cell] = 0
    return puzzle.with_values(givens)


def test_multi_solution_counts_match_norvig():
    compared = 0
    for puzzle in TOP95[:8]:
        for k in (4, 6, 8):
            multi = loosened(puzzle, k)
            expected = NorvigBackend().solve(multi, limit=300)
            if not expected.exact:
                continue  # too many to count here
            for encoding in ("extended", "optimized"):
                got = backend(encoding).solve(multi, limit=None)
                assert (got.count, got.exact) == (expected.count, True)
                assert set(got.solutions) == set(expected.solutions)
            compared += expected.count > 1
    assert compared >= 8


def test_counting_leaves_the_shared_solver_right_for_the_next_puzzle():
    sat = SatBackend()
    for puzzle in TOP95[:10]:
        assert sat.solve(loosened(puzzle, 4), limit=None).count > 1
        assert_solves(sat, [puzzle])


def test_one_solver_reused_over_1000_puzzles_answers_as_fresh_solvers():
    # 1000 puzzles take the shared solver past a reload (retired activation literals
    # outnumber the cell variables after ~729). Every answer is checked against tdoku's
    # reference solution (each puzzle has one); every 100th also against a solver loaded
    # afresh, which is what a reused one must match (loading 1000 of them took most of
    # this test's minute-plus).
    puzzles = datasets.load("top1465")[:1000]
    answers = datasets.solutions("top1465")[:1000]
    reused = SatBackend()
    formula = cnf.base((3, 3))
    for number, (puzzle, answer) in enumerate(zip(puzzles, answers)):
        shared = reused.solve(puzzle, limit=2)
        assert (shared.status, shared.solutions) == (Status.UNIQUE, (tuple(answer),))
        if number % 100:
            continue
        fresh = Engine(formula, "cadical195")
        solutions, complete, _ = fresh.search(cnf.givens_literals(puzzle),
                                              [c for c, d in enumerate(puzzle.givens) if not d],
                                              2, Deadline(None))
        fresh.solver.delete()
        assert complete and shared.solutions == tuple(solutions)


def test_retired_activation_literals_make_the_solver_reload():
    sat = SatBackend()
    solver = engine("cadical195", "extended", "pairwise", (2, 2), ())
    puzzle = Puzzle((2, 2), (1, 2) + (0,) * 14)
    expected = NorvigBackend().solve(puzzle, limit=None).count
    for _ in range(2 * 64 + 5):  # one activation literal per count; 64 cell variables
        assert sat.solve(puzzle, limit=None).count == expected
        assert solver.top - solver.formula.cnf.nv <= 64


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_contradictory_givens_have_no_solution(encoding):
    twice = Puzzle((3, 3), (5, 5) + (0,) * 79)  # built directly: parsing would refuse it
    result = backend(encoding).solve(twice)
    assert (result.status, result.count, result.exact) == (Status.NONE, 0, True)


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_a_given_against_the_only_solution_has_none(encoding):
    puzzle, solution = TOP95[0], SOLUTIONS[TOP95[0]]
    peers = geometry(puzzle.box).peers
    givens = list(puzzle.givens)
    cell = givens.index(0)
    seen = {givens[peer] for peer in peers[cell]}  # a digit no peer rules out directly
    givens[cell] = next(d for d in range(1, 10) if d != solution[cell] and d not in seen)
    assert backend(encoding).solve(puzzle.with_values(givens)).status is Status.NONE


def shifted_grid(box):
    """A valid grid by the classic pattern: each row is the previous one shifted."""
    rows, cols = box
    n = rows * cols
    return tuple((r * cols + r // rows + c) % n + 1 for r in range(n) for c in range(n))


@pytest.mark.parametrize("box", [(4, 4), (2, 3), (3, 4)])
def test_larger_and_rectangular_grids_are_solved(box):
    grid = shifted_grid(box)
    puzzle = Puzzle(box, tuple(d if (i * 7) % 5 < 2 else 0 for i, d in enumerate(grid)))
    assert check(puzzle.with_values(grid), grid) == []
    for encoding in ("extended", "optimized"):
        result = backend(encoding).solve(puzzle, limit=1)
        assert result.status is Status.SOLVED
        assert check(puzzle, result.solutions[0]) == []


@pytest.mark.parametrize("rule", [R.Diagonal(), R.AntiKnight(), R.AntiKing(), R.Windoku(),
                                  JIGSAW_4])
def test_unit_and_move_rules_count_as_norvig_does(rule):
    puzzle = empty(4, (rule,))
    expected = NorvigBackend().solve(puzzle, limit=None)
    for encoding in ("minimal", "optimized"):
        got = backend(encoding).solve(puzzle, limit=None)
        assert (got.count, set(got.solutions)) == (expected.count, set(expected.solutions))


@pytest.mark.parametrize("rule", [R.NonConsecutive(), R.Parity(((0, 0), (1, 2), (3, 3)), True),
                                  R.Parity(((0, 1), (2, 2)), False)])
def test_clause_rules_keep_exactly_the_grids_the_validator_accepts(rule):
    grids = SatBackend().solve(empty(4), limit=None).solutions
    puzzle = empty(4, (rule,))
    expected = {grid for grid in grids if check(puzzle, grid) == []}
    for encoding in ("efficient", "optimized"):
        got = backend(encoding).solve(puzzle, limit=None)
        assert set(got.solutions) == expected and got.count == len(expected)


def killer(solution, seed=17, n=9):
    """Cages of 2-4 orthogonally connected cells covering the grid, grown at random (seeded)
    from each free cell in row order, never twice the same digit of the solution in a cage;
    totals from the solution, no givens."""
    rng = random.Random(seed)
    free = {(r, c) for r in range(n) for c in range(n)}
    cages = []
    for cell in sorted(free):
        if cell not in free:
            continue
        group, size = [cell], rng.choice((2, 3, 4))
        free.discard(cell)
        while len(group) < size:
            seen = {solution[r * n + c] for r, c in group}
            nexts = sorted({(r + dr, c + dc) for r, c in group for dr, dc in R.ORTHOGONAL_MOVES
                            if (r + dr, c + dc) in free and solution[(r + dr) * n + c + dc]
                            not in seen})
            if not nexts:
                break
            group.append(rng.choice(nexts))
            free.discard(group[-1])
        cages.append(R.Cage(tuple(group), sum(solution[r * n + c] for r, c in group)))
    return empty(n, cages)


KILLER_SOLUTION = datasets.solutions("top95")[0]
KILLER = killer(KILLER_SOLUTION)


def test_a_killer_without_givens_counts_as_norvig_does():
    assert all(2 <= len(cage.cells) <= 4 for cage in KILLER.rules)
    assert sum(len(cage.cells) for cage in KILLER.rules) == 81
    expected = NorvigBackend().solve(KILLER, limit=None)
    assert expected.exact and expected.count == 6 and KILLER_SOLUTION in expected.solutions
    for sat in (backend(encoding) for encoding in cnf.ENCODINGS):
        got = sat.solve(KILLER, limit=None)
        assert (got.status, got.count, got.exact) == (Status.MULTIPLE, expected.count, True)
        assert set(got.solutions) == set(expected.solutions)
        assert all(check(KILLER, grid) == [] for grid in got.solutions)


@pytest.mark.parametrize("amo", ["seqcounter", "native"])
def test_a_killer_counts_the_same_with_auxiliary_at_most_one(amo):
    expected = set(SatBackend().solve(KILLER, limit=None).solutions)
    for encoding in ("minimal", "optimized"):
        assert set(backend(encoding, amo).solve(KILLER, limit=None).solutions) == expected


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_a_killer_with_two_givens_is_unique(encoding):
    givens = [0] * 81
    for cell in (5, 37):  # r1c6 and r5c2 tell the killer's solutions apart
        givens[cell] = KILLER_SOLUTION[cell]
    puzzle = KILLER.with_values(givens)
    result = backend(encoding).solve(puzzle, limit=None)
    assert (result.status, result.solutions) == (Status.UNIQUE, (KILLER_SOLUTION,))
    assert check(puzzle, KILLER_SOLUTION) == []


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_a_cage_no_digits_fill_has_no_solution(encoding):
    for total in (2, 18):  # two different digits add up to 3..17
        result = backend(encoding).solve(empty(9, (R.Cage(((0, 0), (0, 1)), total),)))
        assert (result.status, result.count, result.exact) == (Status.NONE, 0, True)


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_a_cage_keeps_exactly_the_grids_the_validator_accepts(encoding):
    grids = SatBackend().solve(empty(4), limit=None).solutions
    for cage in (R.Cage(((0, 0), (0, 1)), 3), R.Cage(((0, 0), (1, 1), (2, 2)), 6),
                 R.Cage(((0, 3), (1, 3), (1, 2)), 9)):
        puzzle = empty(4, (cage,))
        expected = {grid for grid in grids if check(puzzle, grid) == []}
        got = backend(encoding).solve(puzzle, limit=None)
        assert set(got.solutions) == expected and got.count == len(expected)
        assert got.count == NorvigBackend().solve(puzzle, limit=None).count
    assert len({grid for grid in grids if grid[0] + grid[1] == 3}) == 48


def test_counting_a_killer_blocks_on_cell_variables_only():
    the_engine = Engine(cnf.base(KILLER.box, KILLER.rules), "cadical195")
    assert the_engine.formula.selectors > 0 and the_engine.top > 729
    added = []
    add_clause = the_engine.solver.add_clause
    the_engine.solver.add_clause = lambda clause, **kw: (added.append(clause),
                                                         add_clause(clause, **kw))[1]
    solutions, complete, _ = the_engine.search([], list(range(81)), None, Deadline(None))
    the_engine.solver.delete()
    assert complete and set(solutions) == set(SatBackend().solve(KILLER, limit=None).solutions)
    act = the_engine.top  # the one activation literal, above the selectors
    blocking, retire = added[:-1], added[-1]
    assert retire == [-act] and len(blocking) == len(solutions)
    assert all(clause[0] == -act and all(-729 <= lit < 0 for lit in clause[1:])
               for clause in blocking)


def test_the_sat_backend_supports_every_rule():
    assert set(SatBackend.supported_rules) == set(R.RULE_TYPES)
    assert SatBackend().unsupported(KILLER) == ""


def test_statistics_and_times():
    result = SatBackend().solve(TOP95[1], limit=2)
    stats = result.stats
    assert stats["variables"] == 729 and stats["clauses"] == 11988
    assert all(stats[key] >= 0 for key in ("conflicts", "decisions", "propagations",
                                           "restarts"))
    assert stats["propagations"] > 0 and 0 < stats["solver_time"] <= result.solve_time
    assert result.build_time >= 0


def test_counting_stops_at_the_timeout_with_what_it_found():
    result = SatBackend().solve(empty(9), limit=None, timeout=0.2)
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count == len(result.solutions) >= 1
    assert all(check(empty(9), grid) == [] for grid in result.solutions)


HARD = empty(16, (R.AntiKnight(), R.AntiKing(), R.Diagonal()))  # >1000 conflicts for both


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_a_long_solve_is_cut_at_the_timeout_and_the_solver_stays_usable(solver):
    engine.cache_clear()  # a solver that has already solved HARD finds it easy
    sat = SatBackend(solver=solver)
    assert sat.solve(HARD, limit=1, timeout=1e-6).status is Status.TIMEOUT
    grid = SatBackend().solve(HARD, limit=1).solutions[0]
    easier = HARD.with_values(tuple(d if i % 3 else 0 for i, d in enumerate(grid)))
    result = sat.solve(easier, limit=1)
    assert result.status is Status.SOLVED and check(easier, result.solutions[0]) == []


def test_the_timer_interrupts_a_solver_that_supports_it():
    hard = Engine(cnf.base(HARD.box, HARD.rules), "glucose4")  # 100,000+ conflicts
    assert hard.stop == "interrupt"
    assert hard.run_until([], 0.05) is None
    grid = SatBackend().solve(HARD, limit=1).solutions[0]
    assert hard.run([i * 16 + d for i, d in enumerate(grid)], Deadline(None)) is True


def test_backend_specs_and_bad_options():
    sat = make_backend("sat:solver=glucose4,encoding=minimal,amo=seqcounter")
    assert (sat.solver, sat.encoding, sat.amo) == ("glucose4", "minimal", "seqcounter")
    for bad in ("sat:solver=nosuch", "sat:encoding=clever", "sat:amo=magic",
                "sat:solver=glucose4,amo=native", "sat:solver=kissat404", "sat:colour=red"):
        with pytest.raises(ValueError):
            make_backend(bad)


def test_available_names_pysat_and_cadical():
    availability = SatBackend.available()
    assert availability.ok and "python-sat" in availability.version
    assert "CaDiCaL 1.9.5" in availability.version


def test_describe_lists_clauses_per_part():
    text = SatBackend().describe(empty(9, (R.AntiKnight(),)))
    assert "729" in text and "anti-knight" in text and "2,016" in text and "14,004" in text


def test_describe_counts_the_clauses_of_a_cage():
    text = SatBackend().describe(empty(9, (R.Cage(((0, 0), (0, 1), (0, 2)), 15),)))
    assert "737" in text and "8 digit sets" in text
    assert any(line.split() == ["cage", "197"] for line in text.splitlines())


def test_cached_solvers_are_freed_before_interpreter_teardown():
    # PySAT's own __del__ fails once teardown has begun (pytest showed the TypeErrors), so
    # the backend frees its cached solvers in an exit handler; one registered before the
    # backend is imported runs after it, and sees what is left
    program = """if True:
        import atexit
        def left():
            from sudokulab.backends import sat
            print("still loaded:", sum(e.solver is not None for e in sat.LIVE), len(sat.LIVE))
        atexit.register(left)
        from sudokulab.backends import make_backend
        from sudokulab.puzzle import empty
        make_backend("sat").solve(empty(9))
        make_backend("sat").solve(empty(4))
        """
    child = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert (child.returncode, child.stdout, child.stderr) == (0, "still loaded: 0 2\n", "")


@pytest.mark.parametrize("name", ["samurai", "jigsaw"])
def test_the_augmented_encoding_declines_a_samurai_and_a_jigsaw_as_unsupported(name):
    """Its triads need the classic boxes of one grid: an unsupported rule, not an error."""
    import json
    from pathlib import Path

    from sudokulab.formats.text import from_json, parse

    data = Path(__file__).parent / "data"
    puzzle = (parse((data / "samurai.txt").read_text()) if name == "samurai"
              else from_json(json.dumps(json.loads((data / "variants.json").read_text())[name])))
    result = backend("augmented").solve(puzzle)
    assert result.status is Status.UNSUPPORTED, result.message
    assert "augmented" in result.message and ".py" not in result.message
    assert backend("extended").solve(puzzle).status is Status.UNIQUE


def test_an_unsupported_rule_raised_while_encoding_comes_back_unsupported(monkeypatch):
    """A model's UnsupportedRule guard met during a solve is a rule it lacks, not a failure:
    UNSUPPORTED with the guard's words, and no source path."""
    from sudokulab.errors import UnsupportedRule

    def refuse(*args, **kwargs):
        raise UnsupportedRule("the CNF encodings do not compile rule(s): made-up")

    monkeypatch.setattr(cnf, "optimized", refuse)
    result = backend("optimized").solve(TOP95[0])
    assert result.status is Status.UNSUPPORTED
    assert result.message == "the CNF encodings do not compile rule(s): made-up"


def test_check_backend_passes_the_augmented_encoding_on_the_variant_rules():
    """The contract takes an engine's unsupported() as its word: a jigsaw declined is kept."""
    from sudokulab.harness.contract import check_rules

    assert check_rules(backend("augmented")) == []
