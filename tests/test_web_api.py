"""The JSON API of `sudokulab serve` through FastAPI's TestClient: every route, bad input as
the command line words it, engine failures and timeouts as results, never a 500."""

from __future__ import annotations

import json
import logging
import re
import select
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import add_to_path, post, serving, start_server, stop
from fastapi.testclient import TestClient

from sudokulab.backends import make_backend, names
from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.errors import Exit
from sudokulab.formats import links
from sudokulab.formats.text import parse
from sudokulab.harness.testing import write_plugin
from sudokulab.puzzle import line_of
from sudokulab.result import Result, Status
from sudokulab.web import learn
from sudokulab.web.app import create_app
from sudokulab.web.guards import MAX_BODY, MAX_IMAGE
from sudokulab.web.routes.solve import MEASURED, agreement

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = [int(d) for d in
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"]
KILLER = {"box": [2, 2], "givens": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
          "rules": [{"type": "cage", "cells": ["r1c2", "r2c2"], "total": 7}]}
# givens that repeat (1 at r3c8 and r9c8): one blank cell, and no solution
BROKEN = "4.7369825632158947958724316825437169791586432346912758289643571573291684164875213"
NO_SOLUTION = "46....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# a 16x16 with one solution (the generator's, seed 4) whose explanation takes the human
# solver far longer than a few seconds
SLOW = (".4.B....C.9...3E18........2.57.....7.5...A..D..2.5.FC4..E...A.B."
        "32..D9.G..8..F..F...2E4..37...G...E..FB3.6.....8...D..5.B...4..."
        "..F.B..AG...2...G....2E65..C..A.7.C4..G.......5.8.....9..B...GF."
        "....6......1.E...C5A.....74....B..6..A..F2..8594.D..713....9G2..")
# a killer on which forcing nets alone search for long and find nothing (tens of seconds)
SLOW_HINT = {"puzzle": (Path(__file__).parent / "data" / "killers.jsonl").read_text()
             .splitlines()[5], "techniques": ["Forcing Net Verity", "Nested Forcing Net"],
             "timeout": 60}
# a plugin backend whose grids do not match its count: one grid, claimed "at least 2"
MISCOUNT = """
from sudokulab.backends import make_backend
from sudokulab.harness.testing import TestBackend
from sudokulab.result import Result, Status


class MiscountBackend(TestBackend):
    name = "test-miscount"

    def _solve(self, puzzle, limit, deadline):
        right = make_backend("norvig").solve(puzzle, limit=1, timeout=deadline.left())
        return Result(Status.MULTIPLE, right.solutions * 2, 2, False)
"""


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


@pytest.fixture
def miscount(test_backends, tmp_path, monkeypatch):
    """An app that also knows test-miscount (MISCOUNT) besides the test backends."""
    (tmp_path / "web_miscount.py").write_text(MISCOUNT)
    write_plugin(tmp_path, {"test-miscount": "web_miscount:MiscountBackend"},
                 name="web_miscount")
    add_to_path(monkeypatch, tmp_path)
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture
def served(test_backends):
    """The app under uvicorn in a thread, on a free port (TestClient cannot hang up
    mid-request): the app and its port."""
    app = create_app()
    with serving(app) as port:
        yield app, port


def until(condition) -> None:
    """Wait until condition() holds (no time limit: each caller's condition also holds
    once the work it waits on has ended by itself)."""
    while not condition():
        time.sleep(0.02)


def asking(client, route: str, body: dict) -> tuple[threading.Thread, dict]:
    """A request sent from a thread: the thread, and where its JSON answer lands."""
    answer: dict = {}

    def ask() -> None:
        answer.update(client.post(route, json=body).json())

    thread = threading.Thread(target=ask)
    thread.start()
    return thread, answer


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
    files = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert any(f.endswith(".js") for f in files) and any(f.endswith(".css") for f in files)
    for name in files:  # the page's script and style (its modules are imported from there)
        assert client.get(name).status_code == 200, name
    assert "/api/solve" in client.get("/openapi.json").json()["paths"]


def test_head_and_the_favicon_answer(client):
    assert client.head("/").status_code == 200
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith("<svg") and icon.text.endswith("</svg>")


def test_docs_work_offline_from_the_servers_own_files(client):
    page = client.get("/docs")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    links = re.findall(r'(?:src|href)="([^"]+)"', page.text) + re.findall(
        r"url: '([^']+)'", page.text)
    assert len(links) >= 4 and not re.search(r"https?://", page.text)
    for link in links:  # the script, the style, the icon, the API description
        assert link.startswith("/") and client.get(link).status_code == 200, link
    assert client.get("/redoc").status_code == 404  # it would load from a CDN


def test_backends_say_whether_they_run_and_why_not(client):
    table = {b["name"]: b for b in client.get("/api/backends").json()}
    assert set(names()) <= set(table)
    assert table["norvig"]["available"] and "cage" in table["norvig"]["rules"]
    for backend in table.values():
        assert backend["available"] or backend["reason"]


def test_datasets_and_a_page_of_puzzles_with_solutions(client):
    sets = {d["name"]: d for d in client.get("/api/datasets").json()}
    assert sets["top95"]["puzzles"] == 95
    page = client.get("/api/datasets/top95", params={"offset": 90, "number": 10}).json()
    assert page["total"] == 95 and [p["index"] for p in page["puzzles"]] == list(range(90, 95))
    for entry in page["puzzles"]:
        assert check(parse(entry["puzzle"]), [int(d) for d in entry["solution"]]) == []


def test_an_unknown_dataset_is_a_400_naming_the_known_ones(client):
    answer = client.get("/api/datasets/nosuch")
    assert answer.status_code == 400 and "top95" in answer.json()["error"]
    assert client.get("/api/datasets/top95", params={"number": 1000}).status_code == 422


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


DEEP = '{"box": [3, 3], "givens": ' + "[" * 20_000 + "]" * 20_000 + "}"  # fits 100,000


@pytest.mark.parametrize("text", ["123", "..3.2.6..9..3.5..1..18.64....81.29..7..x",
                                  "{\"box\": [3, 3]", "line one\nline two", DEEP],
                         ids=lambda text: "nested-20000-deep" if text == DEEP else text)
def test_a_bad_puzzle_is_a_400_with_the_clis_one_line_message(client, capsys, text):
    answer = client.post("/api/solve", json={"puzzle": text})
    assert answer.status_code == 400
    assert answer.json()["error"] == cli_error(capsys, "solve", text)


def test_a_link_decompressing_past_any_puzzle_is_a_400_with_the_clis_message(client, capsys):
    import lzstring

    bomb = links.FPUZZLES + lzstring.LZString().compressToBase64("{" + "x" * 1_000_000)
    answer = client.post("/api/solve", json={"puzzle": bomb, "tag": "bomb"})
    assert answer.status_code == 400
    assert answer.json() == {"error": cli_error(capsys, "solve", bomb), "tag": "bomb"}
    assert "decompresses to more than 1,000,000 characters" in answer.json()["error"]


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
    assert answer.json()["error"].startswith("the body is not JSON (")  # no field "0"
    text = client.post("/api/solve", content=b'{"puzzle": "1"}',
                       headers={"content-type": "text/plain"})
    assert text.status_code == 422 and "Content-Type: application/json" in text.json()["error"]


@pytest.mark.parametrize("body", [b"\xff\xfe{", b"[" * 6000])  # not UTF-8; nested too deep
def test_what_the_framework_refuses_has_the_apis_error_shape(client, body):
    answer = client.post("/api/solve", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422 and set(answer.json()) == {"error", "tag"}
    assert answer.json()["error"].startswith("the body is not JSON (")
    for route, status in (("/api/nosuch", 404), ("/api/solve", 405)):
        answer = client.get(route)
        assert answer.status_code == status and set(answer.json()) == {"error", "tag"}


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    answer = client.post("/api/solve", json={"puzzle": "." * (MAX_BODY + 1)})
    assert answer.status_code == 413 and "too large" in answer.json()["error"]
    assert set(answer.json()) == {"error", "tag"}  # the shape of every refusal
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
    assert answer.json()["exact"] is False  # no grid counted: '>= 0', never 'exactly 0'


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
    assert answer["message"].startswith("invalid answer from test-wrong: invalid grid: ")


def test_grids_that_do_not_match_the_count_are_invalid(miscount):
    answer = miscount.post("/api/solve", json={"puzzle": EASY,
                                               "backend": "test-miscount"}).json()
    assert answer["status"] == "invalid" and not answer["valid"]
    assert answer["solutions"] == [SOLUTION, SOLUTION] and answer["violations"] == []
    assert answer["message"] == ("invalid answer from test-miscount: claims >= 2 "
                                 "solution(s) but returns 1 distinct grid(s)")


def test_compare_judges_mixed_answers_by_their_grids(miscount):
    stream = events(miscount.post("/api/compare", json={
        "puzzle": EASY, "backends": ["norvig", "test-miscount", "test-wrong:mode=none",
                                     "test-noop"]}))
    assert stream[-1] == ("done", {
        "agree": False, "answered": ["norvig", "test-miscount", "test-wrong:mode=none"],
        "disagree": ["test-miscount", "test-wrong:mode=none"], "grids": 1,
        "others": ["test-noop"], "cancelled": False, "tag": None,
        "message": "the answers disagree: test-miscount, test-wrong:mode=none judged wrong "
                   "by their grids; test-noop does not take this puzzle's rules"})


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
                                   "puzzle": stream[0][1]["puzzle"], "tag": None,
                                   "measured": MEASURED})
    results = [data for kind, data in stream if kind == "result"]
    assert [r["backend"] for r in results] == ["norvig", "sat", "dlx"]  # in turn
    assert all(r["cpu"] >= 0 and r["time"] > 0 for r in results)
    assert all(r["solutions"] == [SOLUTION] for r in results)
    assert stream[-1] == ("done", {"agree": True, "answered": ["dlx", "norvig", "sat"],
                                   "disagree": [], "grids": 1, "others": [],
                                   "message": "all 3 engines agree", "cancelled": False,
                                   "tag": None})


