"""The generator (issue 15): unique (checked by engines other than the generator's), minimal,
symmetric, of the asked level, for every shape and rule, reproducible from a seed."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.errors import ProofError, UsageError
from sudokulab.formats.text import parse
from sudokulab.generate import Generated, generate, maker
from sudokulab.generate import engine as working
from sudokulab.generate.grids import neighbours
from sudokulab.human import grading, solver

DLX = make_backend("dlx")  # neither the working engine (sat) nor the default prover (norvig)
NORVIG = make_backend("norvig")


def assert_unique(made: Generated) -> None:
    """dlx finds exactly one solution, the generator's, and it passes the checker."""
    result = DLX.solve(made.puzzle, limit=2)
    assert result.status.value == "unique", made.puzzle
    assert result.solutions[0] == made.solution
    assert check(made.puzzle, made.solution) == []
    slow = made.puzzle.n > 9 or any(
        isinstance(rule, (R.AntiKnight, R.AntiKing, R.NonConsecutive))
        for rule in made.puzzle.rules)
    assert made.provers == ("sat", "asp" if slow else "norvig")


def assert_minimal(made: Generated) -> None:
    """Each given removed on its own leaves several solutions (norvig counts them)."""
    givens = made.puzzle.givens
    for cell, digit in enumerate(givens):
        if digit:
            fewer = made.puzzle.with_values(givens[:cell] + (0,) + givens[cell + 1:])
            assert NORVIG.solve(fewer, limit=2).status.value == "multiple", (made.puzzle, cell)


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (4, 4)])
def test_every_shape_gives_unique_minimal_puzzles(box):
    count = 1 if box == (4, 4) else 3
    for made in generate(box, number=count, seed=7, minimal=True):
        assert made.puzzle.box == box
        assert made.minimal
        assert_unique(made)
        if box != (4, 4):
            assert_minimal(made)


RULES = ["diagonal", "anti-knight", "anti-king", "non-consecutive", "windoku", "miracle",
         "jigsaw", "killer", "parity"]
KINDS = {"miracle": R.NonConsecutive, "jigsaw": R.Jigsaw, "killer": R.Cage,
         "parity": R.Parity, "diagonal": R.Diagonal, "anti-knight": R.AntiKnight,
         "anti-king": R.AntiKing, "non-consecutive": R.NonConsecutive, "windoku": R.Windoku}


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_gives_unique_minimal_puzzles_under_that_rule(rule):
    box = (2, 3) if rule == "windoku" else (3, 3)  # 6x6 windoku: a quick one too
    made = next(generate((3, 3), [rule], seed=3, minimal=True))
    assert any(isinstance(r, KINDS[rule]) for r in made.puzzle.rules)
    assert_unique(made)
    assert_minimal(made)
    small = next(generate(box, [rule], seed=4))
    assert_unique(small)


def test_jigsaw_regions_are_connected_and_differ_from_puzzle_to_puzzle():
    made = list(generate((3, 3), ["jigsaw"], number=2, seed=11))
    layouts = []
    for one in made:
        (jigsaw,) = [r for r in one.puzzle.rules if isinstance(r, R.Jigsaw)]
        for region in jigsaw.regions:
            cells = {r * 9 + c for r, c in region}
            seen, todo = {min(cells)}, [min(cells)]
            while todo:
                for other in neighbours(todo.pop(), 9):
                    if other in cells and other not in seen:
                        seen.add(other)
                        todo.append(other)
            assert seen == cells
        layouts.append(jigsaw)
    assert layouts[0] != layouts[1]


def test_killer_cages_hold_distinct_digits_summing_to_their_totals():
    made = next(generate((3, 3), ["killer"], seed=2))
    cages = [r for r in made.puzzle.rules if isinstance(r, R.Cage)]
    covered = [cell for cage in cages for cell in cage.cells]
    assert sorted(covered) == [(r, c) for r in range(9) for c in range(9)]
    for cage in cages:
        digits = [made.solution[r * 9 + c] for r, c in cage.cells]
        assert len(set(digits)) == len(digits)
        assert sum(digits) == cage.total


