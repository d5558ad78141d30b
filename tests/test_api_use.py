"""The API works where people use it (issue 52): `sl.compare` from a plain script (no
main guard), as a module and under pytest; a run where every backend failed raises; a
run saved and opened again is the same run; plots draw on the caller's axes; the
records come as a data frame per repeat; a notebook shows a table, a terminal one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import add_to_path

import sudokulab as sl
from sudokulab.backends import backend_class
from sudokulab.backends.base import Availability
from sudokulab.errors import EngineError, NothingCompared, UsageError
from sudokulab.harness.testing import write_plugin

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = '''import sudokulab as sl
r = sl.compare("top95", backends=["norvig", "sat"], sample=10, progress=False)
print(len(r.records))
'''
GUARDED = "if __name__ == '__main__':\n" + "".join(f"    {line}\n"
                                                   for line in SCRIPT.splitlines())
# A backend that builds in the parent (so the run starts) but not in a worker: every
# worker dies before it is ready
DIES_IN_A_WORKER = '''import multiprocessing
from sudokulab.harness.testing import NoopBackend

class Dies(NoopBackend):
    name = "test-dies"

    def __init__(self):
        if multiprocessing.parent_process() is not None:
            raise RuntimeError("no engine in a worker")
'''
RATINGS = {i: float(i % 7) for i in range(95)}  # top95's puzzles, rated anyhow


@pytest.mark.parametrize(("text", "how"), [(SCRIPT, "file"), (GUARDED, "file"),
                                           (SCRIPT, "module")],
                         ids=["plain script", "guarded script", "python -m"])
def test_a_script_compares_with_or_without_a_main_guard(tmp_path, text, how):
    (tmp_path / "lab_script.py").write_text(text)
    target = ["lab_script.py"] if how == "file" else ["-m", "lab_script"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run([sys.executable, *target], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["20"], (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr


def test_a_run_whose_backends_all_crash_raises(test_backends):
    with pytest.raises(NothingCompared, match="test-crash:how=exit: an error on every"):
        sl.compare("hardest", backends=["test-crash:how=exit"], sample=2, jobs=1,
                   progress=False)


def test_a_run_whose_workers_all_die_before_they_are_ready_raises(tmp_path, monkeypatch):
    (tmp_path / "dies_in_a_worker.py").write_text(DIES_IN_A_WORKER)
    add_to_path(monkeypatch, write_plugin(tmp_path, {"test-dies": "dies_in_a_worker:Dies"},
                                          name="dies_in_a_worker"))
    with pytest.raises(EngineError, match="every backend failed.*test-dies: .*no engine"):
        sl.compare("hardest", backends=["test-dies"], sample=2, jobs=1, progress=False)


def test_a_run_of_unavailable_backends_raises(monkeypatch):
    gone = classmethod(lambda cls: Availability(False, reason="hidden by the test"))
    monkeypatch.setattr(backend_class("dlx"), "available", gone)
    with pytest.raises(NothingCompared, match="no backend can run here: dlx: .*hidden"):
        sl.compare("hardest", backends=["dlx"], progress=False)


@pytest.fixture(scope="module")
def run() -> sl.Comparison:
    """norvig and dlx over 6 puzzles of top95, twice each, with ratings."""
    return sl.compare("top95", backends=["norvig", "dlx"], sample=6, repeat=2, jobs=1,
                      ratings=RATINGS, progress=False)


def test_a_saved_run_opens_as_the_same_run(run, tmp_path):
    again = sl.open_run(run.save(tmp_path / "saved"))
    assert again.records == run.records and again.puzzles == run.puzzles
    assert again.summary() == run.summary()
    assert {"meta.json", "runs.jsonl"} <= {p.name for p in (tmp_path / "saved").iterdir()}


def test_a_saved_run_over_a_list_of_puzzles_opens_as_the_same_run(tmp_path):
    listed = sl.compare(sl.load("hardest"), backends=["norvig"], sample=4, seed=3,
                        jobs=1, progress=False)
    assert sorted(listed.puzzles) != list(range(4))  # a sample of the list: its indices
    again = sl.open_run(listed.save(tmp_path / "listed"))
    assert again.records == listed.records and again.puzzles == listed.puzzles
    assert again.summary() == listed.summary()


def test_a_run_is_not_saved_over_another(run, tmp_path):
    run.save(tmp_path / "saved")
    with pytest.raises(UsageError, match="holds a run already"):
        run.save(tmp_path / "saved")


def test_each_plot_draws_on_the_axes_it_is_given(run):
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2)
    assert run.cactus(ax=left) is figure and run.scatter(ax=right) is figure
    assert sum(line.get_label().startswith(("norvig", "dlx")) for line in left.get_lines()) == 2
    assert right.get_xlabel().startswith("norvig") and len(figure.axes) == 2
    assert plt.fignum_exists(figure.number)  # the caller's figure, left open for them
    figure, (one, other) = plt.subplots(1, 2)
    assert run.effort_plot(ax=other) is figure and len(figure.axes) == 2
    assert {text.get_text().split(":")[0] for text in other.get_legend().get_texts()} \
        == {"norvig", "dlx"}
    plt.close("all")


def test_to_pandas_long_has_a_row_per_repeat_with_numbers_as_numbers(run):
    pytest.importorskip("pandas")
    long = run.to_pandas(long=True)
    assert len(long) == 2 * 6 * 2  # backends x puzzles x repeats
    assert {"dataset", "backend", "puzzle", "repeat", "time", "status"} <= set(long)
    assert set(long["repeat"]) == {1, 2} and set(long["dataset"]) == {"top95"}
    for column in ("puzzle", "repeat"):
        assert long[column].dtype.kind == "i", column
    for column in ("time", "rating") + (("cpu",) if "cpu" in long else ()):
        assert long[column].dtype.kind == "f", column
    wide = run.to_pandas()
    assert len(wide) == 2 * 6 and set(wide["dataset"]) == {"top95"}
    assert wide["puzzle"].dtype.kind == "i" and wide["time"].dtype.kind == "f"
    assert wide["rating"].dtype.kind == "f" and wide["guesses"].dtype.kind in "if"


def test_a_notebook_shows_a_table_and_a_terminal_one_line(run):
    shown = repr(run)
    assert "\n" not in shown and len(shown) < 120
    for part in ("top95", "6 puzzles", "norvig, dlx", "repeat 2", "cold"):
        assert part in shown, shown
    html = run._repr_html_()
    assert html.startswith("<div>") and "<table>" in html
    assert "norvig" in html and "dlx" in html and "top95" in html


def test_the_cactus_plots_cpu_time_on_request(tmp_path):
    from sudokulab.errors import UsageError

    result = sl.compare("top95", backends=["norvig", "sat"], sample=4, progress=False)
    figure = result.cactus(tmp_path / "cpu.png", clock="cpu")
    axes = figure.axes[0]
    assert axes.get_xlabel().startswith("CPU time")
    cpu = sorted(r.cpu for r in result.runs["sat"])
    sat_line = next(line for line in axes.get_lines() if line.get_label().startswith("sat"))
    assert list(sat_line.get_xdata()) == cpu  # the CPU times, not the wall times
    assert (tmp_path / "cpu.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(UsageError):
        result.cactus(clock="user")
