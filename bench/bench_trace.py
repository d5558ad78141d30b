"""Issue 32: tracing off costs nothing. norvig and dlx with the trace compiled in (their
search loops test `trace is not None` per node and per guess) against the same engines
running the loop as it was before the trace went in.

The old loop is the `search` method of sudokulab/backends/{norvig,dlx}.py at BEFORE (the
commit before the trace), read from git and compiled in the current module's namespace, so
everything else (the boards, propagation, the matrix) is shared: the only difference
measured is the loop itself. Both go through top95 (limit 2: the solution and the proof it
is unique) in every round, interleaved in chunks with the order alternating; times are
process CPU seconds; the verdict takes the median of the per-round ratios. Every answer
of both is compared: a trace that changed a result fails the benchmark.

Target: traced-off / old at most TARGET (noise allowance; the expected cost is zero). For
scale, the same with the trace on (Recorder, 2000 events) is reported, not judged.

Run: .venv/bin/python bench/bench_trace.py [--rounds N] [--out PATH]
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab import datasets
from sudokulab.backends import dlx, norvig, trace

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "b4af0e1^"  # the commit that put the trace into the two loops, its parent
DATASET = "top95"
LIMIT = 2
TARGET = 1.05
CHUNK = 19


def old_search(module, cls: str):
    """The `search` method of `cls` as it was at BEFORE, compiled against today's module."""
    path = f"sudokulab/backends/{module.__name__.rsplit('.', 1)[-1]}.py"
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{BEFORE}:{path}"], check=True,
                            capture_output=True, text=True).stdout
    tree = ast.parse(source)
    body = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls)
    method = next(node for node in body.body
                  if isinstance(node, ast.FunctionDef) and node.name == "search")
    method.decorator_list = []
    namespace = dict(vars(module))
    exec(compile(ast.Module([method], []), f"{path}@{BEFORE}", "exec"), namespace)
    return namespace["search"]


OLD_NORVIG = old_search(norvig, "NorvigBackend")
OLD_DLX = old_search(dlx, "DlxBackend")


class OldNorvig(norvig.NorvigBackend):
    """norvig with its search loop from before the trace (one call per puzzle to reach it)."""

    def search(self, *args, trace=None):
        """The old loop; `_solve` passes the trace (None) last, which it never took."""
        return OLD_NORVIG(self, *args[:9])


class OldDlx(dlx.DlxBackend):
    """dlx with its search loop from before the trace."""

    @staticmethod
    def search(*args, trace=None, **options):
        """The old loop, without the `trace` keyword it never took."""
        return OLD_DLX(*args, **options)


class Traced:
    """A backend with a fresh Recorder per puzzle (the trace on)."""

    def __init__(self, cls) -> None:
        self.backend = cls()

    def solve(self, puzzle, limit):
        """Solve with the trace on."""
        self.backend.trace = trace.Recorder()
        return self.backend.solve(puzzle, limit=limit)


ENGINES = {"norvig": (OldNorvig, norvig.NorvigBackend), "dlx": (OldDlx, dlx.DlxBackend)}


def measure(puzzles, rounds: int) -> dict[str, list[dict]]:
    """Per engine, per round: CPU seconds of old, off and on, and whether answers agree."""
    out: dict[str, list[dict]] = {}
    for name, (old_cls, new_cls) in ENGINES.items():
        runners = {"old": old_cls(), "off": new_cls(), "on": Traced(new_cls)}
        out[name] = []
        for k in range(rounds):
            spent = dict.fromkeys(runners, 0.0)
            answers: dict[str, list] = {key: [] for key in runners}
            order = list(runners) if k % 2 == 0 else list(reversed(runners))
            for start in range(0, len(puzzles), CHUNK):
                chunk = puzzles[start:start + CHUNK]
                for key in order:
                    began = time.process_time()
                    results = [runners[key].solve(p, limit=LIMIT) for p in chunk]
                    spent[key] += time.process_time() - began
                    answers[key] += [(r.status, r.solutions, r.stats.get("guesses")) for r in
                                     results]
            same = answers["old"] == answers["off"] == answers["on"]
            out[name].append({**spent, "same": same, "off_ratio": spent["off"] / spent["old"],
                              "on_ratio": spent["on"] / spent["old"]})
            print(f"{name} round {k + 1}/{rounds}: old {spent['old']:.2f} s, off "
                  f"{spent['off']:.2f} s ({spent['off'] / spent['old']:.3f}x), on "
                  f"{spent['on']:.2f} s ({spent['on'] / spent['old']:.3f}x)", flush=True)
    return out


