"""Certified verdicts (issue 56): the certificates' own encoder against the checker by brute
force, rule by rule; certificates of every kind verify; tampered ones never do."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import shutil
from pathlib import Path

import pytest

from sudokulab import rules as R
from sudokulab.certificates import certify, drat, verify
from sudokulab.certificates.encoder import ENCODERS, encode
from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.errors import CertificateRejected, DisagreementError, UnsupportedRule
from sudokulab.formats.text import from_json, parse
from sudokulab.puzzle import Puzzle

DATA = Path(__file__).parent / "data"
Grid = tuple[int, ...]


# --- brute force: the encoder's models are exactly the grids check.py accepts ---------------

def _latin_squares(n: int) -> list[Grid]:
    """Every n x n Latin square (576 of order 4), row by row."""
    rows = list(itertools.permutations(range(1, n + 1)))
    found: list[Grid] = []

    def extend(chosen: list[tuple[int, ...]]) -> None:
        if len(chosen) == n:
            found.append(tuple(d for row in chosen for d in row))
            return
        for row in rows:
            if all(row[c] != other[c] for other in chosen for c in range(n)):
                extend([*chosen, row])

    extend([])
    return found


LATIN4 = _latin_squares(4)


def _sudoku_grid(box: tuple[int, int], rng: random.Random) -> Grid:
    """A random valid sudoku grid, by backtracking in random digit order."""
    br, bc = box
    n = br * bc
    grid = [0] * (n * n)

    def fits(k: int, d: int) -> bool:
        r, c = divmod(k, n)
        top, left = r - r % br, c - c % bc
        return all(grid[r * n + j] != d for j in range(n)) and \
            all(grid[i * n + c] != d for i in range(n)) and \
            all(grid[(top + i) * n + left + j] != d for i in range(br) for j in range(bc))

    def fill(k: int) -> bool:
        if k == n * n:
            return True
        for d in rng.sample(range(1, n + 1), n):
            if fits(k, d):
                grid[k] = d
                if fill(k + 1):
                    return True
        grid[k] = 0
        return False

    fill(0)
    return tuple(grid)


def _instances(grid: Grid, n: int, rng: random.Random) -> dict[str, list[R.Rule]]:
    """A small instance of every rule type, most read off the grid so that it holds there
    (and some grids satisfy it)."""
    at = {(r, c): grid[r * n + c] for r in range(n) for c in range(n)}
    cells = list(at)
    pairs = R.orthogonal_pairs(n)

    def some(k: int) -> list[tuple[int, int]]:
        return rng.sample(cells, k)

    def distinct_cells(k: int) -> list[tuple[int, int]]:
        while True:
            chosen = some(k)
            if len({at[c] for c in chosen}) == k:
                return chosen

    thermo = sorted(distinct_cells(3), key=at.get)
    circle = next(c for c in cells if at[c] >= 3)
    shaft = next(list(s) for s in itertools.combinations([c for c in cells if c != circle], 2)
                 if sum(at[c] for c in s) == at[circle])
    white = [p for p in pairs if abs(at[p[0]] - at[p[1]]) == 1][:3]
    black = [p for p in pairs if at[p[0]] in (2 * at[p[1]], at[p[1]] / 2)][:2]
    black = [p for p in black if p not in white]
    x = [p for p in pairs if at[p[0]] + at[p[1]] == 10][:2]
    v = [p for p in pairs if at[p[0]] + at[p[1]] == 5][:2]
    # Every mark the grid shows: with `negative`, the grid satisfies the rule.
    all_white = [p for p in pairs if abs(at[p[0]] - at[p[1]]) == 1]
    all_black = [p for p in pairs if at[p[0]] in (2 * at[p[1]], at[p[1]] / 2)
                 and p not in all_white]
    all_x = [p for p in pairs if at[p[0]] + at[p[1]] == 10]
    all_v = [p for p in pairs if at[p[0]] + at[p[1]] == 5]
    run = sorted(cells, key=at.get)
    renban = [next(c for c in run if at[c] == d) for d in (2, 3)]
    whisper = next([a, b] for a, b in pairs if abs(at[a] - at[b]) >= (n + 1) // 2)
    mirror = next([a, b, c] for a, b, c in itertools.permutations(cells, 3)
                  if at[a] == at[c] and a[0] != c[0] and a[1] != c[1])
    diagonal = [(k, k + 1) for k in range(n - 1)]
    regions = R.parse_regions("AAAB CABB CCDB CDDD") if n == 4 else \
        R.parse_regions("AAABBB AACCBB ACCCBD EEECDD EFFFDD EEFFFD")
    sandwich_total = _sandwich(grid, n, 1)
    box = (2, 2) if n == 4 else (2, 3)
    simple = {name: [rule] for name, rule in R.SIMPLE_RULES.items() if not rule.problem(box)}
    return {
        **simple,  # every rule without parameters that fits the grid: a new one too
        "jigsaw": [regions],
        "cage": [R.Cage(tuple(c), sum(at[x] for x in c)) for c in [distinct_cells(3)]],
        "cage-without-sum": [R.SumlessCage(tuple(some(3)))],
        "extra-region": [R.ExtraRegion(tuple(some(3)))],
        "parity": [R.Parity(tuple(c for c in cells[:n] if at[c] % 2 == 0), True),
                   R.Parity(tuple(c for c in cells[n:2 * n] if at[c] % 2), False)],
        "thermometer": [R.Thermometer(tuple(thermo))],
        "arrow": [R.Arrow((circle, *shaft))],
        "kropki": [R.Kropki(tuple(white), tuple(black))],
        "kropki-negative": [R.Kropki(tuple(all_white), tuple(all_black), negative=True)],
        "xv": [R.XV(tuple(x), tuple(v))],
        "xv-negative": [R.XV(tuple(all_x), tuple(all_v), negative=True)],
        "renban": [R.Renban(tuple(renban))],
        "whispers": [R.Whispers(tuple(whisper))],
        "palindrome": [R.Palindrome(tuple(mirror))],
        "little-killer": [R.LittleKiller(tuple(diagonal), sum(at[c] for c in diagonal))],
        "consecutive-marks": [R.ConsecutiveMarks(tuple(all_white))],
        "sandwich": [R.Sandwich(False, 1, sandwich_total),
                     R.Sandwich(True, 0, _sandwich(grid, n, 0, column=True))],
    }


def _sandwich(grid: Grid, n: int, index: int, column: bool = False) -> int:
    """The sandwich total of a row (or column) of the grid."""
    line = [grid[k * n + index] if column else grid[index * n + k] for k in range(n)]
    a, b = sorted((line.index(1), line.index(n)))
    return sum(line[a + 1:b])


def _models(puzzle: Puzzle, most: int = 10_000) -> set[Grid]:
    """Every grid the encoder's CNF allows (its models, projected on the cells)."""
    from pysat.solvers import Solver

    encoding = encode(puzzle)
    found: set[Grid] = set()
    with Solver(name="cadical195", bootstrap_with=encoding.clauses()) as solver:
        while len(found) < most and solver.solve():
            grid = encoding.grid(solver.get_model())
            found.add(grid)
            solver.add_clause(encoding.blocking(grid))
    return found


