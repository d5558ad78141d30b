"""X-Colors, 3D Medusa and Sue de Coq: each finds exactly the eliminations of known cases
(HoDoKu library lines in tests/data/techniques/colors_sue_de_coq.txt, from the lab's paths
through top1465 and hand-made from the published patterns), nothing in the fail cases,
every instance through `hint --all`, and never removes a solution's digit on public
puzzles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_positions import run

from sudokulab import datasets
from sudokulab.errors import Exit
from sudokulab.human import grading, names, solver
from sudokulab.human.candidates import Candidates
from sudokulab.human.positions import library

ADDED = ("X-Colors", "3D Medusa", "Sue de Coq")
FILE = Path(__file__).parent / "data" / "techniques" / "colors_sue_de_coq.txt"
CASES = [(k, line) for k, line in enumerate(FILE.read_text().splitlines(), 1)
         if line.startswith(":")]


@pytest.mark.parametrize("number,line", CASES, ids=[f"line {k}" for k, _ in CASES])
def test_a_case_gives_its_exact_eliminations_or_none(number, line):
    position = library(line)
    technique = solver.lookup(position.code)
    assert technique.name in ADDED
    steps = list(technique.find(Candidates(position)))
    if position.expected:
        assert sorted(position.expected) in [sorted(step.eliminations) for step in steps]
        assert all(step.technique == technique.name and step.sentence for step in steps)
    else:
        assert steps == []


def test_each_technique_has_a_case_and_a_fail_case():
    codes = [library(line).code for _, line in CASES]
    failing = [library(line).code for _, line in CASES if not library(line).expected]
    assert {solver.lookup(code).name for code in codes} == set(ADDED)
    assert {solver.lookup(code).name for code in failing} == set(ADDED)


def test_x_colors_lists_every_instance_of_a_position():
    """Both X-Colors of the contradiction case's position: its trap and its false color."""
    line = next(line for _, line in CASES if line.endswith(":856 861::"))
    steps = list(solver.lookup("X-Colors").find(Candidates(library(line))))
    assert [s.notation for s in steps] == [
        "X-Colors: 8 (r1c5,r9c4) / (r8c5) => r8c1<>8",
        "X-Colors: 8 (r5c6,r6c1) / (r6c6) => r5c6,r6c1<>8"]


def test_hint_all_lists_the_steps_of_a_technique_by_its_hodoku_name():
    line = next(line for _, line in CASES if line.startswith(":1101::6.."))
    code, out, _ = run("hint", line, "--all", "--techniques", "Sue de Coq", "--format", "json")
    assert code == Exit.OK
    steps = [json.loads(text) for text in out.splitlines()]
    found = [sorted((r - 1) * 9 + c - 1 for r, c, _ in s["eliminations"]) for s in steps]
    assert all(s["technique"] == "Sue de Coq" for s in steps)
    assert sorted(c for c, _ in library(line).expected) in found
    code, again, _ = run("hint", line, "--all", "--techniques", "1101", "--format", "json")
    assert (code, again) == (Exit.OK, out)


def test_explain_list_names_each_with_its_level():
    code, out, _ = run("explain", "--list")
    assert code == Exit.OK
    rows = {line.split("  ")[1].strip(): line for line in out.splitlines()
            if line.strip()[:1].isdigit() and len(line.split("  ")) > 2}
    for name in ADDED:
        level, score, _ = grading.TABLE[name]
        assert name in rows and level in rows[name] and str(score) in rows[name]
    entry = names.entry_named("Sue de Coq")
    assert entry is not None and grading.TABLE["Sue de Coq"][:2] == (entry.level, entry.score)
    assert solver.lookup("sdc").name == "Sue de Coq"


@pytest.mark.parametrize("count", [8, pytest.param(200, marks=pytest.mark.slow)])
def test_no_step_removes_a_solution_digit_on_public_puzzles(count):
    """On every grid of the lab's path through top1465's first puzzles, every step each
    technique lists keeps the known solution."""
    puzzles, solutions = datasets.load("top1465"), datasets.solutions("top1465")
    techniques = [solver.lookup(name) for name in ADDED]
    found = dict.fromkeys(ADDED, 0)
    for puzzle, solution in zip(puzzles[:count], solutions[:count], strict=True):
        path = solver.solve(puzzle, unique=True)
        g = Candidates(puzzle)
        for step in [None, *path.steps]:
            if step is not None:
                g.apply(step)
            for technique in techniques:
                steps = list(technique.find(g))
                found[technique.name] += len(steps)
                assert solver.wrong_moves(steps, solution, 9) == [], technique.name
    assert all(found.values())  # each technique was tried on something it finds
