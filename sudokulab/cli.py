"""The `sudokulab` command: solve, compare, list backends and datasets, export models.

Exit codes (also in README and `sudokulab --help`):
  0  solved (every puzzle has an answer with a solution)
  1  no solution (at least one puzzle has none)
  2  bad input (puzzle, file, option or backend name)
  3  timeout (at least one puzzle ran out of time)
  4  disagreement (compare: backends disagree, or a grid fails the checker)
  5  engine failure (backend unavailable, unsupported rule, or an engine error)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from sudokulab import __version__
from sudokulab import rules as R
from sudokulab.puzzle import (
    Puzzle,
    PuzzleError,
    format_candidates,
    format_grid,
    format_line,
    format_numbers,
    format_rules,
    parse,
    parse_many,
    read_puzzles,
    to_json,
)
from sudokulab.result import Result, Status

EXIT_OK, EXIT_NONE, EXIT_INPUT, EXIT_TIMEOUT, EXIT_DISAGREE, EXIT_ENGINE = 0, 1, 2, 3, 4, 5
EXIT_CODES = """exit codes:
  0  solved            1  no solution        2  bad input
  3  timeout           4  backends disagree or a grid fails the checker (compare)
  5  engine failure (backend unavailable, rule unsupported, engine error)"""


class UsageError(Exception):
    """Bad command-line input that is not a puzzle: exit code 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (PuzzleError, UsageError) as error:
        print(f"sudokulab: error: {error}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("sudokulab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="sudokulab", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Solve Sudoku with independent paradigms (propagation and search, SAT, "
                    "SMT, CLP(FD)), check their answers against each other, compare them.",
        epilog=EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"sudokulab {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    _solve_parser(commands)
    _compare_parser(commands)
    add = commands.add_parser
    backends = add("backends", help="list the backends, whether each can run here, and why not")
    backends.set_defaults(run=run_backends)
    datasets = add("datasets", help="list the bundled puzzle sets")
    datasets.set_defaults(run=run_datasets)
    _show_parser(commands)
    _export_parser(commands)
    _model_parser(commands)
    return parser


def _input_arguments(parser: argparse.ArgumentParser) -> None:
    """PUZZLE | - | --file F, and the box shape."""
    parser.add_argument("puzzle", nargs="?", metavar="PUZZLE",
                        help="a puzzle: a line of N*N symbols ('.', '0', '_', '-' or '*' for "
                             "blanks), a grid, numbers separated by commas, or JSON; "
                             "'-' reads standard input")
    parser.add_argument("--file", "-f", metavar="F",
                        help="read puzzles from a file (one per line, or grids; .gz works)")
    parser.add_argument("--box", metavar="RxC",
                        help="box shape when it is not the squarest one (e.g. 3x2)")
    rules = parser.add_argument_group("variant rules (added to every puzzle read)")
    rules.add_argument("--rules", metavar="LIST", action="append", default=[],
                       help="comma list of: diagonal, anti-knight, anti-king, "
                            "non-consecutive, windoku, miracle (= anti-knight, anti-king, "
                            "non-consecutive)")
    rules.add_argument("--rule", metavar="NAME", action="append", default=[],
                       help="one rule by name (repeatable)")
    rules.add_argument("--cage", metavar="CELLS=SUM", action="append", default=[],
                       help="a killer cage, e.g. 'r1c1,r1c2=10' (repeatable)")
    rules.add_argument("--even", metavar="CELLS", action="append", default=[],
                       help="cells that hold even digits, e.g. r1c1,r5c5")
    rules.add_argument("--odd", metavar="CELLS", action="append", default=[],
                       help="cells that hold odd digits")
    rules.add_argument("--regions", metavar="LAYOUT",
                       help="jigsaw: N*N region labels row by row, e.g. 'AAABBB...'")


def _solve_parser(commands) -> None:
    """The `solve` subcommand."""
    p = commands.add_parser(
        "solve", help="solve puzzles with one backend",
        description="Solve one puzzle or a file of puzzles with one backend.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _input_arguments(p)
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME",
                   help="backend, optionally with options: norvig, sat, "
                        "sat:solver=glucose4, smt:model=int, prolog ... (default: norvig)")
    p.add_argument("--limit", "-k", type=_positive_int, default=2, metavar="K",
                   help="stop after K solutions (default 2: proves uniqueness; 1: first only)")
    p.add_argument("--count", action="store_true",
                   help="count every solution (no limit)")
    p.add_argument("--format", choices=("pretty", "line", "json"), default="pretty",
                   help="output format (default: pretty)")
    p.add_argument("--timeout", "-t", type=_positive_float, metavar="S",
                   help="give up on a puzzle after S seconds")
    p.add_argument("--stats", action="store_true", help="show the engine's statistics")
    p.set_defaults(run=run_solve)


def _compare_parser(commands) -> None:
    """The `compare` subcommand, whose options belong to the harness."""
    from sudokulab.harness import compare

    p = commands.add_parser(
        "compare", help="run backends over a dataset, cross-check them, compare timings",
        description="Run every backend (or those named) over a dataset, validate each answer "
                    "with the independent checker, cross-check the backends and compare times.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    compare.add_arguments(p)
    p.set_defaults(run=compare.main)


def _show_parser(commands) -> None:
    """The `show` subcommand: parse and print a puzzle in another form."""
    p = commands.add_parser("show", help="print a puzzle in another format, or its candidates")
    _input_arguments(p)
    p.add_argument("--format", choices=("pretty", "line", "numbers", "json", "candidates"),
                   default="pretty",
                   help="candidates: each blank's digits not ruled out by the givens")
    p.set_defaults(run=run_show)


def _export_parser(commands) -> None:
    """The `export` subcommand: a solver-neutral model file."""
    p = commands.add_parser(
        "export", help="write the puzzle as DIMACS CNF or SMT-LIB 2 for external solvers")
    _input_arguments(p)
    p.add_argument("--to", choices=("dimacs", "smt2"), required=True, help="output format")
    p.add_argument("--encoding", default="extended",
                   help="CNF encoding (dimacs): minimal, efficient, extended, optimized")
    p.add_argument("--amo", default="pairwise",
                   help="at-most-one encoding (dimacs): pairwise, seqcounter, ladder, ...")
    p.add_argument("--model", default="bool", help="SMT model (smt2): int, bool, bitvec")
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    p.set_defaults(run=run_export)


def _model_parser(commands) -> None:
    """The `model` subcommand: the teaching view of what a backend builds."""
    p = commands.add_parser("model", help="show what a backend builds for each rule")
    _input_arguments(p)
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME")
    p.set_defaults(run=run_model)


def _positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _positive_float(text: str) -> float:
    """argparse type: a number > 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value


# --- reading puzzles -------------------------------------------------------------------

def read_input(args: argparse.Namespace) -> list[Puzzle]:
    """The puzzles named by PUZZLE, '-' or --file."""
    box = _box(args.box)
    rules = rules_from_args(args)
    if args.file and args.puzzle:
        raise UsageError("give a PUZZLE or --file, not both")
    if args.file:
        puzzles = read_puzzles(args.file, box, rules)
    elif args.puzzle == "-":
        puzzles = parse_many(sys.stdin.read(), "<stdin>", box, rules)
    elif args.puzzle:
        puzzles = [_parse_argument(args.puzzle, box, rules)]
    else:
        raise UsageError("no puzzle: give PUZZLE, '-' for standard input, or --file F")
    if not puzzles:
        raise UsageError("no puzzle found in the input")
    return puzzles


def rules_from_args(args: argparse.Namespace) -> tuple[R.Rule, ...]:
    """The variant rules named by --rules, --rule, --cage, --even, --odd, --regions."""
    try:
        rules = [rule for text in args.rules for name in text.split(",") if name.strip()
                 for rule in R.named(name)]
        rules += [rule for name in args.rule for rule in R.named(name)]
        rules += [R.parse_cage(text) for text in args.cage]
        rules += [R.Parity(R.parse_cells(text), True) for text in args.even]
        rules += [R.Parity(R.parse_cells(text), False) for text in args.odd]
        if args.regions:
            rules.append(R.parse_regions(args.regions))
    except ValueError as error:
        raise UsageError(str(error)) from None
    return tuple(dict.fromkeys(rules))  # a rule named twice counts once


def _parse_argument(text: str, box: tuple[int, int] | None,
                    rules: tuple[R.Rule, ...]) -> Puzzle:
    """A puzzle given on the command line, with a hint when it looks like a file name."""
    try:
        return parse(text, box=box, rules=rules)
    except PuzzleError as error:
        from pathlib import Path

        if Path(text).exists():
            raise PuzzleError(f"{error} (to read the file {text!r}, use --file)") from None
        raise


def _box(text: str | None) -> tuple[int, int] | None:
    """(rows, cols) from '3x2'."""
    if text is None:
        return None
    rows, sep, cols = text.lower().partition("x")
    if not (sep and rows.isdigit() and cols.isdigit()):
        raise UsageError(f"--box {text!r}: expected rows x cols, like 2x3")
    return int(rows), int(cols)


# --- commands --------------------------------------------------------------------------

def run_solve(args: argparse.Namespace) -> int:
    """Solve each puzzle with one backend and print the answers."""
    from sudokulab.backends import BackendError, make_backend

    puzzles = read_input(args)
    try:
        backend = make_backend(args.backend)
    except BackendError as error:
        raise UsageError(str(error)) from None
    availability = backend.available()
    if not availability.ok:
        print(f"sudokulab: backend {backend.name} is not available: {availability.reason}"
              f"{'; ' + availability.fix if availability.fix else ''}", file=sys.stderr)
        return EXIT_ENGINE
    limit = None if args.count else args.limit
    codes = []
    for number, puzzle in enumerate(puzzles, 1):
        result = backend.solve(puzzle, limit=limit, timeout=args.timeout)
        print(render(puzzle, result, backend.label, args.format, args.stats,
                     number if len(puzzles) > 1 else 0), flush=True)
        codes.append(exit_code(result))
    return max(codes, key=[EXIT_OK, EXIT_NONE, EXIT_TIMEOUT, EXIT_ENGINE].index)


def exit_code(result: Result) -> int:
    """The exit code that a result stands for."""
    return {Status.NONE: EXIT_NONE, Status.TIMEOUT: EXIT_TIMEOUT, Status.ERROR: EXIT_ENGINE,
            Status.UNSUPPORTED: EXIT_ENGINE}.get(result.status, EXIT_OK)


HEADLINES = {
    Status.UNIQUE: "unique solution", Status.MULTIPLE: "several solutions",
    Status.SOLVED: "solved (uniqueness not checked)", Status.NONE: "no solution",
    Status.TIMEOUT: "timeout", Status.UNSUPPORTED: "unsupported", Status.ERROR: "error",
}


def render(puzzle: Puzzle, result: Result, label: str, fmt: str, stats: bool,
           number: int = 0) -> str:
    """One puzzle's answer in the chosen format."""
    if fmt == "json":
        return json.dumps({"puzzle": format_line(puzzle), "backend": label, **result.to_json()})
    grids = [puzzle.with_values(s) for s in result.solutions]
    if fmt == "line":
        return "\n".join(format_line(g) for g in grids) or result.status.value
    head = (f"{f'#{number} ' if number else ''}{HEADLINES[result.status]}: "
            f"{result.count_text} solution(s) [{label}, {result.time * 1000:.1f} ms]")
    parts = [head + (f" {result.message}" if result.message else "")]
    if puzzle.rules:
        parts.append(format_rules(puzzle))
    if stats and result.stats:
        parts.append("  " + ", ".join(f"{k}={v}" for k, v in result.stats.items()))
    parts += [format_grid(g) + "\n" for g in grids]
    return "\n".join(parts)


def run_backends(args: argparse.Namespace) -> int:
    """Print each backend, whether it can run here, its engine's version, or why not."""
    from tabulate import tabulate

    from sudokulab.backends import backend_class, names

    rows = []
    for name in names():
        cls = backend_class(name)
        try:
            a = cls.available()
        except Exception as error:  # a broken install must not hide the other backends
            rows.append((name, "no", "", f"{type(error).__name__}: {error}"))
            continue
        note = a.reason + (f" (fix: {a.fix})" if a.fix else "")
        rows.append((name, "yes" if a.ok else "no", a.version, note or cls.paradigm))
    print(tabulate(rows, headers=("backend", "available", "engine", "paradigm / notes")))
    return EXIT_OK


def run_datasets(args: argparse.Namespace) -> int:
    """Print the bundled datasets with their counts."""
    from sudokulab.harness import datasets

    print(datasets.describe())
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    """Print each puzzle in the chosen format."""
    for puzzle in read_input(args):
        print(_show(puzzle, args.format))
    return EXIT_OK


def _show(puzzle: Puzzle, fmt: str) -> str:
    """One puzzle in a format."""
    if fmt == "candidates":
        from sudokulab.geometry import geometry

        peers = geometry(puzzle.box, puzzle.rules).peers
        digits = range(1, puzzle.size + 1)
        marks = [[d] if d else [c for c in digits if c not in {puzzle.givens[p] for p in
                                                               peers[cell]}]
                 for cell, d in enumerate(puzzle.givens)]
        return format_candidates(puzzle, marks)
    if fmt == "pretty" and puzzle.rules:
        return f"{format_rules(puzzle)}\n{format_grid(puzzle)}"
    writers = {"pretty": format_grid, "line": format_line, "numbers": format_numbers,
               "json": to_json}
    return writers[fmt](puzzle)


def run_export(args: argparse.Namespace) -> int:
    """Write the DIMACS CNF or SMT-LIB 2 model of one puzzle."""
    puzzles = read_input(args)
    if len(puzzles) != 1:
        raise UsageError(f"export takes one puzzle, the input has {len(puzzles)}")
    try:
        text = _exported(puzzles[0], args)
    except ValueError as error:  # a rule the encoding or model cannot express
        raise UsageError(str(error)) from None
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror}") from None
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _exported(puzzle: Puzzle, args: argparse.Namespace) -> str:
    """The DIMACS or SMT-LIB 2 text the options ask for."""
    if args.to == "dimacs":
        from sudokulab.encodings import cnf

        _choice("--encoding", args.encoding, cnf.ENCODINGS)
        _choice("--amo", args.amo, cnf.AMO_ENCODINGS)
        return cnf.to_dimacs(puzzle, encoding=args.encoding, amo=args.amo)
    from sudokulab.encodings import smt

    _choice("--model", args.model, smt.MODELS)
    return smt.to_smt2(puzzle, model=args.model)


def _choice(option: str, value: str, allowed: Sequence[str]) -> None:
    """UsageError unless value is one of allowed."""
    if value not in allowed:
        raise UsageError(f"{option} {value!r}: choose one of {', '.join(allowed)}")


def run_model(args: argparse.Namespace) -> int:
    """Print what a backend builds for each rule of each puzzle."""
    from sudokulab.backends import BackendError, make_backend

    try:
        backend = make_backend(args.backend)
    except BackendError as error:
        raise UsageError(str(error)) from None
    for puzzle in read_input(args):
        print(backend.unsupported(puzzle) or backend.describe(puzzle))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