def _accepts(puzzle: Puzzle, grids: list[Grid]) -> list[bool]:
    """Whether the encoder's CNF allows each grid (its cells as assumptions)."""
    from pysat.solvers import Solver

    encoding = encode(puzzle)
    with Solver(name="cadical195", bootstrap_with=encoding.clauses()) as solver:
        return [solver.solve(assumptions=[encoding.x(k, d) for k, d in enumerate(grid)])
                for grid in grids]


READ_OFF = {"cage", "parity", "thermometer", "arrow", "kropki", "xv", "renban", "whispers",
            "palindrome", "little-killer", "consecutive-marks", "sandwich", "kropki-negative",
            "xv-negative"}
KINDS = sorted(_instances(_sudoku_grid((2, 2), random.Random(0)), 4, random.Random(0)))


def test_every_rule_type_has_an_encoding_and_an_instance_here():
    assert set(R.RULE_TYPES) <= set(ENCODERS)
    covered = {type(rule) for rules in _instances(_sudoku_grid((2, 2), random.Random(1)), 4,
                                                  random.Random(1)).values() for rule in rules}
    # a rule without parameters that no 4x4 takes has the certificate of its variant puzzle
    # (test_variant_certificates_verify) and no 4x4 instance
    elsewhere = {type(rule) for rule in R.SIMPLE_RULES.values() if rule.problem((2, 2))}
    assert covered | elsewhere == set(R.RULE_TYPES) and not covered & elsewhere


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("kind", KINDS)
def test_on_4x4_the_models_are_exactly_the_grids_check_accepts(kind, seed):
    rng = random.Random(seed)
    grid = _sudoku_grid((2, 2), rng)
    for rule in _instances(grid, 4, rng)[kind]:
        puzzle = Puzzle((2, 2), (0,) * 16, (rule,))
        accepted = {g for g in LATIN4 if not check(puzzle, g)}
        assert _models(puzzle) == accepted, rule
        if kind in READ_OFF:  # the grid itself satisfies the rule
            assert grid in accepted


