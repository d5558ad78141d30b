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

from sudokulab import __version__
from sudokulab.commands import COMMANDS, module
from sudokulab.errors import (
    EXIT_CODES,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    SudokulabError,
    UsageError,
    error_line,
)

DESCRIPTION = ("Solve Sudoku with independent paradigms and check their answers against each "
               "other: hand-written propagation and search (norvig), SAT (PySAT), SMT (Z3), "
               "constraint logic programming (SWI-Prolog CLP(FD)), answer set programming "
               "(clingo), CP-SAT (OR-Tools), exact cover (dancing links) and human "
               "techniques with explained steps and grades.")
EXAMPLES = """examples:
  sudokulab solve 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
  sudokulab compare --dataset top95 --backends norvig,sat,prolog
  sudokulab explain PUZZLE        sudokulab COMMAND --help   (each command's options)"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if sys.stdout is None or sys.stderr is None:  # started with >&- or 2>&-
        _say("standard output is closed: nothing could be printed")
        return EXIT_INPUT
    try:
        args = build_parser(_command(argv)).parse_args(argv)
        code = module(args.command).run(args)
        sys.stdout.flush()
        return code
    except SudokulabError as error:  # one line, whatever line breaks the input put in it
        _say(error)
        return error.exit_code
    except KeyboardInterrupt as stop:  # errors.Terminated says SIGTERM's code
        code = getattr(stop, "exit_code", EXIT_INTERRUPTED)
        _say("terminated" if code == EXIT_TERMINATED else "interrupted", prefix="sudokulab: ")
        return code
    except BrokenPipeError:  # the reader went away (| head): not an error of ours
        _detach_stdout()
        return EXIT_OK
    except OSError as error:  # the output cannot be written (a full disk, say)
        _detach_stdout()
        _say(f"cannot write the output: {error.strerror or error}")
        return EXIT_INPUT


def _say(message: object, prefix: str = "") -> None:
    """One line on stderr (if there is a stderr): 'sudokulab: error: ...' by default."""
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
    """The subcommand named in argv (the first word that is not an option), if any."""
    return next((word for word in argv if not word.startswith("-")), None)


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (and a --help hint) instead of a usage block."""

    def error(self, message: str):
        """Bad options: raise UsageError, which `main` prints as one line with exit 2."""
        raise UsageError(f"{message} (see: {self.prog} --help)")


def build_parser(command: str | None = "") -> argparse.ArgumentParser:
    """The argument parser with every subcommand.

    `command` names the one subcommand about to run: only its module is imported and its
    options built (argparse makes a help formatter for every option it adds), so a command
    never pays for another's options or modules. The default "" builds them all.
    """
    parser = Parser(prog="sudokulab", formatter_class=argparse.RawDescriptionHelpFormatter,
                    description=DESCRIPTION, epilog=f"{EXAMPLES}\n\n{EXIT_CODES}")
    parser.add_argument("--version", action="version", version=f"sudokulab {__version__}")
    # prog given: argparse would otherwise build a help formatter (and import shutil) now.
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND",
                                     parser_class=Parser, prog="sudokulab", dest="command")
    for name, summary in COMMANDS.items():
        full = command in ("", name)
        sub = commands.add_parser(name, help=summary, add_help=full,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        if full:
            module(name).options(sub)
    return parser


if __name__ == "__main__":
    sys.exit(main())
