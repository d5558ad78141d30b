"""Making a certificate: a puzzle's verdict with the evidence a person can check.

`certify(puzzle, folder, name)` decides the puzzle on encoder.py's CNF with CaDiCaL
(PySAT's cadical195) and writes three plain files:

- <name>.cnf: the DIMACS of the encoding, the givens as unit clauses, and one blocking
  clause ("not this grid") per solution the proof rules out;
- <name>.drat: a text DRAT proof that this CNF is unsatisfiable, written by CaDiCaL;
- <name>.json: the puzzle, the verdict, the solutions, the files' names and sha256;
- with `trim=True`, also <name>.core.drat: the proof trimmed to the lemmas its refutation
  uses (drat.py's `core`, found by its own checker; what drat-trim's -l writes), itself a
  DRAT proof of the same CNF, a few dozen lemmas where the proof has hundreds.

What each verdict proves:
- none: the CNF (rules and givens) has no model: the proof;
- unique: the solution (checked by check.py) and a proof that the CNF with its blocking
  clause has no model: no other solution;
- multiple: two different solutions (each checked by check.py); when there are at most
  LIMIT, all of them and a proof that the CNF with all their blocking clauses has no
  model (the exact count). With more, the two solutions alone, and no proof.

The proofs come from a fresh solver each time, given the whole CNF the file holds, so
the proof is about that CNF and nothing else (an incremental solver's proof would cover
clauses added between calls, which drat-trim cannot replay).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sudokulab.certificates.encoder import VERSION, Encoding, encode
from sudokulab.errors import stops_through_c
from sudokulab.puzzle import Puzzle, line_of

LIMIT = 1000  # at most this many solutions are all listed, with a proof there is no other
SOLVER = "cadical195"
FORMAT = "sudokulab certificate 1"
Grid = tuple[int, ...]


@dataclass(frozen=True)
class Certificate:
    """A certificate written to disk: its verdict, solutions and files, and what it cost."""

    verdict: str                 # none | unique | multiple
    puzzle: Puzzle
    solutions: tuple[Grid, ...]  # none: (); unique: one; multiple: two, or all (count)
    count: int | None            # the exact count when proved, None when only "2 or more"
    json_path: Path
    cnf_path: Path
    drat_path: Path | None       # None for "multiple" past LIMIT: two solutions prove it
    lemmas: int                  # the proof's lemmas (additions), 0 without a proof
    times: dict[str, float] = field(default_factory=dict)  # milliseconds, by stage
    core_path: Path | None = None  # the trimmed proof, when asked for
    core_lemmas: int = 0           # its lemmas


@stops_through_c()  # PySAT's solve() reports Ctrl-C as its own error
def certify(puzzle: Puzzle, folder: str | Path, name: str, *, limit: int = LIMIT,
            trim: bool = False) -> Certificate:
    """Decide the puzzle on the certificate's own CNF and write <name>.cnf, .drat, .json
    (and, with trim, .core.drat) in folder; DisagreementError if a model of the CNF fails
    check.py (an encoder bug)."""
    times: dict[str, float] = {}
    start = time.perf_counter()
    encoding = encode(puzzle)
    times["encode"] = _ms(start)
    start = time.perf_counter()
    found = _solutions(encoding, limit + 1)
    times["solve"] = _ms(start)
    _checked(puzzle, found)
    if not found:
        verdict, blocked = "none", []
    elif len(found) == 1:
        verdict, blocked = "unique", found
    else:
        verdict, blocked = "multiple", found if len(found) <= limit else []
    proof: list[str] | None = None
    start = time.perf_counter()
    if verdict != "multiple" or blocked:
        proof = _proof(encoding, blocked)
        if proof is None:  # the fresh solver found a model the first one did not
            from sudokulab.errors import DisagreementError

            raise DisagreementError(f"certify: {SOLVER} contradicts itself on this puzzle")
    times["proof"] = _ms(start)
    trimmed = None
    if trim and proof is not None:
        start = time.perf_counter()
        trimmed = _trimmed(encoding, blocked, proof)
        times["trim"] = _ms(start)
    shown = found if verdict != "multiple" or blocked else found[:2]
    start = time.perf_counter()
    certificate = _write(puzzle, encoding, verdict, shown, blocked, proof, Path(folder), name,
                         trimmed)
    times["write"] = _ms(start)
    return Certificate(verdict, puzzle, tuple(shown), certificate[0], *certificate[1:5],
                       times=times, core_path=certificate[5],
                       core_lemmas=_lemmas(trimmed or []))


def writable(folder: str | Path, option: str = "--certify") -> None:
    """UsageError naming `option` and why, before any solve, when certificates cannot be
    written in `folder` (a file in its place or on its path, a full disk); else the folder
    is made, as the first certificate would make it."""
    import tempfile

    from sudokulab.errors import UsageError

    where = Path(folder)
    if where.exists() and not where.is_dir():
        raise UsageError(f"{option} {folder} is a file, not a folder: choose another")
    try:
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=where) as probe:
            probe.write(b"\n")  # an empty file takes no room: a full disk would pass
            probe.flush()
    except OSError as error:
        raise UsageError(f"{option} {folder}: cannot write certificates there: "
                         f"{error.strerror or error}") from None


def name_of(puzzle: Puzzle) -> str:
    """A certificate's file name for a puzzle: the same puzzle, the same name."""
    key = repr((puzzle.box, puzzle.givens, puzzle.rules, puzzle.layout)).encode()
    return "sudokulab-" + hashlib.sha256(key).hexdigest()[:12]


