"""Search you can watch (`sudokulab.backends.trace`): norvig's, dlx's and native's events,
replayed, reach the engine's solution; the cap holds; a backend with no Recorder answers
exactly as before."""

import json
from collections import Counter
from dataclasses import replace

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import make_backend, trace, with_capability
from sudokulab.cli import main
from sudokulab.errors import InputError
from sudokulab.formats.text import parse

HARD = parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
VARIANT = replace(HARD, rules=(R.parse_cage("r1c1,r5c5=12"),))  # r1c1 4, r5c5 8
# top95's 11th: every engine guesses and backtracks on it, over 100 events before its first
# solution (native's propagation takes HARD without a guess)
GUESSY = datasets.load("top95")[10]
TWO = parse("2.9.....1....9....6.8..4.2.3....8..78...5.....1...7.45...4..5.2...12..6.9.8..1...")
ENGINES = with_capability("records_trace")
PUZZLES = {"hard": HARD, "variant": VARIANT}


def takes(engine, puzzle):
    """Skip a puzzle whose rules the engine cannot express (native: the classic rules)."""
    reason = make_backend(engine).unsupported(puzzle)
    if reason:
        pytest.skip(reason)


def digits(marks):
    """The grid of candidates that are all single digits."""
    assert all(m and not m & (m - 1) for m in marks), "a cell is not solved"
    return tuple(m.bit_length() for m in marks)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", PUZZLES)
def test_replay_ends_on_the_solution(engine, name):
    takes(engine, PUZZLES[name])
    result, events = trace.record(PUZZLES[name], engine, limit=1)
    states = trace.replay(events)
    assert events[0]["event"] == "start" and events[-1]["event"] == "solution"
    # the wave before the solution event already leaves every cell solved, as found
    assert events[-2]["event"] == "wave"
    assert digits(states[-2]) == result.solutions[0] == digits(states[-1])


@pytest.mark.parametrize("engine", ENGINES)
def test_every_guess_is_a_candidate_and_dead_ends_are_the_backtracks(engine):
    backend = make_backend(engine)
    backend.trace = trace.Recorder()
    result = backend.solve(GUESSY, limit=2)  # on past the solution: proves it unique
    events = backend.trace.events
    states = trace.replay(events)
    kinds = Counter(e["event"] for e in events)
    assert kinds["guess"] == result.stats["guesses"] > 0
    assert kinds["dead_end"] == result.stats["backtracks"] > 0
    assert kinds["solution"] == len(result.solutions) == 1
    for before, event in zip(states, events[1:]):
        if event["event"] == "guess":
            assert before[event["cell"]] >> (event["digit"] - 1) & 1, event
            assert event["why"]
    # a wave's removals were candidates of the state it started from, once the guess is in
    for k, event in enumerate(events):
        if event["event"] == "wave" and k:
            for cell, digit in event["removed"]:
                assert states[k - 1][cell] >> (digit - 1) & 1 or \
                    events[k - 1]["event"] == "guess" and events[k - 1]["cell"] == cell


@pytest.mark.parametrize("engine", ENGINES)
def test_the_tree_is_one_node_per_guess_and_a_finished_search_leaves_none_open(engine):
    result, events = trace.record(GUESSY, engine, limit=2)
    nodes = trace.tree(events)
    assert len(nodes) == result.stats["guesses"] + 1
    outcomes = Counter(node["outcome"] for node in nodes)
    assert outcomes["open"] == 0 and outcomes["solved"] >= 2 and outcomes["dead"] > 0
    assert nodes[0]["outcome"] == "solved"


