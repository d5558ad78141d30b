"""Reading and writing one puzzle in the usual text forms, and JSON.

Forms read (see docs/formats.md):
- a line of N*N symbols, or a grid of N lines, with `.`, `0`, `_`, `-` or `*` for a blank;
  spaces, `|`, `+` and lines made only of `-`, `+`, `|`, `=` are layout and ignored;
- symbols are `1`-`9` then `A`-`Z` (so a 16x16 uses 1-9A-G and a 25x25 1-9A-P);
- a number form for any size: integers separated by commas or spaces, 0 for a blank;
- JSON: {"box": [rows, cols], "givens": [[...], ...], "rules": [...]};
- a multi-grid puzzle (samurai): its board drawn line by line (`formats.boards`), one
  line of its 369 cells row by row over the board, or JSON with "layout": "samurai" and
  "givens" that line (or the board's rows of numbers, null where no cell is).
Parsing never guesses: anything wrong raises PuzzleError saying what and where (a JSON
value as written: true, null, "3"). A box given beside the text (--box) is the box of a
form that has none, and must be the box of one that has its own (JSON, a link, a samurai). Files of
many puzzles are `formats.files`; links are `formats.links` (imported only for a link:
`is_link` tells).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

from sudokulab import rules as R
from sudokulab.errors import PuzzleError
from sudokulab.formats import BLANKS, MAX_TEXT, json_value
from sudokulab.formats.boards import format_board, read_board
from sudokulab.layout import BY_CELLS, Layout, named
from sudokulab.puzzle import (
    MAX_SIZE,
    MIN_SIZE,
    SYMBOLS,
    Puzzle,
    box_problem,
    box_shape,
    check_box,
    jigsaw_box,
    line_of,
    row_column,
    symbol,
    symbol_range,
    valid_sizes,
)

FRAME = set(" \t\r|+:") | set("│┃║┼╋╬")  # what draws a grid between its cells
RULE_LINE = re.compile(r"^(?:[\s\-+|=:─━═┼╋╬]*|\s*\*[-=]+\*\s*)$")  # *---* frames: .ss
BOM = "\ufeff"
LINK_STARTS = ("http:", "https:", "www.", "f-puzzles.", "sudokupad.", "beta.sudokupad.",
               "app.crackingthecryptic.", "scl", "ctc", "fpuz")  # what a puzzle never starts with


# --- reading ---------------------------------------------------------------------------

def parse(text: str, *, box: tuple[int, int] | None = None,
          rules: Iterable[R.Rule] = ()) -> Puzzle:
    """One puzzle from a line, a grid, the number form or JSON."""
    stripped = text.strip()
    puzzle = read_line(stripped, box, rules)
    if puzzle is not None:
        return puzzle
    stripped = stripped.lstrip(BOM).strip()
    if len(stripped) > MAX_TEXT:
        raise PuzzleError(f"input too long: {len(stripped):,} characters; one puzzle takes "
                          f"at most {MAX_TEXT:,}")
    if box is not None:
        check_box(box)
    if is_link(stripped):
        from sudokulab.formats.links import read_link

        return fit_box(with_rules(read_link(stripped), tuple(rules)), box)
    if stripped.startswith("{"):
        return with_rules(from_json(stripped, box=box), tuple(rules))
    if stripped.startswith(("[", '"')):
        _refuse_json(stripped)
    board = read_board(stripped, rules)  # a samurai drawn as its board
    if board is not None:
        return fit_box(board, box)
    lines = [line for line in stripped.splitlines() if line.strip() and not RULE_LINE.match(line)]
    if not lines:
        raise PuzzleError("empty input: no puzzle found")
    tokens = _number_tokens(lines) if _is_number_form(lines) else _symbol_tokens(lines)
    return _from_tokens(tokens, box, tuple(rules))


def is_link(text: str) -> bool:
    """Whether text is meant as a link (an address, or a bare f-puzzles or SudokuPad
    payload): it starts as no puzzle does, so `formats.links` then reads it or says why
    not. Asked without importing the link readers."""
    return text[:24].lower().startswith(LINK_STARTS)


def fit_box(puzzle: Puzzle, box: tuple[int, int] | None) -> Puzzle:
    """The puzzle, if a box given beside it (--box) is its own; PuzzleError if not, since
    a box the reader cannot apply must not pass as applied."""
    if box is None or tuple(box) == puzzle.box:
        return puzzle
    given = f"box {box[0]}x{box[1]}"
    if puzzle.layout is not None:
        n = puzzle.layout.n
        raise PuzzleError(f"{given} does not fit this {puzzle.layout.name}: its grids are "
                          f"{n}x{n} with {puzzle.box[0]}x{puzzle.box[1]} boxes")
    raise PuzzleError(f"{given} does not fit this puzzle: its boxes are "
                      f"{puzzle.box[0]}x{puzzle.box[1]}")


def with_rules(puzzle: Puzzle, rules: tuple[R.Rule, ...]) -> Puzzle:
    """A puzzle with rules added to its own (the command line's, say)."""
    return puzzle.with_rules(dict.fromkeys(puzzle.rules + rules)) if rules else puzzle


def _refuse_json(text: str) -> None:
    """PuzzleError for JSON that is not an object; nothing for text that is not JSON."""
    import json

    try:
        data = json_value(text)
    except json.JSONDecodeError:
        return
    raise PuzzleError(f"a JSON puzzle is an object with 'givens', not {_json_kind(data)}")


def _json_kind(data: object) -> str:
    """'a list', 'a string', ... for a decoded JSON value."""
    kinds = {list: "a list", str: "a string", bool: "true or false", int: "a number",
             float: "a number", dict: "an object"}
    return "null" if data is None else kinds.get(type(data), type(data).__name__)


def read_line(line: str, box: tuple[int, int] | None, rules: Iterable[R.Rule]) -> Puzzle | None:
    """The fast path: a well-formed line of N*N symbols read by one table look-up per cell.

    None for anything else (layout, a wrong symbol, another form): the careful parser
    then reads it again and says exactly what is wrong and where. Givens that clash are
    read as they are: such a puzzle is well formed and has no solution (see `clash`).
    """
    n = _LINE_SIZES.get(len(line))
    if n is None or (box is not None and (box[0] * box[1] != n or box_problem(box))):
        return None
    try:
        givens = tuple(map(_alphabet(n).__getitem__, line))
    except KeyError:
        return None
    box = box or box_shape(n)
    rules = rules if isinstance(rules, tuple) else tuple(rules)
    return Puzzle.from_reader(box, givens, rules)


_LINE_SIZES = {n * n: n for n in range(MIN_SIZE, MAX_SIZE + 1)
               if any(n % r == 0 for r in range(2, int(n**0.5) + 1))}


@cache
def _alphabet(n: int) -> dict[str, int]:
    """Every character a line of an N x N puzzle may hold, with the digit it stands for."""
    table = dict.fromkeys(BLANKS, 0)
    for digit, char in enumerate(SYMBOLS[:n], 1):
        table[char] = table[char.lower()] = digit
    return table


def _is_number_form(lines: list[str]) -> bool:
    """Commas mean the number form; so do multi-digit words when the words fill a grid."""
    if any("," in line for line in lines):
        return True
    words = [w for line in lines for w in re.split(r"[\s|;]+", line) if w]
    return any(len(w) > 1 and w.isdigit() for w in words) and \
        any(len(words) == n * n for n in valid_sizes())


def _symbol_tokens(lines: list[str]) -> list[tuple[str, str]]:
    """(symbol, where-in-text) for every cell symbol, layout dropped."""
    tokens = []
    for row, line in enumerate(lines, 1):
        for col, char in enumerate(line, 1):
            if char not in FRAME:
                tokens.append((char, f"line {row}, column {col}"))
    return tokens


def _number_tokens(lines: list[str]) -> list[tuple[str, str]]:
    """(number, where-in-text) for every cell of the comma/space separated form."""
    tokens = []
    for row, line in enumerate(lines, 1):
        for col, word in enumerate(w for w in re.split(r"[\s,|;]+", line) if w):
            tokens.append(("#" + word, f"line {row}, item {col + 1}"))
    return tokens


def _from_tokens(tokens: list[tuple[str, str]], box: tuple[int, int] | None,
                 rules: tuple[R.Rule, ...], layout: Layout | None = None) -> Puzzle:
    """Build a Puzzle once the count of tokens tells the size (or the layout's cells)."""
    if box is not None:
        check_box(box)  # before its size is used to count or read anything
    count = len(tokens)
    n = round(count**0.5)
    if layout is None and n * n != count:
        layout = BY_CELLS.get(count)  # 369 cells: a samurai's board, row by row
    if layout is not None:
        if count != layout.cell_count:
            raise PuzzleError(f"wrong length: {_cells(count)}; a {layout.name} has "
                              f"{layout.cell_count}")
        n = layout.n
        givens = tuple(_digit(tok, i, n, where, layout) for i, (tok, where) in enumerate(tokens))
        return fit_box(Puzzle(box_shape(n), givens, rules, layout), box)
    if box is None and n * n == count and any(isinstance(r, R.Jigsaw) for r in rules):
        box = jigsaw_box(n)  # regions replace the boxes: any size from 4 to 25 will do
    if box is None:
        if n * n != count or n not in valid_sizes():
            sizes = ", ".join(str(s * s) for s in valid_sizes())
            raise PuzzleError(f"wrong length: {_cells(count)}; an N x N puzzle has one of "
                              f"{sizes}")
        box = box_shape(n)
    elif count != (box[0] * box[1]) ** 2:
        raise PuzzleError(f"wrong length: {_cells(count)}; a {box[0]}x{box[1]}-box puzzle has "
                          f"{(box[0] * box[1]) ** 2}")
    n = box[0] * box[1]
    givens = tuple(_digit(tok, i, n, where) for i, (tok, where) in enumerate(tokens))
    return Puzzle(box, givens, rules)  # the Puzzle checks that the rules fit the grid


def _cells(count: int) -> str:
    """'1 cell', '80 cells'."""
    return f"{count} cell{'' if count == 1 else 's'}"


def _digit(token: str, index: int, n: int, where: str, layout: Layout | None = None) -> int:
    """The digit a token stands for, 0 for a blank; PuzzleError naming the cell if none."""
    cell = row_column(index, n) if layout is None else R.cell_name(layout.positions[index])
    if token.startswith("#"):
        word = token[1:]
        if word in BLANKS:
            return 0
        if not word.isdigit():
            raise PuzzleError(f"{cell} ({where}): {word!r} is not a number or blank mark")
        value = int(word)
        if value > n:
            raise PuzzleError(f"{cell} ({where}): {value} is too large for a {n}x{n} puzzle")
        return value
    if token in BLANKS:
        return 0
    value = SYMBOLS.find(token.upper()) + 1
    if not value:
        raise PuzzleError(f"{cell} ({where}): {token!r} is not a digit or blank mark")
    if value > n:
        raise PuzzleError(f"{cell} ({where}): {token!r} is not a digit of a {n}x{n} puzzle "
                          f"(digits {symbol_range(n)})")
    return value


def parse_many(text: str, source: str = "<input>", box: tuple[int, int] | None = None,
               rules: Iterable[R.Rule] = ()) -> list[Puzzle]:
    """Every puzzle in a text: one per line, or grids separated by blank lines; '#' comments."""
    rules = tuple(rules)
    puzzles = []
    for block in _blocks(text.lstrip(BOM)):
        if len(block) <= 2 * MAX_SIZE and is_grid([line for _, line in block]):
            lines = "\n".join(line for _, line in block)
            puzzles.append(_parse_at(lines, source, block[0][0], box, rules))
            continue
        for number, line in block:  # one puzzle per line: most files, and the hot loop
            puzzle = read_line(line.strip(), box, rules)
            puzzles.append(puzzle or _parse_at(line, source, number, box, rules))
    return puzzles


def _parse_at(text: str, source: str, number: int, box: tuple[int, int] | None = None,
              rules: tuple[R.Rule, ...] = ()) -> Puzzle:
    """Parse one puzzle, prefixing any error with file and line."""
    try:
        return parse(text, box=box, rules=rules)
    except PuzzleError as error:
        raise PuzzleError(f"{source}:{number}: {error}") from None


def _blocks(text: str) -> Iterable[list[tuple[int, str]]]:
    """Runs of (line number, line) without comments, split at blank lines."""
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip() if "#" in raw else raw.rstrip()
        if line.strip():
            block.append((number, line))
        elif block and not raw.lstrip().startswith("#"):
            yield block
            block = []
    if block:
        yield block


def is_grid(block: list[str]) -> bool:
    """A block is one grid when its N row lines hold N*N cells between them."""
    if len(block) < 2 or len(block) > 2 * MAX_SIZE:  # a grid has N rows (and rule lines)
        return False
    rows = [line for line in block if not RULE_LINE.match(line)]
    if not 2 <= len(rows) <= MAX_SIZE:
        return False
    if _is_number_form(rows):
        count = sum(len([w for w in re.split(r"[\s,|;]+", r) if w]) for r in rows)
    else:
        count = sum(1 for r in rows for ch in r if ch not in FRAME)
    return count == len(rows) ** 2


# --- writing ---------------------------------------------------------------------------

def format_line(puzzle: Puzzle) -> str:
    """One line of N*N symbols, '.' for blanks."""
    return line_of(puzzle.givens)


def format_numbers(puzzle: Puzzle) -> str:
    """The number form: one line per row, numbers separated by commas, 0 for blanks."""
    n = puzzle.n
    return "\n".join(",".join(str(d) for d in puzzle.givens[r * n:(r + 1) * n])
                     for r in range(n))


def format_grid(puzzle: Puzzle) -> str:
    """A pretty grid with lines between the boxes, as in Norvig's essay."""
    if puzzle.layout is not None:
        return format_board(puzzle, [symbol(d) for d in puzzle.givens])
    return _boxed(puzzle, [symbol(d) for d in puzzle.givens])


def format_candidates(puzzle: Puzzle, candidates: Sequence[Iterable[int]],
                      values: Sequence[int] | None = None) -> str:
    """Pencil marks: each cell lists its candidate digits, columns aligned. Given the
    cells' `values`, a blank cell with one candidate is written in braces ({4}), as the
    position readers take a candidate, where a bare 4 reads as a digit placed."""
    texts = ["".join(symbol(d) for d in sorted(c)) or "!" for c in candidates]
    if values is not None:
        texts = [f"{{{t}}}" if not v and len(t) == 1 and t != "!" else t
                 for t, v in zip(texts, values)]
    if puzzle.layout is not None:
        return format_board(puzzle, texts)
    return _boxed(puzzle, texts)


def _boxed(puzzle: Puzzle, texts: list[str]) -> str:
    """Lay out one text per cell in rows, with box separators."""
    (box_rows, box_cols), n = puzzle.box, puzzle.n
    if any(isinstance(rule, R.Jigsaw) for rule in puzzle.rules):
        box_rows = box_cols = n  # regions replace the boxes: no box lines to draw
    width = max(len(t) for t in texts)
    group = box_cols * width + box_cols - 1
    stacks = n // box_cols
    rule = "+".join("-" * (group + (1 if k in (0, stacks - 1) else 2)) for k in range(stacks))
    lines = []
    for r in range(n):
        if r and r % box_rows == 0:
            lines.append(rule)
        groups = [" ".join(t.ljust(width) for t in texts[r * n + c:r * n + c + box_cols])
                  for c in range(0, n, box_cols)]
        lines.append(" | ".join(groups).rstrip())
    return "\n".join(lines)


# How format_rules draws each rule type; a type not listed is named only.
DRAWN = {R.Jigsaw: "regions", R.Cage: "cages", R.Parity: "cages", R.LittleKiller: "lines",
         R.Sandwich: "sandwiches", **dict.fromkeys(R.LINES, "lines"),
         **dict.fromkeys(R.DOTS, "dots")}


def format_rules(puzzle: Puzzle) -> str:
    """The rules drawn on the grid: jigsaw regions and cages by letter, parity as e/o.

    Empty for a classic puzzle; rules that need no drawing are listed by name.
    """
    n = puzzle.n
    drawn: dict[str, list] = {}
    for rule in puzzle.rules:
        drawn.setdefault(DRAWN.get(type(rule), "names"), []).append(rule)
    parts = []
    if "names" in drawn:
        parts.append("rules: " + ", ".join(rule.name for rule in drawn["names"]))
    for rule in drawn.get("regions", []):
        marks = ["?"] * (n * n)
        for label, region in zip(SYMBOLS[9:] + SYMBOLS[:9], rule.regions):
            for row, col in region:
                marks[row * n + col] = label
        parts.append("regions:\n" + _boxed(puzzle, marks))
    if "cages" in drawn:
        parts.append(_format_cages(puzzle, drawn["cages"]))
    if "lines" in drawn:
        parts.append(_format_lines(puzzle, drawn["lines"]))
    parts += [_format_dots(puzzle, rule) for rule in drawn.get("dots", [])]
    if "sandwiches" in drawn:
        parts.append("sandwiches (between 1 and N): " + ", ".join(
            f"{'column' if s.column else 'row'} {s.index + 1} = {s.total}"
            for s in drawn["sandwiches"]))
    return "\n".join(parts)


def _format_cages(puzzle: Puzzle, rules: list) -> str:
    """Cages by letter, with their sums in a legend, and even (e) or odd (o) cells."""
    n = puzzle.n
    cages = [rule for rule in rules if hasattr(rule, "total")]
    parity = [rule for rule in rules if hasattr(rule, "even")]
    marks = ["."] * (n * n)
    labels = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for k, cage in enumerate(cages):
        for row, col in cage.cells:
            marks[row * n + col] = labels[k % len(labels)]
    for rule in parity:
        for row, col in rule.cells:
            cell = row * n + col
            marks[cell] = marks[cell].strip(".") + ("e" if rule.even else "o")
    legend = ", ".join(f"{labels[k % len(labels)]}={cage.total}" for k, cage in enumerate(cages))
    title = "cages (letter) and parity (e even, o odd)" if parity else "cages"
    return f"{title}:{' ' + legend if legend else ''}\n" + _boxed(puzzle, marks)


LINE_HEADS = {"thermometer": "bulb", "arrow": "circle"}


def _format_lines(puzzle: Puzzle, lines: list) -> str:
    """Lines, arrows, regions and little-killer diagonals, a letter each; the first cell of
    a thermometer (its bulb) and of an arrow (its circle) in capitals."""
    n = puzzle.n
    marks = ["."] * (n * n)
    labels = "abcdefghijklmnopqrstuvwxyz"
    legend = []
    for k, rule in enumerate(lines):
        label = labels[k % len(labels)]
        for i, (row, col) in enumerate(rule.cells):
            head = i == 0 and rule.name in LINE_HEADS
            marks[row * n + col] = label.upper() if head else label
        what = rule.name
        if rule.name in LINE_HEADS:
            what += f" ({label.upper()} {LINE_HEADS[rule.name]})"
        if hasattr(rule, "total"):  # a little killer's sum
            what += f" = {rule.total}"
        legend.append(f"{label} {what}")
    return "lines: " + ", ".join(legend) + "\n" + _boxed(puzzle, marks)


# Each dot rule's title, and the symbol of each of its fields' marks.
DOT_TITLES = {"kropki": "kropki (o consecutive, * ratio 2)", "xv": "xv (X sum 10, V sum 5)",
              "consecutive-marks": "consecutive marks (o), no mark means not consecutive"}
DOT_SYMBOLS = {"white": "o", "black": "*", "x": "X", "v": "V", "pairs": "o"}


def _format_dots(puzzle: Puzzle, rule: R.Dots) -> str:
    """Kropki dots (o white, * black) or XV marks between the cells they join."""
    n = puzzle.n
    between: dict[frozenset, str] = {}
    for field, pairs in rule.pairs_by_field().items():
        for a, b in pairs:
            between[frozenset((a, b))] = DOT_SYMBOLS[field]
    rows = []
    for r in range(n):
        line = ""
        for c in range(n):
            line += symbol(puzzle.givens[r * n + c]) if puzzle.givens[r * n + c] else "."
            if c < n - 1:
                line += between.get(frozenset(((r, c), (r, c + 1))), " ")
        rows.append(line.rstrip())
        if r < n - 1:
            rows.append(" ".join(between.get(frozenset(((r, c), (r + 1, c))), " ")
                                 for c in range(n)).rstrip())
    title = DOT_TITLES[rule.name]
    if rule.has_negative and rule.negative:
        title += ", no mark means neither"
    return f"{title}:\n" + "\n".join(rows)


def puzzle_data(puzzle: Puzzle) -> dict:
    """The JSON form as an object (sudokulab/data/puzzle.schema.json): box, givens as rows
    of numbers, rules (a multi-grid puzzle: its layout, and its givens as one line). The
    one shape of a puzzle in JSON: files, `solve --format json`, the generator and the
    page all start from it."""
    n = puzzle.n
    if puzzle.layout is not None:
        return {"layout": puzzle.layout.name, "box": list(puzzle.box),
                "givens": line_of(puzzle.givens), "rules": []}
    return {"box": list(puzzle.box),
            "givens": [list(puzzle.givens[r * n:(r + 1) * n]) for r in range(n)],
            "rules": [R.rule_to_json(rule) for rule in puzzle.rules]}


def to_json(puzzle: Puzzle, **extra: object) -> str:
    """The JSON form's text (`puzzle_data`, with extra fields)."""
    import json

    return json.dumps({**puzzle_data(puzzle), **extra})


def from_json(text: str, *, box: tuple[int, int] | None = None) -> Puzzle:
    """A puzzle from its JSON form; PuzzleError naming the field that is wrong and its value
    as written. `box` (--box) is the box when the JSON has none, and must be its box if it
    has one."""
    import json

    try:
        data = json_value(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(f"bad JSON at line {error.lineno}, column {error.colno}: "
                          f"{error.msg}") from None
    if not isinstance(data, dict):
        raise PuzzleError(f"a JSON puzzle is an object with 'givens', not {_json_kind(data)}")
    if "givens" not in data:
        raise PuzzleError("JSON puzzle needs an object with 'givens'")
    own_box = _json_box(data)
    layout = _json_layout(data)
    givens = data["givens"]
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list):
        raise PuzzleError(f"JSON 'rules' must be a list, not {R.json_text(raw_rules)}")
    rules = tuple(R.rule_from_json(rule, k) for k, rule in enumerate(raw_rules, 1))
    if isinstance(givens, str):
        tokens = _symbol_tokens([givens])
    else:
        tokens = _number_tokens(_json_rows(givens, layout).splitlines())
    if own_box is None:
        return _from_tokens(tokens, box, rules, layout)
    return fit_box(_from_tokens(tokens, own_box, rules, layout), box)


def _json_box(data: dict) -> tuple[int, int] | None:
    """The JSON's 'box', checked before anything is counted by it; None when absent."""
    if "box" not in data:
        return None
    box = data["box"]
    problem = box_problem(box)
    if problem:
        raise PuzzleError(f"JSON 'box' {R.json_text(box)}: {problem}")
    return tuple(box)


def _json_layout(data: dict) -> Layout | None:
    """The JSON's 'layout' (a name), or None when absent."""
    if "layout" not in data:
        return None
    name = data["layout"]
    if not isinstance(name, str):
        from sudokulab.layout import LAYOUTS

        raise PuzzleError(f"JSON 'layout' must be a layout's name ({', '.join(LAYOUTS)}), "
                          f"not {R.json_text(name)}")
    return named(name)


def _json_rows(givens: object, layout: Layout | None) -> str:
    """The number form of JSON 'givens' given as rows; PuzzleError naming a value that is
    no digit (null stands for no cell on a layout's board)."""
    if not isinstance(givens, list):
        raise PuzzleError(f"JSON 'givens' must be a string or a list of rows of numbers, "
                          f"not {_json_kind(givens)}")
    for r, row in enumerate(givens, 1):
        if not isinstance(row, list):
            raise PuzzleError(f"JSON 'givens' row {r}: {R.json_text(row)} is not a list of "
                              f"numbers ('givens' is a string, or a list of rows of numbers)")
    lines = []
    for r, row in enumerate(givens, 1):
        for c, value in enumerate(row, 1):
            if value is None and layout is not None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PuzzleError(f"JSON 'givens' row {r}, item {c}: {R.json_text(value)} is "
                                  f"not a digit (a whole number from 1, or 0 for a blank)")
        lines.append(",".join(str(v) for v in row if v is not None))
    return "\n".join(lines)
