"""What `explain`, `hint` and `grade` share on the command line: their options, turned into
the lesson service's settings (sudokulab.teaching.lessons), and its refusals said on stderr."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from sudokulab.commands.inputs import timeout_seconds
from sudokulab.errors import UsageError, error_line
from sudokulab.teaching.verdict import REFEREES

if TYPE_CHECKING:
    from sudokulab.backends.base import CtrlC
    from sudokulab.teaching.lessons import Settings, Walk


def technique_options(p: argparse.ArgumentParser) -> None:
    """--techniques LIST | --upto NAME, --uniqueness, --list and --timeout."""
    # a samurai is read, then refused by the lesson service as unsupported (exit 5, and a
    # record in grade's json/csv), as a rule no technique knows is
    p.set_defaults(multi_grid=True)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--techniques", metavar="LIST",
                       help="only these techniques (comma list of names, e.g. "
                            "'naked single,hidden single'); see `sudokulab explain --list`")
    which.add_argument("--upto", metavar="NAME",
                       help="every technique up to and including NAME, in the list's order "
                            "(NAME used only when named: the default ones before it, and it)")
    p.add_argument("--uniqueness", choices=("auto", "yes", "no"), default="auto",
                   help="uniqueness techniques (Unique Rectangles, BUG+1): auto and yes use "
                        "them (every puzzle that gets this far has one solution, proven "
                        f"by the referee: {REFEREES}), no never uses them")
    p.add_argument("--list", action="store_true", help="list the techniques, easiest first")
    p.add_argument("--timeout", "-t", type=timeout_seconds, default=60.0, metavar="S",
                   help="give up on a puzzle after S seconds (default 60; 0 or inf: never)")


def refuse_unused(args: argparse.Namespace) -> None:
    """UsageError for a puzzle or a choice of techniques given with --list, which lists
    every technique and solves nothing."""
    given = [name for name, value in (("PUZZLE", args.puzzle), ("--file", args.file),
                                      ("--techniques", args.techniques), ("--upto", args.upto))
             if value is not None]
    if args.list and given:
        raise UsageError(f"--list lists every technique and solves nothing: leave out "
                         f"{', '.join(given)}")


def chosen(args: argparse.Namespace):
    """The techniques the options select; UsageError for an unknown name or none."""
    chosen = settings(args)
    if chosen.techniques is not None and not any(t.strip() for t in chosen.techniques):
        raise UsageError(f"--techniques {args.techniques!r} names no technique; "
                         f"see `sudokulab explain --list`")
    selected = chosen.selected()  # UnknownTechnique (a UsageError) for a bad name
    assuming = [t.name for t in selected if t.uniqueness]
    if chosen.techniques is not None and args.uniqueness == "no" and assuming:
        raise UsageError(f"--uniqueness no leaves out what assumes one solution, and "
                         f"--techniques names {', '.join(assuming)}: leave out one or the "
                         f"other")
    return selected


def settings(args: argparse.Namespace) -> Settings:
    """The lesson settings the options give (sudokulab.teaching.lessons)."""
    from sudokulab.teaching.lessons import Settings

    techniques = None if args.techniques is None else tuple(args.techniques.split(","))
    return Settings(techniques=techniques, upto=args.upto, uniqueness=args.uniqueness,
                    seconds=args.timeout)


def listing(form: str = "pretty") -> str:
    """The techniques, easiest first, with tier, HoDoKu level and score, SE-like rating;
    then HoDoKu's catalogue by code. In JSON (`--format json`), one object with both."""
    from tabulate import tabulate

    from sudokulab.human import grading, names, solver

    if form == "json":
        codes = [dict(zip(("code", "name", "level", "score", "lab"), row))
                 for row in names.catalogue_rows(solver.BY_NAME)]
        return json.dumps({"techniques": grading.records(), "hodoku": codes})

    rows = [(k, t.name, solver.TIERS[t.tier], *grading.TABLE[t.name],
             "yes" if t.uniqueness else "", "" if t.by_default else "when named")
            for k, t in enumerate(solver.ALL, 1)]
    return tabulate(rows, headers=("#", "technique", "tier", "HoDoKu level", "score",
                                   "SE-like", "assumes uniqueness", "used"),
                    tablefmt="simple") + (
        "\n\nHoDoKu's techniques by code (--techniques takes a code or name):\n"
        + names.listing(solver.BY_NAME))


def deadline(args: argparse.Namespace) -> Callable[[], bool]:
    """A `stop` for the human solver: whether this puzzle's --timeout has passed."""
    from sudokulab.teaching import lessons

    return lessons.deadline(args.timeout)


def judged(number: int, puzzle, args: argparse.Namespace):
    """the referee's unique answer for the puzzle, or the lesson service's Refusal after saying
    on stderr why there is no step to give: rules no technique knows (its code 5), no
    solution (1), several (6), timeout (3)."""
    from sudokulab.teaching import lessons

    answer = lessons.judge(puzzle, args.timeout)
    if isinstance(answer, lessons.Refusal):
        print(error_line(f"puzzle {number}: {answer.message}"), file=sys.stderr)
    return answer


def unique(args: argparse.Namespace) -> bool:
    """Whether uniqueness techniques may be used (the verdict proved one solution)."""
    return settings(args).unique


def walk(puzzle, techniques, args: argparse.Namespace,
         stop: Callable[[], bool] | None = None) -> Walk:
    """The human path through a puzzle within --timeout (or until `stop`), and its grade."""
    from sudokulab.teaching import lessons

    return lessons.walk(puzzle, techniques, unique(args), stop or deadline(args))


@contextlib.contextmanager
def stoppable(args: argparse.Namespace) -> Iterator[tuple[Callable[[], bool], CtrlC]]:
    """The techniques' `stop` for one puzzle: --timeout, or Ctrl-C (SIGTERM too where it
    stands for Ctrl-C), which sets the key's `pressed` instead of raising, so that the
    steps found so far are printed; the caller then raises KeyboardInterrupt (130/143)."""
    from sudokulab.backends.base import ctrl_c

    timed = deadline(args)
    with ctrl_c(lambda: None) as key:
        yield (lambda: key.pressed or timed()), key


def explainable(args: argparse.Namespace, codes: list[int]):
    """(number, puzzle, the referee's answer) for each puzzle of the input that has exactly one
    solution; each other puzzle is reported and adds its exit code to `codes`."""
    from sudokulab.commands.inputs import each_puzzle
    from sudokulab.teaching.lessons import Refusal

    for number, puzzle in each_puzzle(args, codes):
        answer = judged(number, puzzle, args)
        if isinstance(answer, Refusal):
            codes.append(answer.code)
        else:
            yield number, puzzle, answer
