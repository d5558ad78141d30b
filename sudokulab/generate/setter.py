"""The setter's bench: what a puzzle being set allows, said again after every change.

For a puzzle (givens and rules as they stand) `setter` reports
- how many solutions are left: 0, 1, or at least 2, with two that differ and the cells
  where they do;
- the true candidates of every cell: the digits some solution puts there;
- which givens and which rules are redundant: the puzzle stays unique without them;
- the human grade (sudokulab.human.grading), once the puzzle is unique, within its own
  time limit so that it never holds up the rest.

One incremental SAT solver (PySAT, CaDiCaL) per box shape keeps the CNF of the grid
(`cnf.base`) and, guarded by a selector literal s, each rule's clauses (s -> clause, added
as (-s | clause) the first time the rule is seen: `cnf.rule_clauses`). A puzzle is then
only assumptions: its givens' literals and its rules' selectors. So a given or a rule is
switched off by leaving its literal out, and an update adds nothing to the solver but a
new rule's clauses and one blocking clause.

- count: a first solution S; a second one under S's blocking clause (guarded by an
  activation literal assumed for this update only, then retired), or none;
- candidates: a unique puzzle's are its solution's digits. Otherwise every solution
  found marks each (cell, digit) it uses as possible, and for each blank cell the solver
  is asked for a solution that puts there none of the digits marked so far (assumptions
  -x(cell, d) for them): SAT is a new witness, which marks more; UNSAT proves every digit
  left unmarked impossible there. One call per cell and per new witness, instead of one
  per (cell, digit);
- a given g = d is redundant when, without its literal and assuming -x(g, d), there is
  no solution (any solution without g that keeps d at g would be a second solution of
  the whole puzzle);
- a rule is redundant when, without its selector and under S's blocking clause, there
  is no solution.

Every solution used as a witness (the two solutions, each candidate's, each necessary
given's or rule's) is checked by sudokulab.check, which shares no code with the encoding;
a witness it refuses raises DisagreementError.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, cast

from sudokulab import errors
from sudokulab import rules as R
from sudokulab.errors import DisagreementError, SetterInterrupted, UnsupportedRule
from sudokulab.puzzle import Puzzle, clash

if TYPE_CHECKING:
    from sudokulab.backends.base import Deadline
    from sudokulab.backends.sat import Engine

SOLVER = "cadical195"
SECONDS = 10.0        # the SAT parts' time limit when the caller gives none
GRADE_SECONDS = 2.0   # the human grade's own limit
RETIRED_MAX = 2000    # retired activation literals before a fresh solver
POOL = 128           # witnesses kept for the next updates
RECALL = 16          # and at most this many of them checked again for one update
UNUSED_MAX = 60       # rules of earlier puzzles kept (switched off) before a fresh solver
STATUSES = ("none", "unique", "several", "timeout")


@dataclass
class SetterReport:
    """What the bench says about one puzzle being set (cells numbered from 0 here)."""

    n: int
    status: str                       # none, unique, several, or timeout (no count yet)
    solutions: list[tuple[int, ...]] = field(default_factory=list)  # up to two, checked
    differ: list[int] = field(default_factory=list)  # cells where the two solutions differ
    candidates: list[list[int]] | None = None  # per cell, the digits some solution puts there
    undecided: list[int] = field(default_factory=list)  # cells left unproven (time ran out)
    redundant_givens: list[int] | None = None  # cells whose given can go (None: not asked)
    redundant_rules: list[int] | None = None   # indices into the puzzle's rules
    fixed_rules: list[int] = field(default_factory=list)  # rules never switched off (jigsaw)
    grade: dict | None = None          # level, score, rating, hardest, solved
    grade_status: str = "skipped"      # ok, timeout, stalled, refused, skipped
    grade_message: str = ""
    message: str = ""                  # why there is no solution, when givens clash
    complete: bool = True              # every part asked for finished in time
    stopped: str = ""                  # what stopped it midway (Ctrl-C, SIGTERM): partial
    witnesses: int = 0                 # solutions checked by sudokulab.check
    calls: int = 0                     # SAT calls
    seconds: float = 0.0
    rules: tuple[R.Rule, ...] = ()     # the puzzle's rules, for names in the text
    positions: tuple = ()              # a board of several grids: each cell's (row, col)

    @property
    def count(self) -> int | None:
        """0, 1 or 2 (meaning at least two); None when the time ran out first."""
        return {"none": 0, "unique": 1, "several": 2}.get(self.status)

    def to_json(self) -> dict:
        """The report as JSON: cells as [row, column] from 1, as the page's steps give them."""
        return {
            "status": self.status, "count": self.count,
            "at_least": self.status == "several",
            "solutions": [list(s) for s in self.solutions],
            "differ": [self.place(c) for c in self.differ],
            "candidates": self.candidates, "undecided": [self.place(c) for c in self.undecided],
            "redundant_givens": (None if self.redundant_givens is None
                                 else [self.place(c) for c in self.redundant_givens]),
            "redundant_rules": (None if self.redundant_rules is None else
                                # index: the place in the puzzle's rules, from 0; number:
                                # from 1, as the text's #N and model's numbering say it
                                [{"index": k, "number": k + 1,
                                  "rule": R.rule_to_json(self.rules[k])}
                                 for k in self.redundant_rules]),
            "fixed_rules": self.fixed_rules,
            "grade": self.grade, "grade_status": self.grade_status,
            "grade_message": self.grade_message, "message": self.message,
            "complete": self.complete, "partial": bool(self.stopped),
            "stopped": self.stopped or None,
            "witnesses": self.witnesses, "calls": self.calls,
            "seconds": round(self.seconds, 4),
        }

    def place(self, cell: int) -> list[int]:
        """[row, column] from 1 of a cell index."""
        row, col = self.positions[cell] if self.positions else divmod(cell, self.n)
        return [row + 1, col + 1]


