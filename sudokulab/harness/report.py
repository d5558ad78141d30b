"""The reports of a run: terminal tables, summary.md, summary.csv (with pairs.csv,
ranks.csv and effort.csv for the tables after the timings) and meta.json."""

from __future__ import annotations

import csv
import json
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tabulate import tabulate

from sudokulab.harness.crosscheck import CrossCheck, Finding
from sudokulab.harness.ranking import ALPHA
from sudokulab.harness.records import Record
from sudokulab.harness.stats import Figures
from sudokulab.result import Status, readable

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
    ranking: object | None = None     # ranking.Ranking (Friedman), with three engines or more
    tables: list[Path] = field(default_factory=list)       # write_sections' CSV files
    # per engine (verdicts its certificates prove, verdicts given): --certify; {}: not asked
    certified: dict[str, tuple[int, int]] = field(default_factory=dict)
    proofs: Mapping = field(default_factory=dict)          # certified.Proof by puzzle index


def timing_rows(report: Report, *, numeric: bool = False) -> list[dict]:
    """One row per backend: counts, rate, times in milliseconds, warm-up; None (shown
    as NONE, empty in the CSV) where a backend has no answer to time. With repeats, each
    time figure is followed by its 95 % interval ('low–high', or with `numeric` two
    columns of numbers) and the row ends with the run-to-run spread (a percentage)."""
    uncertain = any(f.intervals for f in report.figures)
    # a column of intervals only for a figure that has one somewhere (never the max)
    bracketed = {name for f in report.figures for name, i in f.intervals.items() if i}
    limit = limit_rate(report)
    rows = []
    for f in report.figures:
        row = {"backend": f.backend, "puzzles": f.puzzles, "answered": f.answered,
               "wrong": report.check.wrong(f.backend),
               **_certified_cells(report, f.backend, numeric),
               "timeouts": f.timeouts, "errors": f.errors, "unsupported": f.unsupported,
               **({"stalled": f.stalled} if any(g.stalled for g in report.figures) else {})}
        for name, value, scale in (("puzzles/s", f.rate, 1), ("median ms", f.median, 1000),
                                   ("p90 ms", f.p90, 1000), ("max ms", f.max, 1000)):
            row[name] = None if value is None else round(value * scale, 1 if scale == 1 else 3)
            if name == "puzzles/s" and limit:  # the compiled limit, on the same puzzles
                row["of native"] = None if f.rate is None else float(f"{f.rate / limit:.3g}")
            interval = f.intervals.get(name.split(" ms")[0])
            if name.split(" ms")[0] not in bracketed:
                continue
            if uncertain and numeric:
                row.update(_ends(name, interval, scale))
            elif uncertain:
                row[f"{name.split()[0]} 95% CI"] = _bracket(interval, scale)
        row.update({"CPU median ms": _ms(f.cpu),
                    "peak MB": None if f.memory is None else round(f.memory),
                    "build s": round(f.build, 3), "solve s": round(f.solve, 3),
                    "warm-up ms": "" if f.warmup is None else _ms(f.warmup)})
        if uncertain and numeric:
            row["spread %"] = None if f.spread is None else round(f.spread * 100, 1)
        elif uncertain:
            row["spread"] = "" if f.spread is None else f"{f.spread:.1%}"
        rows.append(row)
    return rows


def limit_rate(report: Report) -> float | None:
    """native's puzzles/s in this run: the compiled limit each rate is read against, on
    the same puzzles (issue 59); None when native did not run or answered none."""
    return next((f.rate for f in report.figures
                 if f.backend.split(":")[0] == "native" and f.rate), None)


def _certified_cells(report: Report, backend: str, numeric: bool) -> dict:
    """The 'certified' column: '93/95' (verdicts proved / given), or in the CSV two
    numbers; none when the run certified nothing."""
    if not report.certified:
        return {}
    proved, total = report.certified.get(backend, (0, 0))
    if numeric:
        return {"certified proved": proved, "certified given": total}
    return {"certified": f"{proved}/{total}"}


