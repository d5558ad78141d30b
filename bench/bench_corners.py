"""Issue 19, part 3: no slow corners. Every backend on the variant puzzles, hard killers,
and the impossible puzzle that Norvig's search once took minutes over.

The puzzles:
- tests/data/variants.json: one puzzle per rule, unique only under its rule;
- tests/data/killers.jsonl: 26 hard killers of krazydad's collection, each with its
  solution (bench/data/README.md says where from and which), answered with limit=2;
- IMPOSSIBLE: a classic with no solution, the kind Norvig's essay reports needing 188 s;
- the partial killer grids of tests/data/killers.jsonl (the cages below row 1 or row 2
  of one puzzle: 16 and 122 grids), counted (limit=None): reported, no target.

Each backend runs in a fresh process of its own (the engine loaded before the clock with a
solve of the empty 4x4), puzzle after puzzle with a timeout of CAP seconds each. Every
answer is checked: a killer's grid against its published solution, the others by the
independent checker, the impossible puzzle must be `none`, and the counts must agree
between backends.

Targets, per backend: the slowest answer over the variant puzzles and the killers takes
at most TARGET seconds, and so does the impossible puzzle. Seconds are CPU seconds of the
backend's process (the machine is shared; a wall clock also counts the waits for a core),
shown beside the wall clock.

With `--before DIR` (a checkout of an older commit, such as `git archive BASE | tar -x -C
DIR`) each backend runs a second time on that code in the same run, for the report's
"before" columns.

Run: .venv/bin/python bench/bench_corners.py [--backends norvig,sat,...] [--before DIR]
     [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from children import hand_over, in_a_child, seconds
from provenance import machine_section
from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "tests" / "data" / "variants.json"
KILLERS = ROOT / "tests" / "data" / "killers.jsonl"
IMPOSSIBLE = (".....5.8....6.1.43..........1.5........1.6...3......."
              "553.....61........4.........")
# Engines of the registry left out of this long run, each with why; none today: a
# backend's process is capped at CHILD_CAP, so a slow one costs time, never the run.
LEFT_OUT: dict[str, str] = {}
TARGET = 1.0   # CPU seconds, the slowest answer of a backend
CAP = 10.0     # seconds a backend may spend on one puzzle (its own timeout)
COUNT_CAP = 60.0  # seconds for counting a partial grid
CHILD_CAP = 900.0  # seconds a backend's process may live


def puzzles() -> list[dict]:
    """Every puzzle of the bench: name, kind (variant, killer, impossible, partial), JSON."""
    out = [{"name": name, "kind": "variant", "json": json.dumps(data)}
           for name, data in json.loads(VARIANTS.read_text()).items()]
    for line in KILLERS.read_text().splitlines():
        data = json.loads(line)
        out.append({"name": data["name"], "kind": "partial" if data.get("partial") else "killer",
                    "json": line, "solution": data.get("solution")})
    out.append({"name": "impossible", "kind": "impossible", "line": IMPOSSIBLE})
    return out


def run_in_this_process(name: str) -> dict:
    """Answer every puzzle with one backend; what a child process reports."""
    from sudokulab.backends import make_backend
    from sudokulab.check import check
    from sudokulab.puzzle import empty

    try:
        from sudokulab.formats.text import from_json, parse
    except ImportError:  # --before: code older than formats/text.py
        from sudokulab.puzzle import from_json, parse

    backend = make_backend(name)
    ready = backend.available()
    if not ready.ok:
        return {"backend": name, "available": False, "reason": ready.reason}
    backend.solve(empty(4), limit=2)  # load the engine outside the clock
    answers = []
    for item in puzzles():
        puzzle = from_json(item["json"]) if "json" in item else parse(item["line"])
        counting = item["kind"] == "partial"
        cpu, wall = time.process_time(), time.perf_counter()
        result = backend.solve(puzzle, limit=None if counting else 2,
                               timeout=COUNT_CAP if counting else CAP)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        grids = [grid for grid in set(result.solutions) if check(puzzle, grid) == []]
        if item["kind"] == "impossible":
            right = result.status.value == "none"
        elif counting:
            right = result.exact and len(grids) == len(result.solutions)
        elif item.get("solution"):
            right = (result.status.value == "unique"
                     and "".join(map(str, result.solutions[0])) == item["solution"])
        else:
            right = result.status.value == "unique" and len(grids) == 1
        answers.append({"name": item["name"], "kind": item["kind"], "cpu": cpu, "wall": wall,
                        "status": result.status.value, "count": result.count_text,
                        "right": right})
    import sudokulab

    return {"backend": name, "available": True, "version": ready.version, "answers": answers,
            "code": str(Path(sudokulab.__file__).parent.parent)}


def slowest(run: dict, kinds: tuple[str, ...]) -> dict | None:
    """The answer of these kinds with the most CPU time (a wrong answer counts as CAP)."""
    answers = [a for a in run.get("answers", ()) if a["kind"] in kinds]
    if not answers:
        return None
    return max(answers, key=lambda a: (not a["right"], a["cpu"]))


def table(runs: dict[str, dict], before: dict[str, dict]) -> str:
    """One row per backend: slowest variant or killer, the impossible puzzle, the counts."""
    rows = []
    for name, run in runs.items():
        if not run.get("available", True) or run.get("crashed"):
            rows.append([name, run.get("reason") or run.get("crashed"), "", "", ""])
            continue
        row = [name]
        for kinds in (("variant", "killer"), ("impossible",)):
            cells = [seconds(slowest(run, kinds))]
            if before:
                old = before.get(name, {})
                cells.insert(0, old.get("crashed") or seconds(slowest(old, kinds)))
            row += cells
        partial = [a for a in run["answers"] if a["kind"] == "partial"]
        row.append("; ".join(f"{a['count']} in {a['cpu']:.2f} ({a['wall']:.1f})"
                             + ("" if a["right"] else f" {a['status'].upper()}")
                             for a in partial))
        if before:
            old = [a for a in before.get(name, {}).get("answers", ()) if a["kind"] == "partial"]
            row.insert(-1, "; ".join(f"{a['count']} in {a['cpu']:.2f} ({a['wall']:.1f})"
                                     + ("" if a["right"] else f" {a['status'].upper()}")
                                     for a in old))
        name_of = slowest(run, ("variant", "killer"))
        row.append(name_of["name"] if name_of else "")
        rows.append(row)
    if before:
        headers = ["backend", "slowest variant/killer before", "after",
                   "impossible before", "after", "partial counts before", "after",
                   "slowest puzzle (after)"]
    else:
        headers = ["backend", "slowest variant/killer", "impossible", "partial counts",
                   "slowest puzzle"]
    return tabulate(rows, headers, tablefmt="github")


def targets(runs: dict[str, dict]) -> list[tuple[bool, str]]:
    """Per backend: the slowest answer within TARGET, the impossible puzzle within TARGET."""
    lines = []
    for name, run in runs.items():
        if not run.get("available", True):
            continue
        for kinds, what in ((("variant", "killer"), "variants and killers"),
                            (("impossible",), "the impossible puzzle")):
            answer = None if run.get("crashed") else slowest(run, kinds)
            passed = answer is not None and answer["right"] and answer["cpu"] <= TARGET
            lines.append((passed, f"{name}: {what}, max {seconds(answer)} s CPU (wall), "
                                  f"target max <= {TARGET:g} s"))
    counted = [[(a["count"], a["right"]) for a in run["answers"] if a["kind"] == "partial"]
               for run in runs.values() if run.get("answers")]
    agreed = bool(counted) and all(counts == counted[0] and all(right for _, right in counts)
                                   for counts in counted)
    shown = ", ".join(count for count, _ in counted[0]) if counted else "none"
    lines.append((agreed, f"partial killer grids: every backend counts exactly the same "
                          f"({shown})"))
    return lines


def report(text: str, verdicts: list[tuple[bool, str]], runs: dict, before: str) -> str:
    """results/corners.md."""
    kinds = [item["kind"] for item in puzzles()]
    return "\n".join([
        "# No slow corners (issue 19, part 3)",
        "",
        f"Generated by `bench/bench_corners.py` on {datetime.date.today().isoformat()}. "
        f"{kinds.count('variant')} variant puzzles (tests/data/variants.json), "
        f"{kinds.count('killer')} hard killers of krazydad's collection "
        "(tests/data/killers.jsonl, see bench/data/README.md), each answered with limit=2 "
        f"and a timeout of {CAP:g} s; the impossible puzzle `{IMPOSSIBLE}`; and two partial "
        "killer grids counted (limit=None). Every answer is checked (killers against their "
        "published solutions). Each backend runs in a fresh process of its own.",
        "",
        *[f"- **{'PASS' if passed else 'FAIL'}**: {line}" for passed, line in verdicts],
        "",
        "Times are CPU seconds of the backend's process, wall-clock seconds in brackets "
        "(the machine is shared: the wall clock also counts the waits for a core). "
        + (f"\"Before\" is the code of {before}, run in the same bench run on the same "
           "machine." if before else ""),
        "",
        text,
        "",
        "## What changed",
        "",
        "- All engines with cages: the rule of 45 (`sudokulab/cages.py`; `implied_cages/3` "
        "in sudoku.pl): each unit's cells outside the cages inside it are one more cage.",
        "- norvig: the cell to guess is chosen by candidates per conflict weight (dom/wdeg): "
        "each dead end weighs the cells of the unit, cell or cage where it happened.",
        "- prolog: each cage keeps the digits of its fitting digit sets; a cage with at most "
        "720 fillings is a `tuples_in/2` table, a bigger one a 0/1 vector of its digits "
        "restricted to the fitting sets; labeling takes the caged cells first.",
        "- smt (bool model): a cage is one of its digit sets, chosen by a selector Boolean, "
        "instead of a pseudo-Boolean sum over the one-hot digits.",
        "",
        *machine_section(*(f"{run['backend']}: {run['version']}" for run in runs.values()
                           if run.get("version")),
                         measured=("sudokulab", "bench/bench_corners.py")),
    ])


def backends() -> list[str]:
    """Every complete search of the registry (human's steps are no search), but LEFT_OUT."""
    from sudokulab.backends import complete_searches

    return [name for name in complete_searches() if name not in LEFT_OUT]


def main(argv: list[str] | None = None) -> int:
    """Run every backend (and the older code with --before); 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default=",".join(backends()))
    parser.add_argument("--before", type=Path, help="a checkout of older code to run too")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "corners.md")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        hand_over(run_in_this_process(args.child))
        return 0
    runs, before = {}, {}
    for name in args.backends.split(","):
        if args.before:
            print(f"{name} on {args.before} ...", file=sys.stderr, flush=True)
            before[name] = in_a_child(__file__, name, CHILD_CAP, code=args.before)
        print(f"{name} ...", file=sys.stderr, flush=True)
        runs[name] = in_a_child(__file__, name, CHILD_CAP)
    text = table(runs, before)
    verdicts = targets(runs)
    print(text)
    for passed, line in verdicts:
        print(f"{line}: {'PASS' if passed else 'FAIL'}")
    label = ""
    if args.before:
        label = f"`{args.before.name}` ({(args.before / 'COMMIT').read_text().strip()})" \
            if (args.before / "COMMIT").exists() else f"`{args.before}`"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(text, verdicts, runs, label))
    print(f"wrote {args.out}")
    return 0 if all(passed for passed, _ in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