def test_compare_runs_an_engine_named_twice_once_and_is_not_cancelled(client):
    """As `sudokulab compare -b sat,sat`: the second name runs nothing (its answer waited
    on a tag already answered, and the compare ended 'cancelled after 1 of 2 answers')."""
    answer = client.post("/api/compare", json={"puzzle": EASY, "tag": "dup",
                                               "backends": ["norvig", "dlx", "norvig"]})
    stream = events(answer)
    assert stream[0][1]["backends"] == ["norvig", "dlx"]
    assert [data["backend"] for kind, data in stream if kind == "result"] == ["norvig", "dlx"]
    assert stream[-1][1]["cancelled"] is False
    assert stream[-1][1]["message"] == "all 2 engines agree"


def test_compare_of_no_backend_is_a_400_as_on_the_command_line(client):
    answer = client.post("/api/compare", json={"puzzle": EASY, "backends": []})
    assert answer.status_code == 400 and "names no backend" in answer.json()["error"]


def test_compare_runs_one_engine_at_a_time_after_a_warm_up(doubles, monkeypatch):
    """Each engine's time is its own: no two solves of a compare overlap, and a new
    worker's first solve is preceded by an untimed warm-up, which the answer reports."""
    pool = doubles.app.state.pool
    solve, running, most = pool.solve, [0], [0]

    async def counted(*args, **kwargs):
        running[0] += 1
        most[0] = max(most[0], running[0])
        try:
            return await solve(*args, **kwargs)
        finally:
            running[0] -= 1

    monkeypatch.setattr(pool, "solve", counted)
    body = {"puzzle": EASY, "backends": ["norvig", "dlx", "sat", "cpsat"]}
    first = [d for kind, d in events(doubles.post("/api/compare", json=body)) if kind == "result"]
    again = [d for kind, d in events(doubles.post("/api/compare", json=body)) if kind == "result"]
    assert most[0] == 1
    assert all(r["warmup"] is not None and r["warmup"] > 0 for r in first)
    assert all(r["warmup"] is None for r in again)  # the same warm workers


def test_compare_names_the_engine_that_disagrees(doubles):
    stream = events(doubles.post("/api/compare", json={
        "puzzle": EASY, "backends": ["norvig", "test-wrong:mode=none", "test-hang"],
        "timeout": 0.2}))
    done = stream[-1][1]
    assert not done["agree"] and done["disagree"] == ["test-wrong:mode=none"]
    assert done["others"] == ["test-hang"]
    assert done["message"] == ("the answers disagree: test-wrong:mode=none judged wrong by "
                               "their grids; test-hang timed out")


