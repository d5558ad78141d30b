"""One error hierarchy (issue 30): every exception a user can meet is errors.py's, with
its exit code on the class, and `sudokulab` turns each into that code and one line."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import sudokulab
from sudokulab import cli, errors
from sudokulab.formats.text import parse
from sudokulab.result import Result, Status


def _modules() -> list:
    """Every module of the package that imports here (one whose extra is missing cannot
    raise anything)."""
    found = []
    for info in pkgutil.walk_packages(sudokulab.__path__, "sudokulab."):
        if info.name.endswith("__main__"):
            continue
        try:
            found.append(importlib.import_module(info.name))
        except ImportError:
            continue
    return found


def _exceptions_defined_in(module) -> list[type]:
    """The exception classes a module defines (not the ones it imports or re-exports)."""
    return [value for value in vars(module).values()
            if inspect.isclass(value) and issubclass(value, BaseException)
            and value.__module__ == module.__name__]


def _errors_classes() -> list[type]:
    """The exception classes errors.py defines."""
    return _exceptions_defined_in(errors)


def test_no_exception_class_lives_outside_errors_but_control_flow():
    outside = {f"{cls.__module__}.{cls.__qualname__}"
               for module in _modules() if module is not errors
               for cls in _exceptions_defined_in(module)}
    assert outside - set(errors.CONTROL_FLOW) == set()


def test_the_control_flow_list_names_classes_that_exist():
    for name in errors.CONTROL_FLOW:
        module, cls = name.rsplit(".", 1)
        assert issubclass(getattr(importlib.import_module(module), cls), BaseException), name


@pytest.mark.parametrize("cls", _errors_classes(), ids=lambda cls: cls.__name__)
def test_each_class_is_an_error_or_a_stop_with_a_documented_exit_code(cls):
    assert issubclass(cls, errors.SudokulabError | errors.Interruption)
    assert cls.exit_code in errors.MEANINGS


def test_the_exit_code_follows_the_meaning():
    assert errors.UsageError.exit_code == errors.BackendError.exit_code == errors.Exit.INPUT
    assert errors.GridNotFound.exit_code == errors.ImageError.exit_code == errors.Exit.INPUT
    assert errors.Unavailable.exit_code == errors.BackendFailed.exit_code == errors.Exit.ENGINE
    assert errors.ProofError.exit_code == errors.Exit.DISAGREE
    assert errors.Terminated.exit_code == errors.Exit.TERMINATED
    assert errors.RunInterrupted.exit_code == errors.Exit.INTERRUPTED
    assert errors.InputError.http_status == 400 and errors.NotAvailable.http_status == 503


def test_old_names_still_catch_as_before():
    """Callers that caught ValueError, RuntimeError or KeyboardInterrupt still do."""
    assert issubclass(errors.BackendError, ValueError)
    assert issubclass(errors.GridNotFound, ValueError)
    assert issubclass(errors.UnsupportedRule, ValueError)
    assert issubclass(errors.FontsMissing, RuntimeError)
    for stop in (errors.Interrupted, errors.RunInterrupted, errors.Terminated,
                 errors.ClusterLost):
        assert issubclass(stop, KeyboardInterrupt)


def _instance(cls: type) -> BaseException:
    """An instance of an errors.py class, with a message that holds a line break."""
    if cls is errors.WrongSize:
        return cls(9, 4)
    if issubclass(cls, errors.RunInterrupted):
        return cls({})
    if issubclass(cls, errors.Interrupted):
        return cls(Result(Status.TIMEOUT, message="interrupted"))
    return cls("what went wrong\nand where")


def _raising(monkeypatch, error: BaseException) -> None:
    """`sudokulab backends` raises `error`."""
    from sudokulab.commands import backends

    def run(args):
        raise error

    monkeypatch.setattr(backends, "run", run)


@pytest.mark.parametrize("cls", [cls for cls in _errors_classes()
                                 if issubclass(cls, errors.SudokulabError)
                                 and cls is not errors.ReaderGone],  # quiet: below
                         ids=lambda cls: cls.__name__)
def test_main_turns_each_error_into_its_exit_code_and_one_line(cls, monkeypatch, capsys):
    _raising(monkeypatch, _instance(cls))
    assert cli.main(["backends"]) == cls.exit_code
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("sudokulab: error: ")


def test_a_reader_gone_ends_main_quietly_with_the_code_judged_before(monkeypatch, capsys):
    _raising(monkeypatch, errors.ReaderGone(errors.Exit.TIMEOUT))
    assert cli.main(["backends"]) == errors.Exit.TIMEOUT
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("cls", [errors.Interrupted, errors.RunInterrupted,
                                 errors.Terminated], ids=lambda cls: cls.__name__)
def test_main_turns_each_stop_into_its_exit_code(cls, monkeypatch, capsys):
    _raising(monkeypatch, _instance(cls))
    assert cli.main(["backends"]) == cls.exit_code
    word = "terminated" if cls is errors.Terminated else "interrupted"
    assert capsys.readouterr().err == f"sudokulab: {word}\n"


class _PressedWhileConverting:
    """A ctypes argument whose conversion is where the signal lands (as in a z3 call)."""

    def __init__(self, stop: type[BaseException]) -> None:
        self.stop = stop

    def from_param(self, value):
        raise self.stop


@pytest.mark.parametrize("stop", [KeyboardInterrupt, errors.Terminated])
def test_a_signal_inside_a_ctypes_call_is_raised_again_as_itself(stop):
    import ctypes
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    labs = libc.labs
    labs.argtypes = [_PressedWhileConverting(stop)]
    with pytest.raises(ctypes.ArgumentError):  # what ctypes makes of it alone
        labs(-3)
    with pytest.raises(stop), errors.stops_through_c():
        labs(-3)


def test_other_ctypes_argument_errors_are_left_as_they_are():
    import ctypes
    import ctypes.util

    labs = ctypes.CDLL(ctypes.util.find_library("c")).labs
    labs.argtypes = [ctypes.c_long]
    with pytest.raises(ctypes.ArgumentError, match="argument 1"), errors.stops_through_c():
        labs("not a number")


PIGEONS = """
import os, signal, subprocess, sys
from pysat.solvers import Solver
from sudokulab.errors import stops_through_c

