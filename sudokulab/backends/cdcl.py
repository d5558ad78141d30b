"""A CDCL SAT solver written to be read: `sat:solver=teach`.

Conflict-driven clause learning, the loop inside every modern SAT solver, in the order
a lecture gives it (Marques-Silva & Sakallah's GRASP, Moskewicz et al.'s Chaff, Eén &
Sörensson's MiniSat):

1. **decide**: with nothing left to propagate, pick an unassigned variable (the one
   with the highest activity, VSIDS-like) and make it true: a new decision level;
2. **propagate**: a clause with every literal false but one makes that one true (unit
   propagation), found through two watched literals per clause: a clause is only looked
   at when one of its two watches becomes false;
3. **conflict**: a clause with every literal false. `analyze` walks the implication
   graph back from it, resolving with the reasons of the literals assigned at the
   current level until one literal of that level is left: the first unique implication
   point (first UIP). The clause it ends with is **learnt**: it is implied by the
   formula and says, in Sudoku terms, a fact such as "r3c4 = 7 and r5c4 = 2 cannot both
   hold";
4. **backjump**: undo every level above the second highest level of the learnt clause
   (not just the last one: non-chronological backtracking); the learnt clause is then
   unit and propagates its UIP literal, negated;
5. **restart** now and then (after a Luby sequence of conflicts): back to level 0,
   keeping the learnt clauses and the activities.

Variables are the CNF's of sudokulab/models/cnf.py: var(cell, digit) = cell * N + digit
is "the cell holds the digit"; its literal reads r3c4=7, its negation r3c4≠7. The
trace (sudokulab.backends.trace) records each decision as a guess, each propagation as
a wave, each conflict as a dead end, and each learnt clause with its UIP and its
backjump; the page replays them. The solver counts solutions by blocking each one with
a clause over the cell variables.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sudokulab.puzzle import Grid
    from sudokulab.result import Found

TRUE, FALSE, UNSET = 1, -1, 0
RESTART_BASE = 100  # conflicts in the first run between restarts (times the Luby sequence)
DECAY = 0.95  # VSIDS: each conflict makes the activities of the past 5% less important
CHECK_EVERY = 64  # decisions between two looks at the clock


class OutOfTime(Exception):
    """The deadline passed during the search."""


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...: restart lengths."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:  # i is inside the run that ends at 2^k - 1: recurse into it
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


class Solver:
    """Clauses over variables 1..nv; `solve` finds a model, `block` rules one out."""

    def __init__(self, nv: int, clauses: Sequence[Sequence[int]], name=str,
                 cells: int = 0) -> None:
        self.nv = nv
        # Decisions by activity go to variables 1..cells (a Sudoku's cell variables); the
        # auxiliaries above are decided, in order, only once every cell variable is set.
        self.cells = cells or nv
        self.name = name  # literal -> its text (r3c4=7): for the trace and the learnt facts
        self.value = [UNSET] * (nv + 1)  # per variable
        self.level = [0] * (nv + 1)  # the decision level it was assigned at
        self.reason: list[list[int] | None] = [None] * (nv + 1)  # the clause that implied it
        self.trail: list[int] = []  # the true literals, in the order they were assigned
        self.levels: list[int] = []  # where each decision level starts on the trail
        self.head = 0  # trail[head:] are assigned but not yet propagated
        # watches[lit]: the clauses watching lit, looked at when lit becomes false. A
        # list indexed by the literal itself: lit = -v reads from the end (2nv+1 - v).
        self.watches: list[list[list[int]]] = [[] for _ in range(2 * nv + 1)]
        self.activity = [0.0] * (nv + 1)
        self.bump = 1.0
        self.heap = [(-0.0, v) for v in range(1, self.cells + 1)]  # VSIDS (lazy deletion)
        self.learnts = 0
        self.stats = {"decisions": 0, "propagations": 0, "conflicts": 0, "learnt": 0,
                      "learnt_literals": 0, "backjumps": 0, "restarts": 0}
        self.trace: Tracer | None = None  # tells a trace Recorder what happens
        self.ok = all(self.add_clause(c) for c in clauses)

    def lit_value(self, lit: int) -> int:
        """TRUE, FALSE or UNSET: the value of a literal under the assignment."""
        v = self.value[abs(lit)]
        return v if lit > 0 else -v

    # --- clauses ---------------------------------------------------------------------

    def add_clause(self, lits: Sequence[int]) -> bool:
        """Add a clause at level 0 (False: it makes the formula unsatisfiable)."""
        clause = list(dict.fromkeys(lits))
        if any(-lit in clause for lit in clause):
            return True  # a tautology: always true
        clause = [lit for lit in clause if self.lit_value(lit) != FALSE
                  or self.level[abs(lit)] > 0]
        if any(self.lit_value(lit) == TRUE and self.level[abs(lit)] == 0 for lit in clause):
            return True
        if not clause:
            return False
        if len(clause) == 1:
            return self.enqueue(clause[0], None) and self.propagate() is None
        self.watch(clause)
        return True

    def watch(self, clause: list[int]) -> None:
        """Watch a clause's first two literals."""
        self.watches[clause[0]].append(clause)
        self.watches[clause[1]].append(clause)

    # --- assignment and unit propagation -------------------------------------------------

    def enqueue(self, lit: int, reason: list[int] | None) -> bool:
        """Make lit true at the current level, implied by `reason` (None: a decision)."""
        value = self.lit_value(lit)
        if value != UNSET:
            return value == TRUE
        v = abs(lit)
        self.value[v] = TRUE if lit > 0 else FALSE
        self.level[v] = len(self.levels)
        self.reason[v] = reason
        self.trail.append(lit)
        return True

    def propagate(self) -> list[int] | None:
        """Unit propagation through the watches; the conflicting clause, or None."""
        value, watches = self.value, self.watches
        while self.head < len(self.trail):
            p = self.trail[self.head]
            self.head += 1
            self.stats["propagations"] += 1
            false_lit = -p
            watching = watches[false_lit]
            keep: list[list[int]] = []
            for i, clause in enumerate(watching):
                if clause[0] == false_lit:  # keep the false watch in position 1
                    clause[0], clause[1] = clause[1], false_lit
                first = clause[0]
                if (value[first] if first > 0 else -value[-first]) == TRUE:
                    keep.append(clause)  # satisfied: nothing to do
                    continue
                for k in range(2, len(clause)):  # a new literal to watch, not false
                    lit = clause[k]
                    if (value[lit] if lit > 0 else -value[-lit]) != FALSE:
                        clause[1], clause[k] = lit, false_lit
                        watches[lit].append(clause)
                        break
                else:  # every literal but `first` is false
                    keep.append(clause)
                    if not self.enqueue(first, clause):  # first is false too: a conflict
                        keep.extend(watching[i + 1:])
                        watches[false_lit] = keep
                        self.head = len(self.trail)
                        return clause
            watches[false_lit] = keep
        return None

    # --- conflict analysis -------------------------------------------------------------

    def analyze(self, conflict: list[int]) -> tuple[list[int], int]:
        """The first-UIP clause learnt from a conflict, and the level to backjump to.

        Resolve the conflict with the reasons of its literals of the current level, latest
        first, until one literal of that level is left (the first UIP): the learnt clause
        is that literal negated (first) and the literals of lower levels met on the way.
        """
        here = len(self.levels)
        seen = [False] * (self.nv + 1)
        learnt = [0]  # learnt[0]: the UIP's negation, filled in at the end
        pending = 0  # literals of the current level seen but not yet resolved away
        index = len(self.trail) - 1
        clause: list[int] | None = conflict
        p = 0
        while True:
            assert clause is not None  # a literal of this level after the decision has one
            for q in clause:
                v = abs(q)
                if q == p or seen[v] or self.level[v] == 0:
                    continue  # p is the literal this reason implied; level 0 always holds
                seen[v] = True
                self.bump_activity(v)
                if self.level[v] == here:
                    pending += 1
                else:
                    learnt.append(q)
            while not seen[abs(self.trail[index])]:  # the latest literal of the graph
                index -= 1
            p = self.trail[index]
            index -= 1
            pending -= 1
            if pending == 0:
                break  # p is the first UIP: every path from the decision goes through it
            clause = self.reason[abs(p)]
        learnt[0] = -p
        self.decay_activities()
        if len(learnt) == 1:
            return learnt, 0
        # watch the literal of the highest level below: the backjump makes the clause unit
        top = max(range(1, len(learnt)), key=lambda k: self.level[abs(learnt[k])])
        learnt[1], learnt[top] = learnt[top], learnt[1]
        return learnt, self.level[abs(learnt[1])]

    def bump_activity(self, v: int) -> None:
        """VSIDS: a variable met in a conflict becomes more likely to be decided next."""
        self.activity[v] += self.bump
        if self.activity[v] > 1e100:  # rescale all, keeping the order
            self.activity = [a * 1e-100 for a in self.activity]
            self.bump *= 1e-100
            self.heap = [(-self.activity[u], u) for u in range(1, self.cells + 1)]
            heapq.heapify(self.heap)
        elif v <= self.cells:
            heapq.heappush(self.heap, (-self.activity[v], v))

    def decay_activities(self) -> None:
        """Older conflicts count less: bump later ones more (MiniSat's trick)."""
        self.bump /= DECAY

    # --- backjumping and decisions ----------------------------------------------------

    def backjump(self, level: int) -> None:
        """Undo every assignment above `level`."""
        if len(self.levels) <= level:
            return
        start = self.levels[level]
        for lit in self.trail[start:]:
            v = abs(lit)
            self.value[v] = UNSET
            self.reason[v] = None
            if v <= self.cells:
                heapq.heappush(self.heap, (-self.activity[v], v))
        del self.trail[start:]
        del self.levels[level:]
        self.head = len(self.trail)

    def pick(self) -> int:
        """The unassigned variable with the highest activity (0: every one is assigned)."""
        heap, value, activity = self.heap, self.value, self.activity
        while heap:
            score, v = heapq.heappop(heap)
            if value[v] == UNSET and -score == activity[v]:
                return v
        for v in range(1, self.nv + 1):  # stale entries were dropped, then the auxiliaries
            if value[v] == UNSET:
                return v
        return 0

    def decide(self, v: int) -> None:
        """A new decision level: make v true (in Sudoku terms: put the digit in the cell)."""
        self.stats["decisions"] += 1
        self.levels.append(len(self.trail))
        self.enqueue(v, None)

    # --- the loop ----------------------------------------------------------------------

    def solve(self, at: float | None = None) -> list[int] | None:
        """A model (the true literals), or None when there is none. OutOfTime past `at`."""
        if not self.ok:
            return None
        restarts, budget = 1, RESTART_BASE
        while True:
            conflict = self.propagate()
            if conflict is None and self.trace is not None:
                self.trace.wave(self)
            if conflict is not None:
                self.stats["conflicts"] += 1
                if not self.levels:
                    self.ok = False
                    if self.trace is not None:
                        self.trace.conflict(self, conflict)
                    return None  # a conflict at level 0: unsatisfiable
                learnt, back = self.analyze(conflict)
                if self.trace is not None:
                    self.trace.conflict(self, conflict)
                    self.trace.learnt(self, learnt, back)
                self.stats["backjumps"] += len(self.levels) - back > 1
                self.backjump(back)
                self.learn(learnt)
                budget -= 1
                continue
            if budget <= 0:  # restart: keep what was learnt, forget the decisions
                restarts += 1
                budget = RESTART_BASE * luby(restarts)
                self.stats["restarts"] += 1
                self.backjump(0)
                if self.trace is not None:
                    self.trace.restart(self)
            v = self.pick()
            if not v:
                return list(self.trail)
            if at is not None and not self.stats["decisions"] % CHECK_EVERY \
                    and time.perf_counter() >= at:
                raise OutOfTime
            self.decide(v)
            if self.trace is not None:
                self.trace.decision(self, v)

    def learn(self, learnt: list[int]) -> None:
        """Keep a learnt clause (watched on its UIP literal and its highest other) and
        assert the UIP literal: the clause is unit at the level backjumped to."""
        self.stats["learnt"] += 1
        self.stats["learnt_literals"] += len(learnt)
        if len(learnt) > 1:
            self.watch(learnt)
        self.enqueue(learnt[0], learnt if len(learnt) > 1 else None)

    def block(self, lits: Sequence[int]) -> bool:
        """Rule out a model: back to level 0 and add the clause `lits` (False: no model left)."""
        self.backjump(0)
        self.ok = self.add_clause(lits)
        return self.ok


