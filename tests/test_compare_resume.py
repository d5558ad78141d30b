"""`compare --resume` keeps what a run found (issue 53): it goes on only with the puzzles
the run started with, and it does not rewrite who measured the records."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_harness import puzzle_file, records

from sudokulab import datasets
from sudokulab.cli import main
from sudokulab.formats.text import format_line


def lines(first: int, count: int) -> list[str]:
    """top95's puzzles first .. first + count - 1, one per line."""
    return [format_line(p) for p in datasets.load("top95")[first:first + count]]


def run_on_file(tmp_path: Path, capsys) -> tuple[Path, Path]:
    """A finished norvig run over a file of four puzzles: the file and the run folder."""
    file, out = puzzle_file(tmp_path, lines(0, 4)), tmp_path / "run"
    assert main(["compare", "--file", str(file), "-b", "norvig", "--jobs", "1",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    return file, out


@pytest.mark.parametrize("edit", ["replaced", "deleted", "added"])
def test_resume_refuses_a_file_whose_puzzles_changed_since_the_run_started(
        edit, tmp_path, capsys):
    file, out = run_on_file(tmp_path, capsys)
    text = lines(0, 4)
    if edit == "replaced":
        text[2] = lines(10, 1)[0]
    elif edit == "deleted":
        del text[1]
    else:
        text.append(lines(10, 1)[0])
    file.write_text("\n".join(text) + "\n")
    assert main(["compare", "--resume", "--out", str(out)]) == 2
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    assert stderr.splitlines() == [
        f"sudokulab: error: the puzzles of {file} are not those the run in {out} started "
        f"with: start a new run"]
    assert len(records(out)) == 4  # nothing solved, nothing paired with a wrong puzzle


def test_resume_goes_on_with_the_same_puzzles_written_otherwise(tmp_path, capsys):
    file, out = run_on_file(tmp_path, capsys)
    file.write_text("# the same puzzles, with a comment\n\n" + file.read_text())
    assert main(["compare", "--resume", "--out", str(out)]) == 0
    assert len(records(out)) == 4
