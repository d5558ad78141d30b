"""docs/course/ runs as written (issue 60): every `$ sudokulab ...` line of its pages, in
a fresh folder that sees the repository's docs/ and tests/, exits with the code the page
states (0 unless it says `# exits N`), with no traceback."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "docs" / "course"
PAGES = ("index.md", "exercises.md", "solutions.md")


def commands() -> list[tuple[str, str, int]]:
    """(page, command line, exit code stated) for each command of a console block."""
    found = []
    for page in PAGES:
        inside = False
        for line in (COURSE / page).read_text().splitlines():
            if line.startswith("```"):
                inside = line.strip() == "```console"
                continue
            if inside and line.startswith("$ "):
                text, _, comment = line[2:].partition("#")
                stated = re.match(r"\s*exits (\d+)", comment)
                found.append((page, text.strip(), int(stated.group(1)) if stated else 0))
    return found


COMMANDS = commands()


def test_the_course_has_objectives_a_lecture_exercises_and_solutions():
    index = (COURSE / "index.md").read_text()
    assert "## Learning objectives" in index and "## The lecture" in index
    exercises = (COURSE / "exercises.md").read_text().count("\n## ")
    assert exercises >= 6 and (COURSE / "solutions.md").read_text().count("\n## ") == exercises
    assert len(COMMANDS) >= 15


@pytest.mark.parametrize("page, command, code", COMMANDS,
                         ids=[f"{page}:{k}" for k, (page, _, _) in enumerate(COMMANDS)])
def test_every_command_of_the_course_runs(page, command, code, tmp_path):
    for folder in ("docs", "tests"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    words = shlex.split(command)
    assert words[0] == "sudokulab", f"{page}: {command}"
    run = subprocess.run([sys.executable, "-m", "sudokulab", *words[1:]], cwd=tmp_path,
                         capture_output=True, text=True)
    said = f"{page}: {command}\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    assert run.returncode == code, said
    assert "Traceback" not in run.stdout + run.stderr, said
