"""explain, hint, and the human backend beside search in compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.cli import main
from sudokulab.formats.text import format_line
from sudokulab.result import Result, Status

EASY = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
STALLS = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SEVERAL = "..6.....5.......4......9.3..4....8....3...6.....7..2..1...5.....2..1.....3.....7."


def run(capsys, *argv):
    """(exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_json_is_one_object_with_steps_counted_from_one(capsys):
    code, out, _ = run(capsys, "explain", EASY, "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"puzzle", "solved", "stopped", "level", "score", "rating", "steps"}
    assert data["puzzle"] == EASY.replace("0", ".") and data["solved"] is True
    assert data["level"] in ("Easy", "Medium", "Hard", "Unfair", "Extreme")
    grid = {}
    for step in data["steps"]:
        assert set(step) == {"technique", "placements", "eliminations", "text"}
        for row, col, digit in step["placements"]:
            assert 1 <= row <= 9 and 1 <= col <= 9
            grid[(row, col)] = digit
    blanks = EASY.count("0")
    assert len(grid) == blanks  # every blank placed once


def test_explain_verify_checks_every_step_against_norvig(capsys):
    code, out, err = run(capsys, "explain", EASY, "--verify")
    assert code == 0
    assert "verified: all" in err
    assert "1. " in out and "solved in" in out


def test_explain_upto_stalls_and_says_so(capsys):
    code, out, _ = run(capsys, "explain", STALLS, "--upto", "hidden single")
    assert code == 7  # stalled, as `solve -b human` says (issue 53)
    assert "stalled after" in out


def test_an_unknown_technique_is_one_line_and_exit_2(capsys):
    code, _, err = run(capsys, "explain", EASY, "--techniques", "guessing")
    assert code == 2
    assert err.startswith("sudokulab: error: unknown technique 'guessing'")
    assert len(err.strip().splitlines()) == 1


def test_hint_is_the_easiest_step_only(capsys):
    code, out, _ = run(capsys, "hint", STALLS, "--format", "json", "--uniqueness", "no")
    step = json.loads(out)
    assert code == 0
    assert step["technique"] == "Hidden Single" and step["placements"] == [[6, 2, 4]]


@pytest.mark.parametrize("command", ["explain", "hint", "grade"])
def test_a_puzzle_with_several_solutions_gets_no_step_and_exit_6(command, capsys):
    code, out, err = run(capsys, command, SEVERAL)
    assert code == 6 and out == ""
    assert err.startswith("sudokulab: error: puzzle 1: several solutions (native")


def test_the_human_backend_proves_unique_or_stalls_with_the_partial_grid():
    backend = make_backend("human:upto=hidden single")
    puzzle = datasets.load("top95")[3]
    result = backend.solve(puzzle)
    assert result.status is Status.STALLED and not result.status.is_answer
    assert result.solutions == () and len(result.partial) == 81
    solution = datasets.solutions("top95")[3]
    assert all(d in (0, solution[c]) for c, d in enumerate(result.partial))
    assert Result.from_json(result.to_json()).partial == result.partial
    easy = make_backend("human").solve(datasets.load("easy50")[0])
    assert easy.status is Status.UNIQUE and easy.stats["steps"] > 0


def test_solve_with_a_stalling_human_backend_exits_7_with_the_grid_so_far(capsys):
    # a stall is no answer: exit 0 would tell a script that the puzzle was solved
    code, out, _ = run(capsys, "solve", STALLS, "-b", "human:upto=hidden single")
    assert code == 7
    assert out.startswith("stalled") and "stalled after 3 steps" in out
    assert "solution(s)" not in out.splitlines()[0]  # not "0 solution(s)": it has one
    code, out, _ = run(capsys, "solve", STALLS, "-b", "human:upto=hidden single",
                       "--format", "line")
    assert (code, out) == (7, "stalled\n")
    for table, sep in (("csv", ","), ("tsv", "\t")):  # nor ">= 0" in the count column
        code, out, _ = run(capsys, "solve", STALLS, "-b", "human:upto=hidden single",
                           "--format", table)
        assert code == 7 and out.splitlines()[1].split(sep)[1:3] == ["stalled", ""]
    code, _, _ = run(capsys, "solve", STALLS, "-b", "human")  # the techniques that finish it
    assert code == 0


def test_compare_with_a_stalling_human_backend_exits_0(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join([EASY, STALLS]) + "\n")
    code, out, _ = run(capsys, "compare", "--file", str(puzzles), "--backends",
                       "norvig,human:upto=hidden single", "--jobs", "1",
                       "--out", str(tmp_path / "out"))
    assert code == 0, out
    assert "stalled" in out and "every answer agrees" in out


def test_grade_prints_a_record_per_puzzle_a_table_and_a_histogram(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join([EASY, STALLS]) + "\n")
    plot = tmp_path / "levels.png"
    code, out, _ = run(capsys, "grade", "--file", str(puzzles), "--plot", str(plot))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("#1  Easy") and lines[1].startswith("#2  ")
    assert "level" in out and "share" in out  # the summary table
    assert plot.stat().st_size > 1000


def test_grade_json_and_csv_carry_the_steps_per_technique(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EASY + "\n")
    code, out, _ = run(capsys, "grade", "--file", str(puzzles), "--format", "json")
    record = json.loads(out.splitlines()[0])
    assert code == 0 and record["level"] == "Easy" and record["solved"] is True
    assert sum(record["techniques"].values()) == EASY.count("0")  # one step per blank
    code, out, _ = run(capsys, "grade", "--file", str(puzzles), "--format", "csv")
    header, row = out.splitlines()[:2]
    assert header.startswith("puzzle,givens,solved,level,score,rating,hardest")
    assert row.startswith("1,") and ",True,Easy," in row


def test_explain_works_on_a_6x6_puzzle(capsys):
    puzzle = "1.3....56......5.4.6...1.1.6.....3.2"  # 12 givens, unique (norvig says so)
    code, out, err = run(capsys, "explain", puzzle, "--verify")
    assert code == 0, err
    assert "solved in 24 steps" in out and "verified: all 24 steps" in err


def test_hint_on_a_full_grid_says_there_is_no_step(capsys):
    full = "".join(map(str, datasets.solutions("easy50")[0]))
    code, out, _ = run(capsys, "hint", full)
    assert code == 0 and out.startswith("no step")
    code, out, _ = run(capsys, "explain", full)  # no "(hardest: )" naming nothing
    assert (code, out) == (0, "solved in 0 steps: level Easy, score 0, rating 0.0\n")


def test_the_human_backend_proves_there_is_no_solution():
    from sudokulab.formats.text import parse

    puzzle = parse("12345678." + "." * 8 + "9" + "." * 63)  # r1c9 needs the 9 of column 9
    result = make_backend("human").solve(puzzle)
    assert result.status is Status.NONE and result.count == 0 and result.exact
    assert result.stats["steps"] == 0


def test_grade_skips_a_bad_puzzle_naming_its_line_and_exits_2(tmp_path, capsys):
    good = datasets.load("easy50")[0]
    puzzles = tmp_path / "three.txt"
    puzzles.write_text(f"{format_line(good)}\nabc\n{format_line(good)}\n")
    code, out, err = run(capsys, "grade", "--file", str(puzzles))
    assert code == 2
    assert [line.split()[0] for line in out.splitlines() if line.startswith("#")] == ["#1", "#3"]
    assert err.startswith(f"sudokulab: error: {puzzles}:2: ") and err.count("\n") == 1
    code, out, _ = run(capsys, "grade", "--file", str(puzzles), "--strict")
    assert code == 2 and [line.split()[0] for line in out.splitlines()
                          if line.startswith("#")] == ["#1"]


# A thermometer (issue 19) is a rule no technique knows: ignoring it would grade a
# different puzzle, so the human commands refuse it by name (exit 5, as for a backend).
THERMOMETER = json.dumps({"box": [2, 2], "givens": [[0] * 4] * 4,
                          "rules": [{"type": "thermometer", "cells": ["r1c1", "r1c2", "r2c2"]}]})


def test_explain_and_hint_refuse_a_rule_no_technique_knows(capsys):
    for command in ("explain", "hint"):
        code, out, err = run(capsys, command, THERMOMETER)
        assert code == 5 and out == ""
        assert err == ("sudokulab: error: puzzle 1: the human-style techniques know no "
                       "thermometer rule: solve and compare take this puzzle\n")


def test_grade_skips_a_refused_puzzle_and_grades_the_others(tmp_path, capsys):
    good = json.dumps({"box": [3, 3], "givens": [list(map(int, EASY[k:k + 9]))
                                                 for k in range(0, 81, 9)]})
    puzzles = tmp_path / "three.jsonl"
    puzzles.write_text(f"{good}\n{THERMOMETER}\n{good}\n")
    code, out, err = run(capsys, "grade", "--file", str(puzzles))
    assert code == 5
    assert [line.split()[0] for line in out.splitlines() if line.startswith("#")] == ["#1", "#3"]
    assert err.startswith("sudokulab: error: puzzle 2: ") and "thermometer" in err


def test_hint_past_its_timeout_exits_3_without_a_step(monkeypatch, capsys):
    from sudokulab.commands import steps

    monkeypatch.setattr(steps, "deadline", lambda args: lambda: True)  # always past
    code, out, err = run(capsys, "hint", STALLS, "--techniques", "forcing chain contradiction")
    assert code == 3 and out == ""
    assert err.startswith("sudokulab: error: puzzle 1: no step found within --timeout")


def test_explain_past_its_timeout_exits_3_with_the_steps_so_far(monkeypatch, capsys):
    from sudokulab.commands import steps

    monkeypatch.setattr(steps, "deadline", lambda args: lambda: True)
    code, out, err = run(capsys, "explain", STALLS)
    assert code == 3 and "stopped at the time limit after 0 steps" in out
    assert "stopped at --timeout" in err


def test_a_samurai_gets_an_unsupported_record_from_grade_and_a_setter_report(capsys):
    """Before, grade, explain, hint and setter refused a samurai file with exit 2 and no
    record; grade's json holds every puzzle, the setter's report all but the grade."""
    samurai = str(Path(__file__).parent / "data" / "samurai.txt")
    code, out, err = run(capsys, "grade", "--file", samurai, "--format", "json")
    record = json.loads(out)
    assert code == 5 and record["status"] == "unsupported" and record["level"] is None
    assert "not a samurai" in record["message"] and err.count("\n") == 1
    code, out, _ = run(capsys, "setter", "--file", samurai, "--no-candidates", "--format",
                       "json")
    report = json.loads(out)
    assert code == 0 and report["status"] == "unique" and report["grade_status"] == "refused"


def test_a_stopped_explain_in_json_has_no_grade_as_grade_has_none(monkeypatch, capsys):
    """Before, a path stopped after 0 steps was "Easy", score 0, rating 0.0 in JSON."""
    from sudokulab.commands import steps

    monkeypatch.setattr(steps, "deadline", lambda args: lambda: True)
    code, out, _ = run(capsys, "explain", STALLS, "--format", "json")
    record = json.loads(out)
    assert code == 3 and record["stopped"] is True and record["solved"] is False
    assert (record["level"], record["score"], record["rating"]) == (None, None, None)
    code, out, _ = run(capsys, "grade", STALLS, "--format", "json")
    assert code == 3 and json.loads(out)["level"] is None


@pytest.mark.parametrize("command", ["hint", "explain", "grade"])
def test_naming_a_uniqueness_technique_with_uniqueness_no_is_refused(capsys, command):
    """Before, the named technique was dropped without a word ('no step ... try more')."""
    code, out, err = run(capsys, command, STALLS, "--techniques",
                         "naked single,BUG Lite,Uniqueness Test 1", "--uniqueness", "no")
    assert code == 2 and out == ""
    assert "--uniqueness no" in err and "Uniqueness Test 1, BUG Lite" in err
