"""The setter's bench (sudokulab.generate.setter, `sudokulab setter`, sl.setter, POST /api/setter):
its count, true candidates and redundant givens and rules against engines of other
paradigms (dlx's exact cover enumerating every solution, CP-SAT), on small puzzles with
rules and on public ones."""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import sudokulab as sl
from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.errors import Exit
from sudokulab.formats.text import parse
from sudokulab.generate.grids import random_cages
from sudokulab.generate.setter import SetterReport, setter_report
from sudokulab.puzzle import Puzzle, line_of
from sudokulab.result import Status

KILLERS = (Path(__file__).parent / "data" / "killers.jsonl").read_text().splitlines()
GRID4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
TWO = "12.............."  # a 4x4 with several solutions


def every_solution(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every solution, by dlx's exact cover (another paradigm than the setter's SAT)."""
    result = make_backend("dlx").solve(puzzle, limit=None)
    return list(result.solutions)


def solutions_without(puzzle: Puzzle, *, given: int | None = None,
                      rule: int | None = None, engine: str = "dlx") -> int:
    """How many solutions (0, 1, 2 for more) once a given or a rule is taken away."""
    givens = list(puzzle.givens)
    rules = puzzle.rules
    if given is not None:
        givens[given] = 0
    if rule is not None:
        rules = rules[:rule] + rules[rule + 1:]
    result = make_backend(engine).solve(Puzzle(puzzle.box, tuple(givens), rules), limit=2)
    return len(result.solutions)


def assert_matches_brute_force(puzzle: Puzzle, report: SetterReport) -> None:
    """The report's count, solutions, candidates and redundancy, as dlx finds them."""
    every = every_solution(puzzle)
    assert report.complete
    assert report.status == ("none", "unique", "several")[min(len(every), 2)]
    for grid in report.solutions:
        assert grid in every and not check(puzzle, grid)
    if report.status == "several":
        first, second = report.solutions
        assert first != second
        assert report.differ == [c for c in range(len(first)) if first[c] != second[c]]
    truth = [sorted({grid[c] for grid in every}) for c in range(len(puzzle.givens))]
    assert report.candidates == truth
    if report.status != "unique":
        assert report.redundant_givens is None and report.redundant_rules is None
        return
    assert report.redundant_givens == [c for c, d in enumerate(puzzle.givens)
                                       if d and solutions_without(puzzle, given=c) == 1]
    assert report.redundant_rules == [k for k in range(len(puzzle.rules))
                                      if solutions_without(puzzle, rule=k) == 1]


def puzzles_4x4(seed: int) -> list[Puzzle]:
    """4x4 puzzles: random givens of one grid, under no rule, a diagonal, cages, parity."""
    rng = random.Random(seed)
    n = 4
    out = []
    for rules in ((), (R.Diagonal(),), random_cages(GRID4, n, rng),
                  (R.Parity(((0, 0), (1, 2), (3, 3)), False),
                   R.Cage(((2, 0), (2, 1)), 3))):
        for keep in (0, 2, 4, 6):
            givens = [0] * 16
            for c in rng.sample(range(16), keep):
                givens[c] = GRID4[c]
            out.append(Puzzle((2, 2), tuple(givens), tuple(rules)))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_4x4_against_dlx(seed):
    for puzzle in puzzles_4x4(seed):
        assert_matches_brute_force(puzzle, setter_report(puzzle, grade=False))


def six_by_six(seed: int) -> Puzzle:
    """A 6x6 with cages and an anti-king rule, true to one grid, and enough givens that dlx
    lists every solution at once."""
    rng = random.Random(seed)
    grid = make_backend("dlx").solve(Puzzle((2, 3), (0,) * 36, (R.AntiKing(),)),
                                     limit=1).solutions[0]
    cages = random_cages(grid, 6, rng)[:6]
    givens = [0] * 36
    for c in rng.sample(range(36), 10):
        givens[c] = grid[c]
    return Puzzle((2, 3), tuple(givens), (R.AntiKing(), *cages))


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_6x6_with_rules_against_dlx(seed):
    puzzle = six_by_six(seed)
    assert_matches_brute_force(puzzle, setter_report(puzzle, grade=False))


