"""Issue 57: the human techniques on HoDoKu's regression library, held out.

HoDoKu's `reglib-1.4.txt` (1,112 cases, GPL: it stays outside this repository; it ships
with HoDoKu, hodoku.sourceforge.net, and in copies of its source such as
github.com/zh3305/HoDoKu) holds one case a line: a pencil-mark position, a technique's code
and the exact eliminations or placements one step of it makes there, or `-x`, a fail case
where the technique has no instance. Each case is read as `hint LINE --all --techniques
CODE` reads it (human.positions.library, solver.lookup) and the technique's finder asked
for every step:

- pass: a step makes exactly the case's eliminations and placements (a fail case: none);
- miss: the lab has the technique but no step matches;
- lacks: the lab has no technique for the code.

Every step found is also checked against the position's solution (norvig's, another
paradigm) where it has one: `wrong` counts steps that remove a solution's digit or place
another. Target (issue 57's done-when): pass in at least 97% of the cases, wrong 0.

Run: .venv/bin/python bench/bench_reglib.py PATH/reglib-1.4.txt [--out results/reglib.md]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from provenance import machine_section
from tabulate import tabulate

from sudokulab.backends import make_backend
from sudokulab.errors import SudokulabError, UnknownTechnique
from sudokulab.human import solver
from sudokulab.human.candidates import Candidates
from sudokulab.human.names import entry_named
from sudokulab.human.positions import library

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.97
MEASURED = ["sudokulab/human"]


def judge(line: str, norvig) -> tuple[str, int]:
    """A case's verdict (pass, miss, lacks, unreadable) and its wrong steps."""
    try:
        position = library(line)
        technique = solver.lookup(position.code)
    except UnknownTechnique:
        return "lacks", 0
    except SudokulabError:
        return "unreadable", 0
    steps = list(technique.find(Candidates(position)))
    if line.split(":")[1].endswith("-x"):
        verdict = "pass" if not steps else "miss"
    else:
        want = (sorted(position.expected), sorted(position.placements))
        found = [(sorted(s.eliminations), sorted(s.placements)) for s in steps]
        verdict = "pass" if want in found else "miss"
    answer = norvig.solve(position, limit=2)
    if answer.count != 1:
        return verdict, 0
    grid = answer.solutions[0]
    wrong = sum(1 for s in steps if any(grid[c] == d for c, d in s.eliminations)
                or any(grid[c] != d for c, d in s.placements))
    return verdict, wrong


def report(path: Path, rows: dict[str, Counter], seconds: float) -> str:
    """The Markdown report: per code, then the totals against the target."""
    total: Counter = Counter()
    table = []
    for code in sorted(rows):
        counts = rows[code]
        total.update(counts)
        entry = entry_named(code)
        table.append((code, entry.name if entry else "?", sum(counts[k] for k in
                      ("pass", "miss", "lacks", "unreadable")), counts["pass"], counts["miss"],
                      counts["lacks"], counts["wrong"]))
    cases = sum(total[k] for k in ("pass", "miss", "lacks", "unreadable"))
    share = total["pass"] / cases if cases else 0.0
    verdict = "PASS" if share >= TARGET and not total["wrong"] else "FAIL"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return "\n".join([
        "# The human techniques on HoDoKu's regression library", "",
        f"bench/bench_reglib.py on `{path.name}` (sha256 {digest}..., held out: GPL, outside "
        f"the repository), {cases} cases in {seconds:.0f} s.", "",
        f"**{verdict}**: {total['pass']} of {cases} cases pass ({share:.1%}; target "
        f"{TARGET:.0%}), {total['miss']} missed, {total['lacks']} of techniques the lab "
        f"lacks, {total['unreadable']} unreadable; {total['wrong']} wrong step(s).", "",
        tabulate(table, headers=("code", "HoDoKu name", "cases", "pass", "miss", "lacks",
                                 "wrong"), tablefmt="github"), "",
        *machine_section(measured=MEASURED)])


def main() -> int:
    """Judge every case, write the report, print the verdict line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path, help="HoDoKu's reglib-1.4.txt")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "reglib.md")
    args = parser.parse_args()
    if not args.library.is_file():
        print(f"bench_reglib: {args.library}: no such file (HoDoKu's reglib-1.4.txt)",
              file=sys.stderr)
        return 2
    norvig = make_backend("norvig")
    rows: dict[str, Counter] = defaultdict(Counter)
    start = time.monotonic()
    for line in args.library.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(":"):
            verdict, wrong = judge(line, norvig)
            code = line.split(":")[1][:4]
            rows[code][verdict] += 1
            rows[code]["wrong"] += wrong
    text = report(args.library, rows, time.monotonic() - start)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(next(line for line in text.splitlines() if line.startswith("**")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
