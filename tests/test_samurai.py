"""Multi-grid puzzles (issue 19): a samurai, five 9x9 grids overlapping in corner boxes.

data/samurai.txt and data/samurai.solution.txt are the puzzle and solution of the test
`samuraisudoku_easy` in wangds/puzzle-solver, tests/samuraisudoku.rs (commit 65222f24),
a Rust constraint solver's test suite that credits samurai-sudoku.com; transcribed into
sudokulab's board form (spaces for the void, '.' for a blank), digits unchanged.
data/samurai.hard1.solution.txt is a solution from another project's tests,
bryanlimy/samurai-sudoku-solver, tests/hard1_solution.txt (commit 3c95b363), kept in
that project's own form ('.' where no cell is): a second source for where the five grids
lie and how they overlap.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import rules as R
from sudokulab.backends import backend_class, make_backend, names, with_capability
from sudokulab.check import check, violations
from sudokulab.cli import main
from sudokulab.errors import PuzzleError
from sudokulab.formats.files import read_file, read_text
from sudokulab.formats.text import format_grid, format_line, parse, to_json
from sudokulab.geometry import geometry
from sudokulab.layout import SAMURAI, Layout
from sudokulab.puzzle import Puzzle
from sudokulab.result import Status

DATA = Path(__file__).parent / "data"
# every backend that takes several grids, and the options with their own encodings
# (sat's per-puzzle CNF, cpsat's integer model)
ENGINES = with_capability("multi_grid") + ["sat:encoding=optimized", "cpsat:model=int"]
BOARD = (DATA / "samurai.txt").read_text()
PUZZLE = parse(BOARD)
SOLUTION = parse((DATA / "samurai.solution.txt").read_text()).givens


def at(puzzle: Puzzle, row: int, col: int, digit: int) -> Puzzle:
    """The puzzle with one more given, at a board (row, col) counted from 0."""
    values = list(puzzle.givens)
    values[SAMURAI.index[row, col]] = digit
    return puzzle.with_values(values)


def run(*argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the command line run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


# --- the geometry: facts of the board --------------------------------------------------

def test_a_samurai_board_has_369_cells_and_131_units():
    geo = geometry((3, 3), (), SAMURAI)
    assert len(geo.cells) == 369 and SAMURAI.height == SAMURAI.width == 21
    assert len(geo.units) == 5 * 27 - 4  # the four shared boxes count once
    assert all(len(unit) == 9 for unit in geo.units)


def test_a_cell_of_a_shared_box_has_the_peers_of_both_grids():
    geo = geometry((3, 3), (), SAMURAI)
    shared = geo.cell(6, 6)  # r7c7: the top-left grid's box 9, the centre grid's box 1
    assert len(geo.peers[shared]) == 32 and len(geo.units_of[shared]) == 5
    assert len(geo.peers[geo.cell(0, 0)]) == 20
    assert sum(len(p) == 32 for p in geo.peers) == 4 * 9
    assert geo.cell(6, 10) in geo.peers[shared]  # the centre grid's row 1 reaches it
    assert geo.cell(6, 15) not in geo.peers[shared]  # the top-right grid's row alone
    assert geo.name(shared) == "r7c7"


def test_a_layout_refuses_grids_at_one_corner():
    with pytest.raises(PuzzleError, match="two grids at one corner"):
        Layout("twins", 9, ((0, 0), (0, 0)))


# --- reading and writing ---------------------------------------------------------------

def test_the_board_reads_as_a_samurai_with_its_givens():
    assert PUZZLE.layout is SAMURAI and PUZZLE.n == 9
    assert len(PUZZLE.givens) == 369 and PUZZLE.clues == 108
    assert PUZZLE.givens[SAMURAI.index[0, 2]] == 3 and PUZZLE.givens[SAMURAI.index[9, 9]] == 5


@pytest.mark.parametrize("void, blank", [("#", "."), ("-", "."), (".", "0")])
def test_void_marks_read_alike(void, blank):
    lines = [line for line in BOARD.splitlines() if not line.startswith("#")]
    drawn = "\n".join(line.ljust(21).replace(".", blank).replace(" ", void) for line in lines)
    assert parse(drawn) == PUZZLE
    assert read_text(drawn)[0].puzzle == PUZZLE  # a file: '#' there is no comment


@pytest.mark.parametrize("write", [format_line, to_json])
def test_the_line_and_json_forms_read_back(write):
    assert parse(write(PUZZLE)) == PUZZLE


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=369, max_size=369))
def test_any_board_round_trips_through_line_and_json(values):
    puzzle = PUZZLE.with_values(values)
    assert parse(format_line(puzzle)) == puzzle == parse(to_json(puzzle))


def test_a_file_of_samurai_lines_holds_many():
    text = format_line(PUZZLE) + "\n" + format_line(PUZZLE.with_values(SOLUTION)) + "\n"
    entries = read_text(text)
    assert [e.puzzle.layout for e in entries] == [SAMURAI, SAMURAI]
    assert entries[1].puzzle.givens == SOLUTION


def test_the_pretty_board_leaves_the_void_blank():
    lines = format_grid(PUZZLE.with_values(SOLUTION)).splitlines()
    assert lines[0].startswith("4 9 3 | 7 1 5 | 2 6 8 |") and lines[0].endswith("2 1 7")
    middle = lines[12]  # board row 10, under two rule lines
    assert middle.startswith(" " * 14 + "| 6 4 8 | 5 9 1 | 7 2 3 |")
    assert len(lines) == 21 + 6


@pytest.mark.parametrize("change, message", [
    (lambda lines: [lines[0][:4] + "x" + lines[0][5:]] + lines[1:], "line 1, column 5"),
    (lambda lines: [lines[0][:10] + "5" + lines[0][11:]] + lines[1:],
     "line 1, column 11: '5' lies between the grids"),
    (lambda lines: [lines[0][:4] + " " + lines[0][5:]] + lines[1:], "a cell is missing"),
])
def test_a_malformed_board_names_line_and_column(change, message):
    lines = [line for line in BOARD.splitlines() if not line.startswith("#")]
    with pytest.raises(PuzzleError, match=message):
        parse("\n".join(change(lines)))


def test_a_samurai_takes_no_variant_rules():
    with pytest.raises(PuzzleError, match="variant rules on several grids"):
        parse(format_line(PUZZLE), rules=[R.Diagonal()])


# --- the independent checker -----------------------------------------------------------

def test_the_published_solution_passes_the_checker():
    assert check(PUZZLE, SOLUTION) == [] and violations(PUZZLE, SOLUTION) == []


def test_the_checker_names_the_grid_that_breaks():
    wrong = list(SOLUTION)
    a, b = SAMURAI.index[9, 9], SAMURAI.index[9, 10]  # r10c10, r10c11: centre grid only
    wrong[a], wrong[b] = wrong[b], wrong[a]
    problems = check(PUZZLE, wrong)
    assert problems and all(p.where.startswith("centre grid") for p in problems)
    assert any("given 5 changed" in p.what for p in problems)  # r10c10 is a given


def test_the_checker_sees_a_shared_box_through_both_grids():
    wrong = list(SOLUTION)
    a, b = SAMURAI.index[6, 6], SAMURAI.index[6, 7]  # r7c7, r7c8: a box two grids share
    wrong[a], wrong[b] = wrong[b], wrong[a]
    grids = {p.where.split(" grid")[0] for p in check(PUZZLE, wrong)}
    assert grids == {"top-left", "centre"}


def test_the_checker_refuses_a_grid_of_the_wrong_length():
    assert "expected 369" in str(check(PUZZLE, SOLUTION[:81])[0])


def test_another_projects_samurai_solution_reads_and_passes_the_checker():
    solved = parse((DATA / "samurai.hard1.solution.txt").read_text())
    assert solved.layout is SAMURAI and solved.clues == 369
    assert check(solved.with_values([0] * 369), solved.givens) == []


@pytest.mark.parametrize("name", ENGINES)
def test_each_engine_fills_the_other_solution_thinned(name):
    solved = parse((DATA / "samurai.hard1.solution.txt").read_text())
    thinned = solved.with_values([d if i % 3 else 0 for i, d in enumerate(solved.givens)])
    result = make_backend(name).solve(thinned, limit=1)
    assert result.status is Status.SOLVED and check(thinned, result.solutions[0]) == []


# --- the engines solve it, and agree with the publisher --------------------------------

@pytest.mark.parametrize("name", ENGINES)
def test_each_engine_finds_the_published_solution(name):
    result = make_backend(name).solve(PUZZLE)
    assert result.status is Status.UNIQUE and result.solutions == (SOLUTION,)
    assert check(PUZZLE, result.solutions[0]) == []


@pytest.mark.parametrize("name", ENGINES)
def test_a_given_against_the_solution_in_a_shared_box_leaves_none(name):
    # r8c8 is in the top-left grid's box 9 and the centre grid's box 1; any digit there
    # but the solution's clashes with no given, so only search proves there is none
    row, col = 7, 7
    digit = next(d for d in range(1, 10) if d != SOLUTION[SAMURAI.index[row, col]]
                 and not _clashes(PUZZLE, row, col, d))
    result = make_backend(name).solve(at(PUZZLE, row, col, digit))
    assert result.status is Status.NONE and not result.message


def _clashes(puzzle: Puzzle, row: int, col: int, digit: int) -> bool:
    """Whether a digit at (row, col) repeats a given among its peers."""
    geo = geometry(puzzle.box, (), SAMURAI)
    return any(puzzle.givens[peer] == digit for peer in geo.peers[geo.cell(row, col)])


@pytest.mark.parametrize("name", ENGINES)
def test_the_empty_samurai_has_several_solutions_each_checked(name):
    result = make_backend(name).solve(PUZZLE.with_values([0] * 369))
    assert result.status is Status.MULTIPLE and len(set(result.solutions)) == 2
    assert all(check(PUZZLE.with_values([0] * 369), grid) == [] for grid in result.solutions)


@pytest.mark.parametrize("name", ENGINES)
def test_two_4x4_grids_sharing_a_box_have_3456_solutions(name):
    # a 4x4 grid has 288 solutions, 288 / 4! = 12 for each filling of a box; two grids
    # sharing one box: 24 fillings of it, times 12 completions in each grid
    twins = Layout("twins", 4, ((0, 0), (2, 2)))
    empty = Puzzle((2, 2), (0,) * twins.cell_count, layout=twins)
    assert twins.cell_count == 28
    backend = make_backend(name)
    if backend.slow_to_enumerate:  # its 4x4 count of 288 is in the contract suite
        pytest.skip(f"{backend.name}: {backend.slow_to_enumerate}")
    assert backend.solve(empty, limit=None).count == 24 * 12 * 12


def test_givens_that_clash_through_an_overlap_are_none_for_every_backend():
    # r7c9 is in both the top-left and the centre grid; r7c11 only in the centre grid:
    # the same digit in both clashes in the centre grid's row 1 alone
    broken = at(at(PUZZLE, 6, 8, 3), 6, 10, 3)
    for name in names():
        result = make_backend(name).solve(broken)
        assert result.status is Status.NONE, name
        assert "r7c9 and r7c11 (centre grid row 1)" in result.message


def test_every_other_backend_answers_unsupported_by_name():
    others = [name for name in names() if not backend_class(name).multi_grid]
    assert "human" in others and not {"norvig", "sat", "cpsat", "dlx"} & set(others)
    for name in others:
        result = make_backend(name).solve(PUZZLE)
        assert result.status is Status.UNSUPPORTED, name
        assert "multi-grid" in result.message and "samurai" in result.message


# --- the command line ------------------------------------------------------------------

def test_solve_prints_the_board_checked():
    code, out, _ = run("solve", "--file", str(DATA / "samurai.txt"), "-b", "sat")
    assert code == 0 and out.startswith("unique solution: 1 solution(s) [sat")
    assert "2 7 5 | 3 4 6 | 1 8 9" in out


def test_solve_line_output_is_the_published_solution():
    code, out, _ = run("solve", "--file", str(DATA / "samurai.txt"), "--format", "line")
    assert code == 0 and parse(out.strip()).givens == SOLUTION


def test_solve_with_a_single_grid_backend_is_unsupported():
    code, out, _ = run("solve", "--file", str(DATA / "samurai.txt"), "-b", "human")
    assert code == 5 and "human cannot solve multi-grid puzzles (samurai)" in out


def test_a_broken_board_is_one_line_and_exit_2(tmp_path):
    lines = BOARD.splitlines()
    lines[5] = lines[5][:3] + "q" + lines[5][4:]  # board row 4 (after the two comments)
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines))
    code, out, err = run("solve", "--file", str(path))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("sudokulab: error: ") and "line 6, column 4" in err


def test_a_command_of_one_grid_answers_unsupported_to_a_samurai_in_one_line():
    code, _, err = run("explain", "--file", str(DATA / "samurai.txt"))
    assert code == 5 and len(err.strip().splitlines()) == 1 and "not a samurai" in err


def test_compare_cross_checks_the_engines(tmp_path):
    # one with a cost per solve (solve_overhead) finds the published solution above
    quick = [spec for spec in ENGINES if not make_backend(spec).solve_overhead]
    code, out, _ = run("compare", "--file", str(DATA / "samurai.txt"), "-b", ",".join(quick),
                       "--jobs", "1", "--out", str(tmp_path / "run"))
    assert code == 0 and "every answer agrees" in out


def test_export_dimacs_numbers_the_board_cells():
    code, out, _ = run("export", "--file", str(DATA / "samurai.txt"), "--to", "dimacs")
    assert code == 0 and "cells are 1..3321" in out
    assert "c var 3321 = r21c21 d9" in out


@pytest.mark.parametrize("to", ["mzn", "lp"])
def test_an_exported_model_solves_the_samurai_in_its_own_tool(to, tmp_path):
    """mzn and milp take a samurai, so their files do: run in minizinc and HiGHS alone,
    each gives the grid the checker accepts (as solve does)."""
    import shutil
    import subprocess

    path = tmp_path / f"samurai.{to}"
    code, _, err = run("export", "--file", str(DATA / "samurai.txt"), "--to", to, "--out",
                       str(path))
    assert code == 0, err
    if to == "mzn":
        if shutil.which("minizinc") is None:
            pytest.skip("minizinc is not installed")
        done = subprocess.run(["minizinc", "--solver", "gecode", str(path)],
                              capture_output=True, text=True)
        digits = [int(d) for d in done.stdout if d.isdigit()][:PUZZLE.cell_count]
    else:
        highspy = pytest.importorskip("highspy")
        program = highspy.Highs()
        program.setOptionValue("output_flag", False)
        program.readModel(str(path))
        program.run()
        names = program.getLp().col_names_
        chosen = [name for name, value in zip(names, program.getSolution().col_value)
                  if value > 0.5]
        digits = digits_of(chosen, PUZZLE.cell_count)
    assert check(PUZZLE, tuple(digits)) == []


def digits_of(columns: list[str], cells: int) -> list[int]:
    """The grid from the 0-1 program's chosen columns rRcC_D (the board's rows and
    columns): each cell's index from the geometry's names."""
    geo = geometry(PUZZLE.box, PUZZLE.rules, PUZZLE.layout)
    index = {geo.name(cell): cell for cell in geo.cells}
    grid = [0] * cells
    for name in columns:
        cell, digit = name.rsplit("_", 1)
        grid[index[cell]] = int(digit)
    return grid


def test_read_file_reads_the_board(tmp_path):
    entries = read_file(DATA / "samurai.txt")
    assert len(entries) == 1 and entries[0].puzzle == PUZZLE


def test_the_web_api_refuses_a_samurai_with_a_400():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from sudokulab.web.app import create_app

    with TestClient(create_app()) as client:
        response = client.post("/api/puzzle", json={"puzzle": format_line(PUZZLE)})
    assert response.status_code == 400 and "one N x N grid" in response.json()["error"]


def test_solve_json_output_reads_back_as_the_samurai():
    code, out, _ = run("solve", "--file", str(DATA / "samurai.txt"), "--format", "json")
    entry = read_text(out)[0]
    assert code == 0 and entry.puzzle == PUZZLE
    assert '"layout": "samurai"' in out


def test_a_file_of_21_short_puzzles_is_no_board():
    text = "\n".join(["1234341221434321", "-" * 16] * 10 + ["." * 16]) + "\n"
    entries = read_text(text)
    assert len(entries) == 21 and all(e.puzzle is not None and e.puzzle.n == 4 for e in entries)


def test_the_json_form_follows_the_bundled_schema():
    import json
    from importlib import resources

    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((resources.files("sudokulab") / "data" / "puzzle.schema.json")
                        .read_text())
    jsonschema.validate(json.loads(to_json(PUZZLE)), schema)
    rows = [[None if c >= len(line) or line[c] == " " else int(line[c].replace(".", "0"))
             for c in range(21)] for line in BOARD.splitlines()[2:]]
    board = {"layout": "samurai", "givens": rows}
    jsonschema.validate(board, schema)
    assert parse(json.dumps(board)) == PUZZLE