def test_a_unique_6x6_names_its_redundant_givens_and_rules():
    """Givens added until the puzzle is unique: some givens and some rules can go."""
    rng = random.Random(11)
    puzzle = six_by_six(11)
    grid = every_solution(puzzle)[0]
    givens = list(puzzle.givens)
    for c in rng.sample(range(36), 36):
        givens[c] = grid[c]
        if len(every_solution(Puzzle((2, 3), tuple(givens), puzzle.rules))) == 1:
            break
    unique = Puzzle((2, 3), tuple(givens), puzzle.rules)
    report = setter_report(unique, grade=False)
    assert report.status == "unique"
    assert_matches_brute_force(unique, report)
    assert report.redundant_rules  # an anti-king and six cages on a unique grid: some go


def test_top95_against_dlx():
    """Public puzzles: unique, the true candidates are the solution's digits, and each
    given the puzzle keeps is one without which dlx finds a second solution."""
    for puzzle, solution in list(zip(sl.load("top95"), sl.datasets.solutions("top95")))[:3]:
        report = setter_report(puzzle, grade=False)
        assert report.status == "unique" and report.solutions == [tuple(solution)]
        assert report.candidates == [[d] for d in solution]
        assert report.redundant_givens == [c for c, d in enumerate(puzzle.givens)
                                           if d and solutions_without(puzzle, given=c) == 1]
        assert report.redundant_rules == []


def test_killer_against_cpsat():
    """A public killer (no givens): unique; each cage redundant exactly when CP-SAT finds
    no second solution without it."""
    puzzle = parse(KILLERS[0])
    report = setter_report(puzzle, grade=False)
    solution = report.solutions[0]
    assert report.status == "unique" and not check(puzzle, solution)
    assert report.candidates == [[d] for d in solution]
    for k in range(0, len(puzzle.rules), 4):
        alone = solutions_without(puzzle, rule=k, engine="cpsat") == 1
        assert (k in report.redundant_rules) == alone


VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_rule_apart_against_cpsat(name):
    """Each rule's clauses apart behind a selector (cnf.rule_clauses) say what the whole
    formula says: the variants' puzzles are unique with CP-SAT's solution, and a rule is
    redundant exactly when CP-SAT finds no second solution without it (the first three)."""
    puzzle = parse(json.dumps(VARIANTS[name]))
    report = setter_report(puzzle, grade=False)
    found = make_backend("cpsat").solve(puzzle, limit=2)
    assert report.status == "unique" and [tuple(found.solutions[0])] == report.solutions
    for k, rule in list(enumerate(puzzle.rules))[:3]:
        if rule.replaces_boxes:
            assert k in report.fixed_rules and k not in report.redundant_rules
            continue
        alone = solutions_without(puzzle, rule=k, engine="cpsat") == 1
        assert (k in report.redundant_rules) == alone, (name, k)


def test_killer_cages_one_by_one_on_one_session():
    """A killer set cage by cage: each update, on the warm session, says what a fresh
    enumeration says about the count, and the candidates only ever narrow."""
    puzzle = parse(KILLERS[1])
    before = None
    for k in range(18, len(puzzle.rules) + 1):
        partial = Puzzle(puzzle.box, puzzle.givens, puzzle.rules[:k])
        report = setter_report(partial, grade=False, redundancy=False)
        found = make_backend("cpsat").solve(partial, limit=2)
        assert report.count == min(len(found.solutions), 2)
        if before is not None:
            assert all(set(now) <= set(then) for now, then in
                       zip(report.candidates, before))
        before = report.candidates


