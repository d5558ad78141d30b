"""Certified verdicts (issue 56): making and checking certificates, timed, side by side.

For each puzzle: `certify` (encode with the certificates' own encoder, find the solutions
with CaDiCaL, then a fresh CaDiCaL with proof logging refutes the CNF with them blocked,
and the three files are written), then `verify` (re-encode, compare, check.py, replay the
DRAT proof in drat.py). The refuting solve is timed again with and without proof logging,
to show what the logging costs. A certificate `verify` rejects is counted and named, never
skipped: it is a bug of the encoder, the checker or the proof.

The 9x9 puzzles are held out: the HARDEST hardest of a dataset that no test or benchmark
certifies otherwise (17_clue by default), hardest by the search backend's guesses to find
and prove the solution (`norvig`, limit 2: a count of this lab's, deterministic). Beside
them, every puzzle of the variant test sets (tests/data), and 16x16 puzzles of the lab's
generator.

Targets (CPU time of this process; the machine is shared, the wall clock is shown beside):
1. the held-out hardest 9x9: making and checking a uniqueness certificate, median <= 50 ms
   and max <= 1 s;
2. 16x16 and killers: making and checking each <= 5 s;
3. every certificate is accepted by `verify` (and by drat-trim, when --drat-trim names it).

Run: .venv/bin/python bench/bench_certify.py [--dataset 17_clue] [--hardest 1000]
     [--keep DIR] [--drat-trim PATH] [--out results/certify.md]
     [--heldout-out results/certify-heldout.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.certificates import certify, verify
from sudokulab.certificates.encoder import encode
from sudokulab.errors import SudokulabError
from sudokulab.formats.text import from_json, parse

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
DATASET, HARDEST, SIXTEEN, SEED, RATER = "17_clue", 1000, 3, 56, "norvig"
MEDIAN_MS, MAX_MS, EACH_S = 50.0, 1000.0, 5.0


def measure(puzzle, folder: Path, name: str, trim: bool = False) -> dict:
    """Make and check one certificate; its figures (ms of CPU unless said otherwise), or
    the line saying why it was refused. With trim, the proof's core is found apart (so
    make and check are timed as `make bench` has them) and written as <name>.core.drat."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        made = certify(puzzle, folder, name)
    except SudokulabError as error:
        return {"name": name, "verdict": "not made", "why": str(error)}
    make_cpu, make_wall = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        report = verify(made.json_path)
    except SudokulabError as error:
        return {"name": name, "verdict": "rejected", "why": str(error)}
    check_cpu, check_wall = (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000
    plain, logged = refute_twice(puzzle, made.solutions if made.drat_path else ())
    core = trimmed(made) if trim and made.drat_path else {}
    return {**core, "name": name, "verdict": made.verdict, "lemmas": made.lemmas, "make": make_cpu,
            "check": check_cpu, "total": make_cpu + check_cpu, "wall": make_wall + check_wall,
            "drat": report.drat_ms, "plain": plain, "logged": logged,
            "cnf kB": made.cnf_path.stat().st_size / 1000,
            "drat kB": made.drat_path.stat().st_size / 1000 if made.drat_path else 0.0,
            "json": made.json_path}


def trimmed(made) -> dict:
    """The lab's core of a certificate's proof (drat.core): its lemmas and CPU ms."""
    from sudokulab.certificates import drat
    from sudokulab.certificates.verify import _clauses

    cpu = time.process_time()
    core = drat.core(0, _clauses(made.cnf_path.read_text()), made.drat_path.read_text())
    spent = (time.process_time() - cpu) * 1000
    made.drat_path.with_suffix(".core.drat").write_text(core)
    return {"core": sum(1 for line in core.splitlines() if not line.startswith("d")),
            "trim": spent}


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


def run(label: str, puzzles: list, folder: Path, trim: bool = False) -> list[dict]:
    """Measure every puzzle of a set, a line of progress now and then."""
    rows = []
    for k, puzzle in enumerate(puzzles):
        rows.append(measure(puzzle, folder, f"{label}-{k}", trim))
        rows[-1]["index"] = k
        if (k + 1) % 100 == 0:
            print(f"  {label}: {k + 1}/{len(puzzles)}", flush=True)
    return rows


def hardest(name: str, count: int) -> tuple[list, list[tuple[int, int]]]:
    """The `count` hardest puzzles of a dataset by the search backend's guesses (limit 2:
    finding the solution and proving there is no other), ties in file order; the puzzles
    and their (line from 1, guesses)."""
    from sudokulab.backends import make_backend

    puzzles = datasets.load(name)
    backend = make_backend(RATER)
    rated = [(backend.solve(puzzle, limit=2).stats.get("guesses", 0), k)
             for k, puzzle in enumerate(puzzles)]
    chosen = sorted(rated, key=lambda pair: (-pair[0], pair[1]))[:count]
    return [puzzles[k] for _, k in chosen], [(k + 1, guesses) for guesses, k in chosen]


def sixteens(count: int) -> list:
    """16x16 puzzles from sudokulab's generator, seeded (unique, not minimal)."""
    from sudokulab.generate import generate

    return [made.puzzle for made in generate((4, 4), (), number=count, seed=SEED)]


def variant_sets() -> dict[str, list]:
    """Every puzzle of the variant test sets in tests/data: variants.json, killers.jsonl,
    generated-corners.jsonl, and the samurai files."""
    def jsonl(name: str) -> list:
        return [from_json(line) for line in (DATA / name).read_text().splitlines()
                if line.strip()]

    variants = json.loads((DATA / "variants.json").read_text())
    samurai = sorted(DATA.glob("samurai*.txt"))
    return {"variants.json": [from_json(json.dumps(variants[k])) for k in sorted(variants)],
            "killers.jsonl": jsonl("killers.jsonl"),
            "generated-corners.jsonl": jsonl("generated-corners.jsonl"),
            "samurai*.txt": [parse(path.read_text()) for path in samurai
                             if "solution" not in path.name]}


def drat_trim(binary: str, rows: list[dict], folder: Path) -> dict:
    """Run drat-trim (backward, its default; -l writes the core lemmas) over every proof:
    how many it verifies, its times and core sizes."""
    outcome = {"verified": 0, "refused": [], "ms": [], "core": [], "ours": 0,
               "ours refused": []}
    for row in rows:
        if "json" not in row or not row["drat kB"]:
            continue
        stem = row["json"].with_suffix("")
        core = folder / f"{stem.name}.trimmed.drat"
        command = [binary, f"{stem}.cnf", f"{stem}.drat", "-l", str(core)]
        began = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        outcome["ms"].append((time.perf_counter() - began) * 1000)
        if "s VERIFIED" in done.stdout:
            outcome["verified"] += 1
            outcome["core"].append(sum(1 for line in core.read_text().splitlines()
                                       if line.strip() and not line.startswith("d")))
        else:
            outcome["refused"].append(row["name"])
        ours = Path(f"{stem}.core.drat")
        if ours.exists():  # the lab's core, checked forward (every lemma) by drat-trim
            done = subprocess.run([binary, f"{stem}.cnf", str(ours), "-f"],
                                  capture_output=True, text=True)
            if "s VERIFIED" in done.stdout:
                outcome["ours"] += 1
            else:
                outcome["ours refused"].append(row["name"])
    return outcome


def summary(label: str, rows: list[dict]) -> dict:
    """Medians and maxima of one set (of the certificates accepted)."""
    good = [row for row in rows if "total" in row]

    def med(key: str) -> float:
        return statistics.median(row[key] for row in good) if good else 0.0

    return {"set": label, "puzzles": len(rows),
            "verdicts": ", ".join(f"{v} {sum(r['verdict'] == v for r in rows)}"
                                  for v in ("unique", "multiple", "none", "rejected",
                                            "not made")
                                  if any(r["verdict"] == v for r in rows)),
            "lemmas median": med("lemmas"), "lemmas max": max(r["lemmas"] for r in good),
            "solve ms (no proof)": med("plain"), "solve ms (proof)": med("logged"),
            "make ms": med("make"), "check ms": med("check"), "DRAT ms (wall)": med("drat"),
            "make+check ms median": med("total"),
            "make+check ms max": max(r["total"] for r in good),
            "wall ms median": med("wall"),
            "cnf kB": med("cnf kB"), "drat kB": med("drat kB")}


def table(sets: dict[str, list[dict]]) -> str:
    """The side-by-side table of every set."""
    rows = [summary(label, rows) for label, rows in sets.items()]
    return tabulate([list(row.values()) for row in rows], headers=list(rows[0]),
                    tablefmt="github", floatfmt=".1f")


def slowest(sets: dict[str, list[dict]], count: int) -> str:
    """The `count` slowest certificates (make + check) of the sets."""
    ranked = sorted(((row["total"], label, row) for label, rows in sets.items()
                     for row in rows if "total" in row), key=lambda t: -t[0])[:count]
    return tabulate([[label, row["index"], row["verdict"], row["lemmas"], row["make"],
                      row["check"], row["drat"]] for _, label, row in ranked],
                    headers=["set", "puzzle", "verdict", "lemmas", "make ms", "check ms",
                             "DRAT ms (wall)"], tablefmt="github", floatfmt=".1f")


HOW = ("Each certificate: `certify` (the certificates' own encoder, CaDiCaL 1.9.5 through "
       "PySAT to find the solutions, a fresh CaDiCaL with proof logging to refute the CNF "
       "with them blocked, three files written), then `verify` (re-encode and compare, "
       "check.py on each solution, the DRAT proof replayed by the lab's own checker, "
       "sudokulab/certificates/drat.py, in pure Python). Times are CPU milliseconds of this "
       "process (the machine is shared); `wall` is the wall clock of make + check. "
       "`solve ms`: the refuting solve alone, on a fresh solver, without and with proof "
       "logging. `check ms` includes re-encoding, check.py and reading the files; `DRAT ms "
       "(wall)` is the proof's replay alone, by the wall clock.")


def report(sets: dict[str, list[dict]], verdicts: list[str], out: Path) -> None:
    """results/certify.md: the targets and the side-by-side table."""
    lines = [
        "# Certified verdicts: making and checking certificates (issue 56)", "",
        f"Generated by `bench/bench_certify.py` on {datetime.date.today()}.", "", HOW, "",
        "## Targets", "", *[f"- {line}" for line in verdicts], "",
        "## Medians by set", "", table(sets), "",
        "## The slowest certificates", "", slowest(sets, 5), "",
        *machine_section(measured=("sudokulab/certify", "bench/bench_certify.py"))]
    out.write_text("\n".join(lines) + "\n")


def heldout_report(dataset: str, label: str, rating: list[tuple[int, int]],
                   sets: dict[str, list[dict]], variants: dict[str, list[dict]],
                   trimmed: dict | None, binary: str, out: Path) -> None:
    """results/certify-heldout.md: issue 56's "done when", on data held out."""
    held = sets[label]
    every = [row for rows in (*sets.values(), *variants.values()) for row in rows]
    refused = [row for row in every if "why" in row]
    good = [row for row in held if "total" in row]

    def figure(key: str) -> str:
        values = [row[key] for row in good]
        return f"median {statistics.median(values):.1f}, max {max(values):.1f}"

    guesses = [g for _, g in rating]
    lines = [
        "# Certified verdicts on held-out puzzles (issue 56, \"done when\")", "",
        f"Generated by `bench/bench_certify.py` on {datetime.date.today()}.", "",
        f"Held out: {label}. The dataset `{dataset}` ({datasets.provenance()[dataset][0]}; "
        "/work/shared/datasets/README.md) is one no test or benchmark certifies otherwise. "
        f"Its puzzles are rated by the lab's search backend (`{RATER}`, solving with limit "
        "2: the guesses to find the solution and prove there is no other; deterministic), "
        f"and the {len(rating)} with the most guesses are taken, ties in file order: "
        f"guesses from {min(guesses)} to {max(guesses)} (median "
        f"{statistics.median(guesses):.0f}); lines {', '.join(str(k) for k, _ in rating[:5])}"
        " ... of the file.", "", HOW, "",
        "## Accepted and rejected", "",
        f"- held-out 9x9: {len(held)} certificates made, {len(good)} accepted by `verify`, "
        f"{len(held) - len(good)} rejected",
        *[f"- {name}: {len(rows)} puzzles, {sum('total' in r for r in rows)} accepted, "
          f"{sum('why' in r for r in rows)} rejected"
          for name, rows in {**{k: v for k, v in sets.items() if k != label},
                             **variants}.items()],
        *[f"- REJECTED {row['name']}: {row['why']}" for row in refused], "",
        "## Held-out 9x9: make and check", "",
        f"- make ms (CPU): {figure('make')}",
        f"- check ms (CPU): {figure('check')}",
        f"- make + check ms (CPU): {figure('total')}",
        f"- proof size, lemmas: {figure('lemmas')}", "",
        "## Every set, side by side", "", table({**sets, **variants}), "",
        "## The slowest ten held-out certificates", "", slowest({label: held}, 10), "",
        "## The slowest ten of the variant sets", "", slowest(variants, 10), ""]
    if trimmed is not None:
        ms = trimmed["ms"] or [0.0]
        core = trimmed["core"] or [0]
        lines += [
            "## drat-trim, an outside checker", "",
            f"Command, per certificate: `{binary} NAME.cnf NAME.drat -l NAME.trimmed.drat` "
            "(backward checking, its default; -l writes the lemmas the refutation uses).", "",
            f"- proofs checked: {trimmed['verified'] + len(trimmed['refused'])}; "
            f"`s VERIFIED`: {trimmed['verified']}; refused: {len(trimmed['refused'])} "
            f"{', '.join(trimmed['refused'][:10])}",
            "- agreement with the lab's checker: "
            f"{'every proof accepted by both' if not trimmed['refused'] else 'DISAGREE'}",
            f"- drat-trim wall ms per proof (process start included): median "
            f"{statistics.median(ms):.1f}, max {max(ms):.1f}",
            f"- core lemmas (drat-trim -l): median {statistics.median(core):.0f}, max "
            f"{max(core)}"]
        if trimmed["ours"] or trimmed["ours refused"]:
            lines.append(f"- the lab's own cores (drat.core), checked by `{binary} NAME.cnf "
                         f"NAME.core.drat -f`: {trimmed['ours']} `s VERIFIED`, "
                         f"{len(trimmed['ours refused'])} refused "
                         f"{', '.join(trimmed['ours refused'][:10])}")
        lines.append("")
    cores = {name: [row for row in rows if "core" in row]
             for name, rows in {**sets, **variants}.items()}
    if any(cores.values()):
        lines += ["## Trimmed cores (drat.core, the lab's own)", "",
                  tabulate([[name, len(rows), statistics.median(r["lemmas"] for r in rows),
                             statistics.median(r["core"] for r in rows),
                             max(r["core"] for r in rows),
                             statistics.median(r["trim"] for r in rows),
                             max(r["trim"] for r in rows)]
                            for name, rows in cores.items() if rows],
                           headers=["set", "proofs", "lemmas median", "core median",
                                    "core max", "trim ms median", "trim ms max"],
                           tablefmt="github", floatfmt=".1f"), ""]
    lines += machine_section(measured=("sudokulab/certify", "bench/bench_certify.py"))
    out.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Measure, report, print the verdicts; 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=DATASET,
                        help="the held-out dataset (default %(default)s)")
    parser.add_argument("--hardest", type=int, default=HARDEST,
                        help="how many of its hardest puzzles (default %(default)s)")
    parser.add_argument("--sixteen", type=int, default=SIXTEEN)
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep the certificates in this folder (default: a temporary one)")
    parser.add_argument("--drat-trim", default=os.environ.get("SUDOKULAB_DRAT_TRIM")
                        or shutil.which("drat-trim"),
                        help="drat-trim's path: checks every proof again "
                             "(default $SUDOKULAB_DRAT_TRIM or the PATH's)")
    parser.add_argument("--trim", action="store_true",
                        help="also trim each proof to its core with drat.py (timed apart)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "certify.md")
    parser.add_argument("--heldout-out", type=Path,
                        default=ROOT / "results" / "certify-heldout.md")
    args = parser.parse_args(argv)
    encode(datasets.load("top95")[0])  # the encoder's module and PySAT loaded before the clock
    print(f"rating {args.dataset} by {RATER} guesses ...", flush=True)
    chosen, rating = hardest(args.dataset, args.hardest)
    label = f"{args.dataset} hardest {len(chosen)}"
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        sets = {label: run("heldout", chosen, folder, args.trim)}
        sets["16x16 (generated)"] = run("sixteen", sixteens(args.sixteen), folder, args.trim)
        variants = {name: run(Path(name).stem.replace("*", ""), puzzles, folder, args.trim)
                    for name, puzzles in variant_sets().items()}
        trimmed = None
        if args.drat_trim:
            print(f"drat-trim: {args.drat_trim}", flush=True)
            trimmed = drat_trim(args.drat_trim, [row for rows in (*sets.values(),
                                                                  *variants.values())
                                                 for row in rows], folder)
    verdicts = targets(sets[label], sets["16x16 (generated)"] + variants["killers.jsonl"],
                       [row for rows in (*sets.values(), *variants.values()) for row in rows],
                       trimmed)
    report({**sets, "killers (tests/data)": variants["killers.jsonl"]}, verdicts, args.out)
    heldout_report(args.dataset, label, rating, sets, variants, trimmed, args.drat_trim or "",
                   args.heldout_out)
    for line in verdicts:
        print(line)
    print(f"wrote {args.out} and {args.heldout_out}")
    return 0 if all(line.endswith("PASS") for line in verdicts) else 1


def targets(held: list[dict], big: list[dict], every: list[dict],
            trimmed: dict | None) -> list[str]:
    """One line per target, ending in PASS or FAIL."""
    def passed(ok: bool) -> str:
        return "PASS" if ok else "FAIL"

    totals = [row["total"] for row in held if "total" in row] or [float("inf")]
    median, most = statistics.median(totals), max(totals)
    worst = max((row.get("total", float("inf")) for row in big), default=0.0)
    refused = sum("why" in row for row in every)
    lines = [
        f"held-out hardest 9x9, make + check median {median:.1f} ms (target <= "
        f"{MEDIAN_MS:.0f}): {passed(median <= MEDIAN_MS)}",
        f"held-out hardest 9x9, make + check max {most:.0f} ms (target <= {MAX_MS:.0f}): "
        f"{passed(most <= MAX_MS)}",
        f"16x16 and killers, make + check each, slowest {worst / 1000:.2f} s (target <= "
        f"{EACH_S:.0f} s): {passed(worst <= EACH_S * 1000)}",
        f"every certificate accepted by verify: {len(every) - refused} of {len(every)}: "
        f"{passed(not refused)}"]
    if trimmed is not None:
        lines.append(f"drat-trim verifies every proof: {len(trimmed['refused'])} refused: "
                     f"{passed(not trimmed['refused'])}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
