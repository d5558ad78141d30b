"""Files of many puzzles, each with its own rules, in the forms Sudoku programs exchange.

Read (auto-detected; `--input-format` names one where a file is not plain):
- `lines`: one puzzle per line, or grids separated by blank lines, `#` comments (the
  README's forms; `.sdm`, SadMan's collection, is one line of digits per puzzle);
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

A bad puzzle is an Entry with its file and line and the reason; the others are read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from sudokulab import rules as R
from sudokulab.errors import PuzzleError, unknown
from sudokulab.formats.boards import read_board
from sudokulab.formats.text import (
    BOM,
    format_line,
    from_json,
    is_grid,
    parse,
    read_line,
    to_json,
    with_rules,
)
from sudokulab.puzzle import MAX_SIZE, Puzzle, line_of

READERS = ("auto", "lines", "jsonl", "json", "sdk", "sdm", "ss", "euler", "hodoku", "forum",
           "link")
WRITERS = ("line", "jsonl", "json", "sdk", "sdm", "ss", "euler", "hodoku", "fpuzzles",
           "sudokupad")
KEEPS_RULES = ("jsonl", "json", "fpuzzles", "sudokupad")  # the other writers drop rules
SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".sdk": "sdk",
            ".sdm": "sdm", ".ss": "ss"}
HEADER = re.compile(r"^\s*(?:grid\s+\d+|\[puzzle\])\s*$", re.IGNORECASE)
SECTION = re.compile(r"^\s*\[[a-z]+\]\s*$", re.IGNORECASE)
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

def read_file(path: str | Path, box: tuple[int, int] | None = None,
              rules: Iterable[R.Rule] = (), fmt: str = "auto") -> list[Entry]:
    """Every puzzle in a file (plain text, or .gz), as Entries; PuzzleError if unreadable."""
    path = Path(path)
    try:
        if path.suffix == ".gz":
            import gzip

            text = gzip.decompress(path.read_bytes()).decode("utf-8-sig")
        else:
            text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, EOFError) as error:
        raise PuzzleError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") \
            from None
    stem = path.name[:-3] if path.suffix == ".gz" else path.name
    if fmt == "auto":
        fmt = SUFFIXES.get(Path(stem).suffix.lower(), "auto")
    return read_text(text, str(path), box, rules, fmt)


def read_text(text: str, source: str = "<input>", box: tuple[int, int] | None = None,
              rules: Iterable[R.Rule] = (), fmt: str = "auto") -> list[Entry]:
    """Every puzzle in a text, as Entries (a bad one holds its error, with file and line)."""
    if fmt not in READERS:
        raise PuzzleError(unknown("input format", fmt, READERS))
    rules = tuple(rules)
    text = text.lstrip(BOM)
    start = text.lstrip()[:1]
    if start == "#" and fmt in ("auto", "json", "jsonl"):  # a header over JSON: `generate`
        body = _blank_comments(text)
        if body.lstrip()[:1] in ("{", "["):
            text, start = body, body.lstrip()[:1]
    if fmt in ("auto", "json") and start == "{":  # one object, or JSON Lines
        fmt = "json" if _one_object(text) else "jsonl"
    if fmt == "json" or (fmt == "auto" and start == "["):
        return _json_entries(text, source, rules)
    if fmt in ("auto", "lines"):  # a samurai's board is the whole file: its void may be '#'
        try:
            board = read_board(text, rules)
        except PuzzleError as error:  # the message names the line and column
            return [Entry(source, 1, error=f"{source}: {error}")]
        if board is not None:
            return [Entry(source, 1, board)]
    return _line_entries(text, source, box, rules, fmt)


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
        json.loads(text)
    except json.JSONDecodeError as error:  # several objects, or several lines of them
        lines = [line for line in text.splitlines() if line.strip()]
        return "Extra data" not in error.msg and not (
            len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines))
    return True


def _json_entries(text: str, source: str, rules: tuple[R.Rule, ...]) -> list[Entry]:
    """The puzzles of a JSON object or array, each with the line where it starts."""
    import json

    decoder = json.JSONDecoder()
    at = _skip(text, 0)
    if text.startswith("{", at):
        return [_entry(source, 1 + text.count("\n", 0, at),
                       lambda: _json_puzzle(text[at:], rules))]
    if not text.startswith("[", at):
        return [Entry(source, 1, error=f"{source}:1: not a JSON object or array of puzzles")]
    entries, at = [], _skip(text, at + 1)
    while not text.startswith("]", at):
        line = 1 + text.count("\n", 0, at)
        try:
            item, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as error:
            return entries + [Entry(source, error.lineno, error=f"{source}:{error.lineno}: "
                                    f"bad JSON at column {error.colno}: {error.msg}")]
        entries.append(_entry(source, line, lambda item=item: _object_puzzle(item, rules)))
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


def _json_puzzle(text: str, rules: tuple[R.Rule, ...]) -> Puzzle:
    """One puzzle from a JSON object's text: ours, solve's output, or f-puzzles' JSON."""
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return with_rules(from_json(text), rules)  # the same error, worded for puzzles
    return _object_puzzle(data, rules)


