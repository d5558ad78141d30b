"""What `explain`, `hint` and `grade` share: choosing the techniques, the time limit, and
the verdict of a search engine before any step (sudokulab.human.verdict)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from sudokulab.commands.inputs import timeout_seconds
from sudokulab.errors import EXIT_ENGINE, UsageError, error_line


def technique_options(p: argparse.ArgumentParser) -> None:
    """--techniques LIST | --upto NAME, --uniqueness, --list and --timeout."""
    which = p.add_mutually_exclusive_group()
    which.add_argument("--techniques", metavar="LIST",
                       help="only these techniques (comma list of names, e.g. "
                            "'naked single,hidden single'); see `sudokulab explain --list`")
    which.add_argument("--upto", metavar="NAME",
                       help="every technique up to and including NAME, in the list's order")
    p.add_argument("--uniqueness", choices=("auto", "yes", "no"), default="auto",
                   help="uniqueness techniques (Unique Rectangles, BUG+1): auto and yes use "
                        "them (every puzzle that gets this far has one solution, proven "
                        "by norvig), no never uses them")
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
    from sudokulab.human import solver

    if args.techniques is not None:
        names = [t for t in args.techniques.split(",") if t.strip()]
        if not names:
            raise UsageError(f"--techniques {args.techniques!r} names no technique; "
                             f"see `sudokulab explain --list`")
        return solver.select(names=names)  # UnknownTechnique (a UsageError) for a bad name
    return solver.select(upto=args.upto)


def listing() -> str:
    """The techniques, easiest first, with tier, HoDoKu level and score, SE-like rating."""
    from tabulate import tabulate

    from sudokulab.human import grading, solver

    rows = [(k, t.name, solver.TIERS[t.tier], *grading.TABLE[t.name],
             "yes" if t.uniqueness else "")
            for k, t in enumerate(solver.TECHNIQUES, 1)]
    return tabulate(rows, headers=("#", "technique", "tier", "HoDoKu level", "score",
                                   "SE-like", "assumes uniqueness"), tablefmt="simple")


def deadline(args: argparse.Namespace) -> Callable[[], bool]:
    """A `stop` for the human solver: whether this puzzle's --timeout has passed."""
    if args.timeout is None:
        return lambda: False
    end = time.monotonic() + args.timeout
    return lambda: time.monotonic() > end


def judged(number: int, puzzle, args: argparse.Namespace):
    """norvig's unique answer for the puzzle, or the exit code after saying why there is
    no step to give: rules no technique knows (5), no solution (1), several (6), timeout (3).
    """
    from sudokulab.human import solver, verdict

    reason = solver.refusal(puzzle)
    if reason:
        print(error_line(f"puzzle {number}: {reason}"), file=sys.stderr)
        return EXIT_ENGINE
    answer = verdict.referee(puzzle, args.timeout)
    why = verdict.objection(answer)
    if why:
        print(error_line(f"puzzle {number}: {why}"), file=sys.stderr)
        return verdict.exit_code(answer)
    return answer


def unique(args: argparse.Namespace) -> bool:
    """Whether uniqueness techniques may be used (the verdict proved one solution)."""
    return args.uniqueness != "no"


def walk(puzzle, techniques, args: argparse.Namespace):
    """The human path through a puzzle within --timeout, and its grade."""
    from sudokulab.human import grading, solver

    stop, uniqueness = deadline(args), unique(args)
    path = solver.solve(puzzle, techniques, unique=uniqueness, stop=stop)
    return path, grading.grade_path(path, techniques, unique=uniqueness, stop=stop)


def explainable(args: argparse.Namespace, codes: list[int]):
    """(number, puzzle, norvig's answer) for each puzzle of the input that has exactly one
    solution; each other puzzle is reported and adds its exit code to `codes`."""
    from sudokulab.commands.inputs import each_puzzle

    for number, puzzle in each_puzzle(args, codes):
        answer = judged(number, puzzle, args)
        if isinstance(answer, int):
            codes.append(answer)
        else:
            yield number, puzzle, answer
