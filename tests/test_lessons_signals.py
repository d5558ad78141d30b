"""explain and hint --all on Ctrl-C or SIGTERM (issue 53): the steps found before the
signal are printed, as on --timeout, then the command exits 130 or 143."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

# forum_hardest_1106's first: singles first, then forcing nets for many seconds
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def stopped(args: list[str], signum: int) -> subprocess.CompletedProcess:
    """The command, sent `signum` once it has worked a few seconds on the puzzle."""
    child = subprocess.Popen([sys.executable, "-m", "sudokulab", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)  # norvig's check and the first steps; the forcing nets take far longer
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
