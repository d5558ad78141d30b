"""A DRAT proof checker of the lab's own: forward checking, every lemma in turn.

A DRAT proof is a list of lines, each a clause ending in 0: a lemma to add, or, after
`d`, a clause to delete. A lemma is accepted when it is RUP (asserting the negation of
each of its literals and propagating units over the clauses held then gives a conflict)
or, failing that, RAT on its first literal p (every resolvent with a clause holding -p is
RUP). The proof proves the formula unsatisfiable when it writes the empty clause, checked
like any lemma: lines after it are not read. (drat-trim also accepts a proof whose lemmas
make unit propagation reach a conflict without writing the empty clause; this checker
wants it written.)

Every lemma is checked, needed or not: drat-trim's backward mode checks only the lemmas
the conflict needs (it may accept a proof with a wrong lemma that nothing needs, which
this checker refuses), and its forward mode (-f) checks them all, as this one does. A
backward version was tried: in Python, tracking each literal's reason cost more than the
lemmas it skipped (28 ms against 18 ms for a 9x9 uniqueness proof of which it checked 54
lemmas of 537).

`core` trims a proof to the lemmas its refutation uses (what drat-trim's -l writes): a
Tracer checks every lemma forward, as `check` does, recording the lemmas and top-level
literals each check's conflict rests on; the core is what the empty clause needs,
followed back. A uniqueness proof of a hard 9x9 keeps a few dozen of its ~600 lemmas.

Unit propagation uses two watched literals per clause of three or more literals and
implication lists for binary clauses. The assignment forced by the formula and the lemmas
alone (the top level) is kept from one lemma to the next; each check adds to it and then
takes its own additions back, so a lemma costs what its propagation visits, not a pass
over the formula.

Deletions follow drat-trim's convention: deleting a clause that is unit under the top-level
assignment (one literal true, every other false: the reason of a top-level literal, and
every clause of one literal that holds) is ignored, as drat-trim ignores deletions of its
reason clauses ("ignoring deletion of unit clause"); so is deleting a clause that is not
held. Ignoring a deletion only keeps a clause the checker already accepted (an input
clause, or a lemma that passed its own RUP or RAT check), and every later check runs
against the clauses held: the checker stays sound, as drat-trim does with the same rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple, TypeVar

Clause = tuple[int, ...]
Uses = tuple[set[int], set[int]]  # what a check rests on: lemmas (from 1), top-level literals
Reason = int | Clause  # why a literal holds: a long clause's id, or a short clause's literals
T = TypeVar("T")


class Step(NamedTuple):
    """One line of a DRAT proof: a lemma, or (deleted) a clause to delete."""

    deleted: bool
    clause: Clause
    line: int  # its line in the proof, from 1


@dataclass(frozen=True)
class Outcome:
    """What checking a proof found: `ok`, or the first lemma that fails and why."""

    ok: bool
    lemmas: int          # lemmas checked (the failing one included)
    deletions: int       # deletion lines read
    ignored: int         # deletions ignored (unit clauses, clauses not held)
    lemma: int = 0       # the failing lemma's number, from 1, when not ok
    line: int = 0        # its line in the proof, from 1
    clause: Clause = ()  # its literals
    why: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"proof accepted: {self.lemmas} lemmas, {self.deletions} deletions"
        if self.lemma:
            text = " ".join(map(str, self.clause)) + " 0"
            return f"lemma {self.lemma} (proof line {self.line}) '{text}': {self.why}"
        return self.why


def parse(text: str) -> list[Step]:
    """The lines of a text DRAT proof, as steps; ValueError naming a line that is no
    clause ending in 0."""
    steps = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        deleted = words[0] == "d"
        if deleted:
            words = words[1:]
        if not words or words[-1] != "0":
            raise ValueError(f"proof line {number}: a clause must end with 0: {line[:60]!r}")
        try:
            clause = tuple(map(int, words[:-1]))
        except ValueError:
            raise ValueError(f"proof line {number}: not a clause: {line[:60]!r}") from None
        if 0 in clause:
            raise ValueError(f"proof line {number}: 0 inside a clause: {line[:60]!r}")
        steps.append(Step(deleted, clause, number))
    return steps


class Checker:
    """Clauses held, the top-level assignment, and RUP and RAT checks against them."""

    def __init__(self, variables: int) -> None:
        self.size = variables
        size = 2 * variables + 1  # indexed by literal: -v wraps to the top half
        self.true = [False] * size            # true[lit]: lit holds now
        self.binary: list[list[int]] = [[] for _ in range(size)]  # binary[lit]: if lit fails
        self.watches: list[list[int]] = [[] for _ in range(size)]  # long clauses watching lit
        self.long: list[list[int]] = []  # clauses of 3+ literals, [] once deleted (unwatched)
        self.units: list[int] = []            # clauses of one literal (RAT reads them)
        self.trail: list[int] = []           # the top-level assignment, in order
        self.head = 0                         # trail[:head] propagated
        self.conflict = False                 # the top level itself is contradictory

    # --- the clause database ------------------------------------------------------------

    def add(self, clause: Clause) -> None:
        """Hold a clause (of the formula, or a lemma already checked) and propagate.

        A tautology is not held (it is always satisfied: no check needs it)."""
        if len(clause) > 2 or (len(clause) == 2 and abs(clause[0]) == abs(clause[1])):
            seen = set(clause)
            if any(-lit in seen for lit in clause):
                return
            if len(seen) < len(clause):  # a literal written twice counts once
                clause = tuple(dict.fromkeys(clause))
        true = self.true
        if len(clause) == 2:
            a, b = clause
            self.binary[a].append(b)  # a fails: b must hold (indexed by the failing literal)
            self.binary[b].append(a)
        elif len(clause) > 2:
            # Watch two literals that are not false at the top level, when there are two.
            lits = list(clause)
            free = [k for k, lit in enumerate(lits) if not true[-lit]][:2]
            for slot, k in enumerate(free):
                lits[slot], lits[k] = lits[k], lits[slot]
            self.long.append(lits)
            cid = len(self.long) - 1
            self.watches[-lits[0]].append(cid)
            self.watches[-lits[1]].append(cid)
            if len(free) == 2:
                return  # two literals not false: nothing to propagate
        elif clause:
            self.units.append(clause[0])
        if self.conflict:
            return
        free = [lit for lit in clause if not true[-lit]]
        if not free:
            self.conflict = True
        elif len(free) == 1 and not true[free[0]]:
            self._assign(free[0])
            if not self._propagate():
                self.conflict = True

    def load(self, formula: Sequence[Clause]) -> None:
        """Hold the formula's clauses: binary ones first, straight into the lists when
        nothing is assigned yet (so none propagates), then the longer ones, then the units."""
        binary, rest = self.binary, []
        for clause in formula:
            if len(clause) == 2 and abs(clause[0]) != abs(clause[1]) and not self.trail:
                a, b = clause
                binary[a].append(b)
                binary[b].append(a)
            else:
                rest.append(clause)
        rest.sort(key=lambda clause: len(clause) == 1)
        for clause in rest:
            self.add(clause)

    def copy(self) -> Checker:
        """An independent copy: clauses held and the top-level assignment."""
        other = Checker.__new__(Checker)
        other.size, other.head, other.conflict = self.size, self.head, self.conflict
        other.true, other.units, other.trail = self.true[:], self.units[:], self.trail[:]
        other.binary = [implied[:] for implied in self.binary]
        other.watches = [watching[:] for watching in self.watches]
        other.long = [lits[:] for lits in self.long]
        return other

    def delete(self, clause: Clause) -> bool:
        """Stop holding a clause; False when the deletion is ignored (a unit clause under
        the top level, or a clause not held)."""
        clause = tuple(dict.fromkeys(clause))
        true = self.true
        if self.conflict or len(clause) < 2 or any(abs(lit) > self.size for lit in clause):
            return False  # nothing left to check / a unit clause / a clause never held
        if sum(not true[-lit] for lit in clause) == 1 and any(true[lit] for lit in clause):
            return False  # drat-trim's convention: a unit clause's deletion is ignored
        if len(clause) == 2:
            a, b = clause
            if b not in self.binary[a]:
                return False
            self.binary[a].remove(b)
            self.binary[b].remove(a)
            return True
        key = sorted(clause)
        for lit in clause:  # a long clause is watched by two of its literals
            for cid in self.watches[-lit]:
                lits = self.long[cid]
                if len(lits) == len(key) and sorted(lits) == key:
                    self.watches[-lits[0]].remove(cid)
                    self.watches[-lits[1]].remove(cid)
                    self.long[cid] = []
                    return True
        return False

    def grow(self, clause: Clause) -> None:
        """Room for variables beyond the header's (a proof may add its own)."""
        top = max((abs(lit) for lit in clause), default=0)
        if top <= self.size:
            return
        top = max(top, 2 * self.size)  # geometric: a proof adding one variable a step
        # The negative half sits at the end of each list: grow by rebuilding.
        old = self.size
        self.true = _regrown(self.true, old, top, lambda: False)
        self.binary = _regrown(self.binary, old, top, list)
        self.watches = _regrown(self.watches, old, top, list)
        self.size = top

    # --- propagation ------------------------------------------------------------------------

    def _assign(self, lit: int) -> None:
        """Make lit true (it is unassigned)."""
        self.true[lit] = True
        self.trail.append(lit)

    def _propagate(self) -> bool:
        """Propagate units from trail[head:]; False on a conflict."""
        true, binary, watches, long, trail = (self.true, self.binary, self.watches,
                                              self.long, self.trail)
        head = self.head
        while head < len(trail):
            lit = trail[head]
            head += 1
            false = -lit
            for other in binary[false]:
                if not true[other]:
                    if true[-other]:
                        self.head = head
                        return False
                    true[other] = True
                    trail.append(other)
            watching = watches[lit]  # clauses watching `false`: indexed by its negation
            i = 0
            while i < len(watching):
                cid = watching[i]
                lits = long[cid]
                if lits[0] == false:
                    lits[0], lits[1] = lits[1], false
                first = lits[0]
                if true[first]:
                    i += 1
                    continue
                for k in range(2, len(lits)):
                    candidate = lits[k]
                    if not true[-candidate]:
                        lits[1], lits[k] = candidate, false
                        watches[-candidate].append(cid)
                        watching[i] = watching[-1]
                        watching.pop()
                        break
                else:
                    if true[-first]:
                        self.head = head
                        return False
                    true[first] = True
                    trail.append(first)
                    i += 1
        self.head = head
        return True

    def _undo(self, mark: int) -> None:
        """Take back the assignments after trail[:mark]."""
        true, trail = self.true, self.trail
        for lit in trail[mark:]:
            true[lit] = False
        del trail[mark:]
        self.head = mark

    def _refutes(self, lits: Iterable[int]) -> bool:
        """Whether asserting the negation of each literal and propagating gives a conflict
        (the assignment is added to; the caller takes it back)."""
        true = self.true
        for lit in lits:
            if true[lit]:
                return True  # its negation contradicts what already holds
            if not true[-lit]:
                self._assign(-lit)
        return not self._propagate()

    # --- the checks ----------------------------------------------------------------------

    def rup(self, clause: Clause) -> bool:
        """Whether the clause follows from the clauses held by unit propagation."""
        if self.conflict:
            return True
        self.grow(clause)
        mark = len(self.trail)
        try:
            return self._refutes(clause)
        finally:
            self._undo(mark)

    def rat(self, clause: Clause) -> bool:
        """Whether the clause is RAT on its first literal: every resolvent with a clause
        held that contains its negation is RUP."""
        if not clause:
            return False
        pivot = clause[0]
        for other in self._holding(-pivot):
            mark = len(self.trail)
            try:
                if not self._refutes([*clause, *(lit for lit in other if lit != -pivot)]):
                    return False
            finally:
                self._undo(mark)
        return True

    def _holding(self, lit: int) -> list[Clause]:
        """Every clause held that contains lit (long ones by a scan: RAT checks are rare)."""
        found: list[Clause] = [(lit,)] * self.units.count(lit)
        found += [(lit, other) for other in self.binary[lit]]
        found += [tuple(lits) for lits in self.long if lit in lits]
        return found


