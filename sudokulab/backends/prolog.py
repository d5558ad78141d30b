"""SWI-Prolog CLP(FD) through janus-swi: the rules as constraints, then labeling.

The model is sudokulab/prolog/sudoku.pl, a program a teacher can load in plain `swipl`;
this module only finds SWI-Prolog, loads the program once per process and calls it with
the puzzle as data (janus input bindings: no query text is ever built from a puzzle).

Which SWI-Prolog, first found: $SWIPL; the one janus-swi was built against (the stamp
`.janus-swipl` that scripts/install-janus leaves in the venv); the project's own build
in .local/swipl; the first `swipl` on PATH.

SWI_HOME_DIR is set to that installation's home before janus_swi is imported: libswipl
otherwise takes its home from the first `swipl` on PATH, and an older one there makes
Python abort ("incompatible VM-signature", exit 134), which no Python code can catch. So
`available()` first imports janus and loads the program in a subprocess, and this
process imports janus only once that succeeded: `sudokulab backends` never aborts.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Deadline,
    ctrl_c,
    interrupted,
)
from sudokulab.errors import unknown
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status, verdict

PROGRAM = Path(__file__).resolve().parent.parent / "prolog" / "sudoku.pl"
PROJECT_SWIPL = Path(__file__).resolve().parents[2] / ".local" / "swipl" / "bin" / "swipl"
STAMP = Path(sys.prefix) / ".janus-swipl"
MIN_VERSION = 90112  # janus first shipped with SWI-Prolog 9.1.12

STRENGTHS = ("auto", "hybrid", "all_distinct", "all_different")
LABELINGS = ("auto", "ff", "ffc", "leftmost", "min", "max")
ORDERS = ("up", "down")
BRANCHINGS = ("step", "enum", "bisect")

GOAL = "sudoku:sudokulab_solve(Box, Givens, Rules, Options, Grids, Ended, Stats)"
# Ctrl-C: another thread makes the solving thread throw `interrupted`, which sudoku.pl
# catches, keeping the grids found so far (Ended = interrupted).
INTERRUPT = "thread_signal(Thread, throw(interrupted))"
# A signal sent as the query ended is still pending: it fires here, not in the next query.
DRAIN = "catch(sleep(0), interrupted, true)"
AUTO = "sudoku:sudokulab_auto(Rules, Strength, Selection)"

FIX = ("run `make install` (it builds SWI-Prolog >= 9.1.12 into .local/swipl when the "
       "system has none, and janus-swi against it); or install SWI-Prolog yourself "
       "(Ubuntu: sudo add-apt-repository ppa:swi-prolog/stable && sudo apt-get install "
       "swi-prolog-nox; macOS: brew install swi-prolog; others: "
       "https://www.swi-prolog.org/download/stable), then run "
       "`scripts/install-janus .venv/bin/pip $(command -v swipl)`")

# Run in a subprocess before janus is imported here: it may abort the whole interpreter.
PROBE = """
import sys, janus_swi as janus
janus.consult(sys.argv[1])
answer = janus.query_once("sudoku:sudoku_count(2-2, Givens, [], [], Count)", {"Givens": [0] * 16})
sys.exit(0 if answer["Count"] == 288 else 3)
"""


@dataclass(frozen=True)
class Swipl:
    """An SWI-Prolog installation: its executable, home (PLBASE), version, how it was found."""

    path: Path
    home: str
    version: int  # 90209 for 9.2.9
    found_by: str

    @property
    def release(self) -> str:
        """The version as people write it: 9.2.9."""
        return f"{self.version // 10000}.{self.version // 100 % 100}.{self.version % 100}"


class NotAvailable(Exception):
    """SWI-Prolog or janus cannot be used here; the message says why."""


def candidates() -> list[tuple[str, Path]]:
    """Where to look for swipl, in order, each with how it was found."""
    places = []
    built = stamp().get("swipl")
    if os.environ.get("SWIPL"):
        places.append(("$SWIPL", Path(os.environ["SWIPL"])))
    if built:
        places.append((f"the janus stamp {STAMP}", Path(built)))
    places.append(("the project build", PROJECT_SWIPL))
    if shutil.which("swipl"):
        places.append(("PATH", Path(shutil.which("swipl"))))
    return places


def stamp() -> dict[str, str]:
    """What scripts/install-janus recorded about the swipl janus was built against."""
    try:
        lines = STAMP.read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split("=", 1) for line in lines if "=" in line)


def runtime_variables(swipl: Path) -> dict[str, str]:
    """`swipl --dump-runtime-variables` as a dict (PLBASE, PLVERSION, ...)."""
    out = subprocess.run([str(swipl), "--dump-runtime-variables"], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    return dict(re.findall(r'^(\w+)="(.*)";$', out, re.MULTILINE))


@lru_cache(maxsize=1)
def find_swipl() -> Swipl:
    """The SWI-Prolog to use; NotAvailable saying where we looked if there is none."""
    for found_by, path in candidates():
        if not (path.is_file() and os.access(path, os.X_OK)):
            if found_by == "$SWIPL":
                raise NotAvailable(f"$SWIPL is {path}, which is not an executable swipl")
            continue
        try:
            variables = runtime_variables(path)
            home, version = variables["PLBASE"], int(variables["PLVERSION"])
        except (OSError, subprocess.SubprocessError, KeyError, ValueError) as error:
            raise NotAvailable(f"{path} (found by {found_by}) does not run as swipl: "
                               f"{error}") from None
        return Swipl(path, home, version, found_by)
    raise NotAvailable("SWI-Prolog not found ($SWIPL unset, no janus stamp, no "
                       f"{PROJECT_SWIPL}, no swipl on PATH)")


def check_janus(swipl: Swipl) -> str:
    """janus-swi's version once it loads with this swipl; NotAvailable saying why not."""
    if swipl.version < MIN_VERSION:
        raise NotAvailable(f"SWI-Prolog {swipl.release} at {swipl.path} is older than "
                           "9.1.12, the first with janus")
    if importlib.util.find_spec("janus_swi") is None:
        raise NotAvailable(f"janus-swi is not installed in {sys.prefix}; build it with "
                           f"`scripts/install-janus {sys.prefix}/bin/pip {swipl.path}`")
    built = stamp()
    if built.get("home") and not same_dir(built["home"], swipl.home):
        raise NotAvailable(f"janus-swi was built against {built.get('swipl')} "
                           f"(home {built['home']}) but the SWI-Prolog found by "
                           f"{swipl.found_by} is {swipl.path} (home {swipl.home}); set "
                           f"SWIPL={built.get('swipl')} or rebuild janus with "
                           f"`scripts/install-janus {sys.prefix}/bin/pip {swipl.path}`")
    if "janus_swi" not in sys.modules:
        probe(swipl)
    return importlib.metadata.version("janus-swi")


