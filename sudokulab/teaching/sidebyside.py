"""The same rule in every engine, side by side: the teaching view of `model --show-rule N`.

A puzzle's rules are numbered: its rows 1..N, columns N+1..2N and boxes 2N+1..3N (a jigsaw
has no boxes: its regions are one rule), then each rule of `puzzle.rules` in order. For
one of them, `pieces` asks each engine of the registry for the real artefact it uses:
the lines of sudoku.lp, the sudoku.pl clauses and the rule term they get, the CNF clauses
the encoder emits, the Z3 assertions, the CP-SAT constraints, the exact cover columns,
norvig's propagation code, the MiniZinc predicate and the human techniques. Each is taken
from the engine's own model builder (recorded while it builds the whole puzzle), never
written again here; an engine with no piece for the rule says why.
"""

from __future__ import annotations

import inspect
import re
import threading
from collections.abc import Callable, Iterator, Sized
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from sudokulab import rules as R
from sudokulab.errors import InputError
from sudokulab.geometry import Geometry, Unit, geometry
from sudokulab.puzzle import Puzzle

HUMAN_SECONDS = 3.0  # the path's bound: past it, the steps found so far are shown
SHOWN = 12  # clauses, assertions or constraints printed before "... and K more"
NUMBERING = ("rules are numbered: rows 1..N, columns N+1..2N, boxes 2N+1..3N (a 9x9: "
             "row 1 = 1, column 1 = 10, box 1 = 19), then each variant rule of the puzzle "
             "in order (a 9x9's first is 28); a jigsaw's regions are one variant rule, in "
             "place of the boxes (its first variant rule is 19)")


@dataclass(frozen=True)
class RuleRef:
    """One numbered rule of a puzzle: a row, column or box, or one of `puzzle.rules`."""

    number: int
    kind: str                      # 'row', 'column', 'box' or the rule's name
    name: str                      # 'row 3', 'cage r1c1,r1c2=10', 'anti-knight'
    cells: tuple[int, ...]         # the cells it constrains (every cell for a global rule)
    unit: Unit | None = None
    rule: R.Rule | None = None

    def variant(self) -> R.Rule:
        """The variant rule it is; ValueError for a row, column or box."""
        if self.rule is None:
            raise ValueError(f"{self.name} is a unit, not a variant rule")
        return self.rule

    def to_json(self) -> dict:
        """The JSON form for the page: cells as [row, column] from 1."""
        return {"number": self.number, "kind": self.kind, "name": self.name,
                "cells": list(self.cells)}


@dataclass
class Piece:
    """What one engine uses for one rule: its text, the language it is in, its sizes."""

    engine: str
    title: str
    language: str = "text"       # for highlighting: asp, prolog, dimacs, smt2, python, ...
    text: str = ""
    size: dict[str, int] = field(default_factory=dict)
    missing: str = ""            # why the engine has no piece for this rule ('' if it has)

    def to_json(self) -> dict:
        """The JSON form for the page and the tests."""
        return {"engine": self.engine, "title": self.title, "language": self.language,
                "text": self.text, "size": self.size, "missing": self.missing}

    def render(self) -> str:
        """The piece as the command line prints it."""
        sizes = ", ".join(f"{value:,} {key}" for key, value in self.size.items())
        head = f"== {self.engine}: {self.title}" + (f" ({sizes})" if sizes else "")
        if self.missing:
            return f"{head}\n  {self.missing}"
        return head + "\n" + "\n".join(f"  {line}" for line in self.text.splitlines())


def _geo(puzzle: Puzzle) -> Geometry:
    """The puzzle's geometry; one grid only."""
    if puzzle.layout is not None:
        raise InputError(f"model --show-rule and --list-rules take one grid, not a "
                         f"{puzzle.layout.name}")
    return geometry(puzzle.box, puzzle.rules)


