"""The side-by-side view of one rule (`sudokulab.teaching.sidebyside`, `model --show-rule N`):
each engine's piece is taken from its own model, and the pieces of all the rules add up to
that model."""

import inspect
from collections import Counter
from dataclasses import replace
from math import comb
from pathlib import Path

import pytest

from sudokulab import backends
from sudokulab import rules as R
from sudokulab.backends import norvig
from sudokulab.cli import main
from sudokulab.formats.text import parse
from sudokulab.geometry import geometry
from sudokulab.models import asp, cnf, cpsat, smt
from sudokulab.teaching import sidebyside as teach

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
CLASSIC = parse(LINE)
CAGE = R.parse_cage("r1c1,r5c5=10")  # two cells sharing no unit: the cage says they differ
VARIANT = replace(CLASSIC, rules=(CAGE, *R.named("anti-knight")))
N = 9


def numbers(puzzle):
    """The numbered rules as {name: number}."""
    return {ref.name: ref.number for ref in teach.rules_of(puzzle)}


def piece(puzzle, number, engine, encoding="extended"):
    """One engine's piece for rule `number`."""
    [found] = teach.pieces(puzzle, number, [engine], encoding)
    assert not found.missing, found.missing
    return found


def test_numbering_rows_columns_boxes_then_rules():
    names = numbers(VARIANT)
    assert names["row 1"] == 1 and names["column 1"] == N + 1 and names["box 1"] == 2 * N + 1
    assert names["cage r1c1,r5c5=10"] == 3 * N + 1 and names["anti-knight"] == 3 * N + 2
    assert len(names) == 3 * N + 2


def test_every_engine_of_the_registry_answers():
    found = teach.pieces(VARIANT, 1)
    assert [p.engine for p in found] == backends.names()
    for p in found:
        assert p.text or p.missing  # a piece, or why there is none


@pytest.mark.parametrize("encoding", ["minimal", "efficient", "extended"])
def test_cnf_pieces_of_the_units_add_up_to_the_formula(encoding):
    formula = cnf.encode(CLASSIC, encoding)
    per_unit = [piece(CLASSIC, k, "sat", encoding).size["clauses"] for k in range(1, 3 * N + 1)]
    cell_clauses = formula.parts["cell"] + formula.parts.get("given", 0)
    assert sum(per_unit) + cell_clauses == formula.size
    at_least = N if encoding == "extended" else 0
    assert per_unit[0] == at_least + N * comb(N, 2)  # pairwise at-most-one, per digit


def test_cnf_piece_of_a_cage_is_what_the_cage_adds():
    number = numbers(VARIANT)["cage r1c1,r5c5=10"]
    shown = piece(VARIANT, number, "sat")
    with_cage = cnf.base(CLASSIC.box, (CAGE,)).cnf.clauses
    plain = cnf.base(CLASSIC.box, ()).cnf.clauses
    added = Counter(map(tuple, with_cage)) - Counter(map(tuple, plain))
    assert shown.size["clauses"] == sum(added.values())
    first = shown.text.splitlines()[1]  # after the legend: the first clause in DIMACS
    assert tuple(int(x) for x in first.split()[:-1]) in added


def test_cnf_piece_of_anti_knight_is_its_part():
    formula = cnf.encode(VARIANT, "extended")
    shown = piece(VARIANT, numbers(VARIANT)["anti-knight"], "sat")
    assert shown.size["clauses"] == formula.parts["anti-knight"]


def test_smt_and_cpsat_pieces_add_up_to_their_groups():
    geo = geometry(VARIANT.box, VARIANT.rules)
    model = smt.build(geo, teach._default("smt", "model", "bool"))
    rows = sum(piece(VARIANT, k, "smt").size["assertions"] for k in range(1, N + 1))
    assert rows == len(model.groups["rows"])
    knight = piece(VARIANT, numbers(VARIANT)["anti-knight"], "smt").size["assertions"]
    assert knight == len(model.groups["anti-knight"])
    built = cpsat.build(geo, teach._default("cpsat", "model", "bool"))
    boxes = sum(piece(VARIANT, k, "cpsat").size["constraints"]
                for k in range(2 * N + 1, 3 * N + 1))
    assert boxes == len(built.groups["boxes"])
    cage = piece(VARIANT, numbers(VARIANT)["cage r1c1,r5c5=10"], "cpsat")
    assert cage.size["constraints"] == len(built.groups["cages"])


