"""Issue 59: the compiled engine (`native`) against its own bare C loop and tdoku's
published rates, and `solve --file`'s batch path against the bare loop.

Targets:
1. all of 17_clue (the lab's bundled copy, 49,158 puzzles) in-process through the batch
   API (`native.solve_lines`: one C call, limit 2, so uniqueness is proved) at >= 50,000
   puzzles/s;
2. all of top1465 the same way at >= 10,000 puzzles/s;
3. every answer checked in this run: each grid by `sudokulab.check.failures` (the
   checker's batch test; a failing batch is checked grid by grid by `check`) and against
   the dataset's reference solution: 0 wrong;
4. `sudokulab solve --file 17_clue -b native --format line`, a whole process (start,
   read, solve, check, print), at >= 0.5x the rate of the bare C loop (bench/bare_native.c:
   a C program that reads the file, calls native_batch once and prints the same lines),
   outputs compared byte for byte.

Times are CPU seconds (the process's, or a child's from getrusage), so that the other
jobs of a shared machine do not count against either side; wall-clock rates are shown
beside them. Rounds alternate the two sides; the verdict takes each side's best round, as
timeit does (noise only ever slows a run). Beside them: the per-puzzle API
(`Backend.solve`, a Result per puzzle) and tdoku's published rates for the same sets, from
one file of t-dillon/tdoku (TDOKU below), measured on another machine.

Run: .venv/bin/python bench/bench_native.py [--rounds N] [--cli-rounds N] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.backends import native
from sudokulab.check import check, failures
from sudokulab.puzzle import line_of

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
SUDOKULAB = str(Path(PYTHON).with_name("sudokulab"))
TARGETS = {"17_clue": 50_000.0, "top1465": 10_000.0, "cli": 0.5}
# tdoku's published rates (puzzles/s) and guesses per puzzle, its own solver, from the
# file and commit below (the run tdoku's README takes its tables from; i7-1065G7, clang 11
# -O3 -march=native, one core); the ladder (sudokulab/teaching/ladder.py) quotes the same
# file for its % no guess.
TDOKU_FILE = ("t-dillon/tdoku", "benchmarks/results_i7-1065G7/i7-1065G7_clang-11_O3_native",
              "9d62b98cd1ff06452943c0f6ba2e95ddf388591b")
TDOKU = {"17_clue": ("data/puzzles2_17_clue", 359_167.2, 0.61),
         "top1465": ("data/puzzles3_magictour_top1465", 133_223.0, 9.05)}
DIGITS = bytes.maketrans(b".0123456789", bytes([0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
MEASURED = ["sudokulab/backends/native.py", "sudokulab/backends/native/native.c",
            "sudokulab/commands/batch.py", "sudokulab/check.py", "bench/bare_native.c"]


def lines_of(name: str) -> tuple[list[str], list[str]]:
    """A bundled dataset's puzzles and reference solutions as 81-character lines."""
    return ([line_of(p.givens) for p in datasets.load(name)],
            [line_of(s) for s in datasets.solutions(name)])


def batch_pass(lines: list[str], solutions: list[str]) -> dict:
    """One in-process pass of the batch API: CPU and wall seconds, wrong answers (checked
    by check.failures and against the reference), guesses per puzzle."""
    text = "".join(lines).encode("ascii")
    wall, cpu = time.perf_counter(), time.process_time()
    batch = native.solve_lines(text, len(lines))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    started = time.process_time()
    grids = batch.first.translate(None, b"\n")
    refused = failures((3, 3), text.translate(DIGITS), grids.translate(DIGITS))
    checking = time.process_time() - started
    wrong = len(set(refused) | {k for k, found in enumerate(batch.status) if found != 1}
                | {k for k, s in enumerate(solutions) if grids[81 * k:81 * k + 81] != s.encode()})
    return {"cpu": cpu, "wall": wall, "n": len(lines), "wrong": wrong, "check": checking,
            "guesses": batch.stats["guesses"] / len(lines)}


def api_pass(name: str) -> dict:
    """One pass of the per-puzzle API (Backend.solve, limit 2): a Result per puzzle, each
    grid checked by check."""
    engine = native.NativeBackend()
    puzzles, solutions = datasets.load(name), datasets.solutions(name)
    engine.solve(puzzles[0])  # loads the library before the clock starts
    wall, cpu = time.perf_counter(), time.process_time()
    results = [engine.solve(p) for p in puzzles]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    wrong = sum(r.solutions != (tuple(s),) or bool(check(p, r.solutions[0]))
                for p, r, s in zip(puzzles, results, solutions, strict=True))
    return {"cpu": cpu, "wall": wall, "n": len(puzzles), "wrong": wrong,
            "no_guess": sum(r.stats["guesses"] == 0 for r in results) / len(puzzles)}


