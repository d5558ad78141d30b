"""Issue 55: a rule made of geometry (units, cells a move apart that differ, cells that
differ) touches at most eight files, and CONTRIBUTING's checklist names exactly them.

- CONTRIBUTING's "A rule made of geometry" lists the files of FILES, no more, no fewer;
- every rule of that kind already in the lab is named in each of them (each is needed);
- no other module of the package names one, but those of OPTIONAL (each says why);
- and the proof: the rule added for real to a copy of the package, by the edits
  CONTRIBUTING asks of the Python files (the class; the checker's and the certificate
  encoder's own reading of it, which share no code with the geometry), then every engine
  solves a puzzle that needs it, with no edit in any engine.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import rules as R

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sudokulab"

# The files a rule made of geometry touches, each with what goes there.
FILES = {
    "sudokulab/rules.py": "the class",
    "sudokulab/check.py": "the checker's own reading of it",
    "sudokulab/certificates/encoder.py": "the certificates' own clauses for it",
    "sudokulab/data/puzzle.schema.json": "its name among the rules without parameters",
    "sudokulab/web/static/rules.js": "its drawing, check and sentence on the page",
    "tests/data/variants.json": "a puzzle that needs it",
    "docs/variants.md": "its row in the table",
    "CHANGELOG.md": "a line",
}
# Modules that may name such a rule though it needs none of them, and why.
OPTIONAL = {
    "sudokulab/formats/fpuzzles.py": "f-puzzles' own key for it, where the site has one "
                                     "(else the link carries its units as extra regions)",
    "sudokulab/formats/sudokupad.py": "SudokuPad's own form of it, where it has one",
    "sudokulab/web/static/links.js": "the page's f-puzzles key for it, where there is one",
    "sudokulab/models/asp/__init__.py": "a readable flag (else its units, cell by cell)",
    "sudokulab/models/asp/sudoku.lp": "a paragraph of its own (else the generic one)",
    "sudokulab/web/static/geometry.js": "the page's peers, to highlight them",
}
# The rules of units without parameters that came after the engines read the geometry.
MADE_OF_GEOMETRY = (R.MainDiagonal, R.AntiDiagonal, R.DisjointGroups)


def spellings(kind: type[R.Rule]) -> re.Pattern[str]:
    """The ways code names a rule: its name (with - or _) or its class."""
    name = re.escape(kind.name).replace(r"\-", "[-_]")
    return re.compile(rf"{name}\b|\b{kind.__name__}\b")


def checklist() -> list[str]:
    """The files CONTRIBUTING's 'A rule made of geometry' lists, in its order."""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    section = text.split("### A rule made of geometry", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^- \[ \] `([^`]+)`", section, flags=re.M)


def test_contributing_lists_the_files_a_rule_made_of_geometry_touches():
    assert checklist() == list(FILES)
    assert len(FILES) <= 8


@pytest.mark.parametrize("kind", MADE_OF_GEOMETRY, ids=lambda kind: kind.name)
def test_each_listed_file_names_the_rules_made_of_geometry(kind):
    pattern = spellings(kind)
    missing = [path for path in FILES if path != "CHANGELOG.md"
               and not pattern.search((ROOT / path).read_text())]
    assert not missing, f"{kind.name} is not named in {missing}: is the file needed?"


@pytest.mark.parametrize("kind", MADE_OF_GEOMETRY, ids=lambda kind: kind.name)
def test_no_other_module_names_a_rule_made_of_geometry(kind):
    pattern = spellings(kind)
    naming = {str(path.relative_to(ROOT)) for path in PACKAGE.rglob("*")
              if path.is_file() and path.suffix in (".py", ".js", ".lp", ".pl", ".mzn",
                                                    ".json", ".html")
              and "__pycache__" not in path.parts and pattern.search(path.read_text())}
    assert naming <= set(FILES) | set(OPTIONAL), naming - set(FILES) - set(OPTIONAL)


# --- the rule added for real, to a copy of the package --------------------------------------

