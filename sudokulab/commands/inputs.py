"""Input shared by the commands: PUZZLE, '-' or --file, the box shape, variant rules,
and the backend a spec names. Every command that reads puzzles reads them here."""

from __future__ import annotations

import argparse
import sys
from typing import overload

from sudokulab import rules as R
from sudokulab.errors import PuzzleError, UsageError
from sudokulab.formats import BLANKS, READERS


def timeout_seconds(text: str) -> float | None:
    """argparse type of every command's --timeout: seconds above 0, or 0 (or inf) for no
    limit (None); a negative number, NaN or no number is a usage error naming the option."""
    from sudokulab.errors import seconds, time_limit

    try:
        return time_limit(seconds(text))  # argparse's error for text that is no number
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be 0 (none) or more seconds, not {text}") \
            from None


def given(args: argparse.Namespace, *names: str, present: tuple[str, ...] = ()) -> list[str]:
    """The options among `names` given on the command line, spelt as typed (--input-format):
    one whose default is None or False when it holds anything else; one of `present`,
    whose default is argparse.SUPPRESS, when it is there at all (--timeout 0 holds None)."""
    return [f"--{name.replace('_', '-')}" for name in names
            if name in present and name in vars(args)
            or getattr(args, name, None) is not None and getattr(args, name) is not False]


def nonempty(text: str) -> str:
    """argparse type of every path and name: any text but an empty one (which the command
    would take for no option at all, and silently ignore)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a name, not an empty one")
    return text


def rereadable(path: str | None) -> None:
    """UsageError for `--file -` in a run that can be resumed (compare, ladder): its file
    is read again on --resume, and standard input is read once."""
    if path is not None and path.strip() == "-":
        raise UsageError("--file -: this command reads its puzzles from a file it can read "
                         "again (a stopped run goes on with --resume), not from standard "
                         "input: save the puzzles to a file and name it")


def rule_value(text: str) -> str:
    """argparse type of a rule option's value: not empty, blank or commas alone (an empty
    value was dropped by one spelling and kept as a rule with nothing in it by another)."""
    if not text.replace(",", "").strip():
        raise argparse.ArgumentTypeError("needs a value, not an empty one")
    return text


class Once(argparse.Action):
    """An option that holds a whole rule, given at most once: a second one would silently
    replace the first (its marks, its 'negative')."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        if getattr(namespace, self.dest) is not None:
            parser.error(f"{option_string} given twice: give every mark of the rule in one "
                         f"{option_string} (a comma list)")
        setattr(namespace, self.dest, values)


