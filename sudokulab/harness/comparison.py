"""The outcome of a comparison, as `sudokulab compare` reports it and `sudokulab.compare`
returns it: the records, the cross-check and every table and plot made from them.

The command line and the Python API both build a Comparison from the records of a run,
so the tables a notebook shows are the ones summary.md holds.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from sudokulab.errors import UsageError
from sudokulab.harness import competition, effort
from sudokulab.harness.certified import Proof
from sudokulab.harness.crosscheck import CrossCheck, Finding, cross_check
from sudokulab.harness.records import Record
from sudokulab.harness.stats import Figures, figures
from sudokulab.puzzle import Grid, Puzzle


@dataclass
class Comparison:
    """Engines compared over puzzles: `records` holds one Record per puzzle and engine."""

    puzzles: dict[int, Puzzle]
    records: list[Record]
    title: str = "puzzles"
    limit: int = 2
    timeout: float | None = 10.0
    repeat: int = 1
    seed: int = 0
    references: dict[int, Grid] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)   # engine -> why it did not run
    ratings: dict[int, float] = field(default_factory=dict)  # puzzle index -> difficulty
    about: str = ""  # the settings as the reports state them (default: describe())
    # meta.json as `sudokulab compare` writes it (settings, sessions, environment): what
    # save() writes, and where dataset and mode come from; {} for one made by hand
    meta: dict = field(default_factory=dict)
    given: list[Puzzle] = field(default_factory=list)  # a run over a list: every puzzle of
                                                       # it (the sample is drawn from them)
    # each puzzle's certified verdict (--certify, issue 56), by index; {} when not asked
    proofs: dict[int, Proof] = field(default_factory=dict)
    # a run cut short (Ctrl-C, SIGTERM): why and what finished, as `compare` heads its
    # tables after 'PARTIAL: ' (Outcome.why_partial); '' for a run that finished
    partial: str = ""
    finished: int | None = None  # of a run cut short: the puzzles every engine answered

    @cached_property
    def runs(self) -> dict[str, list[Record]]:
        """The records by engine, in the order the engines ran."""
        runs: dict[str, list[Record]] = {}
        for record in self.records:
            runs.setdefault(record.backend, []).append(record)
        return runs

    @cached_property
    def check(self) -> CrossCheck:
        """The cross-check of every answer against the others and the references, and
        against the certified verdicts: an answer a certificate contradicts is wrong."""
        found = cross_check(self.puzzles, self.records, self.references, limit=self.limit,
                            timeout=self.timeout)
        if self.proofs:
            _disproved(found, self.records, self.proofs)
        return found

    def certified(self) -> dict[str, tuple[int, int]]:
        """Per engine, (verdicts the certificates prove, verdicts given); {} when the run
        certified nothing."""
        from sudokulab.harness.certified import tally

        return tally(self.records, self.proofs) if self.proofs else {}

    @property
    def wrong(self) -> set[tuple[str, int]]:
        """(engine, puzzle index) of each answer the cross-check refutes."""
        return {(f.backend, f.index) for f in self.check.findings}

    @cached_property
    def figures(self) -> list[Figures]:
        """Each engine's timing figures, with 95 % intervals when there are repeats."""
        found = [figures(spec, records) for spec, records in self.runs.items()]
        if self.uncertain:
            from sudokulab.harness import uncertainty

            uncertainty.need()
            for f in found:
                f.intervals = uncertainty.intervals(self.runs[f.backend], seed=self.seed)
                f.spread = uncertainty.spread(self.runs[f.backend])
        return found

    @property
    def uncertain(self) -> bool:
        """Whether the run has repeats to measure its noise with."""
        return self.repeat >= 2

    def competition(self) -> list[dict]:
        """PAR-2, the virtual best solver and each engine's share of it, solved within
        0.1, 1 and 10 s: one row per engine, then the VBS."""
        return competition.rows(self.runs, self.timeout, self.wrong)

    def virtual_best(self) -> competition.Best:
        """The fastest engine per puzzle that it solved right."""
        return competition.virtual_best(self.runs, self.wrong, self.timeout)

    def pairs(self) -> list:
        """Each pair of engines on the puzzles both answered right: the geometric-mean
        time ratio with its interval, the Wilcoxon p-value and the verdict (needs
        repeats: [] without)."""
        if not self.uncertain or len(self.runs) < 2:
            return []
        from sudokulab.harness import uncertainty

        uncertainty.need()
        return uncertainty.pairs(self.runs, wrong=self.wrong, seed=self.seed)

    def effort(self) -> list[dict]:
        """Each engine's effort measure against the puzzles' ratings (Spearman's rho);
        [] when no puzzle has a rating."""
        return effort.rows(self.runs, self.ratings, seed=self.seed) if self.ratings else []

    def ranking(self):
        """The Friedman test over the puzzles (an engine that did not solve one right is
        slower on it than any that did), the engines' average ranks and Nemenyi's
        critical difference (a ranking.Ranking); None with fewer than three engines."""
        from sudokulab.harness import ranking, uncertainty

        uncertainty.need()
        return ranking.friedman(self.runs, self.wrong, self.timeout)

    def profiles(self):
        """Dolan and Moré's performance profiles: each engine's time over the best
        engine's, per puzzle (a ranking.Profile); None without a puzzle any engine
        solved."""
        from sudokulab.harness import ranking, uncertainty

        uncertainty.need()
        return ranking.profile(self.runs, self.wrong, self.timeout)

    def summary(self) -> str:
        """The tables as `compare` prints them."""
        from sudokulab.harness import report

        return report.tables_text(self.report(), partial=self.partial)

    def report(self, environment: Mapping | None = None, settings: str | None = None):
        """Everything the report files are made of."""
        from sudokulab.harness import report

        return report.Report(self.title, settings or self.describe(), self.figures,
                             self.check, self.skipped, bool(self.references),
                             self.records, dict(environment or {}),
                             competition=self.competition(), pairs=self.pairs(),
                             effort=self.effort(), ranking=_installed(self.ranking),
                             certified=self.certified(), proofs=self.proofs)

    def describe(self) -> str:
        """'limit 2, timeout 10 s, repeat 1.'"""
        if self.about:
            return self.about
        timeout = f"timeout {self.timeout:g} s" if self.timeout else "no timeout"
        return f"limit {self.limit}, {timeout}, repeat {self.repeat}."

    def to_pandas(self, long: bool = False):
        """The records as a pandas DataFrame (pandas is needed: the `pandas` extra).

        One row per engine and puzzle: dataset, backend, puzzle (its index), status,
        right, time (the median of the repeats), times (every repeat's), cpu and memory
        (where measured), rating and the engine's native statistics. With `long`, one
        row per engine, puzzle and repeat: dataset, backend, puzzle, repeat (1, 2, ...),
        time, cpu (where measured), status and rating. Numbers are float or int columns,
        a missing one NaN."""
        from sudokulab.backends.extras import need

        need("pandas", "to_pandas")
        import pandas

        rows = self._repeat_rows() if long else self._record_rows()
        return _typed(pandas, pandas.DataFrame(rows), self._stat_keys() if not long else ())

    def _record_rows(self) -> list[dict]:
        """to_pandas' rows: one per record."""
        measured = self._measured()
        return [{"dataset": self.dataset, "backend": r.backend, "puzzle": r.index,
                 "status": r.result.status.value,
                 "right": r.result.status.is_answer and (r.backend, r.index) not in self.wrong,
                 "time": r.time, "times": list(r.times or [r.time]),
                 **({"cpu": r.cpu} if "cpu" in measured else {}),
                 **({"memory": r.memory} if "memory" in measured else {}),
                 "rating": self.ratings.get(r.index), **r.result.stats}
                for r in self.records]

    def _repeat_rows(self) -> list[dict]:
        """to_pandas(long=True)'s rows: one per repeat of each record."""
        with_cpu = "cpu" in self._measured()
        rows = []
        for r in self.records:
            times = list(r.times or [r.time])
            cpus = r.cpus
            statuses = r.statuses  # empty: all as the result
            for k, seconds in enumerate(times):
                rows.append({"dataset": self.dataset, "backend": r.backend, "puzzle": r.index,
                             "repeat": k + 1, "time": seconds,
                             **({"cpu": cpus[k] if k < len(cpus) else None}
                                if with_cpu else {}),
                             "status": statuses[k] if k < len(statuses)
                             else r.result.status.value,
                             "rating": self.ratings.get(r.index)})
        return rows

    def _measured(self) -> set[str]:
        """Which of CPU time and memory some record has (runs before they were measured
        have neither)."""
        return {name for name in ("cpu", "memory")
                if any(getattr(r, name) is not None for r in self.records)}

    def _stat_keys(self) -> list[str]:
        """The names of the native statistics any record reports."""
        return list(dict.fromkeys(key for r in self.records for key in r.result.stats))

    @property
    def dataset(self) -> str:
        """The puzzle set's name: the bundled dataset's, the file's stem, or the title's."""
        settings = self.meta.get("settings", {})
        if settings.get("dataset"):
            return settings["dataset"]
        if settings.get("file"):
            return Path(settings["file"]).name.split(".")[0]
        return self.title.split(" (")[0]

    @property
    def mode(self) -> str:
        """'cold' (each solve on an engine as a fresh one would be) or 'warm'."""
        return "warm" if self.meta.get("settings", {}).get("warm") else "cold"

    def __repr__(self) -> str:
        """One line: dataset, puzzles (for a run cut short, how many of them every engine
        finished), engines, repeats and mode."""
        engines = ", ".join(self.runs) or "none"
        skipped = f" ({len(self.skipped)} skipped)" if self.skipped else ""
        return (f"<Comparison {self.dataset}: {self.puzzles_finished()}, "
                f"backends {engines}{skipped}, repeat {self.repeat}, {self.mode}>")

    def puzzles_finished(self) -> str:
        """'1465 puzzles', or for a run cut short 'PARTIAL, 315 of 1465 puzzles
        finished' (by every engine)."""
        if not self.partial:
            return f"{len(self.puzzles)} puzzles"
        done = "?" if self.finished is None else self.finished
        return f"PARTIAL, {done} of {len(self.puzzles)} puzzles finished"

    def _repr_html_(self) -> str:
        """What a notebook shows: the timing table in HTML, under the run's heading and
        over the cross-check's verdict (summary() has every table)."""
        from html import escape

        from tabulate import tabulate

        from sudokulab.harness import report

        summary = self.report()
        table = tabulate(report.timing_rows(summary), headers="keys", tablefmt="html",
                         missingval=report.NONE)
        partial = f"<p><b>PARTIAL</b>: {escape(self.partial)}</p>" if self.partial else ""
        return (f"<div>{partial}<p><b>{escape(summary.title)}</b>: "
                f"{escape(summary.settings)}</p>"
                f"{table}<p>{escape(report.verdict_line(summary))}</p></div>")

    def save(self, folder: str | Path) -> Path:
        """Write the run into `folder` as `sudokulab compare` does: meta.json and
        runs.jsonl (and puzzles.jsonl for a run over a list of puzzles), which
        sl.open_run and `sudokulab compare --resume --out FOLDER` read; the folder."""
        from sudokulab.errors import UsageError
        from sudokulab.harness import report
        from sudokulab.harness.runlog import RunLog

        folder = Path(folder)
        if (folder / "runs.jsonl").exists():
            raise UsageError(f"{folder} holds a run already: save into another folder")
        log = RunLog(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            report.write_json(self._saved_meta(folder), folder / "meta.json")
            for record in self.records:
                log.append(record)
        except OSError as error:
            raise UsageError(f"{folder}: cannot write there: "
                             f"{error.strerror or error}") from None
        finally:
            log.close()
        return folder

    def _saved_meta(self, folder: Path) -> dict:
        """meta.json for save(): the run's own, with the puzzles of a run over a list
        written to puzzles.jsonl beside it and named as its file."""
        import copy

        meta = copy.deepcopy(self.meta) or {"seed": self.seed, "sessions": []}
        settings = meta.setdefault("settings", {
            "backends": ",".join(self.runs), "limit": self.limit, "timeout": self.timeout,
            "repeat": self.repeat, "seed": self.seed})
        if not settings.get("dataset") and not settings.get("file"):
            settings.update(self._written_puzzles(folder))
        if self.ratings:  # a file's ratings are read again; the API's are kept here
            meta["ratings"] = {str(k): v for k, v in self.ratings.items()}
        return meta

    def _written_puzzles(self, folder: Path) -> dict:
        """Write the puzzles of a run over a list to folder/puzzles.jsonl; the settings
        that name it (the sample is drawn from it again, as it was from the list)."""
        from sudokulab.errors import UsageError
        from sudokulab.formats import files

        puzzles = self.given or [self.puzzles[i] for i in sorted(self.puzzles)]
        if not self.given and sorted(self.puzzles) != list(range(len(puzzles))):
            raise UsageError("save needs the puzzles a sample was drawn from (a Comparison "
                             "made by sl.compare has them)")
        path = folder / "puzzles.jsonl"
        path.write_text(files.write(puzzles, "jsonl"), encoding="utf-8")
        return {"dataset": None, "file": str(path.resolve()), "input_format": "jsonl",
                **({} if self.given else {"sample": None})}

    def cactus(self, path: str | Path | None = None, *, best: bool = True, ax=None,
               clock: str = "wall"):
        """The cactus plot (puzzles solved within a time, per engine, with the virtual
        best solver as a line of its own unless `best` is False): a matplotlib Figure,
        also written as a PNG to `path` if given; drawn on `ax` (a matplotlib Axes) if
        given. `clock="cpu"` plots each solve's CPU time instead of its wall time (a
        record of an older run, with none, is left out)."""
        from sudokulab.harness import plots

        if clock not in ("wall", "cpu"):
            raise UsageError(f"clock {clock!r}: give 'wall' or 'cpu'")
        runs = self.runs if clock == "wall" else {
            spec: [replace(r, time=r.cpu) for r in records if r.cpu is not None]
            for spec, records in self.runs.items()}
        line = {competition.VBS: competition.virtual_best(runs, self.wrong, self.timeout)
                .records()} if best else {}
        figure = plots.cactus_figure(runs, self.heading, wrong=self.wrong,
                                     timeout=self.timeout, extra=line, ax=ax, clock=clock)
        return plots.drawn(figure, path, ax)

    def best_line(self) -> dict[str, list[Record]]:
        """The virtual best solver as the cactus plot's extra line."""
        return {competition.VBS: self.virtual_best().records()}

    def scatter(self, a: str | None = None, b: str | None = None,
                path: str | Path | None = None, *, ax=None):
        """Each puzzle's time with engine a against engine b (default: the first two): a
        matplotlib Figure, also written as a PNG to `path` if given; drawn on `ax` (a
        matplotlib Axes) if given."""
        from sudokulab.errors import UsageError
        from sudokulab.harness import plots

        specs = list(self.runs)
        a, b = a or (specs[0] if specs else None), b or (specs[1] if len(specs) > 1 else None)
        if a not in self.runs or b not in self.runs:
            raise UsageError(f"scatter needs two engines of this comparison "
                             f"({', '.join(specs)}), got {a!r} and {b!r}")
        figure = plots.scatter_figure(a, b, self.runs, self.heading, wrong=self.wrong,
                                      timeout=self.timeout, ax=ax)
        return plots.drawn(figure, path, ax)

    def effort_plot(self, path: str | Path | None = None, *, ax=None):
        """Each engine's effort measure against the puzzles' ratings, one panel per
        engine (on `ax`, a matplotlib Axes, if given: every engine in it): a matplotlib
        Figure (None without ratings), also written to `path`."""
        from sudokulab.harness import plots

        if not self.effort():
            return None
        figure = plots.effort_figure(self.runs, self.ratings, self.heading, ax=ax)
        return plots.drawn(figure, path, ax)

    def critical_difference(self, path: str | Path | None = None, *, ax=None):
        """Demšar's critical-difference diagram of ranking(): a matplotlib Figure (None
        with fewer than three engines), also written as a PNG to `path` if given; drawn
        on `ax` if given."""
        from sudokulab.harness import plots

        found = self.ranking()
        if found is None:
            return None
        return plots.drawn(plots.critical_difference_figure(found, self.heading, ax=ax),
                           path, ax)

    def profile(self, path: str | Path | None = None, *, ax=None):
        """The performance profiles of profiles(), one step curve per engine over log
        tau: a matplotlib Figure (None without a solved puzzle), also written as a PNG
        to `path` if given; drawn on `ax` if given."""
        from sudokulab.harness import plots

        found = self.profiles()
        if found is None:
            return None
        return plots.drawn(plots.profile_figure(found, self.heading, ax=ax), path, ax)

    @property
    def heading(self) -> str:
        """The plots' title."""
        return f"{self.title}: {self.describe()}"


def _disproved(found: CrossCheck, records: list[Record], proofs: Mapping[int, Proof]) -> None:
    """Add to the cross-check each answer a certificate contradicts (to the finding the
    answer has already, if it has one: a wrong answer counts once)."""
    from dataclasses import replace as changed

    from sudokulab.harness.certified import disproved

    by_index = {puzzle.index: puzzle for puzzle in found.puzzles}
    for record, why in disproved(records, proofs):
        puzzle = by_index.get(record.index)
        if puzzle is None:
            continue
        line = f"DISPROVED by its certificate: {why}"
        for k, finding in enumerate(puzzle.findings):
            if finding.backend == record.backend:
                puzzle.findings[k] = changed(finding, why=f"{finding.why}; {line}")
                break
        else:
            from sudokulab.harness.crosscheck import answer_text

            puzzle.findings.append(Finding(record.index, record.backend,
                                           answer_text(record.result), line,
                                           f"sudokulab verify {proofs[record.index].certificate}"))


def _installed(figure):
    """figure(), or None where the stats extra it needs is not installed (the report
    then leaves it out, as it does the intervals of a run without repeats)."""
    from sudokulab.errors import Unavailable

    try:
        return figure()
    except Unavailable:
        return None


def _typed(pandas, frame, stats: Sequence[str] = ()):
    """The frame with numbers in number columns: int for indices, float for measures
    (a missing one NaN), and a native statistic numeric where every value is a number."""
    frame = frame.astype({column: kind for column, kind in DTYPES.items() if column in frame})
    for column in stats:
        with contextlib.suppress(ValueError, TypeError):  # text: left as it is
            frame[column] = pandas.to_numeric(frame[column])
    return frame


DTYPES = {"puzzle": "int64", "repeat": "int64", "time": "float64", "cpu": "float64",
          "memory": "float64", "rating": "float64", "right": "bool"}