def _regrown(table: list[T], old: int, top: int, blank: Callable[[], T]) -> list[T]:
    """A table indexed by literal, for variables up to `top` instead of `old`: the entries
    of variables 1 .. old moved over, blank ones for the rest."""
    new = [blank() for _ in range(2 * top + 1)]
    for v in range(1, old + 1):
        new[v], new[-v] = table[v], table[-v]
    return new


def check(variables: int, formula: Iterable[Sequence[int]], proof: str | Sequence[Step], *,
          shared: tuple[Clause, ...] = ()) -> Outcome:
    """Check a DRAT proof (its text, or parsed steps) that the formula (and the `shared`
    clauses before it) is unsatisfiable. `shared` is loaded once per tuple and copied after:
    the rules' clauses, the same for every puzzle of a shape and rule set."""
    steps = parse(proof) if isinstance(proof, str) else proof
    clauses = [tuple(clause) for clause in formula]
    # Literals past the header would index the wrong variable: make room first.
    top = max(map(abs, chain.from_iterable(clauses)), default=0)
    checker = _loaded(variables, shared).copy() if shared else Checker(variables)
    checker.grow((top,))
    checker.load(clauses)
    lemmas = deletions = ignored = 0
    # A lemma may name variables of its own (extended resolution), a new one at most per
    # step: a literal past that bound is no proof's, and would only make the tables huge.
    bound = max(variables, top) + len(steps)
    for deleted, clause, number in steps:
        if any(abs(lit) > bound for lit in clause):
            return Outcome(False, lemmas, deletions, ignored, lemmas + (not deleted), number,
                           clause, f"a variable past {bound}: more than the formula's and "
                                   f"one new per step")
        if deleted:
            deletions += 1
            ignored += not checker.delete(clause)
            continue
        lemmas += 1
        checker.grow(clause)
        if not (checker.rup(clause) or checker.rat(clause)):
            why = ("the formula does not propagate to a conflict" if not clause
                   else "neither RUP nor RAT on its first literal")
            return Outcome(False, lemmas, deletions, ignored, lemmas, number, clause, why)
        if not clause:
            return Outcome(True, lemmas, deletions, ignored)
        checker.add(clause)
    return Outcome(False, lemmas, deletions, ignored,
                   why=f"the proof ends after {lemmas} lemmas without the empty clause")


