"""The prolog backend: Norvig's answers, counts, verdicts, limits, variants, failures.

These tests run for real: without SWI-Prolog and janus they fail, saying why, unless
SUDOKULAB_SKIP_PROLOG=1 asks to skip them. sudoku.pl is also run in plain `swipl`,
with the very commands its header documents.
"""

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from sudokulab import datasets
from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.backends import prolog as P
from sudokulab.backends import swipl as S
from sudokulab.backends.norvig import NorvigBackend
from sudokulab.check import check
from sudokulab.errors import BackendError
from sudokulab.formats.text import format_line, from_json, parse
from sudokulab.geometry import geometry
from sudokulab.puzzle import empty
from sudokulab.result import Status

if os.environ.get("SUDOKULAB_SKIP_PROLOG") == "1":
    pytest.skip("SUDOKULAB_SKIP_PROLOG=1: the Prolog tests are skipped on request",
                allow_module_level=True)

ROOT = S.PROGRAM.parents[3]
norvig = NorvigBackend()
prolog = P.PrologBackend()


@pytest.fixture(scope="module", autouse=True)
def prolog_is_available():
    """Fail (never skip) every test here when the backend cannot run."""
    ready = P.PrologBackend.available()
    if not ready.ok:
        pytest.fail(f"the prolog backend is not available: {ready.reason}\nfix: {ready.fix}\n"
                    "(set SUDOKULAB_SKIP_PROLOG=1 to skip the Prolog tests)")


def same_as_norvig(puzzle, backend=prolog, limit=None):
    """Assert the backend's answer is norvig's (status, count, solutions), every grid valid."""
    ours, theirs = backend.solve(puzzle, limit=limit), norvig.solve(puzzle, limit=limit)
    assert (ours.status, ours.count, ours.exact) == (theirs.status, theirs.count, theirs.exact)
    assert set(ours.solutions) == set(theirs.solutions)
    assert all(check(puzzle, grid) == [] for grid in ours.solutions)
    return ours


def thinned(rules, n, keep):
    """A puzzle under `rules`: one of its full grids (found by norvig), every keep-th cell given."""
    full = norvig.solve(empty(n, rules), limit=1).solutions[0]
    return empty(n, rules).with_values([d if i % keep == 0 else 0 for i, d in enumerate(full)])


# --- the classic rules ------------------------------------------------------------------

@pytest.mark.parametrize("strength", ["hybrid", "all_distinct"])
def test_top95_answers_are_norvigs(top95, strength):
    backend = P.PrologBackend(strength=strength)
    for puzzle, solution in top95:
        result = backend.solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, format_line(puzzle)
        assert result.solutions == (solution,) == norvig.solve(puzzle).solutions
        assert check(puzzle, solution) == []


def test_top95_first_solutions_with_the_weak_strength(top95):
    # all_different alone proves uniqueness too, but takes a minute on top95: the first
    # solution (limit=1) must still be norvig's; uniqueness is shown on easy50 below.
    # Every 4th puzzle (24 of 95) here; bench/bench_samples.py checks all 95, timed.
    backend = P.PrologBackend(strength="all_different")
    for puzzle, solution in top95[::4]:
        result = backend.solve(puzzle, limit=1)
        assert result.status is Status.SOLVED and result.solutions == (solution,)


def test_easy50_is_unique_with_the_weak_strength():
    backend = P.PrologBackend(strength="all_different")
    for puzzle, solution in zip(datasets.load("easy50"), datasets.solutions("easy50")):
        result = backend.solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE and result.solutions == (solution,)


@pytest.mark.parametrize("labeling", P.LABELINGS)
@pytest.mark.parametrize("order", P.ORDERS)
def test_every_labeling_finds_the_same_solutions(top95, labeling, order):
    backend = make_backend(f"prolog:labeling={labeling},order={order}")
    for puzzle, solution in top95[:8]:
        assert backend.solve(puzzle).solutions == (solution,)


@pytest.mark.parametrize("strength", P.STRENGTHS)
def test_the_empty_four_by_four_has_288_solutions(strength):
    result = P.PrologBackend(strength=strength).solve(empty(4), limit=None)
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, 288, True)
    assert len(set(result.solutions)) == 288
    assert all(check(empty(4), grid) == [] for grid in result.solutions)


