"""The asp backend: the answer set program sudokulab/models/asp/sudoku.lp, solved by clingo.

Grounding costs far more than solving one 9x9 puzzle, so each process keeps one clingo
Control per (shape, rule set), grounded once: the program, the facts of the shape and
rules, and an external atom given(R,C,D) for every cell and digit. A puzzle switches
its givens' externals on, solves, and switches them off again (multi-shot solving).
Counting is clingo's own enumeration of answer sets (each answer set is a grid).

Each solve forgets the nogoods learned in the steps before it (clasp's
`--forget-on-step=lemmas`): kept, they pile up puzzle after puzzle and slow every later
search (results/asp.md has the figures).

Timeouts: with a deadline the search runs asynchronously and is cancelled when it passes,
so clingo really stops; Ctrl-C interrupts clingo from the thread that hears it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from sudokulab import rules as R
from sudokulab.backends.base import (
    Availability,
    Backend,
    Deadline,
    Need,
    ctrl_c,
    interrupted,
)
from sudokulab.backends.extras import install
from sudokulab.models import asp as program
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Result, verdict

if TYPE_CHECKING:  # clingo is imported where it is used: AspBackend.needs says why
    import clingo

OPTIONS = ["--forget-on-step=lemmas"]
EXAMPLES = 4  # facts shown per kind in the teaching view


# The external atoms that carry a puzzle's givens: one per cell and digit, all false
# until a puzzle switches its own on.
EXTERNALS = "#external given(R,C,D) : cell(R,C), digit(D)."


def _literal(atoms: clingo.SymbolicAtoms, atom: clingo.Symbol) -> int:
    """The program literal of a ground atom the program declares (EXTERNALS)."""
    found = atoms[atom]
    if found is None:
        raise RuntimeError(f"{atom} is missing from the grounded program")
    return found.literal


class Engine:
    """One grounded clingo Control for a shape and rule set, reused puzzle after puzzle."""

    def __init__(self, box: tuple[int, int], rules: tuple) -> None:
        import clingo

        self.n = box[0] * box[1]
        self.control = clingo.Control(OPTIONS)
        self.control.add("base", [], program.program())
        self.control.add("base", [], "\n".join(program.rule_facts(box, rules)))
        self.control.add("base", [], EXTERNALS)
        self.control.ground([("base", [])])
        self.models: int | None = None
        n, atoms = self.n, self.control.symbolic_atoms
        number = clingo.Number
        # given(R,C,D)'s program literal, at cell * N + D - 1; x(R,C,D) as (cell, digit).
        self.given = [_literal(atoms, clingo.Function("given", [number(r), number(c), number(d)]))
                      for r in range(1, n + 1) for c in range(1, n + 1)
                      for d in range(1, n + 1)]
        self.place = {clingo.Function("x", [number(r), number(c), number(d)]):
                      ((r - 1) * n + c - 1, d)
                      for r in range(1, n + 1) for c in range(1, n + 1) for d in range(1, n + 1)}

    def set_models(self, limit: int | None) -> None:
        """Ask clingo for up to `limit` answer sets (0: all); set only when it changes."""
        models = limit or 0
        if models != self.models:
            # "solve" is a group of options, so a Configuration (not a str, nor None)
            cast("clingo.Configuration", self.control.configuration.solve).models = models
            self.models = models

    def literals(self, puzzle: Puzzle) -> list[int]:
        """The externals of the puzzle's givens."""
        n = self.n
        return [self.given[cell * n + digit - 1]
                for cell, digit in enumerate(puzzle.givens) if digit]

    def read(self, model: clingo.Model) -> Grid:
        """The grid of an answer set, from its shown x(R,C,D) atoms."""
        grid = [0] * (self.n * self.n)
        place = self.place
        for atom in model.symbols(shown=True):
            cell, digit = place[atom]
            grid[cell] = digit
        return tuple(grid)

    def statistics(self) -> dict[str, float]:
        """clingo's statistics of the last solve: choices, conflicts, ground rules, atoms."""
        stats = statistics_tree(self.control)
        solvers, lp = stats["solving"]["solvers"], stats["problem"]["lp"]
        return {"choices": solvers["choices"], "conflicts": solvers["conflicts"],
                "rules": lp["rules"], "atoms": lp["atoms"]}


def statistics_tree(control: clingo.Control) -> Mapping:
    """clingo's statistics tree, read lazily where clingo's internals allow it.

    The public `Control.statistics` turns the whole tree (hundreds of counters) into
    dicts after every solve, which took about as long as solving a 9x9 puzzle; the four
    counters wanted here are a few lookups in clingo's own tree.
    """
    try:
        from clingo._internal import _c_call, _lib
        from clingo.statistics import StatisticsMap

        stats = _c_call("clingo_statistics_t*", _lib.clingo_control_statistics, control._rep)
        return StatisticsMap(stats, _c_call("uint64_t", _lib.clingo_statistics_root, stats))
    except (ImportError, AttributeError):  # another clingo: the public, slower way
        return control.statistics


@lru_cache(maxsize=16)
def engine(box: tuple[int, int], rules: tuple) -> Engine:
    """The process's engine for a shape and rule set (grounded on first use)."""
    return Engine(box, rules)


