"""The mzn backend and sudokulab/models/mzn/sudoku.mzn: the model alone under `minizinc`, the
data it reads, the backend's answers cross-checked with norvig, its statistics."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.formats.text import from_json, to_json
from sudokulab.models import mzn
from sudokulab.puzzle import empty
from sudokulab.result import Status

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
TOP95 = datasets.load("top95")


def minizinc_alone(tmp_path, puzzle, *flags) -> list[tuple[int, ...]]:
    """The grids `minizinc` prints for `sudokulab export --to mzn`, with no Python between."""
    model = tmp_path / "puzzle.mzn"
    subprocess.run([sys.executable, "-m", "sudokulab", "export", "--to", "mzn", "--out",
                    str(model), "-"], input=to_json(puzzle), text=True, check=True,
                   capture_output=True)
    out = subprocess.run(["minizinc", *flags, str(model)], text=True, check=True,
                         capture_output=True).stdout
    return [tuple(int(x) for x in block.split()) for block in out.split("----------")
            if block.strip() and "==========" not in block]


def test_available_names_minizinc_and_gecode():
    ready = make_backend("mzn").available()
    assert ready.ok and "MiniZinc 2." in ready.version and "Gecode" in ready.version


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="no minizinc executable")
@pytest.mark.parametrize("name", ["killer", "sandwich", "kropki-negative", "arrow", "renban"])
def test_the_exported_model_runs_with_minizinc_alone(tmp_path, name):
    puzzle = from_json(json.dumps(VARIANTS[name]))
    grids = minizinc_alone(tmp_path, puzzle, "--all-solutions")
    assert grids == list(make_backend("norvig").solve(puzzle, limit=None).solutions)


def test_the_dzn_gives_every_part_of_the_data_the_model_declares():
    text = mzn.to_dzn(from_json(json.dumps(VARIANTS["sandwich"])))
    declared = {line.split(":")[1].split(";")[0].strip() for line in
                mzn.model_text().splitlines()
                if line.startswith(("int:", "array[", "set of CELL:"))
                and "var" not in line}
    assigned = {line.split(" = ")[0] for line in text.splitlines() if " = " in line}
    assert declared == assigned


def test_answers_agree_with_norvig_on_top95():
    mzn_backend, norvig = make_backend("mzn"), make_backend("norvig")
    for puzzle in TOP95[:10]:
        result = mzn_backend.solve(puzzle)
        assert result.status is Status.UNIQUE
        assert result.solutions == norvig.solve(puzzle).solutions


def test_statistics_are_gecodes_own_words():
    result = make_backend("mzn").solve(TOP95[0])
    assert {"nodes", "failures", "propagations"} <= set(result.stats)
    assert result.stats["nodes"] >= 1


def test_describe_names_the_model_file_and_its_predicates():
    text = make_backend("mzn").describe(empty(9))
    assert "sudoku.mzn" in text and "predicates" in text and "units 27" in text


def test_solving_shows_no_warning_about_debians_gecode_library(recwarn):
    from minizinc.error import MiniZincWarning

    make_backend("mzn").solve(TOP95[0])
    assert not [w for w in recwarn if issubclass(w.category, MiniZincWarning)]


def test_other_minizinc_warnings_still_show(recwarn):
    import warnings

    from minizinc.error import MiniZincWarning

    from sudokulab.backends.mzn import quiet_gecode_library

    with quiet_gecode_library():
        for message in ('included file "count.mzn" overrides a global constraint file',
                        "model inconsistency: unbounded variable"):
            warnings.warn(message, MiniZincWarning, stacklevel=1)
    assert [str(w.message) for w in recwarn] == ["model inconsistency: unbounded variable"]


@pytest.fixture
def python_hears_ctrl_c():
    """Python's own SIGINT handler for the test, even where the suite runs with SIGINT
    ignored (a background job, nohup): the backend listens for Ctrl-C only under it."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_minizinc_ended_by_the_same_ctrl_c_is_an_interruption_not_an_error(python_hears_ctrl_c):
    # A terminal's Ctrl-C reaches MiniZinc too (same process group). When it ends first,
    # the package raises on its exit before the backend's cancel lands: the run is then
    # stopped by Ctrl-C, not broken.
    import signal

    from sudokulab.backends.mzn import MznBackend

    async def minizinc_dies_of_it():
        signal.raise_signal(signal.SIGINT)  # its handler has run when this returns
        raise RuntimeError("MiniZinc stopped with a non-zero exit code")

    assert MznBackend._run(minizinc_dies_of_it(), []) is True
    with pytest.raises(RuntimeError, match="non-zero"):  # without Ctrl-C, a real error
        MznBackend._run(_fails(), [])


async def _fails():
    """A MiniZinc run that fails on its own."""
    raise RuntimeError("MiniZinc stopped with a non-zero exit code")


def test_solves_where_an_event_loop_runs_already(no_loop_running_yet):
    # a notebook, or async code: the backend's own loop cannot run in that thread
    import asyncio

    async def in_a_notebook():
        return make_backend("mzn").solve(empty(4), limit=None)

    result = asyncio.run(in_a_notebook())
    assert (result.status, result.count, result.exact) == (Status.MULTIPLE, 288, True)


def test_ctrl_c_while_the_loop_runs_in_its_own_thread_stops_it(python_hears_ctrl_c,
                                                              no_loop_running_yet):
    import asyncio
    import signal
    import threading

    from sudokulab.backends.mzn import run_loop

    stopped = []

    async def outer():
        # as a notebook's kernel (asyncio.run put its own handler in the fixture's place)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        loop = asyncio.new_event_loop()
        forever = loop.create_task(asyncio.sleep(3600))
        main = threading.main_thread().ident  # a real SIGINT: it wakes a waiting join()
        threading.Timer(0.2, signal.pthread_kill, (main, signal.SIGINT)).start()
        try:
            with pytest.raises(KeyboardInterrupt):
                run_loop(loop, forever, lambda: (stopped.append(1),
                                                 loop.call_soon_threadsafe(forever.cancel)))
        finally:
            loop.close()
        return forever.cancelled()

    assert asyncio.run(outer()) is True
    assert stopped == [1]
