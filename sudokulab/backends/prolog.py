"""SWI-Prolog CLP(FD) through janus-swi: the rules as constraints, then labeling.

The model is sudokulab/models/prolog/sudoku.pl, a program a teacher can load in plain `swipl`;
sudokulab/backends/swipl.py finds SWI-Prolog and loads the program once per process, and
this module calls it with the puzzle as data (janus input bindings: no query text is ever
built from a puzzle).
"""

from __future__ import annotations

import contextlib
import threading
import time
from functools import lru_cache

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Choice,
    Deadline,
    ctrl_c,
    interrupted,
)
from sudokulab.backends.swipl import PROGRAM, availability, janus
from sudokulab.errors import NotAvailable
from sudokulab.geometry import geometry
from sudokulab.puzzle import Puzzle
from sudokulab.result import Result, Status, verdict

STRENGTHS = ("auto", "hybrid", "all_distinct", "all_different", "singles")
LABELINGS = ("auto", "ff", "ffc", "ffw", "leftmost", "min", "max", "wdeg")
ORDERS = ("up", "down")
BRANCHINGS = ("step", "enum", "bisect")

GOAL = "sudoku:sudokulab_solve(Box, Givens, Rules, Options, Grids, Ended, Stats)"
# Ctrl-C: another thread makes the solving thread throw `interrupted`, which sudoku.pl
# catches, keeping the grids found so far (Ended = interrupted).
INTERRUPT = "thread_signal(Thread, throw(interrupted))"
# A signal sent as the query ended is still pending: it fires here, not in the next query.
DRAIN = "catch(sleep(0), interrupted, true)"
AUTO = "sudoku:sudokulab_auto(Rules, Strength, Selection)"

@lru_cache(maxsize=64)
def prolog_thread(ident: int) -> str:
    """The Prolog thread that janus runs this Python thread's queries on."""
    return janus().query_once("thread_self(Me)")["Me"]


def drain(prolog) -> None:
    """Let an interrupt signalled too late to stop the query fire now, harmlessly."""
    with contextlib.suppress(prolog.PrologError):  # it fired before the catch was set up
        prolog.query_once(DRAIN)


def posted_relations(geo) -> list:
    """The pair relations sudoku.pl posts: a renban is one term of its own (its digits are
    one of the runs), not its pairs."""
    return [rel for rel in geo.digit_relations if rel.rule != R.Renban.name]


def rule_terms(puzzle: Puzzle) -> list[tuple]:
    """The puzzle's rules as sudoku.pl rule terms (tuples), cells numbered as in geometry."""
    geo = geometry(puzzle.box, puzzle.rules)
    # sudoku.pl makes rows, columns and boxes itself; a rule's units come as terms
    terms: list[tuple] = [("unit", list(unit)) for unit in geo.units
                          if unit.rule is not None and unit.kind != "region"]
    regions = [list(unit) for unit in geo.units if unit.kind == "region"]
    if regions:
        terms.append(("regions", regions))
    pairs = geo.beyond_units(geo.moves)  # the others cost inferences and prune nothing
    if pairs:
        terms.append(("differ", pairs))
    for rule in puzzle.rules:
        if isinstance(rule, R.NonConsecutive):
            terms.append(("non_consecutive",))
        elif isinstance(rule, R.Cage):
            terms.append(("cage", geo.indices(rule.cells), rule.total))
        elif isinstance(rule, R.Parity):
            terms.append(("parity", geo.indices(rule.cells),
                          "even" if rule.even else "odd"))
    terms += [("relation", rel.kind.replace("-", "_"), rel.a, rel.b, rel.param)
              for rel in posted_relations(geo)]
    terms += [("renban" if rule == R.Renban.name else "distinct", list(cells))
              for rule, cells in geo.groups]
    terms += [("sum", list(total.cells), total.total) if total.circle < 0 else
              ("arrow", total.circle, list(total.cells)) for total in geo.sums]
    terms += [("sandwich", list(line), total) for line, total in geo.sandwiches]
    return terms


