"""`sudokulab verify`: check certified verdicts (issue 56), trusting no engine."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudokulab.commands.inputs import examples
from sudokulab.errors import (
    EXIT_DISAGREE,
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    InputError,
    SudokulabError,
    error_line,
    exit_help,
    worst,
)

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
EXITS = (EXIT_OK, EXIT_INPUT, EXIT_DISAGREE, EXIT_ENGINE, EXIT_INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """The options of `verify`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    p.add_argument("certificates", nargs="+", metavar="CERT",
                   help="a certificate's .json file, or a folder: every .json in it")


def run(args: argparse.Namespace) -> int:
    """Verify each certificate; a table of the results; the worst exit code."""
    from sudokulab.certificates.verify import verify
    from sudokulab.harness.progress import Progress

    paths = _paths(args.certificates)
    rows: list[tuple[object, ...]] = []  # a table row per certificate
    codes: list[int] = []
    progress = Progress("verify", len(paths)) if len(paths) > 1 else None
    for path in paths:
        try:
            report = verify(path)
        except SudokulabError as error:
            rows.append((path.name, "-", "REJECTED" if error.exit_code == EXIT_DISAGREE
                         else "cannot check" if error.exit_code == EXIT_ENGINE
                         else "bad input", "", "", "", _why(path, error)))
            codes.append(error.exit_code)
        else:
            count = "2 or more" if report.count is None else report.count
            rows.append((path.name, report.verdict, "accepted", count, report.lemmas,
                         report.puzzle, f"{report.ms:.0f} ms"))
            codes.append(EXIT_OK)
        if progress:
            progress.step()
    if progress:
        progress.finish()
    _table(rows)
    for code, row in zip(codes, rows):
        if code != EXIT_OK:
            print(error_line(row[-1]), file=sys.stderr)
    return worst(codes)


def _paths(names: list[str]) -> list[Path]:
    """Each .json named, and every .json in each folder named (sorted); InputError for a
    name that is neither."""
    paths: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise InputError(f"{name}: no certificate (.json) in this folder")
            paths += found
        elif path.is_file():
            paths.append(path)
        else:
            raise InputError(f"{name}: no such file or folder")
    return paths


def _why(path: Path, error: SudokulabError) -> str:
    """The error's line, its file named once."""
    text = str(error)
    return text if path.name in text else f"{path.name}: {text}"


def _table(rows: list[tuple]) -> None:
    """The results, one row per certificate."""
    from tabulate import tabulate

    headers = ("certificate", "verdict", "result", "solutions", "lemmas",
               "puzzle (givens: the one meant?)", "time / why")
    shown = [row if row[2] == "accepted" else (*row[:6], row[6][:100]) for row in rows]
    print(tabulate(shown, headers=headers))
    accepted = sum(row[2] == "accepted" for row in rows)
    print(f"\n{accepted} of {len(rows)} accepted")
