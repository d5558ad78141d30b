"""Rebuild miracle-grids.txt: the 72 grids of the empty 9x9 under the Miracle rules
(anti-knight, anti-king, non-consecutive), one per line, in order.

norvig (propagation and search) and sat (CNF) list them apart; the file is written only
when both give the same 72 grids and the checker, which shares no code with either,
accepts each one. The tests compare every complete search with this file instead of
listing the grids again in each test process. Run: python tests/data/miracle_grids.py
"""

from pathlib import Path

from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.check import check
from sudokulab.puzzle import empty

HERE = Path(__file__).parent


def main() -> None:
    """List the grids with both engines, check them, and write the file."""
    puzzle = empty(9, R.MIRACLE)
    listed = [make_backend(name).solve(puzzle, limit=None) for name in ("norvig", "sat")]
    grids = [sorted(set(result.solutions)) for result in listed]
    assert all(result.exact for result in listed) and grids[0] == grids[1], "engines differ"
    assert all(check(puzzle, grid) == [] for grid in grids[0]), "the checker refuses a grid"
    text = "".join("".join(map(str, grid)) + "\n" for grid in grids[0])
    (HERE / "miracle-grids.txt").write_text(text)
    print(f"{len(grids[0])} grids written to {HERE / 'miracle-grids.txt'}")


if __name__ == "__main__":
    main()
