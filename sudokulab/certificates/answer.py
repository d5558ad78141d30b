"""An engine's answer certified: the certificate's own verdict, proved and checked, set
beside what the engine claimed (`solve --certify DIR`, `sl.solve(certify=DIR)`).

The certificate decides the puzzle on its own CNF (encoder.py), so it stands whatever the
engine said; `verify` then replays it with drat.py and check.py. An engine whose verdict
the certificate contradicts is a disagreement (exit 4), as a grid check.py rejects is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status

# what an engine's status claims, in a certificate's words (None: it claims no verdict)
CLAIMS = {Status.UNIQUE: "unique", Status.NONE: "none", Status.MULTIPLE: "multiple"}


@dataclass(frozen=True)
class Certified:
    """A certificate made and verified for one answer, and how it stands to the claim."""

    path: Path
    verdict: str
    lemmas: int
    contradiction: str  # '' when the engine's claim is what the certificate proves

    def line(self, number: int) -> str:
        """One line for stderr: what was proved, where the certificate lies."""
        proof = f"a proof of {self.lemmas} lemmas" if self.lemmas else "two checked grids"
        if self.contradiction:
            return f"puzzle {number}: the certificate contradicts the engine: {self.contradiction}"
        return f"puzzle {number}: certified {self.verdict} ({proof}, verified): {self.path}"


def certify_answer(puzzle: Puzzle, result: Result, folder: str | Path,
                   name: str, *, trim: bool = False) -> Certified:
    """Certify the puzzle in folder/<name>.* (with `trim`, the proof's trimmed core too),
    verify the certificate, and compare its verdict (and solution) with the engine's
    result."""
    from sudokulab.certificates import certify, verify

    certificate = certify(puzzle, folder, name, trim=trim)
    report = verify(certificate.json_path)
    return Certified(report.path, report.verdict, report.lemmas,
                     contradiction(result, certificate.verdict, certificate.solutions))


def contradiction(result: Result, verdict: str, solutions: tuple) -> str:
    """Why the engine's result cannot stand beside the proved verdict ('' when it can);
    `solutions` is the certificate's (the first is the one of a 'unique')."""
    claim = CLAIMS.get(result.status)
    if result.status is Status.SOLVED and verdict == "none":
        return "it claims a solution, the certificate proves there is none"
    if (result.status is Status.SOLVED and verdict == "unique" and result.solutions
            and tuple(result.solutions[0]) != tuple(solutions[0])):
        return "its solution is not the one the certificate proves unique"
    if claim is None:
        return ""  # a timeout, a stall, an error: no verdict to contradict
    if claim != verdict:
        return f"it claims {claim}, the certificate proves {verdict}"
    if claim == "unique" and (not result.solutions
                              or tuple(result.solutions[0]) != tuple(solutions[0])):
        return "its solution is not the one the certificate proves unique"
    return ""