holes = 12  # holes + 1 pigeons in `holes` holes: no model, and long to refute
var = {(p, h): p * holes + h + 1 for p in range(holes + 1) for h in range(holes)}
clauses = [[var[p, h] for h in range(holes)] for p in range(holes + 1)]
clauses += [[-var[p, h], -var[q, h]] for h in range(holes) for p in range(holes + 1)
            for q in range(p)]
signal.signal(signal.SIGINT, signal.default_int_handler)
solver = Solver(name="cadical195", bootstrap_with=clauses)
# Ctrl-C from another process: a thread of this one would wait for the GIL the solve holds
subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -INT {os.getpid()}"])
try:
    if sys.argv[1] == "alone":
        solver.solve()
    else:
        with stops_through_c():
            solver.solve()
except BaseException as stop:
    print(type(stop).__name__, isinstance(stop, KeyboardInterrupt), stop)
"""


@pytest.mark.parametrize(("how", "raised"), [
    ("alone", "error False Caught keyboard interrupt"),  # PySAT's own error
    ("translated", "KeyboardInterrupt True")])
def test_ctrl_c_in_pysats_plain_solve_is_raised_as_itself(how, raised):
    import subprocess
    import sys

    pytest.importorskip("pysat.solvers")
    # a process each: PySAT leaves a solve it jumped out of unable to solve again
    # the timeout only ends a hang (a Ctrl-C that missed the solve): no measure of speed
    shown = subprocess.run([sys.executable, "-c", PIGEONS, how], capture_output=True,
                           text=True, check=True, timeout=600)
    assert shown.stdout.strip() == raised, shown.stderr


class _SignalledWhileFinalised:
    """An object whose finaliser is where SIGTERM lands (as z3's __del__ calls C)."""

    def __del__(self):
        import os
        import signal

        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(100_000):  # bytecodes, so the handler runs in here
            pass


def test_sigterm_in_a_finaliser_stops_the_run_once_the_finaliser_is_done():
    import time

    stopped_in = []
    with errors.sigterm_stops():
        try:
            obj = _SignalledWhileFinalised()
            del obj  # a stop raised in __del__ would be printed and lost
            stopped_in.append("nowhere")
            for _ in range(500):
                time.sleep(0.01)
        except errors.Terminated:
            stopped_in[-1] = "the run"
    assert stopped_in == ["the run"]


def _import_cut_short(stop: type[KeyboardInterrupt]) -> ImportError:
    """What a pybind11 extension (OR-Tools, pandas) raises when a signal lands in its
    import: ImportError('initialization failed') caused by the signal (seen on cpsat)."""
    try:
        raise ImportError("initialization failed") from stop()
    except ImportError as error:
        return error


@pytest.mark.parametrize("stop", [KeyboardInterrupt, errors.Terminated])
def test_main_answers_an_import_a_signal_cut_short_as_the_signal(stop, monkeypatch, capsys):
    _raising(monkeypatch, _import_cut_short(stop))
    code = errors.Exit.TERMINATED if stop is errors.Terminated else errors.Exit.INTERRUPTED
    assert cli.main(["backends"]) == code
    assert capsys.readouterr().err in ("sudokulab: interrupted\n", "sudokulab: terminated\n")


def test_main_leaves_other_import_errors_as_they_are(monkeypatch):
    _raising(monkeypatch, ImportError("no module named nowhere"))
    with pytest.raises(ImportError, match="nowhere"):
        cli.main(["backends"])


def test_a_solve_whose_engine_import_a_signal_cut_short_is_interrupted(monkeypatch):
    from sudokulab.backends import make_backend

    backend = make_backend("norvig")

    def cut_short(*_):
        raise _import_cut_short(KeyboardInterrupt)

    monkeypatch.setattr(backend, "_solve", cut_short)
    with pytest.raises(errors.Interrupted) as stop:
        backend.solve(parse("." * 81))
    assert stop.value.result.status is Status.TIMEOUT and not stop.value.result.solutions
    monkeypatch.setattr(backend, "_solve", lambda *_: 1 / 0)  # a plain failure stays one
    assert backend.solve(parse("." * 81)).status is Status.ERROR


def test_every_error_class_has_one_name():
    """An error is raised and caught by the name errors.py gives it: no module renames one
    (`BackendError = errors.BackendError`), as 17 did once."""
    import re
    from pathlib import Path

    import sudokulab

    classes = {name for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, BaseException)}
    alias = re.compile(r"^(\w+) = (?:errors\.)?(\w+)\b", re.M)
    renamed = [f"{path.name}: {first} = {second}"
               for path in Path(sudokulab.__file__).parent.rglob("*.py")
               for first, second in alias.findall(path.read_text(encoding="utf-8"))
               if second in classes and path.name != "errors.py"]
    assert classes and not renamed, renamed


def test_a_signal_inside_a_whole_block_stops_the_run_only_at_its_end():
    import signal

    done = []
    with pytest.raises(KeyboardInterrupt):
        with errors.whole():
            signal.raise_signal(signal.SIGINT)
            done.append("the rest of the block")
        done.append("after the block")
    assert done == ["the rest of the block"]
