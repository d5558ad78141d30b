"""Propagation views report only states an engine reached (issue 53): unit propagation is
the closure of the whole formula (rule clauses included), checked against a unit
propagation written here over the exported DIMACS; no level keeps a digit the givens of
its unit (or a parity rule) exclude; an engine that cannot take a puzzle is unsupported
(exit 5), never a contradiction; a level known only by its full search shows no marks."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import sat
from sudokulab.cli import main
from sudokulab.errors import Exit, UnsupportedRule
from sudokulab.formats.text import from_json, parse
from sudokulab.geometry import geometry
from sudokulab.models import cnf
from sudokulab.teaching import ladder

DATA = Path(__file__).parent / "data"
VARIANTS = json.loads((DATA / "variants.json").read_text())
KILLER = from_json((DATA / "killers.jsonl").read_text().splitlines()[0])
SAMURAI = DATA / "samurai.txt"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ENCODINGS = ("minimal", "efficient", "extended", "augmented")


def puzzle(name: str):
    """A puzzle by name: a variant of variants.json, 'killer' (killers.jsonl's first),
    'classic' (HARD), 'odd' (HARD with two odd cells, the issue's example) or 'samurai'."""
    from sudokulab.formats import files

    if name == "classic":
        return parse(HARD)
    if name == "odd":
        return parse(HARD).with_rules([R.Parity(R.parse_cells("r1c2,r1c3"), False)])
    if name == "killer-file":
        return KILLER
    if name == "samurai":
        return files.read_file(SAMURAI)[0].puzzle
    return from_json(json.dumps(VARIANTS[name]))


def clauses_of(dimacs: str) -> list[list[int]]:
    """The clauses of DIMACS text (comments and the header skipped)."""
    numbers = [int(token) for line in dimacs.splitlines()
               if line.strip() and line[0] not in "cp" for token in line.split()]
    clauses, clause = [], []
    for number in numbers:
        if number:
            clause.append(number)
        else:
            clauses.append(clause)
            clause = []
    return clauses


def unit_closure(clauses: list[list[int]]) -> set[int] | None:
    """The literals unit propagation derives from the clauses alone (None: a conflict): the
    oracle, sharing nothing with any solver."""
    holding = defaultdict(list)  # literal -> the clauses it is in
    for clause in clauses:
        for lit in clause:
            holding[lit].append(clause)
    true: set[int] = set()
    queue = [clause[0] for clause in clauses if len(clause) == 1]
    if any(not clause for clause in clauses):
        return None
    while queue:
        lit = queue.pop()
        if lit in true:
            continue
        if -lit in true:
            return None
        true.add(lit)
        for clause in holding[-lit]:  # clauses that just lost a literal
            if any(x in true for x in clause):
                continue
            free = [x for x in clause if -x not in true]
            if not free:
                return None
            if len(free) == 1:
                queue.append(free[0])
    return true


def oracle_marks(p, encoding: str) -> tuple[int, ...] | None:
    """Each cell's candidates where unit propagation of the exported DIMACS stops."""
    true = unit_closure(clauses_of(cnf.to_dimacs(p, encoding)))
    if true is None:
        return None
    n, cells = p.n, len(p.givens)
    marks = []
    for cell in range(cells):
        lits = [cell * n + d for d in range(1, n + 1)]
        placed = [d for d, v in enumerate(lits, 1) if v in true]
        marks.append(1 << (placed[0] - 1) if placed else
                     sum(1 << (d - 1) for d, v in enumerate(lits, 1) if -v not in true))
    return tuple(marks)


PUZZLES = ("classic", "odd", "killer-file", "samurai", *sorted(VARIANTS))


@pytest.mark.parametrize("name", PUZZLES)
def test_unit_propagation_is_the_closure_of_the_exported_dimacs(name):
    p = puzzle(name)
    for encoding in ENCODINGS:
        try:
            expected = oracle_marks(p, encoding)
        except UnsupportedRule:  # augmented on jigsaw regions and a samurai
            continue
        for solver in ("minisat22", "cadical195"):  # the ladder's, sat:root=yes's default
            assert sat.root_marks(p, encoding, solver=solver) == expected, (encoding, solver)


def test_the_issues_odd_cells_lose_what_their_row_and_parity_exclude(capsys):
    assert main(["show", HARD, "--odd", "r1c2,r1c3", "--after", "sat:minimal"]) == Exit.OK
    head, first = capsys.readouterr().out.splitlines()[:2]
    expected = oracle_marks(puzzle("odd"), "minimal")
    left = sum(m.bit_count() for m in expected if m & (m - 1))
    assert f"{left} candidates left" in head
    r1c2, r1c3 = first.split()[1:3]
    assert r1c2 == r1c3 == "179"  # odd, and no 4 (r1c1), 5 (r1c9) or 8 (r1c7)


def excluded(p, parity: bool = True) -> set[tuple[int, int]]:
    """(cell, digit) pairs the givens exclude in their units, and a parity rule outright
    (if `parity`)."""
    geo = geometry(p.box, p.rules, p.layout)
    out = {(cell, p.givens[given]) for unit in geo.units for given in unit if p.givens[given]
           for cell in unit if cell != given}
    for rule in p.rules:
        if parity and isinstance(rule, R.Parity):
            out |= {(cell, d) for cell in geo.indices(rule.cells)
                    for d in range(1 if rule.even else 2, p.n + 1, 2)}
    return out


LEVELS = tuple(level for level in ladder.LEVELS if level.engine != "smt")


@pytest.mark.parametrize("name", ("classic", "odd", "killer-file", *sorted(VARIANTS)))
def test_no_level_keeps_a_digit_its_unit_or_a_parity_rule_excludes(name):
    p = puzzle(name)
    outcomes = ladder.compute(p, LEVELS)
    for level in LEVELS:
        out = outcomes[level.name]
        if out.unsupported or out.marks is None or not ladder.has_marks(level, out):
            continue
        # CLP(FD) states parity as X mod 2 #= 0, whose propagation prunes bounds only
        ruled = excluded(p, parity=level.engine != "prolog")
        kept = {(cell, d) for cell, d in ruled if out.marks[cell] >> (d - 1) & 1}
        assert not kept, (level.name, sorted(kept)[:5])


@pytest.mark.parametrize("level", ("human:singles", "human:chains", "prolog:all_distinct",
                                   "asp", "smt"))
def test_an_engine_without_layouts_is_unsupported_on_a_samurai(level, capsys):
    out = ladder.after(puzzle("samurai"), level)
    assert out.unsupported and out.marks is None and not out.finished
    assert main(["show", "--file", str(SAMURAI), "--after", level]) == Exit.ENGINE
    shown = capsys.readouterr()
    assert shown.out == ""
    assert shown.err.count("\n") == 1 and "unsupported" in shown.err
    assert "contradiction" not in shown.err


def test_a_rule_or_encoding_an_engine_lacks_is_unsupported(capsys):
    thermo, jigsaw = puzzle("thermometer"), puzzle("jigsaw")
    assert "thermometer" in ladder.after(thermo, "human:singles").unsupported
    assert "augmented" in ladder.after(jigsaw, "sat:augmented").unsupported
    assert not ladder.after(thermo, "sat:minimal").unsupported
    argument = json.dumps(VARIANTS["jigsaw"])
    assert main(["show", argument, "--after", "sat:augmented"]) == Exit.ENGINE
    assert "unsupported" in capsys.readouterr().err


@pytest.mark.parametrize("level", ("asp", "cpsat"))
def test_a_search_level_shows_no_marks_it_did_not_compute(level, capsys):
    assert main(["show", HARD, "--after", level]) == Exit.ENGINE
    shown = capsys.readouterr()
    assert shown.out == "" and "no pencil marks" in shown.err
    assert shown.err.count("\n") == 1
    easy = datasets.lines("easy50")[0]  # solved with no choice: its grid is a reached state
    assert main(["show", easy, "--after", level]) == Exit.OK
    head, *rows = capsys.readouterr().out.splitlines()
    assert "finished" in head
    assert all(len(token) == 1 for row in rows for token in row.split() if token.isdigit())


def test_the_pages_grids_say_why_a_level_has_no_marks():
    from sudokulab.web.routes.teach import _ladder_grids  # what POST /api/ladder/grids runs

    jigsaw = {level["name"]: level for level in _ladder_grids(puzzle("jigsaw"))["levels"]}
    assert jigsaw["sat:augmented"]["marks"] is None  # its encoding cannot state the regions
    assert jigsaw["sat:augmented"]["why"].startswith("unsupported: ")
    thermo = {level["name"]: level for level in _ladder_grids(puzzle("thermometer"))["levels"]}
    assert thermo["human:singles"]["why"].startswith("unsupported: ")
    hard = {level["name"]: level for level in _ladder_grids(parse(HARD))["levels"]}
    for name in ("asp", "cpsat"):  # a full search that took choices reached no marks
        assert hard[name]["marks"] is None and not hard[name]["finished"]
        assert hard[name]["why"].startswith("no pencil marks: ")
    reached = hard["sat:minimal"]
    assert reached["why"] == "" and len(reached["marks"]) == 81 and reached["candidates"] > 0


def test_model_of_a_samurai_models_it_or_says_unsupported(capsys):
    from sudokulab import backends

    for name in backends.names():
        code = main(["model", "--file", str(SAMURAI), "-b", name])
        shown = capsys.readouterr()
        assert code in (Exit.OK, Exit.ENGINE), name
        assert (code == Exit.ENGINE) == ("cannot" in shown.err), name