def test_on_4x4_without_rules_the_models_are_the_288_grids():
    puzzle = Puzzle((2, 2), (0,) * 16)
    models = _models(puzzle)
    assert len(models) == 288 and models == {g for g in LATIN4 if not check(puzzle, g)}


@pytest.mark.parametrize("kind", KINDS)
def test_on_6x6_the_encoder_and_check_agree_on_sampled_grids(kind):
    rng = random.Random(6)
    grid = _sudoku_grid((2, 3), rng)
    others = [_sudoku_grid((2, 3), rng) for _ in range(15)]
    # Digits relabelled: still sudoku grids, near the one the rule was read off.
    relabelled = [tuple(p[d - 1] for d in grid)
                  for p in rng.sample(list(itertools.permutations(range(1, 7))), 60)]
    universe = [grid, *others, *relabelled]
    for rule in _instances(grid, 6, rng)[kind]:
        puzzle = Puzzle((2, 3), (0,) * 36, (rule,))
        grids = [*universe, *_norvig(puzzle)]  # solutions found by another engine
        want = [not check(puzzle, g) for g in grids]
        assert any(want), rule
        assert _accepts(puzzle, grids) == want, rule
        assert all(not check(puzzle, g) for g in _models(puzzle, most=40)), rule


def _norvig(puzzle: Puzzle) -> tuple[Grid, ...]:
    """Up to 20 solutions found by norvig's search (code that shares nothing with the
    encoder), so that rules no sampled grid satisfies are tested on grids that do."""
    from sudokulab.backends import make_backend

    return make_backend("norvig").solve(puzzle, limit=20).solutions


