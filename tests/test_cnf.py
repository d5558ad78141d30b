"""Facts about the CNF encodings, checked on the formulas themselves."""

import subprocess
import sys
from itertools import combinations

import pytest
from pysat.formula import CNF, CNFPlus
from pysat.solvers import Solver

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.check import check
from sudokulab.geometry import geometry
from sudokulab.models import cnf
from sudokulab.puzzle import Puzzle, empty

JIGSAW_4 = R.Jigsaw((((0, 0), (0, 1), (1, 0), (2, 0)), ((0, 2), (0, 3), (1, 3), (2, 3)),
                     ((1, 1), (1, 2), (2, 1), (2, 2)), ((3, 0), (3, 1), (3, 2), (3, 3))))


@pytest.mark.parametrize("encoding, clauses", [("minimal", 8829), ("efficient", 11745),
                                               ("extended", 11988)])
def test_empty_9x9_has_the_published_counts(encoding, clauses):
    formula = cnf.encode(empty(9), encoding)
    assert formula.variables == 729
    assert formula.cnf.nv == 729
    assert len(formula.cnf.clauses) == formula.size == clauses


def test_parts_of_the_extended_encoding():
    assert cnf.clause_counts(empty(9)) == {"cell": 81 + 81 * 36, "row": 81 + 81 * 36,
                                           "column": 81 + 81 * 36, "box": 81 + 81 * 36}


def test_variable_numbering():
    assert cnf.var(9, 0, 1) == 1
    assert cnf.var(9, 1, 1) == 10    # r1c2
    assert cnf.var(9, 9, 1) == 82    # r2c1
    assert cnf.var(9, 80, 9) == 729  # r9c9
    assert cnf.var(16, 255, 16) == 16 ** 3
    cells = {lit for clause in cnf.encode(empty(9)).cnf.clauses for lit in map(abs, clause)}
    assert cells == set(range(1, 730))


@pytest.mark.parametrize("amo", [a for a in cnf.AMO_ENCODINGS if a not in ("pairwise", "native")])
def test_auxiliary_variables_sit_above_the_cell_variables(amo):
    formula = cnf.encode(empty(9), "extended", amo)
    used = {abs(lit) for clause in formula.cnf.clauses for lit in clause}
    aux = used - set(range(1, 730))
    assert aux and min(aux) == 730 and max(aux) == formula.cnf.nv
    assert formula.variables == 729 + len(aux)


def test_native_at_most_one_is_one_constraint_per_group():
    formula = cnf.encode(empty(9), "extended", "native")
    assert isinstance(formula.cnf, CNFPlus)
    assert len(formula.cnf.atmosts) == 81 + 3 * 81
    assert all(bound == 1 and len(lits) == 9 for lits, bound in formula.cnf.atmosts)
    assert len(formula.cnf.clauses) == 81 + 3 * 81  # the at-least-one clauses
    assert formula.size == 2 * (81 + 3 * 81)


def test_rules_add_their_own_parts():
    n = 9
    pairs = lambda k: k * (k - 1) // 2  # noqa: E731
    counts = cnf.clause_counts(empty(9, (R.Diagonal(), R.Windoku())))
    assert counts["diagonal"] == 2 * n * (1 + pairs(n))
    assert counts["windoku"] == 4 * n * (1 + pairs(n))
    geo = geometry((3, 3), (R.AntiKnight(), R.AntiKing()))
    counts = cnf.clause_counts(empty(9, (R.AntiKnight(), R.AntiKing(), R.NonConsecutive())))
    assert counts["anti-knight"] + counts["anti-king"] == len(geo.moves) * n
    assert counts["anti-knight"] == 2 * (8 * 7 + 7 * 8) * n
    assert counts["anti-king"] == (9 * 8 + 9 * 8 + 2 * 8 * 8) * n
    assert counts["non-consecutive"] == (2 * 9 * 8) * 2 * (n - 1)


def test_parity_rules_out_digits_of_the_wrong_parity():
    rule = R.Parity(((0, 0), (4, 4)), even=True)
    formula = cnf.encode(empty(9, (rule,)))
    units = [clause for clause in formula.cnf.clauses if len(clause) == 1]
    assert sorted(units) == sorted([[-(cell * 9 + d)] for cell in (0, 40) for d in (1, 3, 5, 7, 9)])


