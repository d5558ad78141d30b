"""`sudokulab hint`: the easiest next human-style step."""

from __future__ import annotations

import argparse
import json
import sys

from sudokulab.commands import steps
from sudokulab.commands.inputs import examples, input_arguments
from sudokulab.errors import Exit, error_line, exit_help, judged_so_far, stopped_by, worst
from sudokulab.teaching.verdict import REFEREES

DESCRIPTION = ("The easiest next step only, on the puzzle's pencil marks, or (--all) every "
               "step each technique finds. PUZZLE may be a pencil-mark position: HoDoKu's "
               "library line, a candidate grid, the 729-character pencil-mark string or JSON "
               "with candidates (docs/formats.md). Given only once a search engine "
               f"({REFEREES}) proves the puzzle has one "
               "solution: one with none or several is refused at once, saying which.")
EXAMPLES = examples(
    "sudokulab hint 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",  # noqa: E501  (a puzzle to copy whole)
    "sudokulab hint PUZZLE --upto 'hidden single' --format json",
    "sudokulab hint ':0000:x:6...8..4..+4.....862..4.67+5.+1+5397+486+2.7...+3+51+4+462+5183+9+7..61.2+4+7572+4+8...+3..1..4+7.+28:314 916 921 325 925 932 933 371 985 991::' --all --upto 'xy-wing'")  # noqa: E501  (a HoDoKu library line to copy whole)
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.TIMEOUT, Exit.ENGINE, Exit.SEVERAL,
         Exit.STALLED, Exit.INTERRUPTED)
refuse_unused = steps.refuse_unused  # --list with a puzzle: a usage error


def options(p: argparse.ArgumentParser) -> None:
    """The options of `hint`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    steps.technique_options(p)
    p.add_argument("--all", action="store_true",
                   help="every step each enabled technique finds in the position, not only "
                        "the easiest: grouped by technique (pretty), or one JSON object a "
                        "line per step (json)")
    p.add_argument("--format", choices=("pretty", "json"), default="pretty",
                   help="pretty (default): the step's notation and sentence; json: the step "
                        "as an object (null when there is none)")
    p.set_defaults(positions=True)  # a pencil-mark position (human/positions.py) too


def run(args: argparse.Namespace) -> int:
    """Print the easiest next step of each puzzle."""
    if args.list:
        print(steps.listing(args.format))
        return Exit.OK
    techniques = steps.chosen(args)
    codes: list[int] = [Exit.OK]
    with judged_so_far(codes):  # `| head`: the outcomes judged before it still count
        for number, puzzle, _ in steps.explainable(args, codes):
            if args.all:
                every_step(number, puzzle, techniques, args, codes)
            else:
                easiest_step(number, puzzle, techniques, args, codes)
    return worst(codes)


def easiest_step(number: int, puzzle, techniques, args: argparse.Namespace,
                 codes: list[int]) -> None:
    """Print the puzzle's easiest step; its exit code in `codes` (3 at --timeout, 7 when no
    technique applies to a grid not full)."""
    from sudokulab.teaching import lessons

    try:
        step = lessons.next_step(puzzle, techniques, steps.unique(args), steps.deadline(args))
    except lessons.Stopped:
        print(error_line(f"puzzle {number}: no step found within --timeout "
                         f"{args.timeout:g} s"), file=sys.stderr)
        codes.append(Exit.TIMEOUT)
        return
    full = all(puzzle.givens)
    if step is None and not full:  # the techniques stop short, as `solve -b human`
        codes.append(Exit.STALLED)
    if args.format == "json":
        print(json.dumps(step.to_json(puzzle.n) if step else None))
    elif step is None:
        print("no step: the puzzle is full" if full else
              "no step: no enabled technique applies (try more techniques)")
    else:
        print(f"{step.notation}\n{step.sentence}")


def every_step(number: int, puzzle, techniques, args: argparse.Namespace,
               codes: list[int]) -> None:
    """Print every step each enabled technique finds (hint --all); its exit code in
    `codes`, before the steps are printed: 3 at --timeout, 7 when none applies to a grid
    not full."""
    from sudokulab.teaching import lessons

    with steps.stoppable(args) as (stop, key):
        try:
            found = lessons.every_step(puzzle, techniques, steps.unique(args), stop)
        except lessons.Stopped as stopped:
            found = getattr(stopped, "found", [])
            line = f"puzzle {number}: %s; the steps found before it follow"
            print(f"sudokulab: {line % stopped_by()}" if key.pressed else
                  error_line(line % f"stopped at --timeout {args.timeout:g} s"), file=sys.stderr)
            codes.append(Exit.TIMEOUT)
        else:
            if not found and not all(puzzle.givens):
                codes.append(Exit.STALLED)
    n = puzzle.n
    if args.format == "json":
        for _, found_steps in found:
            for step in found_steps:
                print(json.dumps({"puzzle": number, **step.to_json(n)}))
    elif not found:
        print("no step: the puzzle is full" if all(puzzle.givens) else
              "no step: no enabled technique applies (try more techniques)")
    else:
        for name, found_steps in found:
            print(f"{name} ({len(found_steps)}):")
            for step in found_steps:
                print(f"  {step.notation}")
    if key.pressed:  # the steps found are printed: now stop, as Ctrl-C asks
        sys.stdout.flush()
        raise KeyboardInterrupt
