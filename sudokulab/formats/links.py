"""f-puzzles and SudokuPad links: the address and its compressed payload, both ways.

An f-puzzles link (`https://f-puzzles.com/?load=PAYLOAD`) carries its puzzle as JSON
compressed by lz-string's `compressToBase64`. SudokuPad (`https://sudokupad.app/...`)
reads that same payload after `fpuzzles` (or `fpuz`), and its own format after `scl`
(or `ctc`). What the payload's JSON means is `formats.fpuzzles` and `formats.sudokupad`;
whether a text is meant as a link at all is `formats.text.is_link` (asked without
importing this module).

Chat programs and some browsers reduce a `//` in a link to `/`: the reader puts slashes
back, trying the fewest first, until the payload decompresses.

A payload is decompressed here, not by the lzstring package, so that it stops at
MAX_TEXT characters: lz-string's output can grow as the square of its input, and a 14 KB
link can hold 25 million characters, or a 100 KB one billions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from itertools import combinations, islice
from urllib.parse import unquote

from sudokulab.errors import PuzzleError
from sudokulab.formats import MAX_TEXT, json_value
from sudokulab.formats.fpuzzles import from_fpuzzles, to_fpuzzles
from sudokulab.formats.sudokupad import from_scl, unzip_scl
from sudokulab.puzzle import Puzzle

FPUZZLES = "https://f-puzzles.com/?load="


SUDOKUPAD = "https://sudokupad.app/"


HOSTS = ("f-puzzles.com", "sudokupad.app", "crackingthecryptic.com", "sudokupad.svencodes.com")


PREFIXES = ("fpuzzles", "fpuz", "scl", "ctc")  # longest first where one starts another


MAX_SLASH_TRIES = 200  # ways to put back slashes that lost their twin: a bound on work


BASE64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                     "0123456789+/=")}  # lz-string's alphabet, '=' too


FIRST_TOKEN = 3  # base64 characters that can hold the first decompressed character


class TooLarge(Exception):
    """A payload decompresses to more than a puzzle's text may hold (MAX_TEXT)."""


def read_link(text: str) -> Puzzle:
    """The puzzle an f-puzzles or SudokuPad link carries; PuzzleError saying why not."""
    kind, payload = _payload(text.strip())
    try:
        data = decoded(payload, kind)
    except TooLarge:
        raise PuzzleError(f"{text.strip()[:60]!r}: its payload ({len(payload):,} characters) "
                          f"decompresses to more than {MAX_TEXT:,} characters, more than "
                          f"any puzzle takes: not a puzzle link") from None
    return from_fpuzzles(data) if kind == "fpuzzles" else from_scl(data)


def _payload(link: str) -> tuple[str, str]:
    """('fpuzzles' or 'scl', the compressed payload) of a link or a bare prefixed payload."""
    rest = re.sub(r"^[a-z]+:/*", "", link, flags=re.IGNORECASE)  # "https:/" too
    host, _, path = rest.partition("/")
    site = _site(host)
    if site == "f-puzzles.com":
        if "load=" in path:
            return "fpuzzles", path.split("load=", 1)[1].split("&", 1)[0]
        raise PuzzleError("f-puzzles link without ?load=: a short link (?id=) needs the "
                          "f-puzzles server; open it and copy the long link")
    if site is None:
        if rest != link or link.lower().startswith("www."):  # an address, of another site
            raise PuzzleError(f"{link[:60]!r} is not a puzzle link sudokulab knows: it reads "
                              f"links of {', '.join(HOSTS)}")
        path = link  # a bare payload: fpuzzles..., scl..., ctc...
    if "puzzleid=" in path:
        path = path.split("puzzleid=", 1)[1].split("&", 1)[0]
    else:  # settings may follow in a query; a payload never holds '?'
        path = re.sub(r"^sudoku/", "", path.split("?", 1)[0])
    path = unquote(path)
    for prefix in PREFIXES:
        if path.startswith(prefix):
            kind = "fpuzzles" if prefix.startswith("fpuz") else "scl"
            return kind, path[len(prefix):]
    if path.startswith("scf"):
        raise PuzzleError("SudokuPad 'scf' links are not supported; share the puzzle as "
                          "an f-puzzles or scl link")
    if not path:
        raise PuzzleError(f"SudokuPad link without a puzzle: {link[:60]!r}")
    raise PuzzleError(f"SudokuPad short link {path[:40]!r}: the puzzle is on SudokuPad's "
                      f"server, not in the link; open it and share it as an scl or "
                      f"f-puzzles link")


def _site(host: str) -> str | None:
    """Which of HOSTS a link's host is (itself or a subdomain of it), or None: only a
    known site's own host counts, not a host that merely contains its name."""
    name = host.rpartition("@")[2].partition(":")[0].lower().rstrip(".")
    return next((h for h in HOSTS if name == h or name.endswith("." + h)), None)


