"""`sudokulab hint --all`: every step each enabled technique finds in a position (not only
the easiest), one JSON object a step, grouped by technique in the pretty form."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_positions import run

from sudokulab.errors import Exit
from sudokulab.human import solver
from sudokulab.human.candidates import Candidates
from sudokulab.human.positions import read_position

LINE = (Path(__file__).parent / "data" / "positions" / "library_line.txt").read_text().strip()
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
ORDER = [t.name for t in solver.TECHNIQUES]


def every(*argv: str) -> list[dict]:
    """hint --all --format json's objects."""
    code, out, _ = run("hint", *argv, "--all", "--format", "json")
    assert code == Exit.OK
    return [json.loads(line) for line in out.splitlines()]


def test_json_gives_one_object_a_step_easiest_technique_first():
    steps = every(LINE, "--upto", "grouped aic")
    assert len(steps) > 1
    assert all(s["puzzle"] == 1 and s["text"].startswith(s["technique"] + ":") for s in steps)
    ranks = [ORDER.index(s["technique"]) for s in steps]
    assert ranks == sorted(ranks)
    assert len({(s["technique"], s["text"]) for s in steps}) == len(steps)  # each once
    first = json.loads(run("hint", LINE, "--format", "json")[1])
    assert {k: steps[0][k] for k in first} == first  # the plain hint is the first of them
    assert len({s["technique"] for s in steps}) > 3  # not only the easiest technique


def test_pretty_groups_the_same_steps_by_technique():
    steps = every(LINE, "--upto", "grouped aic")
    code, out, _ = run("hint", LINE, "--all", "--upto", "grouped aic")
    assert code == Exit.OK
    groups = re.findall(r"^(\S.*) \((\d+)\):$", out, re.MULTILINE)
    assert [name for name, _ in groups] == list(dict.fromkeys(s["technique"] for s in steps))
    for name, count in groups:
        assert int(count) == sum(1 for s in steps if s["technique"] == name)
    listed = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    assert listed == [s["text"] for s in steps]


def test_every_naked_single_of_a_puzzle_is_listed():
    steps = every(EASY, "--techniques", "naked single")
    g = Candidates(read_position(f":0000:x:{EASY}:::"))
    lone = {(c // 9 + 1, c % 9 + 1, m.bit_length()) for c, m in enumerate(g.cands)
            if m and m & (m - 1) == 0}
    assert len(lone) > 1
    assert {tuple(s["placements"][0]) for s in steps} == lone
    assert all(s["technique"] == "Naked Single" for s in steps)


def test_techniques_limit_the_list_and_none_found_is_said():
    steps = every(LINE, "--techniques", "2-string kite,xy-wing")
    assert {s["technique"] for s in steps} == {"2-String Kite", "XY-Wing"}
    code, out, _ = run("hint", LINE, "--all", "--techniques", "jellyfish")
    assert code == Exit.STALLED and out.startswith("no step")
    code, out, _ = run("hint", LINE, "--all", "--techniques", "jellyfish", "--format", "json")
    assert code == Exit.STALLED and out == ""
