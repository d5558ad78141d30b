"""One backend per fresh process, for the benches that time engines side by side.

A bench runs itself again with `--child NAME` (and its own arguments); the child prints
its answers as one last line, RESULT and JSON, so nothing a backend prints can be taken
for them. A child that crashes or outlives its cap is reported, not raised.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

RESULT = "RESULT "  # the child's last line: this prefix, then JSON
ROOT = Path(__file__).resolve().parent.parent


def hand_over(payload: dict) -> None:
    """In the child: hand the answers to the parent."""
    print(RESULT + json.dumps(payload), flush=True)


def in_a_child(script: str, name: str, cap: float, args: tuple[str, ...] = (),
               code: Path | None = None) -> dict:
    """Run `script --child NAME ARGS` in a fresh process killed after `cap` seconds; its
    answers, or {"crashed": why}. `code`: import sudokulab from that checkout instead."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    command = [sys.executable, script, "--child", name, *args]
    try:
        child = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                               timeout=cap)
    except subprocess.TimeoutExpired:
        return {"backend": name, "available": True, "crashed": f"killed after {cap} s"}
    lines = [line for line in child.stdout.splitlines() if line.startswith(RESULT)]
    if child.returncode != 0 or not lines:
        last = (child.stderr.strip().splitlines() or ["no output"])[-1]
        return {"backend": name, "available": True,
                "crashed": f"exit code {child.returncode}: {last}"}
    return json.loads(lines[-1][len(RESULT):])


def seconds(answer: dict | None) -> str:
    """CPU and wall seconds of an answer, with its status when it is not right."""
    if answer is None:
        return "n/a"
    text = f"{answer['cpu']:.2f} ({answer['wall']:.2f})"
    return text if answer["right"] else f"{text} {answer['status'].upper()}"