# The edits CONTRIBUTING asks of the Python files, for "centre-dot" (the centre cells of
# the boxes hold every digit once): each (file, the line it goes before, the text).
CENTRE_DOT = [
    ("rules.py", "@dataclass(frozen=True)\nclass Thermometer(Line):", '''\
@dataclass(frozen=True)
class CentreDot(Rule):
    """The centre cells of the boxes hold every digit once."""

    name = "centre-dot"
    summary = "the boxes' centre cells hold every digit once"
    digit_blind = True

    def problem(self, box: Box) -> str:
        """Boxes with a centre cell."""
        return "" if box[0] % 2 and box[1] % 2 else "centre-dot needs boxes of odd sides"

    def units(self, box: Box) -> tuple[UnitSpec, ...]:
        """The centre of every box."""
        rows, cols = box
        n = rows * cols
        return (("centre dot", "centre dot", tuple(
            (top + rows // 2, left + cols // 2) for top in range(0, n, rows)
            for left in range(0, n, cols))),)


'''),
    ("check.py", "                             R.DisjointGroups))",
     "                             R.CentreDot,\n"),
    ("check.py", "        if isinstance(rule, R.Windoku):", '''\
        if isinstance(rule, R.CentreDot):
            houses.append(("centre dot", [(top + br // 2, left + bc // 2)
                                          for top in range(0, n, br)
                                          for left in range(0, n, bc)]))
'''),
    ("certificates/encoder.py", "        if isinstance(rule, R.DisjointGroups):", '''\
        if isinstance(rule, R.CentreDot):
            units.append([(top + br // 2, left + bc // 2) for top in range(0, n, br)
                          for left in range(0, n, bc)])
'''),
    ("certificates/encoder.py", "    R.AntiKnight: _anti_knight,",
     "    R.CentreDot: _houses_only,\n"),
]
# A puzzle unique only under centre-dot (scripts/variant_puzzles.py centre-dot made it).
NEEDS_IT = {"box": [3, 3], "rules": [{"type": "centre-dot"}], "givens": [
    [0, 0, 0, 7, 0, 0, 0, 0, 0], [0, 3, 4, 0, 9, 1, 0, 0, 0], [0, 6, 2, 0, 4, 0, 0, 0, 0],
    [0, 0, 0, 0, 3, 5, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0, 0], [0, 5, 1, 0, 0, 6, 8, 0, 4],
    [4, 0, 5, 0, 0, 0, 2, 0, 0], [0, 0, 7, 2, 0, 0, 0, 4, 0], [0, 0, 3, 0, 0, 0, 6, 0, 0]]}
# The hardest puzzle, whose one solution repeats digits at the boxes' centres: no solution
# under centre-dot.
BREAKS_IT = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# The engines that take no rule beyond their own list, and say so (UNSUPPORTED).
OWN_LIST = {"human": "its techniques know the rules of human.FIRST_RULES",
            "native": "the classic rules only"}

SOLVE_ALL = """
import json, sys
from pysat.solvers import Solver
from sudokulab import rules as R
from sudokulab.backends import backend_class, make_backend, names
from sudokulab.certificates.encoder import encode
from sudokulab.check import check
from sudokulab.formats.text import from_json, parse

needs = from_json(sys.argv[1])
breaks = parse(sys.argv[2]).with_rules((R.CentreDot(),))
answers = {}
for name in names():
    if not backend_class(name).available().ok:
        continue
    engine = make_backend(name)
    one, none = engine.solve(needs, limit=2), engine.solve(breaks, limit=2)
    answers[name] = [one.status.name, [list(g) for g in one.solutions], none.status.name]
encoding = encode(needs)
with Solver(name="cadical195", bootstrap_with=encoding.clauses()) as solver:
    models = []
    while len(models) < 3 and solver.solve():
        models.append(encoding.grid(solver.get_model()))
        solver.add_clause(encoding.blocking(models[-1]))
loose = make_backend("sat").solve(needs.with_rules(()), limit=2).solutions
print(json.dumps({"engines": answers, "certificate": [list(g) for g in models],
                  "checked": [check(needs, grid) == [] for grid in loose],
                  "loose": [list(g) for g in loose]}))
"""


@pytest.fixture(scope="module")
def with_centre_dot(tmp_path_factory) -> Path:
    """A copy of the package with centre-dot added by CENTRE_DOT's edits alone."""
    root = tmp_path_factory.mktemp("with-centre-dot")
    shutil.copytree(PACKAGE, root / "sudokulab",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, before, text in CENTRE_DOT:
        path = root / "sudokulab" / name
        source = path.read_text()
        assert source.count(before) == 1, f"{name}: the line to add before has moved: {before!r}"
        path.write_text(source.replace(before, text + before))
    return root


def test_a_rule_made_of_geometry_reaches_every_engine_without_an_edit_there(with_centre_dot):
    run = subprocess.run([sys.executable, "-c", SOLVE_ALL, json.dumps(NEEDS_IT), BREAKS_IT],
                         capture_output=True, text=True, check=False, cwd=with_centre_dot,
                         env={**os.environ, "PYTHONPATH": str(with_centre_dot)})
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout)
    [solution] = found["certificate"]  # the certificates' own CNF has exactly one model
    # without the rule the puzzle has others, and the checker refuses them under it
    assert len(found["loose"]) == 2 and found["checked"].count(True) <= 1
    wrong = {}
    for name, (status, grids, none) in found["engines"].items():
        if name in OWN_LIST:
            right = status == none == "UNSUPPORTED"
        else:
            right = status == "UNIQUE" and grids == [solution] and none == "NONE"
        if not right:
            wrong[name] = (status, none)
    assert not wrong, f"engines that did not take centre-dot through the geometry: {wrong}"
    from sudokulab.backends import backend_class, names

    here = {name for name in names() if backend_class(name).available().ok}
    assert set(found["engines"]) == here  # the copy runs every engine this checkout runs
