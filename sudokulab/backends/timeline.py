"""What a learning engine reports over time: its counters sampled while it searches.

A backend samples when its `timeline` attribute holds a Timeline (None, the default, costs
one test per solve: nothing changes in its search). Each engine is observed as its API
allows, no more:
- sat: the search runs in slices of a conflict budget (`conf_budget(k)`, `solve_limited`),
  PySAT's `accum_stats()` read after each slice: decisions, conflicts, propagations,
  restarts. A slice that ends unanswered hands the next one a solver at level 0 with
  everything learned kept, so the sliced search restarts at each slice's end: its path
  (and its counts) differ from the unsliced run's; its answer does not.
- asp: a clingo propagator whose `decide` returns clasp's own choice unchanged: it sees
  every choice as it is made, and each return to a lower decision level (a backjump,
  after one or more conflicts). The search is the one the backend runs.
- cpsat: CP-SAT's solution callback reads its branches, conflicts and propagations at
  each solution it finds; a Sudoku search finds one or two, so those and the end.
- smt: Z3's statistics read after each `check()` (one per solution, and the last that
  proves there is none more).
- prolog: SWI-Prolog's search runs inside one call; its inference count is read at the
  end only.
Every timeline starts at zero (nothing counted before the search) and ends on the
engine's final statistics, so its figures are cumulative counts that never go down.

Bounded: at most `cap` samples (TIMELINE_CAP unless told). When full, every other sample
goes and the sampling stride doubles (for sat: the conflicts per slice).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sudokulab.backends.recording import RecordingFile

if TYPE_CHECKING:
    from sudokulab.result import Found

TIMELINE_CAP = 500  # samples kept per search
BUDGET_MAX = 2**31 - 1  # conflicts per sat slice at most: any C integer holds it

# What each figure means in each paradigm: one sentence, shown beside its chart.
MEANING: dict[str, dict[str, str]] = {
    "sat": {
        "decisions": "Literals the SAT solver set true by choice, not forced by a clause: "
                     "its guesses.",
        "conflicts": "Clauses falsified by the current assignment: each dead end teaches "
                     "the solver a new clause that rules out its cause.",
        "propagations": "Literals forced by unit propagation: a clause with one literal "
                        "left open makes it true.",
        "restarts": "Times the solver dropped every guess and started again from level "
                    "0, keeping the clauses it learned.",
    },
    "asp": {
        "choices": "Atoms clasp decided by choice (seen by a propagator's decide as each "
                   "is made): its guesses about which atoms are in the answer set.",
        "backjumps": "Returns to a lower decision level before a choice: each follows one "
                     "or more conflicts, whose nogoods clasp learned (its conflict count "
                     "is in the final statistics).",
        "conflicts": "Nogoods violated by the current assignment: clasp learns one per "
                     "conflict (known at the end only).",
    },
    "cpsat": {
        "branches": "Search decisions CP-SAT took: a literal or a domain split chosen, "
                    "not forced.",
        "conflicts": "Dead ends of its SAT core: each is explained by a learned clause "
                     "over the Boolean literals behind the domains.",
        "propagations": "Literals and bounds forced by the constraints' propagators and "
                        "the clauses.",
    },
    "smt": {
        "decisions": "Literals Z3's core set by choice before asking the theory what "
                     "follows.",
        "conflicts": "Assignments the clauses or the theory refuted: each adds a learned "
                     "lemma.",
        "propagations": "Literals forced by clauses and by the theory's reasoning "
                        "(Boolean and theory propagations together).",
    },
    "prolog": {
        "inferences": "Logical inferences of SWI-Prolog: calls of the program and of the "
                      "CLP(FD) propagators; read at the end only, the search runs inside "
                      "one call.",
    },
}

# How the samples are taken, per engine (the page and the CLI's header say it).
HOW = {
    "sat": "accum_stats() after each slice of a conflict budget (the slice restarts the "
           "search at its end)",
    "asp": "a clingo propagator's decide callback, at every choice (the search unchanged)",
    "cpsat": "the solution callback at each solution found, and the end",
    "smt": "Z3's statistics after each check()",
    "prolog": "the final statistics only: the search runs inside one Prolog call",
}


class Timeline:
    """Samples of one engine's cumulative counters, `t` seconds after the search began."""

    def __init__(self, engine: str, cap: int = TIMELINE_CAP) -> None:
        from sudokulab.errors import InputError

        why = TimelineFile.refusal(engine)
        if why:
            raise InputError(why)
        if cap < 2:
            raise ValueError("a timeline needs room for at least two samples")
        self.engine, self.cap = engine, cap
        self.figures = tuple(MEANING[engine])
        self.stride = 1  # events between samples (sat: conflicts per slice); doubles when full
        self.base: Mapping[str, float] | None = None
        self.started = time.perf_counter()
        self.samples: list[dict[str, float]] = [{"t": 0.0, **dict.fromkeys(self.figures, 0)}]

    def begin(self, counts: Mapping[str, float]) -> None:
        """The engine's counters before the search: later samples count from them."""
        if self.base is None:
            self.base = dict(counts)
            self.started = time.perf_counter()

    def sample(self, counts: Mapping[str, float]) -> None:
        """Keep the counters now (less `base`); thin out when the cap is passed."""
        base = self.base or {}
        last = self.samples[-1]
        point = {"t": round(time.perf_counter() - self.started, 6)}
        for figure in self.figures:
            point[figure] = (counts[figure] - base.get(figure, 0) if figure in counts
                             else last[figure])
        self.samples.append(point)
        if len(self.samples) > self.cap:
            self._thin()

    def finish(self, stats: Mapping[str, float | str], seconds: float) -> None:
        """End on the engine's final statistics (those it reports of these figures)."""
        last = self.samples[-1]
        final = {figure: float(stats.get(figure, last[figure])) for figure in self.figures}
        if any(final[f] != last[f] for f in self.figures) or len(self.samples) == 1:
            self.samples.append({"t": round(max(seconds, last["t"]), 6), **final})
            if len(self.samples) > self.cap:
                self._thin()

    def _thin(self) -> None:
        """Keep every other sample (the first and the last always), sample half as often."""
        first, kept = self.samples[0], self.samples[::-2][::-1]
        self.samples = kept if kept[0] is first else [first, *kept]
        self.stride *= 2

    def series(self) -> dict[str, list[float]]:
        """Each figure's values in sample order, and `t`."""
        return {key: [point[key] for point in self.samples] for key in ("t", *self.figures)}

    def to_json(self) -> dict:
        """The timeline for the page: samples, what each figure means, how it was taken."""
        return {"engine": self.engine, "how": HOW[self.engine], "cap": self.cap,
                "stride": self.stride, "figures": list(self.figures),
                "meaning": MEANING[self.engine], "samples": self.samples}

    # --- the engines' observers ---------------------------------------------------------

    def sat_run(self, engine, assumptions: list[int], deadline) -> bool | None:
        """One SAT call of sat.Engine in slices of `stride` conflicts, sampled after each."""
        solver = engine.solver
        self.begin(solver.accum_stats())
        if engine.stop == "none":  # no budget (Lingeling): one sample at the end
            status = solver.solve(assumptions=assumptions)
            self.sample(solver.accum_stats())
            return status
        while True:
            # a count's thousands of calls keep doubling the stride past what PySAT's C
            # long takes (an OverflowError): beyond BUDGET_MAX a slice is the whole call
            solver.conf_budget(min(self.stride, BUDGET_MAX))
            status = solver.solve_limited(assumptions=assumptions)
            self.sample(solver.accum_stats())
            if status is not None or deadline.passed():
                return status

    def asp_engine(self, factory, puzzle):
        """A fresh asp Engine (a propagator cannot be taken off a Control) that reports
        each choice to this timeline."""
        warm = factory(puzzle.box, puzzle.rules)
        warm.control.register_propagator(_Choices(self))
        self.begin({})
        return warm

    def collector(self, read, limit: int | None, grids: Found):
        """A CP-SAT solution callback that also samples the counters at each solution."""
        from sudokulab.backends.cpsat import collector_class

        timeline = self
        collector: Any = collector_class()  # made at run time, once OR-Tools is imported

        class Sampled(collector):
            """Collector, plus a sample of the search's counters at each solution."""

            def on_solution_callback(self) -> None:
                """Sample, then keep the grid (which may stop the search)."""
                timeline.sample({"branches": self.NumBranches(),
                                 "conflicts": self.NumConflicts(),
                                 "propagations": _propagations(self.Response())})
                super().on_solution_callback()

        self.begin({})
        return Sampled(read, limit, grids)


