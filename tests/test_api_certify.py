"""sl.certify and sl.verify (issue 56): a verdict proved from Python, its arguments checked at
the door like the rest of the API, and a tampered certificate rejected."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import sudokulab as sl
from sudokulab.check import check
from sudokulab.errors import CertificateRejected, InputError, PuzzleError, UsageError

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
CLASH = "11" + "." * 79


def test_a_unique_verdict_is_proved_into_the_folder_and_verifies(tmp_path):
    made = sl.certify(EASY, tmp_path)
    assert (made.verdict, made.count) == ("unique", 1)
    assert made.json_path.parent == tmp_path and made.json_path.exists()
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".cnf", ".drat", ".json"]
    assert not check(sl.parse(EASY), made.solutions[0])
    for checked in (sl.verify(made.json_path), sl.verify(str(made.json_path)), sl.verify(made)):
        assert (checked.verdict, checked.count) == ("unique", 1) and checked.lemmas > 0


def test_the_same_puzzle_gets_the_same_name(tmp_path):
    assert sl.certify(EASY, tmp_path / "a").json_path.name == \
        sl.certify(sl.parse(EASY), tmp_path / "b").json_path.name


def test_without_a_folder_the_certificate_is_kept_in_a_temporary_one():
    made = sl.certify(CLASH)
    assert (made.verdict, made.count) == ("none", 0)
    assert made.json_path.exists() and sl.verify(made).verdict == "none"


def test_several_solutions_are_counted_with_a_proof(tmp_path):
    made = sl.certify("1" + "." * 15, tmp_path)
    assert (made.verdict, made.count) == ("multiple", 72)
    assert sl.verify(made).count == 72


def test_sl_certify_stays_the_api_once_the_package_is_imported(tmp_path):
    import sudokulab.certificates  # noqa: F401  (the attribute is the package from now on)

    assert sl.certify(EASY, tmp_path).verdict == "unique"


def test_a_tampered_certificate_is_rejected(tmp_path):
    made = sl.certify(EASY, tmp_path)
    data = json.loads(made.json_path.read_text())
    proof = made.drat_path.read_text().replace("\n0\n", "\n")  # the empty clause cut
    made.drat_path.write_text(proof)
    data["drat"]["sha256"] = hashlib.sha256(proof.encode()).hexdigest()
    made.json_path.write_text(json.dumps(data))
    with pytest.raises(CertificateRejected, match="empty clause"):
        sl.verify(made)


@pytest.mark.parametrize("call, message", [
    (lambda: sl.certify(81), "sl.certify: puzzle must be a Puzzle, a puzzle string or a "
                             "JSON puzzle"),
    (lambda: sl.certify(EASY, 3), "sl.certify: folder must be a path"),
    (lambda: sl.certify(EASY, b"certs"), "not bytes"),
    (lambda: sl.verify(None), "sl.verify: path must be a certificate's .json"),
    (lambda: sl.verify([Path("a.json")]), "not list"),
])
def test_a_wrong_type_is_a_type_error_naming_the_argument(call, message):
    with pytest.raises(TypeError, match=message.replace(".", r"\.")):
        call()


def test_bad_values_say_what_is_wrong(tmp_path):
    with pytest.raises(UsageError, match="sl.certify: folder is empty"):
        sl.certify(EASY, " ")
    with pytest.raises(UsageError, match="sl.verify: path is empty"):
        sl.verify("")
    with pytest.raises(PuzzleError):
        sl.certify("12x")
    with pytest.raises(InputError, match="cannot read"):
        sl.verify(tmp_path / "missing.json")


def test_a_folder_that_is_a_file_is_named_as_the_command_line_names_it(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(UsageError, match=r"^sl.certify: folder .*file is a file, not a folder"):
        sl.certify(EASY, tmp_path / "file")