def test_two_solutions_are_both_reported():
    puzzle = parse(".2.4" ".4.2" "2143" "4321")
    result = prolog.solve(puzzle, limit=5)
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, 2, True)
    assert len(set(result.solutions)) == 2
    assert all(check(puzzle, grid) == [] for grid in result.solutions)
    assert prolog.solve(puzzle, limit=2).count_text == ">= 2"


def test_limit_one_reports_a_solution_without_proving_it_unique(top95):
    puzzle, solution = top95[3]
    result = prolog.solve(puzzle, limit=1)
    assert result.status is Status.SOLVED and result.count_text == ">= 1"
    assert result.solutions == (solution,)


@pytest.mark.parametrize("strength", P.STRENGTHS)
def test_no_solution(strength):
    backend = P.PrologBackend(strength=strength)
    # no given repeats, yet r1c9 can hold nothing: row 1 has 1-8, column 9 has a 9
    result = backend.solve(parse("12345678." + "." * 8 + "9" + "." * 63))
    assert (result.status, result.count, result.exact) == (Status.NONE, 0, True)
    # a top95 puzzle with one wrong given: only search finds the conflict
    wrong = parse("5...14....3....2...7..........9...3.6.1......"
                  ".......8.2.....1.4....5.6.....7.8...")
    assert backend.solve(wrong).status is Status.NONE


@pytest.mark.parametrize("n", [6, 8, 12])
def test_other_sizes_solve(n):
    result = prolog.solve(empty(n), limit=1)
    assert result.status is Status.SOLVED and check(empty(n), result.solutions[0]) == []


def test_statistics_and_times_are_reported(top95):
    result = prolog.solve(top95[0][0])
    assert result.stats["inferences"] > 0 and result.stats["cpu_time"] > 0
    assert result.build_time > 0 and result.solve_time >= result.stats["labeling_time"] >= 0


# --- variants, each compared with norvig --------------------------------------------------

JIGSAW_6 = R.Jigsaw(tuple(tuple((r, c) for r in rows for c in cols)
                          for rows, cols in [((0, 1, 2), (0, 1)), ((0, 1, 2), (2, 3)),
                                             ((0, 1, 2), (4, 5)), ((3, 4, 5), (0, 1)),
                                             ((3, 4, 5), (2, 3)), ((3, 4, 5), (4, 5))]))


@pytest.mark.parametrize("rules, n, keep", [
    ((R.Diagonal(),), 9, 2), ((R.Windoku(),), 9, 2), ((R.AntiKnight(),), 9, 3),
    ((R.AntiKing(),), 9, 2), ((JIGSAW_6,), 6, 3), ((R.NonConsecutive(),), 6, 3),
    ((R.Parity(((0, 0), (1, 1), (2, 2), (3, 3)), even=True),), 6, 3),
    ((R.Diagonal(), R.AntiKnight()), 9, 3),
], ids=["diagonal", "windoku", "anti-knight", "anti-king", "jigsaw", "non-consecutive",
        "parity", "diagonal+anti-knight"])
def test_variants_give_norvigs_solutions(rules, n, keep):
    puzzle = thinned(rules, n, keep)
    assert same_as_norvig(puzzle).count >= 1


def test_jigsaw_regions_replace_the_boxes():
    puzzle = parse("12....\n......\n......\n......\n......\n......").with_rules([JIGSAW_6])
    result = same_as_norvig(puzzle, limit=3)
    assert result.status is Status.MULTIPLE


def test_killer_cages_give_norvigs_solutions():
    solution = norvig.solve(empty(6), limit=1).solutions[0]
    layout = "aabbcc ddeeff gghhii jjkkll mmnnoo ppqqrr".replace(" ", "")
    groups: dict[str, list] = {}
    for index, label in enumerate(layout):
        groups.setdefault(label, []).append(divmod(index, 6))
    cages = tuple(R.Cage(tuple(cells), sum(solution[r * 6 + c] for r, c in cells))
                  for cells in groups.values())
    puzzle = empty(6, cages).with_values([d if i % 4 == 0 else 0 for i, d in enumerate(solution)])
    result = same_as_norvig(puzzle)
    assert solution in result.solutions


def test_two_givens_make_the_miracle_unique():
    values = [0] * 81
    values[4 * 9 + 2], values[5 * 9 + 6] = 1, 2
    result = same_as_norvig(empty(9, R.MIRACLE).with_values(values))
    assert result.status is Status.UNIQUE


