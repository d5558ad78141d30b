"""Issue 52: does a comparison's figure depend on how many repeats it took?

The same 40 puzzles of top95 (seeded sample), norvig and sat, at --repeat 1, 3 and 5,
cold (the default) and warm (`--warm`), each a `sudokulab compare` run of its own on one
worker. For each run: sat's mean conflicts per solve, and the geometric-mean time ratio
sat/norvig with its 95 % bootstrap interval (uncertainty.pair; at R = 1 the puzzles
alone are redrawn).

Targets:
1. cold: sat's conflicts per puzzle are the same at every R (each solve as in a fresh
   process), and each R's sat/norvig ratio lies inside the other two R's intervals (the
   ratio does not move with R beyond its own uncertainty);
2. warm is shown beside it, as the contrast the issue measured (no target: a warm
   engine is expected to learn).

Run: .venv/bin/python bench/bench_measurement.py [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import statistics
import sys
import tempfile
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab.cli import main
from sudokulab.harness import uncertainty
from sudokulab.harness.runlog import RunLog

ROOT = Path(__file__).resolve().parent.parent
SAMPLE, SEED = "40", "52"
REPEATS = (1, 3, 5)


def run(folder: Path, repeat: int, warm: bool) -> list:
    """One compare run's merged records (its tables are not printed)."""
    command = ["compare", "--dataset", "top95", "--sample", SAMPLE, "--seed", SEED,
               "--backends", "norvig,sat", "--jobs", "1", "--repeat", str(repeat),
               "--out", str(folder), *(["--warm"] if warm else [])]
    with redirect_stdout(StringIO()):
        code = main(command)
    if code != 0:
        sys.exit(f"compare exited {code}: {' '.join(command)}")
    return RunLog(folder).lines()


def measure(base: Path, repeat: int, warm: bool) -> dict:
    """One row: the run's sat conflicts and its sat/norvig ratio with interval."""
    lines = run(base / f"{'warm' if warm else 'cold'}-{repeat}", repeat, warm)
    conflicts = {}
    for line in lines:
        if line.backend == "sat":
            conflicts.setdefault(line.index, []).append(line.result.stats["conflicts"])
    records = RunLog(base / f"{'warm' if warm else 'cold'}-{repeat}").read()
    runs = {spec: [r for r in records if r.backend == spec] for spec in ("norvig", "sat")}
    pair = uncertainty.pair("norvig", "sat", runs)
    return {"mode": "warm" if warm else "cold", "R": repeat,
            "sat conflicts per solve": round(statistics.mean(
                c for cs in conflicts.values() for c in cs), 2),
            "sat/norvig": round(pair.ratio.value, 3),
            "95% CI low": round(pair.ratio.low, 3), "95% CI high": round(pair.ratio.high, 3),
            "_conflicts": conflicts, "_ratio": pair.ratio}


def main_() -> int:
    """Measure, print the targets, write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "measurement.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = [measure(Path(folder), r, warm) for warm in (False, True) for r in REPEATS]
    cold = [row for row in rows if row["mode"] == "cold"]
    same = all(len(set(cs)) == 1 and cs[0] == cold[0]["_conflicts"][i][0]
               for row in cold for i, cs in row["_conflicts"].items())
    overlap = all(b["_ratio"].covers(a["_ratio"].value)
                  for a, b in itertools.permutations(cold, 2))
    targets = [f"cold: sat's conflicts per puzzle equal at R = 1, 3, 5: "
               f"{'PASS' if same else 'FAIL'}",
               f"cold: each sat/norvig ratio at R = 1, 3, 5 lies in the others' intervals: "
               f"{'PASS' if overlap else 'FAIL'}"]
    table = tabulate([{k: v for k, v in row.items() if not k.startswith("_")} for row in rows],
                     headers="keys", tablefmt="github")
    report = ["# Measurement: cold against warm, at --repeat 1, 3 and 5", "",
              f"{datetime.date.today()}: top95, {SAMPLE} puzzles (seed {SEED}), norvig and "
              f"sat, one worker, each row a `sudokulab compare` run of its own. "
              f"`bench/bench_measurement.py` wrote this file.", "", table, "",
              *(f"- {line}" for line in targets), "",
              *machine_section(measured=["sudokulab/harness", "sudokulab/backends"])]
    args.out.write_text("\n".join(report) + "\n", encoding="utf-8")
    print(table)
    print("\n".join(targets))
    return 0 if same and overlap else 1


if __name__ == "__main__":
    sys.exit(main_())
