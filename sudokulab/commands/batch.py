"""The batch path of `solve --file F --format line`: plain classic lines handed to an
engine in bulk (one call per run of them), for an engine that offers `solve_lines`.

Per-puzzle Python would hide a fast engine: reading a line into a Puzzle, a Result per
answer and a check per grid cost more than the compiled search itself. Here a line that
is a plain classic puzzle (81 characters, digits and '.' or '0') is never made a Puzzle:
the engine gets the text of a run of such lines, and the grids it returns are checked as
one batch by `sudokulab.check.failures` (rows, columns, boxes, the givens kept; a grid
that fails is checked again by `check` and reported as `solve` reports it). Every other
line (a grid, JSON, a link, a bad line) is read, solved and written as `solve` always
does, in its place, with its file and line. The output is the same, line for line.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from sudokulab.errors import Exit
from sudokulab.harness.bulk import DIGITS, answer, failing

# What keeps a file of mixed lines off the batch path: a header or section of a grid file
# (they give a line another meaning than its own); so do JSON and bytes that are no UTF-8.
OTHER_MEANING = re.compile(r"^\s*(?:grid\s+\d+|\[[a-z]+\])\s*$", re.IGNORECASE | re.MULTILINE)


def solve_file(args: argparse.Namespace) -> list[int] | None:
    """`solve`'s answers on the batch path (each puzzle's exit code, in order), or None
    when it does not apply: then nothing was printed and `solve` goes its own way (which
    also reports a bad backend or option, in its own order)."""
    from sudokulab.backends import backend_class, parse_spec
    from sudokulab.commands.inputs import backend, unavailable
    from sudokulab.errors import Unavailable, UsageError

    if not (getattr(args, "file", None) and args.format == "line"):
        return None
    try:
        if not hasattr(backend_class(parse_spec(args.backend)[0]), "solve_lines"):
            return None
        engine = backend(args.backend)
    except (UsageError, Unavailable):  # `solve` says so, in its turn
        return None
    if unavailable(engine) or not applies(args, engine):
        return None
    return run(args, engine)


def applies(args: argparse.Namespace, engine: Any) -> bool:
    """Whether `solve` may take the batch path: a file, the line format, an engine with
    `solve_lines`, and no option that needs each puzzle's own solve (rules, a box shape,
    a count, a timeout, a trace or timeline, certificates, --strict)."""
    from sudokulab.commands.inputs import rules_from_args

    return bool(args.file and args.format == "line" and hasattr(engine, "solve_lines")
                and args.input_format in ("auto", "lines") and args.box in (None, "3x3")
                and not (args.count or args.grids or args.timeout or args.trace
                         or args.timeline or args.certify or args.strict or args.stats)
                and args.limit in (1, 2) and not rules_from_args(args))


def read_text(path: str) -> str | None:
    """The file's text as `solve` reads it; None when it cannot be read or holds bytes
    that are no UTF-8 (`solve`'s own reading then says why)."""
    import gzip
    import zlib

    from sudokulab.errors import PuzzleError
    from sudokulab.formats import files

    try:
        opener: Any = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as stream:
            text = files._read_all(stream, path)
    except (OSError, EOFError, zlib.error, PuzzleError):
        return None
    text = text.lstrip(files.BOM)
    return None if not text.isascii() and files.NOT_UTF8.search(text) else text


def run(args: argparse.Namespace, engine: Any) -> list[int] | None:
    """Solve the file on the batch path: each puzzle's exit code, in order; None when the
    file is not for it (no plain line, or not plain text), before anything is printed."""
    from sudokulab.commands.answers import Output

    text = read_text(args.file)
    if text is None:
        return None
    data = all_plain(text)
    if data is not None:  # the common case, in a few passes of C over the bytes
        out = Output(args, engine.label, numbered=len(data) > 82)
        return _lines(engine, out, 1, data, 82, args.limit)
    if text.lstrip()[:1] in ("{", "[") or OTHER_MEANING.search(text):
        return None
    return _mixed(args, engine, text)


def all_plain(text: str) -> bytes | None:
    """The text as bytes when every line of it is a plain classic line ending in a line
    feed (one is added at the end); None otherwise."""
    if not text.isascii():
        return None
    data = text.encode("ascii")
    if data and not data.endswith(b"\n"):
        data += b"\n"
    count = len(data) // 82
    if not count or len(data) != 82 * count or data.translate(None, b"0123456789.\n") \
            or data[81::82] != b"\n" * count:
        return None
    return data


def _mixed(args: argparse.Namespace, engine: Any, text: str) -> list[int] | None:
    """A file of plain lines among others: each run of plain lines in one call, every
    other line read and solved as `solve` does, in its place."""
    from sudokulab.backends.native import plain
    from sudokulab.commands.answers import Output
    from sudokulab.formats import files

    lines = text.splitlines()
    plain_numbers, others = [], False
    for number, line in enumerate(lines):
        stripped = line.strip()
        if plain(stripped):
            lines[number] = stripped
            plain_numbers.append(number)
        elif stripped:
            others = True
    if not plain_numbers:
        return None
    entries: dict[int, Any] = {}  # line number (from 0) -> the Entry of a line not plain
    if others:
        rest = list(lines)
        for number in plain_numbers:
            rest[number] = ""  # a blank keeps every other line's number
        entries = {entry.line - 1: entry for entry in
                   files.read_text("\n".join(rest), args.file, None, (), args.input_format)}
    order = sorted([*plain_numbers, *entries])
    out = Output(args, engine.label, numbered=len(order) > 1)
    codes: list[int] = []
    at = 0
    while at < len(order):
        if order[at] in entries:
            codes.append(_one(args, engine, out, len(codes) + 1, entries[order[at]]))
            at += 1
            continue
        end = at
        while end < len(order) and order[end] not in entries:
            end += 1
        run_text = "".join(lines[k] for k in order[at:end]).encode("ascii")
        codes += _lines(engine, out, len(codes) + 1, run_text, 81, args.limit)
        at = end
    return codes


def _one(args: argparse.Namespace, engine: Any, out: Any, number: int, entry: Any) -> int:
    """A line not plain: read, solved and written as `solve` does."""
    from sudokulab.commands.answers import stdout_to_stderr

    if entry.puzzle is None:
        return out.bad(number, entry)
    try:
        with stdout_to_stderr():
            result = engine.solve(entry.puzzle, limit=args.limit)
    except KeyboardInterrupt as interrupt:  # what the engine found before Ctrl-C
        partial = getattr(interrupt, "result", None)
        if partial is not None:
            out.write(number, entry.puzzle, partial, interrupted=True)
        raise
    return out.write(number, entry.puzzle, result)


def _lines(engine: Any, out: Any, first: int, data: bytes, stride: int,
           limit: int) -> list[int]:
    """A run of plain lines (line k at data[k*stride:][:81]): one call to the engine, one
    batch check, one line of output each."""
    count = len(data) // stride
    givens = data if stride == 81 else data.translate(None, b"\n")
    try:
        batch = engine.solve_lines(data, count, stride, limit)
    except KeyboardInterrupt as stop:  # write the answers before it, then the one cut short
        done = getattr(stop, "batch", None)
        finished = len(done.status) if done is not None else 0
        if done is not None:
            _write(out, first, givens[:81 * finished], done)
        if finished < count:
            _interrupted(out, first + finished, givens[81 * finished:81 * finished + 81])
        raise
    return _write(out, first, givens, batch)


def _write(out: Any, first: int, givens: bytes, batch: Any) -> list[int]:
    """Check the batch's grids as one, then write each answer (one that fails as `solve`
    writes it: 'invalid', exit 4)."""
    status = batch.status
    grids = batch.first.translate(None, b"\n")  # 81 characters each
    wrong = failing(givens, grids, batch)
    codes: list[int] = [Exit.NONE if found == 0 else Exit.OK for found in status]
    if not wrong and status.count(1) == len(status):  # the engine's lines as they are
        if status:
            out.emit(batch.first[:-1].decode("ascii"))
        return codes
    solutions = grids.decode("ascii")
    words = {0: "none", 2: "multiple"}
    shown = [words[found] if found != 1 else solutions[81 * k:81 * k + 81]
             for k, found in enumerate(status)]
    start = 0
    for k in sorted(wrong):  # the answers before a wrong one, then its own
        if start < k:
            out.emit("\n".join(shown[start:k]))
        codes[k] = out.write(first + k, *answer(givens, grids, batch, k))
        start = k + 1
    if start < len(shown):
        out.emit("\n".join(shown[start:]))
    return codes


def _interrupted(out: Any, number: int, line: bytes) -> None:
    """The puzzle Ctrl-C cut short, written as `solve` writes it."""
    from sudokulab.backends.base import interrupted
    from sudokulab.puzzle import Puzzle

    puzzle = Puzzle((3, 3), tuple(line.translate(DIGITS)))
    out.write(number, puzzle, interrupted((), None).result, interrupted=True)