def test_compare_of_every_available_engine_by_default(client):
    available = [b["name"] for b in client.get("/api/backends").json() if b["available"]]
    stream = events(client.post("/api/compare", json={"puzzle": "." * 15 + "1"}))
    assert stream[0][1]["backends"] == available
    last = stream[-1][1]
    # every searching engine answers; human's techniques stall on a puzzle of many solutions
    assert last["agree"] and last["answered"] == sorted(set(available) - {"human"})
    assert last["others"] == ["human"]
    # the line the page shows names the engine that gave no answer, never "all agree"
    assert last["message"] == (f"{len(available) - 1} of {len(available)} engines agree; "
                               f"human stalled")


def test_compare_with_a_bad_puzzle_is_a_400(client):
    assert client.post("/api/compare", json={"puzzle": "123"}).status_code == 400


def test_agreement_counts_grids_found_by_all():
    puzzle = parse("." * 15 + "1")  # many solutions
    one, two = make_backend("norvig").solve(puzzle, limit=2).solutions
    unique = Result(Status.UNIQUE, (one,), 1, True)
    assert agreement(puzzle, {"a": unique, "b": unique})["agree"]
    assert agreement(puzzle, {"a": unique, "b": Result(Status.UNIQUE, (two,), 1, True)}) \
        ["disagree"] == ["a", "b"]
    more = Result(Status.MULTIPLE, (one, two), 2, False)
    assert agreement(puzzle, {"a": unique, "c": more}) == {
        "agree": False, "answered": ["a", "c"], "disagree": ["a"], "grids": 2, "others": [],
        "message": "the answers disagree: a judged wrong by their grids"}


def test_agreement_over_mixed_answers_judges_each_claim_by_its_grids():
    puzzle = parse(EASY)
    grid = tuple(SOLUTION)
    spoiled = (grid[1], *grid[1:])  # r1c1 repeats r1c2's digit
    done = agreement(puzzle, {
        "right": Result(Status.UNIQUE, (grid,), 1, True),
        "twice": Result(Status.MULTIPLE, (grid, grid), 2, False),  # one grid for ">= 2"
        "spoiled": Result(Status.SOLVED, (spoiled,), 1, False),
        "late": Result(Status.TIMEOUT, (), 0, False),
        "none": Result(Status.NONE),
        "stalled": Result(Status.STALLED)})
    assert done == {"agree": False, "answered": ["none", "right", "spoiled", "twice"],
                    "disagree": ["none", "spoiled", "twice"], "grids": 1,
                    "others": ["late", "stalled"],
                    "message": "the answers disagree: none, spoiled, twice judged wrong by "
                               "their grids; late timed out, stalled stalled"}
    assert agreement(puzzle, {"late": Result(Status.TIMEOUT, (), 0, False)}) == {
        "agree": False, "answered": [], "disagree": [], "grids": 0, "others": ["late"],
        "message": "no answer from 1 engine; late timed out"}
    some = agreement(puzzle, {"right": Result(Status.UNIQUE, (grid,), 1, True),
                              "again": Result(Status.UNIQUE, (grid,), 1, True),
                              "late": Result(Status.TIMEOUT, (), 0, False),
                              "odd": Result(Status.UNSUPPORTED),
                              "broke": Result(Status.ERROR)})
    assert some["agree"] and some["message"] == (
        "2 of 5 engines agree; broke failed, late timed out, odd does not take this "
        "puzzle's rules")


def test_model_shows_what_a_backend_builds(client):
    sat = client.post("/api/model", json={"puzzle": "." * 16, "backend": "sat"}).json()
    assert sat["ok"] and "clauses" in sat["text"]
    norvig = client.post("/api/model", json={"puzzle": json.dumps(KILLER),
                                             "backend": "norvig"}).json()
    assert norvig["ok"] and norvig["text"]
    assert client.post("/api/model", json={"puzzle": EASY, "backend": "x"}).status_code == 400


# --- reading a puzzle: off the event loop ------------------------------------------------

HELD_READ = 30.0  # seconds a held read waits at most: only where reading blocks the loop


@pytest.mark.parametrize("route", ["/api/puzzle", "/api/solve"])
def test_a_puzzle_slow_to_read_holds_up_no_other_request(monkeypatch, route):
    """While one request's text is read (held until the others have answered), a cancel
    and the backends are answered: reading runs off the server's event loop."""
    from sudokulab.formats import text as formats_text

    reading, release, order = threading.Event(), threading.Event(), []
    parse = formats_text.parse

    def held(text: str, **options):
        reading.set()
        release.wait(HELD_READ)  # on the event loop, nothing else is answered meanwhile
        order.append("read")
        return parse(text, **options)

    monkeypatch.setattr(formats_text, "parse", held)
    answer: dict = {}
    with serving(create_app()) as port:
        server = f"http://127.0.0.1:{port}"
        slow = threading.Thread(target=lambda: answer.update(
            post(server, route, {"puzzle": EASY, "tag": "slow"})))
        slow.start()
        assert reading.wait(HELD_READ)
        assert post(server, "/api/cancel", {"tag": "slow"})["tag"] == "slow"
        order.append("cancel")
        with urllib.request.urlopen(f"{server}/api/backends") as backends:
            assert json.load(backends)
        order.append("backends")
        release.set()
        slow.join()
    assert order == ["cancel", "backends", "read"]
    assert answer["tag"] == "slow" and "error" not in answer  # answered as ever


# --- tags: echoed by every answer; cancelled on request or when the client leaves ----------

def test_every_answer_and_event_echoes_its_tag(client):
    tagged = {"puzzle": EASY, "tag": "easy50#1:7"}
    for route in ("puzzle", "solve", "model", "hint", "explain"):
        assert client.post(f"/api/{route}", json=tagged).json()["tag"] == "easy50#1:7", route
    made = client.post("/api/generate", json={"box": [2, 2], "seed": 1, "tag": "g:1"})
    assert made.json()["tag"] == "g:1"
    stream = events(client.post("/api/compare", json={**tagged, "backends": ["norvig", "dlx"]}))
    assert [kind for kind, _ in stream] == ["start", "result", "result", "done"]
    assert all(data["tag"] == "easy50#1:7" for _, data in stream)
    assert client.post("/api/solve", json={"puzzle": "123", "tag": "x:1"}).json() == {
        "error": client.post("/api/solve", json={"puzzle": "123"}).json()["error"],
        "tag": "x:1"}
    assert client.post("/api/hint", json={**tagged, "timeout": 0}).json()["tag"] == "easy50#1:7"
    too_long = client.post("/api/solve", json={"puzzle": EASY, "tag": "t" * 101})
    assert too_long.status_code == 422 and too_long.json()["error"].startswith("tag: ")


