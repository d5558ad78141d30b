"""The asp backend and sudoku.lp: the bundled solutions, exact counts, limits, timeouts,
and the program run by clingo alone (the header's commands, `export --to asp`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from made_up_rules import CentreDot, Secret

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import asp as asp_backend
from sudokulab.backends import make_backend
from sudokulab.backends.norvig import NorvigBackend
from sudokulab.check import check
from sudokulab.formats.text import format_line, from_json, to_json
from sudokulab.geometry import geometry
from sudokulab.models import asp
from sudokulab.puzzle import Puzzle, empty
from sudokulab.result import Status

ROOT = Path(asp_backend.__file__).resolve().parents[2]
backend = make_backend("asp")
norvig = NorvigBackend()
NO_SOLUTION = Puzzle((2, 2), (1, 2, 3, 0,
                              0, 0, 0, 4,
                              0, 0, 0, 0,
                              0, 0, 0, 0))  # r1c4 must be 4, but column 4 has its 4
MIRACLE = empty(9, R.MIRACLE).with_values([1 if cell == 4 * 9 + 2 else 2 if cell == 5 * 9 + 6
                                           else 0 for cell in range(81)])  # r5c3 1, r6c7 2


def test_available_names_clingo_version():
    ready = backend.available()
    assert ready.ok and ready.version.startswith("clingo 5.")


def test_without_clingo_it_says_why_and_how_to_fix_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "clingo", None)  # as if it were not installed
    ready = backend.available()
    assert not ready.ok and "clingo" in ready.reason and "sudokulab[asp]" in ready.fix


def test_top95_gives_the_bundled_solutions():
    for puzzle, solution in zip(datasets.load("top95"), datasets.solutions("top95")):
        result = backend.solve(puzzle)
        assert (result.status, result.solutions) == (Status.UNIQUE, (solution,)), puzzle
        assert {"choices", "conflicts", "rules", "atoms"} <= set(result.stats)


def test_the_statistics_read_lazily_are_clingos_public_ones(monkeypatch):
    backend.solve(datasets.load("top95")[1])
    warm = asp_backend.engine((3, 3), ())
    lazy = warm.statistics()
    from clingo import _internal

    monkeypatch.delattr(_internal, "_lib")  # as with a clingo whose internals differ
    assert warm.statistics() == lazy and lazy["atoms"] > 729


@pytest.mark.parametrize("puzzle, limit, status, count, exact", [
    (datasets.load("top95")[0], 1, Status.SOLVED, 1, False),
    (datasets.load("top95")[0], 2, Status.UNIQUE, 1, True),
    (empty(4), 1, Status.SOLVED, 1, False),
    (empty(4), 2, Status.MULTIPLE, 2, False),
    (empty(4), 300, Status.MULTIPLE, 288, True),
    (NO_SOLUTION, 2, Status.NONE, 0, True),
    (NO_SOLUTION, None, Status.NONE, 0, True),
])
def test_the_limit_stops_the_enumeration(puzzle, limit, status, count, exact):
    result = backend.solve(puzzle, limit=limit)
    assert (result.status, result.count, result.exact) == (status, count, exact)
    assert len(result.solutions) == count
    assert all(check(puzzle, grid) == [] for grid in result.solutions)


def test_other_shapes_count_like_norvig():
    six = Puzzle((2, 3), tuple(range(1, 7)) + (0,) * 30)
    result = backend.solve(six, limit=None, timeout=60)
    assert result.count == norvig.solve(six, limit=None).count == 39168
    for size in (16, 25):  # the same program grounds every shape
        answer = backend.solve(empty(size), limit=1)
        assert answer.status == Status.SOLVED and check(empty(size), answer.solutions[0]) == []


def test_a_timeout_stops_a_count_with_the_grids_found_so_far():
    result = backend.solve(empty(9), limit=None, timeout=0.2)
    assert result.status == Status.TIMEOUT and not result.exact
    assert result.count == len(result.solutions)
    assert all(check(empty(9), grid) == [] for grid in result.solutions)
    # clingo stopped: the same warm engine answers the next puzzle at once
    assert backend.solve(empty(9), limit=1).status == Status.SOLVED


def test_an_interrupt_between_two_searches_does_not_cut_the_next_one_short():
    warm = asp_backend.engine((2, 2), ())
    warm.control.interrupt()  # as Ctrl-C after a search had ended
    asp_backend.forget_interrupt(warm.control)
    assert backend.solve(empty(4), limit=None).count == 288


def test_the_ground_units_are_the_geometrys():
    """sudoku.lp derives its units from the rule facts: they are the geometry's units."""
    for box in [(2, 2), (2, 3), (3, 3)]:
        n = box[0] * box[1]
        broken_diagonal = tuple((i, (i + 1) % n) for i in range(n))  # N cells: a unit
        for rules in [(), (R.Diagonal(), R.Windoku()), (R.MainDiagonal(), R.DisjointGroups()),
                      (R.AntiDiagonal(), R.ExtraRegion(broken_diagonal),
                       R.SumlessCage(((0, 0), (1, 0))))]:
            warm = asp_backend.engine(box, rules)
            units: dict = {}
            for atom in warm.control.symbolic_atoms.by_signature("in", 3):
                unit, row, col = atom.symbol.arguments
                units.setdefault(str(unit), set()).add((row.number - 1) * n + col.number - 1)
            expected = {frozenset(unit) for unit in geometry(box, rules).units}
            assert {frozenset(cells) for cells in units.values()} == expected