def setter_report(puzzle: Puzzle, *, seconds: float | None = SECONDS, candidates: bool = True,
                  redundancy: bool = True, grade: bool = True,
                  grade_seconds: float | None = GRADE_SECONDS,
                  stop: Callable[[], bool] | None = None) -> SetterReport:
    """The bench's report on a puzzle: count, true candidates, redundant givens and rules,
    grade; the SAT parts within `seconds` (None: no limit), the grade within its own."""
    return session(puzzle).report(puzzle, seconds=seconds, candidates=candidates,
                                  redundancy=redundancy, grade=grade,
                                  grade_seconds=grade_seconds, stop=stop)


def session(puzzle: Puzzle) -> Session:
    """The warm session of the puzzle's shape (a fresh one after a broken or full one)."""
    jigsaw = R.jigsaw(puzzle.rules)
    key = (puzzle.box, (jigsaw,) if jigsaw else (), puzzle.layout)
    found = _session(*key)
    if found.stale(puzzle):
        _session.cache_clear()
        found = _session(*key)
    return found


@lru_cache(maxsize=4)
def _session(box: tuple[int, int], within: tuple, layout) -> Session:
    """One session per shape, kept for the process's later updates."""
    return Session(box, within, layout)


class Session:
    """One incremental solver for a box shape: the grid's clauses loaded once, each rule's
    added under its selector the first time a puzzle has it."""

    def __init__(self, box: tuple[int, int], within: tuple[R.Rule, ...] = (),
                 layout=None, solver: str = SOLVER) -> None:
        from sudokulab.backends.sat import Engine
        from sudokulab.models import cnf

        self.box, self.within, self.layout = box, within, layout
        self.engine: Engine = Engine(cnf.base(box, within, "extended", "pairwise", layout),
                                     solver)
        self.n = self.engine.n
        self.selectors: dict[R.Rule, int] = {}
        self.retired = 0
        self.pool: dict[tuple[int, ...], None] = {}  # recent witnesses, oldest first

    def remember(self, grid: tuple[int, ...]) -> None:
        """Keep a witness for the next updates (the POOL latest)."""
        self.pool.pop(grid, None)
        self.pool[grid] = None
        if len(self.pool) > POOL:
            del self.pool[next(iter(self.pool))]

    def recall(self, puzzle: Puzzle) -> list[tuple[int, ...]]:
        """Up to RECALL kept witnesses, latest first, that solve this puzzle as the
        independent checker says (an edit rarely undoes them all: a given or rule taken
        away keeps every one). A quick look at the givens and cage sums first: the
        checker takes a millisecond to list what is wrong with a grid."""
        from sudokulab.check import check

        n = puzzle.n if puzzle.layout is None else 0
        cages = [[r * n + c for r, c in rule.cells] for rule in puzzle.rules
                 if isinstance(rule, R.Cage)] if n else []
        totals = [rule.total for rule in puzzle.rules if isinstance(rule, R.Cage)]
        kept = [(c, g) for c, g in enumerate(puzzle.givens) if g]
        found = []
        for grid in reversed(self.pool):
            if all(grid[c] == g for c, g in kept) \
                    and all(sum(grid[c] for c in cells) == total
                            for cells, total in zip(cages, totals)) \
                    and not check(puzzle, grid):
                found.append(grid)
                if len(found) >= RECALL:
                    break
        return found

    def stale(self, puzzle: Puzzle) -> bool:
        """Whether this solver should make way for a fresh one: broken by Ctrl-C or an
        engine error, or grown with retired literals and rules the puzzle does not have."""
        # Rules switched off still cost propagation, and learnt clauses about them
        # crowd the solver: a puzzle after many others' cages gets a fresh one.
        unused = len(self.selectors.keys() - set(puzzle.rules))
        return self.engine.broken or self.retired > RETIRED_MAX or unused > UNUSED_MAX

    def fresh(self) -> int:
        """A new variable above every one the solver has."""
        self.engine.top += 1
        return self.engine.top

    def selector(self, rule: R.Rule) -> int:
        """The selector literal of a rule, its clauses added (-s | clause) on first sight."""
        if rule not in self.selectors:
            from sudokulab.models import cnf

            if self.layout is not None:
                raise UnsupportedRule("the setter's bench takes rules on one grid, not on a "
                                      "multi-grid board")
            s = self.fresh()
            clauses, top = cnf.rule_clauses(self.box, rule, s + 1, self.within)
            self.engine.top = max(self.engine.top, top)
            self.engine.solver.append_formula([[-s, *clause] for clause in clauses])
            self.selectors[rule] = s
        return self.selectors[rule]

    def report(self, puzzle: Puzzle, *, seconds: float | None = SECONDS,
               candidates: bool = True, redundancy: bool = True, grade: bool = True,
               grade_seconds: float | None = GRADE_SECONDS,
               stop: Callable[[], bool] | None = None) -> SetterReport:
        """The report on one puzzle of this session's shape (cut short, the solver kept
        sound, once `stop()` is true: the page's cancel)."""
        from sudokulab.backends.base import Deadline

        started = time.perf_counter()
        work = None
        try:
            deadline = Deadline(seconds)
            if stop is not None:  # a Deadline by its interface: passed, left, timeout
                deadline = cast("Deadline", Stopping(deadline, stop))
            work = Update(self, puzzle, deadline)
            report = work.run(candidates, redundancy)
            if grade and report.status == "unique":
                graded(puzzle, report, grade_seconds, stop)
        except KeyboardInterrupt:
            self.engine.broken = True  # half-added clauses: the next update starts afresh
            partial = work.report if work is not None else SetterReport(self.n, "timeout")
            partial.complete, partial.stopped = False, errors.stopped_by()
            partial.seconds = time.perf_counter() - started
            raise SetterInterrupted(partial) from None
        except BaseException:
            self.engine.broken = True
            raise
        report.seconds = time.perf_counter() - started
        return report


