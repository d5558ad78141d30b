"""Issue 11: a fast front door that reads, checks and prints exactly what the careful path
would: lazy imports, the fast line reader, the quick checker, counting without grids."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import puzzle as P
from sudokulab.backends import make_backend
from sudokulab.check import check, violations
from sudokulab.cli import main
from sudokulab.errors import PuzzleError
from sudokulab.formats import files, text

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
HEAVY = ("matplotlib", "z3", "pysat", "janus_swi", "clingo", "ortools", "tabulate",
         "sudokulab.commands.compare")


def imported_after(code: str) -> list[str]:
    """The heavy modules a fresh interpreter has imported after running code."""
    probe = f"{code}\nimport sys\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))


@pytest.mark.parametrize("code", [
    "import sudokulab.cli",
    f"from sudokulab.cli import main; main(['solve', {EASY!r}, '--backend', 'norvig'])",
    "from sudokulab.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
])
def test_the_front_door_imports_no_engine_and_no_plotting(code):
    assert imported_after(code) == []


def test_compare_still_builds_its_options():
    code = "from sudokulab.cli import build_parser; build_parser('compare')"
    assert "sudokulab.commands.compare" in imported_after(code)


# --- the fast line reader ----------------------------------------------------------

def careful(line: str) -> P.Puzzle:
    """The careful parser on the same text (spaces are layout, so it cannot take the
    fast path)."""
    return text.parse(" ".join(line))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fast_reader_and_careful_parser_agree(data):
    n = data.draw(st.sampled_from([4, 6, 9, 16]))
    alphabet = text.BLANKS + P.SYMBOLS[:n] + P.SYMBOLS[:n].lower() + "x?"
    line = "".join(data.draw(st.lists(st.sampled_from(alphabet), min_size=n * n,
                                      max_size=n * n)))
    try:
        expected = careful(line)
    except PuzzleError as error:
        with pytest.raises(PuzzleError) as fast_error:
            text.parse(line)
        # The same message, but for the column, which the spaces moved.
        assert str(fast_error.value).split(" (line")[0] == str(error).split(" (line")[0]
    else:
        assert text.parse(line) == expected


def test_a_clash_read_by_the_fast_reader_is_the_careful_parsers_puzzle_and_named():
    line = EASY[:18] + "9" + EASY[19:]
    assert text.parse(line) == careful(line)
    assert P.clash(text.parse(line)) == "givens repeat: 9 at r2c1 and r3c1 (column 1)"


def test_a_file_of_lines_reads_as_before(tmp_path):
    lines = [EASY, SOLUTION, "." * 16]
    path = tmp_path / "p.txt"
    path.write_text("# a comment\n" + "\n".join(lines) + "\n\n" + "\n".join(lines) + "\n")
    assert [text.format_line(p) for p in files.read_puzzles(path)] == [EASY, SOLUTION, "." * 16] * 2


def test_a_bad_line_in_a_file_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{EASY}\n{EASY[:-1]}x\n")
    with pytest.raises(PuzzleError, match=r"p.txt:2: row 9, column 9 .*'x' is not a digit"):
        files.read_puzzles(path)


def test_line_of_writes_what_format_line_did():
    assert P.line_of(tuple(int(c) for c in SOLUTION)) == SOLUTION
    assert text.format_line(text.parse(EASY)) == EASY
    assert P.line_of((0, 10, 16, 25)) == ".AGP"


# --- the quick checker -------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.data())
def test_quick_check_and_slow_check_agree(data):
    puzzle = text.parse(EASY)
    grid = [int(c) for c in SOLUTION]
    for _ in range(data.draw(st.integers(0, 3))):
        cell = data.draw(st.integers(0, 80))
        grid[cell] = data.draw(st.integers(-1, 10))
    if data.draw(st.booleans()):  # swap two cells: houses may break, givens may change
        a, b = data.draw(st.integers(0, 80)), data.draw(st.integers(0, 80))
        grid[a], grid[b] = grid[b], grid[a]
    assert check(puzzle, tuple(grid)) == violations(puzzle, tuple(grid))


def test_quick_check_catches_what_a_permuted_digit_would_hide():
    puzzle = text.parse("." * 81)
    grid = [int(c) for c in SOLUTION]
    grid[0], grid[1] = grid[1], grid[0]  # row 1 still holds every digit; columns do not
    assert [str(v) for v in check(puzzle, tuple(grid))][:1] == ["column 1: 8 at r1c1 and r8c1"]
    assert check(puzzle, (1.5,) * 81) and check(puzzle, (0,) * 81) and check(puzzle, (1,) * 80)


# --- counting prints counts ----------------------------------------------------------

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_count_prints_the_count_not_the_grids(capsys):
    code, out, _ = run(capsys, "solve", "." * 16, "--count")
    assert code == 0 and out.startswith("several solutions: 288 solution(s)")
    assert "|" not in out  # no grid drawn
    code, out, _ = run(capsys, "solve", "." * 16, "--count", "--format", "json")
    data = json.loads(out)
    assert data["count"] == 288 and data["solutions"] == []
    code, out, _ = run(capsys, "solve", "." * 16, "--count", "--format", "line")
    assert out == "288\n"


def test_count_lists_grids_when_asked(capsys):
    code, out, _ = run(capsys, "solve", "." * 16, "--count", "--grids", "3", "--format", "json")
    data = json.loads(out)
    assert data["count"] == 288 and len(data["solutions"]) == 3
    code, out, _ = run(capsys, "solve", "." * 16, "--count", "--grids", "2")
    assert out.count("---+---") == 2 and "(286 more grid(s) counted, not shown" in out


@pytest.mark.parametrize("backend", ["norvig", "dlx", "sat", "native"])
def test_a_count_past_the_grids_it_keeps_checks_those_and_counts_the_rest(
        capsys, monkeypatch, backend):
    # 4x4 with givens in two rows (no relabelling): 24 grids; 160 cells' worth keeps 10
    from sudokulab.commands import answers

    monkeypatch.setattr(answers, "KEPT_CELLS", 160)
    code, out, _ = run(capsys, "solve", "1...2" + "." * 11, "--count", "--format", "json",
                       "--backend", backend)
    data = json.loads(out)
    assert (code, data["count"], data["exact"]) == (0, 24, True)
    assert "the first 10 grids kept and checked, the rest counted" in data["message"]
    code, out, _ = run(capsys, "solve", "1...2" + "." * 11, "--count", "--grids", "12",
                       "--format", "json", "--backend", backend)
    data = json.loads(out)  # the grids asked are kept whatever the budget
    assert (data["count"], len(data["solutions"]), len({tuple(g) for g in data["solutions"]})) \
        == (24, 12, 12)


# --- the SAT backend starts afresh every few thousand puzzles --------------------------

def test_sat_answers_stay_right_across_solver_reloads(monkeypatch):
    from sudokulab.backends import sat

    monkeypatch.setattr(sat, "RELOAD_EVERY", 3)
    backend = make_backend("sat")
    rng = random.Random(11)
    for k in range(10):
        result = backend.solve(text.parse(EASY), limit=1 + k % 2)
        assert result.solutions[0] == tuple(int(c) for c in SOLUTION)
        empty = backend.solve(text.parse("." * 16), limit=None)
        assert empty.count == 288 and len(set(empty.solutions)) == 288
        assert not check(text.parse("." * 16), rng.choice(empty.solutions))
