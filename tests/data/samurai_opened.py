"""Rebuild samurai-opened-K.txt: the samurai of samurai.txt with the four boxes its grids
share filled in from samurai.solution.txt and the first K other givens of each grid (in
reading order) blanked.

With the shared boxes given, the five grids share no open cell, so the puzzle's count is
the product of its grids' counts: millions of solutions that a #SAT counter finds in
seconds by splitting the formula into its five components, and that enumeration can
check grid by grid. Run: python tests/data/samurai_opened.py
"""

from pathlib import Path

from sudokulab.formats.text import parse

HERE = Path(__file__).parent
BLANKED = (3, 4, 6)  # per grid: 416,520, 98,154,342 and 15,391,518,557,184 solutions


def opened(blanked: int):
    """The samurai with its shared boxes given and `blanked` own givens per grid blanked."""
    puzzle = parse((HERE / "samurai.txt").read_text())
    solution = parse((HERE / "samurai.solution.txt").read_text()).givens
    layout = puzzle.layout
    grids = [layout.grid_cells(k) for k in range(len(layout.grids))]
    shared = {c for g in grids for c in g if sum(c in other for other in grids) > 1}
    givens = [solution[c] if c in shared else d for c, d in enumerate(puzzle.givens)]
    for grid in grids:
        for cell in [c for c in grid if givens[c] and c not in shared][:blanked]:
            givens[cell] = 0
    return puzzle.with_values(givens)


def plain(puzzle) -> str:
    """The board as samurai.txt writes it: a digit or '.' per cell, spaces for the void."""
    at = puzzle.layout.index
    return "\n".join("".join(str(puzzle.givens[at[r, c]] or ".") if (r, c) in at else " "
                             for c in range(puzzle.layout.width)).rstrip()
                     for r in range(puzzle.layout.height))


def main() -> None:
    """Write one file per entry of BLANKED."""
    for blanked in BLANKED:
        header = ("# samurai.txt with the four shared boxes filled in from samurai.solution.txt\n"
                  f"# and the first {blanked} other givens of each grid blanked; made by\n"
                  "# samurai_opened.py. Void: spaces.\n")
        board = plain(opened(blanked))
        (HERE / f"samurai-opened-{blanked}.txt").write_text(header + board + "\n")


if __name__ == "__main__":
    main()
