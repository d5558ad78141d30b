"""The compiled engine (`native`) and its batch path: what is specific to it. The contract
(tests/test_contract.py) and Ctrl-C (tests/test_interrupt.py) hold it like every engine.

Counts are compared with Ganak's (#SAT, another paradigm) and norvig's enumeration; the
batch path's answers with the per-puzzle path's, line for line, and its checker's
verdicts with `check`'s, grid by grid."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import ready_backend

from sudokulab import datasets
from sudokulab.backends import counting, make_backend
from sudokulab.backends import native as N
from sudokulab.check import check, failures
from sudokulab.cli import main
from sudokulab.errors import Exit
from sudokulab.formats.text import from_json, parse
from sudokulab.puzzle import Puzzle, empty, line_of
from sudokulab.result import Status

DATA = Path(__file__).parent / "data"
VARIANTS = json.loads((DATA / "variants.json").read_text())
# contract's: a top95 puzzle with one wrong given; only search proves it has no solution
NO_SOLUTION = ("5...14....3....2...7..........9...3.6.1......"
               ".......8.2.....1.4....5.6.....7.8...")
DIGITS = bytes.maketrans(b".0123456789", bytes([0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))


@pytest.fixture(scope="module")
def engine():
    """The native backend, checked available (compiled here if it was not yet)."""
    return ready_backend("native")


def run(capsys, *argv):
    """(exit code, stdout, stderr) of the command line run in this process."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- counts: the project's count tests, on native ---------------------------------------

def test_the_6x6_grids_are_28200960(engine):
    first_row = empty(6).with_values([1, 2, 3, 4, 5, 6] + [0] * 30)
    result = engine.solve(first_row, limit=None)
    assert (result.status, result.exact) == (Status.MULTIPLE, True)
    assert result.count * 720 == 28_200_960 and len(set(result.solutions)) == result.count


def test_a_9x9_with_its_top_four_rows_blank_counts_as_ganak_does(engine):
    grid = datasets.solutions("easy50")[0]
    puzzle = empty(9).with_values([0] * 36 + list(grid[36:]))
    result = engine.solve(puzzle, limit=None)
    assert result.exact and len(set(result.solutions)) == result.count
    assert all(check(puzzle, g) == [] for g in result.solutions)
    assert result.count == counting.count(puzzle).count
    assert result.count == make_backend("norvig").solve(puzzle, limit=None).count


def test_a_puzzle_without_solution_counts_zero(engine):
    for puzzle in (parse("1..." "..2." "...." ".2.."), parse(NO_SOLUTION)):
        result = engine.solve(puzzle, limit=None)
        assert (result.status, result.count, result.exact) == (Status.NONE, 0, True)


def test_the_first_solutions_are_the_datasets(engine):
    puzzles, solutions = datasets.load("top95"), datasets.solutions("top95")
    for puzzle, solution in zip(puzzles, solutions):
        result = engine.solve(puzzle)
        assert (result.status, result.solutions) == (Status.UNIQUE, (tuple(solution),))


def test_its_statistics_count_its_search(engine):
    stats = [engine.solve(p).stats for p in datasets.load("hardest")]
    assert all(set(s) == set(N.STATS) and s["nodes"] >= 1 and s["placements"] > 0
               for s in stats)
    assert any(s["guesses"] >= 1 and s["backtracks"] >= 1 for s in stats)
    assert any(s["guesses"] == 0 and s["locked"] > 0 for s in stats)


# --- what it cannot take ----------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_is_unsupported(engine, name):
    result = engine.solve(from_json(json.dumps(VARIANTS[name])), limit=2)
    assert result.status is Status.UNSUPPORTED and result.solutions == ()


def test_a_25x25_is_unsupported(engine):
    result = engine.solve(empty(25))
    assert result.status is Status.UNSUPPORTED and "16 x 16" in result.message


def test_without_a_compiler_it_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # nothing built there
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    N.engine.cache_clear()
    try:
        ready = N.NativeBackend.available()
    finally:
        N.engine.cache_clear()  # the next test loads the real library again
    assert not ready.ok and "no C compiler" in ready.reason and "gcc" in ready.fix