def build_bare(folder: Path) -> Path:
    """bench/bare_native.c with native.c and the lab's flags, as one program."""
    program = folder / "bare_native"
    flags = [flag for flag in native.FLAGS if flag not in ("-shared", "-fPIC")]
    subprocess.run([native.compiler() or "cc", *flags, str(HERE / "bare_native.c"),
                    str(native.SOURCE), "-o", str(program)], check=True)
    return program


def timed(command: list[str], out: Path) -> tuple[float, float]:
    """CPU and wall seconds a whole process takes, its output in `out`; it must exit 0."""
    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    started, clock = cpu(), time.perf_counter()
    with open(out, "w") as stream:
        subprocess.run(command, stdout=stream, check=True, cwd=ROOT)
    return cpu() - started, time.perf_counter() - clock


def through_cli(lines: list[str], solutions: list[str], rounds: int, folder: Path) -> dict:
    """`sudokulab solve --file` and the bare C loop, rounds interleaved; outputs compared
    with each other and with the reference solutions."""
    source = folder / "17_clue.txt"
    source.write_text("\n".join(lines) + "\n")
    expected = "\n".join(solutions) + "\n"
    commands = {"ours": [SUDOKULAB, "solve", "--file", str(source), "-b", "native",
                         "--format", "line"],
                "bare": [str(build_bare(folder)), str(source)]}
    # as `make install` leaves it: byte-code compiled (where PYTHONDONTWRITEBYTECODE is
    # set, every start would otherwise compile sudokulab's modules again)
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(ROOT / "sudokulab")], check=True)
    times: dict[str, list[tuple[float, float]]] = {"ours": [], "bare": []}
    same = True
    for k in range(rounds):
        order = list(commands.items())
        for name, command in (order if k % 2 == 0 else order[::-1]):
            times[name].append(timed(command, folder / f"{name}.txt"))
        same &= (folder / "ours.txt").read_text() == (folder / "bare.txt").read_text() \
            == expected
    return {**times, "same": same, "n": len(lines)}


def best(passes: list[dict], clock: str = "cpu") -> dict:
    """The fastest pass on a clock."""
    return min(passes, key=lambda p: p[clock])


def rate(m: dict, clock: str = "cpu") -> float:
    """Puzzles per second of a pass."""
    return m["n"] / m[clock]