def bound(puzzles) -> dict[str, dict]:
    """Per engine, the largest trace over the dataset: events and JSON bytes."""
    out = {}
    for name in ENGINES:
        sizes = [trace.record(p, name, limit=LIMIT)[1] for p in puzzles]
        out[name] = {"events": max(len(e) for e in sizes),
                     "bytes": max(len(json.dumps(e)) for e in sizes),
                     "capped": sum(any(x["event"] == "truncated" for x in e) for e in sizes)}
    return out


def report(rounds: dict, verdicts: dict, sizes: dict) -> str:
    """results/trace.md."""
    rows = [[name, k + 1, f"{r['old']:.2f}", f"{r['off']:.2f}", f"{r['on']:.2f}",
             f"{r['off_ratio']:.3f}", f"{r['on_ratio']:.3f}", "yes" if r["same"] else "NO"]
            for name, runs in rounds.items() for k, r in enumerate(runs)]
    lines = [
        "# Tracing off costs nothing (issue 32)", "",
        f"_{datetime.date.today()}, bench/bench_trace.py_", "",
        f"norvig and dlx over {DATASET} (limit {LIMIT}), CPU seconds per round: the search "
        f"loop from before the trace (old, from git at `{BEFORE}`), today's loop with the "
        "trace off (the default) and on (a Recorder of 2000 events).", "",
        tabulate(rows, headers=["engine", "round", "old s", "off s", "on s", "off/old",
                                "on/old", "same answers"], tablefmt="github"), "",
    ]
    for name, (ratio, ok) in verdicts.items():
        lines.append(f"- {name}: median off/old {ratio:.3f} (target at most {TARGET}): "
                     f"{'PASS' if ok else 'FAIL'}")
    lines += ["", "Bounded when on: the largest trace of a puzzle of the dataset", ""]
    lines.append(tabulate([[n, s["events"], f"{s['bytes']:,}", s["capped"]]
                           for n, s in sizes.items()],
                          headers=["engine", "events", "JSON bytes", "puzzles capped"],
                          tablefmt="github"))
    lines += ["", f"The cap is {trace.TRACE_CAP} events, then a `truncated` marker and the "
              "solutions; a wave holds at most cells x N pairs.", ""]
    measured = ("sudokulab/backends/norvig.py", "sudokulab/backends/dlx.py",
                "sudokulab/backends/trace.py", "bench/bench_trace.py")
    return "\n".join(lines + machine_section(measured=measured))


def main(argv: list[str] | None = None) -> int:
    """Measure, print one line per target, write the report; 0 when both are met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "trace.md")
    args = parser.parse_args(argv)
    puzzles = datasets.load(DATASET)
    rounds = measure(puzzles, args.rounds)
    verdicts = {}
    for name, runs in rounds.items():
        ratio = statistics.median(r["off_ratio"] for r in runs)
        verdicts[name] = (ratio, ratio <= TARGET and all(r["same"] for r in runs))
    sizes = bound(puzzles)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(rounds, verdicts, sizes))
    for name, (ratio, ok) in verdicts.items():
        print(f"{name} with the trace off <= {TARGET}x its loop before the trace on {DATASET}: "
              f"{ratio:.3f}x: {'PASS' if ok else 'FAIL'}")
    print(f"wrote {args.out}")
    return 0 if all(ok for _, ok in verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
