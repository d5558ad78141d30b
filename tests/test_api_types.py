"""The API checks its arguments at the door (issue 53): a wrong type is a TypeError that
names the function, the argument and what it takes; a bad value is a ValueError from
sudokulab.errors; nothing fails deep inside with `'list' object has no attribute 'box'`,
and no call returns an empty comparison that claims agreement. One meaning per option:
timeout 0 is no limit everywhere, and `sl.solve` and `sudokulab solve` share one default
backend."""

from __future__ import annotations

import inspect
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sudokulab as sl
from sudokulab import rules as R
from sudokulab.backends import DEFAULT
from sudokulab.cli import main
from sudokulab.errors import (
    BackendError,
    InputError,
    NothingCompared,
    PuzzleError,
    UsageError,
)

ROOT = Path(__file__).resolve().parent.parent
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
NAN = math.nan
# The wrong things a caller passes: every one of them, for every argument below
WRONG = {"list": [1], "None": None, "bytes": b"x", "int": 3, "float": 2.5, "bool": True,
         "dict": {}, "empty": "", "nan": NAN, "negative": -1, "zero": 0}


def call(function: str, argument: str):
    """A one-argument function: the API call with everything else right."""
    quiet = {"progress": False}
    calls = {
        ("solve", "puzzle"): lambda v: sl.solve(v, backend="norvig"),
        ("solve", "backend"): lambda v: sl.solve(EASY, backend=v),
        ("solve", "limit"): lambda v: sl.solve(EASY, backend="norvig", limit=v),
        ("solve", "timeout"): lambda v: sl.solve(EASY, backend="norvig", timeout=v),
        ("count", "puzzle"): lambda v: sl.count(v, backend="norvig"),
        ("count", "backend"): lambda v: sl.count(EASY, backend=v),
        ("count", "timeout"): lambda v: sl.count(EASY, backend="norvig", timeout=v),
        ("count", "grids"): lambda v: sl.count(EASY, backend="norvig", grids=v),
        ("solve_many", "puzzles"): lambda v: sl.solve_many(v, backend="norvig"),
        ("solve_many", "backend"): lambda v: sl.solve_many([EASY], backend=v),
        ("solve_many", "limit"): lambda v: sl.solve_many([EASY], backend="norvig", limit=v),
        ("load", "name"): lambda v: sl.load(v),
        ("rate", "puzzle"): lambda v: sl.rate(v),
        ("rate", "timeout"): lambda v: sl.rate(EASY, v),
        ("open_run", "folder"): lambda v: sl.open_run(v),
        ("certify", "puzzle"): lambda v: sl.certify(v),
        ("certify", "folder"): lambda v: sl.certify(EASY, v),
        ("verify", "path"): lambda v: sl.verify(v),
        ("setter", "puzzle"): lambda v: sl.setter(v, grade=False),
        **{("setter", key): (lambda v, key=key: sl.setter(EASY, **{key: v}))
           for key in ("timeout", "grade_timeout", "candidates", "redundancy", "grade")},
        ("parse", "text"): lambda v: sl.parse(v),
        ("parse", "box"): lambda v: sl.parse(EASY, box=v),
        ("parse", "rules"): lambda v: sl.parse(EASY, rules=v),
        ("compare", "puzzles"): lambda v: sl.compare(v, backends=["norvig"], **quiet),
        ("compare", "backends"): lambda v: sl.compare("hardest", backends=v, **quiet),
        **{("compare", key): (lambda v, key=key: sl.compare("hardest", backends=["norvig"],
                                                            **{key: v}, **quiet))
           for key in ("timeout", "repeat", "jobs", "limit", "sample", "seed", "ratings",
                       "warm", "certify")},
        ("compare", "progress"): lambda v: sl.compare("hardest", backends=["norvig"],
                                                      progress=v),
    }
    return calls[function, argument]


# (function, argument): {wrong value's name: the exception}; a value left out is accepted
NOT_TEXT = {"list": TypeError, "None": TypeError, "bytes": TypeError, "int": TypeError,
            "float": TypeError, "bool": TypeError, "dict": TypeError, "nan": TypeError,
            "negative": TypeError, "zero": TypeError}
COUNT = {"list": TypeError, "None": TypeError, "bytes": TypeError, "float": TypeError,
         "bool": TypeError, "dict": TypeError, "empty": TypeError, "nan": TypeError,
         "negative": UsageError, "zero": UsageError}
