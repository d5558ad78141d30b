"""`sudokulab compare`: its options; the run itself is sudokulab.harness.compare."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from sudokulab import errors
from sudokulab.backends.extras import need
from sudokulab.commands.inputs import examples, given, nonempty, rereadable, timeout_seconds
from sudokulab.errors import Exit, UsageError, count_int, exit_help, positive_int
from sudokulab.formats import READERS

if TYPE_CHECKING:
    from sudokulab.harness.compare import Outcome, Settings

DESCRIPTION = ("Run every backend (or those named) over a dataset, validate each answer with "
               "the independent checker, cross-check the backends and compare times. Each "
               "result is written to runs.jsonl as it comes: an interrupted run keeps them, "
               "and --resume finishes it.")
EXAMPLES = examples("sudokulab compare --dataset top95 --backends norvig,sat,dlx",
                    "sudokulab compare --file my.txt --timeout 5 --out runs/mine",
                    "sudokulab compare --resume",
                    "sudokulab compare -b norvig,sat --certify certs/  # verdicts proved",
                    "sudokulab compare --cite --out runs/mine  # how to cite that run")
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.TIMEOUT, Exit.DISAGREE, Exit.ENGINE,
         Exit.INTERRUPTED, Exit.TERMINATED)


def options(parser: argparse.ArgumentParser) -> None:
    """The options of `compare`."""
    from sudokulab.harness.records import cores

    parser.description = DESCRIPTION
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--dataset", "-d", metavar="NAME", type=nonempty,
                        help="a bundled dataset (see `sudokulab datasets`; default: top95)")
    source.add_argument("--file", "-f", metavar="F", type=nonempty,
                        help="a file of puzzles in any supported format (.gz works), each "
                             "with its own rules in JSON Lines or a JSON array")
    parser.add_argument("--input-format", metavar="FMT", choices=READERS,
                        help=f"how to read --file: {', '.join(READERS)} (default "
                             f"auto)")
    parser.add_argument("--strict", action="store_true",
                        help="refuse a file with a bad puzzle (by default each is reported "
                             "with its file and line and skipped, and the exit code is 2)")
    parser.add_argument("--backends", "-b", metavar="LIST",
                        help="'all' (every available backend, the default) or a comma list "
                             "of backend specs, e.g. norvig,sat:solver=glucose4,smt")
    parser.add_argument("--limit", "-k", type=positive_int, metavar="K",
                        help="solutions to look for per puzzle (default 2: proves uniqueness)")
    parser.add_argument("--timeout", "-t", type=timeout_seconds, metavar="S",
                        default=argparse.SUPPRESS,  # not given: the run's (10, or --resume's)
                        help="seconds per puzzle and backend (default 10; 0 or inf: never)")
    parser.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                        help=f"worker processes per backend (default: the usable cores, "
                             f"{cores()} here)")
    parser.add_argument("--repeat", "-r", type=positive_int, metavar="R",
                        help="solve each puzzle R times, in R passes over the whole set "
                             "(each in its own seeded order), and keep the median time "
                             "(default 1); with 2 or more, time figures get a 95%% "
                             "interval, each pair of backends a paired test, each backend "
                             "its run-to-run spread (needs the stats extra)")
    parser.add_argument("--warm", action="store_true", default=None,
                        help="solve each puzzle on the engine as the puzzles before left it "
                             "(learnt clauses kept: an engine's strength in batch work); by "
                             "default every solve is cold, as in a fresh process, so that "
                             "figures do not depend on order, --jobs or --repeat")
    parser.add_argument("--sample", type=positive_int, metavar="K",
                        help="run K puzzles drawn at random (see --seed) instead of all")
    parser.add_argument("--seed", type=count_int, metavar="S",
                        help="seed for --sample, the order of each pass and the bootstrap "
                             "intervals (default 0)")
    parser.add_argument("--scatter", metavar="A,B",
                        help="the pair of backends the scatter plot sets against each other "
                             "(default: the first two)")
    parser.add_argument("--out", "-o", metavar="DIR", type=nonempty,
                        help="output folder (default: a new runs/<dataset>-<timestamp>)")
    parser.add_argument("--resume", action="store_true",
                        help="finish the interrupted run in --out (default: the latest in "
                             "runs/), solving only what runs.jsonl does not hold yet")
    parser.add_argument("--certify", metavar="DIR", type=nonempty,
                        help="prove each puzzle's verdict once (a CNF of its own, a DRAT "
                             "proof, the solutions: docs/certified.md), write the "
                             "certificate into DIR as <set>-<k>.json/.cnf/.drat and verify "
                             "it with code that shares none with the engines; the summary's "
                             "column certified counts each engine's verdicts proved / given, "
                             "and an answer a certificate contradicts is a wrong answer "
                             "(exit 4). `sudokulab verify DIR` checks them again later")
    parser.add_argument("--cite", action="store_true",
                        help="solve nothing: print how to cite the run in --out (default: "
                             "the latest in runs/, as --resume finds it): the software as "
                             "text and BibTeX, the run's commit, mode, seed, input hash and "
                             "date")
    parser.add_argument("--cluster", metavar="C",
                        help="run on Dask: local:N (a local cluster of N workers) or "
                             "tcp://HOST:PORT (a running `dask scheduler`); see docs/compare.md")
    parser.epilog = f"{EXAMPLES}\n\n{exit_help(EXITS)}"


def refuse_unused(args: argparse.Namespace) -> None:
    """UsageError for an option of a run given with --cite, which solves nothing."""
    run = ("file", "input_format", "strict", "backends", "limit", "timeout", "jobs", "repeat",
           "warm", "sample", "seed", "scatter", "resume", "cluster", "certify")
    options = given(args, *run, present=("timeout",))
    if args.cite and options:
        raise UsageError(f"--cite prints how to cite the run in --out and solves nothing: "
                         f"leave out {', '.join(options)}")


def settings_of(args: argparse.Namespace) -> Settings:
    """The harness's Settings from the options: those given, the rest at their defaults
    (or, with --resume, as the run saved them)."""
    from sudokulab.harness import compare

    fields = ("dataset", "file", "backends", "limit", "repeat", "sample", "seed", "scatter",
              "input_format", "warm", "jobs", "strict", "cluster", "certify")
    chosen = {name: getattr(args, name) for name in fields
              if getattr(args, name, None) not in (None, False)}
    if hasattr(args, "timeout"):  # given: its type reads 0 and inf as None, no limit
        chosen["timeout"] = args.timeout
    rereadable(args.file)
    if args.resume:
        return compare.resumed(args.out, chosen)
    return compare.Settings(**chosen, out=args.out)


def run(args: argparse.Namespace) -> int:
    """Run the comparison the arguments describe; the exit code."""
    from sudokulab.harness import compare

    if args.cite:  # reads a finished run's meta.json: no engine, no plot
        from sudokulab.harness import provenance

        print(provenance.cite(args.out, args.dataset))
        return Exit.OK
    need("plots", "compare")  # its report draws the cactus and scatter plots
    if args.cluster:
        need("cluster", "compare --cluster")
    try:
        with errors.sigterm_stops():
            return show(compare.compare(settings_of(args)))
    except BrokenPipeError:  # the reader went away (`| head`): theirs to decide, not ours
        raise
    except OSError as error:  # a full disk or a full standard output (> /dev/full)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (nothing more to write there, even at exit)
        where = error.filename or "standard output"
        raise UsageError(f"cannot write {where}: {error.strerror or error}") from None


def show(outcome: Outcome) -> int:
    """Print the tables of a run (those of what finished, marked partial, for one cut
    short, with how to finish it on stderr); the exit code."""
    import shlex

    from sudokulab.harness import report as reports

    folder = outcome.folder
    if outcome.partial:
        done = outcome.answered()
        proved = outcome.proved()
        reporting = outcome.only_reports_left()
        summary = outcome.comparison.report(outcome.comparison.meta["environment"])
        finish = "write its reports" if reporting else "finish the run"
        try:
            print(reports.terminal(summary, folder, partial=outcome.why_partial()),
                  flush=True)
        finally:  # said on stderr even when stdout's reader has gone
            print(f"\n{'terminated' if outcome.terminated else 'interrupted'}: {done} "
                  f"results kept in {folder / 'runs.jsonl'}{proved}; {finish} with:\n  "
                  f"sudokulab compare --resume --out {shlex.quote(str(folder))}",
                  file=sys.stderr)
        return outcome.exit_code()
    print(reports.terminal(outcome.summary, folder), flush=True)  # a full stdout fails here
    return outcome.exit_code()