def test_two_solutions_are_shown_and_differ():
    report = sl.setter(TWO, grade=False)
    first, second = report.solutions
    puzzle = parse(TWO)
    assert report.status == "several" and report.count == 2 and first != second
    assert not check(puzzle, first) and not check(puzzle, second)
    assert report.differ and all(first[c] != second[c] for c in report.differ)
    answer = report.to_json()
    assert answer["at_least"] and answer["differ"] == [[c // 4 + 1, c % 4 + 1]
                                                       for c in report.differ]


def test_no_solution_and_clashing_givens():
    report = sl.setter("11..............")
    assert report.status == "none" and report.count == 0 and report.solutions == []
    assert report.grade is None and report.redundant_givens is None
    assert report.message == "givens repeat: 1 at r1c1 and r1c2 (row 1)"


def test_grade_once_unique():
    puzzle = sl.load("easy50")[0]
    report = sl.setter(puzzle)
    assert report.status == "unique" and report.grade_status == "ok"
    assert report.grade["level"] in ("Easy", "Medium", "Hard", "Unfair", "Extreme")
    graded = sl.setter(sl.load("top95")[0], grade_timeout=1e-9)
    assert graded.grade is None and graded.grade_status == "timeout"


def test_a_samurai_is_refused_a_grade_as_a_rule_the_techniques_lack_is():
    """The techniques take one N x N grid: no grade they never reached, but the reason."""
    samurai = (Path(__file__).parent / "data" / "samurai.txt").read_text()
    report = sl.setter(samurai, redundancy=False)
    assert report.status == "unique"
    assert report.grade is None and report.grade_status == "refused"
    assert "one N x N grid, not a samurai" in report.grade_message


def test_a_samurai_s_redundant_givens_are_named_where_they_stand():
    """Before, places were divmod(cell, 21), as if a samurai were a 21x21 grid (and the
    command refused a samurai with exit 2)."""
    from dataclasses import replace

    from sudokulab.backends import make_backend

    samurai = (Path(__file__).parent / "data" / "samurai.txt").read_text()
    puzzle = sl.parse(samurai)
    report = sl.setter(samurai, candidates=False, grade=False)
    named = [tuple(place) for place in report.to_json()["redundant_givens"]]
    index = {(r + 1, c + 1): k for k, (r, c) in enumerate(puzzle.layout.positions)}
    assert named and all(puzzle.givens[index[place]] for place in named)
    for place in named[:3]:  # each alone can go: the puzzle keeps one solution
        givens = list(puzzle.givens)
        givens[index[place]] = 0
        answer = make_backend("norvig").solve(replace(puzzle, givens=tuple(givens)), limit=2)
        assert answer.status is Status.UNIQUE, place


def test_api_door():
    with pytest.raises(TypeError, match="sl.setter"):
        sl.setter(42)
    with pytest.raises(ValueError, match="timeout"):
        sl.setter(TWO, timeout=-1)


# --- the command ----------------------------------------------------------------------

@pytest.mark.parametrize("puzzle,code,words", [
    (line_of(sl.load("easy50")[0].givens), Exit.OK, "unique (1 solution)"),
    ("11..............", Exit.NONE, "no solution"),
    (TWO, Exit.SEVERAL, "at least 2 solutions"),
])
def test_cli_exit_codes(capsys, puzzle, code, words):
    assert main(["setter", puzzle]) == code
    out = capsys.readouterr().out
    assert words in out
    if code == Exit.SEVERAL:
        assert "differ in" in out and "true candidates" in out
    if code == Exit.OK:
        assert "redundant givens" in out and "grade:" in out


def test_cli_json(capsys):
    assert main(["setter", TWO, "--format", "json", "--no-grade"]) == Exit.SEVERAL
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "several" and answer["count"] == 2
    assert len(answer["solutions"]) == 2 and len(answer["candidates"]) == 16
    assert answer["redundant_givens"] is None and answer["grade"] is None


def test_cli_cages_from_options(capsys):
    """Rules come as every command takes them: a cage by option."""
    code = main(["setter", TWO, "--cage", "r2c1,r2c2=7", "--format", "json"])
    answer = json.loads(capsys.readouterr().out)
    assert code in (Exit.OK, Exit.SEVERAL)
    assert all(set(answer["candidates"][c]) <= {3, 4} for c in (4, 5))


def test_cli_bad_input_is_one_line(capsys):
    assert main(["setter", "12.3"]) == Exit.INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sudokulab: error:")


def test_cli_help_lists_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["setter", "--help"])
    out = capsys.readouterr().out
    assert "sudokulab setter" in out and "6" in out and "130" in out


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_cli_interrupted(sig, code):
    """Ctrl-C (or SIGTERM) while the bench proves an empty 25x25's candidates (minutes of
    work): one line, exit 130 (143)."""
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", "setter", "." * 625],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)  # imports, the 25x25's formula, the count: then the candidates' calls
    process.send_signal(sig)
    out, err = process.communicate()
    assert process.returncode == code, (out, err)
    assert err.strip().count("\n") == 0 and ("interrupted" in err or "terminated" in err)


