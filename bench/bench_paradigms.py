"""Issue 34's engines against bare loops of their own packages, and #SAT against enumeration.

1. mzn, milp, cpmpy on the first puzzles of top1465 (first solution, limit=1): the backend
   against the same engine called directly with its model built once (MiniZinc: a Model
   with the shape's data, an Instance per puzzle; HiGHS: one loaded program, givens as
   bounds; CPMpy: one Model, a Choco solver per puzzle). Target: at least 0.8x each.
2. Counting: Ganak's exact count against sat's enumeration on puzzles with 10^3 to 10^6
   solutions (6x6 grids with a few cells fixed: 28,200,960 divided by the relabellings
   left) and on real 9x9 puzzles thinned to 10^4 to millions; counts per second of each,
   the counts compared where enumeration finishes within a minute; where it does not (9x9),
   the Ganak counts of one cell's nine parts must sum to the whole and sat must list as
   many grids as Ganak counts in the smallest part (a check by another method, on the
   same CNF encoding); and on samurai puzzles of 10^5 to 10^13 solutions whose five grids
   share only givens, where Ganak's count must be the product of the grids' counts, each
   enumerated by norvig.
Prints one line per target ending in PASS or FAIL, and writes them with the machine to
results/paradigms.md (--out). --scale F runs F times the puzzles of part 1 and F times
its enumeration seconds (at least 1 puzzle; e.g. 0.25 on a loaded machine), named in the
report.

Run: .venv/bin/python bench/bench_paradigms.py [--scale F] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import time
from pathlib import Path

from provenance import machine_section

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.geometry import geometry
from sudokulab.puzzle import empty

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = {"mzn": 30, "milp": 200, "cpmpy": 200}  # MiniZinc runs a process per puzzle
TARGET = 0.8


def bare_mzn(puzzles) -> None:
    """MiniZinc's Python package alone: the model built once, an Instance per puzzle."""
    import minizinc

    from sudokulab.backends.mzn import quiet_gecode_library
    from sudokulab.models import mzn

    solver = minizinc.Solver.lookup("gecode")
    model = minizinc.Model(mzn.MODEL)
    model.add_string(mzn.data_text(mzn.rule_data(geometry((3, 3))), 9))
    with quiet_gecode_library():  # as the backend does: Debian's Gecode library warns
        for puzzle in puzzles:
            instance = minizinc.Instance(solver, model)
            instance["givens"] = list(puzzle.givens)
            instance.solve(nr_solutions=1)


def bare_milp(puzzles) -> None:
    """highspy alone on the program loaded once: givens as bounds, solve, bounds back."""
    from sudokulab.models import milp

    program = milp.build(geometry((3, 3)))
    h = milp.load(program)
    for puzzle in puzzles:
        columns = [program.x(c, d) for c, d in enumerate(puzzle.givens) if d]
        for column in columns:
            h.changeColBounds(column, 1.0, 1.0)
        h.run()
        h.getSolution()
        for column in columns:
            h.changeColBounds(column, 0.0, 1.0)


def bare_cpmpy(puzzles) -> None:
    """CPMpy alone: one Model, a Choco solver per puzzle with the givens added, its grid
    read (as the other bare loops read theirs: a solve that is never read is no answer)."""
    import cpmpy as cp

    grid = cp.intvar(1, 9, shape=81)
    model = cp.Model([cp.AllDifferent(grid[list(u)]) for u in geometry((3, 3)).units])
    for puzzle in puzzles:
        solver = cp.SolverLookup.get("choco", model)
        solver += [grid[c] == d for c, d in enumerate(puzzle.givens) if d]
        solver.solve()
        grid.value()


BARE = {"mzn": bare_mzn, "milp": bare_milp, "cpmpy": bare_cpmpy}