def test_a_parity_contradicting_a_given_is_no_solution():
    puzzle = parse("1..." "...." "...." "....", rules=[R.Parity(((0, 0),), even=True)])
    assert prolog.solve(puzzle).status is Status.NONE


# --- time limits and errors: results, and the process carries on -----------------------

def test_a_tiny_time_limit_is_a_timeout_with_what_was_found():
    result = prolog.solve(empty(16), limit=None, timeout=0.05)
    assert result.status is Status.TIMEOUT and not result.exact
    assert all(check(empty(16), grid) == [] for grid in result.solutions)
    assert prolog.solve(empty(4), limit=None).count == 288  # and Prolog still works


def test_no_time_left_is_a_timeout():
    assert prolog.solve(empty(9), timeout=0).status is Status.TIMEOUT


def test_a_prolog_exception_is_an_error_result(monkeypatch):
    monkeypatch.setattr(P, "rule_terms", lambda puzzle: [("bogus",)])
    result = prolog.solve(empty(4))
    assert result.status is Status.ERROR and "sudoku_rule" in result.message
    monkeypatch.undo()
    assert prolog.solve(empty(4), limit=None).count == 288


def test_running_out_of_stack_is_an_error_result():
    engine = S.janus()
    limit = engine.query_once("current_prolog_flag(stack_limit, Limit)")["Limit"]
    engine.query_once("set_prolog_flag(stack_limit, 10_000_000)")
    try:
        result = prolog.solve(empty(9), limit=None, timeout=60)
    finally:
        engine.query_once("set_prolog_flag(stack_limit, Limit)", {"Limit": limit})
    assert result.status is Status.ERROR and "Stack limit" in result.message
    assert prolog.solve(empty(4), limit=None).count == 288


# --- options -----------------------------------------------------------------------------

def test_options_come_from_the_spec():
    backend = make_backend("prolog:strength=all_different,labeling=ffc,order=down,"
                           "branching=bisect")
    assert backend.strength == "all_different"
    assert backend.labeling == ["ffc", "down", "bisect"]
    assert backend.solve(empty(4), limit=None).count == 288


@pytest.mark.parametrize("spec", ["prolog:strength=strong", "prolog:labeling=random",
                                  "prolog:order=sideways", "prolog:branching=split",
                                  "prolog:colour=blue"])
def test_bad_options_are_refused(spec):
    with pytest.raises(BackendError):
        make_backend(spec)


def test_describe_names_the_goals_and_rules():
    text = prolog.describe(empty(9, (R.Diagonal(), R.AntiKnight())))
    assert "sudoku(3-3, Cells, Rules, all_different)" in text
    assert "labeling([ffc, up, step]" in text and "(auto: chosen from the rules)" in text
    assert "29 units" in text and "differ(" in text
    text = prolog.describe(empty(9))
    assert "sudoku(3-3, Cells, Rules, hybrid)" in text and "labeling([ff, up, step]" in text
    text = make_backend("prolog:strength=all_distinct,labeling=leftmost").describe(empty(9))
    assert "Rules, all_distinct), labeling([leftmost, up, step], Cells)\n" in text


# --- what `auto` stands for ------------------------------------------------------------------

@pytest.mark.parametrize("rules, strength, selection", [
    ((), "hybrid", "ff"), ((R.Diagonal(), R.Windoku()), "hybrid", "ff"),
    ((JIGSAW_6,), "hybrid", "ff"),
    ((R.Cage(((0, 0), (0, 1)), 3), R.Parity(((1, 1),), even=True)), "hybrid", "ff"),
    ((R.AntiKnight(),), "all_different", "ffc"), ((R.AntiKing(),), "all_different", "ffc"),
    ((R.NonConsecutive(),), "all_different", "ffc"), (R.MIRACLE, "all_different", "ffc"),
    ((R.LittleKiller(((0, 1), (1, 2), (2, 3)), 7),), "singles", "ff"),
    ((R.Arrow(((1, 1), (0, 2), (0, 3))), R.AntiKnight()), "singles", "ff"),
    ((R.Sandwich(False, 0, 0),), "singles", "ff"),
    ((R.Thermometer(((5, 5), (6, 6))),), "singles", "ff"),
], ids=["classic", "diagonal+windoku", "jigsaw", "cage+parity", "anti-knight", "anti-king",
        "non-consecutive", "miracle", "little-killer", "arrow+anti-knight", "sandwich",
        "thermometer"])
