"""`sudokulab verify`: check certified verdicts (issue 56), trusting no engine."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sudokulab.commands.inputs import examples
from sudokulab.errors import Exit, SudokulabError, error_line, exit_help, whole, worst

if TYPE_CHECKING:
    from sudokulab.certificates.verify import Checked

DESCRIPTION = ("Check certificates of verdicts (none, unique, multiple), each a .json file "
               "beside its .cnf and .drat, or a folder of them: the CNF must be the lab's own "
               "encoding of the puzzle (sudokulab/certificates/encoder.py), every solution must "
               "pass the independent checker, and the DRAT proof must replay to the empty "
               "clause in the lab's own checker. One line per certificate: accepted, or "
               "rejected and where (a lemma and its clause, a cell, a given, a file). See "
               "docs/certified.md for checking one with drat-trim instead.")
EXAMPLES = examples("sudokulab verify certs/top95-1.json",
                    "sudokulab verify certs/            # every .json in the folder",
                    "drat-trim certs/top95-1.cnf certs/top95-1.drat   # the same proof, "
                    "outside the lab")
EXITS = (Exit.OK, Exit.INPUT, Exit.DISAGREE, Exit.ENGINE, Exit.INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """The options of `verify`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    p.add_argument("certificates", nargs="+", metavar="CERT",
                   help="a certificate's .json file, or a folder: every .json in it")


def run(args: argparse.Namespace) -> int:
    """Verify each certificate, printing its row as soon as it is checked (so Ctrl-C or
    SIGTERM keeps the rows done); the worst exit code."""
    from sudokulab.certificates.verify import certificates, check_each
    from sudokulab.harness.progress import Progress

    paths = certificates(args.certificates)
    table = Table(paths)
    progress = Progress("verify", len(paths)) if len(paths) > 1 else None
    try:
        for checked in check_each(paths):
            table.row(checked)
            if progress:
                progress.step()
    except KeyboardInterrupt:  # what was checked is printed; the caller says 130 or 143
        table.total(stopped=len(paths))
        raise
    if progress:
        progress.finish()
    table.total()
    return worst(table.codes)


class Table:
    """The results, one row per certificate, printed (and flushed) as each is checked:
    the columns' widths are known before the first check."""

    HEADERS = ("certificate", "verdict", "result", "solutions", "lemmas", "time",
               "puzzle (givens: the one meant?) / why not accepted")

    def __init__(self, paths: list[Path]) -> None:
        self.width = max(len(self.HEADERS[0]), *(len(path.name) for path in paths))
        self.codes: list[int] = []
        self._line(*self.HEADERS)
        self._line(*("-" * len(h) if k else "-" * self.width
                     for k, h in enumerate(self.HEADERS)))

    def row(self, checked: Checked) -> None:
        """One certificate's row, printed and counted as one (a signal waits for both);
        a rejected one's full reason on stderr too."""
        with whole():
            self._row(checked)

    def _row(self, checked: Checked) -> None:
        """The row of `row`."""
        name, report, error = checked.path.name, checked.report, checked.error
        if report is not None:
            count = "2 or more" if report.count is None else str(report.count)
            self.codes.append(Exit.OK)
            self._line(name, report.verdict, "accepted", count, str(report.lemmas),
                       f"{report.ms:.0f} ms", report.puzzle)
            return
        assert error is not None  # a Checked holds one or the other
        result = ("REJECTED" if error.exit_code == Exit.DISAGREE else "cannot check"
                  if error.exit_code == Exit.ENGINE else "bad input")
        why = _why(checked.path, error)
        self.codes.append(error.exit_code)
        self._line(name, "-", result, "", "", "", why[:100])
        print(error_line(why), file=sys.stderr, flush=True)

    def total(self, stopped: int | None = None) -> None:
        """How many were accepted; how far the run got when a signal stopped it."""
        accepted = self.codes.count(Exit.OK)
        cut = f" (stopped after {len(self.codes)} of {stopped})" if stopped is not None else ""
        print(f"\n{accepted} of {len(self.codes)} accepted{cut}", flush=True)

    def _line(self, *cells: str) -> None:
        """One line of the table, flushed: a reader (or a signal) sees it at once."""
        name, verdict, result, count, lemmas, ms, last = cells
        print(f"{name:<{self.width}}  {verdict:<8}  {result:<12}  {count:>9}  {lemmas:>7}  "
              f"{ms:>8}  {last}".rstrip(), flush=True)


def _why(path: Path, error: SudokulabError) -> str:
    """The error's line, its file named once."""
    text = str(error)
    return text if path.name in text else f"{path.name}: {text}"
