"""What runs without each optional package: every engine package hidden in turn, each
extra's packages hidden, and all of them at once (what `pip install sudokulab` without
extras gives). The packages are hidden in a child process by a sitecustomize that puts
None in sys.modules for them: importing one raises ImportError, and find_spec says it is
not installed, as for a package that never was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from sudokulab.backends import backend_class, extras, names
from sudokulab.check import is_solution
from sudokulab.errors import Exit
from sudokulab.formats.text import parse

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
SITECUSTOMIZE = '''import os, sys
for name in filter(None, os.environ.get("SUDOKULAB_HIDE", "").split(",")):
    sys.modules[name] = None  # as if it were not installed
'''
BACKENDS = tuple(names())  # the registry's, plugins included


def engines() -> list[tuple[str, str, str]]:
    """Each engine package the registry's backends declare (`needs`), the backend that
    needs it, and one that needs another package and has it here (to solve with)."""
    needs = {name: [need.module for need in backend_class(name).needs] for name in BACKENDS}
    rows = []
    for name, modules in needs.items():
        for module in modules:
            other = next((o for o, theirs in needs.items() if theirs and module not in theirs
                          and backend_class(o).missing() is None), "norvig")
            rows.append((module, name, other))
    return rows


# janus-swi is no `needs` of prolog's: its ready() probes it in a child process, since
# janus must not load before SWI-Prolog's set-up
ENGINES = [*engines(), ("janus_swi", "prolog", "sat")]
CORE = ("norvig", "sat", "smt", "dlx", "human")  # what `pip install sudokulab` alone solves
# packages of the extras other parts of sudokulab use (backends mzn, milp, cpmpy, solve
# --count-with, make model): hidden too when nothing but the core may be there
OTHER_EXTRAS = ("minizinc", "highspy", "cpmpy", "pychoco", "pumpkin_solver", "exact",
                "pyganak", "sklearn")


@pytest.fixture(scope="module")
def hider(tmp_path_factory) -> Path:
    """A folder holding the sitecustomize that hides $SUDOKULAB_HIDE's packages."""
    folder = tmp_path_factory.mktemp("hide")
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return folder


def sudokulab(hider: Path, hidden: list[str], *argv: str, cwd: Path | None = None
              ) -> subprocess.CompletedProcess:
    """`sudokulab ARGV` in a child Python that cannot import the `hidden` packages."""
    paths = [str(hider), str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "SUDOKULAB_HIDE": ",".join(hidden),
           "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    return subprocess.run([sys.executable, "-m", "sudokulab", *argv], capture_output=True,
                          text=True, env=env, cwd=cwd or ROOT, timeout=300)


def solves(hider: Path, hidden: list[str], backend: str) -> None:
    """`sudokulab solve -b BACKEND` with the `hidden` packages hidden prints a solution."""
    solved = sudokulab(hider, hidden, "solve", "-b", backend, "--format", "line", PUZZLE)
    assert solved.returncode == Exit.OK, (backend, solved.stderr)
    grid = [int(digit) for digit in solved.stdout.strip()]
    assert is_solution(parse(PUZZLE), grid), (backend, solved.stdout)


def table(stdout: str) -> dict[str, str]:
    """`sudokulab backends`' rows by backend name (the table before the options)."""
    rows = stdout.split("\n\n")[0].splitlines()[2:]  # after the header and its rule
    return {line.split()[0]: line for line in rows if line.strip()}


@pytest.fixture(scope="module")
def here() -> dict[str, bool]:
    """Which of this suite's backends run in this process, nothing hidden."""
    return {name: backend_class(name).available().ok for name in BACKENDS}


@pytest.mark.parametrize(("package", "backend", "other"), ENGINES,
                         ids=[package for package, _, _ in ENGINES])
def test_each_engine_hidden_leaves_the_others_working(hider, here, package, backend, other):
    listed = sudokulab(hider, [package], "backends")
    assert listed.returncode == Exit.OK, listed.stderr
    rows = table(listed.stdout)
    line = rows[backend]
    assert line.split()[1] == "no", line
    assert package in line or package.replace("_", "-") in line, line  # the reason
    assert "(fix: " in line, line  # and how to fix it
    for name in BACKENDS:
        if name != backend:
            assert rows[name].split()[1] == ("yes" if here[name] else "no"), rows[name]
    solves(hider, [package], other)