_LOADED: dict[int, tuple[tuple[Clause, ...], Checker]] = {}


def _loaded(variables: int, shared: tuple[Clause, ...]) -> Checker:
    """A checker holding the shared clauses, cached by the tuple's identity (the cache
    holds the tuple, so the identity is not reused meanwhile)."""
    cached = _LOADED.get(id(shared))
    if cached is None or cached[0] is not shared or cached[1].size < variables:
        top = max(map(abs, chain.from_iterable(shared)), default=0)
        checker = Checker(max(variables, top))
        checker.load(shared)
        cached = _LOADED[id(shared)] = (shared, checker)
        if len(_LOADED) > 8:
            del _LOADED[next(iter(_LOADED))]
    return cached[1]


# --- the core: the lemmas the refutation uses ----------------------------------------------

class Tracer(Checker):
    """A checker that also records why each literal holds (its reason clause) and, for
    each lemma, the lemmas and top-level literals its check used: the core's graph.

    Separate from Checker so that verifying pays nothing for it. A reason is a long
    clause's id, or the literals of a binary or unit clause."""

    def __init__(self, variables: int) -> None:
        super().__init__(variables)
        self.reason: dict[int, Reason] = {}   # lit -> its reason (absent: an assumption)
        self.owner_long: dict[int, int] = {}  # cid -> the lemma that added it
        self.owner_short: dict[Clause, int] = {}  # a sorted binary or unit clause -> lemma
        self.top_uses: dict[int, Uses] = {}   # top-level lit -> what its reason rests on
        self.conflict_uses: Uses = (set(), set())  # what a top-level conflict rests on
        self.lemma = 0                        # the lemma being added (0: the formula)
        self.rat_used = False
        self._failed: Reason | None = None    # the reason-like clause of the last conflict

    def add(self, clause: Clause) -> None:
        """Hold a clause, noting which lemma it is and the reasons of what it implies."""
        key = tuple(sorted(dict.fromkeys(clause)))
        cid = len(self.long)
        if self.lemma and len(key) <= 2:
            self.owner_short[key] = self.lemma
        elif self.lemma:
            self.owner_long[cid] = self.lemma
        mark, conflict, self._failed = len(self.trail), self.conflict, None
        super().add(clause)
        if len(self.trail) > mark and self.trail[mark] not in self.reason:
            # Implied by the new clause itself, before any propagation.
            self.reason[self.trail[mark]] = key if len(key) <= 2 else cid
        if not conflict and self.conflict:
            if self._failed is None:  # the clause itself is false: it and what made it so
                lemmas, tops = self._uses(key, mark)
                self.conflict_uses = (lemmas | ({self.lemma} if self.lemma else set()), tops)
            else:
                self.conflict_uses = self._uses(self._failed, mark)
        self._note_top(mark)

    def _assign(self, lit: int) -> None:
        """Make lit true with no reason yet (an assumption, until add says otherwise)."""
        self.reason.pop(lit, None)
        super()._assign(lit)

    def _note_top(self, mark: int) -> None:
        """Record, for each literal the top level gained from trail[mark:], what it used."""
        for lit in self.trail[mark:]:
            if lit not in self.top_uses:
                why = self.reason.get(lit)
                self.top_uses[lit] = (({self._owner(why)} - {0}, set()) if why is None
                                      or len(self._clause(why)) == 1 else
                                      self._uses(why, mark, skip=lit))

    def _propagate(self) -> bool:
        """Propagate units from trail[head:], recording reasons; False on a conflict (its
        clause kept in _failed)."""
        true, binary, watches, long, trail = (self.true, self.binary, self.watches,
                                              self.long, self.trail)
        reason = self.reason
        head = self.head
        while head < len(trail):
            lit = trail[head]
            head += 1
            false = -lit
            for other in binary[false]:
                if not true[other]:
                    if true[-other]:
                        self.head, self._failed = head, (false, other)
                        return False
                    true[other] = True
                    reason[other] = (false, other)
                    trail.append(other)
            watching = watches[lit]
            i = 0
            while i < len(watching):
                cid = watching[i]
                lits = long[cid]
                if lits[0] == false:
                    lits[0], lits[1] = lits[1], false
                first = lits[0]
                if true[first]:
                    i += 1
                    continue
                for k in range(2, len(lits)):
                    candidate = lits[k]
                    if not true[-candidate]:
                        lits[1], lits[k] = candidate, false
                        watches[-candidate].append(cid)
                        watching[i] = watching[-1]
                        watching.pop()
                        break
                else:
                    if true[-first]:
                        self.head, self._failed = head, cid
                        return False
                    true[first] = True
                    reason[first] = cid
                    trail.append(first)
                    i += 1
        self.head = head
        return True

    def _clause(self, why: Reason | None) -> Clause:
        """The literals of a reason."""
        if why is None:
            return ()
        return tuple(self.long[why]) if isinstance(why, int) else why

    def _owner(self, why: Reason | None) -> int:
        """The lemma that added a reason clause (0: a clause of the formula)."""
        if isinstance(why, int):
            return self.owner_long.get(why, 0)
        return self.owner_short.get(tuple(sorted(why)), 0) if why else 0

    def _uses(self, why: Reason | None, mark: int, *, skip: int = 0) -> Uses:
        """The lemmas and top-level literals a clause's conflict (or, with `skip`, its
        implication of skip) rests on: its owner, then back through the reasons of the
        literals assigned since trail[mark]; older literals are top-level ones."""
        lemmas = {self._owner(why)} - {0}
        tops: set[int] = set()
        recent = set(self.trail[mark:])
        stack = [-lit for lit in self._clause(why) if lit != skip]
        seen: set[int] = set()
        while stack:
            lit = stack.pop()  # a literal that holds and falsified a literal of the clause
            if lit in seen:
                continue
            seen.add(lit)
            if lit not in recent or lit in self.top_uses:
                tops.add(lit)
                continue
            why = self.reason.get(lit)
            if why is None:
                continue  # an assumption: the negation of one of the lemma's literals
            lemmas.add(self._owner(why))
            stack.extend(-other for other in self._clause(why) if other != lit)
        return lemmas - {0}, tops

    def _held(self, clause: Clause) -> Reason:
        """The reason (id, or literals) of a clause held with these literals."""
        if len(clause) <= 2:
            return clause
        key = sorted(clause)
        for cid in self.watches[-clause[0]] + self.watches[-clause[1]]:
            if sorted(self.long[cid]) == key:
                return cid
        return clause

    def uses(self, clause: Clause) -> Uses | None:
        """What the clause's RUP (or RAT) check rests on; None if it is neither."""
        found = self._rup_uses(clause)
        return found if found is not None else self._rat_uses(clause)

    def _rup_uses(self, clause: Clause) -> Uses | None:
        """What the clause's RUP check rests on; None if it is not RUP."""
        if self.conflict:
            return self.conflict_uses
        self.grow(clause)
        true = self.true
        held = next((lit for lit in clause if true[lit]), None)
        if held is not None:  # a literal holds at the top level: so does the clause
            return set(), {held}
        if any(-lit in clause for lit in clause):
            return set(), set()  # a tautology rests on nothing
        mark = len(self.trail)
        try:
            if self._refutes(clause):
                return self._uses(self._failed, mark)
        finally:
            self._undo(mark)
        return None

    def _rat_uses(self, clause: Clause) -> Uses | None:
        """What a RAT check on the first literal rests on: every clause with its negation
        and each resolvent's conflict; None if it fails."""
        if not clause:
            return None
        lemmas: set[int] = set()
        tops: set[int] = set()
        for other in self._holding(-clause[0]):
            lemmas.add(self._owner(self._held(other)))
            resolvent = tuple(dict.fromkeys([*clause, *(lit for lit in other
                                                        if lit != -clause[0])]))
            found = self._rup_uses(resolvent)
            if found is None:
                return None
            lemmas |= found[0]
            tops |= found[1]
        self.rat_used = True
        return lemmas - {0}, tops


