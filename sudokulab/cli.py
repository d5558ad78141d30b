"""The `sudokulab` command: the entry point, the parser, and the name → module map.

Each command lives in its own module of sudokulab/commands (`options(parser)`,
`run(args) -> int`). Start-up is part of the product: a user who scripts `sudokulab solve`
over many puzzles pays it on every call. So this module imports nothing heavy, and only
the module of the command being run is imported and its options built.

Exit codes: one table, sudokulab/errors.py (also in docs/architecture.md and `sudokulab --help`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO, cast

from sudokulab import __version__
from sudokulab.commands import COMMANDS, module
from sudokulab.errors import (
    EXIT_CODES,
    Exit,
    ReaderGone,
    SudokulabError,
    UsageError,
    error_line,
    sigterm_as_ctrl_c,
    stop_behind,
    stop_was_heard,
    terminated,
)

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

DESCRIPTION = ("Solve Sudoku with independent paradigms and check their answers against each "
               "other: hand-written propagation and search (norvig), SAT (PySAT), SMT (Z3), "
               "constraint logic programming (SWI-Prolog CLP(FD)), answer set programming "
               "(clingo), CP-SAT (OR-Tools), exact cover (dancing links), MiniZinc with "
               "Gecode, integer programming (HiGHS), CPMpy (Choco, Pumpkin, Exact), #SAT "
               "counting (Ganak) and human techniques with explained steps and grades.")
EXAMPLES = """examples:
  sudokulab solve 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
  sudokulab compare --dataset top95 --backends norvig,sat,prolog
  sudokulab explain PUZZLE        sudokulab COMMAND --help   (each command's options)"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code. Without `argv` this is the program
    itself (`sudokulab`, `python -m sudokulab`): its process ends when main returns."""
    if argv is not None:
        return _main(list(argv))
    if sys.stderr is not None:  # its reader gone, the run goes on (the exit code says it)
        sys.stderr = Forgiving(sys.stderr)
    try:
        return _main(sys.argv[1:])
    finally:
        # The process ends now. The collector's last passes over every object left (each
        # module's functions and classes, a file's puzzles) would cost a one-puzzle solve
        # a tenth of its time; frozen, the objects are only freed.
        import gc

        gc.freeze()


def _main(argv: list[str]) -> int:
    """main() on a list of arguments."""
    if sys.stdout is None or sys.stderr is None:  # started with >&- or 2>&-
        _say("standard output is closed: nothing could be printed")
        return Exit.INPUT
    try:
        args = build_parser(_command(argv)).parse_args(argv)
        command = module(args.command)
        if hasattr(command, "refuse_unused"):  # an option the others leave without effect
            command.refuse_unused(args)
        with sigterm_as_ctrl_c():  # SIGTERM: what Ctrl-C prints, then 143
            code = command.run(args)
        sys.stdout.flush()
        return Exit.TERMINATED if code == Exit.INTERRUPTED and terminated() else code
    except (ReaderGone, BrokenPipeError) as gone:  # the reader went away (| head): quiet
        _detach_stdout()
        if stop_was_heard():  # a run cut short whose report found no reader: 130 or 143
            return Exit.TERMINATED if terminated() else Exit.INTERRUPTED
        return getattr(gone, "exit_code", Exit.OK)  # what was judged before it (ReaderGone)
    except SudokulabError as error:  # one line, whatever line breaks the input put in it
        _say(error)
        return error.exit_code
    except KeyboardInterrupt as stop:  # errors.Terminated says SIGTERM's code
        return _stopped(stop)
    except OSError as error:  # the output cannot be written (a full disk, say)
        _detach_stdout()
        _say(f"cannot write the output: {error.strerror or error}")
        return Exit.INPUT
    except Exception as error:
        behind = stop_behind(error)  # Ctrl-C as a C extension loaded: ImportError
        if behind is None:
            raise
        return _stopped(behind)


class Forgiving:
    """stderr whose reader may go away (`2> >(head -c 0)`): what cannot be written is let
    go, so a run keeps working, writes its reports and ends with its own exit code; the
    loss of stdout's reader, where the answers go, still ends a command (ReaderGone)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.gone = stream, False

    def write(self, text: str) -> int:
        """Write, unless the reader has gone."""
        if not self.gone:
            try:
                return self.stream.write(text)
            except (OSError, ValueError):  # the pipe closed (or the disk is full), the file
                self.gone = True
        return len(text)

    def flush(self) -> None:
        """Flush, unless the reader has gone."""
        if not self.gone:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.gone = True

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)  # fileno, isatty, encoding ...