class Stopping:
    """A deadline that a stop request ends early too: the update stops between SAT calls
    (its caller interrupts the call under way), and its solver stays sound and warm."""

    def __init__(self, deadline: Deadline, stop: Callable[[], bool]) -> None:
        self.deadline, self.stop = deadline, stop
        self.timeout = deadline.timeout

    def passed(self) -> bool:
        """Whether the deadline is behind us or a stop was asked."""
        return self.stop() or self.deadline.passed()

    def left(self) -> float | None:
        """Seconds left (none once a stop was asked), or None without a deadline."""
        return 0.0 if self.stop() else self.deadline.left()


class Update:
    """The work of one report: the assumptions of one puzzle on a session's solver."""

    def __init__(self, session: Session, puzzle: Puzzle, deadline: Deadline) -> None:
        from sudokulab.models import cnf

        self.session, self.puzzle, self.deadline = session, puzzle, deadline
        self.n = session.n
        self.engine = session.engine
        self.givens = cnf.givens_literals(puzzle)
        switchable = [k for k, rule in enumerate(puzzle.rules) if not rule.replaces_boxes]
        self.fixed = [k for k in range(len(puzzle.rules)) if k not in switchable]
        self.rule_lits = {k: session.selector(puzzle.rules[k]) for k in switchable}
        self.copies = Counter(puzzle.rules)  # a rule given twice: either copy can go
        self.bare = replace(puzzle, givens=(0,) * len(puzzle.givens))  # the checks' puzzle
        self.report = SetterReport(n=self.n, status="timeout", rules=puzzle.rules,
                                   fixed_rules=self.fixed,
                                   positions=puzzle.layout.positions if puzzle.layout else ())

    def run(self, candidates: bool, redundancy: bool) -> SetterReport:
        """Count, then the candidates and the redundancy asked for, while time is left."""
        report = self.report
        known = self.session.recall(self.puzzle)
        report.witnesses += len(known)
        first = known[0] if known else self.solve(self.assumed())
        if first is None:
            report.complete = False
            return report
        if first is False:
            report.status = "none"
            report.message = clash(self.puzzle)
            report.candidates = [[] for _ in self.puzzle.givens] if candidates else None
            return report
        if not known:
            self.witness(first, self.puzzle)
        report.solutions.append(first)
        if len(known) > 1:  # two earlier witnesses still solve it: several, no call needed
            self.several(known[1])
            if candidates:
                self.candidates(known)
            return report
        act = self.session.fresh()  # this update's blocking clause of the first solution
        self.engine.solver.add_clause([-act] + [-self.lit(c, d) for c, d in enumerate(first)])
        try:
            second = self.solve(self.assumed() + [act])
            if second is None:
                report.complete = False
                return report
            if second is False:
                report.status = "unique"
            else:
                self.witness(second, self.puzzle)
                self.several(second)
            if candidates:
                self.candidates(known)
            if redundancy and report.status == "unique":
                self.redundant_givens(first)
                self.redundant_rules(act)
        finally:
            self.engine.solver.add_clause([-act])  # retired for good
            self.session.retired += 1
        return report

    def several(self, second: tuple[int, ...]) -> None:
        """A second solution: the count is 'at least 2', and the cells where they differ."""
        report = self.report
        report.status = "several"
        report.solutions.append(second)
        report.differ = [c for c, (a, b) in enumerate(zip(report.solutions[0], second))
                         if a != b]

    def lit(self, cell: int, digit: int) -> int:
        """The variable of 'cell holds digit'."""
        return cell * self.n + digit

    def assumed(self, given: int | None = None, rule: int | None = None) -> list[int]:
        """The puzzle as assumptions: every given's literal and rule's selector, but one."""
        lits = [s for k, s in self.rule_lits.items() if k != rule]
        if given is None:
            return lits + self.givens
        return lits + [g for g in self.givens if (g - 1) // self.n != given]

    def solve(self, assumptions: list[int]) -> tuple[int, ...] | Literal[False] | None:
        """A solution, False (none), or None once the deadline has passed."""
        if self.deadline.passed():
            return None
        self.report.calls += 1
        status = self.engine.run(assumptions, self.deadline)
        if status is None:
            return None
        return self.engine.decode(self.engine.solver.get_model()) if status else False

    def witness(self, grid: tuple[int, ...], puzzle: Puzzle) -> None:
        """DisagreementError unless the independent checker accepts the grid."""
        from sudokulab.check import check

        self.report.witnesses += 1
        problems = check(puzzle, grid)
        if problems:
            raise DisagreementError(f"the setter's SAT solution fails the checker: "
                                    f"{problems[0]}")
        self.session.remember(grid)

    def candidates(self, known: list[tuple[int, ...]]) -> None:
        """Each cell's true candidates: witnessed by a solution (the `known` ones too), or
        proved impossible (a unique puzzle's are its solution's digits: the count proved
        no other)."""
        report, givens = self.report, self.puzzle.givens
        if report.status == "unique":
            report.candidates = [[d] for d in report.solutions[0]]
            return
        possible: list[set[int]] = [set() for _ in givens]
        for grid in report.solutions + known:
            for c, d in enumerate(grid):
                possible[c].add(d)
        base = self.assumed()
        todo = [cell for cell, given in enumerate(givens) if not given][::-1]  # next: last
        undecided: list[int] = []
        try:
            while todo:
                if not self.decide(todo[-1], base, possible):
                    undecided.append(todo[-1])
                todo.pop()
        except KeyboardInterrupt:  # the digits witnessed so far are kept, the rest unproven
            undecided += todo[::-1]
            raise
        finally:
            report.candidates = [sorted(p) for p in possible]
            report.undecided = undecided
            report.complete = report.complete and not undecided

    def decide(self, cell: int, base: list[int], possible: list[set[int]]) -> bool:
        """Witness every digit some solution puts in `cell` (each solution marks all its
        cells' digits); False when the deadline came first."""
        while True:
            found = self.solve(base + [-self.lit(cell, d) for d in possible[cell]])
            if found is None:
                return False
            if found is False:
                return True
            self.witness(found, self.puzzle)
            for c, d in enumerate(found):
                possible[c].add(d)

    def redundant_givens(self, solution: tuple[int, ...]) -> None:
        """The givens the puzzle stays unique without."""
        found = []
        for cell, digit in enumerate(self.puzzle.givens):
            if not digit:
                continue
            other = self.solve(self.assumed(given=cell) + [-self.lit(cell, digit)])
            if other is None:
                self.report.complete = False
                return
            if other is False:
                found.append(cell)
            else:  # a second solution once this given goes: checked, the given kept
                self.witness(other, self.bare)
                if any(g and g != other[c] for c, g in enumerate(self.puzzle.givens)
                       if c != cell):
                    raise DisagreementError("the setter's witness breaks a given")
        self.report.redundant_givens = found

    def redundant_rules(self, act: int) -> None:
        """The rules the puzzle stays unique without (a rule given twice: either copy)."""
        found = []
        for k, rule in enumerate(self.puzzle.rules):
            if k in self.fixed:
                continue
            if self.copies[rule] > 1:
                found.append(k)
                continue
            other = self.solve(self.assumed(rule=k) + [act])
            if other is None:
                self.report.complete = False
                return
            if other is False:
                found.append(k)
            else:
                rules = self.puzzle.rules[:k] + self.puzzle.rules[k + 1:]
                self.witness(other, replace(self.puzzle, rules=rules))
        self.report.redundant_rules = found


def graded(puzzle: Puzzle, report: SetterReport, seconds: float | None,
           stop: Callable[[], bool] | None = None) -> None:
    """The human grade of a unique puzzle, within `seconds` (or until `stop()`); the report
    says how it went."""
    from sudokulab.human import grading, solver

    reason = solver.refusal(puzzle)
    if reason:
        report.grade_status, report.grade_message = "refused", reason
        return
    end = time.perf_counter() + (float("inf") if seconds is None else seconds)

    def over() -> bool:
        return time.perf_counter() > end or (stop is not None and stop())

    path = solver.solve(puzzle, unique=True, stop=over)
    if path.stopped:
        report.grade_status = "timeout"
        report.grade_message = f"no grade within {seconds:g} s"
        return
    grade = grading.grade_path(path, unique=True, stop=over)
    report.grade = {"level": grade.level, "score": grade.score, "rating": grade.rating,
                    "hardest": grade.hardest, "solved": grade.solved}
    report.grade_status = "ok" if path.solved else "stalled"
    if not path.solved:
        report.grade_message = "the techniques stop short: graded as far as they went"