def measure(rounds: int, cli_rounds: int) -> dict:
    """Every figure of the report."""
    figures: dict = {}
    native.engine()  # compiled (if need be) and loaded before any clock starts
    for name in ("17_clue", "top1465"):
        lines, solutions = lines_of(name)
        passes = []
        for k in range(rounds):
            passes.append(batch_pass(lines, solutions))
            print(f"{name} round {k + 1}/{rounds}: {rate(passes[-1]):,.0f}/s CPU",
                  file=sys.stderr)
        figures[name] = {"batch": passes, "api": api_pass(name), "n": len(lines)}
    lines, solutions = lines_of("17_clue")
    shared = Path("/work/shared/datasets/17_clue.txt")
    figures["same_set"] = (shared.read_text().split() == lines) if shared.exists() else None
    print("17_clue through the command line ...", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        figures["cli"] = through_cli(lines, solutions, cli_rounds, Path(folder))
    return figures


def verdicts(figures: dict) -> list[tuple[str, bool, str]]:
    """(target, met, the figures behind it), one per target."""
    out = []
    for name in ("17_clue", "top1465"):
        b, w = best(figures[name]["batch"]), best(figures[name]["batch"], "wall")
        out.append((f"{name} in-process, batch API >= {TARGETS[name]:,.0f}/s",
                    rate(b) >= TARGETS[name],
                    f"{rate(b):,.0f}/s CPU (wall {rate(w, 'wall'):,.0f}/s)"))
    wrong = sum(p["wrong"] for name in ("17_clue", "top1465")
                for p in [*figures[name]["batch"], figures[name]["api"]])
    out.append(("every answer checked by check.py, 0 wrong",
                wrong == 0 and figures["cli"]["same"],
                f"{wrong} wrong; command-line output identical to the bare loop's and the "
                f"reference: {figures['cli']['same']}"))
    cli = figures["cli"]
    ours, bare = min(t[0] for t in cli["ours"]), min(t[0] for t in cli["bare"])
    ratio = bare / ours
    out.append((f"solve --file 17_clue -b native --format line >= {TARGETS['cli']}x the bare "
                f"C loop", ratio >= TARGETS["cli"],
                f"{ratio:.2f}x ({cli['n'] / ours:,.0f}/s against {cli['n'] / bare:,.0f}/s, "
                f"CPU seconds of whole processes)"))
    return out


def tables(figures: dict) -> tuple[list[list], list[list]]:
    """The rates beside each other, and the command-line rounds."""
    rows = []
    for name in ("17_clue", "top1465"):
        f = figures[name]
        b = best(f["batch"])
        bare_row = ""
        if name == "17_clue":
            bare_cpu = min(t[0] for t in figures["cli"]["bare"])
            bare_row = f"{f['n'] / bare_cpu:,.0f}"
        path, published, guesses = TDOKU[name]
        rows.append([name, f["n"], f"{rate(b):,.0f}",
                     f"{rate(best(f['batch'], 'wall'), 'wall'):,.0f}",
                     f"{rate(f['api']):,.0f}", bare_row, f"{published:,.0f}",
                     f"{rate(b) / published:.2f}", f"{b['guesses']:.2f}", f"{guesses:.2f}",
                     f"{100 * f['api']['no_guess']:.1f}",
                     f"{b['check'] / b['n'] * 1e6:.1f}"])
    cli = figures["cli"]
    cli_rows = [[k + 1, f"{o[0]:.3f}", f"{b[0]:.3f}", f"{b[0] / o[0]:.2f}", f"{o[1]:.3f}",
                 f"{b[1]:.3f}"] for k, (o, b) in enumerate(zip(cli["ours"], cli["bare"]))]
    return rows, cli_rows


HEADERS = ["set", "puzzles", "batch API /s (CPU)", "batch API /s (wall)",
           "per-puzzle API /s (CPU)", "bare C loop process /s (CPU)", "tdoku published /s",
           "native / tdoku", "guesses/puzzle", "tdoku guesses/puzzle", "% no guess",
           "check.failures µs/puzzle"]
CLI_HEADERS = ["round", "sudokulab CPU s", "bare loop CPU s", "throughput ratio",
               "sudokulab wall s", "bare loop wall s"]


def report(figures: dict, checks: list[tuple[str, bool, str]], rounds: int,
           cli_rounds: int) -> str:
    """results/native.md."""
    rows, cli_rows = tables(figures)
    repository, path, commit = TDOKU_FILE
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    same = figures["same_set"]
    lines = [
        "# The compiled engine (`native`) and the batch path (issue 59)", "",
        f"Generated by `bench/bench_native.py` on {datetime.date.today()}; "
        f"{rounds} in-process rounds, {cli_rounds} command-line rounds, best round each "
        "(CPU seconds; wall beside). Load average at the end: " + load + ".", "",
        "## Targets", "",
        *(f"- {'PASS' if ok else 'FAIL'}: {what}: {why}" for what, ok, why in checks), "",
        "## Rates", "",
        tabulate(rows, HEADERS, tablefmt="github"), "",
        "- batch API: `native.solve_lines`, one C call for the whole set, limit 2 "
        "(uniqueness proved); the grids then checked by `sudokulab.check.failures` "
        "(its cost in the last column, not in the rate).",
        "- per-puzzle API: `NativeBackend.solve` per puzzle, a Puzzle in and a Result out, "
        "each grid checked by `check`; % no guess from its statistics.",
        "- bare C loop process: `bench/bare_native.c`, read the file, one `native_batch` "
        "call, print; the command line's yardstick below.",
        f"- tdoku published: {repository}, `{path}` at commit `{commit}`, tables "
        f"`{TDOKU['17_clue'][0]}` and `{TDOKU['top1465'][0]}`, row `tdoku` (puzzles/sec, "
        "guesses/puzzle): an i7-1065G7, clang 11 -O3 -march=native, one core pinned, "
        "another machine than this one; the ratio compares across machines.",
        "- the bundled 17_clue (`sudokulab/data/17_clue.txt.gz`) is "
        + ("the same list as `/work/shared/datasets/17_clue.txt`, line for line."
           if same else "not compared with /work/shared/datasets/17_clue.txt (absent)."
           if same is None else "NOT the same list as /work/shared/datasets/17_clue.txt."),
        "",
        "## `solve --file 17_clue -b native --format line` against the bare C loop", "",
        tabulate(cli_rows, CLI_HEADERS, tablefmt="github"), "",
        "Each side is a whole process: start, read, solve, print; sudokulab also checks "
        "every grid (check.failures) and writes through its output layer. The ratio is "
        "the bare loop's CPU seconds over sudokulab's (best round each).", "",
        *machine_section(f"C compiler: {native.compiler()}; flags: {' '.join(native.FLAGS)}",
                         measured=MEASURED),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure, print the tables and the verdicts, write the report; 0 when all pass."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cli-rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "native.md")
    args = parser.parse_args(argv)
    figures = measure(args.rounds, args.cli_rounds)
    checks = verdicts(figures)
    rows, cli_rows = tables(figures)
    print(tabulate(rows, HEADERS))
    print(tabulate(cli_rows, CLI_HEADERS))
    for what, ok, why in checks:
        print(f"{what}: {why}: {'PASS' if ok else 'FAIL'}")
    print("load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(figures, checks, args.rounds, args.cli_rounds))
    ok = all(ok for _, ok, _ in checks)
    print(f"{'PASS' if ok else 'FAIL'}; wrote {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