def test_auto_is_chosen_from_the_kinds_of_rules(rules, strength, selection):
    n = 6 if rules == (JIGSAW_6,) else 9
    assert prolog.choices(empty(n, rules)) == (strength, [selection, "up", "step"])


def test_explicit_options_are_kept():
    backend = make_backend("prolog:strength=hybrid,labeling=ff")
    assert backend.choices(empty(9, R.MIRACLE)) == ("hybrid", ["ff", "up", "step"])


def test_auto_and_every_strength_agree_on_the_miracle_puzzle():
    values = [0] * 81
    values[4 * 9 + 2], values[5 * 9 + 6] = 1, 2
    puzzle = empty(9, R.MIRACLE).with_values(values)
    answers = {P.PrologBackend(strength=strength, labeling=labeling).solve(puzzle).solutions
               for strength in P.STRENGTHS for labeling in ("auto", "ff")}
    assert len(answers) == 1 and len(answers.pop()) == 1


def test_pairs_that_share_a_unit_are_not_sent():
    puzzle = empty(9, R.MIRACLE)
    geo = geometry(puzzle.box, puzzle.rules)
    (name, pairs), _ = P.rule_terms(puzzle)
    in_a_unit = {(a, b) for a, b in geo.moves if any(b in unit for unit in geo.units_of[a])}
    assert name == "differ" and set(pairs) == set(geo.moves) - in_a_unit
    assert len(geo.moves) == 496 and len(pairs) == 208  # knight's and king's moves
    # a king's step along a row, a knight's move inside a box: both differ already
    assert (0, 1) in in_a_unit and (0, 11) in in_a_unit and (2, 12) in pairs


# --- finding SWI-Prolog and janus ---------------------------------------------------------

def test_available_names_the_versions():
    ready = P.PrologBackend.available()
    assert re.search(r"SWI-Prolog 9\.\d+\.\d+ .*janus-swi \d", ready.version)


def test_a_janus_built_against_another_swipl_is_reported(monkeypatch):
    monkeypatch.setattr(S, "stamp", lambda: {"swipl": "/elsewhere/bin/swipl",
                                             "home": "/elsewhere/lib/swipl"})
    with pytest.raises(S.NotAvailable, match="built against /elsewhere/bin/swipl"):
        S.check_janus(S.find_swipl())


def test_a_wrong_home_is_reported_not_crashed(tmp_path):
    swipl = S.find_swipl()
    with pytest.raises(S.NotAvailable, match="janus"):
        S.probe(S.Swipl(swipl.path, str(tmp_path), swipl.version, "a test"))


def test_a_bad_swipl_variable_is_reported(monkeypatch, tmp_path):
    monkeypatch.setenv("SWIPL", str(tmp_path / "no-swipl"))
    with pytest.raises(S.NotAvailable, match=r"\$SWIPL"):
        S.find_swipl.__wrapped__()


def test_missing_swi_prolog_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(S, "candidates", lambda: [])
    monkeypatch.setattr(S, "find_swipl", S.find_swipl.__wrapped__)
    ready = S.availability.__wrapped__()
    assert not ready.ok and "not found" in ready.reason
    for way in ("make install", "ppa:swi-prolog/stable", "brew install swi-prolog",
                "swi-prolog.org"):
        assert way in ready.fix




def test_outies_sum_the_cells_a_unit_s_cages_reach_out_to():
    # row 1 of a 4x4 (cells 0-3) holds 1+2+3+4 = 10: the cage {0, 1, 4} of 7 and the
    # cage {2, 3} of 7 leave cell 4 with 7 + 7 - 10 = 4; an uncaged cell of the row
    # (cell 3 below) counts against the outies
    goal = ("sudoku:outies(2-2, [[0, 1, 2, 3]], Rules, _Outies), "
            "_Outies == [outies([4], [], 4)]")
    rules = "[cage([0, 1, 4], 7), cage([2, 3], 7)]"
    assert S.janus().query_once(goal.replace("Rules", rules))["truth"]
    rules = "[cage([0, 1, 4], 7), cage([2], 3)]"
    expected = "outies([4], [3], 0)"
    assert S.janus().query_once(goal.replace("Rules", rules).replace(
        "outies([4], [], 4)", expected))["truth"]

# --- the cache: runtime variables, the probe, sudoku.pl compiled ----------------------------