SECONDS = {"list": TypeError, "bytes": TypeError, "bool": TypeError, "dict": TypeError,
           "empty": TypeError, "nan": UsageError, "negative": UsageError}
FLAG = {**NOT_TEXT, "empty": TypeError, "bool": None}
CASES = {
    ("solve", "puzzle"): {**NOT_TEXT, "empty": PuzzleError, "dict": PuzzleError},
    ("solve", "backend"): {**NOT_TEXT, "empty": BackendError},
    ("solve", "limit"): {**COUNT, "None": None},
    ("solve", "timeout"): SECONDS,
    ("count", "puzzle"): {**NOT_TEXT, "empty": PuzzleError, "dict": PuzzleError},
    ("count", "backend"): {**NOT_TEXT, "empty": BackendError},
    ("count", "timeout"): SECONDS,
    ("count", "grids"): {**COUNT, "zero": None},  # none listed: the count alone
    ("solve_many", "puzzles"): {**NOT_TEXT, "empty": TypeError},
    ("solve_many", "backend"): {**NOT_TEXT, "empty": BackendError},
    ("solve_many", "limit"): COUNT,
    ("load", "name"): {**NOT_TEXT, "empty": PuzzleError},
    ("rate", "puzzle"): {**NOT_TEXT, "empty": PuzzleError, "dict": PuzzleError},
    ("rate", "timeout"): SECONDS,
    ("open_run", "folder"): {**NOT_TEXT, "empty": UsageError},
    ("certify", "puzzle"): {**NOT_TEXT, "empty": PuzzleError, "dict": PuzzleError},
    ("certify", "folder"): {**NOT_TEXT, "None": None, "empty": UsageError},
    ("verify", "path"): {**NOT_TEXT, "empty": UsageError},
    ("setter", "puzzle"): {**NOT_TEXT, "empty": PuzzleError, "dict": PuzzleError},
    ("setter", "timeout"): SECONDS,
    ("setter", "grade_timeout"): SECONDS,
    ("setter", "candidates"): FLAG,
    ("setter", "redundancy"): FLAG,
    ("setter", "grade"): FLAG,
    ("parse", "text"): {**NOT_TEXT, "empty": PuzzleError},
    ("parse", "box"): {**NOT_TEXT, "None": None, "empty": UsageError},  # as --box
    ("parse", "rules"): {"None": TypeError, "bytes": TypeError, "int": TypeError,
                         "float": TypeError, "bool": TypeError, "empty": None,  # no rule
                         "nan": TypeError, "negative": TypeError, "zero": TypeError,
                         "list": TypeError},  # [1]: a list, but of no rules
    ("compare", "puzzles"): {**NOT_TEXT, "empty": PuzzleError},
    ("compare", "backends"): {**NOT_TEXT, "empty": UsageError},
    ("compare", "timeout"): SECONDS,
    ("compare", "repeat"): COUNT,
    ("compare", "jobs"): {**COUNT, "None": None},
    ("compare", "limit"): COUNT,
    ("compare", "sample"): {**COUNT, "None": None},
    ("compare", "seed"): {**COUNT, "zero": None},  # 0 or more, as --seed
    ("compare", "ratings"): {**NOT_TEXT, "None": None, "dict": None, "empty": UsageError},
    ("compare", "warm"): FLAG,
    ("compare", "progress"): FLAG,
    ("compare", "certify"): {**NOT_TEXT, "None": None, "empty": UsageError},
}
REFUSED = [(function, argument, wrong, error) for (function, argument), refusals in
           CASES.items() for wrong, error in refusals.items() if error is not None]


@pytest.mark.parametrize(("function", "argument", "wrong", "error"), REFUSED,
                         ids=[f"{f}-{a}-{w}" for f, a, w, _ in REFUSED])
def test_a_wrong_argument_is_refused_at_the_door(function, argument, wrong, error):
    with pytest.raises(error) as raised:
        call(function, argument)(WRONG[wrong])
    assert not isinstance(raised.value, AttributeError)
    if error is TypeError:  # the function, the argument, and the type it was given
        message = str(raised.value)
        where = f"sl.{function}"
        assert message.startswith(f"{where}: "), message
        assert argument in message, message
    else:
        assert isinstance(raised.value, InputError)  # a ValueError with an exit code


