"""`sudokulab read IMAGE`: the command around read.py (imported only when it runs)."""

from __future__ import annotations

import argparse
import json
import sys

from sudokulab.errors import EXIT_DISAGREE, EXIT_ENGINE, EXIT_NONE, EXIT_OK, InputError
from sudokulab.formats.text import format_grid
from sudokulab.puzzle import line_of
from sudokulab.rules import cell_name
from sudokulab.vision import grid as G
from sudokulab.vision import read as R

CODES = {"unique": EXIT_OK, "none": EXIT_NONE, "multiple": EXIT_NONE, "invalid": EXIT_DISAGREE}


def run(args: argparse.Namespace, box: tuple[int, int] | None, backend) -> int:
    """Read the photo, check the puzzle with a solver engine, print; the exit code."""
    if args.size is not None and args.size not in G.SIZES:
        raise InputError(f"--size {args.size}: the reader knows sizes 4, 6, 9 and 16")
    if box and args.size and box[0] * box[1] != args.size:
        raise InputError(f"--box {box[0]}x{box[1]} does not make a {args.size}x{args.size}")
    availability = backend.available()
    if not availability.ok:
        print(f"sudokulab: backend {backend.name} is not available: {availability.reason}",
              file=sys.stderr)
        return EXIT_ENGINE
    try:
        image = R.load_image(args.image)
        reading = R.read_image(image, size=args.size or (box and box[0] * box[1]), box=box,
                               debug=bool(args.debug))
    except (R.ImageError, G.GridNotFound) as error:
        raise InputError(f"{args.image}: {error}" if isinstance(error, G.GridNotFound)
                         else str(error)) from None
    verdict = R.verify(reading, backend)
    solution = verdict.solution if args.solve else None
    _pictures(args, image, reading, verdict.solution)
    print(_render(args, reading, verdict, solution))
    _notes(args, reading, verdict)
    return CODES.get(verdict.status, EXIT_ENGINE)


def _pictures(args: argparse.Namespace, image, reading: R.Reading, solution) -> None:
    """The --debug images and the --overlay picture."""
    try:
        if args.debug:
            if solution:
                reading.debug["6-solution"] = R.overlay(image, reading, solution)
            R.write_pictures(reading, args.debug)
        if args.overlay and solution:
            R.write_picture(R.overlay(image, reading, solution), args.overlay)
    except OSError as error:
        raise InputError(f"cannot write the pictures: {error}") from None


def _where(cell: int, n: int) -> str:
    """A cell's name, r1c1 style."""
    return cell_name(divmod(cell, n))


def _render(args: argparse.Namespace, reading: R.Reading, verdict: R.Verdict, solution) -> str:
    """The puzzle read (and the solution, with --solve) in the chosen format."""
    puzzle, n = reading.puzzle, reading.puzzle.n
    if args.format == "line":
        if args.solve:
            return line_of(solution) if solution else verdict.status
        return line_of(puzzle.givens)
    if args.format == "json":
        rows = [list(puzzle.givens[r * n:(r + 1) * n]) for r in range(n)]
        sure = [[round(p, 3) for p in reading.confidence[r * n:(r + 1) * n]] for r in range(n)]
        data = {"image": str(args.image), "size": n, "box": list(puzzle.box),
                "puzzle": line_of(puzzle.givens), "givens": rows, "confidence": sure,
                "low_confidence": [_where(i, n) for i in reading.doubtful],
                "status": verdict.status, "backend": verdict.backend,
                "suspects": [{"cell": _where(s.cell, n), "read": s.read, "instead": s.instead}
                             for s in verdict.suspects],
                "solution": line_of(solution) if solution else None}
        return json.dumps(data)
    head = (f"read a {n}x{n} puzzle with {puzzle.clues} clues: "
            f"{STATUS.get(verdict.status, verdict.status)} (checked by {verdict.backend})")
    parts = [head, format_grid(puzzle)]
    if solution:
        parts += ["", "solution:", format_grid(puzzle.with_values(solution))]
    return "\n".join(parts)


STATUS = {"unique": "a unique solution", "none": "NO solution", "multiple":
          "SEVERAL solutions", "invalid": "the engine's grid fails the independent checker"}


def _notes(args: argparse.Namespace, reading: R.Reading, verdict: R.Verdict) -> None:
    """Low-confidence cells and likely misreads, on stderr (stdout stays the answer)."""
    if args.format == "json":
        return
    n = reading.puzzle.n
    for cell in reading.doubtful:
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
