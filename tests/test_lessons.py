"""The lesson service (sudokulab.teaching.lessons) behind explain, hint, grade and the page,
grade's records for every puzzle (issue 53), and the page's routes after the split into
routers (issue 55)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sudokulab as sl
from sudokulab.cli import main
from sudokulab.errors import UnsupportedRule, UsageError
from sudokulab.formats.text import parse
from sudokulab.teaching import lessons
from sudokulab.web import learn

EASY = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
STALLS = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SEVERAL = "..6.....5.......4......9.3..4....8....3...6.....7..2..1...5.....2..1.....3.....7."
CLASH = "11" + "." * 79
THERMOMETER = json.dumps({"box": [2, 2], "givens": [[0] * 4] * 4,
                          "rules": [{"type": "thermometer", "cells": ["r1c1", "r1c2", "r2c2"]}]})


def graded(capsys, path, fmt: str) -> tuple[int, str]:
    """grade's exit code and stdout for a file, stalling at hidden singles."""
    code = main(["grade", "--file", str(path), "--format", fmt, "--upto", "hidden single"])
    return code, capsys.readouterr().out


def test_grade_json_gives_every_puzzle_a_record_with_its_status(tmp_path, capsys):
    puzzles = tmp_path / "five.txt"
    puzzles.write_text("\n".join([EASY, "abc", SEVERAL, CLASH, STALLS]) + "\n")
    code, out = graded(capsys, puzzles, "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["status"] for r in records] == ["solved", "bad-input", "several", "none",
                                              "stalled"]
    assert code == 2  # bad input comes before stalled, several and none in the precedence
    assert records[0]["level"] == "Easy" and records[0]["message"] == ""
    assert records[1]["puzzle"] is None and records[1]["where"] == f"{puzzles}:2"
    assert records[2]["puzzle"] == SEVERAL and "several solutions" in records[2]["message"]
    assert records[3]["level"] is None and records[3]["techniques"] == {}
    assert records[4]["solved"] is False and records[4]["message"].startswith("stalled")


def test_grade_json_names_a_puzzle_the_techniques_cannot_take(tmp_path, capsys):
    puzzles = tmp_path / "two.jsonl"
    puzzles.write_text(f"{THERMOMETER}\n{THERMOMETER}\n")
    code, out = graded(capsys, puzzles, "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 5 and [r["status"] for r in records] == ["unsupported", "unsupported"]
    assert "thermometer" in records[0]["message"]


def test_grade_csv_has_a_row_per_puzzle_with_its_status(tmp_path, capsys):
    puzzles = tmp_path / "three.txt"
    puzzles.write_text("\n".join([EASY, SEVERAL, STALLS]) + "\n")
    code, out = graded(capsys, puzzles, "csv")
    header, *rows = out.splitlines()[:4]
    assert header.endswith(",status,message") and code == 7
    assert [row.split(",")[0] for row in rows] == ["1", "2", "3"]
    assert [row.split(",")[8] for row in rows] == ["solved", "several", "stalled"]


def test_the_service_refuses_as_the_commands_and_the_page_say(capsys):
    several = lessons.judge(parse(SEVERAL), 10.0)
    assert isinstance(several, lessons.Refusal)
    assert (several.status, several.code, several.reference) == ("several", 6, "multiple")
    assert main(["explain", SEVERAL]) == several.code
    assert capsys.readouterr().err == f"sudokulab: error: puzzle 1: {several.message}\n"
    page = learn.explain(parse(SEVERAL))
    assert (page["status"], page["message"]) == ("several", several.message)


def test_a_rule_no_technique_knows_is_exit_5_on_the_command_line_and_a_400_on_the_page():
    refused = lessons.judge(parse(THERMOMETER), 10.0)
    assert isinstance(refused, lessons.Refusal)
    assert (refused.status, refused.code, refused.answer) == ("unsupported", 5, None)
    with pytest.raises(UsageError, match="thermometer"):
        learn.hint(parse(THERMOMETER))


def test_a_samurai_gets_no_lesson_and_no_rating():
    samurai = sl.parse((Path(__file__).parent / "data" / "samurai.txt").read_text())
    refused = lessons.judge(samurai, 10.0)
    assert isinstance(refused, lessons.Refusal)
    assert (refused.status, refused.code) == ("unsupported", 5) and "samurai" in refused.message
    with pytest.raises(UnsupportedRule, match="samurai"):
        sl.rate(samurai)


def test_a_walk_ends_as_the_page_and_the_exit_code_say():
    puzzle = parse(STALLS)
    settings = lessons.Settings(upto="hidden single", seconds=10.0)
    walked = lessons.walk(puzzle, settings.selected(), settings.unique, settings.deadline())
    assert walked.ending == "stalled" and lessons.ENDINGS[walked.ending] == 7
    assert learn.explain(puzzle, upto="hidden single")["status"] == "stalled"
    solved = lessons.walk(parse(EASY), lessons.Settings().selected(), True, lambda: False)
    assert solved.ending == "solved" and solved.path.solved


def test_a_hint_past_its_deadline_is_stopped_by_the_service():
    puzzle = parse(STALLS)
    forcing = lessons.Settings(techniques=("forcing chain contradiction",)).selected()
    with pytest.raises(lessons.Stopped):
        lessons.next_step(puzzle, forcing, True, lambda: True)


def test_the_routers_serve_every_route_the_page_and_the_docs_use():
    from fastapi.testclient import TestClient

    from sudokulab.web.app import create_app

    app = create_app()
    paths = {(path, method.upper()) for path, methods in app.openapi()["paths"].items()
             for method in methods}
    assert paths >= {  # routes may be added; none of these may be lost
        ("/api/datasets", "GET"), ("/api/datasets/{name}", "GET"), ("/api/backends", "GET"),
        ("/api/puzzle", "POST"), ("/api/cancel", "POST"), ("/api/solve", "POST"),
        ("/api/compare", "POST"), ("/api/model", "POST"), ("/api/techniques", "GET"),
        ("/api/hint", "POST"), ("/api/explain", "POST"), ("/api/setter", "POST"),
        ("/api/generate", "POST"), ("/api/read", "POST"), ("/api/model/rule", "POST"),
        ("/api/trace", "POST"), ("/api/ladder/grids", "POST"), ("/api/timeline", "POST")}
    client = TestClient(app)  # no lifespan: these need no worker
    for path in ("/", "/favicon.ico", "/docs", "/static/index.html",
                 "/docs-assets/swagger-ui.css"):
        assert client.get(path).status_code == 200, path


def test_a_killer_is_judged_by_sat_a_classic_puzzle_by_norvig():
    from sudokulab.check import check
    from sudokulab.formats import files
    from sudokulab.teaching import verdict

    # a forum killer norvig cannot prove unique in ten seconds (sat: about one)
    path = Path(__file__).parent / "data" / "killers-forum.jsonl"
    killer = files.puzzles(files.read_file(path))[0]
    answer = verdict.referee(killer)
    assert (answer.status.value, answer.stats["referee"]) == ("unique", "sat")
    assert check(killer, answer.solutions[0]) == []
    classic = verdict.referee(parse(EASY)).stats["referee"]
    assert classic == ("native" if verdict._fast_built() else "norvig")  # compiled when built
    from sudokulab import rules as R

    windoku = parse(EASY, rules=[R.Windoku()])  # a variant rule the compiled engine lacks
    assert verdict.referee(windoku).stats["referee"] == "norvig"
