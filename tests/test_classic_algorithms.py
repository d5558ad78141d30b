"""The classics as their authors wrote them (issue 60): `norvig:classic` (Norvig's essay),
`dlx:links` (Knuth's dancing links) and `sat:solver=teach` (a CDCL solver to read): right
on whole datasets against their reference solutions and check.py, right on the contract
(`sudokulab check-backend`, which also fails engines broken on purpose), and traced: the
replay rebuilds what the engine saw and the page's watch view steps through it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab.backends import make_backend, trace
from sudokulab.backends import norvig as fast_norvig
from sudokulab.backends.cdcl import Solver, Tracer, luby
from sudokulab.backends.essay import OWN_PROPAGATION, Essay
from sudokulab.backends.links import Links
from sudokulab.check import check
from sudokulab.errors import BackendError
from sudokulab.geometry import geometry
from sudokulab.harness import contract
from sudokulab.puzzle import empty
from sudokulab.result import Status

CLASSICS = ("norvig:classic", "dlx:links", "sat:solver=teach")
ROOT = Path(__file__).resolve().parents[1]
BROKEN = str(Path(__file__).parent / "broken_engine.py")


# --- the essay and the paper, as data ---------------------------------------------------

def test_the_essay_has_81_squares_27_units_and_20_peers():
    essay = Essay(geometry((3, 3), ()))
    assert len(essay.squares) == 81
    assert all(len(essay.units[s]) == 3 for s in essay.squares)
    assert all(len(essay.peers[s]) == 20 for s in essay.squares)
    assert essay.peers["r1c1"] >= {"r1c9", "r9c1", "r3c3"} and "r4c4" not in essay.peers["r1c1"]


def test_the_essays_two_rules_solve_an_easy_puzzle_without_search():
    essay = Essay(geometry((3, 3), ()))
    values = essay.parse_grid(list(datasets.load("easy50")[0].givens))
    assert isinstance(values, dict) and all(len(v) == 1 for v in values.values())
    assert essay.grid(values) == datasets.solutions("easy50")[0]


def test_the_essays_rules_are_those_the_fast_norvig_does_not_propagate_by_units():
    assert set(OWN_PROPAGATION) == set(fast_norvig.NEEDS_RULE_BOARD)


def test_cover_then_uncover_restores_every_link_and_size():
    links = Links(geometry((2, 2), ()))

    def snapshot():
        nodes = [links.h, *links.rows]
        for r in links.rows:
            x = r.R
            while x is not r:
                nodes.append(x)
                x = x.R
        columns = []
        c = links.h.R
        while c is not links.h:
            columns.append((c.N, c.S))
            c = c.R
        return [(id(x.L), id(x.R), id(x.U), id(x.D)) for x in nodes], columns

    before = snapshot()
    column = links.h.R
    links.cover(column)
    assert snapshot()[1] != before[1]  # the column left the header list, sizes fell
    links.uncover(column)
    assert snapshot() == before


def test_a_4x4_matrix_has_a_row_per_cell_and_digit_and_a_column_per_constraint():
    links = Links(geometry((2, 2), ()))
    assert len(links.rows) == 64
    columns = 0
    c = links.h.R
    while c is not links.h:
        assert c.S == 4  # each cell has 4 digits; each unit has 4 places for a digit
        columns += 1
        c = c.R
    assert columns == 16 + 12 * 4  # cells, then (row, column, box) x digit


def test_the_luby_sequence_starts_as_in_the_literature():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_cdcl_learns_the_first_uip_clause_and_backjumps():
    # Decide 1, 2, 3 (each false would do too); clauses force: 1 and 3 imply 4,
    # 3 and 4 imply 5, 4 and 5 conflict with 1. Level 3's first UIP is 3 itself... so
    # the learnt clause names 3 and level 1's literal, and the solver jumps to level 1.
    clauses = [[-1, -3, 4], [-3, -4, 5], [-1, -4, -5], [1, 2, 3, 6], [2, 6, 7]]
    solver = Solver(7, clauses)
    solver.decide(1)
    assert solver.propagate() is None
    solver.decide(2)
    assert solver.propagate() is None
    solver.decide(3)
    conflict = solver.propagate()
    assert conflict is not None
    learnt, back = solver.analyze(conflict)
    assert learnt[0] == -3 and set(learnt) == {-3, -1} and back == 1  # level 2 skipped
    solver.backjump(back)
    solver.learn(learnt)
    assert solver.propagate() is None and solver.lit_value(3) == -1
    assert solver.solve() is not None


def test_cdcl_says_unsatisfiable_and_blocks_models_one_by_one():
    assert Solver(2, [[1, 2], [-1, 2], [1, -2], [-1, -2]]).solve() is None
    solver, models = Solver(3, [[1, 2, 3]]), 0
    while (model := solver.solve()) is not None:
        models += 1
        if not solver.block([-lit for lit in model]):
            break
    assert models == 7  # every assignment but all false


# --- whole datasets, checked by their reference solutions and check.py -----------------

@pytest.mark.parametrize("engine", CLASSICS)
def test_every_top95_puzzle_gets_its_reference_solution(engine):
    backend = make_backend(engine)
    for puzzle, solution in zip(datasets.load("top95"), datasets.solutions("top95")):
        result = backend.solve(puzzle, limit=2)
        assert result.status is Status.UNIQUE, (engine, result.message)
        assert result.solutions == (solution,) and not check(puzzle, solution)


def test_the_teaching_cdcl_gets_every_easy50_puzzle_right():
    backend = make_backend("sat:solver=teach")
    for puzzle, solution in zip(datasets.load("easy50"), datasets.solutions("easy50")):
        result = backend.solve(puzzle, limit=2)
        assert (result.status, result.solutions) == (Status.UNIQUE, (solution,))
        assert result.stats["decisions"] >= 0 and result.stats["propagations"] > 0


@pytest.mark.parametrize("engine", CLASSICS)
def test_counts_agree_with_the_fast_engines_on_the_empty_4x4(engine):
    result = make_backend(engine).solve(empty(4), limit=None)
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, 288, True)
    assert set(result.solutions) == set(make_backend("norvig").solve(empty(4),
                                                                      limit=None).solutions)


# --- options -----------------------------------------------------------------------------

def test_a_bare_word_is_the_variant_and_the_variant_is_an_option():
    assert make_backend("norvig:classic").variant == "classic"
    assert make_backend("norvig:variant=classic").variant == "classic"
    assert make_backend("dlx:links").label == "dlx:links"
    with pytest.raises(BackendError, match="variant must be fast or classic, not links"):
        make_backend("norvig:links")
    with pytest.raises(BackendError, match="not key=value"):
        make_backend("sat:teach")  # sat has no variants: a bare word is an error still


def test_the_classics_refuse_the_rules_they_cannot_express():
    killer = empty(9, (datasets_killer(),))
    for engine in ("norvig:classic", "dlx:links"):
        result = make_backend(engine).solve(killer)
        assert result.status is Status.UNSUPPORTED and "cage" in result.message


def datasets_killer():
    """A cage rule, from the contract's variant puzzles."""
    import json

    from sudokulab.formats.text import from_json

    data = json.loads((ROOT / "tests" / "data" / "variants.json").read_text())["killer"]
    return next(rule for rule in from_json(json.dumps(data)).rules if "cage" in rule.name)


