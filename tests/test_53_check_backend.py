"""Issue 53's held-out findings on `sudokulab check-backend`, through the command line.

- A plugin that prints keeps its text out of the report, which says it printed.
- Stopped by Ctrl-C or SIGTERM midway, it closes with the checks done and how far it got.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

from test_process_tree import (
    PATIENCE,
    POLL,
    SIGNALS,
    assert_stopped,
    ended,
    signal_and_collect,
    start,
)

LOUD = textwrap.dedent('''
    import os
    import time

    from sudokulab import rules as R
    from sudokulab.backends import make_backend
    from sudokulab.backends.base import Backend

    print("LOADED LOUDLY")


    class Loud(Backend):
        """norvig's answers, with a print and a native write to descriptor 1 per solve."""

        name = "loud"
        paradigm = "prints"
        supported_rules = R.RULE_TYPES

        def _solve(self, puzzle, limit, deadline):
            print("HELLO FROM ENGINE")
            os.write(1, b"NATIVE HELLO\\n")
            return make_backend("norvig").solve(puzzle, limit=limit, timeout=deadline.left())


    class Slow(Backend):
        """norvig's answers, a second late each: a run long enough to stop midway."""

        name = "slow"
        paradigm = "slow"
        supported_rules = R.RULE_TYPES

        def _solve(self, puzzle, limit, deadline):
            time.sleep(1)
            return make_backend("norvig").solve(puzzle, limit=limit, timeout=deadline.left())
''')


def test_an_engine_that_prints_keeps_the_report_clean_and_is_said_to(tmp_path):
    (tmp_path / "loud.py").write_text(LOUD)
    run = subprocess.run([sys.executable, "-m", "sudokulab", "check-backend", "loud.py:Loud",
                          "--only", "limits", "--only", "none"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert not {"HELLO FROM ENGINE", "NATIVE HELLO", "LOADED LOUDLY"} & set(lines), run.stdout
    assert "NATIVE HELLO" not in run.stdout
    assert lines[0].startswith("check-backend loud.py:Loud (Loud, ")
    assert "the engine wrote 1 line to stdout as it loaded" in lines[1]
    assert lines[2].startswith("  PASS  the limit")
    assert lines[3].startswith("        the engine wrote ") and "'HELLO FROM ENGINE'" in lines[3]
    assert lines[-1] == "2 checks: 2 passed, 0 failed: loud.py:Loud keeps the contract"


@SIGNALS
def test_a_stopped_check_backend_closes_with_the_checks_done(signum, tmp_path):
    (tmp_path / "slow.py").write_text(LOUD)
    process = start("check-backend", f"{tmp_path / 'slow.py'}:Slow", "--only", "limits",
                    "--only", "none", "--only", "shapes")
    out_file = process.files[0]  # type: ignore[attr-defined]
    give_up = time.monotonic() + PATIENCE
    while "  PASS  " not in (out_file.seek(0), out_file.read())[1]:  # the first check done
        assert process.poll() is None, f"ended before the signal: {ended(process)}"
        assert time.monotonic() < give_up, "never finished its first check"
        time.sleep(POLL)
    code, out, err = signal_and_collect(process, signum)
    assert_stopped(code, err, signum)
    assert "Traceback" not in err
    done = out.count("  PASS  ")
    assert 1 <= done < 3, out
    assert out.splitlines()[-1] == (f"{done} check{'' if done == 1 else 's'}: {done} passed, "
                                    f"0 failed (stopped after {done} of 3)"), out

