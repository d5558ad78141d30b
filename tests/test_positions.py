"""Pencil-mark positions (sudokulab/human/positions.py): HoDoKu's library line, printed
candidate grids, Sukaku's 729-character string and JSON with candidates read as the same
position; a position that contradicts itself refused with one line naming the cell; hint,
explain, grade and show starting from the position's own candidates; the page opening a
pasted position and hinting on it. Real positions: tests/data/positions (PROVENANCE.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_formats import run  # the command line in this process

from sudokulab.backends import make_backend
from sudokulab.errors import Exit, PuzzleError
from sudokulab.formats.text import format_candidates
from sudokulab.human import positions as P
from sudokulab.human import solver
from sudokulab.human.candidates import Candidates
from sudokulab.teaching import lessons

DATA = Path(__file__).parent / "data" / "positions"
FILES = ("library_line.txt", "sudopedia_pm_grid.txt", "forum_pencilmarks.txt")


def text(name: str) -> str:
    return (DATA / name).read_text()


def position(name: str) -> P.Position:
    found = P.read_position(text(name))
    assert found is not None
    return found


def solution(p) -> tuple[int, ...]:
    """The board's one solution, by dlx (exact cover: not the norvig verdict's paradigm)."""
    result = make_backend("dlx").solve(p.puzzle().with_values(p.givens), limit=2)
    assert result.status.value == "unique"
    return result.solutions[0]


def grid_text(p: P.Position) -> str:
    """The position as sudokulab prints a candidate grid (a filled cell: its digit)."""
    return format_candidates(p, [[d] if d else c for d, c in zip(p.givens, p.candidates())])


def hodoku_frame(p: P.Position) -> str:
    """The position in HoDoKu's framed pencil-mark grid (`.---.`, `:---+---:`, `'---'`)."""
    cells = ["".join(map(str, [d] if d else c)) for d, c in zip(p.givens, p.candidates())]
    rule = lambda a, b: a + b.join(["-" * 22] * 3) + a  # noqa: E731
    lines = [rule(".", ".")]
    for r in range(9):
        if r in (3, 6):
            lines.append(rule(":", "+"))
        row = cells[r * 9:r * 9 + 9]
        lines.append("| " + " | ".join(" ".join(c.ljust(6) for c in row[k:k + 3])
                                       for k in (0, 3, 6)) + " |")
    lines.append(rule("'", "'"))
    return "\n".join(lines)


@pytest.mark.parametrize("name", FILES)
def test_every_form_of_a_position_reads_as_the_same_candidates(name):
    p = position(name)
    json_form = json.dumps({"puzzle": "".join(map(str, p.puzzle().givens)),
                            "values": [d if c in p.placed else 0 for c, d in
                                       enumerate(p.givens)],
                            "candidates": p.candidates()})
    forms = [p.library_line(), p.sukaku(), json_form]
    if name != "forum_pencilmarks.txt":  # its {3} in r3c5 is no digit placed: braces only
        forms += [grid_text(p), hodoku_frame(p)]
    for form in forms:
        other = P.read_position(form)
        assert other is not None, form
        assert other.givens == p.givens and other.marks == p.marks, form
    assert P.read_position(p.library_line()).placed == p.placed


def test_the_library_line_honours_givens_placed_digits_and_deleted_candidates():
    line = text("library_line.txt").strip()
    p = P.read_position(line)
    grid = line.split(":")[3]
    assert len(p.placed) == grid.count("+") == 20
    assert sum(1 for d in p.puzzle().givens if d) == 30  # the givens, without the placed
    deleted = line.split(":")[4].split()
    assert len(deleted) == 10 and P.drc_text(p.deleted()).split() == deleted
    for token in deleted:  # digit, row, column: each one gone from its cell
        d, r, c = map(int, token)
        assert not p.marks[(r - 1) * 9 + c - 1] >> (d - 1) & 1
    # the rest are every candidate the digits placed allow
    full = Candidates(p.puzzle().with_values(p.givens)).cands
    assert sum(bin(m).count("1") for m in full) - sum(bin(m).count("1") for m in p.marks) == 10


def test_the_techniques_start_from_the_positions_candidates():
    p = position("library_line.txt")
    assert Candidates(p).cands == list(p.marks)
    assert Candidates(p.puzzle()).cands != list(p.marks)  # the puzzle alone: its givens'


