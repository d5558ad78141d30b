"""The fast lane (`make check`, -m "not slow"): what tests/conftest.py marks slow names
tests that exist, and the lane still runs a case of every command and of every engine."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import conftest
import pytest

from sudokulab.backends import names
from sudokulab.commands import COMMANDS

TESTS = Path(__file__).resolve().parent


@cache
def functions(module: str) -> set[str]:
    """The names of the functions a test module defines."""
    tree = ast.parse((TESTS / module).read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


@pytest.fixture(scope="module")
def lane() -> list[str]:
    """The test ids pytest collects for the fast lane from the modules these tests read
    (one collection: each costs a pytest start)."""
    modules = ("test_bad_input.py", "test_contract.py", "test_smt.py")
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not slow",
         "-p", "no:cacheprovider", *(str(TESTS / m) for m in modules)],
        capture_output=True, text=True, cwd=TESTS.parent, check=True).stdout
    return [line for line in listed.splitlines() if "::" in line]


def test_every_module_and_test_marked_slow_exists():
    missing = [module for module in conftest.SLOW if not (TESTS / module).exists()]
    for name in [*conftest.SLOW_TESTS, *conftest.SAMPLED]:
        module, function = name.split("::")
        if function.split("[")[0] not in functions(module):
            missing.append(name)
    assert missing == []


def test_the_fast_lane_keeps_bad_input_of_every_command_and_each_engine_s_variants(lane):
    from test_bad_input import CASES

    kept = {m[1] for t in lane if (m := re.search(r"test_bad_input\[(.*)\]$", t))}
    commands = {case.id: case.values[0].argv[:1] for case in CASES}
    assert {(command,) for command in COMMANDS} <= {commands[id_] for id_ in kept}
    engines = {m[1] for t in lane if (m := re.search(r"test_every_variant_puzzle\[(\w+)-", t))}
    assert set(names()) <= engines
    # ... and only one case of each engine there: the others are left to `make test`
    variants = [t for t in lane if "test_every_variant_puzzle[" in t]
    assert len(variants) == len(engines)


def test_a_test_of_the_slow_list_is_left_out_of_the_fast_lane(lane):
    smt = [t for t in lane if t.startswith("tests/test_smt.py::")]
    assert smt, "test_smt.py keeps quick tests in the fast lane"
    assert not [t for t in smt if "test_miracle_rules_admit_72_grids" in t]
