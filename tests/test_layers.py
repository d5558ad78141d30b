"""The house's layers, read from the code (issue 55): every import counts, those inside
functions included (grimp finds them all), except those under `if TYPE_CHECKING:`, which
never run. A module imports from its own layer or below; the few arrows up are named here,
so a new one fails until someone decides it belongs; no other circle; the top level keeps
the values and the doors; models/ builds models and never searches them."""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")

PACKAGE = Path(__file__).resolve().parent.parent / "sudokulab"
# Lowest first: each layer may import its own and the ones before it. The root package
# (`sudokulab/__init__.py`, the version and the API's lazy door) stands with the values.
LAYERS = (
    ("", "errors", "rules", "layout", "geometry", "cages", "puzzle", "result", "marks",
     "check"),
    ("formats", "models", "datasets"),
    ("human",),
    ("backends",),
    ("certificates", "generate", "harness", "teaching", "vision"),
    ("api", "commands", "web"),
    ("cli", "__main__"),
)
# The arrow up, a decision: `import sudokulab as sl` loads the API on first use of one of
# its names. (Puzzle.parse was a second, and the one circle: the value type read text with
# the formats that make puzzles; sl.parse reads it now.)
UPWARD = {("sudokulab", "sudokulab.api")}
TOP_LEVEL_MODULES = 14
# Calls that search a model: none of them belongs in models/.
SEARCHES = {"Solve", "SolveWithSolutionCallback", "solve", "solve_limited", "check", "run",
            "ground", "CpSolver", "Solver"}


def source(module: str) -> Path:
    """The file of a module of the package."""
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py") if path.with_suffix(".py").exists() else path / "__init__.py"


def typing_only(module: str) -> set[int]:
    """The lines of a module under `if TYPE_CHECKING:`."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source(module).read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            lines |= {n.lineno for sub in node.body for n in ast.walk(sub) if hasattr(n, "lineno")}
    return lines


@cache
def arrows() -> dict[str, set[str]]:
    """Each module of the package to those it imports when it runs."""
    graph = grimp.build_graph("sudokulab", include_external_packages=False)
    out: dict[str, set[str]] = defaultdict(set)
    for module in graph.modules:
        skipped = typing_only(module)
        for imported in graph.find_modules_directly_imported_by(module):
            details = graph.get_import_details(importer=module, imported=imported)
            if any(d["line_number"] not in skipped for d in details):
                out[module].add(imported)
    return out


def layer(module: str) -> int:
    """The layer of a module: its top-level name's."""
    top = module.split(".")[1] if "." in module else ""
    found = [k for k, names in enumerate(LAYERS) if top in names]
    assert found, f"{module} is in no layer: add {top!r} to LAYERS in tests/test_layers.py"
    return found[0]


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_imports_its_own_layer_or_below_but_the_named_arrows():
    up = {(a, b) for a, targets in arrows().items() for b in targets if layer(b) > layer(a)}
    assert up == UPWARD, f"arrows up a layer not named in UPWARD: {sorted(up - UPWARD)}"
    assert len(UPWARD) <= 3


def test_no_circle():
    assert circles(arrows()) == []


def test_circles_are_found_where_they_are():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_top_level_holds_the_values_and_the_doors():
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= TOP_LEVEL_MODULES, modules


def test_models_build_and_never_search():
    for path in sorted((PACKAGE / "models").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = node.func if isinstance(node, ast.Call) else None
            name = getattr(called, "attr", None) or getattr(called, "id", None)
            assert name not in SEARCHES, f"{path}:{node.lineno} searches: {ast.unparse(node)}"
    assert not {b for a, targets in arrows().items() if a.startswith("sudokulab.models")
                for b in targets if b.startswith(("sudokulab.backends", "sudokulab.harness"))}
