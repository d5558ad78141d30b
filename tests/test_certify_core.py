"""The trimmed core of a certificate's proof (issue 56): the lemmas the refutation uses,
found by drat.py's own checker, written beside the proof and checked by `verify`."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sudokulab.certificates import certify, drat, verify
from sudokulab.certificates.verify import _clauses
from sudokulab.errors import CertificateRejected

# Four clauses over two variables: no model. A proof whose first lemma is RAT only (3 is
# new: no clause holds -3), whose second is RUP, then the empty clause.
TWO = [(1, 2), (1, -2), (-1, 2), (-1, -2)]


def lemmas(text: str) -> list[tuple[int, ...]]:
    """The lemmas (not deletions) of a DRAT text."""
    return [clause for deleted, clause, _ in drat.parse(text) if not deleted]


@pytest.fixture(scope="module")
def trimmed(tmp_path_factory, top95) -> Path:
    """A unique certificate of a top95 puzzle with its core (the .json)."""
    folder = tmp_path_factory.mktemp("core")
    return certify(top95[7][0], folder, "p", trim=True).json_path


def test_an_unused_lemma_is_trimmed_and_a_rat_lemma_kept_checkable():
    core = drat.core(2, TWO, "3 0\n1 0\n0\n")
    assert lemmas(core) == [(1,), ()]
    assert drat.check(2, TWO, core).ok


def test_a_wrong_lemma_that_nothing_needs_is_still_refused():
    # drat-trim's backward mode never checks it; the lab checks every lemma, trimmed or not.
    # "-3" is neither RUP nor RAT on -3 (resolving with "3 4" leaves "-3 4", not RUP).
    formula = [*TWO, (3, 4)]
    assert drat.check(4, formula, "1 0\n0\n").ok
    with pytest.raises(ValueError, match="lemma 1 .*neither RUP nor RAT"):
        drat.core(4, formula, "-3 0\n1 0\n0\n")


def test_a_proof_that_refutes_nothing_has_no_core():
    with pytest.raises(ValueError, match="without the empty clause"):
        drat.core(2, TWO, "1 0\n")
    with pytest.raises(ValueError, match="neither RUP nor RAT"):
        drat.core(2, TWO[:3], "0\n")


def test_the_core_is_an_ordered_part_of_the_proof_and_refutes_the_cnf(trimmed):
    data = json.loads(trimmed.read_text())
    cnf = _clauses((trimmed.parent / data["cnf"]["file"]).read_text())
    proof = lemmas((trimmed.parent / data["drat"]["file"]).read_text())
    core = lemmas((trimmed.parent / data["core"]["file"]).read_text())
    assert core[-1] == () and len(core) == data["core"]["lemmas"]
    assert 0 < len(core) < len(proof) // 4  # trimming is worth a file of its own
    position = iter(proof)
    assert all(any(lemma == held for held in position) for lemma in core)  # in proof order
    assert drat.check(0, cnf, "\n".join(" ".join(map(str, (*c, 0))) for c in core)).ok


def test_verify_replays_the_core_too(trimmed):
    report = verify(trimmed)
    assert report.verdict == "unique" and 0 < report.core < report.lemmas


def _with_core(json_path: Path, target: Path, text: str) -> Path:
    """A copy of the certificate whose core is `text` (its sha256 updated)."""
    shutil.copytree(json_path.parent, target)
    copy = target / json_path.name
    data = json.loads(copy.read_text())
    (target / data["core"]["file"]).write_text(text)
    data["core"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    copy.write_text(json.dumps(data))
    return copy


def test_a_core_without_its_lemmas_is_rejected_saying_where(trimmed, tmp_path):
    copy = _with_core(trimmed, tmp_path / "c", "0\n")
    with pytest.raises(CertificateRejected, match=r"p\.core\.drat: lemma 1 .*conflict"):
        verify(copy)


def test_a_core_changed_after_its_hash_was_written_is_rejected(trimmed, tmp_path):
    shutil.copytree(trimmed.parent, tmp_path / "c")
    (tmp_path / "c" / "p.core.drat").write_text("0\n")
    with pytest.raises(CertificateRejected, match="sha256"):
        verify(tmp_path / "c" / trimmed.name)


def test_without_trim_no_core_is_written(tmp_path, top95):
    made = certify(top95[7][0], tmp_path, "p")
    assert made.core_path is None and not (tmp_path / "p.core.drat").exists()
    assert "core" not in json.loads(made.json_path.read_text())
    assert verify(made.json_path).core == 0


def _drat_trim() -> str | None:
    """drat-trim's path: $SUDOKULAB_DRAT_TRIM or the PATH's (None: the test skips)."""
    return os.environ.get("SUDOKULAB_DRAT_TRIM") or shutil.which("drat-trim")


@pytest.mark.skipif(_drat_trim() is None, reason="drat-trim is not installed")
def test_drat_trim_verifies_the_labs_core_and_trims_the_proof_alike(trimmed, tmp_path):
    data = json.loads(trimmed.read_text())
    folder = trimmed.parent
    ours = subprocess.run([_drat_trim(), str(folder / "p.cnf"), str(folder / "p.core.drat"),
                           "-f"], capture_output=True, text=True)
    assert "s VERIFIED" in ours.stdout
    theirs = subprocess.run([_drat_trim(), str(folder / "p.cnf"), str(folder / "p.drat"),
                             "-l", str(tmp_path / "core.drat")], capture_output=True, text=True)
    assert "s VERIFIED" in theirs.stdout
    # Both cores are small parts of the same proof; neither checker needs the other's.
    assert len(lemmas((tmp_path / "core.drat").read_text())) < data["drat"]["lemmas"] // 4
