"""The learning engines' timelines (issue 32): cumulative counts that never go down, end
on the engine's final statistics, stay within their cap, and leave the answer as it was;
`solve --timeline FILE` writes them as JSON Lines."""

from __future__ import annotations

import json

import pytest
from conftest import ready_backend

from sudokulab.backends import timeline, with_capability
from sudokulab.cli import main
from sudokulab.puzzle import line_of

HARD = (2, 5, 9)  # top95 puzzles on which every learning engine meets conflicts


def check(timeline_: timeline.Timeline, result) -> None:
    """Monotone cumulative counts from zero, ending on the Result's statistics."""
    samples = timeline_.samples
    assert 2 <= len(samples) <= timeline_.cap
    assert samples[0] == {"t": 0.0, **dict.fromkeys(timeline_.figures, 0)}
    for key in ("t", *timeline_.figures):
        values = [point[key] for point in samples]
        assert values == sorted(values), key
    reported = [f for f in timeline_.figures if f in result.stats]
    assert reported, "the engine reports none of its figures"
    assert {f: samples[-1][f] for f in reported} == {f: result.stats[f] for f in reported}


@pytest.mark.parametrize("engine", with_capability("keeps_timeline"))
def test_a_timeline_is_cumulative_ends_on_the_statistics_and_keeps_the_answer(engine, top95):
    backend = ready_backend(engine)
    for index in HARD:
        puzzle, solution = top95[index]
        result, samples = timeline.record(puzzle, engine)
        check(samples, result)
        plain = backend.solve(puzzle)
        assert backend.timeline is None  # off unless asked
        assert (result.status, result.solutions) == (plain.status, plain.solutions)
        assert list(result.solutions) == [solution]
        assert set(samples.to_json()["meaning"]) == set(samples.figures)


@pytest.mark.parametrize("engine", ["sat", "asp"])  # the engines sampled during the search
def test_the_sampled_engines_report_while_they_search(engine, top95):
    result, samples = timeline.record(top95[2][0], engine)
    first = samples.figures[0]  # decisions, choices: counted as they are made
    assert len({point[first] for point in samples.samples}) >= 3
    check(samples, result)


def test_a_full_timeline_thins_out_and_samples_less_often(top95):
    result, samples = timeline.record(top95[2][0], "asp", cap=4)
    assert len(samples.samples) <= 4 and samples.stride > 1
    check(samples, result)
    plain = ready_backend("asp").solve(top95[2][0])
    assert result.solutions == plain.solutions


def test_asp_sees_every_choice_clasp_counts(top95):
    for index in HARD:
        result, samples = timeline.record(top95[index][0], "asp")
        choices = [point["choices"] for point in samples.samples[:-1]]
        assert choices[-1] == result.stats["choices"]  # before the end's statistics came in


def test_solve_writes_the_timeline_as_json_lines(tmp_path, top95, capsys):
    out = tmp_path / "sat.jsonl"
    puzzles = [line_of(top95[k][0].givens) for k in HARD[:2]]
    given = tmp_path / "two.txt"
    given.write_text("\n".join(puzzles) + "\n")
    assert main(["solve", "--file", str(given), "-b", "sat", "--timeline", str(out), "--format",
                 "json"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    heads = [k for k, line in enumerate(lines) if line.get("event") == "timeline"]
    assert len(heads) == 2 and heads[0] == 0
    for number, (start, end) in enumerate(zip(heads, [*heads[1:], len(lines)]), 1):
        head, samples, closing = lines[start], lines[start + 1:end - 1], lines[end - 1]
        assert head["number"] == number and head["puzzle"] == puzzles[number - 1]
        assert closing == {"event": "end", "number": number, "status": "unique", "count": 1,
                           "exact": True}
        assert head["meaning"] == timeline.MEANING["sat"]
        assert samples[0]["conflicts"] == 0
        stats = answers[number - 1]["stats"]
        assert {f: samples[-1][f] for f in timeline.MEANING["sat"]} == \
            {f: stats[f] for f in timeline.MEANING["sat"]}


@pytest.mark.parametrize("args", [["-b", "norvig"], ["-b", "sat", "--timeout", "5"]])
def test_solve_refuses_a_timeline_it_cannot_keep(tmp_path, top95, capsys, args):
    assert main(["solve", line_of(top95[2][0].givens), *args, "--timeline",
                 str(tmp_path / "x.jsonl")]) == 2
    assert "timeline" in capsys.readouterr().err
