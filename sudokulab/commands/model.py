"""`sudokulab model`: the teaching view of what a backend builds for each rule."""

from __future__ import annotations

import argparse
import sys

from sudokulab.commands.inputs import backend, each_puzzle, examples, input_arguments
from sudokulab.errors import (
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    error_line,
    exit_help,
    worst,
)

DESCRIPTION = ("Show what a backend builds for each rule of a puzzle: its variables, "
               "constraints, clauses or program.")
EXAMPLES = examples(
    "sudokulab model PUZZLE -b sat",
    "sudokulab model PUZZLE --cage r1c1,r1c2=10 -b prolog")
EXITS = (EXIT_OK, EXIT_INPUT, EXIT_ENGINE, EXIT_INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """The options of `model`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME")
    p.set_defaults(multi_grid=True)


def run(args: argparse.Namespace) -> int:
    """Print what a backend builds for each rule of each puzzle; 5 if it cannot."""
    engine = backend(args.backend)
    codes = [EXIT_OK]
    for _, puzzle in each_puzzle(args, codes):
        reason = engine.unsupported(puzzle)
        if reason:  # an error, on stderr: stdout holds only models
            print(error_line(f"{engine.label}: {reason}"), file=sys.stderr)
        else:
            print(engine.describe(puzzle))
        codes.append(EXIT_ENGINE if reason else EXIT_OK)
    return worst(codes)
