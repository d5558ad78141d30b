"""Issue 57's speed target, side by side: `grade --file` and `explain --file` on samples of
top1465 and sudoku10k, this tree against an earlier commit (default: the commit before issue
57's first), whole processes timed in turn (A B A B ...) so both meet the same machine.

Each round runs every (command, dataset) once with each tree; the figure is the child's CPU
time (user + system, from wait4), which other jobs on a shared machine take less from than
wall time. The verdict is the median over rounds of this tree's CPU over the base's: at
most 1.00 passes ("at least as fast as before"). The base runs from a git worktree of the
commit, with this tree's virtualenv. Report: results/human-speed.md.

    python bench/bench_human_speed.py [--base COMMIT] [--rounds 3] [--sample 300]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

from tabulate import tabulate

from sudokulab import datasets

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "results" / "human-speed.md"
BASE = "6dc6ad6"  # the commit before issue 57's first (2c255cf)
DATASETS = ("top1465", "sudoku10k")
COMMANDS = ("grade", "explain")
SEED = 57


def main() -> int:
    """Time both trees in turn, print a verdict per (command, dataset), write the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=BASE, help=f"the commit to compare with ({BASE})")
    parser.add_argument("--rounds", type=int, default=3, help="A/B rounds (3)")
    parser.add_argument("--sample", type=int, default=300,
                        help="puzzles drawn from each dataset with seed 57 (0: all; 300)")
    args = parser.parse_args()
    head = _commit("HEAD")
    with tempfile.TemporaryDirectory(prefix="sudokulab-speed-") as folder:
        base_tree = Path(folder) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(base_tree),
                        args.base], cwd=ROOT, check=True)
        try:
            files = {name: _sample(name, args.sample, Path(folder)) for name in DATASETS}
            loads = [os.getloadavg()[0]]
            times = _rounds({"base": base_tree, "head": ROOT}, files, args.rounds)
            loads.append(os.getloadavg()[0])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)],
                           cwd=ROOT, check=False)
    rows, verdicts = [], []
    for (command, name), pair in times.items():
        ratios = [h / b for b, h in zip(pair["base"], pair["head"])]
        ratio = statistics.median(ratios)
        rows.append([command, name, f"{statistics.median(pair['base']):.2f}",
                     f"{statistics.median(pair['head']):.2f}",
                     f"{ratio:.3f} ({min(ratios):.3f}-{max(ratios):.3f})"])
        verdicts.append(f"{command} {name}: CPU {ratio:.3f} of {args.base}'s (median of "
                        f"{args.rounds}) <= 1.00 {'PASS' if ratio <= 1.0 else 'FAIL'}")
    _write(rows, verdicts, args, head, loads)
    print("\n".join(verdicts))
    return 0 if all(v.endswith("PASS") for v in verdicts) else 1


def _commit(ref: str) -> str:
    """A commit's short hash."""
    return subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()


def _sample(name: str, size: int, folder: Path) -> Path:
    """A file of `size` puzzles of a dataset drawn with SEED (every puzzle for 0)."""
    lines = datasets.lines(name)
    chosen = random.Random(SEED).sample(lines, size) if 0 < size < len(lines) else lines
    path = folder / f"{name}.txt"
    path.write_text("\n".join(chosen) + "\n")
    return path


def _rounds(trees: dict[str, Path], files: dict[str, Path], rounds: int) -> dict:
    """CPU seconds per (command, dataset) and tree, one list per tree, in turn."""
    times: dict = {}
    for k in range(rounds):
        for command in COMMANDS:
            for name, path in files.items():
                pair = times.setdefault((command, name), {tree: [] for tree in trees})
                for tree, where in trees.items():
                    pair[tree].append(_cpu(where, command, path))
                print(f"round {k + 1}: {command} {name}: base {pair['base'][-1]:.2f} s, "
                      f"head {pair['head'][-1]:.2f} s", flush=True)
    return times


def _cpu(tree: Path, command: str, path: Path) -> float:
    """The CPU seconds (user + system) of one `sudokulab COMMAND --file PATH` from a tree."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", command, "--file", str(path)],
                               cwd=tree, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1, 6, 7):  # a puzzle's own ending, not a failure
        raise SystemExit(f"{tree}: sudokulab {command} --file {path} exited "
                         f"{process.returncode}: a run that fails is no time")
    return usage.ru_utime + usage.ru_stime


def _write(rows: list, verdicts: list[str], args, head: str, loads: list[float]) -> None:
    """results/human-speed.md."""
    sample = f"{args.sample} puzzles of each (seed {SEED})" if args.sample else "every puzzle"
    OUT.write_text("\n".join([
        "# The human engine's commands, side by side with an earlier commit", "",
        f"`python bench/bench_human_speed.py --base {args.base} --rounds {args.rounds} "
        f"--sample {args.sample}` on {date.today().isoformat()}: this tree ({head}) against "
        f"{args.base}, {sample}, whole `sudokulab COMMAND --file` processes timed in turn, "
        f"CPU seconds (user + system) per run, median over {args.rounds} rounds; load "
        f"average (1 min) {loads[0]:.2f} before and {loads[1]:.2f} after.", "",
        tabulate(rows, headers=["command", "dataset", f"{args.base} CPU s", f"{head} CPU s",
                                "ratio (min-max)"], tablefmt="github"), "",
        *[f"- {v}" for v in verdicts], "",
        "The whole command is timed: the referee's verdict, the human path, the grade and "
        "the output.", ""]))


if __name__ == "__main__":
    sys.exit(main())