class Tracer:
    """Tells a sudokulab.backends.trace.Recorder what the solver does, in Sudoku terms.

    The Recorder's events are a search tree's (a guess per node, waves of removed
    candidates, dead ends, backtracks to a node's slot); a decision level is a slot.
    `mirror` holds the candidates as trace.replay will have rebuilt them, so each wave
    removes exactly what the replay still shows and the solver no longer allows.
    """

    def __init__(self, recorder, n: int, cells: int, given: Sequence[int]) -> None:
        self.recorder, self.n, self.cells = recorder, n, cells
        self.mirror = [1 << (d - 1) if d else (1 << n) - 1 for d in given]
        self.saved: dict[int, list[int]] = {}  # slot -> the mirror before its guess
        self.valid = 0  # slots below this one hold a state the replay can go back to
        recorder.start(self.mirror, n)

    def marks(self, solver: Solver) -> list[int]:
        """Each cell's candidates under the solver's assignment: digits not yet false."""
        n, value = self.n, solver.value
        marks = []
        for cell in range(self.cells):
            base = cell * n
            marks.append(sum(1 << d for d in range(n) if value[base + d + 1] != FALSE))
        return marks

    def wave(self, solver: Solver) -> None:
        """What propagation removed since the last event the replay knows of."""
        if self.recorder.full:
            return
        after = self.marks(solver)
        self.recorder.wave(self.mirror, after)
        self.mirror = after

    def decision(self, solver: Solver, v: int) -> None:
        """A decision on variable v, then the wave of its propagation (shown next)."""
        slot = len(solver.levels) - 1
        recorder = self.recorder
        why = (f"decision level {slot + 1}: {solver.name(v)}, the most active unassigned "
               f"variable (activity {solver.activity[v]:.3g})")
        top = self.cells * self.n
        if v > top:  # an auxiliary (a cage's digit set): no cell to show
            recorder.add({"event": "decision", "depth": slot, "why": why})
            return
        cell, digit = (v - 1) // self.n, (v - 1) % self.n + 1
        if slot < self.valid and slot in self.saved:
            # the slot's state is still a superset of the solver's: the replay goes back
            # to it (a sibling in the tree), and the next wave removes the rest
            recorder.add({"event": "guess", "slot": slot, "first": False, "depth": slot,
                          "cell": cell, "digit": digit, "why": why})
            recorder.depth = slot + 1
            self.mirror = self.saved[slot][:]
        else:
            recorder.chose(slot, why)
            self.saved[slot] = self.mirror[:]
            recorder.guess(slot, cell, digit)
        self.mirror[cell] = 1 << (digit - 1)
        self.valid = slot + 1

    def solution(self, grid: Sequence[int]) -> None:
        """A model: the replay shows its grid."""
        self.recorder.solution(grid)
        self.mirror = [1 << (d - 1) for d in grid]

    def conflict(self, solver: Solver, clause: Sequence[int]) -> None:
        """A clause with every literal false: where, in words."""
        self.wave(solver)
        cells = sorted({(abs(q) - 1) // self.n for q in clause
                        if abs(q) <= self.cells * self.n})
        text = " ∨ ".join(solver.name(q) for q in clause)
        self.recorder.dead_end(cells, f"conflict at level {len(solver.levels)}: every "
                                      f"literal of ({text}) is false")

    def learnt(self, solver: Solver, clause: Sequence[int], back: int) -> None:
        """The learnt clause, its first UIP, and the backjump it makes."""
        here = len(solver.levels)
        uip = solver.name(-clause[0])
        text = " ∨ ".join(solver.name(q) for q in clause)
        fact = ("not all of " + ", ".join(solver.name(-q) for q in clause)) \
            if len(clause) > 1 else solver.name(clause[0])
        self.recorder.add({
            "event": "learnt", "depth": here, "clause": list(clause),
            "literals": [solver.name(q) for q in clause], "uip": uip,
            "level": here, "backjump": back,
            "why": f"learnt ({text}) with first UIP {uip}: {fact}; backjump from level "
                   f"{here} to {back}, then {solver.name(clause[0])}"})
        self.backjump(back)

    def backjump(self, level: int) -> None:
        """Back to a decision level: the replay goes back to its slot's state."""
        self.valid = min(self.valid, level + 1)
        if level in self.saved and level < self.valid:
            self.recorder.add({"event": "backtrack", "slot": level, "depth": level})
            self.recorder.depth = level
            self.mirror = self.saved[level][:]

    def restart(self, solver: Solver) -> None:
        """A restart: back to level 0."""
        self.recorder.add({"event": "restart", "depth": 0,
                           "why": f"restart {solver.stats['restarts']}: back to level 0, "
                                  f"keeping {solver.stats['learnt']} learnt clauses"})
        self.backjump(0)


