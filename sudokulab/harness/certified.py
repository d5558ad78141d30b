"""Certified verdicts in a comparison (issue 56): `compare --certify DIR` and
`sl.compare(certify=DIR)` prove each puzzle's verdict once, with the code `solve --certify`
uses (sudokulab.certificates: its own CNF, CaDiCaL's DRAT proof, then `verify`: drat.py and
check.py), and hold every engine's answer against it.

A certificate is written to DIR as <set>-<k>.json, .cnf and .drat (k: the puzzle's number
in its set, from 1), so `sudokulab verify DIR` checks them all again later. Each
certified verdict is kept in the run folder's certified.jsonl as it comes (a resumed run
certifies only the puzzles it lacks). An answer the certificate contradicts is a wrong
answer: said on stderr at once, and a finding of the cross-check (exit code 4).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sudokulab.harness.records import Record
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Result

FILENAME = "certified.jsonl"


@dataclass(frozen=True)
class Proof:
    """One puzzle's certified verdict, as certified.jsonl stores it."""

    index: int                  # the puzzle's index in its set (from 0)
    verdict: str | None         # none | unique | multiple; None: no certificate (see why)
    certificate: str = ""       # its .json, which `sudokulab verify` checks
    solution: Grid | None = None  # the one solution, for 'unique'
    count: int | None = None    # the exact count when proved (None: 'two or more')
    lemmas: int = 0             # the proof's lemmas (0: two checked grids, or none)
    ms: float = 0.0             # making the certificate and verifying it
    why: str = ""               # why there is no certificate

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        return {"index": self.index, "verdict": self.verdict, "certificate": self.certificate,
                "solution": None if self.solution is None else list(self.solution),
                "count": self.count, "lemmas": self.lemmas, "ms": round(self.ms, 3),
                "why": self.why}

    @classmethod
    def from_json(cls, data: Mapping) -> Proof:
        """The inverse of to_json."""
        solution = data.get("solution")
        return cls(int(data["index"]), data.get("verdict"), data.get("certificate", ""),
                   None if solution is None else tuple(solution), data.get("count"),
                   int(data.get("lemmas", 0)), float(data.get("ms", 0.0)), data.get("why", ""))


def name_of(dataset: str, index: int) -> str:
    """A certificate's file stem in a run: '<set>-<k>', k the puzzle's number from 1."""
    return f"{dataset}-{index + 1}"


def prove(puzzle: Puzzle, index: int, folder: Path, dataset: str) -> Proof:
    """Certify one puzzle in folder and verify the certificate; a Proof without verdict
    (and why) when the encoder cannot express a rule or the lab's own checks fail."""
    from sudokulab.certificates import certify, verify
    from sudokulab.errors import DisagreementError, UnsupportedRule

    started = time.perf_counter()
    try:
        made = certify(puzzle, folder, name_of(dataset, index))
        report = verify(made.json_path)
    except UnsupportedRule as error:
        return Proof(index, None, why=f"no certificate: {error}")
    except DisagreementError as error:  # an encoder or checker bug: never a verdict
        return Proof(index, None, why=f"REJECTED: {error}")
    return Proof(index, report.verdict, str(report.path),
                 made.solutions[0] if report.verdict == "unique" else None, report.count,
                 report.lemmas, (time.perf_counter() - started) * 1000)


def standing(result: Result, proof: Proof) -> str:
    """Why an engine's answer cannot stand beside the certified verdict ('' when it
    can, or when there is no verdict on either side)."""
    from sudokulab.certificates.answer import contradiction

    if proof.verdict is None:
        return ""
    return contradiction(result, proof.verdict, (proof.solution,) if proof.solution else ())


def given(result: Result) -> bool:
    """Whether an answer gives a verdict a certificate can prove (unique, none, several,
    or 'solved': at least one solution)."""
    return result.status.is_answer


def tally(records: Iterable[Record], proofs: Mapping[int, Proof]) -> dict[str, tuple[int, int]]:
    """Per engine: (verdicts the certificates prove, verdicts given)."""
    counts: dict[str, list[int]] = {}
    for record in records:
        count = counts.setdefault(record.backend, [0, 0])
        if not given(record.result):
            continue
        count[1] += 1
        proof = proofs.get(record.index)
        if proof is not None and proof.verdict is not None and not standing(record.result,
                                                                            proof):
            count[0] += 1
    return {backend: (proved, total) for backend, (proved, total) in counts.items()}


def disproved(records: Iterable[Record], proofs: Mapping[int, Proof]
              ) -> list[tuple[Record, str]]:
    """Each answer a certificate contradicts, and why."""
    found = []
    for record in records:
        proof = proofs.get(record.index)
        why = standing(record.result, proof) if proof is not None else ""
        if why:
            found.append((record, f"{why} ({proof.certificate if proof else ''})"))
    return found


def certify_all(puzzles: Mapping[int, Puzzle], folder: Path, dataset: str,
                records: Iterable[Record], keep: Callable[[Proof], None], *,
                done: Mapping[int, Proof] | None = None, progress: bool = True) -> None:
    """Prove every puzzle not `done`, in index order, `keep` taking each Proof as it comes;
    each answer a certificate contradicts is said on stderr at once (DISPROVED), and each
    certificate that could not be made or passed no check (a lab bug: REJECTED)."""
    from sudokulab.harness.progress import Progress

    by_puzzle: dict[int, list[Record]] = {}
    for record in records:
        by_puzzle.setdefault(record.index, []).append(record)
    todo = [i for i in sorted(puzzles) if not done or i not in done]
    shown = Progress("certify", len(todo)) if progress and todo else None
    try:
        for index in todo:
            proof = prove(puzzles[index], index, folder, dataset)
            keep(proof)
            _say(proof, by_puzzle.get(index, []))
            if shown:
                shown.step()
    finally:
        if shown:
            shown.finish()


def _say(proof: Proof, records: list[Record]) -> None:
    """A line on stderr for each answer the proof contradicts, and for a certificate
    that the lab's own checks refused."""
    if proof.why.startswith("REJECTED"):
        print(f"sudokulab: puzzle #{proof.index + 1}: {proof.why}", file=sys.stderr)
    for record, why in disproved(records, {proof.index: proof}):
        print(f"sudokulab: DISPROVED: puzzle #{proof.index + 1}: {record.backend}: {why}",
              file=sys.stderr)


class ProofLog:
    """certified.jsonl of a run folder: one line per puzzle, appended as each is proved."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / FILENAME

    def read(self) -> dict[int, Proof]:
        """Every complete line's Proof, by puzzle index (a line cut short is dropped: its
        puzzle is certified again)."""
        if not self.path.exists():
            return {}
        proofs = {}
        for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                proof = Proof.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue
            proofs[proof.index] = proof
        return proofs

    def append(self, proof: Proof) -> None:
        """One line, flushed to disk."""
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(proof.to_json()) + "\n")