def input_arguments(parser: argparse.ArgumentParser) -> None:
    """PUZZLE | - | --file F, and the box shape."""
    parser.add_argument("puzzle", nargs="?", metavar="PUZZLE",
                        help=f"a puzzle: a line of N*N symbols ({', '.join(BLANKS)} for "
                             "blanks), a grid, numbers separated by commas, JSON, or an "
                             "f-puzzles or SudokuPad link; '-' reads standard input")
    parser.add_argument("--file", "-f", metavar="F", type=nonempty,
                        help="read puzzles from a file (one per line, grids, JSON Lines, a "
                             "JSON array, .sdk/.sdm/.ss, Project Euler, HoDoKu, forum lines, "
                             "links; .gz works)")
    parser.add_argument("--input-format", default="auto", metavar="FMT",
                        choices=READERS,
                        help=f"how to read the input: {', '.join(READERS)} "
                             f"(default auto: detected line by line)")
    parser.add_argument("--strict", action="store_true",
                        help="stop at the first bad puzzle of a file (by default each is "
                             "reported with its file and line and skipped; exit code 2)")
    parser.add_argument("--box", metavar="RxC",
                        help="box shape when it is not the squarest one (e.g. 3x2)")
    rules = parser.add_argument_group("variant rules (added to every puzzle read)")
    rules.add_argument("--rules", metavar="LIST", type=rule_value, action="append", default=[],
                       help=f"comma list of: {R.rule_names()}")
    rules.add_argument("--rule", metavar="NAME", action="append", default=[],
                       help=f"one rule by name (repeatable): {R.summaries()}")
    rules.add_argument("--cage", metavar="CELLS=SUM", action="append", default=[],
                       help="a killer cage, e.g. 'r1c1,r1c2=10' (repeatable)")
    rules.add_argument("--even", metavar="CELLS", type=rule_value, action="append", default=[],
                       help="cells that hold even digits, e.g. r1c1,r5c5")
    rules.add_argument("--odd", metavar="CELLS", type=rule_value, action="append", default=[],
                       help="cells that hold odd digits")
    rules.add_argument("--regions", metavar="REGIONS", type=rule_value, action=Once,
                       help="jigsaw: N*N region labels row by row, e.g. 'AAABBB...'")
    rules.add_argument("--line", metavar="KIND:CELLS", action="append", default=[],
                       help=f"{R.rule_names(R.LINES)} along cells, e.g. "
                            "'thermometer:r1c1,r1c2,r1c3' (bulb or circle first; repeatable)")
    rules.add_argument("--little-killer", metavar="CELLS=SUM", action="append", default=[],
                       help="a diagonal sum, e.g. 'r1c2,r2c3,r3c4=15' (repeatable)")
    rules.add_argument("--kropki", metavar="MARKS", type=rule_value, action=Once,
                       help="dots: 'w:r1c1-r1c2,b:r2c1-r2c2' (white consecutive, black ratio "
                            "2); add ',negative' when no dot means neither")
    rules.add_argument("--sandwich", metavar="LINE=SUM", action="append", default=[],
                       help="digits between the 1 and the N of a row or column add up to "
                            "SUM, e.g. 'r3=10' or 'c5=0' (repeatable)")
    rules.add_argument("--consecutive", metavar="PAIRS", type=rule_value, action=Once,
                       help="consecutive marks 'r1c1-r1c2,r3c3-r4c3'; every other pair of "
                            "orthogonal neighbours is not consecutive")
    rules.add_argument("--xv", metavar="MARKS", type=rule_value, action=Once,
                       help="marks: 'x:r1c1-r1c2,v:r2c1-r2c2' (sum 10, sum 5); add "
                            "',negative' when no mark means neither")


def read_input(args: argparse.Namespace) -> list:
    """The puzzles named by PUZZLE, '-' or --file; PuzzleError at the first bad one."""
    entries = read_entries(args)
    for entry in entries:
        if entry.puzzle is None:
            raise PuzzleError(entry.error)
    return [entry.puzzle for entry in entries]


def each_puzzle(args: argparse.Namespace, codes: list[int]):
    """(number, puzzle) for each good puzzle of the input, numbered as read; a bad one is
    reported on stderr with its file and line and adds exit code 2 to `codes` (--strict:
    the command stops there, after those before it)."""
    from sudokulab.errors import Exit, error_line

    for number, entry in enumerate(read_entries(args), 1):
        if entry.puzzle is None:
            print(error_line(entry.error), file=sys.stderr)
            codes.append(Exit.INPUT)
            if args.strict:
                return
            continue
        yield number, entry.puzzle


