"""The outcome of a comparison, as `sudokulab compare` reports it and `sudokulab.compare`
returns it: the records, the cross-check and every table and plot made from them.

The command line and the Python API both build a Comparison from the records of a run,
so the tables a notebook shows are the ones summary.md holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from sudokulab.harness import competition, effort
from sudokulab.harness.crosscheck import CrossCheck, cross_check
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

    @cached_property
    def runs(self) -> dict[str, list[Record]]:
        """The records by engine, in the order the engines ran."""
        runs: dict[str, list[Record]] = {}
        for record in self.records:
            runs.setdefault(record.backend, []).append(record)
        return runs

    @cached_property
    def check(self) -> CrossCheck:
        """The cross-check of every answer against the others and the references."""
        return cross_check(self.puzzles, self.records, self.references, limit=self.limit,
                           timeout=self.timeout)

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
        return competition.virtual_best(self.runs, self.wrong)

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
        return effort.rows(self.runs, self.ratings) if self.ratings else []

    def summary(self) -> str:
        """The tables as `compare` prints them."""
        from sudokulab.harness import report

        return report.tables_text(self.report())

    def report(self, environment: Mapping | None = None, settings: str | None = None):
        """Everything the report files are made of."""
        from sudokulab.harness import report

        return report.Report(self.title, settings or self.describe(), self.figures,
                             self.check, self.skipped, bool(self.references),
                             self.records, dict(environment or {}),
                             competition=self.competition(), pairs=self.pairs(),
                             effort=self.effort())

    def describe(self) -> str:
        """'limit 2, timeout 10 s, repeat 1.'"""
        if self.about:
            return self.about
        timeout = f"timeout {self.timeout:g} s" if self.timeout else "no timeout"
        return f"limit {self.limit}, {timeout}, repeat {self.repeat}."

    def to_pandas(self):
        """The records as a pandas DataFrame: one row per puzzle and engine, with its
        status, time, repeat times, rating and native statistics (pandas is needed)."""
        from sudokulab.errors import Unavailable
        from sudokulab.extras import absent

        if absent("pandas"):
            raise Unavailable("to_pandas needs pandas (pandas is not installed): "
                              "pip install pandas")
        import pandas

        rows = [{"backend": r.backend, "puzzle": r.index, "status": r.result.status.value,
                 "right": r.result.status.is_answer and (r.backend, r.index) not in self.wrong,
                 "time": r.time, "times": list(r.times),
                 "rating": self.ratings.get(r.index), **r.result.stats}
                for r in self.records]
        return pandas.DataFrame(rows)

    def cactus(self, path: str | Path | None = None, *, best: bool = True):
        """The cactus plot (puzzles solved within a time, per engine, with the virtual
        best solver as a line of its own unless `best` is False): a matplotlib Figure,
        also written as a PNG to `path` if given."""
        from sudokulab.harness import plots

        figure = plots.cactus_figure(self.runs, self.heading, wrong=self.wrong,
                                     timeout=self.timeout, extra=self.best_line() if best else {})
        return plots.finish(figure, path)

    def best_line(self) -> dict[str, list[Record]]:
        """The virtual best solver as the cactus plot's extra line."""
        return {competition.VBS: self.virtual_best().records()}

    def scatter(self, a: str | None = None, b: str | None = None,
                path: str | Path | None = None):
        """Each puzzle's time with engine a against engine b (default: the first two): a
        matplotlib Figure, also written as a PNG to `path` if given."""
        from sudokulab.errors import UsageError
        from sudokulab.harness import plots

        specs = list(self.runs)
        a, b = a or (specs[0] if specs else None), b or (specs[1] if len(specs) > 1 else None)
        if a not in self.runs or b not in self.runs:
            raise UsageError(f"scatter needs two engines of this comparison "
                             f"({', '.join(specs)}), got {a!r} and {b!r}")
        figure = plots.scatter_figure(a, b, self.runs, self.heading, wrong=self.wrong,
                                      timeout=self.timeout)
        return plots.finish(figure, path)

    def effort_plot(self, path: str | Path | None = None):
        """Each engine's effort measure against the puzzles' ratings, one panel per
        engine: a matplotlib Figure (None without ratings), also written to `path`."""
        from sudokulab.harness import plots

        if not self.effort():
            return None
        return plots.finish(plots.effort_figure(self.runs, self.ratings, self.heading), path)

    @property
    def heading(self) -> str:
        """The plots' title."""
        return f"{self.title}: {self.describe()}"