def test_every_rule_becomes_facts_and_an_unknown_one_is_refused():
    cage = R.Cage(((0, 0), (0, 1)), 3)
    facts = asp.rule_facts((3, 3), (R.AntiKnight(), cage, R.Parity(((8, 8),), True)))
    assert facts[:6] == ["box(3,3).", "anti_knight.", "cage(1,3).", "cage_cell(1,1,1).",
                         "cage_cell(1,1,2).", "even(9,9)."]
    # then the rule of 45: the rest of row 1, and of box 1, hold 45 - 3
    row = [f"cage_cell(2,1,{c})." for c in range(3, 10)]
    box = [f"cage_cell(3,{r},{c})." for r, c in ((1, 3), (2, 1), (2, 2), (2, 3), (3, 1),
                                                  (3, 2), (3, 3))]
    assert facts[6:] == ["cage(2,42).", *row, "cage(3,42).", *box]
    with pytest.raises(ValueError, match="cannot express rule quadruple"):
        asp.rule_facts((3, 3), (Quadruple(),))
    result = backend.solve(Puzzle((2, 2), (0,) * 16, (Quadruple(),)))
    assert result.status == Status.UNSUPPORTED and "quadruple" in result.message


def test_a_rule_made_of_units_and_moves_reaches_the_program_through_its_geometry():
    facts = asp.rule_facts((3, 3), (CentreDot(),))
    assert facts[1:10] == [f"unit_cell(1,{r},{c})." for r in (2, 5, 8) for c in (2, 5, 8)]
    assert facts[10] == "differ(1,1,5,5)." and len(facts) == 1 + 9 + 25
    puzzle = Puzzle((3, 3), (0,) * 81, (CentreDot(),))
    run = subprocess.run([sys.executable, "-m", "clingo", "-", "1", "--outf=2"],
                         input=asp.to_lp(puzzle), capture_output=True, text=True, check=False)
    atoms = json.loads(run.stdout)["Call"][0]["Witnesses"][0]["Value"]
    triples = [tuple(int(v) for v in atom[2:-1].split(",")) for atom in atoms
               if atom.startswith("x(")]
    grid = {(r, c): d for r, c, d in triples}
    centres = [grid[r, c] for r in (2, 5, 8) for c in (2, 5, 8)]
    assert sorted(centres) == list(range(1, 10))
    assert all(grid[r, c] != grid[r + 4, c + 4] for r in range(1, 6) for c in range(1, 6))
    with pytest.raises(ValueError, match="cannot express rule secret"):
        asp.rule_facts((3, 3), (Secret(),))


