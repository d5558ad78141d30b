"""Rebuild tests/data/killers-forum.jsonl from data/collections.js of sigh's Interactive
Sudoku Solver (github.com/sigh/Interactive-Sudoku-Solver, MIT): the hard killers of the
rcbroughton.co.uk and enjoysudoku forums that it collects (tests/data/killers-forum.md).

Two text forms of a killer are read, each as its forum defines it:
- the "snarfable" form (81 characters): a cage's head holds its total (0-9, then A-Z for
  10-35, a-j for 36-45), every other cell points to a neighbour of its cage (< > ^ v, and
  ` ' , . for the diagonals); a total of 0 leaves its cells uncaged;
- SudokuSolver's form `3x3:FLAGS:k:V1:...:V81`: each cell holds total * 256 + cage number
  (below 256: no cage); the flag d adds both diagonals.
Only puzzles with a published solution are kept, and only when every cage of the decoded
puzzle adds up to its total in that solution (and the diagonals differ where flagged).

Run: .venv/bin/python bench/data/killers_from_forums.py KILLERS_JS COLLECTIONS_JS \\
         > tests/data/killers-forum.jsonl
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

STEPS = {"<": (0, -1), ">": (0, 1), "^": (-1, 0), "v": (1, 0),
         "`": (-1, -1), "'": (-1, 1), ",": (1, -1), ".": (1, 1)}


def total_of(symbol: str) -> int:
    """A cage head's total in the snarfable form."""
    if symbol.isdigit():
        return int(symbol)
    if "A" <= symbol <= "Z":
        return ord(symbol) - ord("A") + 10
    if "a" <= symbol <= "j":
        return ord(symbol) - ord("a") + 36
    raise ValueError(f"not a cage total: {symbol!r}")


def head(text: str, cell: int) -> int:
    """The head cell of a cell's cage, following the arrows."""
    for _ in range(81):
        if text[cell] not in STEPS:
            return cell
        dr, dc = STEPS[text[cell]]
        cell = (cell // 9 + dr) * 9 + cell % 9 + dc
    raise ValueError("the arrows loop")


def snarfable(text: str) -> tuple[list[tuple[list[int], int]], bool]:
    """Cages (cells, total) of the snarfable form; no diagonals."""
    cages: dict[int, list[int]] = {}
    for cell in range(81):
        cages.setdefault(head(text, cell), []).append(cell)
    return [(cells, total_of(text[h])) for h, cells in cages.items() if total_of(text[h])], False


def sudokusolver(text: str) -> tuple[list[tuple[list[int], int]], bool]:
    """Cages (cells, total) of SudokuSolver's form, and whether the diagonals are a rule."""
    shape, flags, kind, *values = text.rstrip(":").split(":")
    if shape != "3x3" or kind != "k" or len(values) != 81:
        raise ValueError(f"not a 9x9 SudokuSolver killer: {text[:20]}")
    cages: dict[int, list[int]] = {}
    for cell, value in enumerate(map(int, values)):
        if value >= 256:
            cages.setdefault(value, []).append(cell)
    return [(cells, value // 256) for value, cells in cages.items()], "d" in flags


def name(cell: int) -> str:
    """A cell as sudokulab names it."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def holds(cages, diagonals: bool, solution: str) -> bool:
    """Every cage adds up in the solution, its digits differ, and so do the diagonals."""
    digits = [int(d) for d in solution]
    for cells, total in cages:
        found = [digits[c] for c in cells]
        if sum(found) != total or len(set(found)) != len(found):
            return False
    return not diagonals or all(len({digits[c] for c in line}) == 9 for line in
                                ([i * 10 for i in range(9)], [i * 8 + 8 for i in range(9)]))


def entries(source: str):
    """(title, source link, input, solution) for every killer with a published solution:
    the named ones (with their own link), then each [input, solution] pair, titled by its
    collection (a `const NAME` before it) and its place there, linked to the forum thread
    the comment or `src` above the collection names."""
    named = re.compile(r"name: '([^']+)',\s*src: '([^']+)',\s*input: '(3x3[^']+)',\s*"
                       r"solution: '(\d{81})'")
    for match in named.finditer(source):
        yield match.group(1), match.group(2), match.group(3), match.group(4)
    pair = re.compile(r"\[\s*'([^']+)',\s*'(\d{81})'\s*\]")
    heads = list(re.finditer(r"const (\w+) = ", source))
    counts: dict[str, int] = {}
    for match in pair.finditer(source):
        before = [h for h in heads if h.start() < match.start()][-1]
        collection = before.group(1)
        counts[collection] = counts.get(collection, 0) + 1
        links = re.findall(r"(https?://\S+?)['\s]", source[:before.start()][-400:] +
                           source[before.start():match.start()][:400])
        yield f"{collection} #{counts[collection]}", links[-1], match.group(1), match.group(2)


def puzzle_line(title: str, src: str, text: str, solution: str) -> str | None:
    """sudokulab's JSON line of one killer, or None when it does not decode or add up."""
    cages, diagonals = (sudokusolver if text.startswith("3x3") else snarfable)(text)
    if not holds(cages, diagonals, solution):
        return None
    rules: list[dict] = [{"type": "diagonal"}] if diagonals else []
    rules += [{"type": "cage", "cells": [name(c) for c in cells], "total": total}
              for cells, total in cages]
    return json.dumps({"box": [3, 3], "givens": [[0] * 9 for _ in range(9)], "rules": rules,
                       "name": title, "source": src, "solution": solution})


def main() -> None:
    """Print one JSON line per killer that decodes and adds up; say on stderr what was left."""
    source = "\n".join(Path(path).read_text(encoding="utf-8") for path in sys.argv[1:])
    seen = set()
    for title, src, text, solution in entries(source):
        if text in seen:
            continue
        seen.add(text)
        line = puzzle_line(title, src, text, solution)
        if line is None:
            print(f"left out (does not add up): {title}", file=sys.stderr)
        else:
            print(line)


if __name__ == "__main__":
    main()
