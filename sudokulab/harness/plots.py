"""Plots of a run: a cactus plot of every backend (and the virtual best solver), a
per-puzzle scatter of two, each engine's effort against the puzzles' ratings, and each
engine's rate against native's, the compiled limit. Each
is a matplotlib Figure (what a notebook shows), written as a PNG where a path is given."""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

import matplotlib

if not os.environ.get("MPLBACKEND"):  # a notebook names its own (inline); else files only
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from sudokulab.harness.records import Record  # noqa: E402
from sudokulab.result import Status  # noqa: E402

FLOOR = 1e-6  # seconds: log axes cannot show 0

Mark = tuple[str, int]  # (backend, puzzle index)


def cactus(runs: Mapping[str, Sequence[Record]], path: Path, title: str, *,
           wrong: Collection[Mark] = (), timeout: float | None = None,
           extra: Mapping[str, Sequence[Record]] | None = None) -> Path:
    """cactus_figure, written as a PNG to `path`."""
    finish(cactus_figure(runs, title, wrong=wrong, timeout=timeout, extra=extra), path)
    return path


def cactus_figure(runs: Mapping[str, Sequence[Record]], title: str, *,
                  wrong: Collection[Mark] = (), timeout: float | None = None,
                  extra: Mapping[str, Sequence[Record]] | None = None, ax=None,
                  clock: str = "wall"):
    """Puzzles answered right within a time, against that time, one line per backend,
    and a black dotted line for each of `extra` (the virtual best solver); drawn on
    `ax` (a matplotlib Axes) if given, else on a figure of its own. `clock` names what
    the records' times are: "wall" or "cpu" seconds.

    A wrong answer (one the cross-check refutes) is not an answer; the timeout is a
    dashed line, since a worker killed past it is recorded at the kill time.
    """
    figure, axes = _axes(ax, (7, 4.5))
    for name, records in (extra or {}).items():
        times = right_times(name, records, ())
        axes.step(times, range(1, len(times) + 1), where="post", color="black",
                  linestyle=":", linewidth=1.6, zorder=5,  # on top: it follows the best
                  label=_wrapped(f"{name} ({len(times)})"))
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
    axes.set_xlabel(f"{'CPU ' if clock == 'cpu' else ''}time per puzzle (s, log scale)")
    axes.set_ylabel("puzzles answered right within that time")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole puzzles only
    axes.set_title(_wrapped(title, 70), fontsize=10)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    return figure


def limit(rates: Mapping[str, float], path: Path, title: str) -> Path:
    """limit_figure, written as a PNG to `path`."""
    finish(limit_figure(rates, title), path)
    return path


def limit_figure(rates: Mapping[str, float], title: str, *, ax=None):
    """Each engine's puzzles per second on the same puzzles, fastest on top, on a log
    scale, with native's rate (the compiled limit) as a dashed line and each bar labelled
    with its fraction of it: the cost of each paradigm, measured."""
    ranked = sorted(rates.items(), key=lambda item: item[1])
    top = next(rate for name, rate in rates.items() if name.split(":")[0] == "native")
    figure, axes = _axes(ax, (7, 0.45 * len(ranked) + 1.4))
    names = [name for name, _ in ranked]
    bars = axes.barh(names, [rate for _, rate in ranked],
                     color=["black" if n.split(":")[0] == "native" else "tab:blue"
                            for n in names])
    for bar, (_, rate) in zip(bars, ranked):
        share = "the limit" if rate == top else f"{rate / top:.3g} of native"
        axes.text(bar.get_width() * 1.15, bar.get_y() + bar.get_height() / 2,
                  f"{rate:,.0f}/s, {share}", va="center", fontsize=8)
    axes.axvline(top, color="black", linestyle="--", linewidth=0.8,
                 label=f"native: the compiled limit ({top:,.0f}/s)")
    axes.set_xscale("log")
    # bars from a power of ten below the slowest (a log axis has no zero), room for labels
    axes.set_xlim(10 ** math.floor(math.log10(ranked[0][1])), top * 40)
    axes.set_xlabel("puzzles per second of solving time (one core, log scale)")
    axes.set_title(_wrapped(title, 70), fontsize=10)
    axes.grid(True, axis="x", which="both", alpha=0.3)
    axes.legend(fontsize=8, loc="lower right")
    return figure


