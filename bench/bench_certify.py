"""Certified verdicts (issue 56): making and checking certificates, timed, side by side.

For each puzzle: `certify` (encode with the certificates' own encoder, find the solutions
with CaDiCaL, then a fresh CaDiCaL with proof logging refutes the CNF with them blocked,
and the three files are written), then `verify` (re-encode, compare, check.py, replay the
DRAT proof in drat.py). The refuting solve is timed again with and without proof logging,
to show what the logging costs.

Targets (CPU time of this process; the machine is shared, the wall clock is shown beside):
1. the hardest 9x9 (top1465's first CLASSIC puzzles): making and checking a uniqueness
   certificate, median <= 50 ms and max <= 1 s;
2. 16x16 (SIXTEEN puzzles made by sudokulab's generator, seeded) and the killers of
   tests/data/killers.jsonl: making and checking each <= 5 s.

Run: .venv/bin/python bench/bench_certify.py [--classic 200] [--out results/certify.md]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import tempfile
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.certify import certify, verify
from sudokulab.certify.encoder import encode
from sudokulab.formats.text import from_json

ROOT = Path(__file__).resolve().parent.parent
CLASSIC, SIXTEEN, SEED = 200, 3, 56
MEDIAN_MS, MAX_MS, EACH_S = 50.0, 1000.0, 5.0


def measure(puzzle, folder: Path, name: str) -> dict:
    """Make and check one certificate; its figures (ms of CPU unless said otherwise)."""
    wall, cpu = time.perf_counter(), time.process_time()
    made = certify(puzzle, folder, name)
    make_cpu, make_wall = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
    wall, cpu = time.perf_counter(), time.process_time()
    report = verify(made.json_path)
    check_cpu, check_wall = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
    plain, logged = refute_twice(puzzle, made.solutions if made.drat_path else ())
    return {"verdict": made.verdict, "lemmas": made.lemmas, "make": make_cpu,
            "check": check_cpu, "total": make_cpu + check_cpu, "wall": make_wall + check_wall,
            "drat": report.drat_ms, "plain": plain, "logged": logged,
            "cnf kB": made.cnf_path.stat().st_size / 1000,
            "drat kB": made.drat_path.stat().st_size / 1000 if made.drat_path else 0.0}


def refute_twice(puzzle, blocked) -> tuple[float, float]:
    """CPU ms of the refuting solve (CNF with the solutions blocked) without and with
    proof logging, each on a fresh solver."""
    from pysat.solvers import Solver

    encoding = encode(puzzle)
    clauses = encoding.clauses(blocked)
    spent = []
    for proof in (False, True):
        with Solver(name="cadical195", bootstrap_with=clauses, with_proof=proof) as solver:
            cpu = time.process_time()
            solver.solve()
            spent.append((time.process_time() - cpu) * 1000)
            if proof:
                solver.get_proof()
    return spent[0], spent[1]


def run(label: str, puzzles: list, folder: Path) -> list[dict]:
    """Measure every puzzle of a set, a line of progress now and then."""
    rows = []
    for k, puzzle in enumerate(puzzles):
        rows.append(measure(puzzle, folder, f"{label}-{k}"))
        if (k + 1) % 50 == 0:
            print(f"  {label}: {k + 1}/{len(puzzles)}", flush=True)
    return rows


def sixteens(count: int) -> list:
    """16x16 puzzles from sudokulab's generator, seeded (unique, not minimal)."""
    from sudokulab.generate import generate

    return [made.puzzle for made in generate((4, 4), (), count=count, seed=SEED)]


def summary(label: str, rows: list[dict]) -> dict:
    """Medians and maxima of one set."""
    def med(key: str) -> float:
        return statistics.median(row[key] for row in rows)

    return {"set": label, "puzzles": len(rows),
            "verdicts": ", ".join(f"{v} {sum(r['verdict'] == v for r in rows)}"
                                  for v in ("unique", "multiple", "none")
                                  if any(r["verdict"] == v for r in rows)),
            "lemmas median": med("lemmas"), "lemmas max": max(r["lemmas"] for r in rows),
            "solve ms (no proof)": med("plain"), "solve ms (proof)": med("logged"),
            "make ms": med("make"), "check ms": med("check"), "DRAT ms (wall)": med("drat"),
            "make+check ms median": med("total"),
            "make+check ms max": max(r["total"] for r in rows),
            "wall ms median": med("wall"),
            "cnf kB": med("cnf kB"), "drat kB": med("drat kB")}