def _rule_name(rule: R.Rule) -> str:
    """'cage r1c1,r1c2=10', 'thermometer r1c1..r1c4', 'sandwich row 3=12', 'anti-knight'."""
    if isinstance(rule, R.Sandwich):  # no cells of its own: its line and total name it
        return f"{rule.name} {'column' if rule.column else 'row'} {rule.index + 1}={rule.total}"
    cells = getattr(rule, "cells", ())
    if not cells:
        return rule.name
    names = [R.cell_name(c) for c in cells]
    shown = ",".join(names) if len(names) <= 4 else f"{names[0]}..{names[-1]}"
    total = getattr(rule, "total", None)
    return f"{rule.name} {shown}" + (f"={total}" if total is not None else "")


def rules_of(puzzle: Puzzle) -> list[RuleRef]:
    """Every numbered rule of a puzzle (see NUMBERING)."""
    geo = _geo(puzzle)
    refs = [RuleRef(k, unit.kind, unit.name, tuple(unit), unit=unit)
            for k, unit in enumerate((u for u in geo.units if u.rule is None), 1)]
    for rule in puzzle.rules:
        cells = _cells_of(geo, rule)
        refs.append(RuleRef(len(refs) + 1, rule.name, _rule_name(rule), cells, rule=rule))
    return refs


def _cells_of(geo: Geometry, rule: R.Rule) -> tuple[int, ...]:
    """The cells a rule constrains: its own cells, its units', or every cell."""
    own: tuple[R.Cell, ...] = getattr(rule, "cells", ())
    if isinstance(rule, R.Sandwich):
        own = tuple(rule.line(geo.n))
    if own:
        return tuple(geo.indices(own))
    units = [unit for unit in geo.units if unit.rule is rule]
    if units:
        return tuple(sorted({cell for unit in units for cell in unit}))
    return tuple(geo.cells)


def rule_ref(puzzle: Puzzle, number: int) -> RuleRef:
    """Rule `number` of a puzzle; InputError naming the range for a number out of it."""
    refs = rules_of(puzzle)
    if not 1 <= number <= len(refs):
        raise InputError(f"rule {number} is out of range: this puzzle has rules 1-{len(refs)}"
                         f" ({NUMBERING})")
    return refs[number - 1]


def pieces(puzzle: Puzzle, number: int, engines: list[str] | None = None,
           encoding: str = "extended") -> list[Piece]:
    """Each engine's piece for rule `number`, engines from the registry (all by default)."""
    from sudokulab import backends

    ref = rule_ref(puzzle, number)
    out = []
    for name in engines or backends.names():
        out.append(piece(name, puzzle, ref, encoding))
    return out


def piece(name: str, puzzle: Puzzle, ref: RuleRef, encoding: str = "extended") -> Piece:
    """One engine's piece for a rule, or a Piece that says why there is none."""
    from sudokulab import backends

    extract = EXTRACTORS.get(name)
    cls = backends.backend_class(name)
    if extract is None:
        return Piece(name, "no per-rule piece", missing=f"{name}: this view has no per-rule "
                     f"extraction for it; `sudokulab model -b {name} PUZZLE` shows its model")
    missing = cls.missing()
    if missing is not None:
        return Piece(name, "not available here", missing=missing.refusal(name))
    if ref.rule is not None and not isinstance(ref.rule, cls.supported_rules):
        return Piece(name, "rule not supported",
                     missing=f"{name} does not compile rule {ref.rule.name}")
    return extract(puzzle, ref, encoding)


def _shown(lines: list[str]) -> str:
    """The first SHOWN lines, and how many more there are."""
    more = len(lines) - SHOWN
    return "\n".join(lines[:SHOWN] + ([f"... and {more:,} more"] if more > 0 else []))


def _single(puzzle: Puzzle, ref: RuleRef) -> tuple[Puzzle, Puzzle]:
    """The puzzle with only this rule, and with no rule (to see what the rule adds)."""
    return replace(puzzle, rules=(ref.variant(),)), replace(puzzle, rules=())


# --- asp: the lines of sudoku.lp and the facts of this rule ---------------------------------