def decoded(payload: str, kind: str) -> dict:
    """The JSON object a payload of a kind ('fpuzzles' or 'scl') holds, putting back
    slashes that lost their twin; PuzzleError if it holds none, TooLarge (at once) if it
    decompresses to more than MAX_TEXT characters."""
    payload = unquote(payload).replace(" ", "+").strip()
    slashes = [m.start() for m in re.finditer("/", payload)]
    for chosen in _doublings(slashes):
        text = inflated(_doubled_at(payload, chosen))
        data = _json_of(text, kind)
        if data is not None:
            return data
        if _hopeless(text, slashes):
            break
    site = "f-puzzles" if kind == "fpuzzles" else "SudokuPad"
    raise PuzzleError(f"the link's payload is not a {site} puzzle (it does not decompress "
                      f"to one; was the link cut short?)")


def _doublings(slashes: list[int]) -> Iterator[tuple[int, ...]]:
    """The slashes to write twice, fewest first, MAX_SLASH_TRIES ways at most."""
    ways = (chosen for doubled in range(len(slashes) + 1)
            for chosen in combinations(slashes, doubled))
    return islice(ways, MAX_SLASH_TRIES)


def _hopeless(text: str | None, slashes: list[int]) -> bool:
    """Whether no doubled slash can make JSON of a payload that decompressed to text: its
    first character cannot start a JSON object, and the slashes all come after the
    characters that wrote it (a doubled slash changes only what comes after it)."""
    if not text or (slashes and slashes[0] < FIRST_TOKEN):
        return False
    return text[0] not in "{ \t\r\n"


def _doubled_at(text: str, positions: Iterable[int]) -> str:
    """text with the '/' at each of the positions written twice."""
    out, last = [], 0
    for at in positions:
        out.append(text[last:at + 1])
        last = at
    out.append(text[last:])
    return "".join(out)


def inflated(payload: str, limit: int = MAX_TEXT) -> str | None:
    """lz-string's decompressFromBase64 (the same text), or None where the payload is not
    one; TooLarge as soon as the text passes limit characters."""
    try:
        bits = _Bits([BASE64[c] for c in payload])
        return _inflate(bits, limit)
    except (KeyError, EOFError):  # not base64, or cut short
        return None


def _inflate(bits: _Bits, limit: int) -> str | None:
    """lz-string's decompression of the bits: each code a dictionary entry (0 and 1 bring
    a new character, 2 ends), each entry but the first adding one to the dictionary."""
    first = bits.read(2)
    if first > 1:  # 2: the empty text; 3: no lz-string at all
        return "" if first == 2 else None
    word = chr(bits.read(8 if first == 0 else 16))
    entries = ["", "", "", word]  # codes 0 to 2 are marks, not entries
    out, size, width = [word], 1, _Width()
    while True:
        code = bits.read(width.bits)
        if code == 2:
            return "".join(out)
        if code < 2:
            entries.append(chr(bits.read(8 if code == 0 else 16)))
            code = len(entries) - 1
            width.added()
        if code > len(entries):
            return None
        entry = entries[code] if code < len(entries) else word + word[0]
        size += len(entry)
        if size > limit:
            raise TooLarge
        out.append(entry)
        entries.append(word + entry[0])
        width.added()
        word = entry


class _Bits:
    """The bits of base64 values as lz-string reads them: highest first in each value,
    each number lowest bit first; EOFError past the end."""

    def __init__(self, values: list[int]) -> None:
        self.values, self.index, self.mask = values, 0, 32

    def read(self, count: int) -> int:
        """The next `count` bits as a number."""
        number = 0
        for power in range(count):
            if self.index >= len(self.values):
                raise EOFError
            if self.values[self.index] & self.mask:
                number |= 1 << power
            self.mask >>= 1
            if not self.mask:
                self.index, self.mask = self.index + 1, 32
        return number


class _Width:
    """How many bits a code takes: one more each time the dictionary doubles."""

    def __init__(self) -> None:
        self.bits, self.left = 3, 4

    def added(self) -> None:
        """An entry was added."""
        self.left -= 1
        if not self.left:
            self.left, self.bits = 1 << self.bits, self.bits + 1


def _json_of(text: str | None, kind: str) -> dict | None:
    """The JSON object in decompressed text (SudokuPad's compact form unzipped), or None."""
    if not text:
        return None
    try:
        data = json_value(text)
    except ValueError:
        if kind != "scl":
            return None
        try:
            data = unzip_scl(text)
        except ValueError:
            return None
    return data if isinstance(data, dict) else None


def _compressed(data: dict) -> str:
    """lz-string's compressToBase64 of compact JSON."""
    from lzstring import LZString

    return LZString().compressToBase64(json.dumps(data, separators=(",", ":")))


def fpuzzles_link(puzzle: Puzzle, solution: Iterable[int] | None = None) -> str:
    """An f-puzzles link that opens the puzzle."""
    return FPUZZLES + _compressed(to_fpuzzles(puzzle, solution))


def sudokupad_link(puzzle: Puzzle, solution: Iterable[int] | None = None) -> str:
    """A SudokuPad link that opens the puzzle (SudokuPad reads f-puzzles' payload)."""
    return SUDOKUPAD + "fpuzzles" + _compressed(to_fpuzzles(puzzle, solution))
