"""One meaning per option (issue 53): an option name means the same in every command, every
--timeout reads 0 as no limit, an option the others leave without effect is refused, every
--help lists Ctrl-C's and SIGTERM's exit codes, and docs/commands.md is the parser's."""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
from pathlib import Path

import pytest

from sudokulab.cli import main
from sudokulab.commands import answers

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY4 = "1.3.3..2.1..4.2."


def commands_doc():
    """scripts/commands_doc.py as a module."""
    spec = importlib.util.spec_from_file_location("commands_doc",
                                                  ROOT / "scripts" / "commands_doc.py")
    doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(doc)
    return doc


def test_the_commands_page_is_the_parsers():
    assert (ROOT / "docs" / "commands.md").read_text(encoding="utf-8") == \
        commands_doc().page(), "run: .venv/bin/python scripts/commands_doc.py"


# --- the same name, the same option -------------------------------------------------------

# (option, what differs): why. Each one the walk finds and this does not justify fails.
EXCEPTIONS = {
    ("--format", "choices"): "each command has its own outputs; a name shared by two means "
                             "the same (pretty: for people, json, csv, tsv, line)",
    ("--format", "default"): "pretty where there is one; generate writes line (puzzles for "
                             "other programs), ladder its table",
    ("--timeout", "default"): "no limit for solve (one puzzle, the user waits), 60 s for the "
                              "human steps, 10 s a level or a design; compare's is the run's "
                              "(10 s, or what --resume finds)",
    ("--backend", "default"): "norvig in all; solve and model keep None until the cli's "
                              "refuse_unused, to tell a -b given from the default",
    ("--backends", "spellings"): "compare takes -b for its engines (it has no --backend); "
                                 "model's -b is its one engine",
    ("--box", "default"): "generate makes 9x9 unless told; the others take the squarest "
                          "shape of the puzzle read",
    ("--input-format", "default"): "compare's None is 'not given', for --resume (then auto)",
    ("--jobs", "default"): "generate shows the cores it uses; compare's None is the cores "
                           "too, ladder's is 1 (each level's own timing)",
    ("--seed", "default"): "compare's None is 'not given', for --resume (then 0)",
    ("--out", "spellings"): "export keeps --output, its old name",
    ("--count", "action"): "generate's hidden --count is the old spelling of --number, kept "
                           "with a warning that names --number",
    ("--count", "type"): "the same hidden old spelling",
    ("--count", "default"): "the same hidden old spelling",
}


def signature(action: argparse.Action) -> dict[str, object]:
    """What makes two options one: their type, choices, action, default and spellings."""
    return {"type": getattr(action.type, "__name__", action.type),
            "choices": tuple(action.choices) if action.choices else None,
            "action": type(action).__name__, "default": repr(action.default),
            "spellings": tuple(sorted(action.option_strings))}


def options_by_name() -> dict[str, dict[str, argparse.Action]]:
    """Each option's main spelling → {command: its action}, hidden options included."""
    found: dict[str, dict[str, argparse.Action]] = {}
    for command, parser in commands_doc().parsers().items():
        for action in parser._actions:
            if action.option_strings and "--help" not in action.option_strings:
                found.setdefault(action.option_strings[0], {})[command] = action
    return found


def test_an_option_in_several_commands_is_one_option():
    unjustified = []
    for option, actions in options_by_name().items():
        for field in ("type", "choices", "action", "default", "spellings"):
            seen = {repr(signature(a)[field]): c for c, a in actions.items()}
            if len(seen) > 1 and (option, field) not in EXCEPTIONS:
                unjustified.append(f"{option} {field}: {seen}")
    assert not unjustified, "\n".join(unjustified)


def test_every_exception_is_still_needed():
    found = options_by_name()
    for option, field in EXCEPTIONS:
        values = {repr(signature(a)[field]) for a in found.get(option, {}).values()}
        assert len(values) > 1, f"{option} {field} is the same everywhere now: drop it"


def test_a_short_spelling_means_one_option():
    meanings: dict[str, set[str]] = {}
    for option, actions in options_by_name().items():
        for action in actions.values():
            for short in (s for s in action.option_strings if not s.startswith("--")):
                meanings.setdefault(short, set()).add(option)
    assert {s: m for s, m in meanings.items() if len(m) > 1} == \
        {"-b": {"--backend", "--backends"}}  # EXCEPTIONS["--backends", "spellings"]


# --- --timeout: 0 is no limit everywhere ---------------------------------------------------

def test_every_timeout_is_the_shared_type():
    from sudokulab.commands.inputs import timeout_seconds

    types = {c: a.type for c, a in options_by_name()["--timeout"].items()}
    assert set(types) >= {"solve", "compare", "explain", "hint", "grade", "ladder"}
    assert all(t is timeout_seconds for t in types.values()), types


@pytest.mark.parametrize("text, value", [("0", None), ("inf", None), ("2.5", 2.5)])
def test_timeout_zero_is_no_limit(text, value):
    from sudokulab.commands.inputs import timeout_seconds

    assert timeout_seconds(text) == value


@pytest.mark.parametrize("command", ["solve", "compare", "explain", "ladder"])
@pytest.mark.parametrize("text", ["-1", "nan", "soon"])
def test_a_bad_timeout_is_a_usage_error_naming_it(capsys, command, text):
    assert main([command, "--timeout", text]) == 2
    assert "argument --timeout/-t:" in capsys.readouterr().err