def test_cancel_ends_a_solve_and_its_worker(doubles):
    thread, answer = asking(doubles, "/api/solve", {"puzzle": EASY, "backend": "test-hang",
                                                    "timeout": 60, "tag": "p1:1"})
    jobs, pool = doubles.app.state.jobs, doubles.app.state.pool
    until(lambda: "p1:1" in jobs.by_tag or not thread.is_alive())
    assert doubles.post("/api/cancel", json={"tag": "p1:1"}).json() == {"cancelled": 1,
                                                                        "tag": "p1:1"}
    thread.join()
    assert answer["status"] == "cancelled" and answer["tag"] == "p1:1"
    assert pool.live.get(("test-hang", 2, 60.0), 0) == 0  # its worker was ended
    assert doubles.post("/api/cancel", json={"tag": "p1:1"}).json()["cancelled"] == 0
    assert doubles.post("/api/solve", json={"puzzle": EASY}).json()["status"] == "unique"


def test_cancel_ends_a_compare_and_says_so_in_its_last_event(doubles):
    body = {"puzzle": EASY, "backends": ["norvig", "test-hang"], "timeout": 60, "tag": "c:1"}
    stream: list = []

    def ask() -> None:
        stream.extend(events(doubles.post("/api/compare", json=body)))

    thread = threading.Thread(target=ask)
    thread.start()
    jobs = doubles.app.state.jobs
    until(lambda: len(jobs.by_tag.get("c:1", ())) == 2 or not thread.is_alive())
    assert doubles.post("/api/cancel", json={"tag": "c:1"}).json()["cancelled"] >= 1
    thread.join()
    kind, done = stream[-1]
    assert kind == "done" and done["cancelled"] and done["tag"] == "c:1"
    assert done["message"].startswith("cancelled after ")
    assert doubles.app.state.pool.live.get(("test-hang", 2, 60.0), 0) == 0


def test_cancel_ends_a_hint_and_its_helper(client):
    thread, answer = asking(client, "/api/hint", {**SLOW_HINT, "tag": "k:1"})
    tutor = client.app.state.tutor
    until(lambda: "k:1" in client.app.state.jobs.by_tag or not thread.is_alive())
    assert client.post("/api/cancel", json={"tag": "k:1"}).json()["cancelled"] == 1
    thread.join()
    assert answer["status"] == "cancelled" and answer["step"] is None
    assert tutor.busy == 0  # the helper was ended, not left searching


def test_a_quick_hint_is_answered_while_two_slow_ones_run(client):
    tutor = client.app.state.tutor
    slow = [asking(client, "/api/hint", {**SLOW_HINT, "tag": f"slow:{k}"}) for k in (1, 2)]
    until(lambda: tutor.busy >= 2 or not all(t.is_alive() for t, _ in slow))
    quick = client.post("/api/hint", json={"puzzle": EASY}).json()
    assert quick["status"] == "step"
    assert not any(answer for _, answer in slow)  # both slow hints were still searching
    for k in (1, 2):
        client.post("/api/cancel", json={"tag": f"slow:{k}"})
    for thread, answer in slow:
        thread.join()
        assert answer["status"] == "cancelled"


def request_bytes(route: str, body: dict) -> bytes:
    """A raw HTTP/1.1 POST of a JSON body."""
    data = json.dumps(body).encode()
    return (f"POST {route} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n").encode() + data


@pytest.mark.parametrize("route, body", [
    ("/api/solve", {"puzzle": EASY, "backend": "test-hang", "timeout": 60}),
    ("/api/compare", {"puzzle": EASY, "backends": ["test-hang"], "timeout": 60}),
    ("/api/hint", SLOW_HINT),
    ("/api/explain", {"puzzle": SLOW, "timeout": 60}),
])
def test_a_client_that_leaves_stops_its_work(served, caplog, route, body):
    app, port = served
    caplog.set_level(logging.INFO, logger="sudokulab.web")
    tag = f"gone{route}"
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(request_bytes(route, {**body, "tag": tag}))
        if route == "/api/compare":  # streamed: its headers come at once, then the start
            # event, once the solves are under the tag (a poll could see the headers first)
            received = b""
            while b"event: start" not in received:
                chunk = connection.recv(4096)
                assert chunk, f"the server closed the stream: {received!r}"
                received += chunk
            assert b"event: result" not in received
        else:
            until(lambda: tag in app.state.jobs.by_tag
                  or select.select([connection], [], [], 0)[0])
        assert tag in app.state.jobs.by_tag  # under way, no answer yet
    until(lambda: tag not in app.state.jobs.by_tag)  # ended: by the hang-up, or in 60 s
    assert any(f"tag '{tag}': the client left" in r.getMessage() for r in caplog.records)
    assert app.state.tutor.busy == 0
    assert app.state.pool.live.get(("test-hang", 2, 60.0), 0) == 0


# --- learn: hints and explanations from the human-style solver -----------------------------

def cli_json(capsys, *argv: str):
    """What `sudokulab ARGV --format json` prints for one puzzle."""
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def replay(start: list[list[int]], steps: list[dict], givens: list[int]) -> tuple:
    """The grid and candidates after the steps, applied as the page applies them."""
    n = int(len(givens) ** 0.5)
    values, marks = list(givens), [set(digits) for digits in start]
    for step in steps:
        for r, c, d in step["placements"]:
            values[(r - 1) * n + c - 1] = d
            marks[(r - 1) * n + c - 1].clear()
        for r, c, d in step["removed"]:
            marks[(r - 1) * n + c - 1].discard(d)
    return values, marks


def test_techniques_are_listed_easiest_first(client):
    table = client.get("/api/techniques").json()
    assert table[0]["name"] == "Full House" and table[0]["level"] == "Easy"
    assert [t["name"] for t in table if t["uniqueness"]][0] == "Uniqueness Test 1"


