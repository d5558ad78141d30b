"""Certified verdicts on the page (issue 56): a puzzle certified and the certificate verified,
or a certificate sent back verified, as JSON; run in a helper process (web/tutor.py).

A certificate travels as one zip of its plain files (<name>.json, .cnf, .drat), base64 in
the JSON answer: the page offers it for download as it is, and `sudokulab verify`,
drat-trim or cake_lpr read the files once it is unzipped (docs/web.md). The page says
"proved" only for a certificate that `sudokulab.certificates.verify` accepted: one it rejects is
answered 'rejected' with verify's one line, never a verdict.
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import tempfile
import zipfile
from pathlib import Path

from sudokulab.errors import UsageError
from sudokulab.formats import json_value
from sudokulab.puzzle import MARKS, Puzzle

MAX_FILES = 8                    # files in a certificate's zip (json, cnf, drat, core)
MAX_UNZIPPED = 64 * 1024 * 1024  # bytes of a certificate's files once unzipped
SHOWN = 2                        # solutions sent to the page (the zip holds them all)
SAID = {"unique": "proved: one solution", "none": "proved: no solution",
        "multiple": "two solutions shown"}


def certified(puzzle: Puzzle, seconds: float = 0.0) -> dict:
    """(in the helper) The puzzle certified in a folder of its own and the certificate
    verified: the verdict in words, its solutions, and the certificate as a zip. The time
    limit (`seconds`) is the server's: it stops this process past it."""
    from sudokulab.certificates import certify, verify
    from sudokulab.certificates.certificate import name_of

    name = name_of(puzzle)
    with tempfile.TemporaryDirectory(prefix="sudokulab-certify-") as folder:
        certificate = certify(puzzle, folder, name)
        return {**_checked(certificate.json_path, verify),
                "made_ms": round(sum(certificate.times.values()), 1),
                "certificate": {"name": f"{name}.zip", "zip": _zipped(Path(folder))}}


def verified(certificate: str, seconds: float = 0.0) -> dict:
    """(in the helper) A certificate sent back (the zip the page offered, base64) verified:
    'proved' with its verdict, or 'rejected' with where it fails. UsageError (a 400) for a
    zip that holds no certificate."""
    from sudokulab.certificates import verify
    from sudokulab.errors import SudokulabError

    with tempfile.TemporaryDirectory(prefix="sudokulab-verify-") as folder:
        json_path = _unzipped(certificate, Path(folder))
        try:
            answer = _checked(json_path, verify)
        except SudokulabError as error:  # said of the zip's files, not of the server's folder
            raise type(error)(_in_zip(str(error), folder)) from None
        return {**answer, "message": _in_zip(answer["message"], folder)}


def _in_zip(message: str, folder: str) -> str:
    """A message about the unzipped files, naming them as the zip does (a.json), not by
    the server's temporary folder, which the sender never sees."""
    return message.replace(f"{folder}{os.sep}", "")


def _checked(json_path: Path, verify) -> dict:
    """verify's judgement of a certificate as the page shows it."""

    from sudokulab.errors import CertificateRejected

    try:
        report = verify(json_path)
    except CertificateRejected as error:
        return {"status": "rejected", "verdict": None, "said": "not proved",
                "message": f"the certificate is rejected: {error}"}
    data = json_value(json_path.read_text())
    return {"status": "proved", "verdict": report.verdict, "said": SAID[report.verdict],
            "count": report.count, "lemmas": report.lemmas, "proved": data.get("proved", ""),
            "solutions": [[MARKS.index(c) for c in line] for line in data["solutions"][:SHOWN]],
            "check_ms": round(report.ms, 1), "message": ""}


def _zipped(folder: Path) -> str:
    """The folder's files as one zip, base64."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            archive.write(path, path.name)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _unzipped(text: str, folder: Path) -> Path:
    """A base64 zip's files written into folder (their bare names only: nothing lands
    outside it); its one .json. UsageError for anything else."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(base64.b64decode(text, validate=True)))
    except (binascii.Error, ValueError, zipfile.BadZipFile):
        raise UsageError("certificate: not a base64 zip (send the zip the page "
                         "offered, as base64)") from None
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        if len(members) > MAX_FILES or sum(m.file_size for m in members) > MAX_UNZIPPED:
            raise UsageError(f"certificate: at most {MAX_FILES} files and "
                             f"{MAX_UNZIPPED // 2**20} MiB unzipped")
        for member in members:
            name = Path(member.filename).name
            if name in ("", ".", ".."):
                raise UsageError(f"certificate: a file without a name: {member.filename!r}")
            (folder / name).write_bytes(archive.read(member))
    found = sorted(folder.glob("*.json"))
    if len(found) != 1:
        raise UsageError(f"certificate: the zip holds {len(found)} .json files, not one")
    return found[0]
