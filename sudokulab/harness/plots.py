"""PNG plots of a run: a cactus plot of every backend and a per-puzzle scatter of two."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed, none opened
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from sudokulab.harness.runner import Record  # noqa: E402

FLOOR = 1e-6  # seconds: log axes cannot show 0


def cactus(runs: Mapping[str, Sequence[Record]], path: Path, title: str) -> Path:
    """Puzzles answered within a time, against that time, one line per backend."""
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for backend, records in runs.items():
        times = sorted(max(FLOOR, r.time) for r in records if r.result.status.is_answer)
        axes.step(times, range(1, len(times) + 1), where="post",
                  label=_wrapped(f"{backend} ({len(times)} of {len(records)})"))
    axes.set_xscale("log")
    axes.set_xlabel("time per puzzle (s, log scale)")
    axes.set_ylabel("puzzles answered within that time")
    axes.set_title(_wrapped(title, 70))
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    return _save(figure, path)


def scatter(a: str, b: str, runs: Mapping[str, Sequence[Record]], path: Path,
            title: str) -> Path:
    """Each puzzle's time with backend a against backend b; failures drawn as crosses."""
    times_a = {r.index: r for r in runs[a]}
    times_b = {r.index: r for r in runs[b]}
    common = sorted(set(times_a) & set(times_b))
    figure, axes = plt.subplots(figsize=(5.5, 5.5))
    kinds = ((True, "o", "both answered"), (False, "x", "a failure to answer"))
    for answered, marker, label in kinds:
        points = [(max(FLOOR, times_a[i].time), max(FLOOR, times_b[i].time)) for i in common
                  if (times_a[i].result.status.is_answer
                      and times_b[i].result.status.is_answer) == answered]
        if points:
            axes.scatter(*zip(*points, strict=True), marker=marker, s=12, alpha=0.6, label=label)
    every = [t for i in common for t in (times_a[i].time, times_b[i].time)]
    low, high = max(FLOOR, min(every, default=FLOOR)), max(every, default=1.0)
    axes.plot([low, high], [low, high], color="grey", linewidth=0.8, label="same time")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel(_wrapped(f"{a} (s)"))
    axes.set_ylabel(_wrapped(f"{b} (s)"))
    axes.set_title(_wrapped(title, 70))
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    return _save(figure, path)


def _wrapped(label: str, width: int = 48) -> str:
    """A backend spec over several lines: a long one would not fit beside the axes."""
    return "\n".join(textwrap.wrap(label, width, break_long_words=True)) or label


def _save(figure, path: Path) -> Path:
    """Write the figure as a PNG and free it."""
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