def same_dir(a: str, b: str) -> bool:
    """Whether two paths name the same directory."""
    return os.path.realpath(a) == os.path.realpath(b)


def probe(swipl: Swipl) -> None:
    """Load janus and sudoku.pl in a child Python; NotAvailable if that fails or aborts."""
    env = dict(os.environ, SWI_HOME_DIR=swipl.home)
    try:
        child = subprocess.run([sys.executable, "-c", PROBE, str(PROGRAM)], env=env,
                               capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise NotAvailable("loading janus and sudoku.pl took over 120 s") from None
    if child.returncode == 0:
        return
    last = (child.stderr.strip().splitlines() or ["no message"])[-1]
    if child.returncode in (134, -6):
        raise NotAvailable(f"importing janus_swi with SWI_HOME_DIR={swipl.home} aborted "
                           f"Python (exit {child.returncode}): janus-swi's libswipl does not "
                           f"match SWI-Prolog {swipl.release} (VM signature?): {last}")
    raise NotAvailable(f"janus or sudoku.pl fails to load (exit {child.returncode}): {last}")


@lru_cache(maxsize=1)
def availability() -> Availability:
    """Whether the backend runs here (probed once per process)."""
    try:
        swipl = find_swipl()
        janus_version = check_janus(swipl)
    except NotAvailable as why:
        return Availability(False, reason=str(why), fix=FIX)
    return Availability(True, version=f"SWI-Prolog {swipl.release} ({swipl.path}), "
                                      f"janus-swi {janus_version}")


@lru_cache(maxsize=1)
def janus():
    """janus_swi with sudoku.pl loaded, once per process; NotAvailable if it cannot be."""
    ready = availability()
    if not ready.ok:
        raise NotAvailable(ready.reason)
    os.environ["SWI_HOME_DIR"] = find_swipl().home  # before the import: see the docstring
    import janus_swi

    janus_swi.consult(str(PROGRAM))
    return janus_swi


@lru_cache(maxsize=64)
def prolog_thread(ident: int) -> str:
    """The Prolog thread that janus runs this Python thread's queries on."""
    return janus().query_once("thread_self(Me)")["Me"]


def drain(prolog) -> None:
    """Let an interrupt signalled too late to stop the query fire now, harmlessly."""
    with contextlib.suppress(prolog.PrologError):  # it fired before the catch was set up
        prolog.query_once(DRAIN)


def rule_terms(puzzle: Puzzle) -> list[tuple]:
    """The puzzle's rules as sudoku.pl rule terms (tuples), cells numbered as in geometry."""
    geo = geometry(puzzle.box, puzzle.rules)
    # sudoku.pl makes rows, columns and boxes itself; a rule's units come as terms
    terms: list[tuple] = [("unit", list(unit)) for unit in geo.units
                          if unit.rule is not None and unit.kind != "region"]
    regions = [list(unit) for unit in geo.units if unit.kind == "region"]
    if regions:
        terms.append(("regions", regions))
    # a pair that shares a unit differs already (a king's step along a row): posting it
    # again prunes nothing and costs time (7% more inferences counting the Miracle grids)
    pairs = [(a, b) for a, b in geo.moves if not geo.share_unit(a, b)]
    if pairs:
        terms.append(("differ", pairs))
    for rule in puzzle.rules:
        if isinstance(rule, R.NonConsecutive):
            terms.append(("non_consecutive",))
        elif isinstance(rule, R.Cage):
            terms.append(("cage", geo.indices(rule.cells), rule.total))
        elif isinstance(rule, R.Parity):
            terms.append(("parity", geo.indices(rule.cells),
                          "even" if rule.even else "odd"))
    return terms


def _choose(option: str, value: str, allowed: tuple[str, ...]) -> str:
    """The value if allowed, else ValueError listing the choices."""
    if value not in allowed:
        raise ValueError(unknown(option, value, allowed))
    return value


class PrologBackend(Backend):
    """SWI-Prolog CLP(FD): sudoku.pl posts the rules as constraints, then labels."""

    name = "prolog"
    paradigm = "constraint logic programming: CLP(FD) in SWI-Prolog (janus)"
    supported_rules = R.RULE_TYPES

    def __init__(self, strength: str = "auto", labeling: str = "auto", order: str = "up",
                 branching: str = "step") -> None:
        super().__init__()
        self.strength = _choose("strength", strength, STRENGTHS)
        self.labeling = [_choose("labeling", labeling, LABELINGS),
                         _choose("order", order, ORDERS),
                         _choose("branching", branching, BRANCHINGS)]

    @classmethod
    def available(cls) -> Availability:
        """SWI-Prolog's and janus-swi's versions, or why they cannot run here."""
        return availability()

    def options(self, limit: int | None, deadline: Deadline) -> list[tuple]:
        """The options of sudoku_solutions/7, as tuples."""
        options = [("strength", self.strength), ("labeling", self.labeling),
                   ("limit", "infinite" if limit is None else limit)]
        if deadline.timeout is not None:
            options.append(("time_limit", deadline.left()))
        return options

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """One call of sudokulab_solve/7; Prolog errors come back as ERROR results."""
        try:
            prolog = janus()
        except NotAvailable as why:
            return Result(Status.ERROR, message=f"prolog backend not available: {why}")
        started = time.perf_counter()
        inputs = {"Box": puzzle.box, "Givens": list(puzzle.givens),
                  "Rules": rule_terms(puzzle), "Options": self.options(limit, deadline)}
        thread = prolog_thread(threading.get_ident())
        try:
            with ctrl_c(lambda: prolog.query_once(INTERRUPT, {"Thread": thread})) as key:
                answer = prolog.query_once(GOAL, inputs)
        except prolog.PrologError as error:
            if key.pressed:
                raise interrupted((), limit) from None
            return Result(Status.ERROR, message=f"Prolog: {error}",
                          solve_time=time.perf_counter() - started)
        finally:
            if key.pressed:
                drain(prolog)
        elapsed = time.perf_counter() - started
        if not answer["truth"]:
            return Result(Status.ERROR, message="sudokulab_solve/7 failed", solve_time=elapsed)
        stats = dict(answer["Stats"])
        build = stats.pop("build_time")
        # the build is timed inside Prolog; the rest of the call, janus included, is solving
        times = {"stats": stats, "build_time": build, "solve_time": elapsed - build}
        if key.pressed:
            raise interrupted(answer["Grids"], limit, **times)
        return verdict(answer["Grids"], limit, complete=answer["Ended"] == "search", **times)

    def choices(self, puzzle: Puzzle) -> tuple[str, list[str]]:
        """The strength and labeling options sudoku.pl uses on this puzzle, `auto` resolved."""
        strength, labeling = self.strength, list(self.labeling)
        if "auto" in (strength, labeling[0]):
            auto = janus().query_once(AUTO, {"Rules": rule_terms(puzzle)})
            strength = auto["Strength"] if strength == "auto" else strength
            labeling[0] = auto["Selection"] if labeling[0] == "auto" else labeling[0]
        return strength, labeling

    def describe(self, puzzle: Puzzle) -> str:
        """The goals sudoku.pl runs, and the rule terms it gets beyond rows, columns, boxes."""
        geo = geometry(puzzle.box, puzzle.rules)
        rows, cols = puzzle.box
        try:
            strength, labeling = self.choices(puzzle)
        except NotAvailable:
            strength, labeling = self.strength, self.labeling
        chosen = "auto" in (self.strength, self.labeling[0])
        auto = " (auto: chosen from the rules)" if chosen else ""
        lines = [f"prolog: {PROGRAM.name}: sudoku({rows}-{cols}, Cells, Rules, {strength}), "
                 f"labeling([{', '.join(labeling)}], Cells){auto}",
                 f"  {len(geo.units)} units of {geo.n} cells hold distinct digits"]
        for name, *args in rule_terms(puzzle):
            what = f"{len(args[0])} cells" if args and name != "differ" else ""
            what = f"{len(args[0])} pairs" if name == "differ" else what
            lines.append(f"  {name}({what})" if what else f"  {name}")
        return "\n".join(lines)