def test_every_public_name_is_walked():
    functions = {name for name in sl.__all__ if inspect.isfunction(getattr(sl, name))}
    walked = {function for function, _ in CASES}
    assert functions - {"datasets"} <= walked  # datasets() takes no argument
    for function in functions - {"datasets"}:
        parameters = set(inspect.signature(getattr(sl, function)).parameters)
        assert parameters == {a for f, a in CASES if f == function}, function
    with pytest.raises(TypeError):
        sl.datasets(1)


def test_the_message_names_the_argument_and_what_it_takes():
    with pytest.raises(TypeError, match=r"^sl.solve: puzzle must be a Puzzle, a puzzle "
                                        r"string or a JSON puzzle \(a dict\), not list$"):
        sl.solve([1])
    with pytest.raises(TypeError, match=r"^sl.compare: puzzles\[1\] must be a Puzzle, a "
                                        r"puzzle string or a JSON puzzle \(a dict\), "
                                        r"not NoneType$"):
        sl.compare([EASY, None], backends=["norvig"], progress=False)
    with pytest.raises(TypeError, match="^sl.solve: backend must be a backend spec string"):
        sl.solve(EASY, backend=["norvig"])
    with pytest.raises(UsageError, match="sample must be 1 or more, not 0"):
        sl.compare("hardest", backends=["norvig"], sample=0, progress=False)


def test_an_unknown_backend_or_dataset_is_a_value_error():
    with pytest.raises(BackendError):
        sl.solve(EASY, backend="no-such-engine")
    with pytest.raises(BackendError):
        sl.compare("hardest", backends=["norvig", "no-such-engine"], progress=False)
    with pytest.raises(PuzzleError):
        sl.compare("no-such-set", backends=["norvig"], progress=False)


def test_every_solution_of_an_empty_grid_is_refused_at_once_as_the_cli_refuses_it(
        monkeypatch):
    """limit=None with no timeout on the empty 9x9 would list 6.67e21 grids: refused with
    Knuth's estimate, as `solve --count`, before any engine runs (an engine asked here
    fails the test at once rather than listing for ever); a timeout gives the lower
    bound instead."""
    from sudokulab.backends import backend_class

    with monkeypatch.context() as patched:
        patched.setattr(backend_class(DEFAULT), "solve",
                        lambda *args, **kwargs: pytest.fail("an engine was asked to list"))
        for limit in (None, 2**40):  # a limit past any engine's integers is every solution
            with pytest.raises(UsageError, match=r"^sl.solve: every solution would be listed "
                                                 r"and kept, about 6\.\de\+21"):
                sl.solve("." * 81, limit=limit)
        # the 6x6's 28,200,960 grids would take about 10 GB kept in a Result (they were
        # listed until memory ran out): refused too, sl.count named
        with pytest.raises(UsageError, match=r"about 2\.\de\+07 grids.*sl.count"):
            sl.solve("." * 36, limit=None)
    assert sl.solve("." * 16, limit=None).count == 288  # the 4x4s: listed
    bounded = sl.solve("." * 81, limit=None, timeout=0.2)
    assert bounded.status is sl.Status.TIMEOUT and not bounded.exact


def test_a_position_given_as_a_puzzle_is_named_as_one():
    """Before: "wrong length: 116 cells" for a HoDoKu library line."""
    line = (Path(__file__).parent / "data" / "positions" / "library_line.txt").read_text()
    with pytest.raises(PuzzleError, match="^sl.solve: puzzle is a pencil-mark position"):
        sl.solve(line)
    with pytest.raises(PuzzleError, match="wrong length"):  # a plain bad puzzle: as before
        sl.solve("123")


def test_nothing_compared_is_never_an_agreement():
    with pytest.raises(UsageError, match="no puzzles"):
        sl.compare([], backends=["norvig"], progress=False)
    with pytest.raises(UsageError, match="names no backend"):
        sl.compare("hardest", backends=[], progress=False)
    with pytest.raises(UsageError, match="names no backend"):
        sl.compare("hardest", backends=" ", progress=False)
    # every result a stall: no backend answered, so nobody agreed on anything
    with pytest.raises(NothingCompared, match="human:upto=naked single: no answer on any "
                                              "puzzle \\(stalled 1\\)"):
        sl.compare([HARD], backends=["human:upto=naked single"], jobs=1, progress=False)


def test_timeout_zero_means_no_limit_as_on_the_command_line():
    assert sl.solve(HARD, backend="norvig", timeout=0).status == sl.Status.UNIQUE
    assert sl.solve(HARD, backend="norvig", timeout=math.inf).status == sl.Status.UNIQUE
    assert sl.rate(EASY, timeout=0) is not None


