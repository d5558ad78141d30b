"""compare tells the truth: exit codes by precedence, options checked, plots and tables
that show wrong answers and timeouts as what they are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab.cli import main
from sudokulab.formats.text import format_line
from sudokulab.harness import compare, report
from sudokulab.harness.crosscheck import CrossCheck
from sudokulab.harness.records import Record, cores
from sudokulab.harness.stats import figures
from sudokulab.harness.testing import write_plugin
from sudokulab.result import Result, Status

NO_SOLUTION = "12....3....3...."  # a 4x4 whose givens parse but leave no solution
HARDEST = [format_line(p) for p in datasets.load("hardest")]


@pytest.fixture
def test_backends(tmp_path_factory, monkeypatch):
    """The misbehaving test backends, registered here and in spawned workers."""
    folder = write_plugin(tmp_path_factory.mktemp("plugins"))
    monkeypatch.syspath_prepend(str(folder))
    paths = [str(folder), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))


def puzzles(tmp_path, lines):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def run(tmp_path, *arguments):
    """compare over the arguments, into tmp_path/run; the exit code."""
    return main(["compare", *arguments, "--out", str(tmp_path / "run")])


# --- exit codes ----------------------------------------------------------------------

def test_no_solution_exits_1(tmp_path):
    assert run(tmp_path, "--file", puzzles(tmp_path, [NO_SOLUTION]), "-b", "norvig") == 1


def test_a_timeout_exits_3(test_backends, tmp_path):
    assert run(tmp_path, "--file", puzzles(tmp_path, HARDEST[:1]), "-b", "test-hang,norvig",
               "--timeout", "0.5") == 3


def test_an_unsupported_puzzle_is_an_engine_failure(test_backends, tmp_path):
    assert run(tmp_path, "--dataset", "hardest", "-b", "test-noop,norvig") == 5


def test_a_disagreement_outranks_an_engine_failure(test_backends, tmp_path):
    assert run(tmp_path, "--dataset", "hardest", "-b", "test-noop,test-wrong:mode=none") == 4


def test_a_named_backend_that_is_unavailable_is_an_engine_failure(tmp_path, monkeypatch):
    monkeypatch.setattr(compare, "backend_class", unavailable_prolog(compare.backend_class))
    assert run(tmp_path, "--dataset", "hardest", "-b", "norvig,prolog") == 5


def unavailable_prolog(backend_class):
    """backend_class, except that prolog says it cannot run here."""
    from sudokulab.backends.base import Availability

    def lookup(name):
        cls = backend_class(name)
        if name != "prolog":
            return cls
        return type("Absent", (cls,), {"available": classmethod(
            lambda c: Availability(False, reason="not here"))})
    return lookup


@pytest.mark.parametrize("findings, statuses, skipped, explicit, consensus, code", [
    ([], [Status.UNIQUE], {}, True, {"unique"}, 0),
    ([], [Status.NONE, Status.UNIQUE], {}, True, {"none", "unique"}, 1),
    ([], [Status.TIMEOUT, Status.NONE], {}, True, {"none"}, 3),
    ([], [Status.TIMEOUT, Status.ERROR], {}, True, {"unique"}, 5),
    ([], [Status.UNIQUE], {"prolog": "unavailable: no swipl"}, True, {"unique"}, 5),
    ([], [Status.UNIQUE], {"prolog": "unavailable: no swipl"}, False, {"unique"}, 0),
    ([], [Status.UNIQUE], {"shy": "workers die before they are ready"}, False, {"unique"}, 5),
    (["a finding"], [Status.ERROR, Status.TIMEOUT], {}, True, {"none"}, 4),
])
def test_exit_codes_follow_their_precedence(findings, statuses, skipped, explicit,
                                            consensus, code):
    records = [Record("b", i, Result(s), 0.1) for i, s in enumerate(statuses)]
    assert compare.exit_code(findings, records, skipped, explicit, consensus) == code


def test_the_exit_codes_are_in_the_help():
    from sudokulab.cli import build_parser

    text = build_parser("compare")._subparsers._group_actions[0].choices["compare"].format_help()
    assert "4    disagreement" in text and "5    engine failure" in text
    assert "143  terminated" in text and "6  " not in text  # compare never says "several"
    assert "0 or inf:" in " ".join(text.split())  # --timeout: 0 or inf means none


# --- options -------------------------------------------------------------------------

@pytest.mark.parametrize("timeout", ["nan", "-1"])
def test_a_timeout_that_is_no_number_of_seconds_is_one_line_and_exit_2(timeout, tmp_path,
                                                                        capsys):
    assert run(tmp_path, "--dataset", "hardest", "-b", "norvig", "--timeout", timeout) == 2
    error = capsys.readouterr().err
    assert error.startswith("sudokulab: error: argument --timeout/-t") and \
        error.count("\n") == 1
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("timeout", ["inf", "0"])
def test_an_infinite_or_zero_timeout_is_none(timeout, tmp_path):
    assert run(tmp_path, "--dataset", "hardest", "-b", "norvig,smt",
               "--timeout", timeout) == 0
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert meta["settings"]["timeout"] is None


def test_out_naming_a_file_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "run").write_text("not a folder")
    assert run(tmp_path, "--dataset", "hardest", "-b", "norvig") == 2
    error = capsys.readouterr().err
    assert "is a file" in error and error.count("\n") == 1


def test_out_that_cannot_be_made_is_one_line_exit_2_and_leaves_nothing(tmp_path, capsys):
    (tmp_path / "file").write_text("a file, where a folder would have to be")
    out = tmp_path / "file" / "run"
    assert main(["compare", "--dataset", "hardest", "-b", "norvig", "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("sudokulab: error: --out") and error.count("\n") == 1
    assert (tmp_path / "file").read_text().startswith("a file")


def test_more_jobs_than_cores_is_warned(tmp_path, capsys):
    jobs = cores() + 1
    assert run(tmp_path, "--file", puzzles(tmp_path, HARDEST[:2]), "-b", "norvig",
               "--jobs", str(jobs)) == 0
    assert f"--jobs {jobs} is more than the {cores()} usable cores" in capsys.readouterr().err


def test_a_sample_larger_than_the_set_says_it_took_all(tmp_path, capsys):
    assert run(tmp_path, "--dataset", "hardest", "-b", "norvig", "--sample", "100") == 0
    captured = capsys.readouterr()
    assert "--sample 100 of 11 puzzles: running all 11" in captured.err
    assert "sample 100 asked: all 11 puzzles taken" in captured.out
    assert "sample 100 asked" in (tmp_path / "run" / "summary.md").read_text()


def test_a_sample_parses_only_the_puzzles_drawn(tmp_path, monkeypatch):
    parsed = []
    parse_many = compare.parse_many

    def counting(text, *args):
        parsed.append(len(text.splitlines()))
        return parse_many(text, *args)

    monkeypatch.setattr(compare, "parse_many", counting)
    monkeypatch.setattr(datasets, "parse_many", counting)
    chosen, references = compare.select(compare.Settings(dataset="17_clue", sample=5))
    assert len(chosen) == 5 and set(references) == set(chosen)
    assert sum(parsed) == 10  # five puzzles and their five solutions, not 49,158 of each
    # the same draw as parsing everything first would give
    assert [format_line(p) for p in chosen.values()] == \
        [datasets.lines("17_clue")[i] for i in chosen]


# --- plots and tables ----------------------------------------------------------------

@pytest.fixture
def plots():
    """sudokulab.harness.plots, imported by the tests that draw: matplotlib takes every
    pytest-xdist worker a second or more to import at collection."""
    from sudokulab.harness import plots

    return plots


def records_of(backend, statuses_times):
    return [Record(backend, i, Result(s), t) for i, (s, t) in enumerate(statuses_times)]


def test_wrong_answers_are_not_drawn_as_answers(plots):
    runs = {"a": records_of("a", [(Status.UNIQUE, 0.1), (Status.UNIQUE, 0.2),
                                  (Status.UNIQUE, 0.3)]),
            "b": records_of("b", [(Status.UNIQUE, 0.1), (Status.UNIQUE, 0.2),
                                  (Status.UNIQUE, 0.3)])}
    wrong = {("b", 1), ("b", 2)}
    assert plots.right_times("b", runs["b"], wrong) == [0.1]
    assert plots.right_times("a", runs["a"], wrong) == [0.1, 0.2, 0.3]
    kinds = plots.points("a", "b", runs, wrong, None)
    assert len(kinds["both answered right"]) == 1 and len(kinds["a wrong answer"]) == 2


def test_timeouts_are_drawn_at_the_timeout_not_at_the_kill(plots):
    runs = {"a": records_of("a", [(Status.UNIQUE, 0.1), (Status.TIMEOUT, 4.7)]),
            "b": records_of("b", [(Status.UNIQUE, 0.2), (Status.UNIQUE, 0.3)])}
    kinds = plots.points("a", "b", runs, set(), 2.0)
    assert kinds["a timeout (drawn at the timeout)"] == [(2.0, 0.3)]


def test_plot_titles_say_limit_timeout_and_sample(tmp_path, monkeypatch, plots):
    titles = []

    def keep(kind):
        def draw(*args, **kwargs):
            titles.append(args[-1])
            return tmp_path / f"{kind}.png"
        return draw

    monkeypatch.setattr(plots, "cactus", keep("cactus"))
    monkeypatch.setattr(plots, "scatter", keep("scatter"))
    assert run(tmp_path, "--dataset", "top95", "-b", "norvig,sat", "--sample", "3",
               "--timeout", "7", "--limit", "1") == 0
    assert len(titles) == 2
    for title in titles:
        assert "limit 1" in title and "timeout 7 s" in title and "sample 3 (seed 0)" in title


def test_a_backend_with_no_answer_has_no_times_and_no_rate():
    unsupported = figures("u", records_of("u", [(Status.UNSUPPORTED, 1e-6)] * 3))
    assert (unsupported.rate, unsupported.median, unsupported.p90, unsupported.max) == \
        (None, None, None, None)
    mixed = figures("m", records_of("m", [(Status.UNSUPPORTED, 1e-6), (Status.UNIQUE, 0.5)]))
    assert mixed.rate == 2.0  # the refused puzzle is not a puzzle solved in no time
    summary = report.Report("t", "s", [unsupported], CrossCheck([]), {}, False, [], {})
    row = report.timing_rows(summary)[0]
    assert row["median ms"] is None and row["puzzles/s"] is None
    line = next(line for line in report.terminal(summary, Path("x")).splitlines()
                if line.startswith("u "))
    assert line.count("—") == 6  # puzzles/s, median, p90, max, CPU median, peak memory


def test_each_rate_is_read_against_native_when_it_ran():
    # native 4 puzzles in 0.004 s (1000/s), sat in 0.2 s (20/s): sat runs at 0.02 of it
    fast = figures("native", records_of("native", [(Status.UNIQUE, 0.001)] * 4))
    slow = figures("sat", records_of("sat", [(Status.UNIQUE, 0.05)] * 4))
    none = figures("u", records_of("u", [(Status.UNSUPPORTED, 1e-6)] * 4))
    rows = report.timing_rows(report.Report("t", "s", [fast, slow, none], CrossCheck([]), {},
                                            False, [], {}))
    assert [row["of native"] for row in rows] == [1.0, 0.02, None]
    alone = report.timing_rows(report.Report("t", "s", [slow], CrossCheck([]), {}, False,
                                             [], {}))
    assert "of native" not in alone[0]


def test_the_limit_chart_labels_each_engine_with_its_fraction_of_native(tmp_path):
    from sudokulab.harness import plots

    figure = plots.limit_figure({"native": 1000.0, "sat": 20.0, "mzn": 2.5}, "t")
    labels = sorted(t.get_text() for t in figure.axes[0].texts)
    assert labels == ["1,000/s, the limit", "2/s, 0.0025 of native", "20/s, 0.02 of native"]
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["mzn", "sat", "native"]
    assert plots.limit({"native": 10.0, "sat": 1.0}, tmp_path / "l.png", "t").stat().st_size


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_full_standard_output_is_one_line_not_a_traceback(tmp_path):
    command = [sys.executable, "-m", "sudokulab", "compare", "--dataset", "hardest",
               "-b", "norvig", "--out", str(tmp_path / "run")]
    with open("/dev/full", "w") as full:
        child = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True)
    assert child.returncode == 2
    assert "Traceback" not in child.stderr
    errors = [line for line in child.stderr.splitlines() if "error" in line]
    assert errors == ["sudokulab: error: cannot write standard output: No space left on device"]
    assert (tmp_path / "run" / "summary.md").exists()  # the reports were written first


def test_jobs_with_a_cluster_is_said_not_to_apply(capsys):
    """The cluster's threads set the parallelism: no warning about cores, one about --jobs."""
    from sudokulab.harness.compare import Settings, _jobs

    _jobs(Settings(cluster="local:1", jobs=cores() + 1), 10)
    said = capsys.readouterr().err
    assert f"--jobs {cores() + 1} does not apply to a cluster" in said
    assert "usable cores" not in said