# --- root propagation (the ladder's level) ----------------------------------------------

def test_root_stops_before_the_first_guess(engine):
    root = make_backend("native:root=yes")
    stalled = 0
    for puzzle, solution in zip(datasets.load("hardest"), datasets.solutions("hardest")):
        result, searched = root.solve(puzzle), engine.solve(puzzle)
        assert result.stats["guesses"] == 0
        if searched.stats["guesses"] == 0:  # propagation alone finished it: so does root
            assert result.solutions == (tuple(solution),)
        else:
            assert result.status is Status.STALLED
            assert all(d in (0, s) for d, s in zip(result.partial, solution))
            stalled += 1
    assert stalled


def test_root_leaves_the_marks_of_the_human_locked_level(engine):
    """C bit-parallel propagation and the Python technique engine, two codes of two
    paradigms, reach the same fixpoint: singles and locked candidates."""
    from sudokulab.backends.root import marks_grid, open_candidates
    from sudokulab.teaching import ladder

    root, level = make_backend("native:root=yes"), ladder.BY_NAME["human:locked"]
    stalled = 0
    for puzzle in datasets.load("top1465")[:200]:
        result = root.solve(puzzle, limit=1)
        marks = ladder.compute(puzzle, [level])[level.name].marks
        assert (result.partial or result.solutions[0]) == marks_grid(marks)
        assert result.stats.get("candidates", 0) == open_candidates(marks)
        stalled += result.status is Status.STALLED
    assert 0 < stalled < 200  # both outcomes met


# --- the batch checker: the same verdicts as check ----------------------------------------

def test_the_batch_checker_agrees_with_check_grid_by_grid():
    puzzles, solutions = datasets.load("top1465")[:300], datasets.solutions("top1465")[:300]
    givens = b"".join(bytes(p.givens) for p in puzzles)
    grids = bytearray(b"".join(bytes(s) for s in solutions))
    rng = random.Random(59)
    for k in rng.sample(range(300), 40):  # a swap, a repeat, a changed given, a blank
        i, j = rng.randrange(81), rng.randrange(81)
        kind = rng.randrange(3)
        if kind == 0:
            grids[81 * k + i], grids[81 * k + j] = grids[81 * k + j], grids[81 * k + i]
        elif kind == 1:
            grids[81 * k + i] = grids[81 * k + j]
        else:
            grids[81 * k + i] = 0
    found = failures((3, 3), givens, bytes(grids))
    expected = [k for k in range(300) if check(puzzles[k], grids[81 * k:81 * k + 81])]
    assert found == expected and expected  # some corruptions leave a solution: both agree


def test_the_batch_checker_reads_other_shapes():
    puzzle = empty(6).with_values([1, 2, 3, 4, 5, 6] + [0] * 30)
    grids = make_backend("norvig").solve(puzzle, limit=5).solutions
    wrong = list(grids[0])
    wrong[7], wrong[8] = wrong[8], wrong[7]
    assert failures((2, 3), bytes(puzzle.givens) * 6,
                    b"".join(bytes(g) for g in (*grids, wrong))) == [5]


# --- the batch path of `solve --file` -------------------------------------------------------

def test_the_batch_answers_are_the_datasets():
    lines = [line_of(p.givens) for p in datasets.load("17_clue")[:2000]]
    batch = N.solve_lines("".join(lines).encode(), len(lines))
    assert batch.status == [1] * 2000
    assert batch.first == "".join(line_of(s) + "\n"
                                  for s in datasets.solutions("17_clue")[:2000]).encode()


