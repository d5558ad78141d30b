"""`sudokulab generate`: its options, and the run that streams puzzles as they are made
(the generator itself is sudokulab.generate)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from sudokulab import rules as R
from sudokulab.commands.inputs import box_shape, examples, nonempty, rule_value
from sudokulab.errors import Exit, SudokulabError, UsageError, exit_help
from sudokulab.generate import RANDOM_RULES

FORMATS = ("line", "json", "pretty", "grid")  # grid: the old name of pretty
LINE_SAFE = RANDOM_RULES  # random rules: a line of digits cannot hold them
DESCRIPTION = (
    "Make new puzzles: a random solution grid for the shape and rules, then givens "
    "removed while the puzzle stays unique (PySAT, incremental), keeping the symmetry. "
    "Every puzzle is proved unique again by a second engine of another paradigm before "
    "it is written. Puzzle k of a run (from 0) is the first puzzle of seed S + k.")
EXAMPLES = examples("sudokulab generate -n 5 --level hard --symmetry rotational",
                    "sudokulab generate --box 2x3 --rules killer --format json --out six.jsonl")
EXITS = (Exit.OK, Exit.INPUT, Exit.DISAGREE, Exit.INTERRUPTED)


class _OldCount(argparse.Action):
    """--count N, the old spelling of --number N: it still works, with a warning."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        """Store N as --number, and say the option's new name."""
        print("sudokulab: warning: generate --count is now --number (-n): the number of "
              "puzzles; --count counts solutions in solve", file=sys.stderr)
        namespace.number = values


def options(p: argparse.ArgumentParser) -> None:
    """The options of `generate`."""
    from sudokulab.errors import count_int, positive_int
    from sudokulab.generate import DEFAULT_TRIES, LEVELS, PROVERS
    from sudokulab.generate.symmetry import SYMMETRIES
    from sudokulab.harness.records import cores

    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    p.add_argument("--number", "-n", type=count_int, default=1, metavar="N",
                   help="how many puzzles (default 1)")
    p.add_argument("--count", type=count_int, action=_OldCount, help=argparse.SUPPRESS)
    p.add_argument("--seed", type=count_int, default=0, metavar="S",
                   help="the seed (default 0): the same seed and options give the same "
                        "puzzles on any machine")
    p.add_argument("--box", default="3x3", metavar="RxC",
                   help="box shape: 2x2 (4x4), 2x3 (6x6), 3x3 (9x9, the default), 4x4 "
                        "(16x16), ...")
    p.add_argument("--rules", metavar="LIST", type=rule_value, action="append", default=[],
                   help=f"comma list of: {R.rule_names()}, "
                        f"and {', '.join(RANDOM_RULES)} (regions, cages with their sums, "
                        "even/odd marks, and the lines, dots, sums and regions of those "
                        "rules, drawn afresh for each puzzle from its solution; -negative: "
                        "every true dot shown, no dot means neither)")
    p.add_argument("--rule", metavar="NAME", action="append", default=[],
                   help="one rule by name (repeatable)")
    p.add_argument("--symmetry", default="none", choices=tuple(SYMMETRIES), metavar="SYM",
                   help=f"of the given cells: {', '.join(SYMMETRIES)} (default none)")
    p.add_argument("--minimal", action="store_true",
                   help="only puzzles from which no single given can be removed (without "
                        "symmetry every puzzle is; with one, puzzles that are not are "
                        "dropped)")
    count = p.add_mutually_exclusive_group()
    count.add_argument("--givens", type=count_int, metavar="K", help="exactly K givens")
    count.add_argument("--max-givens", type=count_int, metavar="K", help="at most K givens")
    target = p.add_mutually_exclusive_group()
    target.add_argument("--level", choices=LEVELS, metavar="LEVEL",
                        help=f"HoDoKu's level from the human-style grader: {', '.join(LEVELS)}")
    target.add_argument("--rating", type=_rating, metavar="A..B",
                        help="an SE-like rating from A to B (A.. or ..B leave one side open)")
    p.add_argument("--grade", action="store_true",
                   help="grade every puzzle (level, score, rating in the JSON output)")
    p.add_argument("--format", choices=FORMATS, default="line",
                   help="line (default): one puzzle per line; json: one object per line (the "
                        "JSON puzzle form with solution, seed, provers, level); pretty: a grid "
                        "per puzzle (grid is its old name). line and pretty start with '#' "
                        "lines of provenance, which compare, grade and solve --file skip; "
                        "json writes them on stderr, so that it holds records only")
    p.add_argument("--out", "-o", metavar="FILE", type=nonempty,
                   help="write here (default: standard output); each puzzle is written as "
                        "it is made, so an interrupted run keeps what it made")
    p.add_argument("--jobs", "-j", type=positive_int, default=cores(), metavar="J",
                   help=f"worker processes (default: the usable cores, {cores()} here); the "
                        f"output is the same as with 1")
    p.add_argument("--prover", choices=PROVERS, default="auto",
                   help="the second engine that proves each puzzle unique again: norvig, "
                        "dlx, asp, cpsat; auto (the default): norvig up to 9x9, asp above "
                        "9x9 and for chess-move and non-consecutive rules")
    p.add_argument("--tries", type=positive_int, default=DEFAULT_TRIES, metavar="T",
                   help=f"tries (removal sweeps) per puzzle before giving up on the "
                        f"filters (default {DEFAULT_TRIES:,})")