def test_program_pieces_are_lines_of_the_programs():
    from sudokulab.backends import prolog
    from sudokulab.models import mzn

    lp = asp.program().splitlines()
    pl = prolog.PROGRAM.read_text(encoding="utf-8")
    mz = mzn.model_text()
    for number in (1, numbers(VARIANT)["cage r1c1,r5c5=10"], numbers(VARIANT)["anti-knight"]):
        text = piece(VARIANT, number, "asp").text.split("% the facts of this rule")[0]
        assert all(line in lp for line in text.splitlines() if line)
        clauses = [c for c in piece(VARIANT, number, "prolog").text.split("\n\n")]
        body = [line for c in clauses for line in c.splitlines()
                if not line.startswith("% the rule term") and not line.startswith("% row")]
        assert body and all(line in pl for line in body)
        assert all(line in mz for line in piece(VARIANT, number, "mzn").text.splitlines())


def test_asp_facts_are_the_rules_own():
    text = piece(VARIANT, numbers(VARIANT)["cage r1c1,r5c5=10"], "asp").text
    assert "cage(1,10). cage_cell(1,1,1). cage_cell(1,5,5)." in text
    assert "anti_knight." in piece(VARIANT, numbers(VARIANT)["anti-knight"], "asp").text


def test_norvig_piece_is_the_real_source():
    cage = piece(VARIANT, numbers(VARIANT)["cage r1c1,r5c5=10"], "norvig").text
    assert inspect.getsource(norvig.RuleBoard.add_up_cages).strip().splitlines()[0].strip() \
        in cage
    row = piece(CLASSIC, 1, "norvig").text
    assert "def eliminate" in row and "def place_hidden_singles" in row


def test_dlx_columns_of_a_row_and_of_anti_knight():
    row = piece(CLASSIC, 1, "dlx")
    assert row.size["primary columns"] == N and "row 1 digit 1: rows r1c1=1" in row.text
    knight = piece(VARIANT, numbers(VARIANT)["anti-knight"], "dlx")
    assert knight.size["secondary columns"] > 0 and "chess move" in knight.text


def test_human_steps_use_the_unit():
    pieces = [piece(CLASSIC, k, "human") for k in range(1, 3 * N + 1)]
    assert sum(p.size["steps"] for p in pieces) > 0
    assert all("Hidden Single" in p.text for p in pieces)


def test_model_rule_prints_the_pieces(capsys):
    code = main(["model", LINE, "--cage", "r1c1,r5c5=10", "--show-rule", "28",
                 "--backends", "sat,asp"])
    out = capsys.readouterr().out
    assert code == 0
    for p in teach.pieces(replace(CLASSIC, rules=(CAGE,)), 28, ["sat", "asp"]):
        assert p.render() in out


def test_model_rule_keeps_the_pieces_built_before_ctrl_c(capsys, monkeypatch):
    """Each engine's piece is printed as it is built: before, every piece was built first,
    so Ctrl-C on a slow engine printed none of the finished ones."""
    built = teach.piece

    def piece(name, *args):
        if name == "asp":
            raise KeyboardInterrupt
        return built(name, *args)

    monkeypatch.setattr(teach, "piece", piece)
    code = main(["model", LINE, "--show-rule", "1", "--backends", "norvig,sat,asp"])
    out = capsys.readouterr().out
    assert code == 130
    for name in ("norvig", "sat"):
        assert built(name, CLASSIC, teach.rule_ref(CLASSIC, 1)).render() in out


def test_model_rule_out_of_range_is_one_line(capsys):
    assert main(["model", LINE, "--show-rule", "99"]) == 2
    err = capsys.readouterr().err
    assert "rules 1-27" in err and len(err.strip().splitlines()) == 1


def test_each_sandwich_is_named_by_its_line_and_shown_alone():
    # held-out pass 7: every sandwich was listed as 'sandwich' over all 81 cells, and
    # MiniZinc's piece counted the entries of all of them
    row, column = R.Sandwich(False, 2, 12), R.Sandwich(True, 3, 9)
    puzzle = replace(CLASSIC, rules=(row, column))
    names = numbers(puzzle)
    assert names["sandwich row 3=12"] == 28 and names["sandwich column 4=9"] == 29
    assert teach.rule_ref(puzzle, 29).cells == tuple(r * N + 3 for r in range(N))
    alone = piece(puzzle, 29, "mzn")
    assert alone.size["sandwich_line entries"] == 1 and "column 4=9" in alone.title
    sat_row, sat_column = piece(puzzle, 28, "sat"), piece(puzzle, 29, "sat")
    assert sat_row.text != sat_column.text


def test_a_samurai_has_no_numbered_rules_and_says_which_option(capsys):
    samurai = str(Path(__file__).parent / "data" / "samurai.txt")
    assert main(["model", "--list-rules", "--file", samurai]) == 2
    assert "--show-rule and --list-rules take one grid, not a samurai" in capsys.readouterr().err