def write_lines(path: Path, lines: list[str]) -> str:
    """A file of puzzles, one per line; its path."""
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_the_batch_path_prints_what_the_per_puzzle_path_prints(capsys, tmp_path, engine):
    lines = [line_of(p.givens) for p in datasets.load("top95")]
    lines[3] = NO_SOLUTION
    lines[7] = "." * 81  # several solutions
    lines[9] = lines[9].replace(".", "0")
    f = write_lines(tmp_path / "p.txt", lines)
    for limit in ("1", "2"):
        code, out, _ = run(capsys, "solve", "--file", f, "-b", "native", "--format", "line",
                           "--limit", limit)
        # --timeout takes the per-puzzle path (a worker process per engine)
        per_code, per_out, _ = run(capsys, "solve", "--file", f, "-b", "native",
                                   "--format", "line", "--limit", limit, "--timeout", "600")
        ref_code, ref_out, _ = run(capsys, "solve", "--file", f, "-b", "norvig",
                                   "--format", "line", "--limit", limit)
        assert (code, out) == (per_code, per_out) == (ref_code, ref_out)
        assert out.splitlines()[3] == "none" and code == Exit.NONE
        assert out.splitlines()[7] == ("multiple" if limit == "2" else out.splitlines()[7])


def test_a_puzzle_with_no_solution_in_a_batch(capsys, tmp_path):
    f = write_lines(tmp_path / "p.txt", [NO_SOLUTION, line_of(datasets.load("easy50")[0].givens)])
    code, out, _ = run(capsys, "solve", "--file", f, "-b", "native", "--format", "line")
    assert code == Exit.NONE
    assert out.splitlines() == ["none", line_of(datasets.solutions("easy50")[0])]


def test_a_malformed_line_is_reported_with_its_line_number(capsys, tmp_path):
    easy = [line_of(p.givens) for p in datasets.load("easy50")[:4]]
    f = write_lines(tmp_path / "p.txt", [easy[0], easy[1], "12x" + "." * 78, "", easy[2],
                                         "# a comment", easy[3]])
    code, out, err = run(capsys, "solve", "--file", f, "-b", "native", "--format", "line")
    assert code == Exit.INPUT
    assert f"{f}:3:" in err and "x" in err
    solved = [line_of(s) for s in datasets.solutions("easy50")[:4]]
    assert out.splitlines() == [solved[0], solved[1], "bad-input", solved[2], solved[3]]
    _, norvig_out, norvig_err = run(capsys, "solve", "--file", f, "--format", "line")
    assert (out, err) == (norvig_out, norvig_err)


def test_a_wrong_grid_from_the_engine_is_caught(capsys, tmp_path, monkeypatch):
    lines = [line_of(p.givens) for p in datasets.load("easy50")[:3]]
    solve_lines = N.solve_lines

    def corrupted(text, count, stride=81, limit=2):
        batch = solve_lines(text, count, stride, limit)
        first = bytearray(batch.first)
        first[82 + 40], first[82 + 41] = first[82 + 41], first[82 + 40]  # puzzle 2's row 5
        batch.first = bytes(first)
        return batch

    monkeypatch.setattr(N, "solve_lines", corrupted)
    f = write_lines(tmp_path / "p.txt", lines)
    code, out, err = run(capsys, "solve", "--file", f, "-b", "native", "--format", "line")
    assert code == Exit.DISAGREE
    assert out.splitlines()[1] == "invalid" and "puzzle 2" in err
    assert out.splitlines()[0] == line_of(datasets.solutions("easy50")[0])


def test_a_grid_file_goes_the_per_puzzle_way(capsys, tmp_path):
    puzzle = datasets.load("easy50")[0]
    rows = [line_of(puzzle.givens[9 * r:9 * r + 9]) for r in range(9)]
    f = write_lines(tmp_path / "grid.txt", rows)
    code, out, _ = run(capsys, "solve", "--file", f, "-b", "native", "--format", "line")
    assert code == Exit.OK and out.strip() == line_of(datasets.solutions("easy50")[0])


def test_plain_lines_are_what_the_reader_reads():
    from sudokulab.formats.text import read_line

    for line in ("." * 81, "0" * 80 + "9", line_of(datasets.load("top95")[0].givens)):
        assert N.plain(line) and read_line(line, None, ()) == \
            Puzzle((3, 3), tuple(line.encode().translate(DIGITS)))
    assert not N.plain("." * 80) and not N.plain("x" + "." * 80)
