"""`sudokulab model`: the teaching view of what a backend builds for each rule.

With `--rule N` (a number: see NUMBERING) it shows rule N of the puzzle in each engine
side by side (`--backends all`, the registry's engines), each piece taken from the engine's
own model builder by `sudokulab.teach`.
"""

from __future__ import annotations

import argparse
import sys

from sudokulab.commands.inputs import backend, each_puzzle, examples, input_arguments
from sudokulab.errors import (
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    UsageError,
    error_line,
    exit_help,
    worst,
)

DESCRIPTION = ("Show what a backend builds for each rule of a puzzle: its variables, "
               "constraints, clauses or program. With --rule N, rule N of the puzzle in "
               "every engine, side by side.")
EXAMPLES = examples(
    "sudokulab model PUZZLE -b sat",
    "sudokulab model PUZZLE --cage r1c1,r1c2=10 -b prolog",
    "sudokulab model PUZZLE --rule 1 --backends all            # row 1 in every engine",
    "sudokulab model PUZZLE --rules anti-knight --rule 28 --backends sat,asp",
    "sudokulab model PUZZLE --cage r1c1,r1c2=10 --list-rules    # the numbers of its rules")


def options(p: argparse.ArgumentParser) -> None:
    """The options of `model`."""
    from sudokulab.encodings.cnf import ENCODINGS
    from sudokulab.teach import NUMBERING

    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME")
    p.add_argument("--backends", metavar="LIST",
                   help="with --rule N: the engines to show rule N in, comma separated, or "
                        "'all' (every engine of the registry; the default)")
    p.add_argument("--encoding", default="extended", choices=ENCODINGS,
                   help="with --rule N: the CNF encoding whose clauses the sat piece shows "
                        "(default extended)")
    p.add_argument("--list-rules", action="store_true",
                   help="list the puzzle's numbered rules, for --rule N")
    for action in p._actions:  # --rule also takes a number: say so where it is explained
        if action.dest == "rule":
            action.help += (f"; a number N shows rule N in every engine instead: {NUMBERING}")
    p.set_defaults(multi_grid=True)


EXITS = (EXIT_OK, EXIT_INPUT, EXIT_ENGINE, EXIT_INTERRUPTED)


def run(args: argparse.Namespace) -> int:
    """Print what a backend builds for each rule of each puzzle; 5 if it cannot."""
    numbers = [int(text) for text in args.rule if text.strip().isdigit()]
    args.rule = [text for text in args.rule if not text.strip().isdigit()]
    if len(numbers) > 1:
        raise UsageError("give one rule number with --rule N")
    if numbers or args.list_rules:
        return _side_by_side(args, numbers[0] if numbers else None)
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


def _engines(text: str | None) -> list[str]:
    """The engines --backends names: 'all' (or none) is every one of the registry."""
    from sudokulab import backends

    if not text or text.strip() == "all":
        return backends.names()
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        backends.backend_class(name)  # BackendError (one line) for an unknown name
    return names


def _side_by_side(args: argparse.Namespace, number: int | None) -> int:
    """Rule `number` of each puzzle in each engine, or the numbered rules."""
    from sudokulab import teach

    engines = _engines(args.backends)
    codes = [EXIT_OK]
    for _, puzzle in each_puzzle(args, codes):
        if number is None:
            for ref in teach.rules_of(puzzle):
                print(f"{ref.number:>4}  {ref.name}")
            continue
        ref = teach.rule_ref(puzzle, number)
        print(f"rule {ref.number}: {ref.name} ({len(ref.cells)} cells)")
        for piece in teach.pieces(puzzle, number, engines, args.encoding):
            print(piece.render())
    return worst(codes)
