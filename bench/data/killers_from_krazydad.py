"""Rebuild tests/data/killers.jsonl from krazydad's killer collection (see README.md here).

Reads the CSV of github.com/bnatalha/webscrapping (killer_sudoku/dataset_killer_sudoku.csv,
commit f07058e): 8,000 "intermediate" killers by Jim Bumgardner (krazydad.com), 100 books
of 8 per volume, each book harder than the one before, with solutions. Keeps every third
of the puzzles of books 90-92 that prolog could not answer within 3 s before issue 19's
fixes (the list below), and the partial grids: the hardest puzzle's cages below row 1
(16 grids) and below row 2 (122 grids), the counting cases.

Run: .venv/bin/python bench/data/killers_from_krazydad.py dataset_killer_sudoku.csv
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from sudokulab import rules as R
from sudokulab.formats.text import to_json
from sudokulab.puzzle import empty

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "killers.jsonl"
# rows of the CSV (from 0) where prolog timed out at 3 s, books 90-92, every third kept
SLOW = (7136, 7147, 7164, 7171, 7210, 7217, 7222, 7232, 7237, 7244, 7248, 7252, 7259,
        7270, 7279, 7285, 7288, 7291, 7301, 7310, 7315, 7319, 7327, 7337, 7358, 7159)
PARTIAL = 7159  # the slowest of them for the old norvig and prolog
DROPPED_ROWS = (1, 2)  # keep the cages lying wholly below this many rows


def cages(colors: str, hints: str) -> tuple[R.Cage, ...]:
    """The cages of one CSV row: a letter per cell (A-Z then a-z), the totals in that order."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for index, letter in enumerate(colors[1:]):  # the first character is krazydad's 'K'
        cells.setdefault(letter, []).append(divmod(index, 9))
    letters = sorted(cells, key=lambda letter: (letter.islower(), letter))
    totals = [int(total) for total in hints.split(",")]
    return tuple(R.Cage(tuple(cells[letter]), total) for letter, total in zip(letters, totals))


def main(path: str) -> None:
    """Write killers.jsonl: the slow puzzles with their solutions, then the partial grids."""
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    lines = []
    for index in SLOW:
        row = rows[index]
        puzzle = empty(9, cages(row["puzz_color"], row["puzz_hint"]))
        lines.append(to_json(puzzle, name=row["ptitle"], solution=row["solved"]))
    row = rows[PARTIAL]
    for dropped in DROPPED_ROWS:
        kept = tuple(cage for cage in cages(row["puzz_color"], row["puzz_hint"])
                     if min(r for r, _ in cage.cells) >= dropped)
        lines.append(to_json(empty(9, kept), name=f"{row['ptitle']} below row {dropped}",
                             partial=True))
    OUT.write_text("".join(json.dumps(json.loads(line)) + "\n" for line in lines))
    print(f"wrote {OUT}: {len(lines)} puzzles")


if __name__ == "__main__":
    main(sys.argv[1])
