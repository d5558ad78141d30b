"""`sudokulab model`: the teaching view of what a backend builds for each rule.

With `--show-rule N` (a number: see NUMBERING) it shows rule N of the puzzle in each engine
side by side (`--backends all`, the registry's engines), each piece taken from the engine's
own model builder by `sudokulab.teaching.sidebyside`. `--rule` is what it is in every
command: a variant rule by name.
"""

from __future__ import annotations

import argparse
import sys

from sudokulab.commands.inputs import backend, each_puzzle, examples, input_arguments
from sudokulab.errors import Exit, UsageError, error_line, exit_help, worst

DESCRIPTION = ("Show what a backend builds for each rule of a puzzle: its variables, "
               "constraints, clauses or program. With --show-rule N, rule N of the puzzle in "
               "every engine, side by side.")
EXAMPLES = examples(
    "sudokulab model PUZZLE -b sat --encoding minimal",
    "sudokulab model PUZZLE --cage r1c1,r1c2=10 -b prolog",
    "sudokulab model PUZZLE --show-rule 1 --backends all       # row 1 in every engine",
    "sudokulab model PUZZLE --rules anti-knight --show-rule 28 --backends sat,asp",
    "sudokulab model PUZZLE --cage r1c1,r1c2=10 --list-rules    # the numbers of its rules")
DEFAULT_BACKEND = "norvig"


def options(p: argparse.ArgumentParser) -> None:
    """The options of `model`."""
    from sudokulab.errors import positive_int
    from sudokulab.models.cnf import ENCODINGS
    from sudokulab.teaching.sidebyside import NUMBERING

    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    p.add_argument("--backend", "-b", metavar="NAME",
                   help=f"the engine whose model is shown, with its options as in solve "
                        f"(default {DEFAULT_BACKEND}); with --show-rule N: the one engine to "
                        f"show rule N in")
    p.add_argument("--backends", metavar="LIST",
                   help="with --show-rule N: the engines to show rule N in, comma separated, "
                        "or 'all' (every engine of the registry; the default)")
    p.add_argument("--encoding", choices=ENCODINGS,
                   help="the CNF encoding of the sat model (-b sat), or of the sat piece of "
                        "--show-rule N (default extended)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--show-rule", type=positive_int, metavar="N",
                       help=f"show rule N of the puzzle in every engine, side by side; "
                            f"{NUMBERING}")
    which.add_argument("--list-rules", action="store_true",
                       help="list the puzzle's numbered rules, for --show-rule N")
    p.set_defaults(multi_grid=True)


EXITS = (Exit.OK, Exit.INPUT, Exit.ENGINE, Exit.INTERRUPTED)


def run(args: argparse.Namespace) -> int:
    """Print what a backend builds for each rule of each puzzle; 5 if it cannot."""
    if args.show_rule is not None or args.list_rules:
        return _side_by_side(args, args.show_rule)
    engine = backend(_spec(args.backend or DEFAULT_BACKEND, args.encoding))
    codes: list[int] = [Exit.OK]
    for _, puzzle in each_puzzle(args, codes):
        reason = engine.unsupported(puzzle)
        if reason:  # an error, on stderr: stdout holds only models
            print(error_line(f"{engine.label}: {reason}"), file=sys.stderr)
        else:
            print(engine.describe(puzzle))
        codes.append(Exit.ENGINE if reason else Exit.OK)
    return worst(codes)


def refuse_unused(args: argparse.Namespace) -> None:
    """UsageError for an option the chosen view would leave unused, naming it and why."""
    numbers = [text for text in args.rule if text.strip().isdigit()]
    if numbers:  # model's old spelling of --show-rule: a rule name is never a number
        raise UsageError(f"--rule names a variant rule (as in every command), not a number: "
                         f"to show rule {numbers[0].strip()} in every engine, give "
                         f"--show-rule {numbers[0].strip()}")
    if args.list_rules:
        given = [f"--{name}" for name in ("backend", "backends", "encoding")
                 if getattr(args, name) is not None]
        if given:
            raise UsageError(f"--list-rules lists the puzzle's numbered rules, whatever the "
                             f"engine: leave out {', '.join(given)}")
    elif args.show_rule is None and args.backends is not None:
        raise UsageError("--backends names the engines of --show-rule N; for one engine's "
                         "whole model give --backend NAME")
    elif args.show_rule is not None and args.backend and args.backends:
        raise UsageError("--show-rule N shows one engine (--backend) or several "
                         "(--backends), not both")


def _spec(spec: str, encoding: str | None) -> str:
    """The backend spec with --encoding as the sat backend's option; UsageError when the
    backend builds no CNF (the spec's own encoding= and --encoding both: BackendError)."""
    from sudokulab.backends import parse_spec

    if encoding is None:
        return spec
    if parse_spec(spec)[0] != "sat":
        raise UsageError(f"--encoding is the CNF encoding of the sat backend; "
                         f"{spec} builds no CNF (try -b sat --encoding {encoding})")
    return f"{spec}{',' if ':' in spec else ':'}encoding={encoding}"


def _engines(text: str | None) -> list[str]:
    """The engines --backends names: 'all' (or none) is every one of the registry."""
    from sudokulab import backends

    if not text or text.strip() == "all":
        return backends.names()
    return [_one_engine(name.strip(), "--backends") for name in text.split(",")
            if name.strip()]


def _one_engine(spec: str, option: str = "--backend") -> str:
    """The engine -b (or one of --backends) names for --show-rule N: each piece is its
    default model."""
    from sudokulab.backends import backend_class, parse_spec

    name, settings = parse_spec(spec)
    if settings:
        raise UsageError(f"--show-rule N shows each engine's default model: leave the options "
                         f"out of {option} {spec}")
    backend_class(name)  # BackendError (one line) for an unknown name
    return name


def _side_by_side(args: argparse.Namespace, number: int | None) -> int:
    """Rule `number` of each puzzle in each engine, or the numbered rules."""
    from sudokulab.teaching import sidebyside as teach

    engines = [_one_engine(args.backend)] if args.backend else _engines(args.backends)
    if args.encoding is not None and "sat" not in engines:
        print(f"sudokulab: note: --encoding shapes the sat piece, and sat is not among "
              f"{', '.join(engines)}", file=sys.stderr)
    codes: list[int] = [Exit.OK]
    for _, puzzle in each_puzzle(args, codes):
        if number is None:
            for ref in teach.rules_of(puzzle):
                print(f"{ref.number:>4}  {ref.name}")
            continue
        ref = teach.rule_ref(puzzle, number)
        print(f"rule {ref.number}: {ref.name} ({len(ref.cells)} cells)")
        pieces = []
        for name in engines:  # each printed as it is built: Ctrl-C keeps those done
            pieces.append(teach.piece(name, puzzle, ref, args.encoding or "extended"))
            print(pieces[-1].render(), flush=True)
        if all(piece.missing for piece in pieces):  # no engine asked can show the rule
            print(f"sudokulab: none of {', '.join(engines)} has a piece for rule "
                  f"{ref.number} ({ref.name})", file=sys.stderr)
            codes.append(Exit.ENGINE)
    return worst(codes)