def test_jigsaw_regions_replace_boxes():
    counts = cnf.clause_counts(empty(4, (JIGSAW_4,)))
    assert "box" not in counts
    assert counts["jigsaw"] == counts["row"]


def test_a_cage_is_compiled_by_its_digit_sets():
    # r1c1+r1c2+r1c3=15: 8 sets of 3 digits ({1,5,9} ... {4,5,6}), one selector each
    cage = R.Cage(((0, 0), (0, 1), (0, 2)), 15)
    formula = cnf.encode(empty(9, (cage,)))
    assert cnf.digit_sets(3, 15, 9)[0] == (1, 5, 9) and len(cnf.digit_sets(3, 15, 9)) == 8
    assert formula.selectors == 8 and formula.cnf.nv == 729 + 8 and formula.variables == 737
    # 1 at-least-one + 28 pairwise at-most-one over the selectors, 8 * 3 cells * 6 digits
    # outside the set, 8 * 3 "each digit of the set is in the cage"; the cells share a row,
    # so the cells-differ clauses are left out
    assert formula.parts["cage"] == 1 + 28 + 8 * 3 * 6 + 8 * 3 == 197
    selectors = {abs(lit) for clause in formula.cnf.clauses for lit in clause} - set(range(1, 730))
    assert selectors == set(range(730, 738))
    scattered = R.Cage(((0, 0), (1, 3), (5, 5)), 15)  # no unit holds all three
    assert cnf.clause_counts(empty(9, (scattered,)))["cage"] == 197 + 9 * 3


@pytest.mark.parametrize("amo", ["seqcounter", "native"])
def test_cage_selectors_and_at_most_one_auxiliaries_never_collide(amo):
    cages = (R.Cage(((0, 0), (1, 3), (5, 5)), 15), R.Cage(((8, 8), (8, 7)), 10))
    formula = cnf.encode(empty(9, cages), "extended", amo)
    assert formula.selectors == 8 + 4
    card = cnf.encode(empty(9), "extended", amo).cnf.nv - 729
    # seqcounter: k-1 auxiliaries per group of k: the selectors of each cage (8 and 4),
    # and the cells of the scattered cage for each digit (3)
    extra = 0 if amo == "native" else 7 + 3 + 9 * 2
    assert formula.cnf.nv == 729 + card + formula.selectors + extra
    if amo != "native":
        used = {abs(lit) for clause in formula.cnf.clauses for lit in clause}
        assert used == set(range(1, formula.cnf.nv + 1))


def test_a_cage_no_digits_fill_gets_the_empty_clause():
    for cage in (R.Cage(((0, 0), (0, 1)), 2), R.Cage(((0, 0), (0, 1)), 18),
                 R.Cage(tuple((0, c) for c in range(4)), 9)):
        assert not cnf.digit_sets(len(cage.cells), cage.total, 9)
        for encoding in cnf.ENCODINGS:
            assert [] in cnf.encode(empty(9, (cage,)), encoding).cnf.clauses


def test_dimacs_of_a_cage_puzzle_read_back_and_solved_is_valid():
    solution = datasets.solutions("top95")[0]
    dominoes = tuple(R.Cage(((r, c), (r, c + 1)), solution[r * 9 + c] + solution[r * 9 + c + 1])
                     for r in range(9) for c in range(0, 8, 2))
    puzzle = empty(9, dominoes)
    for encoding, amo in (("extended", "pairwise"), ("minimal", "seqcounter")):
        text = cnf.to_dimacs(puzzle, encoding, amo)
        assert "cage" in next(line for line in text.splitlines() if "per part" in line)
        with Solver(name="cadical195", bootstrap_with=CNF(from_string=text)) as solver:
            assert solver.solve()
            grid = cnf.encode(puzzle, encoding, amo).decode(solver.get_model())
        assert check(puzzle, grid) == []


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="encoding"):
        cnf.encode(empty(4), "clever")
    with pytest.raises(ValueError, match="at-most-one"):
        cnf.encode(empty(4), "extended", "magic")