# --- the route ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    from sudokulab.web.app import create_app

    with TestClient(create_app()) as test_client:
        yield test_client


def test_route_two_solutions(client):
    answer = client.post("/api/setter", json={"puzzle": TWO, "tag": "set-1"}).json()
    assert answer["status"] == "several" and answer["tag"] == "set-1"
    assert len(answer["solutions"]) == 2 and answer["differ"]
    assert answer["puzzle"]["size"] == 4 and len(answer["candidates"]) == 16


def test_route_killer(client):
    answer = client.post("/api/setter", json={"puzzle": KILLERS[0]}).json()
    assert answer["status"] == "unique" and answer["complete"]
    direct = setter_report(parse(KILLERS[0]), grade=False)
    assert [r["index"] for r in answer["redundant_rules"]] == direct.redundant_rules
    assert [r["number"] for r in answer["redundant_rules"]] == \
        [k + 1 for k in direct.redundant_rules]  # as the text's #N (held-out pass 8)
    assert answer["solutions"] == [list(direct.solutions[0])]
    assert answer["grade_status"] in ("ok", "timeout")


def test_route_bad_input(client):
    response = client.post("/api/setter", json={"puzzle": "12.3"})
    assert response.status_code == 400 and "\n" not in response.json()["error"]
    response = client.post("/api/setter", json={"puzzle": TWO, "timeout": -1})
    assert response.status_code == 422


# --- the page's setting mode (Playwright, Debian's Chromium) ----------------------------

def wait_for_answer(page) -> dict:
    """The setter's answer the page shows once it has settled: status and what it drew."""
    page.wait_for_function("document.body.dataset.setter === 'done'", timeout=60_000)
    return page.evaluate("""() => ({
        status: document.getElementById('setter').dataset.status,
        count: document.getElementById('setter-count').textContent,
        redundant: document.getElementById('setter-redundant').textContent,
        grade: document.getElementById('setter-grade').textContent,
        differ: document.querySelectorAll('#setter-overlay .sd').length,
        marks: document.querySelectorAll('#setter-overlay .sc, #setter-overlay .sc1').length,
        outlined: document.querySelectorAll('#setter-overlay .rg').length})""")


def changed(page, action) -> dict:
    """Do something that changes the puzzle; the answer the page settles on after it."""
    page.evaluate("document.body.dataset.setter = 'waiting'")
    action()
    return wait_for_answer(page)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_setting_mode_in_the_browser(contexts, server, screen):
    """A killer set on the page: three cages short it has several solutions (their
    differences and every cell's true candidates drawn), a cage added makes it unique (the
    grade shown), and a given typed on top is outlined as redundant."""
    import os

    from conftest import DESKTOP, PHONE, open_page

    pages = open_page(contexts(DESKTOP if screen == "desktop" else PHONE), server)
    page = next(pages)
    data = json.loads(KILLERS[0])
    missing = data["rules"][-3]
    short = {**data, "rules": data["rules"][:-3]}
    page.fill("#paste", json.dumps(short))
    page.click("#load-paste")
    page.wait_for_function("document.querySelectorAll('#grid .cell').length === 81")
    page.check("#setter-on")
    several = wait_for_answer(page)
    assert several["status"] == "several" and "at least 2" in several["count"]
    direct = setter_report(parse(json.dumps(short)), grade=False)
    shown = int(re.search(r"differ in (\d+) cells", several["count"]).group(1))
    assert several["differ"] == shown > 0  # which two solutions: the solver's choice
    assert several["marks"] == sum(len(c) for c, g in zip(direct.candidates,
                                                          direct.solutions[0]) if c)
    if screen == "desktop" and os.environ.get("SUDOKULAB_WRITE_DOCS") == "1":
        page.screenshot(path=str(Path(__file__).parent.parent / "docs" / "setter.png"))
    page.screenshot(path=f"/tmp/setter-{screen}-several.png")

    def add_cage() -> None:
        for k, name in enumerate(missing["cells"]):
            row, col = int(name[1]) - 1, int(name[3]) - 1
            page.click(f"#grid .cell[data-index='{row * 9 + col}']", force=True,
                       modifiers=["Control"] if k else [])
        page.fill("#setter-total", str(missing["total"]))
        page.click("#setter-add-cage")

    unique = changed(page, add_cage)
    assert unique["status"] == "unique" and unique["differ"] == 0
    page.wait_for_function("document.getElementById('setter-grade').textContent.startsWith("
                           "'grade: ')", timeout=60_000)
    assert "redundant givens: none" in unique["redundant"]
    solution = setter_report(parse(json.dumps({**data, "rules": data["rules"][:-2]})),
                             grade=False).solutions[0]
    cell = 40  # any blank cell: the puzzle is unique now

    def type_given() -> None:
        page.click(f"#grid .cell[data-index='{cell}']", force=True)
        page.keyboard.press(str(solution[cell]))

    given = changed(page, type_given)
    assert given["status"] == "unique" and given["outlined"] == 1
    assert f"r{cell // 9 + 1}c{cell % 9 + 1}" in given["redundant"]
    page.screenshot(path=f"/tmp/setter-{screen}-unique.png")
    next(pages, None)