class AspBackend(Backend):
    """clingo on sudoku.lp: grounded once per shape and rules, givens as externals."""

    name = "asp"
    paradigm = "answer set programming (clingo)"
    supported_rules = R.RULE_TYPES  # sudoku.lp states every rule there is
    option_table = {}  # it takes no options: nothing to tune
    needs = (Need("clingo", install("asp")),)
    timeline = None  # a sudokulab.backends.timeline.Timeline to sample the search (`--timeline`)
    keeps_timeline = True

    @classmethod
    def ready(cls) -> Availability:
        """clingo's version (it is installed: see `needs`)."""
        import clingo

        return Availability(True, version=f"clingo {clingo.__version__}")

    def forget(self, puzzle: Puzzle) -> None:
        """A newly grounded Control for the puzzle's shape and rules: clingo keeps nogoods
        it learnt under earlier puzzles' givens, and its heuristic's scores."""
        engine.cache_clear()
        engine(puzzle.box, puzzle.rules)

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Switch the givens on, enumerate up to `limit` answer sets, switch them off."""
        started = time.perf_counter()
        warm = (engine(puzzle.box, puzzle.rules) if self.timeline is None
                else self.timeline.asp_engine(Engine, puzzle))  # its own, with a propagator
        control = warm.control
        warm.set_models(limit)
        givens = warm.literals(puzzle)
        for literal in givens:
            control.assign_external(literal, True)
        built = time.perf_counter()
        solutions = self.new_found()
        try:
            with ctrl_c(control.interrupt) as key:
                answer = search(control, lambda model: solutions.append(warm.read(model)),
                                deadline)
            if key.pressed and not answer.interrupted:
                forget_interrupt(control)  # it came after the search ended
        finally:
            for literal in givens:
                control.assign_external(literal, False)
        solved = time.perf_counter()
        times: dict[str, Any] = {"stats": warm.statistics(), "build_time": built - started,
                 "solve_time": solved - built}
        if key.pressed:
            raise interrupted(solutions, limit, **times)
        return verdict(solutions, limit, complete=answer.exhausted, **times)

    def describe(self, puzzle: Puzzle) -> str:
        """The program's rules this puzzle uses, the facts it adds, the ground program."""
        import clingo

        if reason := self.unsupported(puzzle):
            return reason
        facts = program.facts_by_rule(puzzle.box, puzzle.rules)
        given = [f"given({r},{c},{d})" for r, c, d in program.givens(puzzle)]
        warm = engine(puzzle.box, puzzle.rules)
        warm.set_models(1)
        warm.control.solve(assumptions=[-warm.given[0], warm.given[0]])  # counts the program
        stats = warm.statistics()
        n = puzzle.n
        lines = [f"asp: answer set program {program.PROGRAM.name} (clingo "
                 f"{clingo.__version__}); an answer set is a grid of x(R,C,D) atoms, "
                 f"cell (R,C) holds digit D",
                 "  the program's rules for this puzzle:"]
        lines += [f"    {line}".rstrip() for paragraph in program.sections(puzzle.rules)
                  for line in [*paragraph.splitlines(), ""]]
        lines.append(f"  the facts of its shape and rules "
                     f"({sum(len(group) for group in facts.values())}):")
        for label, group in facts.items():
            lines.append(f"    {label}:")
            lines += _examples(group, "      ")
        lines.append(f"  its givens ({len(given)}), each an external atom switched on "
                     f"for this puzzle (of {n ** 3} given(R,C,D) externals):")
        lines += _examples(given, "    ")
        lines.append(f"  ground once for this shape and rules: {stats['rules']:.0f} rules "
                     f"over {stats['atoms']:.0f} atoms (clingo's statistics)")
        lines.append("  alone: sudokulab export --to asp PUZZLE | clingo - 0   "
                     "(or python -m clingo)")
        return "\n".join(lines)


def search(control: clingo.Control, on_model: Callable, deadline: Deadline
           ) -> clingo.SolveResult:
    """Enumerate answer sets, each to `on_model`, until the deadline.

    With a deadline the search runs asynchronously and is cancelled when it passes, so
    clingo really stops. Without one it runs in this thread: a hand-off between threads
    less, which makes a 9x9 puzzle faster (results/asp.md has both).
    """
    left = deadline.left()
    if left is None:
        return control.solve(on_model=on_model)
    with control.solve(on_model=on_model, async_=True) as handle:
        if not handle.wait(left):
            handle.cancel()
        return handle.get()


def forget_interrupt(control: clingo.Control) -> None:
    """Spend an interrupt that came between two searches on a search that fails at once.

    clingo keeps an interrupt that finds no search running for the next search, which
    would then end at once, unanswered.
    """
    some = next(iter(control.symbolic_atoms.by_signature("given", 3))).literal
    control.solve(assumptions=[some, -some])


def _examples(items: list[str], indent: str) -> list[str]:
    """The first few items, indented, and how many more."""
    shown = items if len(items) <= EXAMPLES + 1 else items[:EXAMPLES]
    lines = [f"{indent}{' '.join(shown)}"] if shown else [f"{indent}(none)"]
    if len(shown) < len(items):
        lines.append(f"{indent}... and {len(items) - len(shown)} more")
    return lines