def _ms(start: float) -> float:
    """Milliseconds since start."""
    return (time.perf_counter() - start) * 1000


def _solutions(encoding: Encoding, most: int) -> list[Grid]:
    """Up to `most` solutions, each blocked once found.

    The search needs no proof (check.py checks each solution; the proof comes from a fresh
    solver), so one solver per shape and rule set is kept, per thread, and reused: the
    givens are assumptions, and the blocking clauses carry an activation literal that a
    unit clause retires when the search is done. (Loading 10,000 clauses into a solver
    costs more than solving a 9x9.)"""
    searcher = _searcher(encoding)
    searcher[2] += 1
    act = searcher[2]
    solver = searcher[1]
    assumptions = [lit for (lit,) in encoding.givens] + [act]
    found: list[Grid] = []
    try:
        while len(found) < most and solver.solve(assumptions=assumptions):
            grid = encoding.grid(solver.get_model())
            found.append(grid)
            solver.add_clause([-act, *encoding.blocking(grid)])
    except BaseException:
        # Ctrl-C inside CaDiCaL leaves it mid-search, where adding a clause aborts the
        # process: the solver is let go, and the next search makes a fresh one
        _SEARCHERS.__dict__.get("by_rules", {}).pop(id(encoding.rules), None)
        raise
    solver.add_clause([-act])
    return found


_SEARCHERS = threading.local()  # .by_rules: id(rules) -> [rules, solver, last variable]


def _searcher(encoding: Encoding) -> list:
    """This thread's solver of the encoding's rules (made on first use; four kept)."""
    from pysat.solvers import Solver

    kept = _SEARCHERS.__dict__.setdefault("by_rules", {})
    entry = kept.get(id(encoding.rules))
    if entry is None or entry[0] is not encoding.rules:
        entry = [encoding.rules, Solver(name=SOLVER, bootstrap_with=encoding.rules),
                 encoding.variables]
        kept[id(encoding.rules)] = entry
        if len(kept) > 4:
            kept.pop(next(iter(kept)))[1].delete()
    return entry


def _proof(encoding: Encoding, blocked: Sequence[Grid]) -> list[str] | None:
    """CaDiCaL's DRAT lines refuting the CNF with these solutions blocked, ending with the
    empty clause; None if it finds a model instead."""
    from pysat.solvers import Solver

    with Solver(name=SOLVER, bootstrap_with=encoding.clauses(blocked),
                with_proof=True) as solver:
        if solver.solve():
            return None
        lines = solver.get_proof() or []
    if not lines or lines[-1].strip() != "0":
        lines.append("0")  # the empty clause, which drat.py and drat-trim then check
    return lines