def core(variables: int, formula: Iterable[Sequence[int]], proof: str | Sequence[Step]) -> str:
    """The proof trimmed to the lemmas its refutation uses, as DRAT text ending with the
    empty clause; ValueError if the proof does not refute the formula.

    Every lemma is checked forward, as `check` does, recording what each check used; the
    core is what the empty clause needs, followed back. Without deletions a RUP lemma stays
    RUP (unit propagation only gains from more clauses), so the core keeps none, unless a
    lemma of it needed RAT: then it keeps the deletions of clauses it holds."""
    steps = parse(proof) if isinstance(proof, str) else list(proof)
    clauses = [tuple(clause) for clause in formula]
    top = max(map(abs, chain.from_iterable(clauses)), default=0)
    tracer = Tracer(max(variables, top))
    tracer.load(clauses)
    needs: dict[int, Uses] = {}
    lemmas: list[tuple[int, Clause]] = []   # (step index, clause)
    for index, (deleted, clause, number) in enumerate(steps):
        if deleted:
            tracer.delete(clause)
            continue
        tracer.lemma = len(lemmas) + 1
        found = tracer.uses(clause)
        if found is None:
            raise ValueError(f"lemma {tracer.lemma} (proof line {number}) is neither RUP "
                             f"nor RAT on its first literal")
        needs[tracer.lemma] = found
        lemmas.append((index, clause))
        if not clause:
            break
        tracer.add(clause)
    else:
        raise ValueError(f"the proof ends after {len(lemmas)} lemmas without the empty clause")
    kept = _needed(len(lemmas), needs, tracer.top_uses)
    kept_steps = {lemmas[k - 1][0] for k in kept}
    lines = []
    for index, (deleted, clause, _) in enumerate(steps[:lemmas[-1][0] + 1]):
        if index in kept_steps or (deleted and tracer.rat_used):
            lines.append(("d " if deleted else "") + " ".join(map(str, (*clause, 0))))
    return "\n".join(lines) + "\n"


def _needed(last: int, needs: dict[int, Uses], top_uses: dict[int, Uses]) -> set[int]:
    """The lemmas the last one (the empty clause) needs, directly or through others and
    through the top-level literals their checks used."""
    kept: set[int] = set()
    seen_tops: set[int] = set()
    stack: list[Uses] = [needs[last]]
    kept.add(last)
    while stack:
        lemmas, tops = stack.pop()
        for lemma in lemmas - kept:
            kept.add(lemma)
            stack.append(needs[lemma])
        for lit in tops - seen_tops:
            seen_tops.add(lit)
            if lit in top_uses:
                stack.append(top_uses[lit])
    return kept
