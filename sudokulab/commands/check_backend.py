"""`sudokulab check-backend`: the backend contract run on one engine, as a report to act on."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from sudokulab.commands.inputs import examples, nonempty
from sudokulab.errors import Exit, exit_help, whole

if TYPE_CHECKING:
    from sudokulab.harness.contract import Outcome

DESCRIPTION = ("Run the backend contract on one engine: a registered backend with its "
               "options (norvig:classic) or a plugin class given as MODULE:CLASS "
               "(mypkg.engine:MyBackend, or path/to/engine.py:MyBackend). Each check says "
               "PASS or FAIL, and for a failure the puzzle, what was expected and what came "
               "back: exact counts, the limit, no solution, other shapes, variant rules or "
               "UNSUPPORTED, the timeout, Ctrl-C, and answers on a bundled dataset. Every "
               "grid is judged by sudokulab/check.py. The checks of tests/test_contract.py, "
               "for an engine of one's own.")
EXAMPLES = examples("sudokulab check-backend norvig:classic",
                    "sudokulab check-backend tests/broken_engine.py:RepeatsADigit --only limits",
                    "sudokulab check-backend sat:solver=teach --dataset easy50 --puzzles 5")
SHOWN = 3  # failures printed per check: the first ones say what to fix
EXITS = (Exit.OK, Exit.INPUT, Exit.DISAGREE, Exit.ENGINE, Exit.INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """The engine, the checks to run, the dataset and how many of its puzzles."""
    from sudokulab.harness.contract import CHECKS

    p.description = DESCRIPTION
    p.epilog = EXAMPLES + "\n\n" + exit_help(EXITS)
    p.add_argument("engine", help="a backend spec (norvig:classic) or MODULE:CLASS")
    p.add_argument("--only", action="append", choices=list(CHECKS), metavar="CHECK",
                   help=f"run only this check (repeatable): {', '.join(CHECKS)}")
    p.add_argument("--dataset", "-d", metavar="NAME", type=nonempty,
                   help="the bundled dataset the answers are checked on (default: top95, "
                        "or none with --only; 'none' for no dataset check)")
    p.add_argument("--puzzles", default="10", metavar="K",
                   help="how many of its puzzles, from the first (default 10; 'all')")


def puzzles(text: str) -> int | None:
    """--puzzles: a whole number from 1, or 'all' (None); UsageError otherwise."""
    from sudokulab.errors import UsageError

    if text == "all":
        return None
    if text.isdigit() and int(text) > 0:
        return int(text)
    raise UsageError(f"--puzzles must be a whole number from 1, or all, not {text!r}")


def wrote(text: str, when: str = "in this check") -> None:
    """A line saying the engine wrote to standard output (kept out of the report), and
    its first line, when it did."""
    lines = text.splitlines()
    if lines:
        print(f"        the engine wrote {len(lines)} line{'' if len(lines) == 1 else 's'} "
              f"to stdout {when} (not shown), the first: {lines[0][:60]!r}")


def run(args: argparse.Namespace) -> int:
    """Load the engine, run each check, print the report; 4 when a check fails."""
    from sudokulab import datasets
    from sudokulab.errors import UsageError
    from sudokulab.harness import contract

    count = puzzles(args.puzzles)
    # --only runs only the checks it names: the answers on a dataset too when one is given
    default = None if args.only else "top95"
    dataset = None if args.dataset == "none" else args.dataset or default
    if dataset is not None and dataset not in datasets.names():
        raise UsageError(f"--dataset: no dataset {dataset!r}; these are bundled: "
                         f"{', '.join(datasets.names())}")
    with contract.stdout_kept() as printed:  # a plugin may print as it loads
        engine = contract.load_engine(args.engine)
        available = engine.available()
    if not available.ok:
        print(f"{args.engine}: not available here: {available.reason}"
              + (f" (fix: {available.fix})" if available.fix else ""))
        return Exit.ENGINE
    print(f"check-backend {args.engine} ({type(engine).__name__}, "
          f"{available.version or 'no version'})", flush=True)
    wrote(printed[0], "as it loaded")
    only = list(dict.fromkeys(args.only)) if args.only else None  # each check once
    planned = len(only or contract.CHECKS) + (1 if dataset else 0)
    failed = passed = 0
    try:
        for outcome in contract.run(engine, dataset, count, only):
            with whole():  # a check printed is a check counted (a signal waits for both)
                if outcome.passed:
                    passed += 1
                else:
                    failed += 1
                _report(outcome)
    except KeyboardInterrupt:  # the checks done are counted; the caller says 130 or 143
        _total(passed, failed, f" (stopped after {passed + failed} of {planned})")
        raise
    _total(passed, failed, "" if failed else f": {args.engine} keeps the contract")
    return Exit.DISAGREE if failed else Exit.OK


def _report(outcome: Outcome) -> None:
    """One check's lines: PASS or FAIL, and for a failure the first failures."""
    if outcome.passed:
        print(f"  PASS  {outcome.name} ({outcome.seconds:.2f} s)", flush=True)
        if outcome.note:
            print(f"        {outcome.note}")
        wrote(outcome.printed)
        sys.stdout.flush()
        return
    print(f"  FAIL  {outcome.name} ({outcome.seconds:.2f} s)")
    wrote(outcome.printed)
    for line in outcome.failures[:SHOWN]:
        print(f"        - {line}")
    if len(outcome.failures) > SHOWN:
        print(f"        ... and {len(outcome.failures) - SHOWN} more like these")
    print(flush=True)


def _total(passed: int, failed: int, after: str) -> None:
    """The closing line: how many checks ran, passed and failed, then `after`."""
    total = passed + failed
    print(f"{total} check{'' if total == 1 else 's'}: {passed} passed, {failed} failed{after}",
          flush=True)