def read_entries(args: argparse.Namespace) -> list:
    """Entries (a puzzle, or a bad one's error with file and line) of PUZZLE, '-' or --file.

    A single PUZZLE argument that is not a puzzle raises PuzzleError at once.
    """
    box = box_shape(args.box)
    rules = rules_from_args(args)
    fmt = getattr(args, "input_format", "auto")
    if args.file and args.puzzle:
        raise UsageError("give a PUZZLE or --file, not both")
    if getattr(args, "positions", False) and fmt in ("auto", "hodoku"):
        found = position_entries(args, box, rules, fmt)
        if found is not None:
            return single_grids(args, found)
    if args.puzzle and args.puzzle != "-":  # one puzzle: no file reader to import
        from types import SimpleNamespace

        puzzle = parse_argument(args.puzzle, box, rules, fmt)
        return single_grids(args, [SimpleNamespace(source="<argument>", line=1, puzzle=puzzle,
                                                   error="", where="<argument>:1")])
    from sudokulab.formats import files

    if args.file:
        entries = files.read_file(args.file, box, rules, fmt)
    elif args.puzzle == "-":
        entries = files.read_stream(sys.stdin, "<stdin>", box, rules, fmt)
    else:
        raise UsageError("no puzzle: give PUZZLE, '-' for standard input, or --file F")
    if not entries:
        raise UsageError("no puzzle found in the input")
    if args.file and not getattr(args, "positions", False) and \
            all(entry.puzzle is None for entry in entries):
        _refuse_position(args.file)  # (hint and the others read positions themselves)
    return single_grids(args, entries)


def _refuse_position(path: str) -> None:
    """PuzzleError, in one line, for a file of no puzzle that holds a pencil-mark position
    (a command that reads puzzles would list each of its lines as a wrong length)."""
    import os

    from sudokulab.formats import files
    from sudokulab.human.positions import holds_position

    if path != "-" and os.path.isfile(path) and os.path.getsize(path) <= POSITION_FILE \
            and holds_position(files.file_text(path)):
        raise PuzzleError(f"{path} holds a pencil-mark position, not puzzles: hint, "
                          f"explain, grade and show read positions")


POSITION_FILE = 1 << 20  # bytes: a larger file is read as puzzles, never as positions


def position_entries(args: argparse.Namespace, box: tuple[int, int] | None, rules: tuple,
                     fmt: str) -> list | None:
    """The entries of the pencil-mark positions (sudokulab.human.positions) that PUZZLE,
    '-' or --file holds, for the commands that start from one (hint, explain, grade, show);
    None when it holds none. Standard input, once read, is read as puzzles here too."""
    import os
    from types import SimpleNamespace

    from sudokulab.formats import files
    from sudokulab.human import positions

    if args.puzzle and args.puzzle != "-":
        source, text = "<argument>", args.puzzle
    elif args.puzzle == "-" or args.file == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)
        if stream is None:
            return None  # read_stream says it is closed
        source, text = "<stdin>", files._read_all(stream, "<stdin>")
    elif args.file and os.path.isfile(args.file) and \
            os.path.getsize(args.file) <= POSITION_FILE:
        source, text = args.file, files.file_text(args.file)
    else:
        return None
    found = positions.read_positions(text, box, rules)
    if found is None:
        if source != "<stdin>":
            return None
        entries = files.read_text(text, source, box, rules, fmt)  # consumed: puzzles here
        if not entries:
            raise UsageError("no puzzle found in the input")
        return entries
    if source == "<argument>" and isinstance(found[0][1], str):
        raise PuzzleError(found[0][1])
    return [SimpleNamespace(source=source, line=line, where=f"{source}:{line}",
                            puzzle=None if isinstance(got, str) else got,
                            error=f"{source}:{line}: {got}" if isinstance(got, str) else "")
            for line, got in found]


def single_grids(args: argparse.Namespace, entries: list) -> list:
    """The entries, unless a command that takes one N x N grid met a samurai: PuzzleError."""
    if not getattr(args, "multi_grid", False):
        for entry in entries:
            if entry.puzzle is not None and entry.puzzle.layout is not None:
                raise PuzzleError(f"{entry.where}: a {entry.puzzle.layout.name} has several "
                                  f"grids; solve, show, model and export take it, this command "
                                  f"takes one N x N grid")
    return entries


