"""`sudokulab export`: a model file for an external solver (MODELS) or a link (LINKS)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sudokulab.commands.inputs import examples, input_arguments, nonempty, read_input
from sudokulab.errors import Exit, SudokulabError, UnsupportedRule, UsageError, exit_help
from sudokulab.formats import LINKS

# Each --to that writes a model, and what it is: the choices, the help and the description.
MODELS = {
    "dimacs": "DIMACS CNF, for any SAT solver (shaped by --encoding and --amo); with\n"
              f"{'':13}--amo native it is MiniCard's 'p cnf+', for MiniCard or GlueCard only",
    "smt2": "SMT-LIB 2, for any SMT solver (shaped by --model)",
    "asp": "an answer set program: sudoku.lp and the puzzle's facts, for clingo",
    "mzn": "the MiniZinc model with the puzzle inside, for minizinc",
    "dzn": "the puzzle as MiniZinc data for sudokulab/models/mzn/sudoku.mzn",
    "lp": "the 0-1 program in CPLEX LP format, as HiGHS writes it, for any MILP solver",
}
# The models whose engines solve a samurai (sat, mzn, milp): they take its cells as they are
MULTI_GRID = ("dimacs", "mzn", "dzn", "lp")
FORMATS = {**MODELS, **{name: f"a link that opens the puzzle in {name}" for name in LINKS}}
DESCRIPTION = ("Write one puzzle as a model for an external solver, or as a link that\n"
               "opens it in the browser. --to names one of:\n"
               + "\n".join(f"  {name:<11}{what}" for name, what in FORMATS.items()))
EXAMPLES = examples(
    "sudokulab export PUZZLE --to dimacs --encoding minimal --out puzzle.cnf",
    "sudokulab export PUZZLE --to asp | clingo - 0",
    "sudokulab export PUZZLE --to lp --out puzzle.lp")
EXITS = (Exit.OK, Exit.INPUT, Exit.ENGINE, Exit.INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """The options of `export`."""
    from sudokulab.models.cnf import ENCODINGS

    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    p.add_argument("--to", choices=FORMATS, required=True,
                   help=f"output format: a model ({', '.join(MODELS)}: see above) or a link "
                        f"that opens the puzzle in the browser ({', '.join(LINKS)})")
    p.add_argument("--encoding", choices=ENCODINGS,
                   help="the CNF encoding (dimacs only; default extended)")
    p.add_argument("--amo",
                   help="at-most-one encoding (dimacs only): pairwise (the default), "
                        "seqcounter, ladder, ...; native writes 'p cnf+' with 'lits <= 1' "
                        "lines, MiniCard's format: for MiniCard or GlueCard only, no plain SAT "
                        "solver reads it")
    p.add_argument("--model", help="SMT model (smt2 only): int, bool (the default), bitvec")
    p.add_argument("--out", "--output", "-o", dest="out", metavar="FILE", type=nonempty,
                   help="write here instead of stdout (--output: its old name)")
    p.set_defaults(multi_grid=True)


def run(args: argparse.Namespace) -> int:
    """Write one puzzle's model or link; 5 for a rule the model cannot express."""
    for option, form in (("encoding", "dimacs"), ("amo", "dimacs"), ("model", "smt2")):
        if getattr(args, option) is not None and args.to != form:
            raise UsageError(f"--{option} shapes the {form} model only, not --to {args.to}")
    puzzles = read_input(args)
    if len(puzzles) != 1:
        raise UsageError(f"export takes one puzzle, the input has {len(puzzles)}")
    try:
        text = _exported(puzzles[0], args)
    except SudokulabError:
        raise
    except ValueError as error:  # a rule the model cannot express: as solve says it, 5
        raise UnsupportedRule(str(error)) from None
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as error:
            raise UsageError(f"--out {args.out}: cannot write it: {error.strerror}") from None
        print(f"sudokulab: wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return Exit.OK


def _exported(puzzle, args: argparse.Namespace) -> str:
    """The model's text, or the link, the options ask for."""
    if puzzle.layout is not None and args.to not in MULTI_GRID:
        raise UnsupportedRule(f"export --to {args.to} writes one N x N grid, not a "
                              f"{puzzle.layout.name}: --to {', '.join(MULTI_GRID)} write it")
    if args.to == "asp":  # sudoku.lp and the puzzle's facts: clingo alone solves it
        from sudokulab.models import asp

        return asp.to_lp(puzzle)
    if args.to in ("mzn", "dzn"):  # sudoku.mzn and its data: `minizinc` alone solves it
        from sudokulab.models import mzn

        return mzn.to_mzn(puzzle) if args.to == "mzn" else mzn.to_dzn(puzzle)
    if args.to == "lp":
        from sudokulab.models import milp

        return milp.to_lp(puzzle)
    if args.to in LINKS:
        from sudokulab.formats import links

        link = links.fpuzzles_link if args.to == "fpuzzles" else links.sudokupad_link
        return link(puzzle) + "\n"
    if args.to == "dimacs":
        from sudokulab.models import cnf

        encoding, amo = args.encoding or "extended", args.amo or "pairwise"
        _choice("--encoding", encoding, cnf.ENCODINGS)
        _choice("--amo", amo, cnf.AMO_ENCODINGS)
        return cnf.to_dimacs(puzzle, encoding=encoding, amo=amo)
    from sudokulab.models import smt

    model = args.model or "bool"
    _choice("--model", model, smt.MODELS)
    return smt.to_smt2(puzzle, model=model)


def _choice(option: str, value: str, allowed: Sequence[str]) -> None:
    """UsageError unless value is one of allowed."""
    if value not in allowed:
        raise UsageError(f"{option} {value!r}: choose one of {', '.join(allowed)}")
