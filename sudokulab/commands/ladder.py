"""`sudokulab ladder`: how far each paradigm gets from the givens before its first guess."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
import textwrap
from collections.abc import Iterator
from functools import partial

from sudokulab import errors
from sudokulab.commands.inputs import examples, given, nonempty, rereadable, timeout_seconds
from sudokulab.errors import Exit, UsageError, error_line, exit_help, positive_int
from sudokulab.teaching.verdict import REFEREES

DESCRIPTION = ("The inference ladder: for each level (unit propagation on each CNF encoding, "
               "norvig's singles, exact cover's forced rows, the human techniques family by "
               "family, CLP(FD) strengths, clingo/CP-SAT/Z3 with no choice), the puzzles it "
               "finishes without a guess, the candidates it leaves, and the guesses per puzzle "
               "of the engine's full search; beside tdoku's published % no guess.")
EXAMPLES = examples("sudokulab ladder --dataset top95",
                    "sudokulab ladder --dataset 17_clue,top1465 --jobs 2 --out runs/ladder",
                    "sudokulab ladder --resume --out runs/ladder     (after Ctrl-C: the rest)",
                    "sudokulab ladder --file my.txt --levels sat,human:locked --format csv",
                    "sudokulab ladder --timeout 0 --levels smt       (no time limit)",
                    "sudokulab ladder --merge a/ladder.json,b/ladder.json --out runs/both")
NOTES = (f"Each puzzle is judged first by the referee ({REFEREES}): one with no solution "
         "(exit 1) or "
         "several (exit 6) is named and left out of the averages. A level whose engine "
         "cannot take a puzzle (a samurai, a rule it lacks) names it as unsupported (exit "
         "5); a grid the checker rejects is exit 4. With --out, each puzzle's result is kept "
         "in DIR/ladder.jsonl as it comes: "
         "Ctrl-C or SIGTERM print the table so far, marked partial, and --resume --out DIR "
         "finishes the run.")
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.DISAGREE, Exit.ENGINE, Exit.SEVERAL,
         Exit.INTERRUPTED,
         Exit.TERMINATED)
FORMATS = ("table", "json", "csv")


def options(p: argparse.ArgumentParser) -> None:
    """The options of `ladder`."""
    from sudokulab.teaching.ladder import LEVELS
    from sudokulab.teaching.ladder import TIMEOUT as LADDER_TIMEOUT

    p.description = DESCRIPTION
    source = p.add_mutually_exclusive_group()
    source.add_argument("--dataset", "-d", metavar="NAME", type=nonempty,
                        help="bundled dataset(s), comma-separated (default: top95)")
    source.add_argument("--file", "-f", metavar="F", type=nonempty,
                        help="a file of puzzles (.gz works)")
    source.add_argument("--merge", metavar="JSON", type=nonempty,
                        help="no run: the report of earlier runs' ladder.json files, "
                             "comma-separated (with --out); runs of one dataset at other "
                             "levels join in one table")
    p.add_argument("--levels", "-l", metavar="LIST", type=nonempty,
                   help="'default' (every level but the slow ones: "
                        + ", ".join(lv.name for lv in LEVELS if lv.slow)
                        + "), 'all', or a comma list of levels or engines: "
                        + ", ".join(lv.name for lv in LEVELS))
    p.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                   help="worker processes (default 1)")
    # not given: absent, so that --merge and --resume can tell (0 is no limit: None)
    p.add_argument("--timeout", "-t", type=timeout_seconds, default=argparse.SUPPRESS,
                   metavar="S",
                   help=f"seconds a level may spend on one puzzle, for its propagation and "
                        f"again for its search (default {LADDER_TIMEOUT:g}; 0 or inf: never); "
                        f"a level out of time is reported with the puzzle's number, never "
                        f"silently")
    p.add_argument("--format", choices=FORMATS, default="table", metavar="FMT",
                   help="table, json or csv (default table)")
    p.add_argument("--out", "-o", metavar="DIR", type=nonempty,
                   help="also write ladder.md, ladder.json and ladder.png there, and keep "
                        "each puzzle's result in ladder.jsonl as it comes (checked "
                        "writable before the run)")
    p.add_argument("--resume", action="store_true",
                   help="finish the run stopped in --out: its settings and the puzzles "
                        "its ladder.jsonl holds are kept, the others run")
    p.epilog = f"{EXAMPLES}\n\n{textwrap.fill(NOTES, 88)}\n\n{exit_help(EXITS)}"


def refuse_unused(args: argparse.Namespace) -> None:
    """UsageError for a choice of run given with --merge, which runs nothing, for
    --resume without the --out it resumes, and for a list that names nothing."""
    options = given(args, "levels", "jobs", "timeout", "resume", present=("timeout",))
    if args.merge and options:
        raise UsageError(f"--merge reports earlier runs and runs nothing: leave out "
                         f"{', '.join(options)}")
    if args.resume and not args.out:
        raise UsageError("--resume finishes the run kept in --out DIR: name it with --out")
    for option in ("dataset", "levels", "merge"):
        text = getattr(args, option)
        if text is not None and not _names(text):
            raise UsageError(f"--{option} {text!r} names nothing")


def run(args: argparse.Namespace) -> int:
    """Run the chosen levels over each dataset (or merge earlier reports); print the
    tables; write the report; the exit code."""
    if args.merge:
        if args.out:
            _writable(args.out)
        reports = _merged(args.merge)
        _show(reports, args.format)
        _write(args.out, reports)
        return Exit.OK
    return _ladder(args)


def _ladder(args: argparse.Namespace) -> int:
    """The run: each set's puzzles judged, then climbed, each result kept in --out as it
    comes; a stop by Ctrl-C or SIGTERM prints the tables so far and says how to resume."""
    from sudokulab.teaching import ladder, ladder_report

    settings = _settings(args)
    codes: list[int] = []
    sets = _sets(settings, codes)
    levels = ladder.choose(",".join(settings["levels"]))
    log = _log(args, settings, sets)
    jobs = args.jobs or 1
    reports: dict[str, dict] = {}
    for name, puzzles in sets:
        done = log.entries(name) if log else []
        if args.resume:
            print(f"resuming {args.out}: {len(done)} of {len(puzzles)} puzzles done in {name}",
                  file=sys.stderr)
        result = ladder.run(puzzles, levels, jobs=jobs, label=f"ladder {name}",
                            timeout=settings["timeout"], done=done,
                            record=partial(_keep, args.out, log, name) if log else None)
        reports[name] = ladder_report.figures(result, jobs)
        if result.stopped is not None:
            return _stopped(args, result.stopped, log, reports)
    _show(reports, args.format)
    codes += _said(reports)
    _write(args.out, reports)
    if log:
        log.remove()
    return errors.worst(codes)


def _settings(args: argparse.Namespace) -> dict:
    """What the run is (its sets, levels and timeout): from the options, or with --resume
    as --out's log saved them, which the options may not change."""
    from sudokulab.teaching import ladder
    from sudokulab.teaching.ladder_report import LOG, LadderLog

    rereadable(args.file)
    given = {"dataset": _names(args.dataset) if args.dataset else None,
             "file": os.path.abspath(args.file) if args.file else None,
             "levels": [lv.name for lv in ladder.choose(args.levels)] if args.levels else None}
    given = {key: value for key, value in given.items() if value is not None}
    if "timeout" in vars(args):  # None (no limit) is a choice too
        given["timeout"] = args.timeout
    if not args.resume:
        return {"datasets": given.get("dataset") or (None if args.file else ["top95"]),
                "file": args.file, "path": given.get("file"),
                "levels": given.get("levels") or list(ladder.DEFAULT),
                "timeout": given.get("timeout", ladder.TIMEOUT)}
    saved = LadderLog(args.out).settings()
    if not isinstance(saved, dict) or not SETTINGS.issubset(saved):
        raise UsageError(f"--resume: {args.out} holds no unfinished ladder run (no {LOG} with "
                         f"its settings there)")
    was = {"dataset": saved.get("datasets"), "file": saved.get("path"),
           "levels": saved.get("levels"), "timeout": saved.get("timeout")}
    changed = [f"--{key}" for key, value in given.items() if value != was[key]]
    if changed:
        raise UsageError(f"{args.out} holds a run started with other settings than "
                         f"{', '.join(changed)}; resume without them, or start a new run")
    return saved