def test_encodings_never_import_a_solver():
    code = ("import sys; from sudokulab.models.cnf import to_dimacs; "
            "from sudokulab.puzzle import empty; to_dimacs(empty(4)); "
            "print('pysat.solvers' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_dimacs_states_the_encoding_maps_variables_and_holds_the_givens():
    puzzle = datasets.load("top95")[0]
    text = cnf.to_dimacs(puzzle, "minimal", "pairwise")
    lines = text.splitlines()
    assert "c var 1 = r1c1 d1" in lines and "c var 729 = r9c9 d9" in lines
    assert any("encoding minimal" in line for line in lines if line.startswith("c "))
    header = next(line for line in lines if line.startswith("p "))
    assert header == f"p cnf 729 {8829 + puzzle.clues}"
    for lit in cnf.givens_literals(puzzle):
        assert f"{lit} 0" in lines


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_dimacs_read_back_and_solved_gives_the_solution(encoding):
    puzzle, solution = datasets.load("top95")[3], datasets.solutions("top95")[3]
    formula = CNF(from_string=cnf.to_dimacs(puzzle, encoding, "seqcounter"))
    with Solver(name="cadical195", bootstrap_with=formula) as solver:
        assert solver.solve()
        model = solver.get_model()
    assert cnf.encode(puzzle, encoding).decode(model) == solution


def test_native_dimacs_is_read_by_minicard():
    puzzle, solution = datasets.load("top95")[5], datasets.solutions("top95")[5]
    text = cnf.to_dimacs(puzzle, "extended", "native")
    assert "p cnf+ 729" in text and " <= 1" in text
    with Solver(name="minicard", bootstrap_with=CNFPlus(from_string=text)) as solver:
        assert solver.solve()
        assert cnf.encode(puzzle).decode(solver.get_model()) == solution


def test_export_help_says_native_amo_is_no_plain_dimacs(capsys):
    # held-out issue 53: the help said "dimacs: for any SAT solver", but --amo native
    # writes MiniCard's 'p cnf+' (the test above), which a plain SAT solver refuses
    from sudokulab.cli import main

    with pytest.raises(SystemExit) as done:
        main(["export", "--help"])
    assert done.value.code == 0
    said = " ".join(capsys.readouterr().out.split())  # argparse's wrapping undone
    dimacs = said[said.index("dimacs DIMACS CNF"):said.index("smt2 SMT-LIB 2")]
    assert "--amo native" in dimacs and "'p cnf+'" in dimacs and "MiniCard" in dimacs
    start = said.index("--amo AMO at-most-one")
    amo = said[start:said.index("--model MODEL", start)]
    assert "native writes 'p cnf+'" in amo and "no plain SAT solver" in amo


def test_optimized_leaves_out_what_the_givens_decide():
    puzzle = datasets.load("top95")[0]
    formula = cnf.encode(puzzle, "optimized")
    extended = cnf.encode(puzzle, "extended")
    assert formula.variables < 729 and formula.size < extended.size
    geo = geometry(puzzle.box)
    decided = {cell * 9 + d for cell, g in enumerate(puzzle.givens) if g for d in range(1, 10)}
    decided |= {peer * 9 + g for cell, g in enumerate(puzzle.givens) if g
                for peer in geo.peers[cell]}
    rule_clauses = formula.cnf.clauses[:-puzzle.clues]  # the unit clauses at the end: givens
    assert not {abs(lit) for clause in rule_clauses for lit in clause} & decided
    assert formula.parts["given"] == puzzle.clues


def test_optimized_says_contradictory_givens_with_the_empty_clause():
    givens = (5, 5) + (0,) * 79
    formula = cnf.optimized(Puzzle((3, 3), givens))
    assert [] in formula.cnf.clauses


def test_optimized_at_most_one_groups_are_the_pairs_of_candidates():
    puzzle = datasets.load("top95")[0]
    formula = cnf.optimized(puzzle)
    binary = {tuple(sorted(map(abs, c))) for c in formula.cnf.clauses if len(c) == 2}
    for cell in range(81):
        if not puzzle.givens[cell]:
            kept = sorted(v for v in range(cell * 9 + 1, cell * 9 + 10)
                          if v in formula.candidates)
            assert all(pair in binary for pair in combinations(kept, 2))
