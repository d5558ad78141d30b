"""The commands of `sudokulab`, one module each.

Every command module has the same shape: `DESCRIPTION` (its --help's first paragraph),
`EXAMPLES` (two or three command lines), `EXITS` (the exit codes it can return),
`options(parser)` that adds its options, and `run(args) -> int` that runs it and returns
the exit code. A command whose options can leave another without effect also has
`refuse_unused(args)`: the cli calls it before `run`, and it raises UsageError naming the
option and why, so that no option is ignored without a word. `cli.py` imports only the
module of the command being run, so a command never pays for another's imports.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# Each command's one-line summary, in the order `sudokulab --help` lists them.
COMMANDS = {
    "solve": "solve puzzles with one backend",
    "compare": "run backends over a dataset, cross-check them, compare timings",
    "backends": "list the backends, whether each can run here, and why not",
    "datasets": "list the bundled puzzle sets",
    "show": "print a puzzle in another format, or its candidates",
    "export": "write the puzzle for external solvers (DIMACS CNF, SMT-LIB 2, ASP, MiniZinc, "
              "an LP file) or as a link",
    "model": "show what a backend builds for each rule, or one rule in every engine",
    "read": "read a puzzle from a photo or screenshot",
    "explain": "the numbered human-style steps that solve a puzzle",
    "hint": "the easiest next human-style step",
    "grade": "grade puzzles as HoDoKu and Sudoku Explainer would",
    "generate": "make new puzzles: unique, minimal, symmetric, of a chosen level",
    "setter": "the setter's bench: solutions left, true candidates, redundant givens and "
              "rules, grade",
    "ladder": "how far each engine infers before its first guess, against tdoku's table",
    "verify": "check certified verdicts: the CNF, the solutions and the DRAT proof",
    "serve": "the web page: play, solve and compare in the browser",
    "check-backend": "run the backend contract on one engine or plugin, as a report to act on",
}


def module(name: str) -> ModuleType:
    """The module of the command `name` (imported now, not before)."""
    return importlib.import_module(f"sudokulab.commands.{name.replace('-', '_')}")
