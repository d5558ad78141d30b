"""Certified verdicts (issue 56): a puzzle's verdict with the evidence to check it.

`certify(puzzle, folder, name)` writes a certificate (a DIMACS CNF, a DRAT proof and a
JSON file that ties them to the puzzle); `verify(path)` checks one, trusting none of the
engines: encoder.py is the CNF's own encoding, drat.py replays the proof, check.py checks
each solution. See docs/certified.md. (The solver, PySAT, is imported only when a
certificate is made.)
"""

from __future__ import annotations

import sys
import types

from sudokulab.certify.certificate import Certificate, certify
from sudokulab.certify.verify import Report, verify

__all__ = ["Certificate", "Report", "certify", "verify"]


class _Callable(types.ModuleType):
    """This package, callable: once imported it is what the attribute `sudokulab.certify`
    is, so `sl.certify(puzzle)` must stay the API's (sudokulab.api.certify), as for
    sudokulab.generate.setter."""

    def __call__(self, *args, **kwargs) -> Certificate:
        """The API's certify: arguments checked, then made and verified."""
        from sudokulab import api

        return api.certify(*args, **kwargs)


sys.modules[__name__].__class__ = _Callable