def _asp(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The paragraphs of sudoku.lp the rule uses and the facts it gets."""
    from sudokulab.models import asp

    if ref.unit is not None:
        kind = {"region": "box"}.get(ref.kind, ref.kind)
        paragraphs = [_unit_lines(p, kind) for p in asp.sections(()) if "in(" in p]
        facts: list[str] = []
    else:
        classic = set(asp.sections(()))
        paragraphs = [p for p in asp.sections((ref.variant(),)) if p not in classic]
        i = puzzle.rules.index(ref.variant())
        before = asp.facts_by_rule(puzzle.box, puzzle.rules[:i]).get(ref.kind, [])
        facts = asp.facts_by_rule(puzzle.box, puzzle.rules[:i + 1])[ref.kind][len(before):]
    rules = [line for p in paragraphs for line in p.splitlines() if not line.startswith("%")]
    text = "\n\n".join(paragraphs)
    if facts:
        text += "\n\n% the facts of this rule\n" + "\n".join(asp._wrapped(facts))
    return Piece("asp", f"sudoku.lp rules for {ref.name}", "asp", text,
                 {"rule lines": len(rules), "facts": len(facts)})


def _unit_lines(paragraph: str, kind: str) -> str:
    """A paragraph of sudoku.lp's units, keeping of the in/3 lines the one of this kind."""
    return "\n".join(line for line in paragraph.splitlines()
                     if not line.startswith("in(") or line.startswith(f"in({kind}("))


# --- prolog: the rule term and the sudoku.pl clauses that post its goals ---------------------

def _prolog(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The sudoku.pl clauses that post the rule's goals, and the term sudoku.pl gets."""
    from sudokulab.backends import prolog

    text = prolog.PROGRAM.read_text(encoding="utf-8")
    if ref.unit is not None:
        clauses = _clauses(text, "units") + _clauses(text, "all_distinct_units")
        what = {"row": "Rows", "column": "Columns (transpose(Rows, Columns))",
                "box": "Boxes", "region": "Boxes (the regions)"}[ref.kind]
        terms = [f"% {ref.name} is one list of {what}, its cells "
                 f"{', '.join(_var(c, puzzle.n) for c in ref.cells)}"]
    else:
        with_rule, plain = _single(puzzle, ref)
        before = {repr(t) for t in prolog.rule_terms(plain)}
        added = [t for t in prolog.rule_terms(with_rule) if repr(t) not in before]
        functors = dict.fromkeys(t[0] for t in added)
        clauses = [c for f in functors for c in _clauses(text, "rule_holds", f)]
        terms = [f"% the rule term: {_term(t)}" for t in added]
    lines = [line for clause in clauses for line in clause.splitlines()]
    return Piece("prolog", f"sudoku.pl goals for {ref.name}", "prolog",
                 "\n".join(terms) + "\n" + "\n\n".join(clauses),
                 {"clauses": len(clauses), "lines": len(lines)})


def _var(cell: int, n: int) -> str:
    """The cell as sudoku.pl's list position: Cells[k] from 1."""
    return f"Cells[{cell + 1}]"


def _term(term: tuple) -> str:
    """A rule tuple as the Prolog term janus hands sudoku.pl (shortened)."""
    args = ", ".join(str(a) for a in term[1:])
    text = f"{term[0]}({args})" if len(term) > 1 else term[0]
    return text if len(text) < 300 else text[:300] + " ...)"


def _clauses(text: str, name: str, first: str | None = None) -> list[str]:
    """The clauses of a predicate in a Prolog text (optionally those whose last head
    argument starts with `first`), each with the comment lines above it."""
    out, lines = [], text.splitlines()
    head = re.compile(rf"^{re.escape(name)}\(")
    i = 0
    while i < len(lines):
        if head.match(lines[i]) and (first is None or re.search(
                rf"[(,]\s*{re.escape(first)}\b", lines[i])):
            j = i
            while j + 1 < len(lines) and not lines[j].rstrip().endswith("."):
                j += 1
            k = i
            while k > 0 and lines[k - 1].startswith("%"):
                k -= 1
            out.append("\n".join(lines[k:j + 1]))
            i = j + 1
        else:
            i += 1
    return out


# --- sat: the CNF clauses the encoder emits for the rule -------------------------------------

_lock = threading.Lock()  # the recording builder is swapped in module-wide, one at a time


@contextmanager
def _recording(module, attr: str, make: Callable[[type], type]) -> Iterator[None]:
    """Swap a module's class for a recording subclass while a model is built."""
    with _lock:
        original = getattr(module, attr)
        setattr(module, attr, make(original))
        try:
            yield
        finally:
            setattr(module, attr, original)


def _recording_builder(base: type) -> type:
    """A cnf.Builder that remembers each `add`: its part and its clauses' span."""

    class Recording(base):
        def add(self, part, clauses):
            calls = self.formula.__dict__.setdefault("calls", [])
            start = len(self.cnf.clauses)
            super().add(part, clauses)
            calls.append((part, start, len(self.cnf.clauses)))

    return Recording


def _sat(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The clauses of the rule in the chosen encoding, in DIMACS, with their counts."""
    from sudokulab.models import cnf

    with _recording(cnf, "Builder", _recording_builder):
        formula = cnf.encode(puzzle, encoding)
    parts = _parts(ref, puzzle, _cnf_parts, unit_part=True)
    n, top = puzzle.n, formula.top
    chosen = _owned(formula.__dict__.get("calls", []), parts, set(ref.cells),
                    lambda call: {(abs(lit) - 1) // n for clause in
                                  formula.cnf.clauses[call[1]:call[2]] for lit in clause
                                  if abs(lit) <= top})
    clauses = [formula.cnf.clauses[k] for _, a, b in chosen for k in range(a, b)]
    variables = {abs(lit) for clause in clauses for lit in clause}
    lines = [" ".join(map(str, clause)) + " 0" for clause in clauses]
    legend = (f"c x(r,c,d) = (r-1)*{n * n} + (c-1)*{n} + d; e.g. {cnf.var(n, ref.cells[0], 1)}"
              f" = {_cell(ref.cells[0], n)} holds 1; above {top}: auxiliary")
    return Piece("sat", f"CNF clauses for {ref.name}, {encoding} encoding", "dimacs",
                 legend + "\n" + _shown(lines),
                 {"clauses": len(clauses), "variables": len(variables),
                  "literals": sum(map(len, clauses))})


def _cell(cell: int, n: int) -> str:
    """r1c1 for a cell index."""
    return R.cell_name(divmod(cell, n))


def _parts(ref: RuleRef, puzzle: Puzzle, groups: Callable[[Puzzle], set[str]],
           unit_part: bool = False) -> set[str]:
    """The part or group names a model files this rule's constraints under: a unit's own
    part (or its kind's group), or what the model of the rule alone has beyond the plain
    model's."""
    if ref.unit is not None:
        return {ref.unit.part} if unit_part else {ref.unit.group}
    with_rule, plain = _single(puzzle, ref)
    return groups(with_rule) - groups(plain)


def _cnf_parts(p: Puzzle) -> set[str]:
    """The parts of a puzzle's CNF (extended: every part there is)."""
    from sudokulab.models import cnf

    return set(cnf.base(p.box, p.rules).parts)


def _owned(calls: list, parts: set[str], cells: set[int], cells_of: Callable) -> list:
    """The recorded calls of a rule: in its parts, over its cells only; a call with no cell
    (a cage's selectors) belongs to the next call of its part."""
    chosen, pending = [], []
    for call in calls:
        if call[0] not in parts:
            continue
        touched = cells_of(call)
        if not touched:
            pending.append(call)
            continue
        if touched <= cells:
            chosen += pending + [call]
        pending = []
    return chosen


# --- smt: the Z3 assertions ------------------------------------------------------------------

def _recording_model(base: type) -> type:
    """A smt CellModel that remembers each `add`: its group and its assertions."""

    class Recording(base):
        def add(self, group, assertions):
            self.__dict__.setdefault("calls", []).append((group, list(assertions)))
            super().add(group, assertions)

    return Recording


def _smt(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The Z3 assertions of the rule in the smt backend's default model, as SMT-LIB."""
    from sudokulab.models import smt

    model = _default("smt", "model", "bool")
    geo = _geo(puzzle)
    built = _recording_model(smt.model_class(model))(geo)

    def groups(p: Puzzle) -> set[str]:
        return set(smt.build(geometry(p.box, p.rules), model).groups)

    parts = _parts(ref, puzzle, groups)
    names = {geo.name(c): c for c in geo.cells}
    chosen = _owned([(g, a, None) for g, a in built.__dict__.get("calls", [])], parts,
                    set(ref.cells), lambda call: _z3_cells(call[1], names))
    assertions = [a for _, group, _ in chosen for a in group]
    lines = [f"(assert {a.sexpr()})".replace("\n", " ") for a in assertions]
    lines = [re.sub(r"\s+", " ", line) for line in lines]
    return Piece("smt", f"Z3 assertions for {ref.name}, model '{model}'", "smt2",
                 _shown(lines), {"assertions": len(assertions),
                                 "variables": len(_z3_vars(assertions))})


def _default(engine: str, option: str, fallback: str) -> str:
    """A backend's default for an option, read from its constructor."""
    from sudokulab.backends import backend_class

    parameter = inspect.signature(backend_class(engine).__init__).parameters.get(option)
    return parameter.default if parameter is not None else fallback


def _z3_vars(assertions: list) -> set[str]:
    """The names of the constants in Z3 assertions."""
    import z3

    # z3util.get_vars would do, but it prints every term to tell them apart: with many
    # assertions that was most of the side-by-side view's time.
    names, seen, todo = set(), set(), list(assertions)
    while todo:
        term = todo.pop()
        if term.get_id() in seen:
            continue
        seen.add(term.get_id())
        if z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            names.add(term.decl().name())
        elif z3.is_app(term):
            todo.extend(term.children())
    return names


def _z3_cells(assertions: list, names: dict[str, int]) -> set[int]:
    """The cells whose variables (r1c1 or r1c1_5) Z3 assertions mention."""
    return {names[name.split("_")[0]] for name in _z3_vars(assertions)
            if name.split("_")[0] in names}


# --- cpsat: the constraints the model notes for the rule -------------------------------------

def _cpsat(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The CP-SAT constraints the model posts for the rule (its own record of them)."""
    from sudokulab.models import cpsat

    model = _default("cpsat", "model", "bool")
    geo = _geo(puzzle)
    built = cpsat.build(geo, model)

    def groups(p: Puzzle) -> set[str]:
        return set(cpsat.build(geometry(p.box, p.rules), model).groups)

    parts = _parts(ref, puzzle, groups)
    cells = set(ref.cells)
    posted = [(group, kind, members, detail) for group in parts
              for kind, members, detail in built.groups.get(group, [])
              if set(members) <= cells]
    lines = [f"{kind}({', '.join(geo.name(c) for c in members)})"
             + (f"  {detail}" if detail else "") for _, kind, members, detail in posted]
    return Piece("cpsat", f"CP-SAT constraints for {ref.name}, model '{model}'", "text",
                 _shown(lines), {"constraints": len(posted),
                                 "cells": len({c for _, _, m, _ in posted for c in m})})


# --- dlx: the columns of the exact cover matrix ----------------------------------------------

def _dlx(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The primary columns of a unit, or the secondary columns a rule adds."""
    from sudokulab.backends import dlx

    geo = _geo(puzzle)
    m = dlx.matrix(geo)
    n = geo.n
    if ref.unit is not None:
        names = [(c, name) for c, name in enumerate(m.column_names)
                 if name.startswith(f"{ref.unit.name} digit ")]
        lines = [f"{name}: rows " + " ".join(f"{_cell(r // n, n)}={r % n + 1}"
                                             for r in _bits(m.column_rows[c]))
                 for c, name in names]
        return Piece("dlx", f"exact cover columns of {ref.name}", "text", _shown(lines),
                     {"primary columns": len(names), "rows covered": n * n})
    with_rule, plain = _single(puzzle, ref)
    before = {row for rows in dlx.secondary_pairs(_geo(plain)).values() for row in rows}
    cells, own = set(ref.cells), set(dlx.secondary_pairs(_geo(with_rule)))
    added = [(kind, row) for kind, rows in dlx.secondary_pairs(geo).items() for row in rows
             if kind in own and row not in before and {row[0], row[2]} <= cells]
    kinds = sorted({kind for kind, _ in added})
    lines = [f"% {kind}" for kind in kinds]
    lines += [f"not both {_cell(a, n)}={da + 1} and {_cell(b, n)}={db + 1}"
              for _, (a, da, b, db) in added]
    pruned = [name for name, present in (("cage sums", m.cages), ("sums", m.sums),
                                         ("sandwiches", m.sandwiches)) if present]
    if pruned and isinstance(ref.rule, (R.Cage, R.Arrow, R.LittleKiller, R.Sandwich)):
        lines.append(f"% and at each node the search prunes by the {' and '.join(pruned)} "
                     "(dlx.prune): exact cover cannot say a sum")
    return Piece("dlx", f"secondary columns for {ref.name}", "text", _shown(lines),
                 {"secondary columns": len(added)})


def _bits(mask: int) -> Iterator[int]:
    """The set bits of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --- norvig: the Python that propagates the rule ---------------------------------------------

def _norvig(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The source of the norvig functions that propagate the rule."""
    from sudokulab.backends import norvig

    b = norvig.board(_geo(puzzle))
    if ref.unit is not None or ref.rule is not None and _peers_only(ref.rule):
        functions = [norvig.Board.eliminate, norvig.Board.place_hidden_singles]
        why = ("# a unit: its cells are each other's peers (rule 1) and each digit has a "
               "place count in it (rule 2)" if ref.unit is not None else
               "# this rule only adds peers: the classic propagation does the rest")
    else:
        functions = [getattr(type(b), name) for name in _NORVIG.get(type(ref.rule), ())
                     if hasattr(type(b), name)]
        why = "# the rule's own filter, run after each fixpoint of the classic rules"
    if not functions:
        return Piece("norvig", "no propagation of its own",
                     missing=f"norvig has no function for {ref.kind}")
    sources = [inspect.getsource(f) for f in functions]
    text = why + "\n" + "\n".join(_dedent(s) for s in sources)
    return Piece("norvig", f"Python that propagates {ref.name}", "python", text,
                 {"functions": len(functions), "lines": text.count("\n")})


def _dedent(source: str) -> str:
    """A method's source moved to the left margin."""
    import textwrap

    return textwrap.dedent(source)


def _peers_only(rule: R.Rule) -> bool:
    """Whether the norvig board sees a rule only as peers or units (no filter of its own)."""
    from sudokulab.backends import norvig

    return not isinstance(rule, norvig.NEEDS_RULE_BOARD)


# The RuleBoard filter of each rule with propagation of its own (its methods, by name).
_NORVIG = {R.NonConsecutive: ("separate_consecutive",), R.Cage: ("add_up_cages",),
           R.Parity: ("start",), R.Thermometer: ("relate_pairs",),
           R.Kropki: ("relate_pairs",), R.XV: ("relate_pairs",),
           R.Whispers: ("relate_pairs",), R.Palindrome: ("relate_pairs",),
           R.ConsecutiveMarks: ("relate_pairs",), R.Renban: ("relate_pairs",),
           R.Arrow: ("add_up_sums",), R.LittleKiller: ("add_up_sums",),
           R.Sandwich: ("fill_sandwiches",)}


# --- mzn: the MiniZinc predicate and the constraint that calls it ----------------------------

def _mzn(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The predicate of sudoku.mzn the rule uses, the constraint line and its data."""
    from sudokulab.models import mzn

    text = mzn.model_text()
    data = mzn.rule_data(_geo(puzzle))
    if ref.unit is not None:
        keys = ["units"]
    else:
        with_rule, plain = _single(puzzle, ref)
        alone = mzn.rule_data(geometry(with_rule.box, with_rule.rules))
        empty = mzn.rule_data(geometry(plain.box, plain.rules))
        keys = [k for k, v in alone.items() if v != empty.get(k) and not isinstance(v, int)]
    lines = text.splitlines()
    picked = [i for i, line in enumerate(lines) if line.startswith("constraint")
              and any(re.search(rf"\b{re.escape(k)}\b", line) for k in keys)]
    constraint = [_statement(lines, i) for i in picked]
    called = set(re.findall(r"\b([a-z_]+)\(", " ".join(constraint)))
    predicates = [_statement(lines, i) for i, line in enumerate(lines)
                  if (m := re.match(r"predicate (\w+)\(", line)) and m.group(1) in called]
    if not constraint:
        return Piece("mzn", "no constraint", missing=f"sudoku.mzn has no constraint for "
                                                      f"{ref.name}")
    counted = data if ref.unit is not None else alone  # the entries of this rule alone
    sizes = {f"{k} entries": len(value) for k in keys
             if isinstance(value := counted.get(k), Sized)}
    return Piece("mzn", f"sudoku.mzn for {ref.name}", "minizinc",
                 "\n".join(predicates + constraint),
                 {"predicates": len(predicates), "constraints": len(constraint), **sizes})


def _statement(lines: list[str], i: int) -> str:
    """A MiniZinc statement from line i to its ';'."""
    j = i
    while not lines[j].rstrip().endswith(";") and j + 1 < len(lines):
        j += 1
    return "\n".join(lines[i:j + 1])


# --- human: the techniques that reason about the rule ----------------------------------------

def _human(puzzle: Puzzle, ref: RuleRef, encoding: str) -> Piece:
    """The techniques that use the rule, and the steps of this puzzle's path that do."""
    from sudokulab.human import FIRST_RULES, solver

    if ref.rule is not None and not isinstance(ref.rule, FIRST_RULES):
        return Piece("human", "no technique", missing=f"no human technique knows "
                                                       f"{ref.rule.name}")
    import time

    chosen = solver.usable(puzzle, solver.TECHNIQUES, unique=True)
    geo = _geo(puzzle)
    refused = solver.refusal(puzzle)
    until = time.monotonic() + HUMAN_SECONDS
    path = solver.Path(puzzle) if refused else solver.solve(
        puzzle, solver.select(upto="Hidden Quadruple"), unique=True,
        stop=lambda: time.monotonic() > until)
    index = {id(u): k for k, u in enumerate(geo.units)}
    mine = ({index[id(ref.unit)]} if ref.unit is not None
            else {k for k, u in enumerate(geo.units) if u.rule is ref.rule})
    cells = set(ref.cells)
    steps = [s for s in path.steps if mine & set(s.units)
             or ref.unit is None and not mine and _by_rule(s, cells, geo)]
    lines = [f"% techniques that work on {'units' if ref.unit is not None else 'peers'}, "
             f"easiest first: " + ", ".join(t.name for t in chosen[:12])
             + (f" and {len(chosen) - 12} more" if len(chosen) > 12 else "")]
    lines += [s.notation for s in steps]  # the notation names its technique
    if refused:
        lines.append(f"% no path on this puzzle: {refused}")
    elif not steps:
        lines.append(f"% no step of this puzzle's path (up to subsets) uses {ref.name}")
    return Piece("human", f"human steps on {ref.name}", "text", _shown(lines),
                 {"techniques": len(chosen), "steps": len(steps)})


def _by_rule(step, cells: set[int], geo: Geometry) -> bool:
    """Whether a step removes a digit from a cell through this rule's pairs only."""
    removed = {c for c, _ in step.eliminations}
    placed = {c for c, _ in step.placements}
    return bool(placed & cells) and bool(removed & cells) and not any(
        geo.share_unit(a, b) for a in placed for b in removed)


EXTRACTORS: dict[str, Callable[[Puzzle, RuleRef, str], Piece]] = {
    "asp": _asp, "prolog": _prolog, "sat": _sat, "smt": _smt, "cpsat": _cpsat, "dlx": _dlx,
    "norvig": _norvig, "mzn": _mzn, "human": _human}