def _trimmed(encoding: Encoding, blocked: Sequence[Grid], proof: list[str]) -> list[str]:
    """The proof's core: the lemmas its refutation uses (drat.py's own backward analysis
    over a forward check), ending with the empty clause."""
    from sudokulab.certificates import drat

    return drat.core(encoding.variables, encoding.clauses(blocked), "\n".join(proof)
                     ).splitlines()


def _lemmas(lines: Sequence[str]) -> int:
    """The lemmas (additions, not deletions) of DRAT lines."""
    return sum(1 for line in lines if line.strip() and not line.startswith("d"))


def _checked(puzzle: Puzzle, grids: Sequence[Grid]) -> None:
    """DisagreementError naming the first grid check.py refuses: a model of the CNF that
    is no solution is an encoder bug, never certified."""
    from sudokulab.check import check
    from sudokulab.errors import DisagreementError

    for k, grid in enumerate(grids, 1):
        problems = check(puzzle, grid)
        if problems:
            raise DisagreementError(f"certify: the encoder's model {k} is no solution: "
                                    f"{problems[0]}")


def _write(puzzle: Puzzle, encoding: Encoding, verdict: str, shown: Sequence[Grid],
           blocked: Sequence[Grid], proof: list[str] | None, folder: Path,
           name: str, trimmed: list[str] | None = None
           ) -> tuple[int | None, Path, Path, Path | None, int, Path | None]:
    """Write the files; (count, json, cnf, drat, lemmas, core)."""
    from sudokulab.errors import InputError
    from sudokulab.formats.text import puzzle_data

    try:
        folder.mkdir(parents=True, exist_ok=True)
        cnf_path, json_path = folder / f"{name}.cnf", folder / f"{name}.json"
        cnf = encoding.dimacs(blocked).encode()
        cnf_path.write_bytes(cnf)
        drat_path, drat, lemmas = None, b"", 0
        if proof is not None:
            drat_path = folder / f"{name}.drat"
            drat = ("\n".join(proof) + "\n").encode()
            drat_path.write_bytes(drat)
            lemmas = _lemmas(proof)
        core_path, core = None, b""
        if trimmed is not None:
            core_path = folder / f"{name}.core.drat"
            core = ("\n".join(trimmed) + "\n").encode()
            core_path.write_bytes(core)
        count = {"none": 0, "unique": 1}.get(verdict, len(blocked) or None)
        data = {
            "format": FORMAT,
            "verdict": verdict,
            "count": count,
            "proved": _proved(verdict, count),
            "puzzle": puzzle_data(puzzle),
            "solutions": [line_of(grid) for grid in shown],
            "cnf": {"file": cnf_path.name, "sha256": hashlib.sha256(cnf).hexdigest(),
                    "variables": encoding.variables,
                    "clauses": len(encoding.clauses(blocked)),
                    "blocking": len(blocked), "encoder": VERSION},
            "drat": None if drat_path is None else {
                "file": drat_path.name, "sha256": hashlib.sha256(drat).hexdigest(),
                "lemmas": lemmas, "solver": f"{SOLVER} (PySAT)"},
        }
        if core_path is not None:
            data["core"] = {"file": core_path.name, "sha256": hashlib.sha256(core).hexdigest(),
                            "lemmas": _lemmas(trimmed or []),
                            "trimmed by": "sudokulab.certificates.drat.core"}
        # One line per key: the puzzle, solutions and files each readable at a glance.
        json_path.write_text("{\n" + ",\n".join(f" {json.dumps(key)}: {json.dumps(value)}"
                                                for key, value in data.items()) + "\n}\n")
    except OSError as error:
        raise InputError(f"certify: cannot write in {folder}: {error.strerror}") from None
    return count, json_path, cnf_path, drat_path, lemmas, core_path


def _proved(verdict: str, count: int | None) -> str:
    """One line: what the certificate proves."""
    if verdict == "none":
        return "no grid satisfies the rules and the givens: the proof refutes the CNF"
    if verdict == "unique":
        return ("the solution satisfies the rules (check.py) and the proof refutes the CNF "
                "with it blocked: no other solution")
    if count is None:
        return f"two different solutions, each checked by check.py (more than {LIMIT})"
    return (f"all {count} solutions, each checked by check.py, and the proof refutes the "
            f"CNF with all of them blocked: no other solution")
