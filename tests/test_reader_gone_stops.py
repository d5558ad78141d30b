"""A run stopped after the reader of its output went away (`| head -c 10`, a closed log
pipe) still exits 130 or 143 and still says on stderr where its work is kept (issue 53):
it exited 0 (or 1 for `serve`), and a script saw success for a run cut short."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from test_harness import interruptible, puzzle_file, wait_for_records

from sudokulab import datasets
from sudokulab.formats.text import format_line


def start(*args: str, gone: str = "stdout") -> tuple[subprocess.Popen, int]:
    """`sudokulab ARGS` with `gone` (stdout or stderr) a pipe whose reader has closed; the
    process and the read end of the other stream's pipe (kept open by the caller)."""
    closed_read, closed_write = os.pipe()
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, gone: closed_write}
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", *args], text=True,
                               preexec_fn=interruptible, **streams)
    os.close(closed_write)
    return process, closed_read


def test_compare_stopped_with_its_reader_gone_exits_130_and_says_how_to_resume(
        test_backends, tmp_path):
    lines = [format_line(p) for p in datasets.load("top95")[:30]]
    out, hold, log = tmp_path / "run", tmp_path / "hold", tmp_path / "asked.log"
    hold.touch()
    process, reader = start("compare", "--file", str(puzzle_file(tmp_path, lines)), "--out",
                            str(out), "--jobs", "2", "--timeout", "0", "--backends",
                            f"norvig,test-count:log={log},hold={hold},after=8")
    os.close(reader)  # stdout's reader goes: the tables will find no one
    wait_for_records(out, 32, process)
    process.send_signal(signal.SIGINT)
    hold.unlink()
    _, stderr = process.communicate()
    assert process.returncode == 130, stderr
    assert f"compare --resume --out {out}" in stderr and "Traceback" not in stderr


def test_ladder_stopped_with_its_reader_gone_exits_143_and_says_where_it_kept(tmp_path):
    out = tmp_path / "run"
    hard = [p.strip() for p in datasets.lines("top1465")[:80]]
    process, reader = start("ladder", "--file", str(puzzle_file(tmp_path, hard)), "--levels",
                            "cpsat,norvig", "--out", str(out), "--jobs", "2")
    os.close(reader)
    kept = out / "ladder.jsonl"
    while not (kept.exists() and kept.read_text().count("\n") >= 3):  # settings and 2 done
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate()
    assert process.returncode == 143, stderr
    assert "puzzle(s) kept in" in stderr and "ladder --resume" in stderr


def test_serve_stopped_with_its_log_reader_gone_exits_130(tmp_path):
    """uvicorn raises the captured Ctrl-C again once it has shut down: saying 'interrupted'
    on a stderr nobody reads made the process exit 1."""
    process, _ = start("serve", "--port", "0", gone="stdout")
    line = process.stderr.readline()  # 'serving http://...': it listens
    assert "serving" in line, line
    process.stderr.close()  # stderr's reader goes too
    process.send_signal(signal.SIGINT)
    assert process.wait() == 130


def test_a_command_whose_stderr_reader_is_gone_keeps_its_exit_code(tmp_path):
    bad = Path(tmp_path / "bad.txt")
    bad.write_text("12\n")
    process, reader = start("solve", "--file", str(bad), gone="stderr")
    os.close(reader)
    process.communicate()
    assert process.returncode == 2  # 'bad input', said to no one, still the code


def test_a_file_whose_stderr_reader_is_gone_is_answered_whole(tmp_path):
    """stderr's reader gone, the run goes on: every puzzle answered on stdout, the bad one
    said to no one, exit 2 (it stopped after the first line and exited 0)."""
    lines = [format_line(p) for p in datasets.load("top95")[:2]]
    mixed = Path(tmp_path / "mixed.txt")
    mixed.write_text(f"{lines[0]}\n12\n{lines[1]}\n")
    process, reader = start("solve", "--file", str(mixed), "--format", "line", gone="stderr")
    os.close(reader)
    out, _ = process.communicate()
    assert process.returncode == 2
    assert out.splitlines()[1] == "bad-input" and len(out.splitlines()) == 3


def test_compare_whose_stderr_reader_is_gone_writes_its_reports(tmp_path):
    out = tmp_path / "run"
    process, reader = start("compare", "--dataset", "hardest", "-b", "norvig", "--out",
                            str(out), gone="stderr")
    os.close(reader)
    tables, _ = process.communicate()
    assert process.returncode == 0 and "backend" in tables
    assert (out / "summary.md").exists() and (out / "summary.csv").exists()
