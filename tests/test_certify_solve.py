"""`solve --certify DIR`: each verdict certified, verified, and set beside the engine's."""

from __future__ import annotations

import json

from sudokulab.certificates.answer import certify_answer
from sudokulab.cli import main
from sudokulab.errors import Exit
from sudokulab.formats.text import parse
from sudokulab.result import Result, Status

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# the same givens with a 6 added in r1c2, where the solution has 1: no solution
BROKEN = "46....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
FEW = "." * 9 + HARD[9:]  # the first row's givens taken away: several solutions


def test_a_unique_answer_is_certified_and_the_certificate_verifies(tmp_path, capsys):
    assert main(["solve", HARD, "--certify", str(tmp_path), "--format", "line"]) == Exit.OK
    out, err = capsys.readouterr()
    assert out.strip() == SOLUTION
    assert "puzzle 1: certified unique (a proof of" in err and "verified" in err
    data = json.loads((tmp_path / "puzzle-1.json").read_text())
    assert data["verdict"] == "unique"
    assert main(["verify", str(tmp_path / "puzzle-1.json")]) == Exit.OK


def test_no_solution_and_several_are_certified_too(tmp_path, capsys):
    assert main(["solve", BROKEN, "--certify", str(tmp_path / "none")]) == Exit.NONE
    assert "certified none" in capsys.readouterr().err
    assert main(["solve", FEW, "-b", "sat", "--certify", str(tmp_path / "many")]) == Exit.OK
    assert "certified multiple" in capsys.readouterr().err


def test_a_claim_the_certificate_disproves_is_named(tmp_path):
    puzzle = parse(HARD)
    wrong_claims = {Status.NONE: "it claims none, the certificate proves unique",
                    Status.MULTIPLE: "it claims multiple, the certificate proves unique"}
    for status, why in wrong_claims.items():
        assert certify_answer(puzzle, Result(status), tmp_path, status.value).contradiction \
            == why
    other = tuple(reversed([int(d) for d in SOLUTION]))
    claimed = certify_answer(puzzle, Result(Status.UNIQUE, (other,), 1, True), tmp_path, "u")
    assert claimed.contradiction == "its solution is not the one the certificate proves unique"
    timed_out = certify_answer(puzzle, Result(Status.TIMEOUT), tmp_path, "t")
    assert (timed_out.contradiction, timed_out.verdict) == ("", "unique")


def test_certify_refuses_a_count_and_an_empty_folder(capsys):
    assert main(["solve", HARD, "--count", "--certify", "x"]) == Exit.INPUT
    assert "--certify proves a verdict" in capsys.readouterr().err
    assert main(["solve", HARD, "--certify", ""]) == Exit.INPUT


def test_a_proof_naming_a_huge_variable_is_rejected_not_a_memory_error():
    from sudokulab.certificates.drat import check

    formula = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    assert check(2, formula, "2 0\n0\n").ok
    outcome = check(2, formula, "1000000000 0\n2 0\n0\n")
    assert not outcome.ok and outcome.lemma == 1 and "a variable past 5" in outcome.why
