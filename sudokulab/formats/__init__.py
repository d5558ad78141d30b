"""Readers and writers of puzzles beyond one line or grid: files of many puzzles, each
with its own rules (JSON Lines, JSON arrays), the files Sudoku programs exchange (.sdk,
.sdm, .ss, Project Euler 96, HoDoKu's library, the forum's `puzzle ; rating` lines), and
f-puzzles and SudokuPad links (`formats.links`: the address and its payload; the JSON
inside is `formats.fpuzzles` or `formats.sudokupad`). `formats.files` is the API the commands
call: `read_file`/`read_text` give one Entry per puzzle (or per bad one, with its file
and line), `write` gives a file's text.
"""

from typing import Any

# The one table of format names: the commands' choices and help, and the readers and
# writers, derive theirs from it (it imports only typing, so a command's --help stays cheap).
READERS = ("auto", "lines", "jsonl", "json", "sdk", "sdm", "ss", "euler", "hodoku", "forum",
           "link")  # --input-format: how a file or an argument is read (auto: line by line)
LINKS = ("fpuzzles", "sudokupad")  # writers whose text is a link that opens the puzzle
WRITERS = ("line", "jsonl", "json", "sdk", "sdm", "ss", "euler", "hodoku", *LINKS)
KEEPS_RULES = ("jsonl", "json", *LINKS)  # the other writers drop rules
MAX_TEXT = 1_000_000  # characters in one puzzle's text (a link's payload decompressed too):
                      # far above any real puzzle, and checked before anything is split
BLANKS = ".0_-*"  # what stands for a blank cell in a line, a grid or a board


def json_value(text: str | bytes) -> Any:  # as json.loads: the caller checks the shape
    """json.loads, nesting past Python's recursion limit being bad JSON like any other (a
    JSONDecodeError, a ValueError): json itself raises RecursionError, which a reader of
    puzzles, runs or certificates does not expect."""
    import json

    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nesting too deep", text if isinstance(text, str) else "",
                                   0) from None