def test_teach_refuses_what_it_cannot_take():
    for spec in ("sat:solver=teach,root=yes", "sat:solver=teach,encoding=optimized"):
        with pytest.raises(BackendError, match="solver=teach takes a reusable encoding"):
            make_backend(spec)


# --- traces ------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", CLASSICS)
def test_the_trace_replays_to_the_solution(engine):
    puzzle = datasets.load("top95")[0]
    result, events = trace.record(puzzle, engine, limit=1, cap=100_000)
    states = trace.replay(events)
    assert states[-1] == [1 << (d - 1) for d in result.solutions[0]]
    kinds = {event["event"] for event in events}
    assert {"start", "wave", "guess", "dead_end", "solution"} <= kinds
    nodes = trace.tree(events)
    assert nodes[0]["outcome"] == "solved" and any(n["outcome"] == "dead" for n in nodes)


def test_the_dancing_links_trace_says_which_columns_are_covered_and_uncovered():
    _, events = trace.record(datasets.load("top95")[0], "dlx:links", limit=1, cap=100_000)
    covers = [e for e in events if e["event"] == "cover"]
    assert covers and all(len(e["columns"]) == 4 for e in covers)  # cell, row, column, box
    assert any(e["event"] == "uncover" for e in events)


def test_the_cdcl_trace_holds_decisions_conflicts_and_learnt_clauses(monkeypatch):
    # Each wave must leave the replay exactly where the solver is: checked as it records.
    wrong = []
    wave = Tracer.wave

    def checked(self, solver):
        wave(self, solver)
        if not self.recorder.full and trace.replay(self.recorder.events)[-1] != \
                self.marks(solver):
            wrong.append(len(self.recorder.events))

    monkeypatch.setattr(Tracer, "wave", checked)
    for puzzle in datasets.load("top95")[:8]:
        result, events = trace.record(puzzle, "sat:solver=teach", limit=2, cap=100_000)
        assert result.status is Status.UNIQUE
        decisions = [e for e in events if e["event"] == "guess"]
        conflicts = [e for e in events if e["event"] == "dead_end"]
        learnt = [e for e in events if e["event"] == "learnt"]
        assert len(decisions) == result.stats["decisions"]
        assert len(conflicts) == result.stats["conflicts"]
        assert len(learnt) == result.stats["learnt"] > 0
        for event in learnt:  # the UIP's negation first, then a backjump below the conflict
            first, uip = event["literals"][0], event["uip"]
            assert first != uip and first.replace("≠", "=") == uip.replace("≠", "=")
            assert event["backjump"] < event["level"]
            assert "first UIP" in event["why"]
    assert wrong == []


