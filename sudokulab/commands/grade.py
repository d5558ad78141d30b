"""`sudokulab grade`: HoDoKu's level and an SE-like rating for each puzzle, and a summary."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import TYPE_CHECKING

from sudokulab.backends.extras import need
from sudokulab.commands import steps
from sudokulab.commands.inputs import (
    examples,
    input_arguments,
    nonempty,
    picture_path,
    read_entries,
)
from sudokulab.errors import Exit, UsageError, error_line, exit_help, worst
from sudokulab.teaching.verdict import REFEREES

if TYPE_CHECKING:
    from sudokulab.human.grading import Grade

DESCRIPTION = ("Grade each puzzle as a human solver would: HoDoKu's level and score, an "
               "SE-like rating of the hardest step, the hardest technique and the steps per "
               "technique; then a table of the levels over the input. A puzzle is graded "
               f"only once a search engine ({REFEREES}) "
               "proves it has one solution. Ctrl-C or SIGTERM print the table of the "
               "puzzles finished so far, marked partial.")
EXAMPLES = examples("sudokulab grade --file puzzles.txt",
                    "sudokulab grade --file puzzles.txt --format csv --plot levels.png")
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.TIMEOUT, Exit.ENGINE, Exit.SEVERAL,
         Exit.STALLED, Exit.INTERRUPTED, Exit.TERMINATED)
refuse_unused = steps.refuse_unused  # --list with a puzzle: a usage error


def options(p: argparse.ArgumentParser) -> None:
    """The options of `grade`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    steps.technique_options(p)
    p.add_argument("--format", choices=("pretty", "json", "csv", "tsv"), default="pretty",
                   help="pretty (default): number, level, score, rating, hardest technique; "
                        "json: one object per puzzle per line; csv, tsv: a header and one "
                        "row per puzzle (techniques as name:count;...). json, csv and tsv "
                        "hold every puzzle of the input, each with its status (solved, "
                        "stalled, timeout, unsupported, none, several, bad-input) and why")
    p.add_argument("--plot", metavar="FILE", type=nonempty,
                   help="write a histogram of the levels here (.png, .svg or .pdf)")
    p.set_defaults(positions=True)  # a pencil-mark position (human/positions.py) too


def run(args: argparse.Namespace) -> int:
    """Grade every puzzle; print one record each, then the summary table."""
    if args.list:
        print(steps.listing(args.format))
        return Exit.OK
    from sudokulab.harness.progress import Progress

    if args.plot:
        picture_path("--plot", args.plot)
        need("plots", "grade --plot")
    techniques = steps.chosen(args)
    entries = read_entries(args)
    bad = [entry for entry in entries if entry.puzzle is None]
    if bad and args.strict:  # stop at the first bad puzzle, after grading those before it
        entries = entries[:entries.index(bad[0]) + 1]
    progress = Progress("grade", len(entries)) if len(entries) >= 50 else None
    table = Table(args.format)
    grades: list[Grade] = []
    codes: list[int] = [Exit.OK]
    try:
        for number, entry in enumerate(entries, 1):  # numbered as read: each names its puzzle
            _grade_one(number, entry, techniques, args, table, grades, codes)
            if progress:
                progress.step()
            sys.stdout.flush()  # each record as it comes: a reader of a pipe sees it now
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the puzzles finished, summed up
        if progress:
            progress.done = table.done  # the stop may fall between a record and its step
            progress.finish()
        _sum_up(grades, args, partial=_partial(stop, table.done, len(entries)))
        _plot(grades, args, f" (partial: {table.done} of the {len(entries)} puzzles)")
        raise  # main says "interrupted" (130) or "terminated" (143)
    if progress:
        progress.finish()
    _sum_up(grades, args)
    _plot(grades, args)
    return worst(codes)


def _plot(grades: list[Grade], args: argparse.Namespace, partial: str = "") -> None:
    """The --plot histogram of the grades, when asked for and there are some."""
    if grades and args.plot:
        histogram(grades, args.plot)
        print(f"sudokulab: wrote {args.plot}{partial}", file=sys.stderr)


def _grade_one(number: int, entry, techniques, args: argparse.Namespace, table: Table,
               grades: list[Grade], codes: list[int]) -> None:
    """Grade one puzzle of the input: its record, its grade in `grades`, or why it has
    none on stderr, and its exit code in `codes`."""
    from sudokulab.teaching.lessons import Refusal

    if entry.puzzle is None:
        print(error_line(entry.error), file=sys.stderr)
        table.refused(number, None, "bad-input", entry.error, where=entry.where)
        codes.append(Exit.INPUT)
        return
    puzzle = entry.puzzle
    answer = steps.judged(number, puzzle, args)
    if isinstance(answer, Refusal):  # said on stderr; a record still names it
        table.refused(number, puzzle, answer.status, answer.message)
        codes.append(answer.code)
        return
    walked = steps.walk(puzzle, techniques, args)
    path, grade = walked.path, walked.grade
    if path.stopped:
        why = f"stopped at --timeout {args.timeout:g} s after {len(path.steps)} steps"
        print(error_line(f"puzzle {number}: {why}: no grade"), file=sys.stderr)
        table.refused(number, puzzle, "timeout", f"{why}: no grade")
        codes.append(Exit.TIMEOUT)
        return
    grades.append(grade)
    table.row(number, puzzle, path, grade)
    if not path.solved:  # graded as far as it went, as `solve -b human` ends: exit 7
        codes.append(Exit.STALLED)