LOAD = """
import os
from sudokulab.backends import swipl as S
swipl = S.find_swipl()
os.environ["SWI_HOME_DIR"] = swipl.home
import janus_swi
how = S.load_program(janus_swi, swipl)
count = janus_swi.query_once("sudoku:sudoku_count(2-2, G, [], [], C)", {"G": [0] * 16})["C"]
print(how, count)
"""


def load_in_child(cache) -> list[str]:
    """How a fresh process loads sudoku.pl with this cache folder, and the 4x4's count."""
    done = subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True,
                          env=dict(os.environ, SUDOKULAB_CACHE=str(cache)), timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_compiled_program_is_kept_and_loaded(tmp_path):
    assert load_in_child(tmp_path) == ["source", "288"]
    (folder,) = (tmp_path / "prolog").glob("*/")
    assert sorted(path.name for path in folder.iterdir()) == ["clpfd.qlf", "qlf.sha256",
                                                              "sudoku.qlf"]
    assert load_in_child(tmp_path) == ["cache", "288"]


CTRL_C_AT_START = """
import os, signal
from sudokulab.backends import swipl as S
loaded, real = [], S.load_program


def load_program(prolog, swipl):
    if not loaded:
        os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C would, mid-start
    loaded.append(real(prolog, swipl))


S.load_program = load_program
try:
    S.janus()
except KeyboardInterrupt:
    print("interrupted after", len(loaded), "load")
grid = {"G": [0] * 16}
print(S.janus().query_once("sudoku:sudoku_count(2-2, G, [], [], C)", grid)["C"], len(loaded))
"""


