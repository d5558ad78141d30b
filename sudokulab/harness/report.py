"""The reports of a run: terminal tables, summary.md, summary.csv and meta.json."""

from __future__ import annotations

import csv
import json
import os
import platform
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from tabulate import tabulate

from sudokulab.harness.crosscheck import CrossCheck, Finding
from sudokulab.harness.records import Record, cores
from sudokulab.harness.stats import Figures
from sudokulab.result import Status, readable

PACKAGES = ("sudokulab", "python-sat", "z3-solver", "janus-swi", "ortools", "matplotlib",
            "tabulate")
SHOWN = 10  # disagreements listed on the terminal; summary.md lists them all
NATIVE_ALIGN = ("left", "left", "right", "right")
NONE = "—"  # a figure that does not exist (the median time of no answers)


@dataclass
class Report:
    """Everything a run's reports are made of."""

    title: str                       # 'top95 (95 puzzles)'
    settings: str                    # 'limit 2, timeout 10 s, ...'
    figures: list[Figures]
    check: CrossCheck
    skipped: dict[str, str]          # backend -> why it did not run
    references: bool
    records: list[Record]
    environment: dict                # as in meta.json
    plots: list[Path] = field(default_factory=list)
    competition: list[dict] = field(default_factory=list)  # competition.rows
    pairs: list = field(default_factory=list)              # uncertainty.Pair, with repeats
    effort: list[dict] = field(default_factory=list)       # effort.rows, with ratings


def timing_rows(report: Report) -> list[dict]:
    """One row per backend: counts, rate, times in milliseconds, warm-up; None (shown
    as NONE, empty in the CSV) where a backend has no answer to time. With repeats, each
    time figure is followed by its 95 % interval and the row ends with the run-to-run
    spread."""
    uncertain = any(f.intervals for f in report.figures)
    rows = []
    for f in report.figures:
        row = {"backend": f.backend, "puzzles": f.puzzles, "answered": f.answered,
               "wrong": report.check.wrong(f.backend), "timeouts": f.timeouts,
               "errors": f.errors, "unsupported": f.unsupported,
               **({"stalled": f.stalled} if any(g.stalled for g in report.figures) else {})}
        for name, value, scale in (("puzzles/s", f.rate, 1), ("median ms", f.median, 1000),
                                   ("p90 ms", f.p90, 1000), ("max ms", f.max, 1000)):
            row[name] = None if value is None else round(value * scale, 1 if scale == 1 else 3)
            if uncertain:
                row[f"{name.split()[0]} 95% CI"] = _bracket(
                    f.intervals.get(name.split(" ms")[0]), scale)
        row.update({"build s": round(f.build, 3), "solve s": round(f.solve, 3),
                    "warm-up ms": "" if f.warmup is None else _ms(f.warmup)})
        if uncertain:
            row["spread"] = "" if f.spread is None else f"{f.spread:.1%}"
        rows.append(row)
    return rows


def _bracket(interval, scale: float) -> str:
    """'11.9–12.8': an interval in the table's unit ('' for none)."""
    if interval is None:
        return ""
    digits = 1 if scale == 1 else 3
    return f"{interval.low * scale:.{digits}f}–{interval.high * scale:.{digits}f}"


def pair_rows(report: Report) -> list[dict]:
    """One row per pair of engines: the geometric-mean time ratio b/a, its interval, the
    Wilcoxon p-value and the verdict."""
    return [{"a": p.a, "b": p.b, "puzzles": p.puzzles,
             "time b/a": None if p.ratio is None else round(p.ratio.value, 3),
             "95% CI": "" if p.ratio is None else f"{p.ratio.low:.3f}–{p.ratio.high:.3f}",
             "p (Wilcoxon)": None if p.p is None else float(f"{p.p:.3g}"),
             "verdict": p.verdict} for p in report.pairs]


def native_rows(report: Report) -> list[dict]:
    """One row per backend and native statistic: its total and mean per puzzle."""
    return [{"backend": f.backend, "statistic": key,
             "total": "" if total is None else _number(total),
             "per puzzle": _number(mean)}
            for f in report.figures for key, (total, mean) in f.native.items()]