def _partial(stop: KeyboardInterrupt, done: int, total: int) -> str:
    """What stopped the run and what its summary covers, worded as `compare` words it."""
    from sudokulab import errors

    cause = (errors.termination() if isinstance(stop, errors.Terminated)
             or errors.terminated() else "Ctrl-C")
    return (f"stopped by {cause}: {done} of the {total} puzzles finished; "
            + ("the figures cover only those" if done else "nothing to sum up"))


def _sum_up(grades: list[Grade], args: argparse.Namespace, partial: str = "") -> None:
    """The summary table (on stdout for pretty, else on stderr beside the records), under
    a PARTIAL line saying what it covers when the run was cut short."""
    stream = sys.stdout if args.format == "pretty" else sys.stderr
    if partial:
        print(f"PARTIAL: {partial}", file=stream)
    if grades:  # a file of refused puzzles has nothing to sum up or draw
        print(summary(grades), file=stream)
    stream.flush()


class Table:
    """One record per puzzle of the input, in the chosen format: its grade, or (json, csv
    and tsv) why it has none, so that a script reading stdout sees every puzzle."""

    HEADER = ["puzzle", "givens", "solved", "level", "score", "rating", "hardest",
              "techniques", "status", "message"]

    def __init__(self, fmt: str) -> None:
        self.format = fmt
        self.writer = None
        self.done = 0  # puzzles with a record: graded or refused
        if fmt in ("csv", "tsv"):
            self.writer = csv.writer(sys.stdout, lineterminator="\n",
                                     delimiter="," if fmt == "csv" else "\t")
            self.writer.writerow(self.HEADER)

    def row(self, number: int, puzzle, path, grade) -> None:
        """Print one puzzle's grade."""
        from sudokulab.puzzle import line_of

        self.done += 1
        counts = path.counts()
        status = "solved" if path.solved else "stalled"
        message = "" if path.solved else (f"stalled after {len(path.steps)} steps: no "
                                          f"enabled technique applies")
        if self.format == "json":
            print(json.dumps({"puzzle": line_of(puzzle.givens), "solved": path.solved,
                              "level": grade.level, "score": grade.score,
                              "rating": grade.rating, "hardest": grade.hardest,
                              "techniques": counts, "status": status, "message": message}))
        elif self.writer:
            self.writer.writerow([number, line_of(puzzle.givens), path.solved, grade.level,
                                  grade.score, grade.rating, grade.hardest,
                                  ";".join(f"{k}:{v}" for k, v in counts.items()), status,
                                  " ".join(message.split())])
        else:
            state = "" if path.solved else "  (stalled)"
            print(f"#{number}  {grade.level:<7} {grade.score:>6}  {grade.rating:4.1f}  "
                  f"{grade.hardest}{state}")

    def refused(self, number: int, puzzle, status: str, message: str,
                where: str | None = None) -> None:
        """The record of a puzzle without a grade (json, csv, tsv; pretty says it on
        stderr only): its status (bad-input, unsupported, none, several, timeout, error)
        and why."""
        from sudokulab.puzzle import line_of

        self.done += 1
        line = None if puzzle is None else line_of(puzzle.givens)
        if self.format == "json":
            print(json.dumps({"puzzle": line, **({"where": where} if where else {}),
                              "solved": False, "level": None, "score": None, "rating": None,
                              "hardest": None, "techniques": {}, "status": status,
                              "message": message}))
        elif self.writer:
            self.writer.writerow([number, line or "", False, "", "", "", "", "", status,
                                  " ".join(message.split())])


def summary(grades) -> str:
    """A table: puzzles per level (stalled paths apart), with share and mean rating."""
    from tabulate import tabulate

    from sudokulab.human.grading import LEVELS

    rows = []
    total = len(grades) or 1
    for level in LEVELS + ("stalled",):
        those = [g for g in grades if (not g.solved if level == "stalled"
                                       else g.solved and g.level == level)]
        if those:
            rows.append((level, len(those), f"{100 * len(those) / total:.1f}%",
                         f"{sum(g.rating for g in those) / len(those):.2f}",
                         round(sum(g.score for g in those) / len(those))))
    return tabulate(rows, headers=("level", "puzzles", "share", "mean rating", "mean score"),
                    tablefmt="simple")


def histogram(grades, path: str) -> None:
    """A bar chart of puzzles per level, in the format the path's suffix names."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from sudokulab.human.grading import LEVELS

    labels = list(LEVELS) + ["stalled"]
    counts = [sum(1 for g in grades if g.solved and g.level == level) for level in LEVELS]
    counts.append(sum(1 for g in grades if not g.solved))
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.bar(labels, counts, color="#4a7ab5")
    axes.set_ylabel("puzzles")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole puzzles only
    axes.set_title(f"HoDoKu levels of {len(grades)} puzzles")
    for x, count in enumerate(counts):
        axes.annotate(str(count), (x, count), ha="center", va="bottom", fontsize=8)
    figure.tight_layout()
    try:
        figure.savefig(path, format=path.rsplit(".", 1)[-1].lower())
    except OSError as error:
        raise UsageError(f"--plot {path}: cannot write it: {error.strerror or error}") from None
    finally:
        plt.close(figure)