SETTINGS = {"datasets", "file", "path", "levels", "timeout", "sets"}  # a log's first line


def _names(text: str) -> list[str]:
    """The names of a comma list."""
    return [name.strip() for name in text.split(",") if name.strip()]


def _sets(settings: dict, codes: list[int]) -> list[tuple[str, tuple]]:
    """(name, puzzles) for each dataset or the file; a bad puzzle of the file is named and
    skipped (exit code 2 in `codes`), a file with none to read is a usage error."""
    from sudokulab import datasets

    if not settings["file"]:
        return [(name, datasets.load(name)) for name in settings["datasets"]]
    from sudokulab.formats.files import read_file

    name, path = settings["file"], settings["path"]
    try:
        entries = read_file(path)
    except OSError as error:
        raise UsageError(f"{name}: cannot read: {error.strerror or error}") from None
    puzzles = tuple(e.puzzle for e in entries if e.puzzle is not None)
    bad = [e for e in entries if e.puzzle is None]
    if not puzzles:
        raise UsageError(f"{name}: no puzzle could be read ({len(bad)} bad; the first: "
                         f"{bad[0].error})" if bad else f"{name}: no puzzle in the file")
    for entry in bad:
        print(error_line(f"{entry.error} (skipped)"), file=sys.stderr)
        codes.append(Exit.INPUT)
    return [(name, puzzles)]