class PrologBackend(Backend):
    """SWI-Prolog CLP(FD): sudoku.pl posts the rules as constraints, then labels."""

    name = "prolog"
    paradigm = "constraint logic programming: CLP(FD) in SWI-Prolog (janus)"
    supported_rules = R.RULE_TYPES
    timeline = None  # a Timeline gets the final statistics only: the search is one call
    keeps_timeline = True

    option_table = {
        "strength": Choice(STRENGTHS, help="how strongly a unit's cells are kept distinct "
                                           "(auto: chosen from the rules)"),
        "labeling": Choice(LABELINGS, help="which cell to label next (auto: chosen from the "
                                           "rules)"),
        "order": Choice(ORDERS, help="the order a cell's digits are tried in"),
        "branching": Choice(BRANCHINGS, help="how a cell's domain is split (not for wdeg)"),
    }

    def __init__(self, strength: str = "auto", labeling: str = "auto", order: str = "up",
                 branching: str = "step") -> None:
        super().__init__()
        if labeling == "wdeg" and branching == "bisect":  # weighted_labeling splits no domain
            raise ValueError("labeling=wdeg tries one digit at a time: branching=bisect "
                             "does not go with it")
        self.strength = strength
        self.labeling = [labeling, order, branching]

    @classmethod
    def ready(cls) -> Availability:
        """SWI-Prolog's and janus-swi's versions, or why they cannot run here (a probe in a
        child process: janus is imported here only once that succeeded)."""
        return availability()

    def options(self, limit: int | None, deadline: Deadline) -> list[tuple]:
        """The options of sudoku_solutions/7, as tuples."""
        options: list[tuple[str, object]] = [
            ("strength", self.strength), ("labeling", self.labeling),
            ("limit", "infinite" if limit is None else limit)]
        if self._keep is not None:  # the rest counted in Prolog, not held
            options.append(("keep", self._keep))
        if deadline.timeout is not None:
            options.append(("time_limit", deadline.left()))
        return options

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """One call of sudokulab_solve/7; Prolog errors come back as ERROR results."""
        try:
            prolog = janus()
        except NotAvailable as why:
            return Result(Status.ERROR, message=f"prolog backend not available: {why}")
        started = time.perf_counter()
        inputs = {"Box": puzzle.box, "Givens": list(puzzle.givens),
                  "Rules": rule_terms(puzzle), "Options": self.options(limit, deadline)}
        thread = prolog_thread(threading.get_ident())
        try:
            with ctrl_c(lambda: prolog.query_once(INTERRUPT, {"Thread": thread})) as key:
                answer = prolog.query_once(GOAL, inputs)
        except prolog.PrologError as error:
            if key.pressed:
                raise interrupted((), limit) from None
            return Result(Status.ERROR, message=f"Prolog: {error}",
                          solve_time=time.perf_counter() - started)
        finally:
            if key.pressed:
                drain(prolog)
        elapsed = time.perf_counter() - started
        if not answer["truth"]:
            return Result(Status.ERROR, message="sudokulab_solve/7 failed", solve_time=elapsed)
        stats = dict(answer["Stats"])
        build = stats.pop("build_time")
        grids = self.new_found()
        for grid in answer["Grids"]:
            grids.append(grid)
        grids.counted(stats.pop("found"))  # those beyond the ones kept were counted there
        # the build is timed inside Prolog; the rest of the call, janus included, is solving
        times = {"stats": stats, "build_time": build, "solve_time": elapsed - build}
        if key.pressed:
            raise interrupted(grids, limit, **times)
        return verdict(grids, limit, complete=answer["Ended"] == "search", **times)

    def choices(self, puzzle: Puzzle) -> tuple[str, list[str]]:
        """The strength and labeling options sudoku.pl uses on this puzzle, `auto` resolved."""
        strength, labeling = self.strength, list(self.labeling)
        if "auto" in (strength, labeling[0]):
            auto = janus().query_once(AUTO, {"Rules": rule_terms(puzzle)})
            strength = auto["Strength"] if strength == "auto" else strength
            labeling[0] = auto["Selection"] if labeling[0] == "auto" else labeling[0]
        return strength, labeling

    def describe(self, puzzle: Puzzle) -> str:
        """The goals sudoku.pl runs, and the rule terms it gets beyond rows, columns, boxes."""
        geo = geometry(puzzle.box, puzzle.rules)
        rows, cols = puzzle.box
        try:
            strength, labeling = self.choices(puzzle)
        except NotAvailable:
            strength, labeling = self.strength, self.labeling
        chosen = "auto" in (self.strength, self.labeling[0])
        auto = " (auto: chosen from the rules)" if chosen else ""
        search = (f"weighted_labeling([wdeg, {labeling[1]}], Cells)" if labeling[0] == "wdeg"
                  else f"conflict_labeling([{', '.join(labeling)}], Cells)"
                  if labeling[0] == "ffw" else f"labeling([{', '.join(labeling)}], Cells)")
        lines = [f"prolog: {PROGRAM.name}: sudoku({rows}-{cols}, Cells, Rules, {strength}), "
                 f"{search}{auto}",
                 f"  {len(geo.units)} units of {geo.n} cells hold distinct digits"]
        if labeling[0] == "wdeg":
            lines.append("  labeling: dom/wdeg, the open cell with the fewest candidates per "
                         "weight (1 + the digits that failed at once there), each digit in turn")
        if labeling[0] == "ffw":
            lines.append("  labeling: ffw, the open cell with the fewest candidates, ties to the "
                         "most failures of its cage and unit propagators so far")
        new: tuple[str, ...] = ("relation", "distinct", "renban", "sum", "arrow")
        lines += [f"  sandwich: sandwich({geo.name(line[0])}..{geo.name(line[-1])}, {total}): "
                  "automaton/3: before the ends, the set of filling digits so far, after"
                  for line, total in geo.sandwiches]
        new += ("sandwich",)  # shown below, by the rule they come from
        extra = iter([unit.name for unit in geo.units
                      if unit.rule is not None and unit.kind != "region"])
        for name, *args in rule_terms(puzzle):
            if name == "unit":
                lines.append(f"  unit({len(args[0])} cells): {next(extra)}")
                continue
            if name in new:
                continue
            what = f"{len(args[0])} cells" if args and name != "differ" else ""
            what = f"{len(args[0])} pairs" if name == "differ" else what
            lines.append(f"  {name}({what})" if what else f"  {name}")
        if geo.cages:
            lines.append("  cages: cage/6, one propagator a cage (up to 9 digits): each cell "
                         "keeps the digits some filling of the whole cage allows, a digit "
                         "every filling uses leaves the other cells of each unit holding the "
                         "cage, or holding every cell of the cage that can take it, and a "
                         "digit with no place left in a unit outside the cage "
                         "keeps the fillings holding it (beyond 9 digits: a tuples_in/2 table "
                         "of its fillings, or a 0/1 vector of its digits); implied_cages/3 "
                         "adds each unit's cells outside its cages as one more cage (the rule "
                         "of 45), and outies/4 a sum over the cells of the cages reaching out "
                         "of a unit (a few cells at most); band_sums/3 does the same over 2 "
                         "to N-1 consecutive rows or columns (sum/3 over up to 4 cells on a "
                         "killer alone, line_sum/2 over up to 9 cells with other rules); "
                         "the caged cells are labeled first")
        relations: dict[tuple[str, str], int] = {}
        for rel in posted_relations(geo):
            key = (rel.rule, rel.kind.replace("-", "_"))
            relations[key] = relations.get(key, 0) + 1
        lines += [f"  {rule}: relation({kind}, A, B, K) x{count}, a pair/4 propagator: each "
                  "digit keeps a partner that related/4 allows (cells of one unit differ too)"
                  for (rule, kind), count in relations.items()]
        if relations:
            lines.append("  partner_triples: wherever a cell has two partners in one unit under "
                         "relations of at most two partners per digit (a consecutive mark, a "
                         "Kropki dot, X, V), they hold those two: a tuples_in/2 table of the three")
        lines += [f"  {rule}: renban({len(cells)} cells): they differ, and their digits are "
                  "one of the runs, as a cage's are one of its digit sets"
                  if rule == R.Renban.name else f"  {rule}: distinct({len(cells)} cells)"
                  for rule, cells in geo.groups]
        lines += [f"  {total.rule}: " + (f"sum({len(total.cells)} cells, {total.total})"
                                         if total.circle < 0 else
                                         f"arrow({geo.name(total.circle)}, "
                                         f"{len(total.cells)} cells)")
                  + ": line_sum/2, one propagator over pieces of up to 3 cells of one unit "
                  "(distinct digits)" for total in geo.sums]
        return "\n".join(lines)


# Root propagation (the inference ladder's level): sudoku.pl posts the model, no labeling,
# and each cell's domain comes back as a bitmask. Underscored variables stay in Prolog (a
# constrained variable has no Python form).
ROOT = ("atom_string(_S, Strength), maplist(sudoku:tuple_term, PyRules, _Rules), "
        "sudoku:post(Box, Givens, _Rules, [strength(_S)], _Grid), "
        "findall(_M, (member(_V, _Grid), (integer(_V) -> _M is 1 << (_V - 1) ; "
        "clpfd:fd_dom(_V, _D), aggregate_all(sum(_B), (clpfd:in(_X, _D), clpfd:label([_X]), "
        "_B is 1 << (_X - 1)), _M))), Marks)")


def root_marks(puzzle: Puzzle, strength: str = "auto") -> tuple[int, ...] | None:
    """Each cell's domain (bit d-1 for digit d) once the constraints of a strength are posted
    and have propagated, labeling suppressed; None when posting fails (no solution)."""
    answer = janus().query_once(ROOT, {"Box": puzzle.box, "Givens": list(puzzle.givens),
                                       "PyRules": rule_terms(puzzle), "Strength": strength})
    return tuple(answer["Marks"]) if answer["truth"] else None