def certified_line(report: Report) -> str:
    """'Certified: 95 of 95 puzzles (unique 95), verified; 1 answer DISPROVED.' ('' when
    the run certified nothing)."""
    if not report.proofs:
        return ""
    proofs = list(report.proofs.values())
    made = [p for p in proofs if p.verdict is not None]
    verdicts = ", ".join(f"{name} {n}" for name, n in
                         sorted(Counter(p.verdict for p in made).items()))
    folder = str(Path(made[0].certificate).parent) if made else ""
    disproved = sum(1 for f in report.check.findings if "DISPROVED" in f.why)
    rejected = sum(1 for p in proofs if p.why.startswith("REJECTED"))
    parts = [f"Certified: {len(made)} of {len(proofs)} puzzles"
             + (f" ({verdicts}), each certificate verified by the lab's own checker"
                if made else "")
             + (f" (`sudokulab verify {shlex.quote(folder)}` checks them again)"
                if folder else "")]
    if len(made) < len(proofs):
        unsure = next(p for p in proofs if p.verdict is None)
        parts.append(f"{len(proofs) - len(made)} without a certificate "
                     f"(#{unsure.index + 1}: {unsure.why})")
    if rejected:
        parts.append(f"{rejected} certificate(s) REJECTED by the lab's own checks")
    parts.append(f"{disproved} answer(s) DISPROVED by a certificate (see the findings)"
                 if disproved else "no answer contradicts a certificate")
    return "; ".join(parts) + "."


def _bracket(interval, scale: float) -> str:
    """'11.9–12.8': an interval in the table's unit ('' for none)."""
    if interval is None:
        return ""
    digits = 1 if scale == 1 else 3
    return f"{interval.low * scale:.{digits}f}–{interval.high * scale:.{digits}f}"


def _ends(name: str, interval, scale: float) -> dict[str, float | None]:
    """{'median ms 95% CI low': 11.9, '... high': 12.8}: an interval as two numbers in
    the table's unit, rounded as its figure is (so they still hold it); None for none."""
    digits = 1 if scale == 1 else 3
    return {f"{name} 95% CI {end}": None if interval is None
            else round(getattr(interval, end) * scale, digits) for end in ("low", "high")}


def pair_rows(report: Report, *, numeric: bool = False) -> list[dict]:
    """One row per pair of engines: the geometric-mean time ratio b/a, its interval
    ('low–high', or two numeric columns), the Wilcoxon p-value as if the pair were tested
    alone, the same Holm-corrected over the family of pairs, and the verdict."""
    rows = []
    for p in report.pairs:
        if numeric:
            ends = {"95% CI low": None if p.ratio is None else round(p.ratio.low, 3),
                    "95% CI high": None if p.ratio is None else round(p.ratio.high, 3)}
        else:
            ends = {"95% CI": "" if p.ratio is None
                    else f"{p.ratio.low:.3f}–{p.ratio.high:.3f}"}
        rows.append({"a": p.a, "b": p.b, "puzzles": p.puzzles,
                     "time b/a": None if p.ratio is None else round(p.ratio.value, 3),
                     **ends, "p (Wilcoxon)": _p(p.p), holm_column(report): _p(p.holm),
                     "verdict": p.verdict})
    return rows


def holm_column(report: Report) -> str:
    """'p (Holm-corrected over 3 pairs)': the family the p-values were corrected over."""
    family = max((p.family for p in report.pairs), default=0)
    return f"p (Holm-corrected over {family} pair{'s' if family != 1 else ''})"


def rank_rows(report: Report) -> list[dict]:
    """One row per engine, best first: its average rank in the Friedman test and its
    groups' letters (engines sharing a letter are not told apart by Nemenyi's test;
    none unless the Friedman test rejects equal ranks)."""
    found = report.ranking
    if found is None:
        return []
    letters = found.letters() if found.rejected else {}
    return [{"backend": engine, "mean rank": round(found.rank(engine), 3),
             "group": letters.get(engine, "")} for engine in found.order]