def scatter(a: str, b: str, runs: Mapping[str, Sequence[Record]], path: Path,
            title: str, *, wrong: Collection[Mark] = (),
            timeout: float | None = None) -> Path:
    """scatter_figure, written as a PNG to `path`."""
    finish(scatter_figure(a, b, runs, title, wrong=wrong, timeout=timeout), path)
    return path


def scatter_figure(a: str, b: str, runs: Mapping[str, Sequence[Record]], title: str, *,
                   wrong: Collection[Mark] = (), timeout: float | None = None, ax=None):
    """Each puzzle's time with backend a against backend b, by what became of it; drawn
    on `ax` (a matplotlib Axes) if given, else on a figure of its own.

    A timeout is drawn at the timeout (not at the time its worker was killed); a wrong
    answer and a failure (error, unsupported) have markers of their own.
    """
    kinds = points(a, b, runs, wrong, timeout)
    figure, axes = _axes(ax, (5.5, 5.5))
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
    return figure


def effort_figure(runs: Mapping[str, Sequence[Record]], ratings: Mapping[int, float],
                  title: str, *, ax=None):
    """One panel per engine with an effort measure: each answered puzzle's effort (log
    scale, 1 added so that 0 shows) against its rating, with Spearman's rho; on `ax` (a
    matplotlib Axes) if given, every engine in that one panel."""
    from sudokulab.harness import effort

    measured = [(spec, key) for spec, records in runs.items()
                if (key := effort.measure(records)) is not None]
    if ax is not None:
        return _effort_together(runs, ratings, measured, title, ax)
    columns = min(3, max(1, len(measured)))
    rows = -(-len(measured) // columns)
    figure, grid = plt.subplots(rows, columns, figsize=(3.6 * columns, 3.2 * rows),
                                squeeze=False)
    for axes, (spec, key) in zip(grid.flat, measured):
        drawn = effort.points(runs[spec], ratings, key)
        rho = effort.spearman([p[0] for p in drawn], [p[1] for p in drawn])
        if drawn:
            axes.scatter([p[0] for p in drawn], [p[1] + 1 for p in drawn], s=10, alpha=0.5)
        axes.set_yscale("log")
        axes.set_xlabel("rating", fontsize=8)
        axes.set_ylabel(f"{key} + 1", fontsize=8)
        rho_text = "—" if rho is None else f"{rho:.2f}"
        axes.set_title(_wrapped(f"{spec}: rho {rho_text}", 40), fontsize=8)
        axes.grid(True, which="both", alpha=0.3)
    for axes in list(grid.flat)[len(measured):]:
        axes.set_visible(False)
    figure.suptitle(_wrapped(title, 70), fontsize=9)
    return figure


def _effort_together(runs: Mapping[str, Sequence[Record]], ratings: Mapping[int, float],
                     measured: Sequence[tuple[str, str]], title: str, ax):
    """effort_figure on the caller's one Axes: a colour per engine, its measure and rho
    in the legend (each engine counts its own kind of work, so compare slopes, not
    heights)."""
    from sudokulab.harness import effort

    for spec, key in measured:
        found = effort.points(runs[spec], ratings, key)
        rho = effort.spearman([p[0] for p in found], [p[1] for p in found])
        rho_text = "—" if rho is None else f"{rho:.2f}"
        ax.scatter([p[0] for p in found], [p[1] + 1 for p in found], s=10, alpha=0.5,
                   label=_wrapped(f"{spec}: {key}, rho {rho_text}", 40))
    ax.set_yscale("log")
    ax.set_xlabel("rating", fontsize=8)
    ax.set_ylabel("each engine's effort + 1", fontsize=8)
    ax.set_title(_wrapped(title, 70), fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    return ax.figure


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


def finish(figure, path: str | Path | None = None):
    """Lay the figure out, write it as a PNG to `path` if given, and let pyplot forget
    it (a notebook shows the figure returned, not a second copy); the figure."""
    figure.tight_layout()
    if path is not None:
        figure.savefig(path, dpi=110)
    plt.close(figure)
    return figure


def critical_difference_figure(ranking, title: str, *, ax=None):
    """Demšar's critical-difference diagram of a ranking.Ranking: the engines' average
    ranks on an axis from 1 (fastest on every puzzle) to k, the critical difference as a
    bar above it, and a thick line under the engines of each group Nemenyi's test does
    not tell apart (drawn only where the Friedman test rejects equal ranks: otherwise
    the post-hoc test has nothing to say)."""
    k = len(ranking.engines)
    figure, ax = _axes(ax, (7, 1.8 + 0.32 * k))
    groups = [g for g in ranking.groups if len(g) > 1] if ranking.rejected else []
    ax.hlines(0, 1, k, color="black", linewidth=1)
    for tick in range(1, k + 1):
        ax.vlines(tick, 0, 0.08, color="black", linewidth=1)
        ax.text(tick, 0.12, str(tick), ha="center", va="bottom", fontsize=8)
    ax.hlines(0.55, 1, 1 + ranking.cd, color="black", linewidth=1.5)
    ax.vlines([1, 1 + ranking.cd], 0.5, 0.6, color="black", linewidth=1.5)
    ax.text(1 + ranking.cd / 2, 0.64, f"CD = {ranking.cd:.3f}", ha="center", va="bottom",
            fontsize=8)
    for row, group in enumerate(groups):  # just under the axis, one line each
        y = -0.12 * (row + 1)
        ax.hlines(y, ranking.rank(group[0]) - 0.04, ranking.rank(group[-1]) + 0.04,
                  color="black", linewidth=4)
    top = -0.12 * (len(groups) + 1) - 0.15
    half = (k + 1) // 2  # the better half labelled on the left, the rest on the right
    for place, engine in enumerate(ranking.order):
        rank, left = ranking.rank(engine), place < half
        y = top - 0.28 * (place if left else k - 1 - place)
        edge = 0.6 if left else k + 0.4
        ax.plot([rank, rank, edge], [0, y, y], color="black", linewidth=0.8)
        ax.text(edge - 0.05 if left else edge + 0.05, y, f"{engine} ({rank:.2f})",
                ha="right" if left else "left", va="center", fontsize=8)
    verdict = (f"Friedman p = {ranking.p:.3g}" if ranking.p is not None else "every rank tied")
    if not ranking.rejected:
        verdict += ": equal ranks not rejected, no groups drawn"
    ax.set_title(_wrapped(title, 70) + "\n" + _wrapped(
        f"critical difference (Nemenyi, {ranking.puzzles} puzzles; rank 1 fastest); "
        f"{verdict}", 70), fontsize=8)
    ax.set_xlim(-1.2, k + 2.2)
    ax.set_ylim(top - 0.28 * half - 0.1, 0.9)
    ax.axis("off")
    return figure


def profile_figure(profile, title: str, *, ax=None):
    """Dolan and Moré's performance profiles of a ranking.Profile: for each engine, the
    fraction of the puzzles it solved right within tau times the best engine's time on
    each, against tau (log scale); at tau = 1, how often it was the fastest; where its
    curve ends, how often it solved a puzzle at all."""
    from matplotlib.ticker import FuncFormatter

    figure, ax = _axes(ax, (7, 4.5))
    right = max(2.0, profile.widest * 1.25)
    for engine in profile.engines:
        taus = [1.0, *profile.steps(engine), right]
        fastest, solved = profile.fraction(engine, 1.0), profile.fraction(engine, right)
        ax.step(taus, [profile.fraction(engine, tau) for tau in taus], where="post",
                label=_wrapped(f"{engine}: fastest on {fastest:.0%}, solved {solved:.0%}"))
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda tau, _: f"{tau:g}"))
    ax.set_xlim(1, right)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("tau: within this factor of the best engine's time (log scale)")
    ax.set_ylabel(f"fraction of the {profile.puzzles} puzzles")
    ax.set_title(_wrapped(title, 70) + "\nperformance profiles (Dolan and Moré)", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return figure


def _axes(ax, size: tuple[float, float]):
    """(figure, axes): a new figure of `size` inches, or the figure of the axes given."""
    if ax is None:
        return plt.subplots(figsize=size)
    return ax.figure, ax


def drawn(figure, path: str | Path | None, ax=None):
    """finish() a figure of its own; a figure drawn on the caller's axes is the caller's
    to lay out and keep, and is only written to `path` if given."""
    if ax is None:
        return finish(figure, path)
    if path is not None:
        figure.savefig(path, dpi=110)
    return figure