def test_a_plain_puzzle_is_no_position():
    assert P.read_position("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2."
                           "....1.4......") is None
    rows = ["53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1", "7...2...6",
            ".6....28.", "...419..5", "....8..79"]
    assert P.read_position("\n".join(rows)) is None
    assert P.read_position("\n".join(" ".join(row) for row in rows)) is None


@pytest.mark.parametrize("edit, cell", [
    # r1c1 lists 7 though r1c2 holds 7
    (lambda t: t.replace("| 19    7 ", "| 179   7 ", 1), "r1c1: candidate 7 contradicts"),
    # r1c1 has nothing left
    (lambda t: t.replace("| 19    7 ", "| .     7 ", 1), "r1c1 has no candidate left"),
])
def test_a_position_that_contradicts_itself_is_refused_naming_the_cell(edit, cell):
    bad = edit(text("sudopedia_pm_grid.txt"))
    assert bad != text("sudopedia_pm_grid.txt")
    with pytest.raises(PuzzleError, match=cell):
        P.read_position(bad)
    code, out, err = run("hint", bad)
    assert code == Exit.INPUT and out == ""
    assert err.count("\n") == 1 and cell in err and "Traceback" not in err


@pytest.mark.parametrize("where, value", [("candidates", [True, 5, 7, 9]),
                                          ("candidates", [3, 9, True]), ("values", False)])
def test_a_json_position_takes_no_true_or_false_for_a_digit(where, value):
    """Python reads JSON's true as the int 1: [true, 5, 7, 9] was taken as 1, 5, 7, 9."""
    p = position("sudopedia_pm_grid.txt")
    data = p.json_form()
    blank = p.givens.index(0)
    data[where][blank] = value
    with pytest.raises(PuzzleError, match=r"not (a )?digit"):
        P.from_json(data)


def test_show_after_an_engine_that_ignores_pencil_marks_says_so():
    """`show POSITION --after norvig` drew norvig's marks from the digits alone, showing
    candidates the position had deleted, with no word of it: refused, naming the levels
    that start from the marks."""
    line = text("library_line.txt").strip()
    code, out, err = run("show", line, "--after", "norvig")
    assert code == Exit.INPUT and out == "" and "not from its pencil marks" in err
    assert run("show", line, "--after", "human:locked")[0] == Exit.OK


def test_a_naked_single_names_a_candidate_the_position_deleted():
    """Before: "3 was eliminated by an earlier step", where no step had been taken."""
    p = position("sudopedia_pm_grid.txt")
    data = p.json_form()
    cell, keep = next((c, marks) for c, marks in enumerate(data["candidates"])
                      if len(marks) == 2 and solution(p)[c] in marks)
    data["candidates"][cell] = [solution(p)[cell]]
    code, out, _ = run("hint", json.dumps(data), "--techniques", "naked single")
    assert code == Exit.OK and out.startswith(f"Naked Single: r{cell // 9 + 1}c{cell % 9 + 1}")
    gone = next(d for d in keep if d != solution(p)[cell])
    assert f"{gone} was deleted in the position given" in out and "earlier step" not in out


def test_a_pencil_mark_string_with_a_bad_character_names_it():
    """Before: "wrong length: 729 cells", as if it were a puzzle of the wrong size."""
    string = position("sudopedia_pm_grid.txt").sukaku()
    bad = string[:11] + "x" + string[12:]
    code, out, err = run("hint", bad)
    assert code == Exit.INPUT and "r1c2 has 'x' at place 3 of its group" in err


def test_a_library_line_that_deletes_every_candidate_of_a_cell_is_refused():
    line = text("library_line.txt").strip()
    p = P.read_position(line)
    cell = next(c for c, m in enumerate(p.marks) if m)
    every = " ".join(f"{d}{cell // 9 + 1}{cell % 9 + 1}" for d in range(1, 10)
                     if p.marks[cell] >> (d - 1) & 1)
    fields = line.split(":")
    fields[4] = f"{fields[4]} {every}"
    code, _, err = run("hint", ":".join(fields))
    assert code == Exit.INPUT and f"r{cell // 9 + 1}c{cell % 9 + 1} has no candidate" in err


def test_a_position_whose_candidates_lose_the_solution_is_refused():
    line = text("library_line.txt").strip()
    p = P.read_position(line)
    sol = solution(p)
    cell = next(c for c, m in enumerate(p.marks) if m)
    fields = line.split(":")
    fields[4] = f"{fields[4]} {sol[cell]}{cell // 9 + 1}{cell % 9 + 1}"
    code, out, err = run("hint", ":".join(fields))
    assert code == Exit.NONE and out == ""
    assert f"the candidates of r{cell // 9 + 1}c{cell % 9 + 1} leave out" in err