def _rating(text: str) -> tuple[float, float]:
    """argparse type: 'A..B', 'A..' or '..B'."""
    low, dots, high = text.partition("..")
    try:
        if not dots:
            raise ValueError
        return (float(low) if low.strip() else 0.0,
                float(high) if high.strip() else float("inf"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected A..B (like 2.0..4.5), not {text!r}") \
            from None


def refuse_unused(args: argparse.Namespace) -> None:
    """UsageError for --grade with --format line, which holds the puzzle only."""
    if args.grade and args.format == "line":
        raise UsageError("--grade's level, score and rating show in --format json or pretty; "
                         "a line holds the puzzle only")


def run(args: argparse.Namespace) -> int:
    """Generate and write the puzzles, each as soon as it is proved."""
    from sudokulab.generate import generate

    args.format = "pretty" if args.format == "grid" else args.format
    rules = [name.strip() for text in args.rules for name in text.split(",") if name.strip()]
    rules += args.rule
    if args.format != "json" and any(name.lower() in LINE_SAFE for name in rules):
        raise UsageError(f"--format {args.format} writes digits only and cannot hold jigsaw "
                         f"regions, cages, marks, lines or sums: use --format json")
    puzzles = generate(box_shape(args.box), rules, number=args.number, seed=args.seed,
                       symmetry=args.symmetry, minimal=args.minimal, givens=args.givens,
                       max_givens=args.max_givens, level=args.level, rating=args.rating,
                       grade=args.grade, prover=args.prover, tries=args.tries,
                       jobs=args.jobs)
    out = _opened(args.out) if args.out else sys.stdout
    progress = None
    written = 0  # the puzzles written whole
    try:
        # JSON Lines hold records only: there the provenance goes to stderr
        (sys.stderr if args.format == "json" else out).write(header(args, rules))
        out.flush()
        if args.number >= 20:
            from sudokulab.harness.progress import Progress

            progress = Progress("generate", args.number)
        for number, made in enumerate(puzzles, 1):
            out.write(render(made, args.format, number))
            out.flush()
            written = number
            if progress:
                progress.step()
    except (KeyboardInterrupt, SudokulabError) as stop:  # the header promised args.number
        if args.format != "json":  # a JSON Lines file holds records only, and no header
            out.write(cut_short(written, args.number, stop))
            out.flush()
        raise
    finally:  # a ProofError goes on to `main`: one line, exit code 4
        puzzles.close()  # its workers end now, not when the interpreter collects it
        if progress:
            progress.finish()
        if out is not sys.stdout:
            out.close()
    return Exit.OK


def _opened(path: str) -> TextIO:
    """The --out file, opened for writing; UsageError naming it when it cannot be."""
    try:
        return open(path, "w", encoding="utf-8")  # noqa: SIM115 (run closes it)
    except OSError as error:
        raise UsageError(f"--out {path}: cannot write it: {error.strerror or error}") from None


def cut_short(written: int, asked: int, stop: BaseException) -> str:
    """The last comment line of output that holds fewer puzzles than its header says."""
    from sudokulab.errors import stopped_by

    why = stopped_by() if isinstance(stop, KeyboardInterrupt) else str(stop)
    return f"# cut short: {written} of the {asked} puzzle(s) written; {why}\n"


def header(args: argparse.Namespace, rules: list[str]) -> str:
    """The provenance lines: version, command, options, seeds, engines ('#': readers skip
    them)."""
    from sudokulab import __version__

    rows, cols = box_shape(args.box)
    n = rows * cols
    named = ", ".join(rules) or "classic"
    lines = [
        f"sudokulab {__version__} generate {command(args)}",
        f"{args.number} puzzle(s) {n}x{n} (box {rows}x{cols}), rules {named}, symmetry "
        f"{args.symmetry}{', minimal' if args.minimal else ''}"
        + (f", {args.givens} givens" if args.givens is not None else "")
        + (f", at most {args.max_givens} givens" if args.max_givens is not None else "")
        + (f", level {args.level}" if args.level else "")
        + (f", rating {args.rating[0]}..{args.rating[1]}" if args.rating else ""),
        f"seed {args.seed}: puzzle k (from 0) is the first of seed {args.seed} + k",
        f"unique: proved by sat (PySAT CaDiCaL, the working engine) and again by "
        f"{'norvig or asp' if args.prover == 'auto' else args.prover} (each JSON record "
        f"names its provers); solutions checked by sudokulab.check",
    ]
    from sudokulab.puzzle import box_shape as squarest

    simple = [name for name in rules if name.lower() not in LINE_SAFE]
    needs = ([f"--box {rows}x{cols}"] if (rows, cols) != squarest(n) else []) + \
        ([f"--rules {','.join(simple)}"] if simple else [])
    if needs and args.format != "json":
        lines.append(f"this format drops the box shape and rules: solve and grade read it "
                     f"with {' '.join(needs)}; --format json keeps them for every reader")
    return "".join(f"# {line}\n" for line in lines)


def command(args: argparse.Namespace) -> str:
    """The options that decide the puzzles, as a command line that makes them again."""
    words = [f"--number {args.number}", f"--seed {args.seed}", f"--box {args.box}"]
    words += [f"--rules {text}" for text in args.rules]
    words += [f"--rule {name}" for name in args.rule]
    words.append(f"--symmetry {args.symmetry}")
    words += ["--minimal"] * args.minimal + ["--grade"] * args.grade
    for option in ("givens", "max_givens", "level"):
        if getattr(args, option) is not None:
            words.append(f"--{option.replace('_', '-')} {getattr(args, option)}")
    if args.rating:
        words.append(f"--rating {args.rating[0]}..{args.rating[1]}")
    words += [f"--prover {args.prover}", f"--tries {args.tries}", f"--format {args.format}"]
    return " ".join(words)


def render(made, fmt: str, number: int) -> str:
    """One puzzle in the output format."""
    from sudokulab.formats.text import format_grid, format_line

    if fmt == "json":
        return json.dumps(made.to_json()) + "\n"
    if fmt == "pretty":
        about = f"# puzzle {number}: seed {made.seed}, {made.clues} givens" + \
            (f", {made.level} {made.score} {made.rating}" if made.level else "")
        return f"{about}\n{format_grid(made.puzzle)}\n\n"
    return format_line(made.puzzle) + "\n"