def _stopped(stop: KeyboardInterrupt) -> int:
    """Say that Ctrl-C or SIGTERM stopped the command; its exit code."""
    code = Exit.TERMINATED if terminated() else getattr(stop, "exit_code", Exit.INTERRUPTED)
    _say("terminated" if code == Exit.TERMINATED else "interrupted", prefix="sudokulab: ")
    return code


def _say(message: object, prefix: str = "") -> None:
    """One line on stderr (if there is a stderr; its reader gone, Forgiving lets the line
    go and the exit code still says what happened): 'sudokulab: error: ...' by default."""
    if sys.stderr is not None:
        print(f"{prefix}{message}" if prefix else error_line(message), file=sys.stderr)


def _detach_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named in argv (the first word that is not an option), if any; None
    when --help comes before it (the top-level help lists every command)."""
    for word in argv:
        if word in ("-h", "--help"):
            return None
        if not word.startswith("-"):
            return word
    return None


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (and a --help hint) instead of a usage block."""

    def error(self, message: str):
        """Bad options: raise UsageError, which `main` prints as one line with exit 2."""
        raise UsageError(f"{message} (see: {self.prog} --help)")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """--help's and --version's text written and flushed, a write error (a full disk)
        raised for `_main` to say: argparse's own drops it, and exits 0."""
        if message and file is not None:
            file.write(message)
            getattr(file, "flush", lambda: None)()
        else:
            super()._print_message(message, file)

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's help formatter, told the terminal's width. argparse makes one for
        every option it adds and would ask shutil, whose import (with zlib, bz2, lzma) costs
        a one-puzzle solve more than its whole parser."""
        # typeshed's formatter_class promises only `prog`; the classes here are HelpFormatters
        make = cast("type[argparse.HelpFormatter]", self.formatter_class)
        return make(prog=self.prog, width=_columns() - 2)


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size finds it: $COLUMNS, else the
    terminal on standard output, else 80."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            stdout = sys.__stdout__  # None where Python started without one
            columns = os.get_terminal_size(stdout.fileno()).columns if stdout else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def build_parser(command: str | None = "") -> argparse.ArgumentParser:
    """The argument parser with every subcommand.

    `command` names the one subcommand about to run: only its parser is made, its module
    imported and its options built (argparse makes a help formatter for every option it
    adds, and looks up its translations for every parser), so a command never pays for
    another's options, parser or modules. None, or a name that is no command, makes every
    command's parser without options: the top-level help lists them, an error names them.
    The default "" builds them all.
    """
    parser = Parser(prog="sudokulab", formatter_class=argparse.RawDescriptionHelpFormatter,
                    description=DESCRIPTION, epilog=f"{EXAMPLES}\n\n{EXIT_CODES}")
    parser.add_argument("--version", action="version", version=f"sudokulab {__version__}")
    # prog given: argparse would otherwise build a help formatter (and import shutil) now.
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND",
                                     parser_class=Parser, prog="sudokulab", dest="command")
    listed = command not in COMMANDS  # --help, no command or a wrong one: list them all
    for name, summary in COMMANDS.items():
        full = command in ("", name)
        if full or listed:
            sub = commands.add_parser(name, help=summary, add_help=full,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
        if full:
            _options(sub, module(name))
    return parser


def _options(sub: argparse.ArgumentParser, command) -> None:
    """A command's options, and its --help's description, examples and exit codes where
    its options() leaves them out (a command without options)."""
    from sudokulab.errors import exit_help

    command.options(sub)
    sub.description = sub.description or command.DESCRIPTION
    sub.epilog = sub.epilog or f"{command.EXAMPLES}\n\n{exit_help(command.EXITS)}"


if __name__ == "__main__":
    sys.exit(main())