def _propagations(response) -> int:
    """CP-SAT's propagations as the backend's statistics count them."""
    return response.num_binary_propagations + response.num_integer_propagations


class _Choices:
    """A clingo propagator that watches nothing and decides nothing: it counts clasp's
    choices (and the backjumps between them) as `decide` is asked for each."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.choices = self.backjumps = 0
        self.level = -1

    def decide(self, thread_id: int, assignment, fallback: int) -> int:
        """Count the choice, sample every `stride` of them, and keep clasp's own."""
        level = assignment.decision_level
        if level <= self.level:
            self.backjumps += 1
        self.level = level
        self.choices += 1
        if self.choices % self.timeline.stride == 0:
            self.timeline.sample({"choices": self.choices, "backjumps": self.backjumps})
        return fallback


def record(puzzle, engine: str = "sat", *, limit: int | None = 2, cap: int = TIMELINE_CAP,
           timeout: float | None = None):
    """Solve with a learning backend keeping a timeline: (its Result, the Timeline)."""
    from sudokulab.backends import make_backend

    timeline = Timeline(engine.split(":")[0], cap)
    backend = make_backend(engine)
    backend.timeline = timeline
    result = backend.solve(puzzle, limit=limit, timeout=timeout)
    timeline.finish(result.stats, result.solve_time)
    return result, timeline


class TimelineFile(RecordingFile):
    """`solve --timeline FILE`: each puzzle's samples appended to FILE as JSON Lines."""

    kind, capability, lacks = "timeline", "keeps_timeline", "keeps no timeline"

    def fresh(self, engine) -> Timeline:
        """A fresh Timeline for the next puzzle."""
        return Timeline(engine.name)

    def lines(self, timeline: Timeline, result) -> tuple[dict, list[dict]]:
        """Ended on the Result's statistics: its cap, how it was taken and what each figure
        means, and its samples."""
        timeline.finish(result.stats, result.solve_time)
        return ({"cap": timeline.cap, "how": HOW[timeline.engine],
                 "meaning": MEANING[timeline.engine]}, timeline.samples)