def literal_names(geo, n: int, cells: int):
    """literal -> its text: r3c4=7 for a cell variable, r3c4≠7 negated, x812 above them."""
    def name(lit: int) -> str:
        v = abs(lit)
        if v > cells * n:
            return f"x{v}" if lit > 0 else f"¬x{v}"
        return f"{geo.name((v - 1) // n)}{'=' if lit > 0 else '≠'}{(v - 1) % n + 1}"
    return name


def search(puzzle, limit: int | None, at: float | None, encoding: str = "extended",
           amo: str = "pairwise", recorder=None, found: Found | None = None,
           solver_class: type[Solver] | None = None) -> tuple[Found | list[Grid], bool, dict]:
    """Up to `limit` solutions of the puzzle's CNF, whether the search was complete, and
    its statistics. Solutions go into `found` as they come: Ctrl-C keeps them.
    `solver_class`: a Solver subclass of one's own (docs/course's exercises)."""
    from sudokulab.geometry import geometry
    from sudokulab.models import cnf

    formula = cnf.base(puzzle.box, puzzle.rules, encoding, amo, puzzle.layout)
    geo = geometry(puzzle.box, puzzle.rules, puzzle.layout)
    n, cells = formula.n, formula.cells
    clauses = [list(c) for c in formula.cnf.clauses]  # the solver reorders literals
    clauses += [[lit] for lit in cnf.givens_literals(puzzle)]
    name = literal_names(geo, n, cells)
    solver = (solver_class or Solver)(max(formula.cnf.nv, cells * n), clauses, name,
                                      cells * n)
    if recorder is not None:
        recorder.name = geo.name
        solver.trace = Tracer(recorder, n, cells, puzzle.givens)
    solutions: Found | list[Grid] = found if found is not None else []
    stats = solver.stats
    stats.update(variables=solver.nv, clauses=len(clauses))
    complete = True
    try:
        while limit is None or len(solutions) < limit:
            model = solver.solve(at)
            if model is None:
                break
            grid = formula.decode(model)
            solutions.append(grid)
            if solver.trace is not None:
                solver.trace.solution(grid)
            blanks = [cell for cell, d in enumerate(puzzle.givens) if not d]
            if len(solutions) == limit or not blanks:
                break
            if not solver.block([-cnf.var(n, cell, grid[cell]) for cell in blanks]):
                break  # that was the last model
            if solver.trace is not None:
                solver.trace.backjump(0)
    except OutOfTime:
        complete = False
    return solutions, complete, stats
