"""`sudokulab explain`: the numbered human-style steps that solve a puzzle, and its grade."""

from __future__ import annotations

import argparse
import json
import sys

from sudokulab.commands import steps
from sudokulab.commands.inputs import examples, input_arguments
from sudokulab.errors import Exit, error_line, exit_help, stopped_by, whole, worst
from sudokulab.teaching.verdict import REFEREES

DESCRIPTION = ("The numbered steps a human solver takes, easiest technique first (HoDoKu's "
               "catalogue and notation), with one plain sentence each, and the grade. A "
               f"puzzle is explained only once a search engine ({REFEREES}) "
               "proves it has one solution: one with none or "
               "several is refused at once, saying which.")
EXAMPLES = examples(
    "sudokulab explain ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",  # noqa: E501  (a puzzle to copy whole)
    "sudokulab explain --file puzzles.txt --upto 'x-wing' --format json",
    "sudokulab explain --list")
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.TIMEOUT, Exit.DISAGREE, Exit.ENGINE,
         Exit.SEVERAL, Exit.STALLED, Exit.INTERRUPTED)
refuse_unused = steps.refuse_unused  # --list with a puzzle: a usage error


def options(p: argparse.ArgumentParser) -> None:
    """The options of `explain`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    steps.technique_options(p)
    p.add_argument("--format", choices=("pretty", "json"), default="pretty",
                   help="pretty (default), or one JSON object per puzzle: puzzle, solved, "
                        "stopped, level, score, rating (null when stopped), steps "
                        "(technique, placements, eliminations as [row, col, digit] counted "
                        "from 1, text), and verified with --verify")
    p.add_argument("--verify", action="store_true",
                   help=f"check every step against the solution the referee finds ({REFEREES}): "
                        "no placement may differ from it, no elimination may remove its "
                        "digit (exit 4 if one does)")
    p.set_defaults(positions=True)  # a pencil-mark position (human/positions.py) too


def run(args: argparse.Namespace) -> int:
    """Print each puzzle's numbered steps and grade; with --verify, check every step."""
    if args.list:
        print(steps.listing(args.format))
        return Exit.OK
    from sudokulab.puzzle import line_of
    from sudokulab.teaching import lessons

    techniques = steps.chosen(args)
    codes: list[int] = [Exit.OK]
    for number, puzzle, answer in steps.explainable(args, codes):
        with steps.stoppable(args) as (stop, key):
            walked = steps.walk(puzzle, techniques, args, stop)
        path, grade = walked.path, walked.grade
        wrong = lessons.wrong_moves(path.steps, answer, puzzle.n) if args.verify else []
        if args.format == "json":
            graded = not path.stopped  # a stopped path has no grade, as in `grade`
            text = json.dumps({"puzzle": line_of(puzzle.givens), "solved": path.solved,
                               "stopped": path.stopped,
                               "level": grade.level if graded else None,
                               "score": grade.score if graded else None,
                               "rating": grade.rating if graded else None,
                               "steps": [s.to_json(puzzle.n) for s in path.steps],
                               **({"verified": not wrong} if args.verify else {})})
        else:
            text = explanation(puzzle, path, grade, stopped_by() if key.pressed else "")
        with whole():  # a signal waits for the record's end: a JSON line is never cut
            print(text)
        if key.pressed:  # the steps found are printed: now stop, as Ctrl-C asks
            sys.stdout.flush()
            raise KeyboardInterrupt
        ending = walked.ending
        if ending != "solved":
            print(ending_line(number, ending, path, args.timeout), file=sys.stderr)
            codes.append(lessons.ENDINGS[ending])
        for problem in wrong:
            print(f"sudokulab: error: puzzle {number}: {problem}", file=sys.stderr)
        if args.verify and not wrong:
            print(f"verified: all {len(path.steps)} steps agree with the referee's solution",
                  file=sys.stderr)
        codes.append(Exit.DISAGREE if wrong else Exit.OK)
    return worst(codes)


def ending_line(number: int, ending: str, path, timeout: float | None) -> str:
    """The stderr line for a walk that did not solve the puzzle: stopped, broken, stalled."""
    count = len(path.steps)
    if ending == "timeout":
        return f"sudokulab: puzzle {number}: stopped at --timeout {timeout:g} s after {count} steps"
    if ending == "broken":  # the steps contradict the referee's solution: one is wrong
        return error_line(f"puzzle {number}: the steps reach a contradiction "
                          f"({path.contradiction}) although the referee finds a solution")
    # as `solve -b human` ends: no answer
    return (f"sudokulab: puzzle {number}: stalled after {count} steps: no enabled technique "
            f"applies (try more techniques)")


def explanation(puzzle, path, grade, interrupted: str = "") -> str:
    """The numbered steps, each with its sentence, then the grade or where they stopped
    (`interrupted`: the words for the signal that stopped them, '' for the time limit)."""
    from sudokulab.formats.text import format_grid

    width = len(str(len(path.steps)))
    lines = []
    for k, step in enumerate(path.steps, 1):
        lines.append(f"{k:>{width}}. {step.notation}")
        lines.append(f"{'':>{width}}  {step.sentence}")
    if path.solved:
        hardest = f" (hardest: {grade.hardest})" if grade.hardest else ""  # none: no step
        lines.append(f"solved in {len(path.steps)} steps: level {grade.level}, score "
                     f"{grade.score}, rating {grade.rating:.1f}{hardest}")
        return "\n".join(lines)
    if path.broken:  # the referee found a solution: a contradiction here is a wrong step
        lines.append(f"contradiction after {len(path.steps)} steps: {path.contradiction}; "
                     f"the grid so far:")
    elif path.stopped:
        lines.append(f"{interrupted or 'stopped at the time limit'} after {len(path.steps)} "
                     f"steps; the grid so far:")
    else:
        lines.append(f"stalled after {len(path.steps)} steps: no enabled technique applies; "
                     f"the grid so far:")
    lines.append(format_grid(puzzle.with_values(path.grid)))
    return "\n".join(lines)