def error_rows(report: Report) -> list[dict]:
    """Errors grouped by backend and message, with how often and the first puzzle."""
    seen: Counter = Counter()
    first: dict[tuple[str, str], int] = {}
    for record in sorted(report.records, key=lambda r: r.index):
        if record.result.status == Status.ERROR:
            key = (record.backend, record.result.message)
            seen[key] += 1
            first.setdefault(key, record.index)
    return [{"backend": b, "puzzles": n, "first": f"#{first[(b, m)] + 1}", "message": m}
            for (b, m), n in seen.most_common()]


def sections(report: Report) -> list[tuple[str, str, list[dict]]]:
    """The tables after the timings, each with its heading and what it means: the
    competition measures, the pairwise comparison (with repeats) and effort against
    difficulty (with ratings); those without rows are left out."""
    found = [("Solver-competition measures",
              "PAR-2 is the mean time per puzzle with each puzzle not solved right within "
              "the timeout counted as twice the timeout; the virtual best solver (VBS) takes, "
              "for each puzzle, the fastest engine that solved it right; VBS share is the "
              "fraction of its puzzles each engine was fastest on; ≤ t s counts the puzzles "
              "solved right within t seconds.", report.competition),
             ("Pairwise comparison",
              "For each pair of engines, on the puzzles both answered right: the geometric "
              "mean of time(b) / time(a) with its 95 % bootstrap interval (puzzles and "
              "repeats redrawn, seeded), and the two-sided Wilcoxon signed-rank test of the "
              "paired log times; where the interval includes 1 there is no clear "
              "difference.", pair_rows(report)),
             ("Effort against difficulty",
              "Each engine's own effort measure against the puzzles' ratings: Spearman's "
              "rank correlation (1: the engine works harder exactly on the puzzles rated "
              "harder).", report.effort)]
    return [(heading, about, rows) for heading, about, rows in found if rows]


def tables_text(report: Report) -> str:
    """The tables of a report for a terminal or a notebook: timings, then sections()."""
    parts = [f"{report.title}: {report.settings}", "",
             tabulate(timing_rows(report), headers="keys", tablefmt="simple",
                      missingval=NONE)]
    for heading, _, rows in sections(report):
        parts += ["", heading, tabulate(rows, headers="keys", tablefmt="simple",
                                        missingval=NONE, disable_numparse=True)]
    parts += ["", verdict_line(report)]
    return "\n".join(parts)


def finding_rows(findings: Sequence[Finding]) -> list[dict]:
    """One row per disagreement, with the command that shows it again."""
    return [{"puzzle": f"#{f.index + 1}", "backend": f.backend, "answer": f.answer,
             "why": f.why, "reproduce": f.command} for f in findings]


def verdict_line(report: Report) -> str:
    """'Cross-check: unique 93, multiple (>= 2) 2; all answers agree.'"""
    counts = ", ".join(f"{name} {n}" for name, n in sorted(report.check.consensus().items()))
    against = " and the reference solutions" if report.references else ""
    findings = report.check.findings
    if not findings:
        return f"Cross-check: {counts}; every answer agrees with the others{against}."
    backends = ", ".join(sorted({f.backend for f in findings}))
    return (f"Cross-check: {counts}; {len(findings)} DISAGREEMENT(S) (by {backends}): "
            f"a backend contradicts the others{against} or returns an invalid grid.")


def terminal(report: Report, folder: Path) -> str:
    """What `compare` prints at the end."""
    parts = [f"{report.title}: {report.settings}", "",
             tabulate(timing_rows(report), headers="keys", tablefmt="simple",
                      missingval=NONE)]
    if native_rows(report):
        parts += ["", tabulate(native_rows(report), headers="keys", tablefmt="simple",
                                     colalign=NATIVE_ALIGN, disable_numparse=True)]
    for heading, _, rows in sections(report):
        parts += ["", heading, tabulate(rows, headers="keys", tablefmt="simple",
                                        missingval=NONE, disable_numparse=True)]
    parts += ["", *_skipped_lines(report), verdict_line(report)]
    findings = report.check.findings
    for f in findings[:SHOWN]:
        parts.append(f"  #{f.index + 1} {f.backend}: {f.answer}: {f.why}")
        if f.command:
            parts.append(f"    {f.command}")
    if len(findings) > SHOWN:
        parts.append(f"  ... {len(findings) - SHOWN} more in {folder / 'summary.md'}")
    errors = sum(f.errors for f in report.figures)
    if errors:
        parts.append(f"Errors: {errors} (see {folder / 'summary.md'}).")
    parts.append(f"Reports: {folder}/ (summary.md, summary.csv, meta.json, runs.jsonl"
                 f"{''.join(', ' + p.name for p in report.plots)})")
    return "\n".join(parts)