def test_hint_is_the_clis_step_with_what_to_highlight(client, capsys):
    answer = client.post("/api/hint", json={"puzzle": EASY}).json()
    assert answer["status"] == "step" and answer["verified"] is True
    step = answer["step"]
    assert {k: step[k] for k in ("technique", "placements", "eliminations", "text")} == \
        cli_json(capsys, "hint", EASY)
    assert step["sentence"] and step["text"] == answer["message"]
    (r, c, d), = step["placements"]
    assert [r, c] in step["cells"] and SOLUTION[(r - 1) * 9 + c - 1] == d
    # the placement takes d from every peer that had it, and nothing else
    peers = {(rr, cc) for rr in range(1, 10) for cc in range(1, 10) if (rr, cc) != (r, c)
             and (rr == r or cc == c or (rr - 1) // 3 == (r - 1) // 3 and (cc - 1) // 3 ==
                  (c - 1) // 3) and d in answer["candidates"][(rr - 1) * 9 + cc - 1]}
    assert peers and sorted(step["removed"]) == sorted([rr, cc, d] for rr, cc in peers)
    assert answer["candidates"][(r - 1) * 9 + c - 1] == [d]  # a naked single


def test_hint_with_eliminations_names_its_units_and_cells(client, top95):
    answer = client.post("/api/hint", json={"puzzle": line_of(top95[53][0].givens)}).json()
    step = answer["step"]
    assert step["technique"] == "Locked Candidates Type 1 (Pointing)"
    assert step["eliminations"] and not step["placements"]
    assert sorted(step["removed"]) == sorted(step["eliminations"])
    box = next(u for u in step["units"] if u["name"].startswith("box"))
    assert all(cell in box["cells"] for cell in step["cells"])
    for r, c, d in step["eliminations"]:
        assert d in answer["candidates"][(r - 1) * 9 + c - 1]
        assert top95[53][1][(r - 1) * 9 + c - 1] != d  # never the solution's digit


def test_explain_is_the_clis_path_and_replays_to_the_solution(client, capsys, top95):
    puzzle, solution = top95[0]
    line = line_of(puzzle.givens)
    answer = client.post("/api/explain", json={"puzzle": line}).json()
    cli = cli_json(capsys, "explain", line)
    assert answer["status"] == "solved" and answer["verified"] is True
    assert answer["referee"] == "native"  # a classic puzzle; sat judges a killer
    assert {k: answer[k] for k in ("solved", "level", "score", "rating")} == \
        {k: cli[k] for k in ("solved", "level", "score", "rating")}
    keys = ("technique", "placements", "eliminations", "text")
    assert [{k: s[k] for k in keys} for s in answer["steps"]] == cli["steps"]
    values, marks = replay(answer["candidates"], answer["steps"], list(puzzle.givens))
    assert values == list(solution) and check(puzzle, values) == []
    assert not any(marks)


def test_explain_walks_on_from_the_players_pencil_marks(client, capsys):
    """A pasted position (its values and candidates, as /api/position opens it): the
    path is the CLI's on the same position. Before, a 400 ("only /api/hint starts from
    the player's pencil marks") whenever the board had marks."""
    line = (Path(__file__).parent / "data" / "positions" / "library_line.txt").read_text()
    opened = client.post("/api/position", json={"puzzle": line.strip()}).json()
    body = {"puzzle": opened["puzzle"]["line"], "values": opened["values"],
            "candidates": opened["candidates"]}
    answer = client.post("/api/explain", json=body).json()
    cli = cli_json(capsys, "explain", line.strip())
    assert answer["status"] == "solved" and answer["verified"] is True
    assert (answer["rating"], len(answer["steps"])) == (cli["rating"], len(cli["steps"]))
    assert [s["text"] for s in answer["steps"]] == [s["text"] for s in cli["steps"]]
    assert answer["candidates"] == opened["candidates"]


def test_explain_stalls_with_fewer_techniques(client, top95):
    line = line_of(top95[0][0].givens)
    answer = client.post("/api/explain", json={"puzzle": line, "upto": "Hidden Single"}).json()
    assert answer["status"] == "stalled" and not answer["solved"]
    assert {s["technique"] for s in answer["steps"]} <= {"Full House", "Naked Single",
                                                         "Hidden Single"}
    only = client.post("/api/hint", json={"puzzle": EASY, "techniques": ["hidden single"]})
    assert only.json()["step"]["technique"] == "Hidden Single"


@pytest.mark.parametrize("route", ["hint", "explain"])
def test_learn_refuses_a_rule_no_technique_knows_with_a_400(client, capsys, route):
    thermometer = json.dumps({**KILLER, "rules": [{"type": "thermometer",
                                                   "cells": ["r1c2", "r2c2", "r3c2"]}]})
    answer = client.post(f"/api/{route}", json={"puzzle": thermometer})
    assert answer.status_code == 400
    assert "know no thermometer rule" in answer.json()["error"]
    assert main([route, thermometer]) == 5  # the command line refuses it the same way
    assert answer.json()["error"] in capsys.readouterr().err


def test_generate_leaves_a_puzzle_of_unknown_rules_ungraded(client):
    answer = client.post("/api/generate", json={"rules": ["thermometer"], "seed": 3}).json()
    assert answer["status"] == "generated"
    assert (answer["level"], answer["score"], answer["rating"]) == (None, None, None)
    assert "no technique knows thermometer" in answer["message"]


def test_hint_on_a_wrong_entry_says_there_is_no_solution(client):
    wrong = "5" + EASY[1:]  # r1c1 is 4 in the solution; 5 clashes with no given
    answer = client.post("/api/hint", json={"puzzle": wrong}).json()
    assert answer["status"] == "none" and answer["step"] is None
    assert answer["message"] == "no solution (native)"
    full = client.post("/api/hint", json={"puzzle": "".join(map(str, SOLUTION))}).json()
    assert full["status"] == "full" and full["step"] is None


def test_a_position_given_as_a_puzzle_is_named_as_one(client):
    """Before: "wrong length: 729 cells" for a pencil-mark string pasted as the puzzle."""
    line = (Path(__file__).parent / "data" / "positions" / "library_line.txt").read_text()
    for route in ("/api/hint", "/api/solve"):  # what to send instead, whichever route
        answer = client.post(route, json={"puzzle": line.strip()})
        assert answer.status_code == 400
        assert "send its puzzle here (/api/position reads the position" in \
            answer.json()["error"]


def applied(values: list[int], marks: list[list[int]], step: dict) -> tuple[list, list]:
    """The player's entries and pencil marks after applying a step, as the page does."""
    n = int(len(values) ** 0.5)
    values, marks = list(values), [list(m) for m in marks]
    for r, c, d in step["placements"]:
        values[(r - 1) * n + c - 1], marks[(r - 1) * n + c - 1] = d, []
    for r, c, d in step["removed"]:
        marks[(r - 1) * n + c - 1] = [x for x in marks[(r - 1) * n + c - 1] if x != d]
    return values, marks


def test_hints_from_the_players_own_marks_never_repeat_a_step(client, top95):
    puzzle, solution = top95[0]
    line = line_of(puzzle.givens)
    values, marks, seen = [0] * 81, None, []
    for _ in range(8):  # elimination steps among them: each must lead to the next
        answer = client.post("/api/hint", json={"puzzle": line, "values": values,
                                                "candidates": marks}).json()
        assert answer["status"] == "step" and answer["verified"] is True
        step = answer["step"]
        assert step["text"] not in seen, seen
        seen.append(step["text"])
        values, marks = applied(values, answer["candidates"], step)
    assert any(not step.startswith(("Full House", "Naked Single", "Hidden Single"))
               for step in seen)
    assert all(v in (0, solution[k]) for k, v in enumerate(values))


def test_a_hint_starts_from_the_players_entries_and_marks(client):
    values = [0] * 81
    values[0] = SOLUTION[0]  # r1c1 entered: no longer a blank cell to fill
    marks = [[] for _ in range(81)]
    marks[1] = [SOLUTION[1]]  # r1c2: the player kept one mark, the solution's digit
    answer = client.post("/api/hint", json={"puzzle": EASY, "values": values,
                                            "candidates": marks}).json()
    assert answer["status"] == "step"
    assert answer["candidates"][0] == [] and answer["candidates"][1] == [SOLUTION[1]]
    assert answer["step"]["placements"] == [[1, 2, SOLUTION[1]]]  # the single they made
    assert len(answer["candidates"][5]) > 1  # r1c6, without marks: what the rules allow


def test_a_wrong_entry_or_mark_is_named_and_gets_no_step(client):
    values = [0] * 81
    values[1] = 1 if SOLUTION[1] != 1 else 2  # r1c2: not the solution's digit
    answer = client.post("/api/hint", json={"puzzle": EASY, "values": values}).json()
    assert answer["status"] == "wrong" and answer["step"] is None
    assert answer["message"] == "r1c2 differs from the solution"
    assert answer["wrong"] == [[1, 2]]
    marks = [[] for _ in range(81)]
    marks[3] = [d for d in range(1, 10) if d != SOLUTION[3]]  # r1c4 rules out its digit
    marked = client.post("/api/hint", json={"puzzle": EASY, "candidates": marks}).json()
    assert marked["status"] == "wrong" and marked["wrong"] == [[1, 4]]
    assert marked["message"] == "the pencil marks of r1c4 leave out the solution's digit"
    explained = client.post("/api/explain", json={"puzzle": EASY, "values": values}).json()
    assert explained["status"] == "wrong" and explained["steps"] == []


@pytest.mark.parametrize("body, code, message", [
    ({"values": [0] * 80}, 400, "values: 80 cells, the 9x9 puzzle has 81"),
    ({"values": [0] * 2 + [5] + [0] * 78}, 400, "values: r1c3 is given 3, not 5"),
    ({"candidates": [[]] * 82}, 400, "candidates: 82 cells, the 9x9 puzzle has 81"),
    ({"values": [26] + [0] * 80}, 422, "values.0: "),
    ({"candidates": [[1, 2]] * 80 + [[0]]}, 400, "candidates: r9c9 has 0, digits of a 9x9 "
                                                 "go from 1 to 9"),
])
def test_a_players_state_that_does_not_fit_is_refused_in_one_line(client, body, code,
                                                                  message):
    answer = client.post("/api/hint", json={"puzzle": EASY, **body})
    assert answer.status_code == code and answer.json()["error"].startswith(message)
    assert "\n" not in answer.json()["error"]
    sixteen = client.post("/api/hint", json={"puzzle": "." * 15 + "1", "values": [10] * 16})
    assert sixteen.json()["error"] == "values: r1c1 holds 10, digits of a 4x4 go from 1 to 4"
    # explain walks on from pencil marks too: marks leaving out the solution are wrong
    marks = client.post("/api/explain", json={"puzzle": EASY, "candidates": [[1]] * 81})
    assert marks.status_code == 200 and marks.json()["status"] == "wrong"


@pytest.mark.parametrize("route", ["hint", "explain"])
@pytest.mark.parametrize("text, status, code", [(BROKEN, "none", Exit.NONE),
                                                (NO_SOLUTION, "none", Exit.NONE),
                                                ("." * 81, "several", Exit.SEVERAL)])
def test_learn_gives_no_step_unless_norvig_proves_one_solution(client, capsys, route, text,
                                                               status, code):
    # the command line's verdict: no step, no level, no "solved"; the empty grid at once
    answer = client.post(f"/api/{route}", json={"puzzle": text}).json()
    assert answer["status"] == status
    assert main([route, text]) == code
    assert f"puzzle 1: {answer['message']}" in capsys.readouterr().err
    assert answer["step" if route == "hint" else "steps"] in (None, [])
    # every documented key is there (a client reads answer["referee"]), null where none
    documented = {"status", "message", "candidates", "verified", "problems", "reference",
                  "referee", "puzzle"} | ({"step"} if route == "hint" else
                                           {"steps", "solved", "level", "score", "rating",
                                            "hardest"})
    assert documented <= set(answer), documented - set(answer)
    assert all(answer[key] is None for key in ("verified", "level", "score", "rating",
                                               "solved") if key in documented)
    if status == "several":  # the referee that found two solutions is named
        assert answer["referee"] and answer["referee"] in answer["message"]


@pytest.mark.parametrize("route", ["hint", "explain"])
def test_learn_bad_input_is_a_400_with_the_clis_message(client, capsys, route):
    for text in ("123", "line one\nline two"):
        answer = client.post(f"/api/{route}", json={"puzzle": text})
        assert answer.status_code == 400
        assert answer.json()["error"] == cli_error(capsys, route, text)
    unknown = client.post(f"/api/{route}", json={"puzzle": EASY, "techniques": ["nosuch"]})
    assert unknown.status_code == 400
    assert unknown.json()["error"] == cli_error(capsys, route, EASY, "--techniques", "nosuch")
    both = client.post(f"/api/{route}", json={"puzzle": EASY, "techniques": ["x"], "upto": "y"})
    assert both.status_code == 400 and "\n" not in both.json()["error"]
    for body, field in (({"puzzle": EASY, "uniqueness": "maybe"}, "uniqueness"),
                        ({"puzzle": EASY, "timeout": 1000}, "timeout")):
        bad = client.post(f"/api/{route}", json=body)
        assert bad.status_code == 422 and bad.json()["error"].startswith(f"{field}: ")


def test_a_long_explanation_is_stopped_at_its_timeout_and_others_go_on(client):
    slow = {}

    def ask() -> None:  # a 16x16 of one solution, whose explanation takes long
        slow["answer"] = client.post("/api/explain", json={"puzzle": SLOW,
                                                           "timeout": 2}).json()

    waiting = threading.Thread(target=ask)
    waiting.start()
    try:
        quick = client.post("/api/puzzle", json={"puzzle": EASY})
        assert quick.status_code == 200
        assert "answer" not in slow  # the explanation was still under way meanwhile
    finally:
        waiting.join()
    assert slow["answer"]["status"] == "timeout" and not slow["answer"].get("solved")
    again = client.post("/api/hint", json={"puzzle": EASY}).json()
    assert again["status"] == "step"


# --- generate --------------------------------------------------------------------------------

def test_without_the_generator_the_task_says_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "sudokulab.generate", None)  # as if not installed
    kind, message = learn.run("generate", {"level": "easy", "seed": 1})
    assert kind == "unavailable" and message.startswith("the generator is not available")


def test_generate_unavailable_is_a_503_with_one_line(tmp_path, monkeypatch):
    # a server whose helper processes lack sudokulab.generate: sitecustomize runs first in
    # every new interpreter on the path, and those multiprocessing starts (its fork server,
    # whose copies the helpers are, or spawned children) run `python -c`; the route says
    # so, and nothing else breaks (the server is ready when its page answers: the helper
    # of /api/backends, its usual sign, imports the generator)
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\nif sys.argv[:1] == ['-c']:\n    sys.modules['sudokulab.generate'] = None\n")
    add_to_path(monkeypatch, tmp_path)
    process, url = start_server(path="/")
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            post(url, "/api/generate", {"level": "easy"})
        assert refused.value.code == 503
        message = json.load(refused.value)["error"]
        assert message.startswith("the generator is not available here: ")
        assert "\n" not in message
        assert post(url, "/api/hint", {"puzzle": EASY})["status"] == "step"
    finally:
        stop(process)


@pytest.mark.parametrize("body, field", [
    ({"level": "nosuch"}, "level"), ({"box": [9, 9]}, "box.0"), ({"box": [3]}, "box.1"),
    ({"seed": -1}, "seed"), ({"timeout": 1000}, "timeout"), ({"rules": ["x"] * 11}, "rules"),
])
def test_generate_body_out_of_bounds_is_a_422(client, body, field):
    answer = client.post("/api/generate", json=body)
    assert answer.status_code == 422 and answer.json()["error"].startswith(f"{field}: ")


def test_generate_a_puzzle_of_a_level_proved_and_checked(client):
    answer = client.post("/api/generate", json={"level": "easy", "seed": 5}).json()
    assert answer["status"] == "generated" and answer["level"] == "easy"
    assert answer["seed"] == 5 and len(answer["provers"]) == 2
    puzzle = parse(answer["puzzle"]["line"])
    assert answer["clues"] == sum(1 for d in puzzle.givens if d)
    assert check(puzzle, answer["solution"]) == []
    solved = client.post("/api/solve", json={"puzzle": answer["puzzle"]["line"]}).json()
    assert solved["status"] == "unique" and solved["solutions"] == [answer["solution"]]
    graded = client.post("/api/explain", json={"puzzle": answer["puzzle"]["line"]}).json()
    assert graded["level"].lower() == "easy"
    again = client.post("/api/generate", json={"level": "easy", "seed": 5}).json()
    assert again["puzzle"] == answer["puzzle"]  # a seed reproduces its puzzle


def test_generate_with_a_shape_rules_and_symmetry(client):
    answer = client.post("/api/generate", json={"box": [2, 3], "rules": ["diagonal"],
                                                "symmetry": "rotational", "seed": 2}).json()
    assert answer["status"] == "generated" and answer["symmetry"] == "rotational"
    drawn = answer["puzzle"]
    assert drawn["box"] == [2, 3] and drawn["rules"] == [{"type": "diagonal"}]
    givens = drawn["givens"]
    assert all(bool(givens[k]) == bool(givens[35 - k]) for k in range(36))
    assert check(parse(json.dumps({"box": [2, 3], "givens": [givens[r * 6:r * 6 + 6]
                                                             for r in range(6)],
                                   "rules": drawn["rules"]})), answer["solution"]) == []
    unseeded = client.post("/api/generate", json={"box": [2, 2]}).json()
    assert unseeded["status"] == "generated" and isinstance(unseeded["seed"], int)


def test_generate_options_the_generator_refuses_are_a_400_with_its_message(client):
    from sudokulab.errors import UsageError
    from sudokulab.generate import generate

    for body, options in (({"symmetry": "nosuch"}, {"symmetry": "nosuch"}),
                          ({"rules": ["bogus"]}, {"rules": ("bogus",)})):
        with pytest.raises(UsageError) as refused:
            generate(**options)
        answer = client.post("/api/generate", json=body)
        assert answer.status_code == 400 and answer.json()["error"] == str(refused.value)


def test_a_slow_generation_is_stopped_at_its_timeout(client):
    # a 25x25 puzzle takes the generator minutes: the helper is stopped, the answer says so
    answer = client.post("/api/generate", json={"box": [5, 5], "timeout": 0.5}).json()
    assert answer["status"] == "timeout" and answer["puzzle"] is None
    assert answer["message"].startswith("no puzzle in 0.5 s")
    assert client.post("/api/generate", json={"box": [2, 2], "seed": 1}).json()["status"] \
        == "generated"


# --- read: a puzzle from a photo -------------------------------------------------------------

@pytest.fixture(scope="module")
def screenshot():
    """A clean screenshot of a 9x9 puzzle in a font the reader never trained on (PNG bytes)."""
    import cv2

    from sudokulab.vision import fonts, synth

    puzzle = synth.nine_by_nine(77)
    shot = synth.synthetic_photo(puzzle, fonts.paths(fonts.HELD_OUT)[4], seed=9,
                                 screenshot=True)
    return puzzle, cv2.imencode(".png", shot.image)[1].tobytes()


def test_read_a_photo_sent_as_its_bytes_or_a_form(client, screenshot):
    puzzle, png = screenshot
    raw = client.post("/api/read", params={"tag": "photo:1"}, content=png,
                      headers={"content-type": "image/png"}).json()
    assert raw["status"] == "unique" and raw["tag"] == "photo:1"
    assert raw["puzzle"]["givens"] == list(puzzle.givens)
    assert raw["doubtful"] == [] and raw["suspects"] == [] and raw["backend"] == "norvig"
    assert raw["message"] == f"read a 9x9 puzzle with {puzzle.clues} givens: one solution (norvig)"
    form = client.post("/api/read", files={"image": ("shot.png", png, "image/png")}).json()
    assert {k: form[k] for k in ("status", "puzzle")} == {k: raw[k] for k in ("status", "puzzle")}


def test_read_names_the_suspects_as_the_command_does(client):
    import cv2

    from sudokulab.vision import fonts, synth
    from sudokulab.vision import read as R

    givens = list(synth.nine_by_nine(77).givens)
    givens[next(k for k, d in enumerate(givens) if d)] = 0  # one clue fewer: maybe several
    puzzle = parse(line_of(givens))
    image = synth.synthetic_photo(puzzle, fonts.paths(fonts.HELD_OUT)[4], seed=9,
                                  screenshot=True).image
    answer = client.post("/api/read", content=cv2.imencode(".png", image)[1].tobytes()).json()
    verdict = R.verify(R.read_image(image))
    assert answer["status"] == verdict.status
    assert answer["suspects"] == [{"cell": [s.cell // 9 + 1, s.cell % 9 + 1], "read": s.read,
                                   "instead": s.instead} for s in verdict.suspects]


@pytest.mark.parametrize("data, message", [
    (b"not an image", "the image: not an image OpenCV can read"),
    (b"\x89PNG\r\n\x1a\n" + b"0" * 100, "the image: truncated or corrupt image"),
    (b"", "the image: not an image OpenCV can read (empty)"),
])
def test_read_a_bad_image_is_a_400_in_one_line(client, data, message):
    answer = client.post("/api/read", content=data, params={"tag": "bad"})
    assert answer.status_code == 400 and answer.json()["error"].startswith(message)
    assert "\n" not in answer.json()["error"] and answer.json()["tag"] == "bad"


def test_read_a_blank_page_or_a_huge_upload_is_refused(client):
    import cv2
    import numpy as np

    blank = cv2.imencode(".png", np.full((200, 200, 3), 255, np.uint8))[1].tobytes()
    answer = client.post("/api/read", content=blank)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("the image: no grid found in the image")
    huge = client.post("/api/read", content=b"0" * (MAX_IMAGE + 1))
    assert huge.status_code == 413 and "10,485,760 bytes" in huge.json()["error"]
    form = client.post("/api/read", data={"note": "no file"},
                       files={"other": ("", b"", "text/plain")})
    assert form.status_code in (400, 422)


def _cancelled_midway(content_type: bytes | None):
    """An ASGI app cancelled as uvicorn cancels a request past its shutdown grace: before
    it answered (None), or after it began a response of this type."""
    import asyncio

    async def app(scope, receive, send):
        if content_type is not None:
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", content_type)]})
            await send({"type": "http.response.body", "body": b"event: start\ndata: {}\n\n",
                        "more_body": True})
        raise asyncio.CancelledError
    return app


@pytest.mark.parametrize("content_type", [None, b"text/event-stream; charset=utf-8",
                                          b"application/json"],
                         ids=["unanswered", "stream", "json-under-way"])
def test_a_request_the_stopping_server_cancels_is_told_so(content_type):
    import asyncio
    import concurrent.futures

    from sudokulab.web.guards import STOPPING, Stopping

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b'{"tag": "t1"}'}

    scope = {"type": "http", "path": "/api/solve", "headers": [], "query_string": b"",
             "sudokulab.body": b'{"tag": "t1"}'}
    # in a thread of its own: a test before it may have left an event loop running here
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run,
                      Stopping(_cancelled_midway(content_type))(scope, receive, send)).result()
    said = {"error": STOPPING, "tag": "t1"}
    if content_type is None:  # 503 with the one-line error
        assert sent[0]["status"] == 503 and json.loads(sent[1]["body"]) == said
    elif content_type.startswith(b"text/event-stream"):  # the stream's last event
        assert sent[-1]["body"].decode() == f"event: error\ndata: {json.dumps(said)}\n\n"
        assert not sent[-1].get("more_body")
    else:  # a JSON body under way cannot be mended: nothing more is sent
        assert len(sent) == 2


