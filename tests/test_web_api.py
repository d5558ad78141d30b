"""The JSON API of `sudokulab serve` through FastAPI's TestClient: every route, bad input as
the command line words it, engine failures and timeouts as results, never a 500."""

from __future__ import annotations

import json
import threading

import pytest
from fastapi.testclient import TestClient

from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.formats import links
from sudokulab.formats.text import parse
from sudokulab.web.app import MAX_BODY, agreement, create_app

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = [int(d) for d in
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"]
KILLER = {"box": [2, 2], "givens": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
          "rules": [{"type": "cage", "cells": ["r1c2", "r2c2"], "total": 7}]}


@pytest.fixture(scope="module")
def client():
    """One app (and its workers) for the module."""
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture
def doubles(test_backends):
    """An app that also knows the misbehaving test backends (hang, crash, wrong)."""
    with TestClient(create_app()) as test_client:
        yield test_client


def cli_error(capsys, *argv: str) -> str:
    """The one-line message `sudokulab` prints for the same bad input."""
    assert main(list(argv)) == 2
    line = capsys.readouterr().err.strip()
    assert line.startswith("sudokulab: error: ") and "\n" not in line
    return line.removeprefix("sudokulab: error: ")


def events(response) -> list[tuple[str, dict]]:
    """The server-sent events of a response: (kind, data) in order."""
    out = []
    for block in response.text.strip().split("\n\n"):
        kind = block.split("\n")[0].removeprefix("event: ")
        out.append((kind, json.loads(block.split("\n")[1].removeprefix("data: "))))
    return out


# --- the page and the listings ---------------------------------------------------------

def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="grid"' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "/api/solve" in client.get("/openapi.json").json()["paths"]


def test_backends_say_whether_they_run_and_why_not(client):
    table = {b["name"]: b for b in client.get("/api/backends").json()}
    assert {"norvig", "sat", "smt", "prolog", "dlx", "asp", "cpsat"} <= set(table)
    assert table["norvig"]["available"] and "cage" in table["norvig"]["rules"]
    for backend in table.values():
        assert backend["available"] or backend["reason"]


def test_datasets_and_a_page_of_puzzles_with_solutions(client):
    sets = {d["name"]: d for d in client.get("/api/datasets").json()}
    assert sets["top95"]["puzzles"] == 95
    page = client.get("/api/datasets/top95", params={"offset": 90, "count": 10}).json()
    assert page["total"] == 95 and [p["index"] for p in page["puzzles"]] == list(range(90, 95))
    for entry in page["puzzles"]:
        assert check(parse(entry["puzzle"]), [int(d) for d in entry["solution"]]) == []


def test_an_unknown_dataset_is_a_400_naming_the_known_ones(client):
    answer = client.get("/api/datasets/nosuch")
    assert answer.status_code == 400 and "top95" in answer.json()["error"]
    assert client.get("/api/datasets/top95", params={"count": 1000}).status_code == 422


def test_puzzle_reads_every_form_the_cli_reads(client):
    killer = client.post("/api/puzzle", json={"puzzle": json.dumps(KILLER)}).json()
    assert killer["box"] == [2, 2] and killer["rules"] == KILLER["rules"]
    link = links.fpuzzles_link(parse(EASY))
    from_link = client.post("/api/puzzle", json={"puzzle": link}).json()
    assert from_link["givens"] == list(parse(EASY).givens)
    grid = "\n".join(EASY[r * 9:r * 9 + 9] for r in range(9))
    assert client.post("/api/puzzle", json={"puzzle": grid}).json()["givens"] == \
        list(parse(EASY).givens)


# --- solve -----------------------------------------------------------------------------

def test_solve_answers_like_result_to_json_plus_the_puzzle(client):
    answer = client.post("/api/solve", json={"puzzle": EASY, "backend": "norvig"}).json()
    assert answer["status"] == "unique" and answer["count"] == 1 and answer["exact"]
    assert answer["solutions"] == [SOLUTION]
    assert answer["valid"] and answer["violations"] == []
    assert answer["puzzle"]["givens"] == list(parse(EASY).givens)
    assert {"stats", "build_time", "solve_time", "message", "time"} <= set(answer)


def test_solve_with_a_limit_and_a_variant(client):
    answer = client.post("/api/solve", json={"puzzle": "." * 16, "limit": 5}).json()
    assert answer["status"] == "multiple" and len({tuple(g) for g in answer["solutions"]}) == 5
    killer = client.post("/api/solve", json={"puzzle": json.dumps(KILLER), "backend": "sat",
                                             "limit": 1}).json()
    assert killer["status"] == "solved"
    grid = killer["solutions"][0]
    assert grid[1] + grid[5] == 7 and check(parse(json.dumps(KILLER)), grid) == []


@pytest.mark.parametrize("text", ["123", "..3.2.6..9..3.5..1..18.64....81.29..7..x",
                                  "{\"box\": [3, 3]", "line one\nline two"])
def test_a_bad_puzzle_is_a_400_with_the_clis_one_line_message(client, capsys, text):
    answer = client.post("/api/solve", json={"puzzle": text})
    assert answer.status_code == 400
    assert answer.json()["error"] == cli_error(capsys, "solve", text)


@pytest.mark.parametrize("spec", ["nosuch", "sat:bogus=1", "sat:solver"])
def test_a_bad_backend_is_a_400_with_the_clis_message(client, capsys, spec):
    answer = client.post("/api/solve", json={"puzzle": EASY, "backend": spec})
    assert answer.status_code == 400
    assert answer.json()["error"] == cli_error(capsys, "solve", EASY, "--backend", spec)


@pytest.mark.parametrize("body, field", [
    ({"puzzle": EASY, "timeout": 1000}, "timeout"),
    ({"puzzle": EASY, "timeout": 0}, "timeout"),
    ({"puzzle": EASY, "limit": 0}, "limit"),
    ({"backend": "norvig"}, "puzzle"),
    ({"puzzle": 42}, "puzzle"),
])
def test_a_body_out_of_bounds_is_a_422_naming_the_field(client, body, field):
    answer = client.post("/api/solve", json=body)
    assert answer.status_code == 422
    message = answer.json()["error"]
    assert message.startswith(f"{field}: ") and "\n" not in message


def test_a_body_that_is_not_json_is_a_422(client):
    answer = client.post("/api/solve", content=b"not json",
                         headers={"content-type": "application/json"})
    assert answer.status_code == 422 and "\n" not in answer.json()["error"]


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    answer = client.post("/api/solve", json={"puzzle": "." * (MAX_BODY + 1)})
    assert answer.status_code == 413 and "too large" in answer.json()["error"]
    chunks = (b"x" * 65536 for _ in range(MAX_BODY // 65536 + 2))  # no content-length
    streamed = client.post("/api/solve", content=chunks,
                           headers={"content-type": "application/json"})
    assert streamed.status_code == 413


def test_givens_that_clash_are_an_answer_none(client):
    answer = client.post("/api/solve", json={"puzzle": "11" + "." * 79})
    assert answer.status_code == 200 and answer.json()["status"] == "none"


# --- engines that misbehave: results, never a 500 ----------------------------------------

def test_a_hung_engine_is_killed_at_its_timeout_and_answered_timeout(doubles):
    answer = doubles.post("/api/solve", json={"puzzle": EASY, "backend": "test-hang",
                                              "timeout": 0.2})
    assert answer.status_code == 200
    assert answer.json()["status"] == "timeout" and "killed" in answer.json()["message"]


@pytest.mark.parametrize("how", ["kill", "exit", "segv"])
def test_a_crashing_engine_is_an_error_result(doubles, how):
    answer = doubles.post("/api/solve", json={"puzzle": EASY, "backend": f"test-crash:how={how}"})
    assert answer.status_code == 200
    assert answer.json()["status"] == "error" and "worker died" in answer.json()["message"]
    again = doubles.post("/api/solve", json={"puzzle": EASY, "backend": "norvig"})
    assert again.json()["status"] == "unique"


def test_a_wrong_grid_fails_the_checker_and_is_reported(doubles):
    answer = doubles.post("/api/solve", json={"puzzle": EASY, "backend": "test-wrong"}).json()
    assert answer["status"] == "invalid" and not answer["valid"]
    assert answer["violations"] and "fails" not in answer["violations"][0]
    assert "invalid grid from test-wrong" in answer["message"]


def test_a_hung_engine_does_not_hold_up_other_requests(doubles):
    hung = {}

    def ask() -> None:
        hung["answer"] = doubles.post("/api/solve", json={
            "puzzle": EASY, "backend": "test-hang", "timeout": 5}).json()

    waiting = threading.Thread(target=ask)
    waiting.start()
    try:
        quick = doubles.post("/api/solve", json={"puzzle": EASY, "backend": "norvig"}).json()
        assert quick["status"] == "unique"
        assert "answer" not in hung  # the hung solve was still under way meanwhile
    finally:
        waiting.join()
    assert hung["answer"]["status"] == "timeout"


# --- compare and the teaching view -----------------------------------------------------

def test_compare_streams_each_engine_then_agreement(client):
    answer = client.post("/api/compare", json={"puzzle": EASY,
                                               "backends": ["norvig", "sat", "dlx"]})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/event-stream")
    stream = events(answer)
    assert stream[0] == ("start", {"backends": ["norvig", "sat", "dlx"],
                                   "puzzle": stream[0][1]["puzzle"]})
    results = [data for kind, data in stream if kind == "result"]
    assert sorted(r["backend"] for r in results) == ["dlx", "norvig", "sat"]
    assert all(r["solutions"] == [SOLUTION] for r in results)
    assert stream[-1] == ("done", {"agree": True, "answered": ["dlx", "norvig", "sat"],
                                   "disagree": [], "grids": 1, "others": []})


def test_compare_names_the_engine_that_disagrees(doubles):
    stream = events(doubles.post("/api/compare", json={
        "puzzle": EASY, "backends": ["norvig", "test-wrong:mode=none", "test-hang"],
        "timeout": 0.2}))
    done = stream[-1][1]
    assert not done["agree"] and done["disagree"] == ["test-wrong:mode=none"]
    assert done["others"] == ["test-hang"]


def test_compare_of_every_available_engine_by_default(client):
    available = [b["name"] for b in client.get("/api/backends").json() if b["available"]]
    stream = events(client.post("/api/compare", json={"puzzle": "." * 15 + "1"}))
    assert stream[0][1]["backends"] == available
    last = stream[-1][1]
    # every searching engine answers; human's techniques stall on a puzzle of many solutions
    assert last["agree"] and last["answered"] == sorted(set(available) - {"human"})
    assert last["others"] == ["human"]


def test_compare_with_a_bad_puzzle_is_a_400(client):
    assert client.post("/api/compare", json={"puzzle": "123"}).status_code == 400


def test_agreement_counts_grids_found_by_all():
    unique = {"backend": "a", "status": "unique", "count": 1, "exact": True,
              "solutions": [[1]]}
    other = {**unique, "backend": "b", "solutions": [[2]]}
    more = {"backend": "c", "status": "multiple", "count": 2, "exact": False,
            "solutions": [[1], [2]]}
    assert agreement([unique, {**unique, "backend": "b"}])["agree"]
    assert agreement([unique, other])["disagree"] == ["a", "b"]
    assert agreement([unique, more])["disagree"] == ["a"]


def test_model_shows_what_a_backend_builds(client):
    sat = client.post("/api/model", json={"puzzle": "." * 16, "backend": "sat"}).json()
    assert sat["ok"] and "clauses" in sat["text"]
    norvig = client.post("/api/model", json={"puzzle": json.dumps(KILLER),
                                             "backend": "norvig"}).json()
    assert norvig["ok"] and norvig["text"]
    assert client.post("/api/model", json={"puzzle": EASY, "backend": "x"}).status_code == 400