def test_a_timeout_too_large_for_a_float_is_no_limit_as_on_the_command_line():
    from sudokulab.errors import time_limit

    huge = 10**400  # float() overflows: an OverflowError traceback, before
    assert sl.solve(HARD, backend="norvig", timeout=huge).status == sl.Status.UNIQUE
    assert sl.rate(HARD, timeout=huge) is not None
    assert time_limit(huge) is None and time_limit(1e300) is None and time_limit(5) == 5.0


def test_sl_solve_and_sudokulab_solve_default_to_one_backend(capsys):
    assert DEFAULT == "norvig"
    assert inspect.signature(sl.solve).parameters["backend"].default == DEFAULT
    assert main(["solve", EASY]) == 0  # the headline names the backend that ran
    assert f"[{DEFAULT}, " in capsys.readouterr().out.splitlines()[0]


def test_a_plain_script_gets_the_type_error_not_an_attribute_error(tmp_path):
    script = tmp_path / "lab_types.py"
    script.write_text("import sudokulab as sl\n"
                      "try:\n    sl.solve([1])\nexcept TypeError as error:\n    print(error)\n"
                      "sl.compare(None)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.stdout == ("sl.solve: puzzle must be a Puzzle, a puzzle string or a JSON "
                           "puzzle (a dict), not list\n")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "TypeError: sl.compare: puzzles must be a dataset name or a list of Puzzles or "
        "puzzle strings, not NoneType")
    assert "AttributeError" not in done.stderr


@pytest.mark.parametrize("keywords, said", [
    ({"box": (3, "a")}, "box must be (rows, cols), two whole numbers"),
    ({"box": (True, True)}, "box must be (rows, cols), two whole numbers"),
    ({"rules": [5]}, "rules must hold rules (sudokulab.rules) or their names, not int"),
])
def test_parse_names_a_wrong_type_inside_box_or_rules(keywords, said):
    with pytest.raises(TypeError, match=rf"^sl.parse: {re.escape(said)}"):
        sl.parse(EASY, **keywords)


def test_parse_takes_the_command_lines_forms_of_box_and_rules():
    # docs/api.md: each keyword means what the command line's option of the same name means
    line = "." * 36
    assert sl.parse(line, box="3x2").box == (3, 2) == sl.parse(line, box=(3, 2)).box
    both = (R.Diagonal(), R.AntiKnight())
    assert sl.parse(EASY, rules="diagonal,anti-knight").rules == both
    assert sl.parse(EASY, rules=["diagonal", R.AntiKnight()]).rules == both
    assert sl.parse(EASY, rules="miracle").rules == R.MIRACLE
    with pytest.raises(UsageError, match=r"^sl.parse: box '3by3': expected rows x columns"):
        sl.parse(EASY, box="3by3")
    with pytest.raises(UsageError, match="unknown rule 'diagonals'"):
        sl.parse(EASY, rules="diagonals")


@pytest.mark.parametrize("engine", ["mzn", "asp", "native", "sat"])
def test_a_limit_past_any_engines_integers_asks_for_every_solution(engine):
    from sudokulab.backends import make_backend

    if not make_backend(engine).ready().ok:
        pytest.skip(f"{engine} is not installed here")
    for limit in (2**31, 2**63, 10**30):  # an engine error before (exit 5 on the CLI)
        assert sl.solve(HARD, backend=engine, limit=limit).status == sl.Status.UNIQUE


def test_a_bad_value_is_said_of_the_apis_argument_however_it_is_spelled(tmp_path):
    from sudokulab.errors import UsageError

    for box in ((0, 0), "0x0"):  # a PuzzleError without the sl.parse: prefix, for the tuple
        with pytest.raises(UsageError, match=r"^sl.parse: box 0x0: "):
            sl.parse(HARD, box=box)
    afile = tmp_path / "a.txt"
    afile.write_text("")
    with pytest.raises(UsageError, match=r"^sl.compare: certify .* is a file"):  # not --certify
        sl.compare([HARD], backends=["norvig"], certify=afile, progress=False)


def test_a_json_puzzle_nested_past_the_recursion_limit_is_a_puzzle_error():
    """json raises RecursionError there: the API says bad JSON, as for any other."""
    deep = '{"box": [3, 3], "givens": ' + "[" * 20_000 + "]" * 20_000 + "}"
    with pytest.raises(PuzzleError, match="nesting too deep"):
        sl.parse(deep)