def test_the_header_documents_and_declares_every_fact_a_rule_adds():
    header = asp.program().split("% THE RULES", 1)[0]
    columns = [line[4:].split("  ")[0] for line in header.splitlines()
               if line.startswith("%   ")]  # each fact the header lists, before its meaning
    documented = {(name, len(args.split(",")) if args else 0) for column in columns
                  for name, args in re.findall(r"(\w+)(?:\(([^)]*)\))?\.", column)}
    declared = {(name, int(arity))
                for name, arity in re.findall(r"#defined (\w+)/(\d+)\.", header)}
    puzzles = [from_json(json.dumps(data)) for data in VARIANTS.values()]
    assert {type(rule) for puzzle in puzzles for rule in puzzle.rules} == set(R.RULE_TYPES)
    for puzzle in puzzles:
        for fact in asp.rule_facts(puzzle.box, puzzle.rules):
            name, _, args = fact.removesuffix(".").removesuffix(")").partition("(")
            arity = len(re.split(r",(?![^(]*\))", args)) if args else 0  # row(3),10: two
            assert (name, arity) in documented, fact
            assert (name, arity) in declared or name == "box", fact


def test_the_facts_of_lines_dots_and_sums():
    rules = (R.Thermometer(((0, 0), (0, 1))), R.Arrow(((1, 1), (1, 2), (2, 2))),
             R.Kropki(white=(((3, 1), (3, 0)),), black=(((2, 0), (3, 0)),), negative=True),
             R.ConsecutiveMarks((((0, 2), (0, 3)),)), R.Sandwich(True, 2, 0),
             R.SumlessCage(((2, 3), (3, 3))), R.LittleKiller(((1, 0), (2, 1)), 5))
    assert asp.facts_by_rule((2, 2), rules) == {
        "shape": ["box(2,2)."],
        "thermometer": ["thermo(1,1,1,1).", "thermo(1,2,1,2)."],
        "arrow": ["circle(1,2,2).", "shaft(1,2,3).", "shaft(1,3,3)."],
        # the pair in reading order; "no dot" is negative facts of the rule's number
        "kropki": ["negative(1,white).", "negative(1,black).", "mark(1,white,4,1,4,2).",
                   "mark(1,black,3,1,4,1)."],
        "consecutive-marks": ["negative(2,white).", "mark(2,white,1,3,1,4)."],
        "sandwich": ["sandwich(column(3),0)."],
        "cage-without-sum": ["cage_cell(1,3,4).", "cage_cell(1,4,4)."],
        "little-killer": ["little_killer(1,5).", "diagonal_cell(1,2,1).",
                          "diagonal_cell(1,3,2)."],
    }


def test_a_negative_constraint_spares_only_its_own_rules_marks():
    """The marks of rule K (mark(K,...)) exempt neighbours from negative(K,...) alone."""
    grid = backend.solve(empty(4), limit=1).solutions[0]
    pairs = [((r, c), (r2, c2)) for r in range(4) for c in range(4)
             for r2, c2 in ((r + 1, c), (r, c + 1)) if r2 < 4 and c2 < 4]
    value = {(r, c): grid[r * 4 + c] for r in range(4) for c in range(4)}
    white = tuple(p for p in pairs if abs(value[p[0]] - value[p[1]]) == 1)
    black = tuple(p for p in pairs if {value[p[0]], value[p[1]]} in ({1, 2}, {2, 4}))
    black = tuple(p for p in black if p not in white)
    assert len(black) > 1
    one_rule = empty(4, (R.Kropki(white, black, negative=True),))
    assert grid in backend.solve(one_rule, limit=None).solutions
    # the same dots split over two rules: the first says its unmarked pairs are no black
    # pair, and the second's black dots are unmarked in the first
    two_rules = empty(4, (R.Kropki(white, black[:1], negative=True), R.Kropki(black=black[1:])))
    assert check(two_rules, grid) != []
    assert backend.solve(two_rules, limit=None).status == Status.NONE


def test_describe_shows_each_rules_facts_under_its_name():
    puzzle = from_json(json.dumps(VARIANTS["kropki-negative"]))
    text = backend.describe(puzzle)
    assert "% Marks between neighbours" in text and "% Related digits" in text
    assert "% Thermometers" not in text
    assert "    kropki:\n      negative(1,white). negative(1,black). mark(1,white," in text


