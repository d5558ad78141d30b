"""`sudokulab show`: a puzzle in another format, or its candidates."""

from __future__ import annotations

import argparse
import sys

from sudokulab.commands.inputs import examples, input_arguments, nonempty, read_entries
from sudokulab.errors import (
    EngineError,
    Exit,
    PuzzleError,
    UsageError,
    error_line,
    exit_help,
    worst,
)
from sudokulab.formats import KEEPS_RULES, WRITERS

DESCRIPTION = ("Print each puzzle in another format (a grid, a line, JSON, a link, a "
               "file format) or with the candidates of each blank cell.")
EXAMPLES = examples(
    "sudokulab show PUZZLE --format candidates",
    "sudokulab show --file puzzles.sdm --format sudokupad")
EXITS = (Exit.OK, Exit.INPUT, Exit.ENGINE, Exit.INTERRUPTED)


FORMATS = ("pretty", "numbers", "candidates", *WRITERS)


def options(p: argparse.ArgumentParser) -> None:
    """The options of `show`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    p.add_argument("--format", choices=FORMATS, default="pretty", metavar="FMT",
                   help="candidates: each blank's digits not ruled out by the givens and the "
                        "rules (units, chess moves, non-consecutive, parity, cage sums); "
                        "also " + ", ".join(FORMATS) + " (json and jsonl: one object "
                        "a line; fpuzzles, sudokupad: a link; euler: Project Euler 96's form)")
    p.add_argument("--after", metavar="LEVEL", type=nonempty,
                   help="the grid and pencil marks where a level of the inference ladder "
                        "stops, no guess taken (e.g. sat:minimal, sat:extended, norvig, "
                        "human:locked, prolog:all_distinct; `sudokulab ladder --help` lists "
                        "them); exit 5 when its engine cannot take the puzzle, or for asp, "
                        "cpsat and smt (known only by their full search) when it took a "
                        "choice")
    p.set_defaults(multi_grid=True)
    p.set_defaults(positions=True)  # a pencil-mark position (human/positions.py) too


def run(args: argparse.Namespace) -> int:
    """Print each puzzle in the chosen format; a bad one of a file is reported and skipped."""
    if args.after and args.format not in ("pretty", "candidates"):
        raise UsageError(f"--after prints the grid and its pencil marks, not --format "
                         f"{args.format}: leave out one")
    entries = read_entries(args)
    puzzles = [entry.puzzle for entry in entries if entry.puzzle is not None]
    lossy = args.format not in ("pretty", "candidates", *KEEPS_RULES)
    dropped = sorted({rule.name for puzzle in puzzles for rule in puzzle.rules}) if lossy else []
    if dropped:
        print(f"sudokulab: note: the {args.format} form cannot hold rules; not shown: "
              f"{', '.join(dropped)} (--format json keeps them)", file=sys.stderr)
    code: int = Exit.OK
    named = len(entries) > 1  # --after skips the puzzles it cannot take: each block says whose
    for number, entry in enumerate(entries, 1):
        if entry.puzzle is None:
            print(error_line(entry.error), file=sys.stderr)
            code = Exit.INPUT
            if args.strict:
                break
            continue
        if not args.after:
            print(_show(entry.puzzle, args.format, number))
            continue
        head = f"{_named(number, entry.source)}: " if named else ""
        try:
            print(head + _after(entry.puzzle, args.after))
        except EngineError as why:  # this puzzle only: the others are still shown
            print(error_line(f"{head}{why}"), file=sys.stderr)
            code = worst((code, Exit.ENGINE))
    return code


def _named(number: int, source: str) -> str:
    """'puzzle 4 of variants.jsonl': a puzzle of a file as `ladder` names it (numbered as
    read, as `grade` and `explain` number theirs)."""
    from sudokulab.commands.ladder import _puzzles  # one wording for both commands

    return f"{_puzzles([number])} of {source}"


def _after(puzzle, level: str) -> str:
    """The pencil marks where a ladder level stops on the puzzle, under a line of figures;
    EngineError when its engine cannot take the puzzle, or has no marks to show (a level
    known only by its full search, which took a choice)."""
    from sudokulab.formats import text
    from sudokulab.human.positions import is_position
    from sudokulab.teaching import ladder

    levels = ladder.choose(level)
    if len(levels) != 1:  # 'all', 'default', a list: the ladder's table compares them
        raise UsageError(f"--after {level} names {len(levels)} levels; show draws one (e.g. "
                         f"--after {levels[0].name}); `sudokulab ladder --file FILE --levels "
                         f"{level}` compares them on a file of puzzles")
    chosen = levels[0]
    deleted = puzzle.deleted() if is_position(puzzle) else []
    if deleted and chosen.engine != "human":  # its marks would be from the digits alone
        raise UsageError(f"--after {chosen.name}: {chosen.engine} starts from the position's "
                         f"digits, not from its pencil marks ({len(deleted)} candidates "
                         f"deleted); the human levels (e.g. --after human:locked) start "
                         f"from them")
    outcome = ladder.after(puzzle, chosen.name)
    why = ladder.without_marks(chosen, outcome)
    if why:
        raise EngineError(f"after {chosen.name}: {why}")
    if outcome.marks is None:
        return f"after {chosen.name}: a contradiction (no solution)"
    marks = [[d + 1 for d in range(puzzle.n) if m >> d & 1] for m in outcome.marks]
    decided = sum(len(m) == 1 for m in marks)
    state = ("finished, the grid checked" if outcome.finished
             else f"{decided} cells decided, {outcome.candidates} candidates left in the others")
    return f"after {chosen.name} ({chosen.what}): {state}\n{text.format_candidates(puzzle, marks)}"


BOARD_FORMATS = ("pretty", "line", "json", "jsonl", "candidates")  # what draws several grids


def _show(puzzle, fmt: str, number: int = 1) -> str:
    """One puzzle in a format (its number heads a Project Euler grid)."""
    from sudokulab.formats import text

    if puzzle.layout is not None and fmt not in BOARD_FORMATS:
        raise PuzzleError(f"the {fmt} form holds one N x N grid; a {puzzle.layout.name} shows "
                          f"as {', '.join(BOARD_FORMATS)}")

    if getattr(puzzle, "marks", None) and fmt in ("candidates", "hodoku", "json"):
        return _position(puzzle, fmt)  # a position shows its own candidates
    if fmt not in ("pretty", "line", "numbers", "json", "candidates"):
        from sudokulab.formats import files

        return files.write_one(puzzle, fmt, number)
    if fmt == "candidates":
        from sudokulab.marks import pencil_marks

        marks = pencil_marks(puzzle)
        head = f"{text.format_rules(puzzle)}\n" if puzzle.rules else ""
        return head + text.format_candidates(puzzle, marks, puzzle.givens)
    if fmt == "pretty" and puzzle.rules:
        return f"{text.format_rules(puzzle)}\n{text.format_grid(puzzle)}"
    writers = {"pretty": text.format_grid, "line": text.format_line, "numbers": text.format_numbers,
               "json": text.to_json}
    return writers[fmt](puzzle)


def _position(position, fmt: str) -> str:
    """A pencil-mark position (human/positions.py) as its candidate grid, as HoDoKu's
    library line with its placed digits and deleted candidates, or as the JSON with
    per-cell candidates that hint and the page read (puzzle, values, candidates)."""
    from sudokulab.formats import text

    if fmt == "json":
        import json

        return json.dumps(position.json_form())

    if fmt == "hodoku":
        return position.library_line()
    marks = [[d] if d else digits for d, digits in zip(position.givens, position.candidates())]
    head = f"{text.format_rules(position)}\n" if position.rules else ""
    return head + text.format_candidates(position, marks, position.givens)