def speed(name: str, scale: float = 1.0) -> str:
    """One target line: the backend's puzzles/s against its bare loop's."""
    puzzles = datasets.load("top1465")[:max(1, round(PUZZLES[name] * scale))]
    backend = make_backend(name)
    backend.solve(puzzles[0], limit=1)  # warm: the model of the shape is built
    BARE[name](puzzles[:1])
    started = time.perf_counter()
    BARE[name](puzzles)
    bare = time.perf_counter() - started
    started = time.perf_counter()
    assert all(backend.solve(p, limit=1).solutions for p in puzzles)
    ours = time.perf_counter() - started
    ratio = bare / ours
    return (f"{name} on top1465[:{len(puzzles)}]: {len(puzzles) / ours:.1f}/s, bare loop "
            f"{len(puzzles) / bare:.1f}/s: {ratio:.2f}x (target {TARGET}x) "
            f"{'PASS' if ratio >= TARGET else 'FAIL'}")


COUNTED = {  # #SAT against enumeration: 10^3 to 10^6 solutions
    "6x6, first row and r2c1..3 fixed": [1, 2, 3, 4, 5, 6, 4, 5, 6],
    "6x6, first row fixed (39,168)": [1, 2, 3, 4, 5, 6],
    "6x6, r1c1..3 fixed (235,008)": [1, 2, 3],
    "6x6, r1c1..2 fixed (940,032)": [1, 2],
}
ENUMERATION = 60.0  # seconds of sat enumeration per puzzle: its rate, if not its count


def both_counts(puzzle, scale: float) -> tuple:
    """Ganak's count and its seconds; sat's enumeration (a Result, cut after ENUMERATION
    seconds times `scale`) and its seconds."""
    from sudokulab.backends import counting as sharp

    started = time.perf_counter()
    counted = sharp.count(puzzle).count
    ganak = time.perf_counter() - started
    started = time.perf_counter()
    listed = make_backend("sat").solve(puzzle, limit=None, timeout=ENUMERATION * scale)
    return counted, ganak, listed, time.perf_counter() - started


def compared(counted: int, ganak: float, listed, enumeration: float) -> str:
    """Ganak's count and sat's listing, each with its seconds and rate."""
    return (f"Ganak {counted:,} in {ganak:.1f} s ({counted / ganak:,.0f}/s), sat enumeration "
            f"{listed.count_text} in {enumeration:.1f} s ({listed.count / enumeration:,.0f}/s)")


def agree(counted: int, listed) -> bool:
    """sat lists Ganak's count, or fewer when its enumeration was cut."""
    return listed.count == counted if listed.exact else listed.count <= counted


def counting(name: str, scale: float = 1.0) -> str:
    """One target line: Ganak's counts per second against sat's enumeration."""
    puzzle = empty(6).with_values(COUNTED[name] + [0] * (36 - len(COUNTED[name])))
    counted, ganak, listed, enumeration = both_counts(puzzle, scale)
    return (f"#SAT on the {name}: {compared(counted, ganak, listed, enumeration)}; "
            f"{'counts agree' if listed.exact else 'enumeration cut, fewer listed'}: "
            f"{'PASS' if agree(counted, listed) else 'FAIL'}")


# Real 9x9 puzzles: easy50's first puzzle with its first k givens (reading order) blanked.
# A 9x9's formula never falls apart into independent components, so Ganak's time grows with
# the count: a million takes it about a minute (the 10^6 line of results/paradigms.md).
THINNED = {"10^4": 8, "10^5": 10, "10^6": 11}
# The samurai of the tests with its shared boxes given and k givens of each grid blanked
# (tests/data/samurai_opened.py): five independent components, the count their product.
OPENED = (3, 4, 6)


def thinned(blanked: int):
    """easy50's first puzzle with its first `blanked` givens (reading order) removed."""
    puzzle = datasets.load("easy50")[0]
    givens = [cell for cell, d in enumerate(puzzle.givens) if d][:blanked]
    return puzzle.with_values(0 if cell in givens else d for cell, d in enumerate(puzzle.givens))


