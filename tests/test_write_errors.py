"""Issue 53 (C5, C6): output that cannot be written is one line naming what and where, exit
2, never a traceback: the --trace and --timeline files, ladder's --out folder, and --help
or --version on a full standard output. A closed pipe (`| head -1`) stays quiet: exit 0,
or the code of what was judged before it (a timeout said on stderr)."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab.cli import main
from sudokulab.commands import COMMANDS

FULL = "/dev/full"
needs_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")
PUZZLES = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
           "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
           "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....")
NO_SPACE = os.strerror(errno.ENOSPC)
TOO_LARGE = os.strerror(errno.EFBIG)


def sudokulab(*argv: str, stdout=subprocess.PIPE, file_size: int | None = None
              ) -> subprocess.CompletedProcess:
    """The CLI run in a child process; `file_size`: the most bytes it may write to any
    regular file (RLIMIT_FSIZE, with SIGXFSZ ignored: a longer write fails with EFBIG)."""

    def limit() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "sudokulab", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=env,
                          preexec_fn=limit if file_size is not None else None)


def to_full(*argv: str) -> subprocess.CompletedProcess:
    """The CLI run with its standard output on /dev/full."""
    with open(FULL, "w") as full:
        return sudokulab(*argv, stdout=full)


def one_error(done: subprocess.CompletedProcess, line: str) -> None:
    """Exit 2 and exactly that one line on stderr."""
    assert "Traceback" not in done.stderr
    assert (done.returncode, done.stderr.strip()) == (2, f"sudokulab: error: {line}")


# --- C5a: --trace and --timeline name their file ------------------------------------------

@needs_full
def test_a_trace_to_a_full_device_names_the_option_and_the_file():
    one_error(sudokulab("solve", PUZZLES[0], "--trace", FULL),
              f"--trace {FULL}: cannot write: {NO_SPACE}")


@needs_full
def test_a_timeline_to_a_full_device_names_the_option_and_the_file(tmp_path):
    puzzles = tmp_path / "three.txt"
    puzzles.write_text("\n".join(PUZZLES) + "\n")
    one_error(sudokulab("solve", "--file", str(puzzles), "-b", "sat", "--timeline", FULL),
              f"--timeline {FULL}: cannot write: {NO_SPACE}")


def test_a_trace_that_fills_up_keeps_the_answers_printed_before(tmp_path):
    puzzles, trace = tmp_path / "three.txt", tmp_path / "trace.jsonl"
    puzzles.write_text("\n".join(PUZZLES) + "\n")
    command = ("solve", "--file", str(puzzles), "--format", "line", "--trace", str(trace))
    whole = sudokulab(*command)
    assert whole.returncode == 0
    lines = trace.read_text().splitlines(keepends=True)
    first = next(k for k, line in enumerate(lines) if json.loads(line)["event"] == "end")
    room = len("".join(lines[:first + 1]).encode()) + 10  # the first puzzle's block fits
    cut = sudokulab(*command, file_size=room)
    one_error(cut, f"--trace {trace}: cannot write: {TOO_LARGE}")
    assert cut.stdout.splitlines() == whole.stdout.splitlines()[:1]  # puzzle 1's answer


# --- C5b: ladder --out is a folder; the reason it cannot be one -------------------------

def ladder(tmp_path: Path, out: str, **limits) -> subprocess.CompletedProcess:
    """`ladder` on two puzzles at one quick level, its report in `out`."""
    puzzles = tmp_path / "two.txt"
    puzzles.write_text("\n".join(PUZZLES[:2]) + "\n")
    return sudokulab("ladder", "--file", str(puzzles), "--levels", "sat", "--out", out,
                     **limits)


@needs_full
def test_ladder_out_on_a_device_is_not_a_folder(tmp_path):
    one_error(ladder(tmp_path, FULL), f"--out {FULL} is a file, not a folder: choose another "
                                      f"--out")


def test_ladder_out_under_a_file_names_the_file(tmp_path):
    (tmp_path / "notes").write_text("a file\n")
    out = str(tmp_path / "notes" / "run")
    one_error(ladder(tmp_path, out), f"--out {out}: {tmp_path / 'notes'} is a file, not a "
                                     f"folder")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc here")
def test_ladder_out_where_no_folder_can_be_made_names_the_parent(tmp_path):
    done = ladder(tmp_path, "/proc/x")
    one_error(done, f"--out /proc/x: cannot make a folder in /proc: "
                    f"{done.stderr.rsplit(': ', 1)[-1].strip()}")
    assert "cannot write there" not in done.stderr


def test_ladder_out_on_a_disk_that_takes_no_byte_says_so_before_the_run(tmp_path):
    out = tmp_path / "run"
    done = ladder(tmp_path, str(out), file_size=0)
    one_error(done, f"--out {out}: cannot write a file there: {TOO_LARGE}")
    assert "ladder" not in done.stdout  # no table: refused before the run
    assert list(out.iterdir()) == []


def test_ladder_log_that_cannot_be_written_mid_run_names_it(tmp_path, monkeypatch, capsys):
    from sudokulab.teaching.ladder_report import LadderLog

    def full(self, dataset, entry) -> None:
        raise OSError(errno.ENOSPC, NO_SPACE)

    monkeypatch.setattr(LadderLog, "add", full)
    puzzles, out = tmp_path / "two.txt", tmp_path / "run"
    puzzles.write_text("\n".join(PUZZLES[:2]) + "\n")
    code = main(["ladder", "--file", str(puzzles), "--levels", "sat", "--out", str(out)])
    assert code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"sudokulab: error: --out {out}: cannot write {out / 'ladder.jsonl'}: {NO_SPACE}")


def test_ladder_out_that_can_be_written_holds_the_report(tmp_path):
    out = tmp_path / "new" / "run"
    done = ladder(tmp_path, str(out))
    assert done.returncode == 0, done.stderr
    assert {p.name for p in out.iterdir()} >= {"ladder.md", "ladder.json"}


# --- C6: --help and --version on a full standard output ---------------------------------

@needs_full
@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["--version"],
                                  *([name, "--help"] for name in COMMANDS)],
                         ids=lambda argv: " ".join(argv))
def test_help_to_a_full_device_is_one_line_and_exit_2(argv):
    one_error(to_full(*argv), f"cannot write the output: {NO_SPACE}")


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["solve", "--help"]])
def test_help_to_a_closed_pipe_is_quiet(argv):
    read, write = os.pipe()
    os.close(read)  # the reader went away before a byte was written (| head -0)
    try:
        done = sudokulab(*argv, stdout=write)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("command", [["solve", PUZZLES[0]],
                                     ["compare", "--dataset", "hardest", "-b", "norvig"]],
                         ids=["solve", "compare"])
@pytest.mark.parametrize("where", ["file", "under-a-file"])
def test_an_unwritable_certificates_folder_is_refused_before_any_solve(
        command, where, tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    folder = blocker if where == "file" else blocker / "certificates"
    out = ["--out", str(tmp_path / "run")] if command[0] == "compare" else []
    assert main([*command, *out, "--certify", str(folder)]) == 2
    printed, said = capsys.readouterr()
    assert printed == "" and not (tmp_path / "run").exists()  # nothing solved, nothing kept
    reason = "is a file, not a folder" if where == "file" else "Not a directory"
    assert said.startswith(f"sudokulab: error: --certify {folder}") and reason in said, said


def test_a_closed_pipe_keeps_the_exit_code_of_what_was_judged_before():
    """`hint --all ... | head -1` on a puzzle past its --timeout: the timeout was said on
    stderr before the first step was written, so the exit code stays 3, not 0."""
    hard = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
    read, write = os.pipe()
    os.close(read)  # no step can be written: the first one meets the closed pipe
    try:
        done = sudokulab("hint", hard, "--all", "--timeout", "0.5", "--format", "json",
                         stdout=write)
    finally:
        os.close(write)
    assert "stopped at --timeout 0.5 s" in done.stderr and "Traceback" not in done.stderr
    assert done.returncode == 3