def friedman_line(report: Report) -> str:
    """'Friedman chi² 17.17, p 0.000187 over 12 puzzles, 3 engines; Nemenyi ...'."""
    found = report.ranking
    unsolved = f" ({found.unsolved} unsolved by some engine)" if found.unsolved else ""
    test = ("every engine ties on every puzzle: no test" if found.p is None else
            f"Friedman chi² {found.statistic:.4g}, p {found.p:.3g}")
    after = ("engines sharing a letter are not told apart" if found.rejected else
             f"equal ranks not rejected at {ALPHA:g}: no post-hoc test")
    return (f"{test} over {found.puzzles} puzzles{unsolved}, {len(found.engines)} engines; "
            f"Nemenyi critical difference {found.cd:.3f} at {ALPHA:g}: {after}.")


def _p(value: float | None) -> float | None:
    """A p-value to 3 significant digits."""
    return None if value is None else float(f"{value:.3g}")


def native_rows(report: Report) -> list[dict]:
    """One row per backend and native statistic: its total and mean per puzzle it ran
    (not the unsupported ones, nor errors)."""
    return [{"backend": f.backend, "statistic": key,
             "total": "" if total is None else _number(total),
             "per puzzle run": _number(mean)}
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
    competition measures, the pairwise comparison (with repeats), the Friedman test
    (three engines or more) and effort against difficulty (with ratings); those without
    rows are left out. A heading's second line, the test's own figures, is printed under
    it (in summary.md, as the section's first paragraph)."""
    family = holm_column(report).removeprefix("p (").removesuffix(")")
    found = [("Solver-competition measures",
              "PAR-2 is the mean time per puzzle with each puzzle not solved right within "
              "the timeout counted as twice the timeout; the virtual best solver (VBS) takes, "
              "for each puzzle, the fastest engine that solved it right; VBS share is the "
              "fraction of its puzzles each engine was fastest on; ≤ t s counts the puzzles "
              "solved right within t seconds.", report.competition),
             (f"Pairwise comparison\nWilcoxon p-values {family}",
              "For each pair of engines, on the puzzles both answered right: the geometric "
              "mean of time(b) / time(a) with its 95 % bootstrap interval (puzzles and "
              "repeats redrawn, seeded), and the two-sided Wilcoxon signed-rank test of the "
              "paired log times, its p-value as if the pair were tested alone and "
              "Holm-corrected over every pair of the run (the verdict uses the corrected "
              "one); where the interval includes 1 there is no clear difference.",
              pair_rows(report)),
             (f"Friedman test and Nemenyi's critical difference\n{friedman_line(report)}"
              if report.ranking else "",
              "All engines at once, on the puzzles every engine was given and at least one "
              "solved right: each puzzle ranks the engines by time (1 the fastest; an engine "
              "that did not solve it right within the timeout ranks behind every one that "
              "did, tied with the others that failed); the Friedman test asks whether the "
              "average ranks differ more than chance would make them, and where it says so, "
              "Nemenyi's post-hoc test tells two engines apart when their average ranks "
              "differ by at least the critical difference (Demšar 2006; cd.png draws it).",
              rank_rows(report)),
             ("Effort against difficulty",
              "Each engine's own effort measure against the puzzles' ratings: Spearman's "
              "rank correlation (1: the engine works harder exactly on the puzzles rated "
              "harder), the p-value of no association (Student's t approximation) and a "
              "95 % percentile bootstrap interval (puzzles redrawn with their ratings, "
              "seeded).", report.effort)]
    return [(heading, about, rows) for heading, about, rows in found if rows]


def partial_lines(partial: str | None) -> list[str]:
    """The header of the tables of a run cut short ('PARTIAL: ' and why, from
    Outcome.why_partial), as `compare` prints them and Comparison.summary() gives them;
    none for a finished run."""
    return [f"PARTIAL: {partial}", ""] if partial else []


def tables_text(report: Report, partial: str | None = None) -> str:
    """The tables of a report for a terminal or a notebook: timings, then sections();
    headed by `partial` (partial_lines) for a run cut short."""
    parts = [*partial_lines(partial), f"{report.title}: {report.settings}", "",
             tabulate(timing_rows(report), headers="keys", tablefmt="simple",
                      missingval=NONE)]
    for heading, _, rows in sections(report):
        parts += ["", heading, tabulate(rows, headers="keys", tablefmt="simple",
                                        missingval=NONE, disable_numparse=True)]
    parts += ["", verdict_line(report), *filter(None, [certified_line(report)])]
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
    if not any(r.result.status.is_answer for r in report.records):
        return "Cross-check: no backend answered a puzzle: nothing to cross-check."
    if not findings:
        return f"Cross-check: {counts}; every answer agrees with the others{against}."
    backends = ", ".join(sorted({f.backend for f in findings}))
    return (f"Cross-check: {counts}; {len(findings)} DISAGREEMENT(S) (by {backends}): "
            f"a backend contradicts the others{against} or returns an invalid grid.")


def terminal(report: Report, folder: Path, partial: str | None = None) -> str:
    """What `compare` prints at the end; `partial` (why the run stopped, what finished)
    heads the tables of a run cut short, whose report files are not written yet."""
    parts = partial_lines(partial)
    parts += [f"{report.title}: {report.settings}", "",
             tabulate(timing_rows(report), headers="keys", tablefmt="simple",
                      missingval=NONE)]
    if native_rows(report):
        parts += ["", tabulate(native_rows(report), headers="keys", tablefmt="simple",
                                     colalign=NATIVE_ALIGN, disable_numparse=True)]
    for heading, _, rows in sections(report):
        parts += ["", heading, tabulate(rows, headers="keys", tablefmt="simple",
                                        missingval=NONE, disable_numparse=True)]
    parts += ["", *_skipped_lines(report), verdict_line(report),
              *filter(None, [certified_line(report)])]
    full = f"{folder / 'summary.md'}" + (" (written when the run is finished)" if partial else "")
    findings = report.check.findings
    for f in findings[:SHOWN]:
        parts.append(f"  #{f.index + 1} {f.backend}: {f.answer}: {f.why}")
        if f.command:
            parts.append(f"    {f.command}")
    if len(findings) > SHOWN:
        parts.append(f"  ... {len(findings) - SHOWN} more in {full}")
    errors = sum(f.errors for f in report.figures)
    if errors:
        parts.append(f"Errors: {errors} (see {full}).")
    if partial:  # summary.md and the plots come with the finished run
        parts.append(f"Kept: {folder}/ (meta.json, runs.jsonl); the reports are written "
                     f"when `sudokulab compare --resume --out {shlex.quote(str(folder))}` "
                     f"finishes the run.")
        return "\n".join(parts)
    parts.append(f"Reports: {folder}/ (summary.md, summary.csv, meta.json, runs.jsonl"
                 f"{''.join(', ' + p.name for p in report.tables + report.plots)})")
    parts += cite_lines(report.environment, shlex.quote(str(folder)))
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
              "where a backend answered none; 'of native' (when native ran) is that rate "
              "as a fraction of native's, the compiled limit, on the same puzzles; build and "
              "solve are the backend's own split; CPU median is the CPU time of the solve "
              "(the worker's threads and child processes), peak MB the largest resident "
              "memory of an engine's worker process; warm-up is the untimed first solve of "
              "each fresh worker. Unless the run says warm, every solve is cold: the engine "
              "first forgets what earlier solves taught it. With repeats (passes over the "
              "set, each in its own order), puzzles/s and the median have a 95 % bootstrap "
              "interval (puzzles and repeats redrawn, seeded), p90 too from 100 puzzles on, "
              "the max never; spread is the engine's run-to-run noise: the median over "
              "puzzles of (slowest - fastest) / median of its repeats.", "",
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
    if report.proofs:
        lines += ["", "## Certified verdicts", "",
                  "Each puzzle's verdict was proved once, on the certificates' own CNF "
                  "(sudokulab/certificates/encoder.py, sharing no code with any engine), with a "
                  "DRAT proof replayed by the lab's own checker and every solution checked "
                  "by check.py (docs/certified.md). The column certified is each engine's "
                  "verdicts the certificates prove over the verdicts it gave; an answer a "
                  "certificate contradicts is a wrong answer, listed with the cross-check's "
                  "findings above.", "", certified_line(report)]
    if error_rows(report):
        lines += ["", "## Errors", "", tabulate(error_rows(report), headers="keys",
                                                tablefmt="github")]
    if report.plots:
        lines += ["", "## Plots", ""] + [f"![{p.stem}]({p.name})" for p in report.plots]
    if cite_lines(report.environment):
        lines += ["", "---", "", *cite_lines(report.environment)]
    return "\n".join(lines) + "\n"


def write_csv(report: Report, path: Path) -> Path:
    """summary.csv: the timing table, with each native statistic per puzzle as a column;
    every column but the backend's name a number (an empty cell for none)."""
    rows = timing_rows(report, numeric=True)
    keys = sorted({key for f in report.figures for key in f.native})
    for row, f in zip(rows, report.figures, strict=True):
        row.update({key: float(f"{f.native[key][1]:.6g}") if key in f.native else ""
                    for key in keys})
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["backend"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_sections(report: Report, folder: Path) -> list[Path]:
    """pairs.csv, ranks.csv and effort.csv (those with rows): the tables after the
    timings, every figure in a numeric column of its own."""
    written = []
    for name, rows in (("pairs.csv", pair_rows(report, numeric=True)),
                       ("ranks.csv", rank_rows(report)), ("effort.csv", report.effort)):
        if rows:
            with (folder / name).open("w", newline="", encoding="utf-8") as out:
                writer = csv.DictWriter(out, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
            written.append(folder / name)
    return written


def write_json(data: Mapping, path: Path) -> Path:
    """A JSON file, indented for people."""
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def _about(environment: Mapping) -> list[str]:
    """Where the figures come from: engine versions and the machine."""
    engines = "; ".join(f"{name} {version}" for name, version in
                        environment.get("engines", {}).items())
    machine = environment.get("machine", {})
    clock = f", {machine['cpu MHz']:g} MHz" if machine.get("cpu MHz") else ""
    memory = (f", {machine['memory MiB'] / 1024:.1f} GiB memory"
              if machine.get("memory MiB") else "")
    load = ", ".join(f"{when} {environment[f'load {when}'][0]:.2f}"
                     for when in ("before", "after") if environment.get(f"load {when}"))
    return [f"engines: {engines}",
            f"machine: {machine.get('cpu')}{clock}, {machine.get('usable cores')} usable "
            f"cores{memory}, {machine.get('platform')}, Python "
            f"{environment.get('versions', {}).get('python')}"
            + (f"; load average (1 min) {load}" if load else "")]


def cite_lines(environment: Mapping, folder: str | None = None) -> list[str]:
    """The report's footer: the commit and mode the figures come from and the command
    that prints how to cite the run (in `folder`; DIR, this folder, in summary.md); none
    for a run that recorded no source (the API's)."""
    from sudokulab.harness.provenance import described, sources_of

    sources = sources_of(environment)
    if not sources:
        return []
    several = len(sources) > 1  # a run resumed by other code: each, with its records
    code = " and ".join(f"sudokulab {s.get('version')}, {described(s, 12)}"
                        + (f" ({s.get('records', 'unknown')} records)" if several else "")
                        for s in sources)
    mode = f", in {environment['mode']} mode" if environment.get("mode") else ""
    return [f"Measured by {code}{mode}; "
            f"`sudokulab compare --cite --out "
            f"{folder or 'DIR'}`{'' if folder else ' (DIR: this folder)'} prints how to "
            f"cite this run."]


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