def _object_puzzle(data: object, rules: tuple[R.Rule, ...]) -> Puzzle:
    """One puzzle from a decoded JSON value."""
    import json

    if isinstance(data, str):
        return parse(data, rules=rules)  # a line or a link in a JSON array
    if isinstance(data, dict) and "grid" in data and "size" in data:
        from sudokulab.formats.links import from_fpuzzles

        return with_rules(from_fpuzzles(data), rules)
    if isinstance(data, dict) and "givens" not in data and isinstance(data.get("puzzle"), str):
        data = {**data, "givens": data["puzzle"]}  # a line of `solve --format json`
    return with_rules(from_json(json.dumps(data)), rules)


def _line_entries(text: str, source: str, box: tuple[int, int] | None,
                  rules: tuple[R.Rule, ...], fmt: str) -> list[Entry]:
    """The puzzles of a text of lines and grids (every format but JSON arrays)."""
    entries: list[Entry] = []
    add = entries.append
    fast = fmt not in ("jsonl", "link", "hodoku")  # where a plain line is a puzzle
    grids = fmt not in ("jsonl", "link", "hodoku", "forum")
    for block in _blocks(text, fmt):
        if grids and len(block) <= 2 * MAX_SIZE:
            lines = [line for _, line in block]
            if is_grid(lines):
                add(_entry(source, block[0][0],
                           lambda lines=lines: parse("\n".join(lines), box=box, rules=rules)))
                continue
        for number, line in block:  # one puzzle per line: most files, and the hot loop
            puzzle = read_line(line.strip(), box, rules) if fast else None
            if puzzle is not None:
                add(Entry(source, number, puzzle))
            else:
                add(_entry(source, number, lambda line=line: _one_line(line, box, rules, fmt)))
    return entries


def _blocks(text: str, fmt: str) -> Iterator[list[tuple[int, str]]]:
    """Runs of (line number, line) without comments, split at blank and header lines.

    A header (`Grid 01`, `[Puzzle]`) starts a grid; another section of a SadMan file
    (`[State]`, ...) is skipped to the next `[Puzzle]`.
    """
    block: list[tuple[int, str]] = []
    skipping = False
    json_lines = fmt in ("jsonl", "json")
    for number, raw in enumerate(text.splitlines(), 1):
        first = raw[:1]
        if first in " \t":  # rare: look past the indent (the hot loop looks at one char)
            first = raw.lstrip()[:1]
        if json_lines or first == "{":
            line = raw.rstrip()  # JSON may hold '#' in its strings
        else:
            line = raw.split("#", 1)[0].rstrip() if "#" in raw else raw.rstrip()
        if first in "[Gg" and first and (SECTION.match(line) or HEADER.match(line)):
            if block:
                yield block
            block = []
            skipping = bool(SECTION.match(line)) and line.strip().lower() != "[puzzle]"
            continue
        if skipping:
            continue
        if line.strip():
            block.append((number, line))
        elif block and first != "#":
            yield block
            block = []
    if block:
        yield block


def _one_line(line: str, box: tuple[int, int] | None, rules: tuple[R.Rule, ...],
              fmt: str) -> Puzzle:
    """One line the fast reader did not take: JSON, a link, HoDoKu, forum, or plain text."""
    text = line.strip()
    if fmt in ("auto", "jsonl") and text.startswith("{"):
        return _json_puzzle(text, rules)
    if fmt == "jsonl":
        raise PuzzleError("not a JSON object")
    if fmt in ("auto", "link"):
        from sudokulab.formats.links import is_link, read_link

        if is_link(text):
            return with_rules(read_link(text), rules)
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
