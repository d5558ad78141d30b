"""The Python API (issue 35): `import sudokulab as sl` stays light, solves and compares as
the command line does, and the notebook of the manual runs."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import sudokulab as sl
from sudokulab.cli import main
from sudokulab.errors import PuzzleError, Unavailable, UsageError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs/notebooks/comparing-paradigms.ipynb"
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_import_sudokulab_loads_neither_the_api_nor_its_heavy_packages():
    code = ("import sys, sudokulab; "
            "print(sorted(m for m in ('sudokulab.api', 'numpy', 'matplotlib', 'scipy', "
            "'sudokulab.harness.comparison') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_every_public_name_has_a_docstring_and_type_hints():
    for name in sl.__all__:
        if name.startswith("__"):
            continue
        thing = getattr(sl, name)
        assert inspect.getdoc(thing), name
        if inspect.isfunction(thing):
            hints = inspect.signature(thing)
            assert hints.return_annotation is not inspect.Signature.empty, name
            assert all(p.annotation is not inspect.Parameter.empty
                       for p in hints.parameters.values()), name
    for name, method in inspect.getmembers(sl.Comparison, inspect.isfunction):
        if not name.startswith("_"):
            assert inspect.getdoc(method), name


def test_parse_solve_load_and_datasets():
    puzzle = sl.parse(HARD)
    assert puzzle.clues == 17
    result = sl.solve(puzzle, backend="norvig", limit=2)
    assert result.status == sl.Status.UNIQUE and result.count == 1
    assert sl.solve(HARD, backend="sat", limit=1).solutions == result.solutions
    assert "top1465" in sl.datasets() and len(sl.load("top95")) == 95
    with pytest.raises(PuzzleError):
        sl.parse("12")
    with pytest.raises(PuzzleError):
        sl.load("no-such-set")


def planted(tmp_path: Path, name: str, delay: float) -> str:
    """A backend spec that sleeps `delay` seconds per solve, then solves (test-count)."""
    return f"test-count:log={tmp_path / name},delay={delay}"


def test_compare_finds_a_planted_engine_twice_as_slow(test_backends, tmp_path):
    fast, slow = planted(tmp_path, "fast", 0.05), planted(tmp_path, "slow", 0.1)
    result = sl.compare("easy50", backends=[fast, slow], sample=12, repeat=3, jobs=2,
                        timeout=None, progress=False)
    assert len(result.records) == 24 and not result.check.findings
    for figures in result.figures:
        assert figures.median >= 0.05  # each solve sleeps its delay at least
        assert figures.intervals["median"] is not None
        for name, interval in figures.intervals.items():  # None: no interval (p90 of 12)
            assert interval is None or interval.low <= interval.value <= interval.high, name
        assert figures.spread is not None
    (pair,) = result.pairs()
    assert pair.b == slow and pair.ratio.low > 1 and pair.significant
    assert pair.verdict.endswith("slower")
    text = result.summary()
    assert "Pairwise comparison" in text and "slower" in text and "virtual best" in text


def test_the_cactus_plot_has_the_virtual_best_line():
    result = sl.compare("hardest", backends=["norvig", "dlx"], progress=False, jobs=1)
    labels = [line.get_label() for line in result.cactus().axes[0].get_lines()]
    assert any(label.startswith("virtual best") for label in labels)
    assert sum(label.startswith(("norvig", "dlx")) for label in labels) == 2
    assert not any(label.startswith("virtual best")
                   for label in (line.get_label()
                                 for line in result.cactus(best=False).axes[0].get_lines()))
    assert result.scatter().axes[0].get_xlabel().startswith("norvig")
    with pytest.raises(UsageError):
        result.scatter("norvig", "sat")
    best = result.virtual_best()
    assert set(best.winners) == set(result.puzzles)
    assert best.share("norvig") + best.share("dlx") == pytest.approx(1)


def test_to_pandas_gives_one_row_per_record_or_says_pandas_is_missing(monkeypatch):
    pytest.importorskip("pandas")
    result = sl.compare("hardest", backends=["norvig"], progress=False, jobs=1,
                        ratings={0: 9.0, 1: 1.5})
    frame = result.to_pandas()
    assert len(frame) == 11 and {"backend", "time", "times", "rating", "guesses"} <= set(frame)
    assert frame["rating"].notna().sum() == 2
    import sudokulab.backends.extras

    monkeypatch.setattr(sudokulab.backends.extras, "absent", lambda module: f"{module} is missing")
    with pytest.raises(Unavailable, match=r"pip install 'sudokulab\[pandas\]'"):
        result.to_pandas()


def test_the_command_line_and_the_api_report_the_same_tables(tmp_path, capsys):
    """compare --repeat on a forum list with ratings: every section is there, and the
    API's view of the finished run prints the same tables."""
    lines = [f"{p} ;{r}" for p, r in zip(map(str, sl.load("top95")[:10]),
                                          (9.1, 2.0, 8.5, 3.4, 7.7, 1.2, 6.6, 4.4, 5.5, 8.8))]
    (tmp_path / "forum.txt").write_text("\n".join(lines) + "\n")
    folder = tmp_path / "run"
    assert main(["compare", "--file", str(tmp_path / "forum.txt"), "-b", "norvig,dlx",
                 "--repeat", "2", "--jobs", "1", "--out", str(folder)]) == 0
    printed = capsys.readouterr().out
    summary = (folder / "summary.md").read_text()
    for heading in ("Solver-competition measures", "Pairwise comparison",
                    "Effort against difficulty"):
        assert f"## {heading}" in summary and heading in printed
    assert (folder / "effort.png").exists() and "median 95% CI" in summary
    again = sl.open_run(folder)
    assert again.ratings[0] == 9.1 and len(again.ratings) == 10
    for line in again.summary().splitlines()[2:]:
        assert line in printed


def test_compare_refuses_bad_settings():
    with pytest.raises(UsageError):
        sl.compare("hardest", backends=["norvig"], repeat=0)
    with pytest.raises(UsageError):
        sl.compare("hardest", backends=["norvig"], ratings="people", progress=False)


def test_the_notebook_runs_and_its_page_holds_its_cells(tmp_path):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import export_notebook as export
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    page = NOTEBOOK.with_suffix(".md").read_text(encoding="utf-8")
    assert export.cells_only(page) == export.markdown(export.load(NOTEBOOK))
    notebook = export.execute(export.load(NOTEBOOK), cwd=tmp_path,
                              parameters={"SAMPLE": 6, "REPEAT": 2,
                                          "BACKENDS": ["norvig", "dlx", "sat"], "TIMEOUT": 10})
    shown = export.markdown(notebook, tmp_path / "figures")
    assert "Pairwise comparison" in shown and "virtual best" in shown
    assert len(list((tmp_path / "figures").glob("*.png"))) >= 3  # cactus, scatter, effort