def report(sets: dict[str, list[dict]], verdicts: list[str], out: Path) -> None:
    """results/certify.md."""
    table = [summary(label, rows) for label, rows in sets.items()]
    columns = list(table[0])
    slowest = sorted(((row["total"], label, k) for label, rows in sets.items()
                      for k, row in enumerate(rows)), reverse=True)[:5]
    lines = [
        "# Certified verdicts: making and checking certificates (issue 56)", "",
        f"Generated by `bench/bench_certify.py` on {datetime.date.today()}.", "",
        "Each certificate: `certify` (the certificates' own encoder, CaDiCaL 1.9.5 through "
        "PySAT to find the solutions, a fresh CaDiCaL with proof logging to refute the CNF "
        "with them blocked, three files written), then `verify` (re-encode and compare, "
        "check.py on each solution, the DRAT proof replayed by the lab's own checker, "
        "sudokulab/certify/drat.py, in pure Python). Times are CPU milliseconds of this "
        "process (the machine is shared); `wall` is the wall clock of make + check.", "",
        "## Targets", "", *[f"- {line}" for line in verdicts], "",
        "## Medians by set", "",
        tabulate([[row[c] for c in columns] for row in table], headers=columns,
                 tablefmt="github", floatfmt=".1f"), "",
        "`solve ms`: the refuting solve alone, on a fresh solver, without and with proof "
        "logging. `check ms` includes re-encoding, check.py and reading the files; `DRAT ms "
        "(wall)` is the proof's replay alone, by the wall clock.", "",
        "## The slowest certificates", "",
        tabulate([[label, k, sets[label][k]["verdict"], sets[label][k]["lemmas"],
                   sets[label][k]["make"], sets[label][k]["check"], sets[label][k]["drat"]]
                  for _, label, k in slowest],
                 headers=["set", "puzzle", "verdict", "lemmas", "make ms", "check ms",
                          "DRAT ms (wall)"], tablefmt="github", floatfmt=".1f"), "",
        *machine_section(measured=("sudokulab/certify", "bench/bench_certify.py"))]
    out.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Measure, report, print the verdicts; 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classic", type=int, default=CLASSIC)
    parser.add_argument("--sixteen", type=int, default=SIXTEEN)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "certify.md")
    args = parser.parse_args(argv)
    killers = [from_json(line) for line in
               (ROOT / "tests" / "data" / "killers.jsonl").read_text().splitlines()
               if line.strip()]
    encode(datasets.load("top95")[0])  # the encoder's module and PySAT loaded before the clock
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sets = {f"top1465 first {args.classic}":
                run("top1465", list(datasets.load("top1465")[:args.classic]), folder)}
        sets["16x16 (generated)"] = run("sixteen", sixteens(args.sixteen), folder)
        sets["killers (tests/data)"] = run("killer", killers, folder)
    classic = list(sets.values())[0]
    median = statistics.median(r["total"] for r in classic)
    most = max(r["total"] for r in classic)
    big = [r for label in list(sets)[1:] for r in sets[label]]
    worst = max(r["total"] for r in big)
    verdicts = [
        f"hardest 9x9, make + check median {median:.1f} ms (target <= {MEDIAN_MS:.0f}): "
        f"{'PASS' if median <= MEDIAN_MS else 'FAIL'}",
        f"hardest 9x9, make + check max {most:.0f} ms (target <= {MAX_MS:.0f}): "
        f"{'PASS' if most <= MAX_MS else 'FAIL'}",
        f"16x16 and killers, make + check each, slowest {worst / 1000:.2f} s (target <= "
        f"{EACH_S:.0f} s): {'PASS' if worst <= EACH_S * 1000 else 'FAIL'}"]
    report(sets, verdicts, args.out)
    for line in verdicts:
        print(line)
    print(f"wrote {args.out}")
    return 0 if all(line.endswith("PASS") for line in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