def markdown(report: Report) -> str:
    """summary.md: the tables, the cross-check, every disagreement and error, the plots."""
    lines = [f"# sudokulab compare: {report.title}", "", report.settings, ""]
    lines += [f"- {line}" for line in _about(report.environment) + _skipped_lines(report)]
    lines += ["", "## Timings", "",
              "Times are per puzzle, measured around the solve call in the worker process "
              "(median over repeats); median, p90 and max are over answered puzzles; "
              "puzzles/s is puzzles per second of solving time on one core, over the "
              f"puzzles a backend tried (not those with a rule it cannot express); {NONE} "
              "where a backend answered none; build and "
              "solve are the backend's own split; warm-up is the untimed first solve of "
              "each fresh worker. With repeats, each time figure has a 95 % bootstrap "
              "interval (puzzles and repeats redrawn, seeded) and spread is the engine's "
              "run-to-run noise: the median over puzzles of (slowest - fastest) / median "
              "of its repeats.", "",
              tabulate(timing_rows(report), headers="keys", tablefmt="github",
                       missingval=NONE)]
    if native_rows(report):
        lines += ["", "## Native statistics", "",
                  tabulate(native_rows(report), headers="keys", tablefmt="github",
                           colalign=NATIVE_ALIGN, disable_numparse=True)]
    for heading, about, rows in sections(report):
        lines += ["", f"## {heading}", "", about, "",
                  tabulate(rows, headers="keys", tablefmt="github", missingval=NONE,
                           disable_numparse=True)]
    lines += ["", "## Cross-check", "", verdict_line(report)]
    if report.check.findings:
        lines += ["", tabulate(finding_rows(report.check.findings), headers="keys",
                               tablefmt="github")]
    if error_rows(report):
        lines += ["", "## Errors", "", tabulate(error_rows(report), headers="keys",
                                                tablefmt="github")]
    if report.plots:
        lines += ["", "## Plots", ""] + [f"![{p.stem}]({p.name})" for p in report.plots]
    return "\n".join(lines) + "\n"


def write_csv(report: Report, path: Path) -> Path:
    """summary.csv: the timing table, with each native statistic per puzzle as a column."""
    rows = timing_rows(report)
    keys = sorted({key for f in report.figures for key in f.native})
    for row, f in zip(rows, report.figures, strict=True):
        row.update({key: float(f"{f.native[key][1]:.6g}") if key in f.native else ""
                    for key in keys})
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["backend"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_json(data: Mapping, path: Path) -> Path:
    """A JSON file, indented for people."""
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def environment(engines: Mapping[str, str]) -> dict:
    """Python, package and engine versions, and the machine, for meta.json."""
    versions = {"python": platform.python_version()}
    for package in PACKAGES:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {"versions": versions, "engines": dict(engines),
            "machine": {"platform": platform.platform(), "cpu": cpu_model(),
                        "cores": os.cpu_count(), "usable cores": cores(),
                        "python executable": sys.executable}}


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, or what platform knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _about(environment: Mapping) -> list[str]:
    """Where the figures come from: engine versions and the machine."""
    engines = "; ".join(f"{name} {version}" for name, version in
                        environment.get("engines", {}).items())
    machine = environment.get("machine", {})
    return [f"engines: {engines}",
            f"machine: {machine.get('cpu')}, {machine.get('usable cores')} usable cores, "
            f"{machine.get('platform')}, Python {environment['versions']['python']}"]


def _skipped_lines(report: Report) -> list[str]:
    """One line per backend that did not run, with why."""
    return [f"skipped {name}: {why}" for name, why in report.skipped.items()]


def _ms(seconds: float | None) -> float | None:
    """Milliseconds, to three decimals (None stays None)."""
    return None if seconds is None else round(seconds * 1000, 3)


def _number(value: float) -> str:
    """'1,138,860', '976,312' or '0.000632': thousands separated, small ones to 3
    significant digits, never in exponent form."""
    if float(value).is_integer() or abs(value) >= 1000:
        return f"{value:,.0f}"
    return readable(float(value))
