"""`sudokulab read IMAGE`: a puzzle from a photo (the reader itself is sudokulab.vision,
whose OpenCV is imported only when the command runs)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from sudokulab.backends.extras import need
from sudokulab.commands.answers import stdout_to_stderr
from sudokulab.commands.inputs import backend as engine_named
from sudokulab.commands.inputs import box_shape, examples, nonempty, unavailable
from sudokulab.errors import (
    Exit,
    GridNotFound,
    InputError,
    UsageError,
    WrongSize,
    error_line,
    exit_help,
    positive_int,
)
from sudokulab.formats.text import format_grid, puzzle_data
from sudokulab.puzzle import line_of
from sudokulab.rules import cell_name

if TYPE_CHECKING:  # OpenCV and numpy: imported when the command runs, not for its --help
    from sudokulab.vision import read as R
    from sudokulab.vision.correct import Correction

CODES = {"unique": Exit.OK, "none": Exit.NONE, "multiple": Exit.NONE, "invalid": Exit.DISAGREE,
         "stalled": Exit.STALLED}
DESCRIPTION = ("Read a puzzle from a photo or screenshot: find the grid, straighten it, read "
               "each cell. A solver engine then checks the puzzle read: one with no solution "
               "or several is read again, trying the classifier's next-best readings of its "
               "least confident cells until one has exactly one solution (norvig counts, "
               "sat confirms); failing that it is reported with the cells likely misread.")
EXAMPLES = examples("sudokulab read photo.jpg",
                    "sudokulab read photo.jpg --solve --overlay solved.png",
                    "sudokulab read - --size 6 --format json < shot.png")
# a reading with several solutions is an answer too: most likely a cell misread
OWN: dict[int, str] = {
    Exit.NONE: "no unique solution: none, or several (the cells likely misread are named)"}
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.DISAGREE, Exit.ENGINE, Exit.STALLED,
         Exit.INTERRUPTED)


def options(p: argparse.ArgumentParser) -> None:
    """The options of `read`."""
    p.description, p.epilog = DESCRIPTION, f"{EXAMPLES}\n\n{exit_help(EXITS, OWN)}"
    p.add_argument("image", metavar="IMAGE",
                   help="a photo or screenshot (PNG, JPEG, ...); '-' reads it from standard "
                        "input")
    p.add_argument("--format", choices=("pretty", "line", "json", "grid"), default="pretty",
                   help="pretty (default): the grid drawn; line; or json with a confidence "
                        "per cell (grid is pretty's old name)")
    p.add_argument("--size", type=positive_int, metavar="N",
                   help="the grid's size when it should not be guessed: 4, 6, 9 or 16")
    p.add_argument("--box", metavar="RxC", help="box shape when not the squarest (e.g. 3x2)")
    p.add_argument("--solve", action="store_true", help="print the solution too")
    p.add_argument("--backend", "-b", default="norvig", metavar="NAME",
                   help="the engine that checks (and with --solve solves) the puzzle read")
    p.add_argument("--overlay", metavar="FILE", type=nonempty,
                   help="needs --solve: write the photo with the solution in its blank cells "
                        "(its kind from FILE's extension: .png, .jpg, ...)")
    p.add_argument("--debug", metavar="DIR", type=nonempty,
                   help="write the intermediate images (threshold, contour, warped grid, "
                        "lines, cells) into DIR, made if needed")


def run(args: argparse.Namespace) -> int:
    """Read the photo, check the puzzle with a solver engine, print; the exit code."""
    need("vision", "read")
    from sudokulab.vision import files
    from sudokulab.vision import read as R

    box, backend = box_shape(args.box), engine_named(args.backend)
    size = _size_asked(args.size, box)
    _check_outputs(args)
    why = unavailable(backend)
    if why:
        print(error_line(why), file=sys.stderr)
        return Exit.ENGINE
    image = files.load_image(args.image)
    try:
        reading = R.read_image(image, size=size, box=box, debug=bool(args.debug))
    except WrongSize as error:
        asked = f"--box {args.box}" if box else f"--size {args.size}"
        raise UsageError(f"{_name(args)}: {asked} does not fit the grid found "
                         f"({error.found}x{error.found})") from None
    except GridNotFound as error:
        raise InputError(f"{_name(args)}: {error}") from None
    with stdout_to_stderr():  # an engine that prints (HiGHS's banner) stays off stdout
        verdict = R.verify(reading, backend)
    solution = verdict.solution if args.solve else None
    _pictures(args, image, reading, verdict)
    print(_render(args, reading, verdict, solution))
    _notes(args, reading, verdict)
    return CODES.get(verdict.status, Exit.ENGINE)


def _size_asked(size: int | None, box: tuple[int, int] | None) -> int | None:
    """The grid size --size or --box asks for; UsageError for one the reader cannot read."""
    from sudokulab.vision import grid as G

    known = "the reader knows sizes 4, 6, 9 and 16"
    if size is not None and size not in G.SIZES:
        raise UsageError(f"--size {size}: {known}")
    if box is None:
        return size
    rows, cols = box
    if size and rows * cols != size:
        raise UsageError(f"--box {rows}x{cols} does not make a {size}x{size}")
    if rows * cols not in G.SIZES:
        raise UsageError(f"--box {rows}x{cols} is for {rows * cols}x{rows * cols} grids; {known}")
    return rows * cols


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse --overlay and --debug paths that cannot be written before reading anything
    (a full disk still shows only when writing)."""
    from sudokulab.vision import files

    if args.overlay and not args.solve:  # the help says so: the picture is the solution
        raise UsageError("--overlay draws the solution: give --solve too")
    if args.overlay:
        files.check_picture_path(args.overlay)
    if args.debug:
        files.check_folder(args.debug)


