"""HoDoKu's names and codes select the lab's techniques, and each technique added for them
finds exactly the eliminations of known cases (HoDoKu library lines in
tests/data/techniques/), finds nothing in the fail cases, and never removes a solution's
digit (the solution from norvig, another paradigm)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_positions import run

from sudokulab.backends import make_backend
from sudokulab.errors import Exit, UnknownTechnique
from sudokulab.human import als, chains, grading, names, solver
from sudokulab.human.candidates import Candidates
from sudokulab.human.positions import library

CASES = sorted((path.name, k, line.strip())
               for path in (Path(__file__).parent / "data" / "techniques").glob("*.txt")
               for k, line in enumerate(path.read_text().splitlines(), 1)
               if line.startswith(":"))


@pytest.mark.parametrize("name,number,line", CASES, ids=[f"{f}:{k}" for f, k, _ in CASES])
def test_a_case_gives_its_exact_eliminations_or_none(name, number, line):
    position = library(line)
    technique = solver.lookup(position.code)
    steps = list(technique.find(Candidates(position)))
    if position.expected or position.placements:
        found = [(sorted(step.eliminations), sorted(step.placements)) for step in steps]
        want = (sorted(position.expected), sorted(position.placements))
        assert want in found, f"{technique.name}: found {steps}"
        assert all(step.technique == technique.name for step in steps)
    else:
        assert steps == []
    answer = make_backend("norvig").solve(position, limit=2)
    if answer.count == 1:  # the public puzzles' positions: each step keeps the solution
        assert solver.wrong_moves(steps, answer.solutions[0], 9) == []


def test_every_technique_is_tested_by_a_case_and_a_fail_case():
    codes = {library(line).code for *_, line in CASES}
    failing = {library(line).code for *_, line in CASES
               if not library(line).expected and not library(line).placements}
    added = {"0312", "0322", "0502", "0503", "0404", "0405", "0604", "0605", "0606", "0607",
             "0608", *(f"03{kind}{size}" for kind in "012" for size in "345"), "1201", "1202",
             "0902", "0903", "0904", "0331", "0341", "0362", "0706", "0707", "0709", "0710",
             "0371", "0372", "WXYZ-Wing", "Aligned Pair Exclusion", "BUG Lite"}
    assert added <= codes
    assert added <= failing


def test_hodoku_names_codes_and_short_names_select_the_lab_technique():
    assert solver.lookup("0100").name == "Locked Candidates Type 1 (Pointing)"
    assert solver.lookup("locked candidates type 1").name == \
        "Locked Candidates Type 1 (Pointing)"
    assert solver.lookup("Almost Locked Set XZ-Rule").name == "ALS-XZ"
    assert solver.lookup("u6").name == "Uniqueness Test 6"
    assert solver.lookup("Multi-Colors 2").name == "Multi Colors 2"
    assert solver.lookup("03121").name == "Finned Jellyfish"  # siamese: trailing 1
    # the variants of HoDoKu's own library lines: '-1', '-2', ... and '-x' (a fail case)
    assert solver.lookup("0600-1").name == "Uniqueness Test 1"
    assert solver.lookup("0708-x").name == "AIC"
    assert [t.name for t in solver.select(["Simple Colors", "0300"])] == [
        "X-Wing", "Simple Colors Trap", "Simple Colors Wrap"]
    assert solver.lookup("0604").name == "Uniqueness Test 5"


def test_every_hodoku_code_selects_a_lab_technique_and_an_unknown_name_is_one_line():
    for entry in names.CATALOGUE:
        if entry.code:
            assert solver.lookup(entry.code).name, entry
    code, out, _ = run("explain", "--list")
    assert code == Exit.OK and "not yet" not in out
    with pytest.raises(UnknownTechnique, match="unknown technique 'Guessing'"):
        solver.lookup("Guessing")


def test_the_catalogue_names_every_code_once_with_a_level_and_score():
    coded = [entry for entry in names.CATALOGUE if entry.code]
    assert len({entry.code for entry in coded}) == len(coded) == 100
    assert {entry.level for entry in coded} <= set(grading.LEVELS)
    assert all(entry.score > 0 for entry in coded)
    listing = names.listing(solver.BY_NAME)
    assert all(entry.code in listing and entry.name in listing for entry in coded)


def test_added_techniques_have_hodoku_level_and_score():
    for technique in solver.ALL:
        entry = names.hodoku_of(technique.name)
        if entry is not None and technique.name in ADDED:
            assert grading.TABLE[technique.name][:2] == (entry.level, entry.score)


ADDED = {"Finned Jellyfish", "Sashimi Jellyfish", "Multi Colors 1", "Multi Colors 2",
         "Dual Empty Rectangle",
         "Dual 2-String Kite", "Uniqueness Test 5", "Uniqueness Test 6", "Hidden Rectangle",
         "Avoidable Rectangle Type 1", "Avoidable Rectangle Type 2",
         *(f"{kind}{fish}" for kind in ("", "Finned ", "Sashimi ")
           for fish in ("Squirmbag", "Whale", "Leviathan")), "Template Set", "Template Delete",
         "ALS-XY-Wing", "ALS-XY-Chain", "Death Blossom", "Continuous Nice Loop",
         "Discontinuous Nice Loop", "Grouped Continuous Nice Loop",
         "Grouped Discontinuous Nice Loop"}


def test_the_larger_fish_are_used_only_when_named():
    # HoDoKu leaves them off by default: a basic one is always a smaller fish the other way
    # round, so the default paths, grades and speed stay as they were
    larger = {"Squirmbag", "Whale", "Leviathan"}
    default = {t.name for t in solver.TECHNIQUES}
    assert not {name for name in default if name.split()[-1] in larger}
    assert [t.name for t in solver.select(["0303", "Finned Whale"])] == ["Squirmbag",
                                                                         "Finned Whale"]
    assert solver.lookup("sbf7").name == "Sashimi Leviathan"


def test_als_xz_named_searches_every_set_and_the_default_paths_keep_the_small_ones():
    # HoDoKu's sets of any size, overlapping and doubly linked, change the default paths:
    # they are searched when ALS-XZ is named (as the library's cases name it)
    default = next(t for t in solver.TECHNIQUES if t.name == "ALS-XZ")
    assert default.find is als.als_xz
    assert solver.lookup("0901").find is als.als_xz_every
    assert [t.find for t in solver.select(["ALS-XZ", "AIC"])] == [chains.aic,
                                                                  als.als_xz_every]
    assert solver.select(upto="ALS-XZ")[-1] is default


@pytest.mark.parametrize("code", ["0708", "0711", "0702"])
def test_a_chain_finder_lists_every_chain_in_a_stable_order(code):
    """After the path's first chain, every other chain that removes something new: each
    sound, none removing what another did, the same list, in the same order, from a fresh
    start."""
    line = next(line for *_, line in CASES if line.startswith(f":{code}:") and
                library(line).expected)
    position = library(line)
    technique = solver.lookup(code)
    steps = list(technique.find(Candidates(position)))
    again = list(technique.find(Candidates(position)))
    assert [s.notation for s in steps] == [s.notation for s in again]
    assert len(steps) > 1
    assert len({frozenset(s.eliminations) for s in steps}) == len(steps)
    assert next(technique.find(Candidates(position))) == steps[0]  # the path's step
    solution = make_backend("norvig").solve(position, limit=2).solutions[0]
    assert solver.wrong_moves(steps, solution, 9) == []
