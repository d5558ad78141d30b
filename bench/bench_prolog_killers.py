"""Issue 58: prolog on hard killers, side by side with sat.

The killers (tests/data/killers-heldout.md says where each set comes from):
- KRAZYDAD: tests/data/killers.jsonl (26 with solutions, and two partial grids answered
  with limit=2) and tests/data/killers-slow.jsonl (12 held out: the slowest for prolog of
  574 more of krazydad's hardest books before issue 58);
- FORUM: tests/data/killers-forum.jsonl, 33 hard killers of the killer forums (Tarek's,
  "human-solvable zero", Wecoc's), far harder: reported, with no target.

Each backend runs in a fresh process of its own (the engine loaded before the clock with a
solve of the empty 4x4), killer after killer with limit=2 and a timeout of CAP seconds
(FORUM_CAP for the forum set). A grid must be the published solution; a partial grid must
come back with two grids. Seconds are CPU seconds of the backend's process (the machine is
shared; the wall clock is shown beside).

Targets, on the krazydad killers:
1. prolog answers each in at most TARGET seconds;
2. prolog's CPU over sat's, puzzle by puzzle: the median ratio at most RATIO.

Run: .venv/bin/python bench/bench_prolog_killers.py [--no-forum] [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
from pathlib import Path

from children import hand_over, in_a_child
from provenance import machine_section
from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
KRAZYDAD = ("killers.jsonl", "killers-slow.jsonl")
FORUM = ("killers-forum.jsonl",)
BACKENDS = ("prolog", "sat")
TARGET = 1.0      # CPU seconds, prolog's slowest krazydad killer
RATIO = 10.0      # prolog's CPU over sat's, the median over the krazydad killers
CAP = 10.0        # seconds a backend may spend on a krazydad killer
FORUM_CAP = 10.0  # and on a forum killer
CHILD_CAP = 1800.0
MEASURED = ["sudokulab/models/prolog/sudoku.pl", "sudokulab/backends/prolog.py"]


def killers(files: tuple[str, ...]) -> list[dict]:
    """Every killer of some files of tests/data: file, name, JSON line, solution, partial."""
    out = []
    for file in files:
        for line in (DATA / file).read_text().splitlines():
            data = json.loads(line)
            out.append({"file": file, "name": data["name"], "json": line,
                        "solution": data.get("solution"), "partial": bool(data.get("partial"))})
    return out


def answer(backend, puzzle, killer: dict, cap: float) -> dict:
    """One killer answered: CPU and wall seconds, status, whether it is right."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = backend.solve(puzzle, limit=2, timeout=cap)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    grids = ["".join(map(str, grid)) for grid in result.solutions]
    right = (len(grids) == 2 if killer["partial"]
             else grids == [killer["solution"]] and result.status.value == "unique")
    return {"cpu": cpu, "wall": wall, "status": result.status.value, "right": right}


def run_child(name: str, files: tuple[str, ...]) -> None:
    """In a child: answer every killer of the files with one backend."""
    from sudokulab.backends import make_backend
    from sudokulab.formats.text import from_json
    from sudokulab.puzzle import empty

    backend = make_backend(name)
    backend.solve(empty(4), limit=2)
    answers = [answer(backend, from_json(k["json"]), k,
                      FORUM_CAP if k["file"] in FORUM else CAP) for k in killers(files)]
    hand_over({"backend": name, "answers": answers})


def side_by_side(files: tuple[str, ...]) -> list[dict]:
    """Each killer with each backend's answer (a crashed child leaves None)."""
    rows = killers(files)
    for name in BACKENDS:
        got = in_a_child(__file__, name, CHILD_CAP, ("--files", ",".join(files)))
        answers = got.get("answers") or [None] * len(rows)
        for row, one in zip(rows, answers):
            row[name] = one
    return rows


def verdicts(rows: list[dict]) -> list[str]:
    """The targets' lines, each ending in PASS or FAIL."""
    prolog = [row["prolog"] for row in rows]
    sat = [row["sat"] for row in rows]
    slowest = max((a["cpu"] for a in prolog if a), default=float("inf"))
    all_right = all(a and a["right"] for a in prolog)
    ok = all_right and slowest <= TARGET
    lines = [f"prolog answers each of {len(rows)} krazydad killers right in at most {TARGET} s "
             f"of CPU: slowest {slowest:.2f} s{'' if all_right else ', not all right'}: "
             f"{'PASS' if ok else 'FAIL'}"]
    ratios = [p["cpu"] / max(s["cpu"], 1e-3) for p, s in zip(prolog, sat) if p and s]
    median = statistics.median(ratios) if ratios else float("inf")
    lines.append(f"prolog's CPU over sat's on the krazydad killers: median {median:.1f} "
                 f"(max {max(ratios, default=float('inf')):.1f}), target at most {RATIO}: "
                 f"{'PASS' if median <= RATIO else 'FAIL'}")
    return lines


def cell(one: dict | None) -> str:
    """CPU (wall) seconds, with the status when it is not right."""
    if one is None:
        return "crashed"
    text = f"{one['cpu']:.2f} ({one['wall']:.2f})"
    return text if one["right"] else f"{text} {one['status'].upper()}"


def table(rows: list[dict]) -> str:
    """One line per killer: each backend's seconds and the ratio."""
    body = [[row["file"], row["name"], cell(row["prolog"]), cell(row["sat"]),
             f"{row['prolog']['cpu'] / max(row['sat']['cpu'], 1e-3):.1f}"
             if row["prolog"] and row["sat"] else "-"] for row in rows]
    return tabulate(body, headers=["file", "killer", "prolog CPU (wall) s", "sat CPU (wall) s",
                                   "ratio"], tablefmt="github")


def report(krazydad: list[dict], forum: list[dict], lines: list[str]) -> str:
    """The markdown report."""
    today = datetime.date.today().isoformat()
    text = ["# Prolog on hard killers, beside sat (issue 58)", "",
            f"Generated by `bench/bench_prolog_killers.py` on {today}. Each backend in a fresh "
            f"process, limit=2, timeout {CAP} s ({FORUM_CAP} s on the forum killers); seconds "
            "are CPU seconds of the process, the wall clock in brackets; a grid must be the "
            "published solution (tests/data/killers-heldout.md). Ratio: prolog's CPU over sat's.",
            "", "## Targets", "", *[f"- {line}" for line in lines], "",
            "## Krazydad killers", "", table(krazydad), ""]
    if forum:
        solved = sum(1 for row in forum if row["prolog"] and row["prolog"]["right"])
        text += ["## Forum killers (no target)", "",
                 f"prolog answers {solved} of {len(forum)} within {FORUM_CAP} s.", "",
                 table(forum), ""]
    return "\n".join(text + machine_section(measured=MEASURED))


def main() -> int:
    """Run both backends on the killers, write the report, print the verdicts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--files", help=argparse.SUPPRESS)
    parser.add_argument("--no-forum", action="store_true", help="leave out the forum killers")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "prolog-killers.md")
    args = parser.parse_args()
    if args.child:
        run_child(args.child, tuple(args.files.split(",")))
        return 0
    krazydad = side_by_side(KRAZYDAD)
    forum = [] if args.no_forum else side_by_side(FORUM)
    lines = verdicts(krazydad)
    args.out.write_text(report(krazydad, forum, lines))
    print(f"wrote {args.out}")
    for line in lines:
        print(line)
    return 0 if all(line.endswith("PASS") for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