def _log(args: argparse.Namespace, settings: dict, sets: list[tuple[str, tuple]]):
    """The run's log in --out (None without --out): the one resumed, its puzzles checked
    to be the same, or a new one, --out checked writable first."""
    from sudokulab.harness.provenance import fingerprint
    from sudokulab.teaching.ladder_report import LOG, LadderLog

    if not args.out:
        return None
    log = LadderLog(args.out)
    prints = {name: fingerprint(puzzles) for name, puzzles in sets}
    if args.resume:
        changed = [name for name in prints if settings.get("sets", {}).get(name) != prints[name]]
        if changed:
            raise UsageError(f"the puzzles of {', '.join(changed)} are not those the run in "
                             f"{args.out} started with: start a new run")
        return log
    _writable(args.out)
    if log.path.exists():
        raise UsageError(f"--out {args.out} holds an unfinished ladder run ({LOG}): add "
                         f"--resume to finish it, or choose another --out")
    with _logging(args.out, log):
        log.start({**settings, "sets": prints})
    return log


def _keep(out: str, log, name: str, entry) -> None:
    """One puzzle's result added to --out's log as it comes."""
    with _logging(out, log):
        log.add(name, entry)


@contextlib.contextmanager
def _logging(out: str, log) -> Iterator[None]:
    """A write to --out's log whose failure (a disk filled during the run) is a UsageError
    naming the log: at the cli it would pass for standard output's."""
    try:
        yield
    except OSError as error:
        with contextlib.suppress(OSError):  # what the failed write left would fail again
            log.close()
        raise UsageError(f"--out {out}: cannot write {log.path}: {error.strerror or error}"
                         ) from None


def _writable(out: str) -> None:
    """--out, a folder, made if need be and a byte written in a file there now, before any
    work; otherwise a UsageError naming it and the true reason: a file in its place or on
    its path, a folder that cannot be made, a disk that takes nothing."""
    import tempfile
    from pathlib import Path

    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out} is a file, not a folder: choose another --out")
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--out {out}: {_unmade(Path(out), error)}") from None
    try:
        with tempfile.TemporaryFile(dir=out) as probe:
            probe.write(b"\n")  # an empty file takes no room: a full disk would pass
            probe.flush()
    except OSError as error:
        raise UsageError(f"--out {out}: cannot write a file there: "
                         f"{error.strerror or error}") from None


def _unmade(folder, error: OSError) -> str:
    """Why `folder` could not be made: a file on its path ('/etc/hostname is a file, not
    a folder'), else its nearest existing folder's refusal."""
    above = folder.parent
    while not os.path.exists(above) and above != above.parent:
        above = above.parent
    if not os.path.isdir(above):
        return f"{above} is a file, not a folder"
    return f"cannot make a folder in {above}: {error.strerror or error}"


def _write(out: str | None, reports: dict[str, dict]) -> None:
    """ladder.md, ladder.json and ladder.png in --out (nothing without it)."""
    from sudokulab.teaching import ladder_report

    if not out:
        return
    try:
        ladder_report.write(out, reports)
    except OSError as error:
        raise UsageError(f"--out {out}: cannot write the report: {error.strerror or error}"
                         ) from None
    print(f"report: {out}/ladder.md", file=sys.stderr)


