"""`sudokulab ladder`: how far each paradigm gets from the givens before its first guess."""

from __future__ import annotations

import argparse
import json
import sys

from sudokulab import errors
from sudokulab.commands.inputs import examples
from sudokulab.errors import (
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    UsageError,
    exit_help,
    positive_int,
)

DESCRIPTION = ("The inference ladder: for each level (unit propagation on each CNF encoding, "
               "norvig's singles, exact cover's forced rows, the human techniques family by "
               "family, CLP(FD) strengths, clingo/CP-SAT/Z3 with no choice), the puzzles it "
               "finishes without a guess, the candidates it leaves, and the guesses per puzzle "
               "of the engine's full search; beside tdoku's published % no guess.")
EXAMPLES = examples("sudokulab ladder --dataset top95",
                    "sudokulab ladder --dataset 17_clue,top1465 --jobs 2 --out runs/ladder",
                    "sudokulab ladder --file my.txt --levels sat,human:locked --format csv")
EXITS = (EXIT_OK, EXIT_INPUT, EXIT_ENGINE, EXIT_INTERRUPTED)
FORMATS = ("table", "json", "csv")


def options(p: argparse.ArgumentParser) -> None:
    """The options of `ladder`."""
    from sudokulab.ladder import LEVELS
    from sudokulab.ladder import TIMEOUT as LADDER_TIMEOUT

    p.description = DESCRIPTION
    source = p.add_mutually_exclusive_group()
    source.add_argument("--dataset", "-d", metavar="NAME",
                        help="bundled dataset(s), comma-separated (default: top95)")
    source.add_argument("--file", "-f", metavar="F", help="a file of puzzles (.gz works)")
    source.add_argument("--merge", metavar="JSON", help="no run: the report of earlier runs' "
                        "ladder.json files, comma-separated (with --out)")
    p.add_argument("--levels", "-l", metavar="LIST",
                   help="'default' (every level but the slow ones: "
                        + ", ".join(lv.name for lv in LEVELS if lv.slow)
                        + "), 'all', or a comma list of levels or engines: "
                        + ", ".join(lv.name for lv in LEVELS))
    p.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                   help="worker processes (default 1)")
    p.add_argument("--timeout", type=float, default=LADDER_TIMEOUT, metavar="S",
                   help=f"seconds a level may spend on one puzzle, for its propagation and "
                        f"again for its search (default {LADDER_TIMEOUT:g}); a level out of "
                        f"time is reported with the puzzle's number, never silently")
    p.add_argument("--format", choices=FORMATS, default="table", metavar="FMT",
                   help="table, json or csv (default table)")
    p.add_argument("--out", "-o", metavar="DIR",
                   help="also write ladder.md, ladder.json and ladder.png there")
    p.epilog = f"{EXAMPLES}\n\n{exit_help(EXITS)}"


def run(args: argparse.Namespace) -> int:
    """Run the chosen levels over each dataset; print the tables; write the report."""
    from sudokulab import ladder, ladder_report

    if args.timeout is not None and not args.timeout > 0:
        raise UsageError(f"--timeout takes a number of seconds above 0, not {args.timeout}")
    if args.merge:
        reports = _merged(args.merge)
    else:
        levels = ladder.choose(args.levels)
        reports = {}
        with errors.sigterm_stops():  # the workers are ended as on Ctrl-C
            for name, puzzles in _sets(args):
                done = ladder.run(puzzles, levels, jobs=args.jobs or 1,
                                  label=f"ladder {name}", timeout=args.timeout)
                reports[name] = ladder_report.figures(done, args.jobs or 1)
    if args.format == "json":
        print(json.dumps(reports, indent=1))
    elif args.format == "csv":
        print(ladder_report.csv_text(reports), end="")
    else:
        for name, report in reports.items():
            print(ladder_report.table(name, report["levels"]))
            for line in ladder_report.timeouts(report["levels"]):
                print(line)
            print()
    if args.out:
        ladder_report.write(args.out, reports)
        print(f"report: {args.out}/ladder.md", file=sys.stderr)
    wrong = [(name, row["level"], row["wrong"]) for name, report in reports.items()
             for row in report["levels"] if row["wrong"]]
    for name, level, numbers in wrong:
        print(f"sudokulab: {level} on {name}: the checker rejects the grid of puzzle(s) "
              f"{', '.join(map(str, numbers[:10]))}", file=sys.stderr)
    return EXIT_ENGINE if wrong else EXIT_OK


def _merged(paths: str) -> dict[str, dict]:
    """The reports held by earlier runs' ladder.json files."""
    from sudokulab import ladder_report

    try:
        return ladder_report.merge([p.strip() for p in paths.split(",") if p.strip()])
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read the ladder reports {paths}: {error}") from None


def _sets(args: argparse.Namespace) -> list[tuple[str, tuple]]:
    """(name, puzzles) for each dataset or the file."""
    from sudokulab import datasets

    if args.file:
        from sudokulab.formats.files import read_file

        try:
            entries = read_file(args.file)
        except OSError as error:
            raise UsageError(f"cannot read {args.file}: {error.strerror or error}") from None
        puzzles = tuple(e.puzzle for e in entries if getattr(e, "puzzle", None) is not None)
        return [(args.file, puzzles)]
    names = [n.strip() for n in (args.dataset or "top95").split(",") if n.strip()]
    return [(name, datasets.load(name)) for name in names]


__all__ = ["run", "options", "EXIT_INPUT", "EXIT_INTERRUPTED"]