def test_solve_trace_writes_a_teach_trace(tmp_path):
    out = tmp_path / "trace.jsonl"
    puzzle = datasets.lines("top95")[0]
    run = subprocess.run([sys.executable, "-m", "sudokulab", "solve", puzzle, "-b",
                          "sat:solver=teach", "--trace", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert '"event": "learnt"' in out.read_text()


# --- check-backend ----------------------------------------------------------------------

def check_backend(*args: str) -> subprocess.CompletedProcess:
    """`sudokulab check-backend ARGS`, as a student runs it."""
    return subprocess.run([sys.executable, "-m", "sudokulab", "check-backend", *args],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("engine", ["norvig", "dlx", *CLASSICS])
def test_check_backend_passes_the_labs_engines(engine):
    run = check_backend(engine, "--puzzles", "5")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "FAIL" not in run.stdout and f"{engine} keeps the contract" in run.stdout


def test_check_backend_fails_an_engine_that_repeats_a_digit_and_says_where():
    run = check_backend(f"{BROKEN}:RepeatsADigit", "--only", "limits", "--puzzles", "1")
    assert run.returncode == 4, run.stdout + run.stderr
    easy = datasets.lines("easy50")[0]
    assert "FAIL  the limit" in run.stdout and f"on {easy}" in run.stdout
    # the limit=1 and limit=2 cases of one puzzle fail alike: each line says which it is
    assert f"on {easy} (limit 1): solution 1" in run.stdout
    assert f"on {easy} (limit 2): solution 1" in run.stdout
    assert "breaks the rules: row 1:" in run.stdout  # what check.py found, where
    assert f"expected {datasets.solution_lines('easy50')[0]}" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr


def test_check_backend_fails_an_engine_that_ignores_a_rule():
    run = check_backend(f"{BROKEN}:IgnoresRules", "--only", "rules", "--dataset", "none")
    assert run.returncode == 4
    # the puzzle with its rule, the count that is wrong, the rule check.py finds broken
    assert "anti-diagonal: on " in run.stdout and "expected unique" in run.stdout
    assert "breaks the rules: anti-diagonal:" in run.stdout


def test_check_backend_runs_in_process_as_the_api_does():
    engine = contract.load_engine(f"{BROKEN}:RepeatsADigit")
    outcomes = {o.name: o for o in contract.run(engine, None, None, ["none", "counts"])}
    assert [o.passed for o in outcomes.values()] == [True, False]  # NONE: no grid to spoil


@pytest.mark.parametrize("args, said", [
    (["nosuchthing"], "no backend name and no MODULE:CLASS"),
    ([":X"], "':X' names no module before the colon"),  # held-out issue 53: was exit 5
    (["plug.py:"], "no backend name and no MODULE:CLASS"),
    (["tests/nowhere.py:X"], "no Python file tests/nowhere.py"),
    ([f"{BROKEN}:Nothing"], "has no Backend subclass Nothing"),
    (["norvig", "--puzzles", "0"], "--puzzles must be a whole number"),
    (["norvig", "--dataset", "top96"], "no dataset 'top96'"),
])
def test_check_backend_bad_input_is_one_line(args, said):
    run = check_backend(*args)
    assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("source, spec, said", [
    ("def solve(:\n", "draft.py:Engine", "draft.py fails as it loads: SyntaxError"),
    ("raise RuntimeError('not yet')\n", "draft.py:Engine", "RuntimeError: not yet"),
    ("from sudokulab.backends.base import Backend\nclass Engine(Backend):\n    name = 'e'\n",
     "draft.py:Engine", "Engine() fails: TypeError: Can't instantiate abstract class"),
], ids=["syntax", "raises", "abstract"])
def test_a_plugin_draft_that_fails_to_load_is_one_line_and_exit_5(source, spec, said,
                                                                   tmp_path):
    (tmp_path / "draft.py").write_text(source)
    run = subprocess.run([sys.executable, "-m", "sudokulab", "check-backend", spec],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 5 and said in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1


# --- the page's watch view ---------------------------------------------------------------

@pytest.mark.parametrize("engine", CLASSICS)
def test_the_page_replays_a_trace_of_the_classics(page, engine):
    from test_web_browser import paste
    from test_web_teach import as_text, board, step_to

    puzzle = datasets.lines("top95")[0]
    _, events = trace.record(datasets.load("top95")[0], engine, limit=1)
    states = trace.replay(events)
    paste(page, puzzle)
    page.click("#watch summary")
    # the page lists the registered engines; a variant is chosen by its spec
    page.eval_on_selector("#watch-engine", f"s => {{ s.add(new Option('{engine}', "
                                           f"'{engine}')); s.value = '{engine}'; }}")
    page.click("#watch-run")
    page.wait_for_selector(f"#watch[data-engine='{engine}'][data-step='0']", state="attached")
    assert int(page.get_attribute("#watch", "data-steps")) == len(events)
    for k in [1, 2, 3, len(events) // 2, 2, len(events) - 1]:
        step_to(page, k)
        assert board(page) == as_text(states[k]), k
    special = next((k for k, e in enumerate(events) if e["event"] in ("learnt", "cover")), None)
    if special is not None:  # said in words, not just named
        step_to(page, special)
        assert events[special]["why"] in page.text_content("#watch-text")


def test_check_backend_only_runs_the_checks_it_names():
    # held-out pass 8: --only also ran the answers on top95 unless --dataset none was given
    run = check_backend("norvig", "--only", "limits", "--only", "limits")  # once, not twice
    assert run.returncode == 0 and "1 check: 1 passed" in run.stdout
    both = check_backend("norvig", "--only", "limits", "--dataset", "hardest", "--puzzles", "2")
    assert both.returncode == 0 and "2 checks: 2 passed" in both.stdout
