"""`make bench`: every speed target, then the reference compare runs in results/.

1. Runs each bench/bench_*.py in turn, in a process of its own (a benchmark that crashes
   fails alone). Each prints one line per target ending in PASS or FAIL and exits 0 when
   all its targets are met; a benchmark printing no such line counts as one target, met
   when it exits 0.
2. Regenerates the reference compare runs (summary.md, summary.csv, meta.json, plots):
   - results/top95: every available backend over top95;
   - results/top1465: every complete search of the registry (FULL) over all of top1465;
   - results/top1465-sample: every available backend over SAMPLE puzzles of top1465
     drawn with seed SEED (plugins included), with runs.jsonl small enough to keep.
   runs.jsonl is kept only when under 1 MB. A run whose backends disagree fails.
3. Prints every target with its verdict; exits 1 if any was missed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tabulate import tabulate

from sudokulab.backends import complete_searches

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
TIMEOUT = "10"
# every complete search of the registry, each over every puzzle of top1465
FULL = ",".join(complete_searches())
SAMPLE, SEED = "200", "1465"
RUNS = {
    "top95": ["--dataset", "top95"],
    "top1465": ["--dataset", "top1465", "--backends", FULL],
    "top1465-sample": ["--dataset", "top1465", "--sample", SAMPLE, "--seed", SEED],
}
KEEP_RUNS_UNDER = 1_000_000  # bytes: bigger runs.jsonl files are not kept in results/
VERDICT = re.compile(r"\b(PASS|FAIL)\b")


def run(command: list[str]) -> tuple[int, list[str]]:
    """Run a command from the repository root, echoing its output; exit code and lines."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = []
    for line in process.stdout:
        sys.stdout.write(line)
        lines.append(line.rstrip("\n"))
    return process.wait(), lines


def benchmark(path: Path) -> list[dict]:
    """Run one bench_*.py; one row per target it reports."""
    print(f"\n=== {path.name}", flush=True)
    code, lines = run([sys.executable, str(path)])
    rows = [{"source": path.name, "target": line.strip(), "verdict": VERDICT.findall(line)[-1]}
            for line in lines if VERDICT.search(line)]
    if code != 0 and not any(row["verdict"] == "FAIL" for row in rows):
        rows.append({"source": path.name, "target": f"exit code {code}", "verdict": "FAIL"})
    return rows or [{"source": path.name, "target": "ran to completion", "verdict": "PASS"}]


def reference_run(name: str, options: list[str]) -> dict:
    """Regenerate results/<name>; a row that passes when every answer agrees."""
    print(f"\n=== compare {name}", flush=True)
    out = RESULTS / name
    shutil.rmtree(out, ignore_errors=True)
    code, _ = run([sys.executable, "-m", "sudokulab", "compare", *options,
                   "--timeout", TIMEOUT, "--out", str(out.relative_to(ROOT))])
    runs = out / "runs.jsonl"
    if runs.exists() and runs.stat().st_size > KEEP_RUNS_UNDER:
        runs.unlink()
    meaning = {0: "every answer agrees", 4: "BACKENDS DISAGREE (see summary.md)"}
    return {"source": f"results/{name}", "target": f"cross-check: {meaning.get(code, code)}",
            "verdict": "PASS" if code == 0 else "FAIL"}


def main() -> int:
    """All benchmarks, then the reference runs, then the verdicts; 1 if any target missed."""
    rows = [row for path in sorted((ROOT / "bench").glob("bench_*.py"))
            for row in benchmark(path)]
    rows += [reference_run(name, options) for name, options in RUNS.items()]
    print("\n" + tabulate(rows, headers="keys", tablefmt="simple"))
    missed = sum(row["verdict"] == "FAIL" for row in rows)
    print(f"\n{len(rows) - missed} of {len(rows)} targets met" +
          (f"; {missed} MISSED" if missed else ""))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