def test_compare_timeout_zero_is_no_limit_not_the_default(monkeypatch):
    from sudokulab.commands import compare
    from sudokulab.harness import compare as harness

    seen = []
    monkeypatch.setattr(harness, "compare", lambda settings: seen.append(settings.timeout))
    monkeypatch.setattr(compare, "show", lambda outcome: 0)
    monkeypatch.setattr(compare, "need", lambda *a: None)
    for words in (["-t", "0"], [], ["-t", "3"]):
        assert main(["compare", "--dataset", "top95", *words]) == 0
    assert seen == [None, 10.0, 3.0]  # the service's settings: None no limit, 10 the default


# --- --rule is a rule name; model's numbered rule is --show-rule ---------------------------

def test_rule_is_a_name_in_model_too(capsys):
    assert main(["model", PUZZLE, "--rule", "1", "-b", "sat"]) == 2
    assert "--show-rule 1" in capsys.readouterr().err
    assert main(["model", PUZZLE, "--show-rule", "1", "--backends", "norvig"]) == 0
    assert "rule 1: row 1" in capsys.readouterr().out


# --- export: asp is the ASP program, lp the LP file ----------------------------------------

def test_export_lp_is_the_lp_file_and_asp_the_program(capsys):
    assert main(["export", PUZZLE, "--to", "lp"]) == 0
    assert "0-1 program" in capsys.readouterr().out
    assert main(["export", PUZZLE, "--to", "asp"]) == 0
    assert "answer set program" in capsys.readouterr().out
    assert main(["export", PUZZLE, "--to", "milp-lp"]) == 2


def test_export_help_names_every_format():
    from sudokulab.commands import export

    to = next(a for a in commands_doc().parsers()["export"]._actions if a.dest == "to")
    assert all(f"  {name} " in export.DESCRIPTION for name in to.choices)


def test_export_of_a_rule_the_model_cannot_express_is_5_as_in_solve(capsys):
    killer = [PUZZLE, "--cage", "r1c1,r1c2=10"]
    assert main(["solve", *killer, "-b", "smt:model=bitvec", "--format", "line"]) == 5
    assert main(["export", *killer, "--to", "smt2", "--model", "bitvec"]) == 5
    assert "cage" in capsys.readouterr().err


# --- no option ignored without a word ------------------------------------------------------

@pytest.mark.parametrize("words, says", [
    (["model", PUZZLE, "--encoding", "minimal"], "--encoding"),  # norvig builds no CNF
    (["model", PUZZLE, "--list-rules", "-b", "sat"], "--backend"),
    (["model", PUZZLE, "--backends", "sat"], "--backends"),
    (["solve", PUZZLE, "--count-with", "sharpsat", "-b", "norvig", "--count"], "-b norvig"),
    (["solve", PUZZLE, "--count-with", "enumeration"], "--count"),
    (["solve", PUZZLE, "--count", "--limit", "3"], "--limit"),
    (["solve", PUZZLE, "--stats", "--format", "line"], "--stats"),
    (["solve", PUZZLE, "--trace", ""], "--trace"),
    (["solve", PUZZLE, "--timeline", ""], "--timeline"),
    (["solve", "--file", ""], "argument --file"),
    (["export", PUZZLE, "--to", "asp", "--out", ""], "--out"),
    (["grade", PUZZLE, "--plot", ""], "--plot"),
    (["show", PUZZLE, "--after", "norvig", "--format", "line"], "--after"),
    (["explain", "--list", PUZZLE], "PUZZLE"),
    (["hint", "--list", "--upto", "x"], "--upto"),
    (["generate", "--grade"], "--grade"),
    (["ladder", "--merge", "x.json", "--levels", "sat"], "--levels"),
    (["compare", "--cite", "--backends", "sat"], "--backends"),
    (["compare", "--cite", "-t", "0"], "--timeout"),
    (["compare", "--dataset", ""], "argument --dataset"),
])
def test_an_option_without_effect_is_refused(capsys, words, says):
    assert main(words) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1, err


def test_model_encoding_applies_to_the_sat_model(capsys):
    assert main(["model", PUZZLE, "-b", "sat", "--encoding", "minimal"]) == 0
    assert "encoding minimal" in capsys.readouterr().out


# --- every command's help lists Ctrl-C's and SIGTERM's codes -------------------------------

def test_every_help_lists_130_and_143():
    for command, parser in commands_doc().parsers().items():
        codes = parser.epilog.split("exit codes", 1)[1]
        assert "  130 " in codes and "  143 " in codes, command


def test_solve_help_lists_the_json_fields_solve_writes(capsys):
    # held-out pass 8: the help named 'times', which the JSON does not have
    assert main(["solve", "4" + "." * 15, "--format", "json"]) in (0, 6)
    fields = list(json.loads(capsys.readouterr().out.splitlines()[0]))
    listed = re.search(r"JSON Lines\): (.*?)\n  fpuzzles", answers.FORMATS, re.S)
    assert listed and [f.strip() for f in " ".join(listed[1].split()).split(",")] == fields


@pytest.mark.parametrize("command", ["hint", "explain", "grade"])
def test_the_list_of_techniques_comes_as_json_when_asked(command, capsys):
    # held-out pass 8: --list --format json printed the plain table
    assert main([command, "--list", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    named = {t["name"]: t for t in listed["techniques"]}
    assert named["X-Wing"]["by_default"] and not named["Squirmbag"]["by_default"]
    # the words of the page's /api/techniques (docs/web.md); the rating was 'se' here
    assert set(named["X-Wing"]) == {"name", "tier", "level", "score", "rating", "uniqueness",
                                    "by_default"} and named["X-Wing"]["rating"] == 3.2
    assert {"code": "0300", "name": "X-Wing", "level": "Hard", "score": 140,
            "lab": "X-Wing"} in listed["hodoku"]