@pytest.mark.parametrize("engine", ENGINES)
def test_the_cap_holds_and_the_solution_still_comes(engine):
    # 44 events cut each engine's search mid-branch (a cut right after a dead end would
    # leave every node of the tree closed)
    result, events = trace.record(GUESSY, engine, limit=1, cap=44)
    kinds = [e["event"] for e in events]
    assert len(events) == 44 + 1 + 1  # the cap, its marker, the solution
    assert kinds[44] == "truncated" and kinds[-1] == "solution"
    assert digits(trace.replay(events)[-1]) == result.solutions[0]
    nodes = trace.tree(events)
    assert any(node["outcome"] == "open" for node in nodes)  # cut short: some unfinished


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("puzzle", [HARD, VARIANT, TWO])
def test_trace_off_changes_nothing(engine, puzzle):
    takes(engine, puzzle)
    plain = make_backend(engine).solve(puzzle, limit=3)
    watched = make_backend(engine)
    watched.trace = trace.Recorder(cap=25)
    traced = watched.solve(puzzle, limit=3)
    assert traced.status == plain.status and traced.solutions == plain.solutions
    keep = ("nodes", "guesses", "backtracks", "assignments", "eliminations")
    assert {k: traced.stats.get(k) for k in keep} == {k: plain.stats.get(k) for k in keep}
    assert make_backend(engine).trace is None  # off unless asked


def test_solve_writes_json_lines(tmp_path, capsys):
    path = tmp_path / "trace.jsonl"
    assert main(["solve", str(HARD), "-b", "norvig", "--trace", str(path),
                 "--format", "line"]) == 0
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["event"] == "trace" and lines[0]["backend"] == "norvig"
    assert lines[0]["puzzle"] == str(HARD)
    solved = [e["grid"] for e in lines if e["event"] == "solution"]
    assert "".join(map(str, solved[0])) == capsys.readouterr().out.split()[0]
    at = [e["event"] for e in lines[1:]].index("solution")  # then on, proving it unique
    assert digits(trace.replay(lines[1:])[at - 1]) == tuple(solved[0])


@pytest.mark.parametrize("args", [["-b", "sat"], ["-b", "norvig", "--timeout", "5"]])
def test_solve_refuses_a_trace_it_cannot_record(tmp_path, capsys, args):
    assert main(["solve", str(HARD), *args, "--trace", str(tmp_path / "t.jsonl"),
                 "--format", "csv"]) == 2
    out, err = capsys.readouterr()
    assert "--trace" in err and out == ""  # refused before the csv header is written


def test_a_backend_that_records_no_trace_is_refused_naming_those_that_do():
    with pytest.raises(InputError) as refused:
        trace.record(HARD, "sat")
    assert str(refused.value) == f"sat records no trace; these do: {', '.join(ENGINES)}"
    assert "sat" not in ENGINES and {"norvig", "dlx"} <= set(ENGINES)


def test_the_api_refuses_an_engine_without_the_capability_naming_those_with_it():
    from fastapi.testclient import TestClient

    from sudokulab.web.app import create_app

    with TestClient(create_app()) as client:
        puzzle = str(HARD)
        refused = client.post("/api/trace", json={"puzzle": puzzle, "engine": "sat"})
        assert refused.status_code == 400 and ", ".join(ENGINES) in refused.json()["error"]
        refused = client.post("/api/timeline", json={"puzzle": puzzle, "backend": "norvig"})
        assert refused.status_code == 400
        assert "norvig keeps no timeline" in refused.json()["error"]
        unknown = client.post("/api/trace", json={"puzzle": puzzle, "engine": "nosuch"})
        assert unknown.status_code == 400 and "nosuch" in unknown.json()["error"]
        traced = client.post("/api/trace", json={"puzzle": puzzle, "engine": "dlx", "cap": 5})
        assert traced.status_code == 200 and traced.json()["truncated"]


@pytest.mark.parametrize(("option", "capability"), [("--trace", "records_trace"),
                                                    ("--timeline", "keeps_timeline")])
def test_the_help_names_exactly_the_engines_that_record(option, capability):
    """The help lists the engines by hand (importing every backend to ask would slow each
    start): it must name those whose class says they record, and no other."""
    import argparse
    import re

    from sudokulab.backends import names, with_capability
    from sudokulab.commands import solve

    parser = argparse.ArgumentParser()
    solve.options(parser)
    text = next(a.help for a in parser._actions if option in a.option_strings)
    named = {name for name in names() if re.search(rf"\b{name}\b", text.split(":")[0])}
    assert named == set(with_capability(capability)), text
