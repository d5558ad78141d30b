"""f-puzzles and SudokuPad links: the address and its compressed payload, both ways.

An f-puzzles link (`https://f-puzzles.com/?load=PAYLOAD`) carries its puzzle as JSON
compressed by lz-string's `compressToBase64`. SudokuPad (`https://sudokupad.app/...`)
reads that same payload after `fpuzzles` (or `fpuz`), and its own format after `scl`
(or `ctc`). What the payload's JSON means is `formats.fpuzzles` and `formats.sudokupad`;
whether a text is meant as a link at all is `formats.text.is_link` (asked without
importing this module).

Chat programs and some browsers reduce a `//` in a link to `/`: the reader puts slashes
back, trying the fewest first, until the payload decompresses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from itertools import combinations
from urllib.parse import unquote

from sudokulab.errors import PuzzleError
from sudokulab.formats import json_value
from sudokulab.formats.fpuzzles import from_fpuzzles, to_fpuzzles
from sudokulab.formats.sudokupad import from_scl, unzip_scl
from sudokulab.puzzle import Puzzle

FPUZZLES = "https://f-puzzles.com/?load="


SUDOKUPAD = "https://sudokupad.app/"


HOSTS = ("f-puzzles.com", "sudokupad.app", "crackingthecryptic.com", "sudokupad.svencodes.com")


PREFIXES = ("fpuzzles", "fpuz", "scl", "ctc")  # longest first where one starts another


MAX_SLASH_TRIES = 200  # ways to put back slashes that lost their twin: a bound on work


def read_link(text: str) -> Puzzle:
    """The puzzle an f-puzzles or SudokuPad link carries; PuzzleError saying why not."""
    kind, payload = _payload(text.strip())
    data = decoded(payload, kind)
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
    slashes that lost their twin; PuzzleError if it holds none."""
    from lzstring import LZString

    lz = LZString()
    payload = unquote(payload).replace(" ", "+").strip()
    slashes = [m.start() for m in re.finditer("/", payload)]
    tries = 0
    for doubled in range(len(slashes) + 1):
        for chosen in combinations(slashes, doubled):
            tries += 1
            if tries > MAX_SLASH_TRIES:
                break
            fixed = _doubled_at(payload, chosen)
            data = _json_of(_decompress(lz, fixed), kind)
            if data is not None:
                return data
    site = "f-puzzles" if kind == "fpuzzles" else "SudokuPad"
    raise PuzzleError(f"the link's payload is not a {site} puzzle (it does not decompress "
                      f"to one; was the link cut short?)")


def _doubled_at(text: str, positions: Iterable[int]) -> str:
    """text with the '/' at each of the positions written twice."""
    out, last = [], 0
    for at in positions:
        out.append(text[last:at + 1])
        last = at
    out.append(text[last:])
    return "".join(out)


def _decompress(lz, payload: str) -> str | None:
    """lz-string's decompressFromBase64, or None where the payload is not one."""
    try:
        return lz.decompressFromBase64(payload)
    except (IndexError, KeyError, TypeError, ValueError):
        return None


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
