"""Build bench/data/hodoku_levels.txt: HoDoKu's own level and score for public puzzles.

HoDoKu (GPL, Java) is run outside the repository as an oracle; only its verdicts (facts
about public puzzles) are kept here. Two stages:

  inputs DIR       write DIR/top1465.txt (every 6th puzzle of the bundled top1465, from
                   the first) and DIR/sudoku10k.txt (every 40th of sudoku10k), one line each
  table DIR        read HoDoKu's batch output DIR/NAME.out.txt for both and write the table

Between them, for each NAME, HoDoKu's batch solve with its default configuration:
  java -Djava.awt.headless=true -cp CLASSES sudoku.Main /c default /bs DIR/NAME.txt /vp
       /o DIR/NAME.out.txt

Run: .venv/bin/python bench/data/hodoku_levels_build.py inputs|table DIR
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sudokulab import datasets

OUT = Path(__file__).resolve().parent / "hodoku_levels.txt"
EVERY = {"top1465": 6, "sudoku10k": 40}
VERSION = "HoDoKu v2.2.4 (Build 150; github.com/1to9only/HoDoKu commit c364e98)"
COMMAND = ("java -Djava.awt.headless=true -cp CLASSES sudoku.Main /c default /bs NAME.txt "
           "/vp /o NAME.out.txt")
HEADER = re.compile(r"^([0-9.]{81}) #(\d+) (\w+) \((\d+)\)")


def chosen(name: str) -> list[tuple[int, str]]:
    """(index in the dataset, puzzle line) of the puzzles sent to HoDoKu."""
    lines = datasets.lines(name)
    return [(i, lines[i].split()[0]) for i in range(0, len(lines), EVERY[name])]


def inputs(folder: Path) -> None:
    """One file of puzzles per dataset, for HoDoKu's /bs."""
    for name in EVERY:
        text = "".join(line + "\n" for _, line in chosen(name))
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")


def verdicts(path: Path) -> list[tuple[str, str, int, bool]]:
    """(puzzle, level, score, guessed) per puzzle of a HoDoKu /bs /vp output, in order."""
    out: list[tuple[str, str, int, bool]] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = HEADER.match(line)
        if match:
            out.append((match[1], match[3], int(match[4]), False))
        elif line.strip().startswith("Brute Force") and out:
            out[-1] = (*out[-1][:3], True)
    return out


def table(folder: Path) -> None:
    """The reference file, provenance first."""
    rows = []
    for name in EVERY:
        picked = chosen(name)
        found = verdicts(folder / f"{name}.out.txt")
        if len(found) != len(picked):
            sys.exit(f"{name}: {len(found)} verdicts for {len(picked)} puzzles")
        for (index, line), (puzzle, level, score, guessed) in zip(picked, found):
            if puzzle.replace("0", ".") != line.replace("0", "."):
                sys.exit(f"{name} #{index}: HoDoKu's puzzle differs from ours")
            rows.append(f"{name} {index} {line} {level} {score}" + (" guessed" * guessed))
    head = [
        f"# HoDoKu's level and score for {len(rows)} public puzzles (sudokulab issue 14).",
        f"# Made by {VERSION},",
        "# default configuration, run outside the repository as an oracle:",
        f"#   {COMMAND}",
        "# on every 6th puzzle of the bundled top1465 and every 40th of sudoku10k (from the",
        "# first); rebuilt by bench/data/hodoku_levels_build.py from HoDoKu's output.",
        "# Columns: dataset, index in it (from 0), puzzle, level, score; 'guessed' marks a",
        "# puzzle where HoDoKu's default techniques stalled and it used Brute Force.",
    ]
    OUT.write_text("\n".join(head + rows) + "\n", encoding="utf-8")


def main() -> None:
    """inputs DIR | table DIR."""
    if len(sys.argv) != 3 or sys.argv[1] not in ("inputs", "table"):
        sys.exit(__doc__)
    {"inputs": inputs, "table": table}[sys.argv[1]](Path(sys.argv[2]))


if __name__ == "__main__":
    main()
