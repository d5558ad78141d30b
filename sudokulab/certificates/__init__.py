"""Certified verdicts (issue 56): a puzzle's verdict with the evidence to check it.

`certify(puzzle, folder, name)` writes a certificate (a DIMACS CNF, a DRAT proof and a
JSON file that ties them to the puzzle); `verify(path)` checks one, trusting none of the
engines: encoder.py is the CNF's own encoding, drat.py replays the proof, check.py checks
each solution. See docs/certified.md. (The solver, PySAT, is imported only when a
certificate is made.)
"""

from __future__ import annotations

from sudokulab.certificates.certificate import Certificate, certify
from sudokulab.certificates.verify import Report, verify

__all__ = ["Certificate", "Report", "certify", "verify"]
