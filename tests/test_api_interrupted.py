"""An interrupted `sl.compare` says its figures are partial (issue 53), in the words the
command's partial header uses, and how many puzzles it finished of how many."""

from __future__ import annotations

import pytest

import sudokulab as sl
from sudokulab.cli import main
from sudokulab.errors import CompareInterrupted
from sudokulab.formats.text import format_line
from sudokulab.harness import compare as service


@pytest.fixture
def dlx_stops_after_two(monkeypatch) -> None:
    """Runs stop as Ctrl-C stops them once dlx, the second backend, answered two puzzles
    (norvig, the first, answers all)."""
    real = service.run_backend

    def stopping(spec, todo, options, **kwargs):
        real(spec, todo[:2] if spec == "dlx" else todo, options, **kwargs)
        if spec == "dlx":
            raise KeyboardInterrupt

    monkeypatch.setattr(service, "run_backend", stopping)


def test_an_interrupted_compare_is_marked_partial_as_the_command_marks_it(
        dlx_stops_after_two, tmp_path, capsys):
    puzzles = sl.load("top95")[:4]
    with pytest.raises(CompareInterrupted) as caught:
        sl.compare(puzzles, ["norvig", "dlx"], jobs=1, progress=False)
    comparison = caught.value.comparison
    header = ("PARTIAL: stopped by Ctrl-C: 6 of the 8 answers asked for (one per backend "
              "and puzzle) finished; the figures cover only those")
    assert comparison.summary().splitlines()[:2] == [header, ""]
    assert "PARTIAL, 2 of 4 puzzles finished" in repr(comparison)
    assert "6 answer(s) recorded before it, 2 of the 4 puzzle(s) finished" in str(caught.value)
    assert "<b>PARTIAL</b>: stopped by Ctrl-C: 6 of the 8" in comparison._repr_html_()

    file = tmp_path / "four.txt"  # the command, stopped the same way: the same header
    file.write_text("".join(format_line(p) + "\n" for p in puzzles))
    capsys.readouterr()
    assert main(["compare", "--file", str(file), "-b", "norvig,dlx", "--jobs", "1",
                 "--out", str(tmp_path / "run")]) == 130
    assert capsys.readouterr().out.splitlines()[0] == header


def test_a_finished_compare_says_nothing_partial():
    comparison = sl.compare(sl.load("top95")[:2], ["norvig"], jobs=1, progress=False)
    assert "PARTIAL" not in comparison.summary() and "PARTIAL" not in repr(comparison)
    assert ": 2 puzzles, backends norvig" in repr(comparison)
