"""`sudokulab hint`: the easiest next human-style step."""

from __future__ import annotations

import argparse
import json
import sys

from sudokulab.commands import steps
from sudokulab.commands.inputs import examples, input_arguments
from sudokulab.errors import (
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NONE,
    EXIT_OK,
    EXIT_SEVERAL,
    EXIT_STALLED,
    EXIT_TIMEOUT,
    error_line,
    exit_help,
    worst,
)

DESCRIPTION = ("The easiest next step only, on the puzzle's pencil marks. Given only once a "
               "search engine (norvig) proves the puzzle has one solution: one with none or "
               "several is refused at once, saying which.")
EXAMPLES = examples(
    "sudokulab hint 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",  # noqa: E501  (a puzzle to copy whole)
    "sudokulab hint PUZZLE --upto 'hidden single' --format json")
EXITS = (EXIT_OK, EXIT_NONE, EXIT_INPUT, EXIT_TIMEOUT, EXIT_ENGINE, EXIT_SEVERAL,
         EXIT_STALLED, EXIT_INTERRUPTED)
refuse_unused = steps.refuse_unused  # --list with a puzzle: a usage error


def options(p: argparse.ArgumentParser) -> None:
    """The options of `hint`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    steps.technique_options(p)
    p.add_argument("--format", choices=("pretty", "json"), default="pretty",
                   help="pretty (default): the step's notation and sentence; json: the step "
                        "as an object (null when there is none)")


def run(args: argparse.Namespace) -> int:
    """Print the easiest next step of each puzzle."""
    if args.list:
        print(steps.listing())
        return EXIT_OK
    from sudokulab.human import lessons

    techniques = steps.chosen(args)
    codes = [EXIT_OK]
    for number, puzzle, _ in steps.explainable(args, codes):
        try:
            step = lessons.next_step(puzzle, techniques, steps.unique(args),
                                     steps.deadline(args))
        except lessons.Stopped:
            print(error_line(f"puzzle {number}: no step found within --timeout "
                             f"{args.timeout:g} s"), file=sys.stderr)
            codes.append(EXIT_TIMEOUT)
            continue
        full = all(puzzle.givens)
        if step is None and not full:  # the techniques stop short, as `solve -b human`
            codes.append(EXIT_STALLED)
        if args.format == "json":
            print(json.dumps(step.to_json(puzzle.n) if step else None))
        elif step is None:
            print("no step: the puzzle is full" if full else
                  "no step: no enabled technique applies (try more techniques)")
        else:
            print(f"{step.notation}\n{step.sentence}")
    return worst(codes)
