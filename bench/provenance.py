"""Where a benchmark's figures come from: the machine, how busy it was, the commit.

One copy for every bench/bench_*.py, which import it as a sibling module (a script's own
folder is first on sys.path).
"""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Sequence
from pathlib import Path

from sudokulab.harness.provenance import cpu_model

ROOT = Path(__file__).resolve().parent.parent


def commit(measured: Sequence[str]) -> str:
    """The checked-out commit, marked when the measured files have local changes."""
    git = ["git", "-C", str(ROOT)]
    try:
        head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run([*git, "diff", "--quiet", "HEAD", "--", *measured]).returncode
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" (with local changes)" if dirty else "")


def machine_section(*extra: str, measured: Sequence[str]) -> list[str]:
    """A report's "## Machine" section: platform, CPU, Python, load at the end, the commit
    of the `measured` files (paths from the repository's root), then `extra` lines."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"platform: {platform.platform()}", f"cpu: {cpu_model()} ({os.cpu_count()} cpus)",
             f"python: {platform.python_implementation()} {platform.python_version()}",
             f"load average (1, 5, 15 min) at the end: {load}",
             f"commit: {commit(measured)}", *extra]
    return ["## Machine", "", *(f"- {line}" for line in lines), ""]