def test_a_ctrl_c_while_prolog_starts_is_answered_once_it_has_started():
    # raised inside janus's start, the KeyboardInterrupt came out as a SystemError
    # SIGINT as a terminal leaves it: pytest-xdist's workers ignore it, and an ignored
    # SIGINT, inherited, would make the child deaf (whether it was so depended on whether
    # a test that restores Python's handler had run earlier on the same worker)
    done = subprocess.run([sys.executable, "-c", CTRL_C_AT_START], capture_output=True,
                          text=True, timeout=300,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["interrupted after 1 load", "288 1"]


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_compiled_program_is_made_again(tmp_path, damage):
    load_in_child(tmp_path)
    (folder,) = (tmp_path / "prolog").glob("*/")
    for name in ("sudoku.qlf", "clpfd.qlf"):
        whole = (folder / name).read_bytes()
        (folder / name).write_bytes(b"garbage" if damage == "garbage" else whole[:100])
        # SWI-Prolog would abort on a truncated .qlf: it is never loaded
        assert load_in_child(tmp_path) == ["source", "288"]
        assert load_in_child(tmp_path) == ["cache", "288"]


def test_an_empty_cache_variable_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_in_child("") == ["source", "288"]
    monkeypatch.setenv("SUDOKULAB_CACHE", "")
    assert S.cache_root() is None and list(tmp_path.iterdir()) == []


def test_runtime_variables_are_asked_once(tmp_path, monkeypatch):
    monkeypatch.setenv("SUDOKULAB_CACHE", str(tmp_path))
    path = S.find_swipl().path
    first = S.runtime_variables(path)
    monkeypatch.setattr(subprocess, "run", lambda *args, **kwargs: pytest.fail("ran swipl"))
    assert S.runtime_variables(path) == first and first["PLBASE"] == S.find_swipl().home


def test_a_passed_probe_is_remembered(tmp_path, monkeypatch):
    monkeypatch.setenv("SUDOKULAB_CACHE", str(tmp_path))
    swipl = S.find_swipl()
    version = S.check_janus(swipl)
    marker = tmp_path / "prolog" / S.build_key(swipl) / "probed"
    assert marker.read_text() == version
    marker.write_text("0.0.test")  # what the probe's run recorded, not asked again
    assert S.check_janus(swipl) == "0.0.test"

# --- sudoku.pl in plain swipl ---------------------------------------------------------------

def swipl(*args: str) -> str:
    """Run the swipl the backend found, from the repository root; its standard output."""
    done = subprocess.run([str(S.find_swipl().path), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def header_commands() -> list[list[str]]:
    """The one-line `swipl -g "..." -t halt FILE` examples in sudoku.pl's header."""
    header = S.PROGRAM.read_text().split("*/", 1)[0]
    return [[goal, file] for goal, file in
            re.findall(r'^\s*swipl -g "([^"]+)" -t halt (\S+)$', header, re.MULTILINE)]


def test_the_header_examples_run_in_plain_swipl(top95):
    (solve_goal, solve_file), (count_goal, count_file) = header_commands()
    grid = swipl("-g", solve_goal, "-t", "halt", solve_file)
    assert tuple(int(ch) for ch in grid if ch.isdigit()) == top95[0][1]
    assert swipl("-g", count_goal, "-t", "halt", count_file).split() == ["288"]


def test_solve_file_prints_every_solution_and_the_time(tmp_path, top95):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("".join(format_line(p) + "\n" for p, _ in top95[:5]))
    goal = f"solve_file('{puzzles}', 3-3, [strength(all_distinct)])"
    lines = swipl("-g", goal, "-t", "halt", str(S.PROGRAM)).splitlines()
    assert lines[:5] == ["".join(map(str, s)) + " unique" for _, s in top95[:5]]
    assert re.fullmatch(r"% 5 puzzles solved in [\d.]+ s \([\d.]+ puzzles/s\), "
                        r"[\d.]+ s of CPU", lines[5])


@pytest.mark.parametrize("spec", ["prolog", "prolog:strength=singles,labeling=wdeg"])
def test_sandwich_and_dot_counts_match_brute_force_on_4x4(spec):
    """Every 4x4 grid (288) filtered by the checker gives the count: sandwiches whose gap no
    digits fill (total 4) or that need neighbours (total 0), a thermometer and Kropki dots
    (pair/4), consecutive marks and XV with their negatives (the pair and triple tables),
    arrows and little killers (line_sum/2), a renban (its runs); with the
    default choices and with the weighted labeling
    (its dead ends and weights must lose no grid)."""
    grids = make_backend("sat").solve(empty(4), limit=None).solutions
    backend = make_backend(spec)
    for rule in (R.Sandwich(False, 0, 0), R.Sandwich(True, 2, 2), R.Sandwich(True, 1, 4),
                 R.Sandwich(False, 3, 5), R.Thermometer(((0, 0), (1, 1), (2, 3))),
                 R.Arrow(((1, 1), (0, 2), (0, 3))), R.LittleKiller(((0, 1), (1, 2), (2, 3)), 7),
                 R.Arrow(((3, 3), (2, 0), (2, 1), (2, 2))),
                 R.LittleKiller(((0, 0), (1, 1), (2, 2), (3, 3)), 10),
                 R.Renban(((0, 0), (1, 0), (1, 1))),
                 R.Kropki(white=(((0, 0), (0, 1)),), black=(((1, 1), (2, 1)),),
                          negative=True),
                 # a cell with marks to two cells of its row: the triple table
                 R.ConsecutiveMarks((((0, 0), (0, 1)), ((0, 1), (0, 2)), ((2, 2), (3, 2)))),
                 R.XV(x=(), v=(((1, 0), (1, 1)),), negative=True)):
        puzzle = empty(4, (rule,))
        expected = sum(check(puzzle, grid) == [] for grid in grids)
        result = backend.solve(puzzle, limit=None)
        assert result.count == expected, rule
        assert all(check(puzzle, grid) == [] for grid in result.solutions)


# --- sudoku.pl's own propagators, on the domains they leave ----------------------------------

def digits_left(goal: str) -> list[int]:
    """The digits Prolog's Y keeps after the CLP(FD) goal (run in module sudoku)."""
    query = ("term_string(_Goal, Text, [module(sudoku), variable_names(_Names)]), "
             "memberchk('Y' = _Y, _Names), sudoku:_Goal, "
             "clpfd:fd_dom(_Y, _Dom), findall(_V, clpfd:(in(_V, _Dom), indomain(_V)), Vs)")
    return S.janus().query_once(query, {"Text": goal})["Vs"]


def test_a_pair_keeps_each_digit_with_a_partner():
    """No consecutive mark between two cells of one unit: |x - y| >= 2, so with X in {4, 5}
    Y loses 4 and 5 (Y = 5 would leave X only 4, a consecutive digit), where two #\\=
    waited for X's digit."""
    assert digits_left("[X, Y] ins 1..9, pair_relation(9, apart, 0, true, X, Y), X in 4..5") == [
        1, 2, 3, 6, 7, 8, 9]
    # cells of no common unit may repeat a digit: every Y has a partner (Y = 5 has X = 5)
    goal = "[X, Y] ins 1..9, pair_relation(9, apart, 0, false, X, Y), X in 4..5"
    assert digits_left(goal) == list(range(1, 10))


def test_two_marked_neighbours_in_one_unit_hold_the_digit_minus_and_plus_one():
    """r1c2 marked to r1c1 and r1c3 (one row): never 1 or 9. r2c4 marked to r1c4 and r2c3
    (no common unit): both may hold 2, so r2c4 may be 1."""
    row = "[relation(white, 0, 1, 0), relation(white, 1, 2, 0)]"
    corner = "[relation(white, 3, 12, 0), relation(white, 11, 12, 0)]"
    blank = "[" + ", ".join(["0"] * 81) + "]"
    assert digits_left(f"post(3-3, {blank}, {row}, [], Cells), nth0(1, Cells, Y)") == list(
        range(2, 9))
    assert digits_left(f"post(3-3, {blank}, {corner}, [], Cells), nth0(12, Cells, Y)") == list(
        range(1, 10))


def test_a_line_keeps_the_digits_of_its_fillings():
    """Three distinct digits of one piece adding up to 7 are 1, 2 and 4; two one-cell
    pieces adding up to 17 are 8 and 9; a piece of three (at least 1+2+3) and a cell
    totalling 8 leave the cell 1 or 2; a piece of two (at least 1+2) and a cell totalling
    4 leave the cell 1, and the walk back leaves the piece 1 and 2."""
    assert digits_left("Y in 1..9, [A, B] ins 1..9, line_sum([[A, B, Y]], 7)") == [1, 2, 4]
    assert digits_left("Y in 1..9, X in 1..9, line_sum([[X], [Y]], 17)") == [8, 9]
    assert digits_left("[A, B, C, Y] ins 1..9, line_sum([[A, B, C], [Y]], 8)") == [1, 2]
    assert digits_left("[A, B, X] ins 1..9, line_sum([[A, B], [X]], 4), Y = X") == [1]
    assert digits_left("[A, B, X] ins 1..9, line_sum([[A, B], [X]], 4), Y = A") == [1, 2]


def test_a_renban_reaches_sudoku_pl_as_one_term():
    """A renban is posted as its runs (one term), not as its pairs within len-1."""
    puzzle = empty(9, (R.Renban(((0, 0), (0, 1), (1, 1), (2, 2))),))
    terms = P.rule_terms(puzzle)
    assert ("renban", [0, 1, 10, 20]) in terms
    assert not [term for term in terms if term[0] == "relation"]
    text = prolog.describe(puzzle)  # and the teaching view shows what is posted
    assert "renban(4 cells)" in text and "relation(" not in text


# --- the weighted labeling (dom/wdeg) and the singles strength -----------------------------

@pytest.mark.parametrize("strength", ["singles", "all_different"])
def test_the_weighted_labeling_counts_grids_as_norvig(strength):
    """Counting every non-consecutive 6x6 grid meets many dead ends, so the weights change
    which cells are chosen; the grids found are still exactly norvig's (48 of them)."""
    backend = P.PrologBackend(strength=strength, labeling="wdeg")
    assert same_as_norvig(empty(6, (R.NonConsecutive(),)), backend).count == 48


def variant_puzzles():
    """The puzzles of tests/data/variants.json."""
    data = json.loads((ROOT / "tests" / "data" / "variants.json").read_text())
    return [from_json(json.dumps(puzzle)) for puzzle in data.values()]


@pytest.mark.parametrize("order", P.ORDERS)
def test_the_weighted_labeling_solves_every_variant_puzzle_as_norvig(order):
    """tests/data/variants.json, one puzzle per rule, each unique only under its rule."""
    backend = P.PrologBackend(strength="singles", labeling="wdeg", order=order)
    for puzzle in variant_puzzles():
        result = same_as_norvig(puzzle, backend, limit=2)
        assert result.status is Status.UNIQUE, puzzle.rules


def test_a_branching_the_weighted_labeling_cannot_take_is_refused():
    with pytest.raises(BackendError, match="branching=bisect does not go with it"):
        make_backend("prolog:labeling=wdeg,branching=bisect")


def test_describe_names_the_weighted_labeling():
    text = make_backend("prolog:strength=singles,labeling=wdeg,order=down").describe(empty(9))
    assert "sudoku(3-3, Cells, Rules, singles), weighted_labeling([wdeg, down], Cells)\n" in text
    assert "dom/wdeg" in text
