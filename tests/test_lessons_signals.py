"""explain and hint --all on Ctrl-C or SIGTERM (issue 53): the steps found before the
signal are printed, as on --timeout, then the command exits 130 or 143."""

from __future__ import annotations

import functools
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# forum_hardest_1106's first: singles first, then forcing nets (most of its time)
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user and system, from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@functools.cache
def cpu_to_finish(args: tuple[str, ...]) -> float:
    """The CPU seconds the command takes here to its end, unstopped (machines differ by a
    factor of three, so the signal's moment is measured, not assumed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "sudokulab", *args], capture_output=True,
                   check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def stopped(args: list[str], signum: int) -> subprocess.CompletedProcess:
    """The command, sent `signum` once it has spent 60% of the CPU it takes to its end:
    past the start and the referee's check (a fifth of it), well before the end of the
    forcing nets, whatever the load, which stretches only the wall clock."""
    moment = 0.6 * cpu_to_finish(tuple(args))
    child = subprocess.Popen([sys.executable, "-m", "sudokulab", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while child.poll() is None and cpu_seconds(child.pid) < moment:
        time.sleep(0.02)
    child.send_signal(signum)
    out, err = child.communicate()
    return subprocess.CompletedProcess(args, child.returncode, out, err)


@pytest.mark.parametrize("signum, code, words", [(signal.SIGINT, 130, "interrupted (Ctrl-C)"),
                                                 (signal.SIGTERM, 143, "interrupted (SIGTERM)")])
def test_explain_prints_the_steps_found_before_the_signal(signum, code, words):
    done = stopped(["explain", HARD], signum)
    assert done.returncode == code, done.stderr
    assert f"{words} after" in done.stdout and done.stdout.lstrip().startswith("1. ")
    assert "Traceback" not in done.stderr


def test_hint_all_prints_the_steps_found_before_the_signal():
    done = stopped(["hint", HARD, "--all", "--format", "json"], signal.SIGINT)
    assert done.returncode == 130, done.stderr
    assert "puzzle 1: interrupted (Ctrl-C); the steps found before it follow" in done.stderr
    assert done.stdout.count('"puzzle": 1') > 10 and "Traceback" not in done.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_explain_json_to_a_full_pipe_is_never_cut_by_a_signal(signum, tmp_path):
    import fcntl
    import json
    import termios

    from sudokulab import datasets

    puzzles = tmp_path / "ten.txt"
    puzzles.write_text("\n".join(datasets.lines("top1465")[:10]) + "\n")
    read, write = os.pipe()
    fcntl.fcntl(write, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)  # a record is longer
    child = subprocess.Popen([sys.executable, "-m", "sudokulab", "explain", "--file",
                              str(puzzles), "--format", "json"], stdout=write,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(write)
    waiting = bytearray(4)
    while child.poll() is None:  # until the pipe is full: the command waits in its write
        fcntl.ioctl(read, termios.FIONREAD, waiting)
        if int.from_bytes(waiting, sys.byteorder) >= 4096:
            break
        time.sleep(0.02)
    child.send_signal(signum)
    with os.fdopen(read, "rb") as pipe:
        out = pipe.read().decode()
    child.wait()
    assert child.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum]
    lines = out.splitlines()
    assert lines and all(json.loads(line)["puzzle"] for line in lines)  # whole records only