def _show(reports: dict[str, dict], fmt: str) -> None:
    """The reports on stdout: tables (a stopped run's marked partial), JSON or CSV."""
    from sudokulab.teaching import ladder_report

    if fmt == "json":
        print(json.dumps(reports, indent=1))
    elif fmt == "csv":
        print(ladder_report.csv_text(reports), end="")
    else:
        for name, report in reports.items():
            print(ladder_report.table(name, report["levels"],
                                      note=ladder_report.partial(report)))
            for line in ladder_report.notes(report):
                print(line)
            print()


def _said(reports: dict[str, dict]) -> list[int]:
    """On stderr, the puzzles left out and the levels that could not take or got wrong
    some puzzles; their exit codes (1 no solution, 6 several, 5 unsupported, 4 a grid the
    checker rejects)."""
    from sudokulab.teaching.ladder import NO_SOLUTION

    codes: list[int] = []

    def say(text: str) -> None:
        print(f"sudokulab: {text}", file=sys.stderr)

    for name, report in reports.items():
        for verdict, numbers in report.get("excluded", {}).items():
            if numbers:
                codes.append(Exit.NONE if verdict == NO_SOLUTION else Exit.SEVERAL)
                say(f"{name}: {_puzzles(numbers)}: {verdict} (the referee: {REFEREES}); "
                    f"left out of the averages")
        for row in report["levels"]:
            refused = row.get("unsupported") or {}
            if refused:
                codes.append(Exit.ENGINE)
                by_reason: dict[str, list] = {}  # each reason with its own puzzles
                for number, why in refused.items():
                    by_reason.setdefault(why, []).append(number)
                for why, numbers in by_reason.items():
                    say(f"{row['level']} cannot take {_puzzles(numbers)} of {name}: {why}")
            if row["wrong"]:
                codes.append(Exit.DISAGREE)
                say(f"{row['level']} on {name}: the checker rejects the grid of "
                    f"{_puzzles(row['wrong'])}")
    return codes


def _puzzles(numbers: list) -> str:
    """'puzzle 4' or 'puzzles 2, 5, 7' (the first 10, and how many more)."""
    shown = ", ".join(map(str, numbers[:10]))
    more = f" and {len(numbers) - 10} more" if len(numbers) > 10 else ""
    return f"puzzle {shown}" if len(numbers) == 1 else f"puzzles {shown}{more}"


def _stopped(args: argparse.Namespace, stop: KeyboardInterrupt, log,
             reports: dict[str, dict]) -> int:
    """After Ctrl-C or SIGTERM: the tables of the puzzles done, where they are kept and how
    to finish the run; exit 130, or 143 for SIGTERM."""
    term = isinstance(stop, errors.Terminated) or errors.terminated()
    try:
        _show(reports, args.format)
    finally:  # where the puzzles are kept is said even when stdout's reader has gone
        _kept(args, term, log, reports)
    return Exit.TERMINATED if term else Exit.INTERRUPTED


def _kept(args: argparse.Namespace, term: bool, log, reports: dict[str, dict]) -> None:
    """On stderr: what the stopped run found wrong, where its puzzles are kept, and how
    to finish it (`term`: SIGTERM stopped it, not Ctrl-C)."""
    _said(reports)
    if log:
        log.close()
        done = max(0, len(log.lines()) - 1)  # what the file holds, after its settings line
        kept = (f"{done} puzzle(s) kept in {log.path}; finish the run with:\n  sudokulab "
                f"ladder --resume --out {shlex.quote(args.out)}")
    else:
        kept = ("nothing kept: with --out DIR each puzzle's result is kept as it comes, and "
                "`sudokulab ladder --resume --out DIR` finishes the run")
    print(f"\n{'terminated' if term else 'interrupted'}: {kept}", file=sys.stderr)


def _merged(paths: str) -> dict[str, dict]:
    """The reports held by earlier runs' ladder.json files."""
    from sudokulab.teaching import ladder_report

    try:
        return ladder_report.merge(_names(paths))
    except ValueError as error:
        raise UsageError(f"cannot read the ladder reports: {error}") from None


__all__ = ["run", "options", "refuse_unused"]