def test_miracle_puzzles_need_very_few_givens():
    made = list(generate((3, 3), ["miracle"], number=3, seed=0))
    for one in made:
        assert_unique(one)
    assert max(one.clues for one in made) <= 4


SYMMETRIC = {
    "rotational": lambda r, c: (8 - r, 8 - c),
    "diagonal": lambda r, c: (c, r),
    "antidiagonal": lambda r, c: (8 - c, 8 - r),
    "mirror": lambda r, c: (r, 8 - c),
    "flip": lambda r, c: (8 - r, c),
    "quarter": lambda r, c: (c, 8 - r),
}


@pytest.mark.parametrize("symmetry", list(SYMMETRIC))
def test_symmetric_puzzles_are_symmetric(symmetry):
    move = SYMMETRIC[symmetry]
    made = next(generate(symmetry=symmetry, seed=5))
    shown = made.puzzle.givens
    for r in range(9):
        for c in range(9):
            r2, c2 = move(r, c)
            assert bool(shown[r * 9 + c]) == bool(shown[r2 * 9 + c2])
    assert_unique(made)


def test_symmetric_and_minimal_together():
    made = next(generate(symmetry="rotational", minimal=True, seed=1))
    assert made.minimal
    assert_minimal(made)
    shown = made.puzzle.givens
    assert all(bool(shown[i]) == bool(shown[80 - i]) for i in range(81))


def test_a_symmetric_puzzle_that_is_not_minimal_says_so():
    made = list(generate(symmetry="rotational", number=8, seed=1))
    assert not all(one.minimal for one in made)  # seed 1: some are not
    for one in made:
        if not one.minimal:
            givens = one.puzzle.givens
            assert any(NORVIG.solve(one.puzzle.with_values(
                givens[:k] + (0,) + givens[k + 1:]), limit=2).status.value == "unique"
                for k, d in enumerate(givens) if d)


def test_givens_exactly_and_at_most():
    exact = list(generate(number=2, seed=3, givens=30))
    assert [one.clues for one in exact] == [30, 30]
    assert all(not one.minimal for one in exact)
    for one in exact:
        assert_unique(one)
    assert all(one.clues <= 23 for one in generate(number=2, seed=3, max_givens=23))


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "unfair", "extreme"])
def test_a_level_asked_is_the_level_the_grader_gives(level):
    made = next(generate(seed=9, level=level))
    path = solver.solve(made.puzzle, unique=True)
    assert path.solved
    assert grading.grade(path.steps, True).level.lower() == level == made.level.lower()
    assert_unique(made)


def test_a_rating_range_is_kept():
    made = next(generate(seed=9, rating=(3.0, 4.5)))
    path = solver.solve(made.puzzle, unique=True)
    assert 3.0 <= grading.grade(path.steps, True).rating <= 4.5


def test_the_same_seed_gives_the_same_puzzles_and_each_seed_reproduces_its_own():
    first = list(generate(number=3, seed=40, symmetry="mirror"))
    again = list(generate(number=3, seed=40, symmetry="mirror"))
    assert first == again
    assert [one.seed for one in first] == [40, 41, 42]
    assert next(generate(seed=42, symmetry="mirror")) == first[2]
    assert list(generate(number=3, seed=41, symmetry="mirror"))[0] != first[0]


def test_jobs_give_the_same_output_as_one_job(tmp_path, capsys):
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    assert main(["generate", "--count", "4", "--seed", "8", "--out", str(one)]) == 0
    assert main(["generate", "--count", "4", "--seed", "8", "--jobs", "2",
                 "--out", str(two)]) == 0
    assert one.read_text() == two.read_text()
    assert len([line for line in one.read_text().splitlines() if line[:1] != "#"]) == 4


@pytest.mark.parametrize("rules, prover", [((), "norvig"), (("miracle",), "asp"),
                                           (("jigsaw",), "dlx")])
def test_a_wrong_uniqueness_answer_is_caught_by_the_second_engine(monkeypatch, rules, prover):
    # The planted bug: the working engine claims every removal keeps the puzzle unique.
    monkeypatch.setattr(working.Engine, "unique_without", lambda self, *args: True)
    monkeypatch.setattr(maker, "_forced", lambda *args: False)
    options = {} if prover != "dlx" else {"prover": "dlx"}
    with pytest.raises(ProofError, match=f"{prover} does not confirm"):
        next(generate((3, 3), rules, seed=1, **options))


