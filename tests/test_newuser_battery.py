"""Cases a new user's pass found after issue 53's fixes (session 23): each held now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import LONG_COUNT

import sudokulab as sl
from sudokulab.cli import main
from sudokulab.errors import Exit, PuzzleError, UnsupportedRule, UsageError

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def variant(name: str, tmp_path: Path) -> Path:
    """The variant test set's puzzle of one rule type, as a JSON file."""
    found = next(v for v in VARIANTS if v.get("name") == name) if isinstance(VARIANTS, list) \
        else VARIANTS[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(found.get("puzzle", found)))
    return path


def last_rule(path: Path, capsys) -> str:
    """The number of the file's puzzle's last rule (model --list-rules)."""
    assert main(["model", "--file", str(path), "--list-rules"]) == 0
    return capsys.readouterr().out.splitlines()[-1].split()[0]


def test_model_exits_5_when_no_engine_asked_shows_the_rule(tmp_path, capsys):
    path = variant("thermometer", tmp_path)
    rule = last_rule(path, capsys)
    assert main(["model", "--file", str(path), "--show-rule", rule, "--backends",
                 "human"]) == Exit.ENGINE
    assert "none of human has a piece" in capsys.readouterr().err
    assert main(["model", "--file", str(path), "--show-rule", rule, "--backends",
                 "human,sat"]) == 0


def test_model_backends_with_options_say_to_leave_them_out(tmp_path, capsys):
    path = variant("thermometer", tmp_path)
    rule = last_rule(path, capsys)
    assert main(["model", "--file", str(path), "--show-rule", rule, "--backends",
                 "smt:model=int"]) == Exit.INPUT
    assert "leave the options out of --backends smt:model=int" in capsys.readouterr().err


def test_ladder_names_each_refused_puzzle_with_its_own_reason(capsys):
    from sudokulab.commands.ladder import _said

    report = {"excluded": {}, "levels": [{"level": "human:singles", "wrong": [],
                                          "unsupported": {9: "cannot express thermometer",
                                                          10: "cannot express arrow"}}]}
    assert _said({"var.jsonl": report}) == [Exit.ENGINE]
    err = capsys.readouterr().err.splitlines()
    assert err == ["sudokulab: human:singles cannot take puzzle 9 of var.jsonl: cannot "
                   "express thermometer",
                   "sudokulab: human:singles cannot take puzzle 10 of var.jsonl: cannot "
                   "express arrow"]


def test_mzn_says_no_solution_without_a_python_warning(capfd):
    # two 1s in the first row: flattening finds the inconsistency
    assert main(["solve", "11" + "." * 79, "-b", "mzn", "--format", "line"]) == 1
    assert "Warning" not in capfd.readouterr().err


def test_the_api_refuses_what_grade_refuses_and_says_what_it_takes(tmp_path):
    with pytest.raises(UnsupportedRule):
        sl.rate(sl.parse(variant("thermometer", tmp_path).read_text()))
    with pytest.raises(PuzzleError, match="a rating is a unique puzzle's"):
        sl.rate("." * 81)
    with pytest.raises(TypeError, match="takes no argument"):
        sl.datasets("bogus")
    with pytest.raises(UsageError, match="give one puzzle as"):
        sl.compare(EASY, backends=["norvig"])


def test_an_answer_stopped_by_sigterm_says_sigterm():
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "sudokulab", "solve", LONG_COUNT, "--count", "-b", "norvig",
         "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)  # started and counting: LONG_COUNT's count takes hours
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate()
    assert process.returncode == 143, err
    assert json.loads(out)["message"].startswith("interrupted (SIGTERM): ")