def test_route_cancelled_by_tag(client):
    """An update cancelled by its tag (the page's next change) ends its helper process."""
    from test_web_api import asking, until

    body = {"puzzle": "." * 625, "timeout": 60, "tag": "set:slow"}  # minutes of proofs
    thread, answer = asking(client, "/api/setter", body)
    until(lambda: "set:slow" in client.app.state.jobs.by_tag or not thread.is_alive())
    assert client.post("/api/cancel", json={"tag": "set:slow"}).json()["cancelled"] == 1
    thread.join()
    assert answer["status"] == "cancelled" and answer["tag"] == "set:slow"
    assert client.app.state.tutor.busy == 0


@pytest.mark.parametrize("stopped", ["", "interrupted (Ctrl-C)"])
def test_redundancy_cut_short_is_said_unproven_in_the_text(stopped):
    """A unique puzzle whose redundancy checks ran out of time says so in the pretty form,
    as the JSON does ("complete": false), not by leaving the lines out."""
    from sudokulab.commands.setter import pretty
    from sudokulab.formats.text import from_json

    killer = from_json((Path(__file__).parent / "data" / "killers-forum.jsonl")
                       .read_text().splitlines()[0])
    half = SetterReport(n=9, status="unique", complete=False, stopped=stopped,
                        rules=killer.rules)
    text = pretty(1, killer, half)
    reason = stopped or "time ran out"
    assert f"redundant rules: not proven: {reason}" in text
    assert "redundant givens" not in text  # it has none to drop
    assert "redundant rules" not in pretty(1, killer, half, redundancy=False)  # not asked
    done = SetterReport(n=9, status="unique", redundant_rules=[], rules=killer.rules)
    assert "redundant rules: none" in pretty(1, killer, done)


def test_the_pretty_report_writes_digits_past_9_as_the_grid_does():
    """r2c1=G/C beside a grid of letters (it wrote 16/12), and cells left unproven by a
    signal say the signal, not that time ran out."""
    from dataclasses import replace

    from sudokulab.commands.setter import pretty
    from sudokulab.puzzle import symbol

    puzzle = parse("123456789ABCDEFG" + "." * 240)
    report = setter_report(puzzle, candidates=False, redundancy=False, grade=False)
    text = pretty(1, puzzle, report)
    pairs = [(k, symbol(report.solutions[0][k]), symbol(report.solutions[1][k]))
             for k in report.differ]
    assert any(a > 9 or b > 9 for k in report.differ
               for a, b in [(report.solutions[0][k], report.solutions[1][k])])
    for k, a, b in pairs:
        r, c = report.place(k)
        assert f"r{r}c{c}={a}/{b}" in text
    stopped = replace(report, candidates=[[1]] * len(puzzle.givens), undecided=[0, 1],
                      stopped="interrupted (SIGTERM)")
    assert "(2 cells unproven: interrupted (SIGTERM))" in pretty(1, puzzle, stopped)
