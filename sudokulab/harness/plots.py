"""PNG plots of a run: a cactus plot of every backend and a per-puzzle scatter of two."""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed, none opened
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from sudokulab.harness.records import Record  # noqa: E402
from sudokulab.result import Status  # noqa: E402

FLOOR = 1e-6  # seconds: log axes cannot show 0

Mark = tuple[str, int]  # (backend, puzzle index)


def cactus(runs: Mapping[str, Sequence[Record]], path: Path, title: str, *,
           wrong: Collection[Mark] = (), timeout: float | None = None) -> Path:
    """Puzzles answered right within a time, against that time, one line per backend.

    A wrong answer (one the cross-check refutes) is not an answer; the timeout is a
    dashed line, since a worker killed past it is recorded at the kill time.
    """
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for backend, records in runs.items():
        times = right_times(backend, records, wrong)
        refuted = sum(1 for r in records if (backend, r.index) in wrong)
        late = sum(1 for r in records if r.result.status == Status.TIMEOUT)
        note = (f", {refuted} wrong" if refuted else "") + (f", {late} timeouts" if late else "")
        axes.step(times, range(1, len(times) + 1), where="post",
                  label=_wrapped(f"{backend} ({len(times)} of {len(records)} right{note})"))
    if timeout:
        axes.axvline(timeout, color="grey", linestyle="--", linewidth=0.8,
                     label=f"timeout ({timeout:g} s)")
    axes.set_xscale("log")
    axes.set_xlabel("time per puzzle (s, log scale)")
    axes.set_ylabel("puzzles answered right within that time")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole puzzles only
    axes.set_title(_wrapped(title, 70), fontsize=10)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    return _save(figure, path)


def scatter(a: str, b: str, runs: Mapping[str, Sequence[Record]], path: Path,
            title: str, *, wrong: Collection[Mark] = (),
            timeout: float | None = None) -> Path:
    """Each puzzle's time with backend a against backend b, by what became of it.

    A timeout is drawn at the timeout (not at the time its worker was killed); a wrong
    answer and a failure (error, unsupported) have markers of their own.
    """
    kinds = points(a, b, runs, wrong, timeout)
    figure, axes = plt.subplots(figsize=(5.5, 5.5))
    for kind, marker in KINDS:
        if kinds[kind]:
            axes.scatter(*zip(*kinds[kind], strict=True), marker=marker, s=14, alpha=0.6,
                         label=f"{kind} ({len(kinds[kind])})")
    every = [t for drawn in kinds.values() for point in drawn for t in point]
    low, high = max(FLOOR, min(every, default=FLOOR)), max(every, default=1.0)
    axes.plot([low, high], [low, high], color="grey", linewidth=0.8, label="same time")
    if timeout:
        axes.axvline(timeout, color="grey", linestyle="--", linewidth=0.6)
        axes.axhline(timeout, color="grey", linestyle="--", linewidth=0.6,
                     label=f"timeout ({timeout:g} s)")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel(_wrapped(f"{a} (s)"))
    axes.set_ylabel(_wrapped(f"{b} (s)"))
    axes.set_title(_wrapped(title, 60), fontsize=9)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    return _save(figure, path)


def right_times(backend: str, records: Sequence[Record], wrong: Collection[Mark]) -> list:
    """The sorted times of a backend's answers that the cross-check did not refute."""
    return sorted(max(FLOOR, r.time) for r in records
                  if _answered(r) and (backend, r.index) not in wrong)


def points(a: str, b: str, runs: Mapping[str, Sequence[Record]], wrong: Collection[Mark],
           timeout: float | None) -> dict[str, list[tuple[float, float]]]:
    """The scatter's points, (time with a, time with b), by kind of outcome (KINDS)."""
    by_a = {r.index: r for r in runs[a]}
    by_b = {r.index: r for r in runs[b]}
    kinds: dict[str, list[tuple[float, float]]] = {kind: [] for kind, _ in KINDS}
    for i in sorted(set(by_a) & set(by_b)):
        ra, rb = by_a[i], by_b[i]
        kinds[_kind((a, i) in wrong or (b, i) in wrong, ra, rb)].append(
            (_seconds(ra, timeout), _seconds(rb, timeout)))
    return kinds


KINDS = (("both answered right", "o"), ("a wrong answer", "X"),
         ("a timeout (drawn at the timeout)", "^"), ("an error or unsupported", "x"))


def _kind(refuted: bool, *records: Record) -> str:
    """Which of KINDS a puzzle falls in, the worst first."""
    statuses = {r.result.status for r in records}
    if refuted:
        return KINDS[1][0]
    if Status.TIMEOUT in statuses:
        return KINDS[2][0]
    if all(_answered(r) for r in records):
        return KINDS[0][0]
    return KINDS[3][0]


def _answered(record: Record) -> bool:
    """Whether the record is an answer (right or wrong) rather than a failure to give one."""
    return record.result.status.is_answer


def _seconds(record: Record, timeout: float | None) -> float:
    """Where a record is drawn: its time, but a timeout at the timeout itself."""
    if record.result.status == Status.TIMEOUT and timeout:
        return timeout
    return max(FLOOR, record.time)


def _wrapped(label: str, width: int = 48) -> str:
    """A backend spec over several lines: a long one would not fit beside the axes."""
    return "\n".join(textwrap.wrap(label, width, break_long_words=True)) or label


def _save(figure, path: Path) -> Path:
    """Write the figure as a PNG and free it."""
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