def test_a_killers_steps_are_checked_against_sats_solution(client):
    killer = json.loads((Path(__file__).parent / "data" / "killers.jsonl").read_text()
                        .splitlines()[0])
    answer = client.post("/api/explain", json={"puzzle": json.dumps(killer)}).json()
    assert answer["referee"] == "sat" and answer["verified"] is True, answer.get("message")


@pytest.mark.parametrize("route, body, field", [
    ("/api/solve", {"limit": True}, "limit"),
    ("/api/solve", {"timeout": True}, "timeout"),
    ("/api/setter", {"candidates": "no"}, "candidates"),
    ("/api/setter", {"grade": 1}, "grade"),
    ("/api/generate", {"seed": True}, "seed"),
])
def test_a_number_or_flag_of_another_json_type_is_a_422_not_coerced(client, route, body,
                                                                     field):
    # "limit": true read as 1 turned a proof of uniqueness into one solution found
    answer = client.post(route, json={"puzzle": EASY, **body})
    assert answer.status_code == 422 and answer.json()["error"].startswith(f"{field}: ")


@pytest.mark.parametrize("host", ["[::1", "::1]", "[127.0.0.1]"])
def test_a_host_with_stray_brackets_is_refused(host, capsys):
    assert main(["serve", "--host", host, "--port", "0"]) == Exit.INPUT
    assert f"--host {host}: not an address" in capsys.readouterr().err


@pytest.mark.parametrize("host", ["::1", "[::1]"])
def test_an_ipv6_host_is_announced_as_a_url_a_browser_opens(host):
    """http://[::1]:PORT/, not http://::1:PORT/; and [::1], as a URL writes it, is taken."""
    import subprocess
    import urllib.request

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", "serve", "--host", host,
                                "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        announced = process.stderr.readline()
        url = re.search(r"serving (http://\S+?) ", announced)
        assert url and url.group(1).startswith("http://[::1]:"), announced
        with urllib.request.urlopen(f"{url.group(1)}api/backends") as answer:
            assert answer.status == 200
    finally:
        stop(process)
