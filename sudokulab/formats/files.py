"""Files of many puzzles, each with its own rules, in the forms Sudoku programs exchange.

Read (auto-detected; `--input-format` names one where a file is not plain):
- `lines`: one puzzle per line, or grids separated by blank lines, `#` comments (the
  docs/formats.md's forms; `.sdm`, SadMan's collection, is one line of digits per puzzle);
- `jsonl`: JSON Lines, one puzzle object per line; `json`: one object or an array of them;
- `sdk`: SadMan's single puzzle, `#A`-style header lines, an optional `[Puzzle]` section;
- `ss`: Simple Sudoku's grid, `|` between boxes, `-----------` or `*-----------*` rules;
- `euler`: Project Euler 96, a `Grid NN` line over each grid of digits (0 for a blank);
- `hodoku`: HoDoKu's library lines `:0000:x:<grid>:<deleted>:...:`, where `+d` is a digit
  placed while solving, not a given (read as a blank: the puzzle is its givens);
- `forum`: the Sudoku forum's lists, `<puzzle> ; <rating> ...` or the rating after a tab;
- `link`: f-puzzles and SudokuPad links, one per line;
- a samurai drawn as its board (`formats.boards`): the whole file, after any comments.
In `auto` every line may be any of these, tried cheapest first: the fast line reader,
then JSON, links, HoDoKu and forum lines; headers (`Grid 01`, `[Puzzle]`) split grids.

A bad puzzle is an Entry with its file and line and the reason; the others are read: a
grid that is wrong is one bad puzzle at its first line, a line that is no UTF-8 one too.
Files and streams (`read_file`, `read_stream`) are read in chunks and refused whole, at
once, at a NUL byte (binary data), a line longer than a puzzle may be (MAX_TEXT) or more
than MAX_INPUT characters, so that /dev/zero, /dev/urandom or a gzip bomb stop early.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from sudokulab import rules as R
from sudokulab.errors import PuzzleError, unknown
from sudokulab.formats import MAX_TEXT, READERS, WRITERS, json_value
from sudokulab.formats.boards import read_board
from sudokulab.formats.text import (
    BOM,
    fit_box,
    format_line,
    from_json,
    is_grid,
    is_link,
    parse,
    read_line,
    to_json,
    with_rules,
)
from sudokulab.puzzle import MAX_SIZE, Puzzle, line_of

if TYPE_CHECKING:
    from gzip import GzipFile

SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".sdk": "sdk",
            ".sdm": "sdm", ".ss": "ss"}
HEADER = re.compile(r"^\s*(?:grid\s+\d+|\[puzzle\])\s*$", re.IGNORECASE)
SECTION = re.compile(r"^\s*\[[a-z]+\]\s*$", re.IGNORECASE)
GRID_FORMATS = ("euler", "sdk", "ss")  # where a block of lines is always one grid
GRID_MARKS = " \t|+-=:*,;"  # what a grid's rows hold besides their cells
FORUM = re.compile(r"^\s*([^\s;]{16,625})\s*(?:;|\t|\s)\s*(\S.*)?$")


class Entry:
    """One puzzle read from a file (`puzzle`), or why the text there is none (`error`).

    A plain class with slots, not a dataclass: one is made per line of a file, and a
    `solve --file` of one puzzle should not pay for more imports than it uses.
    """

    __slots__ = ("source", "line", "puzzle", "error")

    def __init__(self, source: str, line: int, puzzle: Puzzle | None = None,
                 error: str = "") -> None:
        self.source, self.line, self.puzzle, self.error = source, line, puzzle, error

    @property
    def where(self) -> str:
        """'file:line'."""
        return f"{self.source}:{self.line}"

    def __repr__(self) -> str:
        return f"Entry({self.where}, {self.puzzle or self.error!r})"


# --- reading ---------------------------------------------------------------------------

CHUNK = 1 << 16  # bytes read at a time: a stream without end is refused after a bounded read
MAX_INPUT = 100 * MAX_TEXT  # characters in a whole file: a million 9x9 lines (82 million),
                            # docs/formats.md's advice for a large set, fit; an endless stream not
LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines()'s
NOT_UTF8 = re.compile("[\ud800-\udfff]")  # what bytes that are no UTF-8 decode to, escaped


def read_file(path: str | Path, box: tuple[int, int] | None = None,
              rules: Iterable[R.Rule] = (), fmt: str = "auto") -> list[Entry]:
    """Every puzzle in a file (plain text, or .gz), as Entries; PuzzleError if unreadable.
    `-` is standard input, as for most commands that read files."""

    if str(path) == "-":
        import sys

        return read_stream(sys.stdin, "<stdin>", box, rules, fmt)
    path = Path(path)
    text = file_text(path)
    stem = path.name[:-3] if path.suffix == ".gz" else path.name
    if fmt == "auto":
        fmt = SUFFIXES.get(Path(stem).suffix.lower(), "auto")
    return read_text(text, str(path), box, rules, fmt)


def file_text(path: str | Path) -> str:
    """A file's text (plain, or .gz decompressed as it is read: a bomb stops early), as
    `_read_all` refuses too much; PuzzleError naming the file if it cannot be read."""
    import zlib

    path = Path(path)
    try:
        if path.suffix == ".gz":
            import gzip

            with gzip.open(path, "rb") as stream:
                return _read_all(stream, str(path))
        with open(path, "rb") as stream:
            return _read_all(stream, str(path))
    except (OSError, EOFError, zlib.error) as error:
        raise PuzzleError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") \
            from None


def read_stream(stream: IO | None, source: str = "<stdin>",
                box: tuple[int, int] | None = None, rules: Iterable[R.Rule] = (),
                fmt: str = "auto") -> list[Entry]:
    """Every puzzle in a stream (`sys.stdin`: its bytes are read), under read_file's limits
    and decoding; PuzzleError, one line, if it is closed, unreadable or too long."""
    stream = getattr(stream, "buffer", stream)  # the bytes: the same decoding as a file
    if stream is None:  # Python sets sys.stdin to None when descriptor 0 is closed
        raise PuzzleError(f"{source}: cannot read: it is closed")
    try:
        text = _read_all(stream, source)
    except PuzzleError:
        raise
    except (OSError, ValueError) as error:  # ValueError: a closed file object
        raise PuzzleError(f"{source}: cannot read: {getattr(error, 'strerror', None) or error}") \
            from None
    return read_text(text, source, box, rules, fmt)


def _read_all(stream: IO | GzipFile, source: str) -> str:
    """A stream's text, read CHUNK bytes at a time and refused (PuzzleError) as soon as it
    holds a NUL, a line longer than a puzzle may be, or more than MAX_INPUT characters.

    Bytes that are no UTF-8 are kept as escapes (surrogates), so that only their lines are
    refused (read_text). A text stream (a test's StringIO) is read as it is.
    """
    import codecs

    decode = codecs.getincrementaldecoder("utf-8")("surrogateescape").decode
    parts: list[str] = []
    size = line = 0  # characters read, and those of the line not ended yet
    while True:
        chunk = stream.read(CHUNK)
        text = chunk if isinstance(chunk, str) else decode(chunk, final=not chunk)
        if "\0" in text:
            raise PuzzleError(_nul_error(source, "".join(parts) + text))
        first = LINE_BREAK.search(text)
        line += first.start() if first else len(text)
        if line > MAX_TEXT:
            number = len(("".join(parts) + "x").splitlines())
            raise PuzzleError(f"{source}:{number}: input too long: a line of more than "
                              f"{MAX_TEXT:,} characters; one puzzle takes at most "
                              f"{MAX_TEXT:,}")
        if first:  # a line fits in one chunk: only the last one may go on growing
            line = LINE_BREAK.search(text[::-1]).start()  # type: ignore[union-attr]
        size += len(text)
        if size > MAX_INPUT:
            raise PuzzleError(f"{source}: input too long: more than {MAX_INPUT:,} "
                              f"characters; split it into several files")
        parts.append(text)
        if not chunk:
            return "".join(parts)


def _nul_error(source: str, text: str) -> str:
    """The message for a text holding a NUL: no text of puzzles does, binary data does."""
    number = len((text[:text.index("\0")] + "x").splitlines())
    return f"{source}:{number}: a NUL byte: binary data or UTF-16, not a UTF-8 text of puzzles"


def read_text(text: str, source: str = "<input>", box: tuple[int, int] | None = None,
              rules: Iterable[R.Rule] = (), fmt: str = "auto") -> list[Entry]:
    """Every puzzle in a text, as Entries (a bad one holds its error, with file and line);
    a line that was no UTF-8 (escaped as surrogates) is a bad one, 'not UTF-8'."""
    if fmt not in READERS:
        raise PuzzleError(unknown("input format", fmt, READERS))
    if "\0" in text:  # the same answer as read_stream's for the same bytes
        raise PuzzleError(_nul_error(source, text))
    rules = tuple(rules)
    text = text.lstrip(BOM)
    bad = _not_utf8(text)
    start = text.lstrip()[:1]
    if start == "#" and fmt in ("auto", "json", "jsonl"):  # a header over JSON: `generate`
        body = _blank_comments(text)
        if body.lstrip()[:1] in ("{", "["):
            text, start = body, body.lstrip()[:1]
    if fmt in ("auto", "json") and start == "{":  # one object, or JSON Lines
        fmt = "json" if _one_object(text) else "jsonl"
    if start == "[" and fmt == "auto" and SECTION.match(text.lstrip().split("\n", 1)[0]):
        fmt = "sdk"  # `[Puzzle]` over a grid: SadMan's file on standard input, no JSON
    if fmt in GRID_FORMATS and start in ("{", "[") and not SECTION.match(
            text.lstrip().split("\n", 1)[0]):  # a grid's reader would call it bad JSON
        return [Entry(source, 1, error=f"{source}:1: the {fmt} format holds grids of "
                                       f"digits, and this text is JSON: read it as json or "
                                       f"jsonl (or let the reader tell the format)")]
    if fmt == "json" or (fmt == "auto" and start == "["):
        return _with_bad_lines(_json_entries(text, source, rules, box), bad, source)
    if fmt in ("auto", "lines") and not bad:  # a samurai's board is the whole file
        try:
            board = read_board(text, rules)
        except PuzzleError as error:  # the message names the line and column
            return [Entry(source, 1, error=f"{source}: {error}")]
        if board is not None:
            return [_entry(source, 1, lambda: fit_box(board, box))]
    return _line_entries(text, source, box, rules, fmt, bad)


def _not_utf8(text: str) -> frozenset[int]:
    """The numbers of the lines that were no UTF-8 (their bytes escaped as surrogates)."""
    if not NOT_UTF8.search(text):  # one scan: the common case
        return frozenset()
    return frozenset(number for number, line in enumerate(text.splitlines(), 1)
                     if NOT_UTF8.search(line))


def _with_bad_lines(entries: list[Entry], bad: frozenset[int], source: str) -> list[Entry]:
    """A JSON document's entries with each line that was no UTF-8 in place of its own."""
    if not bad:
        return entries
    kept = [entry for entry in entries if entry.line not in bad]
    return sorted(kept + [_bad_line(source, number) for number in bad], key=lambda e: e.line)


def _bad_line(source: str, number: int) -> Entry:
    """The Entry of a line that was no UTF-8."""
    return Entry(source, number, error=f"{source}:{number}: not UTF-8")


def _blank_comments(text: str) -> str:
    """The leading '#' lines of a text made empty, so that line numbers stay."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if line.lstrip().startswith("#"):
            lines[number] = ""
        elif line.strip():
            break
    return "\n".join(lines)


def read_puzzles(path: str | Path, box: tuple[int, int] | None = None,
                 rules: Iterable[R.Rule] = ()) -> list[Puzzle]:
    """Every puzzle in a file (any format here, plain or .gz); PuzzleError if it is
    unreadable or at its first bad puzzle (with file and line)."""
    return puzzles(read_file(path, box, rules))


def puzzles(entries: Sequence[Entry]) -> list[Puzzle]:
    """The puzzles of entries; PuzzleError (with file and line) at the first bad one."""
    for entry in entries:
        if entry.puzzle is None:
            raise PuzzleError(entry.error)
    return [entry.puzzle for entry in entries]  # type: ignore[misc]


def _one_object(text: str) -> bool:
    """Whether the text is one JSON value (a pretty-printed object), not JSON Lines."""
    import json

    try:
        json_value(text)
    except json.JSONDecodeError as error:  # several objects, or several lines of them
        lines = [line for line in text.splitlines() if line.strip()]
        return "Extra data" not in error.msg and not (
            len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines))
    return True


def _json_entries(text: str, source: str, rules: tuple[R.Rule, ...],
                  box: tuple[int, int] | None = None) -> list[Entry]:
    """The puzzles of a JSON object or array, each with the line where it starts."""
    import json

    decoder = json.JSONDecoder()
    at = _skip(text, 0)
    if text.startswith("{", at):
        return [_entry(source, 1 + text.count("\n", 0, at),
                       lambda: _json_puzzle(text[at:], rules, box))]
    if not text.startswith("[", at):
        return [Entry(source, 1, error=f"{source}:1: not a JSON object or array of puzzles")]
    entries: list[Entry] = []
    at = _skip(text, at + 1)
    while not text.startswith("]", at):
        line = 1 + text.count("\n", 0, at)
        try:
            item, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as error:
            return entries + [Entry(source, error.lineno, error=f"{source}:{error.lineno}: "
                                    f"bad JSON at column {error.colno}: {error.msg}")]
        entries.append(_entry(source, line,
                              lambda item=item: _object_puzzle(item, rules, box)))
        at = _skip(text, end)
        if text.startswith(",", at):
            at = _skip(text, at + 1)
        elif not text.startswith("]", at):
            line = 1 + text.count("\n", 0, at)
            return entries + [Entry(source, line, error=f"{source}:{line}: bad JSON: "
                                    f"expected ',' or ']' between the puzzles of an array")]
    if _skip(text, at + 1) < len(text):
        line = 1 + text.count("\n", 0, at)
        entries.append(Entry(source, line, error=f"{source}:{line}: text after the array"))
    return entries


def _skip(text: str, at: int) -> int:
    """The index of the next character that is not white space."""
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _entry(source: str, line: int, read) -> Entry:
    """An Entry from a reading function: its puzzle, or its PuzzleError with file and line."""
    try:
        return Entry(source, line, read())
    except PuzzleError as error:
        return Entry(source, line, error=f"{source}:{line}: {error}")


def _json_puzzle(text: str, rules: tuple[R.Rule, ...],
                 box: tuple[int, int] | None = None) -> Puzzle:
    """One puzzle from a JSON object's text: ours, solve's output, or f-puzzles' JSON."""
    import json

    try:
        data = json_value(text)
    except json.JSONDecodeError:
        return with_rules(from_json(text, box=box), rules)  # the same error, for puzzles
    return _object_puzzle(data, rules, box)


def _object_puzzle(data: object, rules: tuple[R.Rule, ...],
                   box: tuple[int, int] | None = None) -> Puzzle:
    """One puzzle from a decoded JSON value (--box applied, or refused when it is not its
    box)."""
    import json

    if isinstance(data, str):
        return parse(data, box=box, rules=rules)  # a line or a link in a JSON array
    if isinstance(data, dict) and "grid" in data and "size" in data:
        from sudokulab.formats.fpuzzles import from_fpuzzles

        return with_rules(fit_box(from_fpuzzles(data), box), rules)
    if isinstance(data, dict) and "givens" not in data and isinstance(data.get("puzzle"), str):
        data = {**data, "givens": data["puzzle"]}  # a line of `solve --format json`
    return with_rules(from_json(json.dumps(data), box=box), rules)


def _line_entries(text: str, source: str, box: tuple[int, int] | None,
                  rules: tuple[R.Rule, ...], fmt: str,
                  bad: frozenset[int] = frozenset()) -> list[Entry]:
    """The puzzles of a text of lines and grids (every format but JSON arrays)."""
    entries: list[Entry] = []
    add = entries.append
    fast = fmt not in ("jsonl", "link", "hodoku")  # where a plain line is a puzzle
    grids = fmt not in ("jsonl", "link", "hodoku", "forum")
    for headed, block in _blocks(text, fmt, bad):
        if grids and 1 < len(block) <= 2 * MAX_SIZE:
            grid = _grid_entry(block, source, box, rules, headed or fmt in GRID_FORMATS)
            if grid is not None:
                add(grid)
                continue
        for number, line in block:  # one puzzle per line: most files, and the hot loop
            if line is None:
                add(_bad_line(source, number))
                continue
            puzzle = read_line(line.strip(), box, rules) if fast else None
            if puzzle is not None:
                add(Entry(source, number, puzzle))
            else:
                add(_entry(source, number, lambda line=line: _one_line(line, box, rules, fmt)))
    return entries


def _grid_entry(block: list[tuple[int, str | None]], source: str,
                box: tuple[int, int] | None, rules: tuple[R.Rule, ...],
                headed: bool) -> Entry | None:
    """The one Entry of a block that is one grid, at its first line; None when the block
    is lines of their own. A bad grid is one bad puzzle, not one per row."""
    first = block[0][0]
    broken = [number for number, line in block if line is None]
    lines = [line for _, line in block if line is not None]
    if broken and (headed or _rows(lines)):
        return Entry(source, first, error=f"{source}:{broken[0]}: not UTF-8")
    if broken:
        return None
    if headed or is_grid(lines) or (_rows(lines) and not any(
            read_line(line.strip(), box, rules) is not None for line in lines)):
        return _entry(source, first, lambda: parse("\n".join(lines), box=box, rules=rules))
    return None


def _rows(lines: list[str]) -> bool:
    """Whether lines are rows of a grid: none holds more cells than a row may (a grid's
    rule lines hold none), and none is a puzzle of its own kind (JSON, a HoDoKu line)."""
    return bool(lines) and all(
        len(line) - sum(line.count(mark) for mark in GRID_MARKS) <= MAX_SIZE
        and not line.lstrip().startswith(("{", ":")) for line in lines)


def _blocks(text: str, fmt: str, bad: frozenset[int] = frozenset()
            ) -> Iterator[tuple[bool, list[tuple[int, str | None]]]]:
    """Runs of (line number, line) without comments, split at blank and header lines,
    each with whether a header started it; a line that was no UTF-8 is (number, None).

    A header (`Grid 01`, `[Puzzle]`) starts a grid; another section of a SadMan file
    (`[State]`, ...) is skipped to the next `[Puzzle]`.
    """
    block: list[tuple[int, str | None]] = []
    skipping = headed = False
    json_lines = fmt in ("jsonl", "json")
    for number, raw in enumerate(text.splitlines(), 1):
        if bad and number in bad:  # its own bad entry, in its place (a grid's row too)
            if not skipping:
                block.append((number, None))
            continue
        first = raw[:1]
        if first in " \t":  # rare: look past the indent (the hot loop looks at one char)
            first = raw.lstrip()[:1]
        if json_lines or first == "{":
            line = raw.rstrip()  # JSON may hold '#' in its strings
        else:
            line = raw.split("#", 1)[0].rstrip() if "#" in raw else raw.rstrip()
        if first in "[Gg" and first and (SECTION.match(line) or HEADER.match(line)):
            if block:
                yield headed, block
            block = []
            skipping = bool(SECTION.match(line)) and line.strip().lower() != "[puzzle]"
            headed = not skipping
            continue
        if skipping:
            continue
        if line.strip():
            block.append((number, line))
        elif block and first != "#":
            yield headed, block
            block, headed = [], False
    if block:
        yield headed, block


def _one_line(line: str, box: tuple[int, int] | None, rules: tuple[R.Rule, ...],
              fmt: str) -> Puzzle:
    """One line the fast reader did not take: JSON, a link, HoDoKu, forum, or plain text."""
    text = line.strip()
    if fmt in ("auto", "jsonl") and text.startswith("{"):
        return _json_puzzle(text, rules, box)
    if fmt == "jsonl":
        raise PuzzleError("not a JSON object")
    if fmt in ("auto", "link"):
        from sudokulab.formats.links import read_link

        if is_link(text):
            return with_rules(fit_box(read_link(text), box), rules)
        if fmt == "link":
            raise PuzzleError("not an f-puzzles or SudokuPad link")
    if fmt in ("auto", "hodoku") and text.startswith(":"):
        return parse(hodoku_givens(text), box=box, rules=rules)
    if fmt == "hodoku":
        raise PuzzleError("not a HoDoKu library line (:type:candidates:grid:...)")
    if fmt in ("auto", "forum"):
        match = FORUM.match(text)
        if match and (match[2] or fmt == "forum"):
            return parse(match[1], box=box, rules=rules)
    return parse(text, box=box, rules=rules)


def hodoku_givens(line: str) -> str:
    """The givens of a HoDoKu library line: its grid field, placed digits (`+d`) blanked."""
    fields = line.strip().split(":")
    if len(fields) < 4 or fields[0]:
        raise PuzzleError("not a HoDoKu library line (:type:candidates:grid:...)")
    return re.sub(r"\+\w", ".", fields[3])


# --- writing ---------------------------------------------------------------------------

def write(puzzles: Sequence[Puzzle], fmt: str) -> str:
    """The text of a file holding the puzzles in a format (rules only in KEEPS_RULES)."""
    if fmt not in WRITERS:
        raise PuzzleError(unknown("output format", fmt, WRITERS))
    if fmt == "json":
        return "[\n" + ",\n".join(to_json(p) for p in puzzles) + "\n]\n"
    if fmt == "sdk" and len(puzzles) != 1:
        raise PuzzleError(f"an .sdk file holds one puzzle, not {len(puzzles)}")
    if fmt == "euler" and any(p.n > 9 for p in puzzles):
        raise PuzzleError("Project Euler's form writes one digit a cell: sizes up to 9")
    gap = "\n" if fmt in ("ss", "sdk") else ""  # grids of many lines: a blank line between
    return gap.join(write_one(p, fmt, k) + "\n" for k, p in enumerate(puzzles, 1))


def write_one(puzzle: Puzzle, fmt: str, number: int = 1) -> str:
    """One puzzle in a format (its number heads a Project Euler grid)."""
    n = puzzle.n
    rows = [puzzle.givens[r * n:(r + 1) * n] for r in range(n)]
    if fmt == "line":
        return format_line(puzzle)
    if fmt == "jsonl" or fmt == "json":
        return to_json(puzzle)
    if fmt == "sdm":
        return format_line(puzzle).replace(".", "0")
    if fmt == "sdk":
        return "\n".join(line_of(row) for row in rows)
    if fmt == "euler":
        return f"Grid {number:02d}\n" + "\n".join("".join(map(str, row)) for row in rows)
    if fmt == "hodoku":
        return f":0000:x:{format_line(puzzle)}:::"
    if fmt == "ss":
        return _simple_sudoku(puzzle, rows)
    from sudokulab.formats import links

    return links.fpuzzles_link(puzzle) if fmt == "fpuzzles" else links.sudokupad_link(puzzle)


def _simple_sudoku(puzzle: Puzzle, rows: list) -> str:
    """Simple Sudoku's grid: `|` between boxes, a line of dashes between bands."""
    box_rows, box_cols = puzzle.box
    n = puzzle.n
    width = n + n // box_cols - 1
    out = []
    for r, row in enumerate(rows):
        if r and r % box_rows == 0:
            out.append("-" * width)
        text = line_of(row)
        out.append("|".join(text[c:c + box_cols] for c in range(0, n, box_cols)))
    return "\n".join(out)
