"""The `sudokulab` command: solve, compare, list backends and datasets, export models.

Exit codes: see sudokulab/errors.py (also in README and `sudokulab --help`).

Start-up is part of the product: a user who scripts `sudokulab solve` over many puzzles
pays it on every call. So this module imports nothing heavy at the top, each command
imports what it uses, and only the options of the command being run are built.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from sudokulab import __version__
from sudokulab.errors import (
    EXIT_CODES,
    EXIT_DISAGREE,
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NONE,
    EXIT_OK,
    EXIT_TIMEOUT,
    InputError,
    PuzzleError,
    UsageError,
    count_int,
    error_line,
    port_number,
    positive_int,
    timeout_seconds,
    worst,
)

__all__ = ["EXIT_DISAGREE", "EXIT_ENGINE", "EXIT_INPUT", "EXIT_NONE", "EXIT_OK",
           "EXIT_TIMEOUT", "PuzzleError", "UsageError", "build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser(_command(argv)).parse_args(argv)
        code = args.run(args)
        sys.stdout.flush()
        return code
    except InputError as error:  # one line, whatever line breaks the input put in it
        print(error_line(error), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("sudokulab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (| head): not an error of ours
        _detach_stdout()
        return EXIT_OK
    except OSError as error:  # the output cannot be written (a full disk, say)
        _detach_stdout()
        print(f"sudokulab: error: cannot write the output: {error.strerror or error}",
              file=sys.stderr)
        return EXIT_INPUT


def _detach_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named in argv (the first word that is not an option), if any."""
    return next((word for word in argv if not word.startswith("-")), None)


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (and a --help hint) instead of a usage block."""

    def error(self, message: str):
        """Bad options: raise UsageError, which `main` prints as one line with exit 2."""
        raise UsageError(f"{message} (see: {self.prog} --help)")


def build_parser(command: str | None = "") -> argparse.ArgumentParser:
    """The argument parser with every subcommand.

    `command` names the one subcommand about to run: only its options are built (argparse
    makes a help formatter for every option it adds), so a command never pays for another's
    options or modules (compare's harness, say). The default "" builds them all.
    """
    parser = Parser(
        prog="sudokulab", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Solve Sudoku with independent paradigms (propagation and search, SAT, "
                    "SMT, CLP(FD)), check their answers against each other, compare them.",
        epilog=EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"sudokulab {__version__}")
    # prog given: argparse would otherwise build a help formatter (and import shutil) now.
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND",
                                     parser_class=Parser, prog="sudokulab")
    for name, (summary, options) in COMMANDS.items():
        full = command in ("", name)
        sub = commands.add_parser(name, help=summary, add_help=full, epilog=EXIT_CODES,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        if full:
            options(sub)
    return parser


def _input_arguments(parser: argparse.ArgumentParser) -> None:
    """PUZZLE | - | --file F, and the box shape."""
    parser.add_argument("puzzle", nargs="?", metavar="PUZZLE",
                        help="a puzzle: a line of N*N symbols ('.', '0', '_', '-' or '*' for "
                             "blanks), a grid, numbers separated by commas, JSON, or an "
                             "f-puzzles or SudokuPad link; '-' reads standard input")
    parser.add_argument("--file", "-f", metavar="F",
                        help="read puzzles from a file (one per line, grids, JSON Lines, a "
                             "JSON array, .sdk/.sdm/.ss, Project Euler, HoDoKu, forum lines, "
                             "links; .gz works)")
    parser.add_argument("--input-format", default="auto", metavar="FMT",
                        choices=INPUT_FORMATS,
                        help=f"how to read the input: {', '.join(INPUT_FORMATS)} "
                             f"(default auto: detected line by line)")
    parser.add_argument("--strict", action="store_true",
                        help="stop at the first bad puzzle of a file (by default each is "
                             "reported with its file and line and skipped; exit code 2)")
    parser.add_argument("--box", metavar="RxC",
                        help="box shape when it is not the squarest one (e.g. 3x2)")
    rules = parser.add_argument_group("variant rules (added to every puzzle read)")
    rules.add_argument("--rules", metavar="LIST", action="append", default=[],
                       help="comma list of: diagonal, anti-knight, anti-king, "
                            "non-consecutive, windoku, main-diagonal, anti-diagonal, "
                            "disjoint-groups, miracle (= anti-knight, anti-king, "
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
    rules.add_argument("--line", metavar="KIND:CELLS", action="append", default=[],
                       help="thermometer, arrow, renban, whispers, palindrome, "
                            "cage-without-sum or extra-region along cells, e.g. "
                            "'thermometer:r1c1,r1c2,r1c3' (bulb or circle first; repeatable)")
    rules.add_argument("--little-killer", metavar="CELLS=SUM", action="append", default=[],
                       help="a diagonal sum, e.g. 'r1c2,r2c3,r3c4=15' (repeatable)")
    rules.add_argument("--kropki", metavar="MARKS",
                       help="dots: 'w:r1c1-r1c2,b:r2c1-r2c2' (white consecutive, black ratio "
                            "2); add ',negative' when no dot means neither")
    rules.add_argument("--sandwich", metavar="LINE=SUM", action="append", default=[],
                       help="digits between the 1 and the N of a row or column add up to "
                            "SUM, e.g. 'r3=10' or 'c5=0' (repeatable)")
    rules.add_argument("--consecutive", metavar="PAIRS",
                       help="consecutive marks 'r1c1-r1c2,r3c3-r4c3'; every other pair of "
                            "orthogonal neighbours is not consecutive")
    rules.add_argument("--xv", metavar="MARKS",
                       help="marks: 'x:r1c1-r1c2,v:r2c1-r2c2' (sum 10, sum 5); add "
                            "',negative' when no mark means neither")


INPUT_FORMATS = ("auto", "lines", "jsonl", "json", "sdk", "sdm", "ss", "euler", "hodoku",
                 "forum", "link")  # sudokulab.formats.files.READERS (not imported here)
SHOW_FORMATS = ("pretty", "line", "numbers", "json", "candidates", "jsonl", "sdk", "sdm", "ss",
                "euler", "hodoku", "fpuzzles", "sudokupad")

SOLVE_FORMATS = """output formats:
  pretty  a headline and each grid found, with box lines (the default)
  line    one line per puzzle: the solution when there is exactly one known (unique, or
          solved with --limit 1), the count with --count, otherwise the status word
          (none, multiple, timeout, unsupported, error, invalid, bad-input)
  tsv     one line per puzzle after a header: number, status, count, milliseconds,
          the grids printed (comma-separated lines), message
  json    one JSON object per line (JSON Lines): puzzle, box, rules, backend, status,
          count, exact, solutions, stats, times, message
  fpuzzles, sudokupad
          one link per puzzle that opens it in the browser, its solution inside when
          exactly one is known; otherwise the status word, as in line
A bad puzzle in a file is reported on stderr with its file and line and skipped (status
bad-input in line, tsv and json); --strict stops there instead. Exit code 2 then."""


def _solve_options(p: argparse.ArgumentParser) -> None:
    """The `solve` subcommand."""
    p.description = ("Solve one puzzle or a file of puzzles with one backend. Every grid a "
                     "backend returns is checked by the independent checker before it is "
                     "printed.")
    p.epilog = f"{SOLVE_FORMATS}\n\n{EXIT_CODES}"
    _input_arguments(p)
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME",
                   help="backend, optionally with options: norvig, sat, "
                        "sat:solver=glucose4, smt:model=int, prolog ... (default: norvig)")
    p.add_argument("--limit", "-k", type=positive_int, default=2, metavar="K",
                   help="stop after K solutions (default 2: proves uniqueness; 1: first only)")
    p.add_argument("--count", action="store_true",
                   help="count every solution; prints the count, not the grids (see --grids)")
    p.add_argument("--grids", type=count_int, default=0, metavar="K",
                   help="with --count, also print the first K grids found (default 0)")
    p.add_argument("--format", choices=("pretty", "line", "tsv", "json", "fpuzzles", "sudokupad"),
                   default="pretty",
                   help="output format (default: pretty; see below)")
    p.add_argument("--timeout", "-t", type=timeout_seconds, metavar="S",
                   help="give up on a puzzle after S seconds (0 or inf: never); the backend "
                        "then runs in a worker process that is stopped at the deadline")
    p.add_argument("--stats", action="store_true", help="show the engine's statistics")
    p.set_defaults(run=run_solve, multi_grid=True)


def _compare_options(p: argparse.ArgumentParser) -> None:
    """The `compare` subcommand, whose options belong to the harness."""
    from sudokulab.harness import compare

    p.description = ("Run every backend (or those named) over a dataset, validate each answer "
                     "with the independent checker, cross-check the backends and compare "
                     "times.")
    compare.add_arguments(p)
    p.set_defaults(run=compare.main)


def _show_options(p: argparse.ArgumentParser) -> None:
    """The `show` subcommand: parse and print a puzzle in another form."""
    _input_arguments(p)
    p.add_argument("--format", choices=SHOW_FORMATS, default="pretty", metavar="FMT",
                   help="candidates: each blank's digits not ruled out by the givens and the "
                        "rules (units, chess moves, non-consecutive, parity, cage sums); "
                        "also " + ", ".join(SHOW_FORMATS) + " (json and jsonl: one object "
                        "a line; fpuzzles, sudokupad: a link; euler: Project Euler 96's form)")
    p.set_defaults(run=run_show, multi_grid=True)


def _export_options(p: argparse.ArgumentParser) -> None:
    """The `export` subcommand: a solver-neutral model file."""
    _input_arguments(p)
    p.add_argument("--to", choices=("dimacs", "smt2", "lp", "fpuzzles", "sudokupad"),
                   required=True,
                   help="output format: a model (dimacs, smt2; lp: an answer set program "
                        "for clingo) or a link that opens the puzzle in the browser "
                        "(fpuzzles, sudokupad)")
    p.add_argument("--encoding", default="extended",
                   help="CNF encoding (dimacs): minimal, efficient, extended, optimized")
    p.add_argument("--amo", default="pairwise",
                   help="at-most-one encoding (dimacs): pairwise, seqcounter, ladder, ...")
    p.add_argument("--model", default="bool", help="SMT model (smt2): int, bool, bitvec")
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    p.set_defaults(run=run_export, multi_grid=True)


def _model_options(p: argparse.ArgumentParser) -> None:
    """The `model` subcommand: the teaching view of what a backend builds."""
    _input_arguments(p)
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME")
    p.set_defaults(run=run_model, multi_grid=True)


def _serve_options(p: argparse.ArgumentParser) -> None:
    """The `serve` subcommand: the local web app."""
    p.description = ("Serve the web page and its JSON API (/api, documented at /docs). "
                     "Solves run in worker processes with a timeout.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    p.set_defaults(run=run_serve)


def _backends_options(p: argparse.ArgumentParser) -> None:
    """The `backends` subcommand takes no options."""
    p.set_defaults(run=run_backends)


def _datasets_options(p: argparse.ArgumentParser) -> None:
    """The `datasets` subcommand takes no options."""
    p.set_defaults(run=run_datasets)


def _read_options(p: argparse.ArgumentParser) -> None:
    """The `read` subcommand: a puzzle from a photo (its code is in sudokulab/vision)."""
    p.description = ("Read a puzzle from a photo or screenshot: find the grid, straighten it, "
                     "read each cell. A solver engine then checks the puzzle read: one with "
                     "no solution or several is reported with the cells likely misread.")
    p.add_argument("image", metavar="IMAGE", help="a photo or screenshot (PNG, JPEG, ...)")
    p.add_argument("--format", choices=("grid", "line", "json"), default="grid",
                   help="grid (default), line, or json with a confidence per cell")
    p.add_argument("--size", type=positive_int, metavar="N",
                   help="the grid's size when it should not be guessed: 4, 6, 9 or 16")
    p.add_argument("--box", metavar="RxC", help="box shape when not the squarest (e.g. 3x2)")
    p.add_argument("--solve", action="store_true", help="print the solution too")
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME",
                   help="the engine that checks (and with --solve solves) the puzzle read")
    p.add_argument("--overlay", metavar="FILE",
                   help="with --solve: write the photo with the solution in its blank cells")
    p.add_argument("--debug", metavar="DIR",
                   help="write the intermediate images (threshold, contour, warped grid, "
                        "lines, cells) into DIR")
    p.set_defaults(run=run_read)


def run_read(args: argparse.Namespace) -> int:
    """Read a puzzle from a photo (OpenCV is imported only now)."""
    box, backend = _box(args.box), _backend(args.backend)
    from sudokulab.vision import command

    return command.run(args, box, backend)


def _explain_options(p: argparse.ArgumentParser) -> None:
    """The `explain` subcommand (sudokulab.human.commands)."""
    from sudokulab.human import commands

    commands.explain_options(p)


def _hint_options(p: argparse.ArgumentParser) -> None:
    """The `hint` subcommand (sudokulab.human.commands)."""
    from sudokulab.human import commands

    commands.hint_options(p)


def _grade_options(p: argparse.ArgumentParser) -> None:
    """The `grade` subcommand (sudokulab.human.commands)."""
    from sudokulab.human import commands

    commands.grade_options(p)


def _generate_options(p: argparse.ArgumentParser) -> None:
    """The `generate` subcommand (sudokulab.generate.command)."""
    from sudokulab.generate import command

    command.options(p)


# Each command: its one-line summary, and the function that adds its options.
COMMANDS = {
    "solve": ("solve puzzles with one backend", _solve_options),
    "compare": ("run backends over a dataset, cross-check them, compare timings",
                _compare_options),
    "backends": ("list the backends, whether each can run here, and why not",
                 _backends_options),
    "datasets": ("list the bundled puzzle sets", _datasets_options),
    "show": ("print a puzzle in another format, or its candidates", _show_options),
    "export": ("write the puzzle as DIMACS CNF, SMT-LIB 2 or an ASP program for external "
               "solvers",
               _export_options),
    "model": ("show what a backend builds for each rule", _model_options),
    "read": ("read a puzzle from a photo or screenshot", _read_options),
    "explain": ("the numbered human-style steps that solve a puzzle", _explain_options),
    "hint": ("the easiest next human-style step", _hint_options),
    "grade": ("grade puzzles as HoDoKu and Sudoku Explainer would", _grade_options),
    "generate": ("make new puzzles: unique, minimal, symmetric, of a chosen level",
                 _generate_options),
    "serve": ("the web page: play, solve and compare in the browser", _serve_options),
}


# --- option values ---------------------------------------------------------------------

# --- reading puzzles -------------------------------------------------------------------

def read_input(args: argparse.Namespace) -> list:
    """The puzzles named by PUZZLE, '-' or --file; PuzzleError at the first bad one."""
    entries = read_entries(args)
    for entry in entries:
        if entry.puzzle is None:
            raise PuzzleError(entry.error)
    return [entry.puzzle for entry in entries]


def read_entries(args: argparse.Namespace) -> list:
    """Entries (a puzzle, or a bad one's error with file and line) of PUZZLE, '-' or --file.

    A single PUZZLE argument that is not a puzzle raises PuzzleError at once.
    """
    box = _box(args.box)
    rules = rules_from_args(args)
    fmt = getattr(args, "input_format", "auto")
    if args.file and args.puzzle:
        raise UsageError("give a PUZZLE or --file, not both")
    if args.puzzle and args.puzzle != "-":  # one puzzle: no file reader to import
        from types import SimpleNamespace

        puzzle = _parse_argument(args.puzzle, box, rules, fmt)
        return single_grids(args, [SimpleNamespace(source="<argument>", line=1, puzzle=puzzle,
                                                   error="", where="<argument>:1")])
    from sudokulab.formats import files

    if args.file:
        entries = files.read_file(args.file, box, rules, fmt)
    elif args.puzzle == "-":
        entries = files.read_text(sys.stdin.read(), "<stdin>", box, rules, fmt)
    else:
        raise UsageError("no puzzle: give PUZZLE, '-' for standard input, or --file F")
    if not entries:
        raise UsageError("no puzzle found in the input")
    return single_grids(args, entries)


def single_grids(args: argparse.Namespace, entries: list) -> list:
    """The entries, unless a command that takes one N x N grid met a samurai: PuzzleError."""
    if not getattr(args, "multi_grid", False):
        for entry in entries:
            if entry.puzzle is not None and entry.puzzle.layout is not None:
                raise PuzzleError(f"{entry.where}: a {entry.puzzle.layout.name} has several "
                                  f"grids; solve, show, model and export take it, this command "
                                  f"takes one N x N grid")
    return entries


def rules_from_args(args: argparse.Namespace) -> tuple:
    """The variant rules named by --rules, --rule, --cage, --even, --odd, --regions."""
    from sudokulab import rules as R

    try:
        rules = [rule for text in args.rules for name in text.split(",") if name.strip()
                 for rule in R.named(name)]
        rules += [rule for name in args.rule for rule in R.named(name)]
        rules += [R.parse_cage(text) for text in args.cage]
        rules += [R.Parity(R.parse_cells(text), True) for text in args.even]
        rules += [R.Parity(R.parse_cells(text), False) for text in args.odd]
        if args.regions:
            rules.append(R.parse_regions(args.regions))
        rules += [R.parse_line(text) for text in args.line]
        rules += [R.parse_little_killer(text) for text in args.little_killer]
        rules += [R.parse_marks(kind, text) for kind, text in
                  (("kropki", args.kropki), ("xv", args.xv)) if text]
        if args.consecutive:
            rules.append(R.parse_pairs(args.consecutive))
        rules += [R.parse_sandwich(text) for text in args.sandwich]
    except ValueError as error:
        raise UsageError(str(error)) from None
    return tuple(dict.fromkeys(rules))  # a rule named twice counts once


def _parse_argument(text: str, box: tuple[int, int] | None, rules: tuple, fmt: str = "auto"):
    """A puzzle given on the command line, with a hint when it looks like a file name."""
    from sudokulab.formats.text import parse

    try:
        if fmt not in ("auto", "lines"):
            from sudokulab.formats import files

            return files.puzzles(files.read_text(text, "<argument>", box, rules, fmt))[0]
        return parse(text, box=box, rules=rules)
    except PuzzleError as error:
        if _is_file(text):
            raise PuzzleError(f"{error} (to read the file {text!r}, use --file)") from None
        raise


def _is_file(text: str) -> bool:
    """Whether text names an existing file (False for text no file name can be)."""
    import os

    try:
        return os.path.isfile(text)
    except (OSError, ValueError):  # too long for a file name, or a NUL byte in it
        return False


def _box(text: str | None) -> tuple[int, int] | None:
    """(rows, cols) from '3x2'."""
    if text is None:
        return None
    rows, sep, cols = text.lower().partition("x")
    if not (sep and rows.isdigit() and cols.isdigit()):
        raise UsageError(f"--box {text!r}: expected rows x cols, like 2x3")
    return int(rows), int(cols)


def _backend(spec: str):
    """The backend a spec names; UsageError for an unknown name or option."""
    from sudokulab.backends import BackendError, make_backend

    try:
        return make_backend(spec)
    except BackendError as error:
        raise UsageError(str(error)) from None


# --- solve -----------------------------------------------------------------------------

def run_solve(args: argparse.Namespace) -> int:
    """Solve each puzzle with one backend, check every grid, print the answers."""
    entries = read_entries(args)
    backend = _backend(args.backend)
    availability = backend.available()
    if not availability.ok:
        print(f"sudokulab: backend {backend.name} is not available: {availability.reason}"
              f"{'; ' + availability.fix if availability.fix else ''}", file=sys.stderr)
        return EXIT_ENGINE
    out = Output(args, backend.label, numbered=len(entries) > 1)
    limit = None if args.count else args.limit
    if args.strict:  # stop at the first bad puzzle, after answering those before it
        first_bad = next((k for k, e in enumerate(entries) if e.puzzle is None), None)
        entries = entries if first_bad is None else entries[:first_bad + 1]
    if args.timeout:
        return worst(_isolated(backend.label, entries, limit, args.timeout, out))
    codes = []
    try:
        for number, entry in enumerate(entries, 1):
            if entry.puzzle is None:
                codes.append(out.bad(number, entry))
            else:
                codes.append(out.write(number, entry.puzzle,
                                       backend.solve(entry.puzzle, limit=limit)))
    except KeyboardInterrupt as interrupt:
        partial = getattr(interrupt, "result", None)  # what the engine found before Ctrl-C
        if partial is not None:
            out.write(len(codes) + 1, entries[len(codes)].puzzle, partial, interrupted=True)
        raise
    return worst(codes)


def _isolated(spec: str, entries: list, limit: int | None, timeout: float,
              out: Output) -> list[int]:
    """Solve in a worker process that is killed when it overruns; write answers in order."""
    from sudokulab.harness.runner import BackendFailed, Options, run_backend
    from sudokulab.result import Result, Status

    waiting: dict = {}
    codes: list[int] = []

    def deliver(index: int | None = None, result=None) -> None:
        """Keep each answer until every earlier one is written (bad puzzles in their turn)."""
        if index is not None:
            waiting[index] = result
        while len(codes) < len(entries):
            index = len(codes)
            entry = entries[index]
            if entry.puzzle is None:
                codes.append(out.bad(index + 1, entry))
            elif index in waiting:
                codes.append(out.write(index + 1, entry.puzzle, waiting.pop(index)))
            else:
                return

    options = Options(limit=limit, timeout=timeout, warmup=False)
    todo = [(k, e.puzzle) for k, e in enumerate(entries) if e.puzzle is not None]
    deliver()
    try:
        run_backend(spec, todo, options, jobs=1,
                    record=lambda record: deliver(record.index, record.result))
    except BackendFailed as error:
        failed = Result(Status.ERROR, message=f"the worker process failed: {error}")
        for index, _ in todo:
            if index >= len(codes) and index not in waiting:
                deliver(index, failed)
    return codes


HEADLINES = {
    "unique": "unique solution", "multiple": "several solutions",
    "solved": "solved (uniqueness not checked)", "none": "no solution", "timeout": "timeout",
    "unsupported": "unsupported", "error": "error",
    "stalled": "stalled (the techniques found no further step; the grid so far)",
    "interrupted": "interrupted (Ctrl-C), what was found so far",
}
CODES = {"none": EXIT_NONE, "timeout": EXIT_TIMEOUT, "error": EXIT_ENGINE,
         "unsupported": EXIT_ENGINE}


class Output:
    """Writes each puzzle's answer in the chosen format, after checking its grids."""

    def __init__(self, args: argparse.Namespace, label: str, numbered: bool) -> None:
        from sudokulab.check import check
        from sudokulab.puzzle import line_of

        self.check, self.line_of = check, line_of
        self.format, self.stats, self.label = args.format, args.stats, label
        self.counting, self.grids = args.count, args.grids
        self.numbered = numbered
        self.flushed = time.perf_counter()
        if self.format == "tsv":
            self.emit("puzzle\tstatus\tcount\tms\tgrids\tmessage")

    def write(self, number: int, puzzle, result, interrupted: bool = False) -> int:
        """Check and print one answer; its exit code."""
        check = self.check
        shown = result.solutions[:self.grids] if self.counting else result.solutions
        for grid in result.solutions:  # every grid the backend returned, shown or not
            problems = check(puzzle, grid)
            if problems:
                return self._invalid(number, puzzle, result, problems)
        status = "interrupted" if interrupted else result.status.value
        self.emit(self._render(number, puzzle, result, shown, status))
        return CODES.get(result.status.value, EXIT_OK)

    def bad(self, number: int, entry) -> int:
        """A puzzle of a file that is not one: say where and why, keep the numbering."""
        print(error_line(entry.error), file=sys.stderr)
        if self.format == "json":
            import json

            self.emit(json.dumps({"puzzle": None, "where": entry.where, "backend": self.label,
                                  "status": "bad-input", "message": entry.error}))
        elif self.format == "tsv":
            self.emit("\t".join((str(number), "bad-input", "", "", "",
                                 entry.error.replace("\t", " "))))
        elif self.format != "pretty":
            self.emit("bad-input")
        return EXIT_INPUT

    def _invalid(self, number: int, puzzle, result, problems) -> int:
        """A backend answered with a grid that breaks the rules: say so, exit 4."""
        why = f"{len(problems)} violation(s), first: {problems[0]}"
        print(f"sudokulab: error: puzzle {number}: {self.label} returned a grid that fails "
              f"the independent checker: {why}", file=sys.stderr)
        from sudokulab.result import Result, Status

        rejected = Result(Status.ERROR, message=f"invalid grid from {self.label}: {why}")
        self.emit(self._render(number, puzzle, rejected, (), "invalid"))
        return EXIT_DISAGREE

    def _render(self, number: int, puzzle, result, shown, status: str) -> str:
        """One answer in the chosen format."""
        line_of = self.line_of
        if self.format == "json":
            return self._json(puzzle, result, shown, status)
        if self.format == "tsv":
            return "\t".join((str(number), status, result.count_text,
                              f"{result.time * 1000:.3f}", ",".join(map(line_of, shown)),
                              result.message.replace("\t", " ").replace("\n", " ")))
        if self.format in ("line", "fpuzzles", "sudokupad"):
            if status in ("unique", "solved") and not self.counting:
                if self.format == "line":
                    return line_of(result.solutions[0])
                from sudokulab.formats import links

                if puzzle.layout is not None:
                    raise UsageError(f"a {self.format} link holds one N x N grid; a "
                                     f"{puzzle.layout.name} prints as pretty, line, tsv or json")
                link = links.fpuzzles_link if self.format == "fpuzzles" else links.sudokupad_link
                return link(puzzle, result.solutions[0])
            return result.count_text if self.counting and result.status.is_answer else status
        return self._pretty(number, puzzle, result, shown, status)

    def _json(self, puzzle, result, shown, status: str) -> str:
        """One JSON object: the puzzle with its rules, and the backend's answer."""
        import json

        from sudokulab import rules as R
        from sudokulab.puzzle import line_of

        data = {"puzzle": line_of(puzzle.givens), "box": list(puzzle.box),
                **({"layout": puzzle.layout.name} if puzzle.layout is not None else {}),
                "rules": [R.rule_to_json(rule) for rule in puzzle.rules],
                "backend": self.label, **result.to_json()}
        data["status"] = status
        data["solutions"] = [list(grid) for grid in shown]
        return json.dumps(data)

    def _pretty(self, number: int, puzzle, result, shown, status: str) -> str:
        """A headline, the rules, the statistics and each grid, boxed."""
        from sudokulab.formats.text import format_grid, format_rules

        headline = HEADLINES.get(status, status)
        head = (f"{f'#{number} ' if self.numbered else ''}{headline}: "
                f"{result.count_text} solution(s) [{self.label}, {result.time * 1000:.1f} ms]")
        parts = [head + (f" {result.message}" if result.message else "")]
        if puzzle.rules:
            parts.append(format_rules(puzzle))
        if self.stats and result.stats:
            parts.append("  " + ", ".join(f"{k}={v}" for k, v in result.stats.items()))
        parts += [format_grid(puzzle.with_values(grid)) + "\n" for grid in shown]
        if result.partial:
            parts.append(format_grid(puzzle.with_values(result.partial)) + "\n")
        if len(shown) < len(result.solutions):
            parts.append(f"({len(result.solutions) - len(shown)} more grid(s) not shown: "
                         f"--grids K prints K)")
        return "\n".join(parts)

    def emit(self, text: str) -> None:
        """Print, flushing at most ten times a second (so a long file streams cheaply)."""
        sys.stdout.write(text + "\n")
        now = time.perf_counter()
        if now - self.flushed > 0.1:
            sys.stdout.flush()
            self.flushed = now


# --- the other commands ----------------------------------------------------------------

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
    """Print each puzzle in the chosen format; a bad one of a file is reported and skipped."""
    entries = read_entries(args)
    puzzles = [entry.puzzle for entry in entries if entry.puzzle is not None]
    lossy = args.format not in ("pretty", "candidates", "json", "jsonl", "fpuzzles",
                                "sudokupad")
    dropped = sorted({rule.name for puzzle in puzzles for rule in puzzle.rules}) if lossy else []
    if dropped:
        print(f"sudokulab: note: the {args.format} form cannot hold rules; not shown: "
              f"{', '.join(dropped)} (--format json keeps them)", file=sys.stderr)
    code = EXIT_OK
    for number, entry in enumerate(entries, 1):
        if entry.puzzle is None:
            print(error_line(entry.error), file=sys.stderr)
            code = EXIT_INPUT
            if args.strict:
                break
            continue
        print(_show(entry.puzzle, args.format, number))
    return code


BOARD_FORMATS = ("pretty", "line", "json", "jsonl", "candidates")  # what draws several grids


def _show(puzzle, fmt: str, number: int = 1) -> str:
    """One puzzle in a format (its number heads a Project Euler grid)."""
    from sudokulab.formats import text

    if puzzle.layout is not None and fmt not in BOARD_FORMATS:
        raise PuzzleError(f"the {fmt} form holds one N x N grid; a {puzzle.layout.name} shows "
                          f"as {', '.join(BOARD_FORMATS)}")

    if fmt not in ("pretty", "line", "numbers", "json", "candidates"):
        from sudokulab.formats import files

        return files.write_one(puzzle, fmt, number)
    if fmt == "candidates":
        from sudokulab.geometry import pencil_marks

        marks = pencil_marks(puzzle)
        head = f"{text.format_rules(puzzle)}\n" if puzzle.rules else ""
        return head + text.format_candidates(puzzle, marks)
    if fmt == "pretty" and puzzle.rules:
        return f"{text.format_rules(puzzle)}\n{text.format_grid(puzzle)}"
    writers = {"pretty": text.format_grid, "line": text.format_line, "numbers": text.format_numbers,
               "json": text.to_json}
    return writers[fmt](puzzle)


def run_export(args: argparse.Namespace) -> int:
    """Write the DIMACS CNF, SMT-LIB 2 or ASP model of one puzzle."""
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


def _exported(puzzle, args: argparse.Namespace) -> str:
    """The DIMACS, SMT-LIB 2 or ASP text, or the link, the options ask for."""
    if puzzle.layout is not None and args.to != "dimacs":
        raise UsageError(f"export --to {args.to} takes one N x N grid; a "
                         f"{puzzle.layout.name} exports --to dimacs")
    if args.to == "lp":  # sudoku.lp and the puzzle's facts: clingo alone solves it
        from sudokulab import asp

        return asp.to_lp(puzzle)
    if args.to in ("fpuzzles", "sudokupad"):
        from sudokulab.formats import links

        link = links.fpuzzles_link if args.to == "fpuzzles" else links.sudokupad_link
        return link(puzzle) + "\n"
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
    """Print what a backend builds for each rule of each puzzle; 5 if it cannot."""
    backend = _backend(args.backend)
    codes = []
    for puzzle in read_input(args):
        reason = backend.unsupported(puzzle)
        print(reason or backend.describe(puzzle))
        codes.append(EXIT_ENGINE if reason else EXIT_OK)
    return worst(codes)


def run_serve(args: argparse.Namespace) -> int:
    """Serve the page and the API until Ctrl-C."""
    try:
        import uvicorn

        from sudokulab.web.app import create_app
    except ImportError as error:
        print(f"sudokulab: the web server needs fastapi and uvicorn ({error}); run "
              f"`make install`", file=sys.stderr)
        return EXIT_ENGINE
    url = f"http://{args.host}:{args.port}/"
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, (url,)).start()
    print(f"sudokulab: serving {url} (API docs at {url}docs); Ctrl-C stops", file=sys.stderr)
    try:
        uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning")
    except OSError as error:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: "
                         f"{error.strerror or error}") from None
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