def _name(args: argparse.Namespace) -> str:
    """The image's name in messages."""
    from sudokulab.vision import files

    return files.STDIN_NAME if args.image == files.STDIN else args.image


def _pictures(args: argparse.Namespace, image, reading: R.Reading, verdict: R.Verdict) -> None:
    """The --debug images and the --overlay picture, each named on stderr when written."""
    from sudokulab.vision import files
    from sudokulab.vision import read as R

    if args.debug:
        if verdict.solution:
            reading.debug["6-solution"] = R.overlay(image, reading, verdict)
        written = R.write_pictures(reading, args.debug)
        print(f"sudokulab: wrote {len(written)} pictures into {args.debug}", file=sys.stderr)
    if args.overlay and verdict.solution:
        files.write_picture(R.overlay(image, reading, verdict), args.overlay)
        print(f"sudokulab: wrote {args.overlay}", file=sys.stderr)
    elif args.overlay:
        print(f"sudokulab: {args.overlay} not written: the puzzle read has no unique "
              f"solution to draw", file=sys.stderr)


def _where(cell: int, n: int) -> str:
    """A cell's name, r1c1 style."""
    return cell_name(divmod(cell, n))


def _render(args: argparse.Namespace, reading: R.Reading, verdict: R.Verdict, solution) -> str:
    """The puzzle read, corrected if it was (and the solution, with --solve), in the chosen
    format."""
    puzzle, n = verdict.puzzle or reading.puzzle, reading.puzzle.n
    if args.format == "line":
        if args.solve:
            return line_of(solution) if solution else verdict.status
        return line_of(puzzle.givens)
    if args.format == "json":
        sure = [[round(p, 3) for p in reading.confidence[r * n:(r + 1) * n]] for r in range(n)]
        data = {"image": str(args.image), "size": n, **puzzle_data(puzzle),
                "puzzle": line_of(puzzle.givens), "confidence": sure,
                "low_confidence": [_where(i, n) for i in reading.doubtful],
                "status": verdict.status, "backend": verdict.backend,
                "suspects": [{"cell": _where(s.cell, n), "read": s.read, "instead": s.instead}
                             for s in verdict.suspects],
                "first_read": line_of(reading.puzzle.givens), **_corrections(verdict, n),
                "solution": line_of(solution) if solution else None}
        return json.dumps(data)
    checked = verdict.backend + (f", confirmed by {verdict.confirmed}" if verdict.confirmed
                                 else "")
    head = (f"read a {n}x{n} puzzle with {puzzle.clues} clues: "
            f"{STATUS.get(verdict.status, verdict.status)} (checked by {checked})")
    parts = [head, format_grid(puzzle)]
    if solution:
        parts += ["", "solution:", format_grid(puzzle.with_values(solution))]
    return "\n".join(parts)


def _corrections(verdict: R.Verdict, n: int) -> dict:
    """The cells read otherwise than first seen, for --format json."""
    found = verdict.correction
    if found is None:
        return {"corrections": [], "odds": None, "confirmed": None}
    return {"corrections": [{"cell": _where(c.cell, n), "first": c.first, "now": c.now,
                             "chance": round(c.chance, 4)} for c in found.changes],
            "odds": round(found.odds, 6), "confirmed": verdict.confirmed}


def correction_line(found: Correction, confirmed: str | None, n: int) -> str:
    """One line: which cells the correction `found` read otherwise, and how sure that is
    (`confirmed`: the engine that agreed)."""
    changed = ", ".join(f"{_where(c.cell, n)} {line_of([c.first])}\u2192"
                        f"{line_of([c.now]) if c.now else 'blank'}" for c in found.changes)
    count = len(found.changes)
    return (f"read {count} cell{'s' if count > 1 else ''} differently than first seen: "
            f"{changed} (the first reading has no unique solution; this one, "
            f"{found.odds:.2g} times as likely by the classifier, is the most likely of "
            f"the {found.tried} tried with exactly one, which {confirmed} confirms)")


STATUS = {"unique": "a unique solution", "none": "NO solution", "multiple":
          "SEVERAL solutions", "invalid": "the engine's grid fails the independent checker"}


def _notes(args: argparse.Namespace, reading: R.Reading, verdict: R.Verdict) -> None:
    """Low-confidence cells and likely misreads, on stderr (stdout stays the answer)."""
    if args.format == "json":
        return
    n = reading.puzzle.n
    if verdict.correction:
        line = correction_line(verdict.correction, verdict.confirmed, n)
        print(f"sudokulab: {line}", file=sys.stderr)
    changed = {c.cell for c in verdict.correction.changes} if verdict.correction else set()
    for cell in (c for c in reading.doubtful if c not in changed):
        read = reading.puzzle.givens[cell]
        what = f"read {line_of([read])}, else {line_of([reading.second[cell]])}" if read \
            else "read as blank"
        print(f"sudokulab: low confidence: {_where(cell, n)} {what} "
              f"({reading.confidence[cell]:.2f})", file=sys.stderr)
    if verdict.status in ("none", "multiple"):
        if verdict.suspects:
            named = ", ".join(f"{_where(s.cell, n)} read {line_of([s.read])}, "
                              f"{line_of([s.instead]) if s.instead else 'blank'} would make it "
                              f"unique" for s in verdict.suspects)
            print(f"sudokulab: the puzzle read has {STATUS[verdict.status].lower()}; "
                  f"likely misread: {named}", file=sys.stderr)
        else:
            print(f"sudokulab: the puzzle read has {STATUS[verdict.status].lower()}; no single "
                  f"cell read otherwise makes it unique", file=sys.stderr)