def counting9(name: str, scale: float = 1.0) -> str:
    """One target line on a real 9x9: Ganak's count against sat's enumeration where it
    finishes; where it does not, the parts of a split on one cell, each counted by Ganak,
    must sum to the whole, and the smallest part's count must be what sat lists of it."""
    from sudokulab.backends import counting as sharp

    puzzle = thinned(THINNED[name])
    counted, ganak, listed, enumeration = both_counts(puzzle, scale)
    line = (f"#SAT on easy50[0] less {THINNED[name]} givens ({name}): "
            f"{compared(counted, ganak, listed, enumeration)}; ")
    if listed.exact:
        return line + f"counts agree: {'PASS' if listed.count == counted else 'FAIL'}"
    cell = next(c for c, d in enumerate(puzzle.givens) if not d)
    parts = [puzzle.with_values(d if c == cell else g for c, g in enumerate(puzzle.givens))
             for d in range(1, 10)]
    started = time.perf_counter()
    counts = [sharp.count(part).count for part in parts]
    split = time.perf_counter() - started
    smallest = min((k for k in range(9) if counts[k]), key=counts.__getitem__)
    check = make_backend("sat").solve(parts[smallest], limit=None,
                                      timeout=ENUMERATION * scale)
    met = sum(counts) == counted and check.exact and check.count == counts[smallest]
    return line + (f"enumeration cut; r{cell // 9 + 1}c{cell % 9 + 1}'s 9 parts by Ganak "
                   f"sum to {sum(counts):,} in {split:.1f} s, sat lists {check.count_text} of "
                   f"its part {smallest + 1} (Ganak {counts[smallest]:,}): "
                   f"{'PASS' if met else 'FAIL'}")


def samurai(blanked: int, scale: float = 1.0) -> str:
    """One target line on a samurai of millions of solutions: Ganak's count against sat's
    enumeration of the whole and the product of its five grids' counts, each grid
    enumerated by norvig (the grids share only givens, so the product is the count)."""
    import math

    from sudokulab.formats.text import parse

    path = ROOT / "tests" / "data" / f"samurai-opened-{blanked}.txt"
    puzzle = parse(path.read_text())
    counted, ganak, listed, enumeration = both_counts(puzzle, scale)
    norvig = make_backend("norvig")
    started = time.perf_counter()
    grids = [norvig.solve(empty(9).with_values([puzzle.givens[c] for c in cells]), limit=None)
             for cells in map(puzzle.layout.grid_cells, range(len(puzzle.layout.grids)))]
    product = math.prod(grid.count for grid in grids)
    by_grid = time.perf_counter() - started
    met = all(grid.exact for grid in grids) and product == counted and agree(counted, listed)
    return (f"#SAT on {path.name}: {compared(counted, ganak, listed, enumeration)}; the five "
            f"grids' counts by norvig ({' x '.join(f'{g.count:,}' for g in grids)}) multiply "
            f"to {product:,} in {by_grid:.1f} s: {'PASS' if met else 'FAIL'}")


def report(lines: list[str], scale: float, took: float) -> str:
    """results/paradigms.md: the target lines, how they were run, the machine."""
    return "\n".join([
        "# Issue 34's engines against bare loops; #SAT against enumeration",
        "",
        f"Measured {datetime.date.today()} by `bench/bench_paradigms.py"
        + (f" --scale {scale}`: {scale}x the puzzles and enumeration seconds" if scale != 1
           else "`") + f", {took:.0f} s in all. Seconds are wall clock: the machine is "
        "shared (its load is under Machine), so ratios of two loops run one after the "
        "other are the figures to read, not rates.",
        "",
        "## Engine against its bare loop (top1465, limit=1, target "
        f"{TARGET}x)", "",
        *[f"- {line}" for line in lines if not line.startswith("#SAT")], "",
        "## #SAT counts per second against enumeration (sat, limit=None)", "",
        *[f"- {line}" for line in lines if line.startswith("#SAT")], "",
        *machine_section(measured=("sudokulab", "bench/bench_paradigms.py")), ""])


def main(argv: list[str] | None = None) -> int:
    """Print each target, write the report; 0 when all are met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0,
                        help="this share of the puzzles and enumeration seconds")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "paradigms.md")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    lines = []
    for target, cases in ((speed, PUZZLES), (counting, COUNTED), (counting9, THINNED),
                          (samurai, OPENED)):
        for case in cases:
            lines.append(target(case, args.scale))
            print(lines[-1], flush=True)
    args.out.write_text(report(lines, args.scale, time.perf_counter() - started))
    return 0 if all(line.endswith("PASS") for line in lines) else 1


if __name__ == "__main__":
    raise SystemExit(main())
