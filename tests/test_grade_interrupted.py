"""`grade --file` stopped by Ctrl-C or SIGTERM prints the summary of the puzzles it finished,
marked partial as `compare` marks it, then exits 130 or 143 (issue 53, C3).

The command runs in a process of its own on top1465 (bundled: minutes of grading); once it
has printed a few records, the test sends it the signal, as a user's Ctrl-C or a `kill`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import sudokulab

TOP1465 = Path(sudokulab.__file__).parent / "data" / "top1465.txt.gz"
PUZZLES = 1465
PATIENCE = 600  # seconds: only so that a hang fails (the whole file takes minutes)
SEEN = 3  # records read before the signal: the run is under way, and far from its end


def interruptible() -> None:
    """In the child: Ctrl-C's default action, even if the tests run with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stopped_run(stop: int, *options: str, seen: int = SEEN) -> tuple[int, list[str], str]:
    """(exit code, stdout's lines, stderr) of `grade --file top1465` sent `stop` once it
    has printed `seen` lines."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sudokulab", "grade", "--file", str(TOP1465), *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=interruptible,
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"})  # as a user's
    assert process.stdout is not None
    first = [process.stdout.readline() for _ in range(seen)]
    assert all(first), first  # records come as each puzzle is graded, not at the end
    process.send_signal(stop)
    rest, stderr = process.communicate(timeout=PATIENCE)
    return process.returncode, "".join(first + [rest]).splitlines(), stderr


def summed(table: list[str]) -> int:
    """The puzzles the summary table counts (its 'puzzles' column)."""
    return sum(int(line.split()[1]) for line in table[2:])  # past its head and rule


@pytest.mark.parametrize(("stop", "name", "code", "said"),
                         [(signal.SIGINT, "Ctrl-C", 130, "interrupted"),
                          (signal.SIGTERM, "SIGTERM", 143, "terminated")])
def test_a_stopped_grade_prints_the_summary_so_far_marked_partial(stop, name, code, said):
    returncode, lines, stderr = stopped_run(stop)
    assert returncode == code
    assert "Traceback" not in stderr and stderr.splitlines()[-1] == f"sudokulab: {said}"
    records = [line for line in lines if line.startswith("#")]
    assert [int(line.split()[0][1:]) for line in records] == list(range(1, len(records) + 1))
    assert SEEN <= len(records) < PUZZLES
    assert f"grade: {len(records)}/{PUZZLES} in " in stderr  # the progress's last line agrees
    partial = lines.index(f"PARTIAL: stopped by {name}: {len(records)} of the {PUZZLES} "
                          f"puzzles finished; the figures cover only those")
    assert lines[:partial] == records  # the records, then the partial summary
    table = lines[partial + 1:]
    assert table[0].split()[:2] == ["level", "puzzles"]
    assert summed(table) == len(records)


def test_a_stopped_grade_keeps_machine_output_clean_and_sums_up_on_stderr():
    returncode, lines, stderr = stopped_run(signal.SIGTERM, "--format", "csv", seen=SEEN + 1)
    assert returncode == 143
    header, *rows = lines
    assert header.startswith("puzzle,givens,solved") and len(rows) >= SEEN
    assert all(re.match(r"\d+,[.\d]{81},", row) for row in rows)  # only records on stdout
    err = stderr.splitlines()
    partial = err.index(f"PARTIAL: stopped by SIGTERM: {len(rows)} of the {PUZZLES} "
                        f"puzzles finished; the figures cover only those")
    table = err[partial + 1:-1]
    assert err[-1] == "sudokulab: terminated" and summed(table) == len(rows)


def test_json_records_stay_one_object_a_line_when_stopped():
    returncode, lines, stderr = stopped_run(signal.SIGINT, "--format", "json")
    assert returncode == 130 and "PARTIAL: stopped by Ctrl-C: " in stderr
    assert all(json.loads(line)["status"] for line in lines)


def test_a_stopped_grade_still_draws_its_plot_of_the_puzzles_finished(tmp_path):
    plot = tmp_path / "levels.png"
    returncode, lines, stderr = stopped_run(signal.SIGINT, "--plot", str(plot))
    records = [line for line in lines if line.startswith("#")]
    assert returncode == 130
    assert f"wrote {plot} (partial: {len(records)} of the {PUZZLES} puzzles)" in stderr
    assert plot.read_bytes().startswith(b"\x89PNG")