def test_the_encoder_and_the_checker_import_no_engine_encoding_or_geometry():
    import ast

    folder = Path(__file__).parent.parent / "sudokulab" / "certificates"
    allowed = {"sudokulab", "sudokulab.rules", "sudokulab.puzzle", "sudokulab.errors",
               "sudokulab.check", "sudokulab.formats.text",
               "sudokulab.formats"}  # its __init__: the format tables and json_value alone
    for module in ("encoder.py", "drat.py", "verify.py"):
        tree = ast.parse((folder / module).read_text())
        imported = {node.module for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        ours = {name for name in imported if name.startswith("sudokulab")}
        assert ours - allowed - {"sudokulab.certificates", "sudokulab.certificates.encoder",
                                 "sudokulab.certificates.drat"} == set(), module


def test_a_rule_the_encoder_does_not_know_is_refused():
    class Odd(R.Rule):
        name = "odd-plugin"

    with pytest.raises(UnsupportedRule, match="odd-plugin"):
        encode(Puzzle((2, 2), (0,) * 16, (Odd(),)))


def test_a_samurai_is_encoded_grid_by_grid():
    puzzle = parse((DATA / "samurai.txt").read_text())
    solution = parse((DATA / "samurai.solution.txt").read_text()).givens
    assert _accepts(puzzle, [solution]) == [True]
    broken = list(solution)
    broken[0], broken[1] = broken[1], broken[0]
    assert _accepts(puzzle, [tuple(broken)]) == [False]


# --- the DRAT checker ------------------------------------------------------------------------

def test_drat_accepts_a_rup_refutation_and_names_the_first_bad_lemma():
    formula = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    assert drat.check(2, formula, "2 0\n0\n").ok
    bad = drat.check(2, [(1, 2), (-1, 2)], "-2 0\n0\n")
    assert not bad.ok and bad.lemma == 1 and bad.clause == (-2,)
    assert "lemma 1" in str(bad)
    assert "without the empty clause" in str(drat.check(2, formula, "2 0\n"))


def test_drat_checks_rat_on_the_first_literal():
    # x3 is fresh: (3) is RAT (no clause holds -3), though not RUP.
    formula = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    assert drat.check(3, formula, "3 0\n2 0\n0\n").ok
    # (3 1): resolvent with (-3 2) is (1 2), held: RAT; (-3) instead is no RAT here.
    outcome = drat.check(3, [(-3, 2), (1, 2), (-1, -2)], "3 1 0\n")
    assert outcome.lemma == 0 and "without the empty clause" in outcome.why
    assert not drat.check(3, [(3, 1), (3, -1)], "-3 0\n").ok


def test_drat_honours_deletions_but_ignores_deleting_units():
    formula = [(1, 2), (-1, 2), (1, -2), (-1, -2)]
    # Deleting (1 2) loses what refutes (2 0): with it gone, -2 propagates to no conflict.
    assert not drat.check(2, formula, "d 1 2 0\n2 0\n0\n").ok
    # A unit clause stays: its deletion is ignored (drat-trim's convention).
    formula = [(1,), (-1, 2, 3), (-1, 2, -3), (-1, -2, 3), (-1, -2, -3)]
    outcome = drat.check(3, formula, "d 1 0\n2 0\n0\n")
    assert outcome.ok and outcome.ignored == 1


def test_drat_refuses_a_malformed_line():
    with pytest.raises(ValueError, match="line 2"):
        drat.check(2, [(1,)], "1 0\n1 x 0\n")


# --- certificates of every kind verify ------------------------------------------------------

def _certify(puzzle: Puzzle, folder: Path, name: str = "p"):
    """Make a certificate and check it; the certificate."""
    made = certify(puzzle, folder, name)
    report = verify(made.json_path)
    assert (report.verdict, report.count) == (made.verdict, made.count)
    return made


@pytest.mark.parametrize("index", range(0, 95, 8))
def test_top95_certificates_verify(index, tmp_path, top95):
    puzzle, solution = top95[index]
    made = _certify(puzzle, tmp_path)
    assert made.verdict == "unique" and made.solutions == (tuple(solution),)
    assert made.lemmas > 0 and made.drat_path.exists()


def test_a_puzzle_without_solution_is_certified_none(tmp_path, top95):
    puzzle, solution = top95[0]
    blank = puzzle.givens.index(0)
    wrong = solution[blank] % 9 + 1  # no clash with a given, yet no solution
    broken = puzzle.with_values(puzzle.givens[:blank] + (wrong,) + puzzle.givens[blank + 1:])
    made = _certify(broken, tmp_path)
    assert made.verdict == "none" and made.count == 0 and made.solutions == ()


def test_givens_that_clash_are_certified_none(tmp_path):
    puzzle = Puzzle((3, 3), (5, 5) + (0,) * 79)
    assert _certify(puzzle, tmp_path).verdict == "none"


def test_few_givens_are_certified_multiple_with_two_checked_solutions(tmp_path, top95):
    puzzle = Puzzle((3, 3), top95[0][0].givens[:9] + (0,) * 72)
    made = _certify(puzzle, tmp_path)
    assert made.verdict == "multiple" and made.count is None and made.drat_path is None
    assert len(set(made.solutions)) == 2


def _two_solutions(top95) -> Puzzle:
    """A puzzle with exactly two solutions: a solution without the four givens of a
    deadly pattern (two digits swapped in a rectangle over two boxes)."""
    solution = top95[0][1]
    n = 9
    for r1, r2 in itertools.combinations(range(9), 2):
        for c1, c2 in itertools.combinations(range(9), 2):
            a, b = solution[r1 * n + c1], solution[r1 * n + c2]
            if (solution[r2 * n + c1], solution[r2 * n + c2]) == (b, a) \
                    and len({r1 // 3, r2 // 3}) + len({c1 // 3, c2 // 3}) == 3:
                cells = {r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2}
                return Puzzle((3, 3), tuple(0 if k in cells else d
                                            for k, d in enumerate(solution)))
    raise AssertionError("no deadly pattern")


def test_two_solutions_are_counted_exactly_with_a_proof(tmp_path, top95):
    made = _certify(_two_solutions(top95), tmp_path)
    assert made.verdict == "multiple" and made.count == 2 and made.drat_path is not None


KILLERS = [from_json(line) for line in (DATA / "killers.jsonl").read_text().splitlines()
           if line.strip()]
VARIANTS = json.loads((DATA / "variants.json").read_text())


@pytest.mark.parametrize("index", range(len(KILLERS)))
def test_killer_certificates_verify(index, tmp_path):
    assert _certify(KILLERS[index], tmp_path).verdict in ("unique", "multiple")


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_certificates_verify(name, tmp_path):
    puzzle = from_json(json.dumps(VARIANTS[name]))
    made = _certify(puzzle, tmp_path)
    assert made.verdict != "none"


def test_a_samurai_certificate_verifies(tmp_path):
    made = _certify(parse((DATA / "samurai.txt").read_text()), tmp_path)
    assert made.verdict == "unique"


def test_the_encoder_model_is_checked_before_anything_is_certified(tmp_path, monkeypatch):
    from sudokulab.certificates import certificate

    monkeypatch.setattr(certificate, "_solutions", lambda encoding, most: [(1,) * 16])
    with pytest.raises(DisagreementError, match="no solution"):
        certify(Puzzle((2, 2), (0,) * 16), tmp_path, "bad")


# --- tampering: each rejected, saying where ---------------------------------------------------

@pytest.fixture(scope="module")
def unique(tmp_path_factory, top95) -> Path:
    """A unique certificate of top95's first puzzle (the folder; copy before editing)."""
    folder = tmp_path_factory.mktemp("unique")
    certify(top95[0][0], folder, "p")
    return folder


def _copy(folder: Path, tmp_path: Path) -> Path:
    """A copy of a certificate's folder; its .json."""
    target = tmp_path / "copy"
    shutil.copytree(folder, target)
    return target / "p.json"


def _edit(path: Path, **changes) -> None:
    """Change keys of a certificate's JSON."""
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def _rewrite_proof(path: Path, lines: list[str]) -> None:
    """Replace the proof, its sha256 updated in the JSON (so the proof itself is judged)."""
    data = json.loads(path.read_text())
    text = "\n".join(lines) + "\n"
    (path.parent / data["drat"]["file"]).write_text(text)
    data["drat"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    path.write_text(json.dumps(data))


def _proof(path: Path) -> list[str]:
    """The proof's lines."""
    return (path.parent / json.loads(path.read_text())["drat"]["file"]).read_text().splitlines()


def _rejected(path: Path) -> str:
    """The message of the certificate's rejection."""
    with pytest.raises(CertificateRejected) as error:
        verify(path)
    assert error.value.exit_code == 4
    message = str(error.value)
    assert "\n" not in message
    return message


def test_a_proof_without_its_empty_clause_is_rejected(unique, tmp_path):
    path = _copy(unique, tmp_path)
    lines = _proof(path)
    assert lines[-1] == "0"
    _rewrite_proof(path, lines[:-1])
    assert "without the empty clause" in _rejected(path)


def _first_rejection(path: Path, variants) -> str:
    """The message of the first proof variant rejected (each written in turn)."""
    for lines in variants:
        _rewrite_proof(path, lines)
        try:
            verify(path)
        except CertificateRejected as error:
            return str(error)
    raise AssertionError("every variant of the proof was accepted")


def test_a_proof_with_a_needed_lemma_dropped_is_rejected_at_a_lemma(unique, tmp_path):
    path = _copy(unique, tmp_path)
    lines = _proof(path)
    # The long lemmas are where the solver used the blocking clause: drop one from there on.
    start = next(k for k, line in enumerate(lines) if len(line.split()) > 20)
    variants = (lines[:k] + lines[k + 1:] for k in range(start, len(lines) - 1))
    assert "lemma" in _first_rejection(path, variants)


def test_a_proof_with_a_literal_flipped_is_rejected(unique, tmp_path):
    path = _copy(unique, tmp_path)
    lines = _proof(path)

    def flipped(k: int) -> list[str]:
        words = lines[k].split()
        words[0] = str(-int(words[0]))
        return [*lines[:k], " ".join(words), *lines[k + 1:]]

    start = next(k for k, line in enumerate(lines) if len(line.split()) > 20)
    variants = (flipped(k) for k in range(start, len(lines) - 1)
                if not lines[k].startswith("d"))
    assert "lemma" in _first_rejection(path, variants)


def test_a_proof_changed_without_its_hash_is_rejected_by_its_hash(unique, tmp_path):
    path = _copy(unique, tmp_path)
    proof = path.parent / "p.drat"
    proof.write_text(proof.read_text().replace("\n0\n", "\n"))
    assert "sha256" in _rejected(path)


@pytest.mark.parametrize("name", ["/dev/zero", "../p.cnf", "zero.cnf"])
def test_a_part_that_is_no_file_beside_the_certificate_is_rejected_unread(name, unique,
                                                                          tmp_path):
    path = _copy(unique, tmp_path)
    (path.parent / "zero.cnf").symlink_to("/dev/zero")  # read whole, it would never end
    data = json.loads(path.read_text())
    data["cnf"]["file"] = name
    path.write_text(json.dumps(data))
    assert _rejected(path).startswith(f"p.json: {name}: ")


def test_a_part_larger_than_any_certificate_needs_is_rejected_unread(unique, tmp_path,
                                                                     monkeypatch):
    import importlib

    checker = importlib.import_module("sudokulab.certificates.verify")  # not the function
    path = _copy(unique, tmp_path)
    cnf = path.parent / json.loads(path.read_text())["cnf"]["file"]
    assert cnf.stat().st_size > path.stat().st_size
    monkeypatch.setattr(checker, "MAX_PART", path.stat().st_size)  # the JSON, not the CNF
    assert "larger than" in _rejected(path)


def test_a_format_this_verify_does_not_read_is_rejected(unique, tmp_path):
    path = _copy(unique, tmp_path)
    _edit(path, format="sudokulab certificate 9")
    assert "format 'sudokulab certificate 9': this verify reads" in _rejected(path)


def test_a_lemma_count_the_proof_does_not_hold_is_rejected(unique, tmp_path):
    import importlib

    path = _copy(unique, tmp_path)
    data = json.loads(path.read_text())
    held = data["drat"]["lemmas"]
    data["drat"]["lemmas"] = held + 2
    path.write_text(json.dumps(data))
    assert f"holds {held} lemmas, the certificate says {held + 2}" in _rejected(path)
    writer = importlib.import_module("sudokulab.certificates.certificate")
    checker = importlib.import_module("sudokulab.certificates.verify")
    assert writer.FORMAT == checker.FORMAT  # what one writes, the other reads


@pytest.mark.parametrize("stated", [None, True])
def test_a_proof_whose_lemma_count_is_left_out_is_rejected(unique, tmp_path, stated):
    """A figure left out is no figure held, as with the CNF's (true is no count)."""
    path = _copy(unique, tmp_path)
    data = json.loads(path.read_text())
    held = data["drat"]["lemmas"]
    if stated is None:
        del data["drat"]["lemmas"]
    else:
        data["drat"]["lemmas"] = stated
    path.write_text(json.dumps(data))
    assert f"holds {held} lemmas, the certificate says {json.dumps(stated)}" in _rejected(path)


@pytest.mark.parametrize("key, stated, found", [
    ("variables", 5, "its header says {variables}"),
    ("clauses", 7, "its header says {clauses}"),
    ("blocking", 5, "it holds 1"),
    ("blocking", True, "it holds 1"),  # true == 1 in Python, not a count
    ("encoder", "other 9", "verify re-encodes with 'sudokulab.certificates.encoder"),
    ("encoder", None, "verify re-encodes with"),  # a figure left out is no figure held
])
def test_a_cnf_figure_the_cnf_does_not_have_is_rejected_naming_it(key, stated, found,
                                                                    unique, tmp_path, capsys):
    # held-out issue 53: the CNF's stated variables, clauses, blocking and encoder were
    # never checked, so a certificate that misstated all four was accepted
    path = _copy(unique, tmp_path)
    header = next(line for line in (path.parent / "p.cnf").read_text().splitlines()
                  if line.startswith("p cnf"))
    found = found.format(variables=header.split()[2], clauses=header.split()[3])
    data = json.loads(path.read_text())
    data["cnf"][key] = stated
    if stated is None:
        del data["cnf"][key]
    path.write_text(json.dumps(data))
    message = _rejected(path)
    assert message.startswith(f"p.json: p.cnf: the certificate says {key} "
                              f"{json.dumps(stated)}, {found}"), message
    assert main(["verify", str(path)]) == 4
    err = capsys.readouterr().err
    assert f"says {key} {json.dumps(stated)}" in err and len(err.splitlines()) == 1


def test_a_given_changed_in_the_json_is_named(unique, tmp_path):
    path = _copy(unique, tmp_path)
    data = json.loads(path.read_text())
    givens = data["puzzle"]["givens"]
    r, c = next((r, c) for r in range(9) for c in range(9) if givens[r][c])
    givens[r][c] = givens[r][c] % 9 + 1
    _edit(path, puzzle=data["puzzle"])
    assert f"r{r + 1}c{c + 1}" in _rejected(path)


def test_a_given_added_that_the_solution_keeps_is_named_by_the_cnf(unique, tmp_path):
    path = _copy(unique, tmp_path)
    data = json.loads(path.read_text())
    givens, solution = data["puzzle"]["givens"], data["solutions"][0]
    r, c = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    givens[r][c] = int(solution[r * 9 + c])
    _edit(path, puzzle=data["puzzle"])
    message = _rejected(path)
    assert f"the puzzle gives r{r + 1}c{c + 1}={givens[r][c]}, the CNF does not" in message


def test_a_solution_swapped_for_another_grid_is_named_by_its_cell(unique, tmp_path, top95):
    path = _copy(unique, tmp_path)
    other = "".join(map(str, top95[1][1]))
    _edit(path, solutions=[other])
    assert "solution 1 fails the checker: r" in _rejected(path)


def test_a_proof_of_another_puzzle_is_rejected(unique, tmp_path, top95):
    path = _copy(unique, tmp_path)
    certify(top95[1][0], tmp_path / "other", "q")
    _rewrite_proof(path, (tmp_path / "other" / "q.drat").read_text().splitlines())
    assert "lemma" in _rejected(path)


def test_another_puzzles_cnf_is_rejected(unique, tmp_path, top95):
    path = _copy(unique, tmp_path)
    certify(top95[1][0], tmp_path / "other", "q")
    cnf = (tmp_path / "other" / "q.cnf").read_bytes()
    (path.parent / "p.cnf").write_bytes(cnf)
    data = json.loads(path.read_text())
    data["cnf"]["sha256"] = hashlib.sha256(cnf).hexdigest()
    path.write_text(json.dumps(data))
    assert "gives r" in _rejected(path)


def test_a_two_solution_certificate_can_never_claim_unique(tmp_path, top95):
    puzzle = _two_solutions(top95)
    made = certify(puzzle, tmp_path, "p")
    path = made.json_path
    first, second = json.loads(path.read_text())["solutions"]
    # The claim alone, both solutions still listed:
    _edit(path, verdict="unique", count=1)
    assert "unique with 2 solutions" in _rejected(path)
    # One solution dropped: the CNF still blocks two.
    _edit(path, solutions=[first])
    assert "blocking" in _rejected(path)
    # The CNF rewritten for one blocked solution: the proof cannot refute a CNF that has a
    # model (the other solution), whatever it says.
    encoding = encode(puzzle)
    cnf = encoding.dimacs([tuple(int(ch) for ch in first)]).encode()
    (tmp_path / "p.cnf").write_bytes(cnf)
    data = json.loads(path.read_text())
    data["cnf"]["sha256"] = hashlib.sha256(cnf).hexdigest()
    path.write_text(json.dumps(data))
    assert "lemma" in _rejected(path) or "empty clause" in _rejected(path)


def test_a_count_that_the_evidence_does_not_show_is_rejected(unique, tmp_path):
    path = _copy(unique, tmp_path)
    _edit(path, count=2)
    assert "count 2" in _rejected(path)


# --- the command -------------------------------------------------------------------------

def test_verify_a_folder_exits_0_when_all_are_accepted(unique, tmp_path, capsys):
    assert main(["verify", str(unique)]) == 0
    assert "1 of 1 accepted" in capsys.readouterr().out


def test_verify_exits_4_when_one_is_rejected_and_2_for_no_certificate(unique, tmp_path,
                                                                      capsys):
    path = _copy(unique, tmp_path)
    _edit(path, count=5)
    assert main(["verify", str(unique / "p.json"), str(path)]) == 4
    captured = capsys.readouterr()
    assert "REJECTED" in captured.out and "count 5" in captured.err
    (tmp_path / "not.json").write_text("[1, 2]")
    assert main(["verify", str(tmp_path / "not.json")]) == 2
    assert main(["verify", str(tmp_path / "missing")]) == 2
    assert main(["verify", "/dev/null"]) == 2
    assert "/dev/null: not a file or a folder of certificates" in capsys.readouterr().err


# --- drat-trim, when it is installed: the same verdicts --------------------------------------

def _drat_trim() -> str | None:
    """drat-trim's path: $SUDOKULAB_DRAT_TRIM or the PATH's (None: the tests skip)."""
    import os

    return os.environ.get("SUDOKULAB_DRAT_TRIM") or shutil.which("drat-trim")


@pytest.mark.skipif(_drat_trim() is None, reason="drat-trim is not installed")
def test_drat_trim_forward_agrees_with_drat_py_on_mutated_proofs(unique, tmp_path):
    import subprocess

    from sudokulab.certificates.verify import _clauses

    cnf = (unique / "p.cnf").read_text()
    formula = _clauses(cnf)
    lines = (unique / "p.drat").read_text().splitlines()
    rng = random.Random(56)
    variants = [lines]
    for _ in range(16):
        k = rng.randrange(len(lines))
        words = lines[k].split()
        if rng.random() < 0.5 or words[0] == "d" or len(words) < 2:
            variants.append(lines[:k] + lines[k + 1:])
        else:
            words[0] = str(-int(words[0]))
            variants.append([*lines[:k], " ".join(words), *lines[k + 1:]])
    for variant in variants:
        text = "\n".join(variant) + "\n"
        (tmp_path / "x.drat").write_text(text)
        run = subprocess.run([_drat_trim(), str(unique / "p.cnf"), str(tmp_path / "x.drat"),
                              "-f"], capture_output=True, text=True)
        # Forward (-f), drat-trim checks every lemma, as drat.py does: the same verdict.
        assert ("s VERIFIED" in run.stdout) == drat.check(0, formula, text).ok


def test_ctrl_c_inside_the_search_lets_its_solver_go(monkeypatch):
    """Ctrl-C inside CaDiCaL's search leaves it mid-search, where adding a clause aborts
    the whole interpreter (sl.certify died of SIGABRT): the search's solver is dropped
    unused, the KeyboardInterrupt goes on, and the next search makes a fresh solver."""
    from sudokulab.certificates import certificate
    from sudokulab.certificates.encoder import encode
    from sudokulab.formats.text import parse

    class MidSearch:
        """A solver whose search is cut by Ctrl-C; any use after it would abort."""

        def solve(self, assumptions=()):
            raise KeyboardInterrupt

        def add_clause(self, clause):
            raise AssertionError("a clause added to a solver stopped mid-search")

    encoding = encode(parse("." * 16))
    kept = certificate._SEARCHERS.__dict__.setdefault("by_rules", {})
    kept[id(encoding.rules)] = [encoding.rules, MidSearch(), encoding.variables]
    with pytest.raises(KeyboardInterrupt):
        certificate._solutions(encoding, 2)
    assert id(encoding.rules) not in kept
    assert len(certificate._solutions(encoding, 2)) == 2  # a fresh solver