def rules_from_args(args: argparse.Namespace) -> tuple:
    """The variant rules named by --rules, --rule, --cage, --even, --odd, --regions, ...;
    the rules' forms raise their own one-line errors (rules.py)."""
    rules = [rule for text in args.rules for name in text.split(",") if name.strip()
             for rule in R.named(name)]
    rules += [rule for name in args.rule for rule in R.named(name)]
    rules += [R.parse_cage(text) for text in args.cage]
    rules += [R.Parity(R.parse_cells(text), True) for text in args.even]
    rules += [R.Parity(R.parse_cells(text), False) for text in args.odd]
    if args.regions:
        rules.append(R.parse_regions(args.regions))
    rules += [R.parse_line(text) for text in args.line]
    rules += [R.parse_little_killer(text) for text in args.little_killer]
    rules += [R.parse_marks(kind, text) for kind, text in
              (("kropki", args.kropki), ("xv", args.xv)) if text]
    if args.consecutive:
        rules.append(R.parse_pairs(args.consecutive))
    rules += [R.parse_sandwich(text) for text in args.sandwich]
    return tuple(dict.fromkeys(rules))  # a rule named twice counts once


def parse_argument(text: str, box: tuple[int, int] | None, rules: tuple, fmt: str = "auto"):
    """A puzzle given on the command line, with a hint when it looks like a file name."""
    from sudokulab.formats.text import parse

    if fmt == "auto" and text.lstrip().startswith(":"):
        fmt = "hodoku"  # a HoDoKu library line, read as --file reads it (its givens)
    try:
        if fmt not in ("auto", "lines"):
            from sudokulab.formats import files

            return files.puzzles(files.read_text(text, "<argument>", box, rules, fmt))[0]
        return parse(text, box=box, rules=rules)
    except PuzzleError as error:
        if is_file(text):
            raise PuzzleError(f"{error} (to read the file {text!r}, use --file)") from None
        if looks_like_a_file_name(text):
            raise PuzzleError(f"{text!r} looks like a file name, not a puzzle, and there is "
                              f"no such file; to read a file, use --file") from None
        raise


def looks_like_a_file_name(text: str) -> bool:
    """Whether text reads as a path ('puzzles.txt', 'data/p.sdk') rather than a puzzle."""
    import re

    return bool(re.fullmatch(r"[\w./~-]*[A-Za-z_][\w-]*\.[A-Za-z][A-Za-z0-9]{0,4}", text)
                or ("/" in text and not text.startswith(("http://", "https://"))
                    and re.search(r"[A-Za-z]{2}", text)))


def is_file(text: str) -> bool:
    """Whether text names an existing file (False for text no file name can be)."""
    import os

    try:
        return os.path.isfile(text)
    except (OSError, ValueError):  # too long for a file name, or a NUL byte in it
        return False


@overload
def box_shape(text: str) -> tuple[int, int]: ...
@overload
def box_shape(text: None) -> None: ...
def box_shape(text: str | None) -> tuple[int, int] | None:
    """(rows, cols) from --box '3x2' (None when not given); UsageError saying what is wrong."""
    from sudokulab.puzzle import parse_box

    return None if text is None else parse_box(text)


def backend(spec: str):
    """The backend a spec names; BackendError (a UsageError) for an unknown name or option."""
    from sudokulab.backends import make_backend

    return make_backend(spec)


def unavailable(engine) -> str:
    """Why a backend cannot run here ('' when it can), with the fix."""
    availability = engine.available()
    if availability.ok:
        return ""
    fix = f"; {availability.fix}" if availability.fix else ""
    return f"backend {engine.name} is not available: {availability.reason}{fix}"


def examples(*lines: str) -> str:
    """The 'examples' section of a --help."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


PICTURES = (".png", ".svg", ".pdf")  # what the plots are written as, by the file's suffix


def picture_path(option: str, text: str) -> str:
    """An output path for a plot, checked before any work: its suffix names a format we
    write, and it is no folder; UsageError otherwise."""
    import os

    suffix = os.path.splitext(text)[1].lower()
    if suffix not in PICTURES:
        raise UsageError(f"{option} {text}: name a {', '.join(PICTURES)} file (the suffix "
                         f"says the format)")
    if os.path.isdir(text):
        raise UsageError(f"{option} {text}: is a folder; name a file in it")
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {text}: no folder {folder}")
    return text