def test_a_wrong_uniqueness_answer_is_not_written(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(working.Engine, "unique_without", lambda self, *args: True)
    out = tmp_path / "bad.txt"
    assert main(["generate", "--number", "3", "--jobs", "1", "--out", str(out)]) == 4
    assert "does not confirm" in capsys.readouterr().err
    assert [line for line in out.read_text().splitlines() if line[:1] != "#"] == []


def test_an_interrupted_run_keeps_what_it_made(monkeypatch, tmp_path, capsys):
    real = maker.make

    def make(request, seed):
        if seed == 2:
            raise KeyboardInterrupt
        return real(request, seed)

    monkeypatch.setattr(maker, "make", make)
    out = tmp_path / "part.txt"
    assert main(["generate", "--number", "5", "--jobs", "1", "--out", str(out)]) == 130
    lines = [line for line in out.read_text().splitlines() if line[:1] != "#"]
    assert [parse(line).clues > 0 for line in lines] == [True, True]


def test_grade_compare_and_solve_read_the_output_with_its_header(tmp_path, capsys):
    lines, grids, killer = tmp_path / "p.txt", tmp_path / "g.txt", tmp_path / "k.jsonl"
    assert main(["generate", "--count", "3", "--out", str(lines), "--rules", "diagonal"]) == 0
    assert main(["generate", "--count", "2", "--format", "grid", "--out", str(grids)]) == 0
    assert main(["generate", "--count", "2", "--format", "json", "--rules", "killer",
                 "--out", str(killer)]) == 0
    assert lines.read_text().startswith("# sudokulab ")
    assert "with --rules diagonal;" in lines.read_text()
    tall = tmp_path / "tall.txt"
    assert main(["generate", "--box", "3x2", "--count", "2", "--out", str(tall)]) == 0
    assert "with --box 3x2;" in tall.read_text()
    capsys.readouterr()
    assert main(["grade", "--file", str(lines), "--rules", "diagonal", "--format", "json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3
    assert main(["solve", "--file", str(grids), "--format", "line"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["solve", "--file", str(tall), "--box", "3x2", "--format", "line"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["solve", "--file", str(killer), "--format", "line"]) == 0
    solved = capsys.readouterr().out.splitlines()
    records = [json.loads(line) for line in killer.read_text().splitlines() if line[0] == "{"]
    assert solved == [record["solution"] for record in records]
    assert all(record["provers"] == ["sat", "norvig"] for record in records)
    assert all(record["rules"][0]["type"] == "cage" for record in records)
    assert main(["compare", "--file", str(grids), "--backends", "norvig,sat", "--jobs", "1",
                 "--out", str(tmp_path / "run")]) == 0
    assert "unique 2" in capsys.readouterr().out
    assert main(["compare", "--file", str(killer), "--backends", "norvig,sat", "--jobs", "1",
                 "--out", str(tmp_path / "run2")]) == 0
    assert "unique 2" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["--givens", "16"], "at least 17 givens"),
    (["--givens", "20", "--max-givens", "22"], "not allowed with"),
    (["--level", "hard", "--rating", "1..2"], "not allowed with"),
    (["--symmetry", "sideways"], "invalid choice"),
    (["--rules", "killer"], "use --format json"),
    (["--rules", "killer", "--format", "pretty"], "use --format json"),  # its grid has no cages
    (["--rules", "jigsaw", "--format", "grid"], "use --format json"),
    (["--rules", "bishop"], "unknown rule"),
    (["--box", "3y3"], "expected rows x col"),
    (["--box", "1x2"], "makes a 2x2 grid"),
    (["--rating", "4..x"], "expected A..B"),
    (["--givens", "18", "--symmetry", "full"], "no union"),
])
def test_impossible_or_contradictory_options_are_one_line_and_exit_2(argv, words, capsys):
    assert main(["generate", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sudokulab: error:") and words in err
    assert len(err.strip().splitlines()) == 1


def test_the_api_raises_usage_errors():
    with pytest.raises(UsageError, match="exclude each other"):
        next(generate(givens=30, max_givens=30))
    with pytest.raises(UsageError, match="unknown level"):
        next(generate(level="legendary"))
    with pytest.raises(UsageError, match="no puzzle met the options in 2 tries"):
        next(generate(box=(2, 2), max_givens=3 + 1, givens=None, level="extreme", tries=2))


def test_to_json_is_a_puzzle_the_readers_take_back():
    made = next(generate((2, 3), ["diagonal"], seed=6, grade=True))
    data = made.to_json()
    from sudokulab.formats.text import from_json

    assert from_json(json.dumps(data)) == made.puzzle
    assert data["seed"] == 6 and data["provers"] == ["sat", "norvig"]
    assert data["solution"] == "".join(map(str, made.solution))
    assert data["level"] is not None and data["clues"] == made.clues


def test_importing_the_generator_loads_no_solver():
    import subprocess
    import sys

    code = ("import sys, sudokulab.generate, sudokulab.generate.maker; "
            "print(sorted(m for m in ('pysat', 'clingo', 'ortools', 'z3') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_random_rules_with_a_symmetry_and_a_level():
    made = next(generate((3, 3), ["killer"], seed=4, symmetry="rotational", grade=True))
    shown = made.puzzle.givens
    assert all(bool(shown[i]) == bool(shown[80 - i]) for i in range(81))
    assert_unique(made)
    jigsaw = next(generate((2, 3), ["jigsaw", "parity"], seed=4, minimal=True,
                           symmetry="diagonal"))
    assert jigsaw.minimal
    assert_unique(jigsaw)
    assert_minimal(jigsaw)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), box=st.sampled_from([(2, 2), (2, 3)]),
       symmetry=st.sampled_from(["none", "rotational", "diagonal", "mirror", "quarter"]))
def test_any_seed_gives_a_unique_symmetric_puzzle_whose_minimal_flag_is_true(
        seed, box, symmetry):
    made = next(generate(box, seed=seed, symmetry=symmetry))
    n = box[0] * box[1]
    shown = made.puzzle.givens
    move = {"none": lambda r, c: (r, c), "rotational": lambda r, c: (n - 1 - r, n - 1 - c),
            "diagonal": lambda r, c: (c, r), "mirror": lambda r, c: (r, n - 1 - c),
            "quarter": lambda r, c: (c, n - 1 - r)}[symmetry]
    assert all(bool(shown[r * n + c]) == bool(shown[move(r, c)[0] * n + move(r, c)[1]])
               for r in range(n) for c in range(n))
    assert_unique(made)
    removable = [k for k, d in enumerate(shown) if d and NORVIG.solve(
        made.puzzle.with_values(shown[:k] + (0,) + shown[k + 1:]), limit=2).status.value
        == "unique"]
    assert made.minimal == (not removable)


def test_a_long_run_reports_its_progress_on_stderr(capsys):
    assert main(["generate", "--box", "2x2", "--count", "20"]) == 0
    out, err = capsys.readouterr()
    assert len([line for line in out.splitlines() if line[:1] != "#"]) == 20
    assert "generate: 20/20" in err


def test_json_output_is_records_only_with_the_provenance_on_stderr(capsys):
    assert main(["generate", "--number", "2", "--box", "2x2", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["clues"] > 0 for line in out.splitlines()] == [True, True]
    assert err.startswith("# sudokulab ")


def test_a_deadline_stops_the_tries_and_the_pages_generate_says_timeout(monkeypatch):
    import itertools
    import time

    from sudokulab.generate import make_request
    from sudokulab.generate.maker import make
    from sudokulab.web import learn

    with pytest.raises(TimeoutError, match="by the deadline"):
        make(make_request(level="hard"), 0, deadline=time.monotonic() - 1)
    ticks = itertools.count(0, 10)  # each reading of the clock 10 s later than the one before
    monkeypatch.setattr(time, "monotonic", lambda: next(ticks))
    answer = learn.generated(level="hard", seconds=2.0)  # what POST /api/generate runs
    assert answer == {"status": "timeout", "message": "no puzzle in 2 s"}