def test_a_step_found_only_because_of_a_deletion_is_found():
    line = text("library_line.txt").strip()
    fields = line.split(":")
    fields[4] = ""
    undeleted = P.read_position(":".join(fields))
    with_deleted = lessons.every_step(position("library_line.txt"), solver.TECHNIQUES[:30],
                                      True, lambda: False)
    without = lessons.every_step(undeleted, solver.TECHNIQUES[:30], True, lambda: False)
    notations = lambda found: {s.notation for _, steps in found for s in steps}  # noqa: E731
    only = notations(with_deleted) - notations(without)
    assert only  # e.g. the 2-String Kite on 9 that needs 9 gone from r3c1 and r2c1
    code, out, _ = run("hint", line)
    assert code == Exit.OK and out.splitlines()[0] in only


def test_a_step_whose_elimination_was_deleted_is_not_reported():
    line = text("library_line.txt").strip()
    p = P.read_position(line)
    found = lessons.every_step(p, solver.TECHNIQUES[:30], True, lambda: False)
    step = next(s for _, steps in found for s in steps if s.eliminations and not s.placements)
    fields = line.split(":")
    fields[4] = f"{fields[4]} {P.drc_text(step.eliminations)}"
    code, out, _ = run("hint", ":".join(fields), "--all", "--format", "json")
    assert code == Exit.OK
    steps = [json.loads(x) for x in out.splitlines()]
    gone = {(c // 9 + 1, c % 9 + 1, d) for c, d in step.eliminations}
    assert step.notation not in {s["text"] for s in steps}
    assert not any(tuple(e) in gone for s in steps for e in s["eliminations"])


@pytest.mark.parametrize("name", FILES)
def test_no_step_of_a_position_removes_a_solutions_digit(name):
    p = position(name)
    sol = solution(p)
    code, out, _ = run("hint", text(name), "--all", "--upto", "grouped aic", "--format", "json")
    assert code == Exit.OK
    steps = [json.loads(x) for x in out.splitlines()]
    assert steps
    for s in steps:
        for r, c, d in s["eliminations"]:
            assert sol[(r - 1) * 9 + c - 1] != d, s["text"]
        for r, c, d in s["placements"]:
            assert sol[(r - 1) * 9 + c - 1] == d, s["text"]


def test_explain_and_grade_walk_on_from_the_position():
    line = text("library_line.txt").strip()
    code, out, _ = run("hint", line, "--format", "json")
    first = json.loads(out)
    code, out, _ = run("explain", line, "--format", "json", "--verify")
    walked = json.loads(out)
    assert code == Exit.OK and walked["solved"] and walked["verified"]
    assert walked["steps"][0] == first  # the hint on the position, not on its givens
    placed = 81 - sum(1 for d in P.read_position(line).givens if d)
    assert sum(len(s["placements"]) for s in walked["steps"]) == placed
    code, out, _ = run("grade", line, "--format", "json")
    assert code == Exit.OK and json.loads(out)["solved"]


def test_show_prints_the_positions_candidates_and_library_line():
    line = text("library_line.txt").strip()
    code, out, _ = run("show", line, "--format", "hodoku")
    assert code == Exit.OK and out.strip() == line.rstrip(":") + "::"
    code, grid, _ = run("show", line, "--format", "candidates")
    assert P.read_position(grid).marks == P.read_position(line).marks
    code, out, _ = run("show", "-", "--format", "hodoku", stdin=text("forum_pencilmarks.txt"))
    assert code == Exit.OK and P.read_position(out).marks == position("forum_pencilmarks.txt").marks


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("command", ["hint", "explain", "grade", "show"])
def test_a_position_reads_alike_from_a_file_standard_input_and_gzip(name, command, tmp_path):
    """Before, `--file -` and `--file X.gz` read a library line as its givens alone (the
    placed digits and deleted candidates dropped, a different hint, exit 0), and refused
    the other forms."""
    import gzip

    plain = tmp_path / name
    plain.write_text(text(name))
    packed = tmp_path / f"{name}.gz"
    packed.write_bytes(gzip.compress(text(name).encode()))
    answer = run(command, "--file", str(plain))
    assert answer[0] == Exit.OK, answer
    assert run(command, "--file", "-", stdin=text(name))[:2] == answer[:2]
    assert run(command, "--file", str(packed))[:2] == answer[:2]


@pytest.mark.parametrize("given", [
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "1.....3.....5.6.....2...............",  # a 6x6
    *(f"--file={DATA / name}" for name in FILES)])
def test_what_show_writes_as_candidates_reads_back_as_the_same_position(given, tmp_path):
    """A blank cell with one candidate is written {4}: before, a bare 4 read back as a digit
    placed, and hint refused the grid ("candidate 4 contradicts the digits placed")."""
    code, grid, err = run("show", given, "--format", "candidates")
    assert code == Exit.OK, err
    path = tmp_path / "grid.txt"
    path.write_text(grid)
    assert run("show", "--file", str(path), "--format", "candidates")[:2] == (Exit.OK, grid)
    assert run("hint", "--file", str(path))[:2] == run("hint", given)[:2]


def test_a_file_of_library_lines_reads_a_position_a_line(tmp_path):
    line = text("library_line.txt").strip()
    bad = line.replace(":314 ", ":3x4 ", 1)
    path = tmp_path / "positions.txt"
    path.write_text(f"{line}\n{bad}\n")
    code, out, err = run("hint", "--file", str(path))
    assert code == Exit.INPUT  # the second line is bad, the first is hinted
    assert out.splitlines()[0] == run("hint", line)[1].splitlines()[0]
    assert f"{path}:2" in err and "'3x4'" in err


def test_the_page_opens_a_pasted_position_and_hints_on_it(page, server):
    from conftest import post
    from test_web_browser import marks_text, paste

    for name in ("library_line.txt", "sudopedia_pm_grid.txt"):
        p = position(name)
        expected = run("hint", text(name), "--format", "json")[1]
        paste(page, text(name))
        shown = marks_text(page)
        blanks = [c for c, d in enumerate(p.givens) if not d]
        assert ["".join(map(str, p.candidates()[c])) for c in blanks] == \
            [shown[c].replace(" ", "") for c in blanks]
        page.click("#hint")
        page.wait_for_selector("#learn[data-status='step']")
        assert page.text_content("#learn-notation") == json.loads(expected)["text"]
        # the explanation walks on from the same marks (it was refused: "only /api/hint
        # starts from the player's pencil marks")
        page.click("#explain")
        page.wait_for_selector("#learn[data-status='solved']")
    answer = post(server, "/api/position", {"puzzle": text("forum_pencilmarks.txt")})
    assert answer["position"] and len(answer["candidates"]) == 81


def test_the_page_draws_a_technique_used_only_when_named(page, server):
    from test_web_browser import highlighted, paste

    lines = (Path(__file__).parent / "data" / "techniques" / "wings.txt").read_text()
    line = next(x for x in lines.splitlines() if x.startswith(":WXYZ-Wing:2:"))
    code, out, _ = run("hint", line, "--techniques", "WXYZ-Wing", "--format", "json")
    step = json.loads(out)
    assert code == Exit.OK and step["technique"] == "WXYZ-Wing"
    paste(page, line)
    page.select_option("#upto", "Hidden Single")
    page.select_option("#only", "WXYZ-Wing")
    assert page.input_value("#upto") == ""   # one or the other
    page.click("#hint")
    page.wait_for_selector("#learn[data-status='step']")
    assert page.text_content("#learn-notation") == step["text"]
    assert highlighted(page)["elim"] == {((r - 1) * 9 + c - 1, d)
                                         for r, c, d in step["eliminations"]}


@pytest.mark.parametrize("name", ["forum_pencilmarks.txt", "sudopedia_pm_grid.txt"])
def test_a_position_file_with_a_utf8_bom_reads_as_without(name, tmp_path):
    text = (DATA / name).read_text(encoding="utf-8")
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text(text, encoding="utf-8")
    marked.write_text("\ufeff" + text, encoding="utf-8")  # as some editors save UTF-8
    without, with_bom = run("hint", "--file", str(plain)), run("hint", "--file", str(marked))
    assert with_bom == without and without[0] == Exit.OK  # it was 'bad JSON', 'wrong length'


@pytest.mark.parametrize("command", [["solve"], ["model"], ["setter"],
                                     ["export", "--to", "dimacs"]])
def test_a_command_that_reads_puzzles_refuses_a_position_file_in_one_line(command):
    code, out, err = run(*command, "--file", str(DATA / "sudopedia_pm_grid.txt"))
    assert code == Exit.INPUT and out == ""
    assert err.count("\n") == 1 and "holds a pencil-mark position" in err  # 13 lines before