@pytest.mark.parametrize(("package", "backend"), [(p, b) for p, b, _ in engines()],
                         ids=[package for package, _, _ in engines()])
def test_a_backend_whose_package_is_hidden_is_refused_in_one_line(hider, package, backend):
    refused = sudokulab(hider, [package], "solve", "-b", backend, PUZZLE)
    assert refused.returncode == Exit.ENGINE
    assert refused.stderr.startswith(f"sudokulab: error: backend {backend} is not available: "
                                     f"{package} is not installed; ")
    assert len(refused.stderr.splitlines()) == 1 and not refused.stdout


@pytest.mark.parametrize(("hidden", "argv", "extra"), [
    ("fastapi", ["serve", "--port", "0"], "web"),
    ("uvicorn", ["serve", "--port", "0"], "web"),
    ("cv2", ["read", "photo.png"], "vision"),
    ("numpy", ["read", "photo.png"], "vision"),
    ("matplotlib", ["compare", "--dataset", "top95", "--sample", "1"], "plots"),
    ("matplotlib", ["grade", "--plot", "levels.png", PUZZLE], "plots"),
    ("distributed", ["compare", "--dataset", "top95", "--sample", "1", "--cluster", "local:1"],
     "cluster"),
])
def test_a_command_needing_a_missing_extra_names_it(hider, tmp_path, hidden, argv, extra):
    ran = sudokulab(hider, [hidden], *argv, cwd=tmp_path)
    assert ran.returncode == Exit.ENGINE
    command = argv[0] + (" --plot" if "--plot" in argv else "") \
        + (" --cluster" if "--cluster" in argv else "")
    assert ran.stderr == (f"sudokulab: error: {command} needs the {extra} extra ({hidden} is "
                          f"not installed): pip install 'sudokulab[{extra}]'\n")
    assert not ran.stdout and not list(tmp_path.iterdir())  # stopped before any work


def test_without_any_extra_the_core_backends_solve(hider, here):
    hidden = [m for modules in extras.MODULES.values() for m in modules]
    hidden += [*OTHER_EXTRAS, "janus_swi"]  # SWI-Prolog's janus is built by `make prolog`
    hidden += [package for package, backend, _ in ENGINES if backend not in CORE]
    listed = sudokulab(hider, hidden, "backends")
    assert listed.returncode == Exit.OK, listed.stderr
    rows = table(listed.stdout)
    for name in BACKENDS:  # each one an extra brings says which
        fixes = [need.fix for need in backend_class(name).needs if "sudokulab[" in need.fix]
        if name not in CORE and fixes:
            assert rows[name].split()[1] == "no", rows[name]
            assert fixes[0] in rows[name], rows[name]
    for name in CORE:
        assert rows[name].split()[1] == "yes", rows[name]
        solves(hider, hidden, name)


def test_pyproject_has_each_extra_and_all_of_them_in_all():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]
    assert set(extras.MODULES) <= set(optional)
    (everything,) = optional["all"]
    inside = everything.partition("[")[2].rstrip("]").split(",")
    assert set(extras.MODULES) <= set(inside) <= set(optional)
    core = {requirement.split(">")[0].split("=")[0].split("[")[0]
            for requirement in project["dependencies"]}
    for extra in extras.MODULES:
        for requirement in optional[extra]:
            assert requirement.split(">")[0].split("[")[0] not in core, requirement


def test_rules_named_without_the_engine_are_the_encodings_rules():
    from sudokulab.models import cnf, cpsat, smt

    assert backend_class("sat").supported_rules == cnf.RULES
    assert backend_class("cpsat").supported_rules == cpsat.RULES
    smt_backend = backend_class("smt")
    assert smt_backend.supported_rules == smt.model_class("bool").rules
    for model in smt.MODELS:
        assert smt_backend(model=model).supported_rules == smt.model_class(model).rules