@dataclass(frozen=True)
class Quadruple:
    """A rule sudoku.lp does not know (a stand-in for one added to rules.py later)."""

    name = "quadruple"


def test_describe_shows_the_rules_the_facts_and_the_ground_program():
    text = backend.describe(MIRACLE)
    assert "1 { x(R,C,D) : digit(D) } 1 :- cell(R,C)." in text
    assert "% Anti-knight and anti-king" in text and "% Non-consecutive" in text
    assert "% Killer cages" not in text  # only the variants this puzzle has
    assert "box(3,3).\n    anti-knight:\n      anti_knight.\n    anti-king:" in text
    assert "given(5,3,1) given(6,7,2)" in text
    assert re.search(r"\d+ rules over \d+ atoms", text)


def clingo(*args: str, stdin: str = "") -> str:
    """Run clingo (the Python package's command) from the repository root."""
    run = subprocess.run([sys.executable, "-m", "clingo", *args], input=stdin, cwd=ROOT,
                         capture_output=True, text=True)
    # `python -m clingo` exits with 0; a clingo binary with 10 (SAT), 20 (UNSAT) or 30 (all)
    assert run.returncode in (0, 10, 20, 30) and "SATISFIABLE" in run.stdout, run.stderr
    assert run.stderr == ""  # not even an info about an undefined atom
    return run.stdout


def grids(output: str, n: int) -> list[tuple[int, ...]]:
    """The grids of clingo's answer sets, from its printed x(R,C,D) atoms."""
    found = []
    for line in output.splitlines():
        atoms = re.findall(r"x\((\d+),(\d+),(\d+)\)", line)
        if atoms:
            grid = [0] * (n * n)
            for r, c, d in atoms:
                grid[(int(r) - 1) * n + int(c) - 1] = int(d)
            found.append(tuple(grid))
    return found


def models(output: str) -> int:
    """clingo's count of answer sets."""
    return int(re.search(r"^Models\s*:\s*(\d+)", output, re.MULTILINE)[1])


VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())


@pytest.mark.parametrize("name", ["top95", "miracle", *sorted(VARIANTS)])
def test_export_to_asp_runs_in_clingo_alone(tmp_path, name):
    puzzle = {"top95": datasets.load("top95")[0], "miracle": MIRACLE}.get(name) or \
        from_json(json.dumps(VARIANTS[name]))
    target = tmp_path / "puzzle.lp"
    run = subprocess.run([sys.executable, "-m", "sudokulab.cli", "export", "--to", "asp",
                          "-", "-o", str(target)], input=to_json(puzzle), cwd=ROOT,
                         capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (0, f"sudokulab: wrote {target}\n")
    output = clingo(str(target), "0")
    assert models(output) == 1
    assert grids(output, 9) == list(norvig.solve(puzzle).solutions)


def header_commands() -> list[str]:
    """The shell commands in sudoku.lp's header, continuation lines joined."""
    header = asp.program().split("% THE RULES", 1)[0]
    lines = [line[1:].strip() for line in header.splitlines() if line.startswith("%   ")]
    text = "\n".join(lines).replace("\\\n", " ")
    return [line for line in text.splitlines() if "clingo" in line and "|" in line]


def test_the_header_commands_run():
    empty4, miracle, export = header_commands()
    local = {".venv/bin/python": sys.executable,
             ".venv/bin/sudokulab": f"{sys.executable} -m sudokulab.cli",
             "PUZZLE": format_line(datasets.load("top95")[0])}
    outputs = []
    for command in (empty4, miracle, export):
        for old, new in local.items():
            command = command.replace(old, new)
        run = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True)
        assert run.returncode in (0, 10, 30) and "SATISFIABLE" in run.stdout, run.stderr
        assert "warning" not in run.stderr.lower() and "info" not in run.stderr.lower()
        outputs.append(run.stdout)
    assert models(outputs[0]) == 288
    assert grids(outputs[1], 9) == [norvig.solve(MIRACLE).solutions[0]]
    assert grids(outputs[2], 9) == [datasets.solutions("top95")[0]]
