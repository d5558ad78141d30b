"""Issue 53's held-out findings on `sudokulab check-backend`, through the command line.

- A plugin that prints keeps its text out of the report, which says it printed.
- Stopped by Ctrl-C or SIGTERM midway, it closes with the checks done and how far it got.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

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
