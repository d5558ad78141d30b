"""Checking a certificate: does it prove its verdict? Trusting no engine.

`verify(path)` reads <name>.json, then, in this order:
1. the files: the CNF's and the proof's sha256 are the ones the JSON names;
2. the verdict and the solutions fit together (none: no solution; unique: one; multiple:
   two or more, all different), and check.py accepts each solution;
3. the CNF is encoder.py's encoding of the puzzle with the givens and a blocking clause
   for each solution the proof rules out, clause for clause (so a changed given, a
   missing blocking clause or another puzzle's CNF is named);
4. drat.py replays the proof against that CNF, to the empty clause (and the lemmas it
   states are the proof's);
5. the CNF's figures the certificate states are the CNF's: its variables and clauses (the
   header's), its blocking clauses, and the encoder (the one verify re-encodes with);
6. the trimmed core, when the certificate has one (<name>.core.drat), is replayed like
   the proof: it is a proof too.

A certificate that fails raises CertificateRejected (exit code 4) with one line saying
where: the file, the solution's cell, the given, or the proof's lemma and clause. A file
that is no certificate at all raises InputError (exit code 2).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from sudokulab.errors import CertificateRejected, InputError, SudokulabError
from sudokulab.formats import json_value
from sudokulab.puzzle import SYMBOLS, Puzzle

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from os import PathLike

    from sudokulab.certificates.encoder import Encoding

VERDICTS = ("none", "unique", "multiple")
FORMAT = "sudokulab certificate 1"  # what this checker reads (certificate.py writes it)
# A bound on what is read of a file a certificate names (its CNF, proof, core), far above
# what a certificate needs: /dev/zero or a huge file behind a link is refused, not read.
MAX_PART = 1 << 30
Grid = tuple[int, ...]  # a solution: each cell's digit, in cell order


@dataclass(frozen=True)
class Report:
    """An accepted certificate: what it proves and what checking it cost."""

    path: Path
    verdict: str
    count: int | None    # exact when proved; None for "two or more"
    lemmas: int          # the proof's lemmas checked (0 without a proof)
    ms: float            # the whole check
    drat_ms: float       # the proof's replay alone
    puzzle: str = ""     # the givens proved about, as a line: is it the puzzle meant?
    core: int = 0        # the trimmed core's lemmas checked (0: the certificate has none)


def verify(path: str | Path) -> Report:
    """Check the certificate <path> (its .json); CertificateRejected saying where it fails."""
    start = time.perf_counter()
    path = Path(path)
    data = _read(path)
    from sudokulab.formats.text import from_json

    puzzle = from_json(json.dumps(data["puzzle"]))
    verdict = data["verdict"]
    if data.get("format") != FORMAT:  # a later format may mean what this one does not
        _reject(path, f"format {data.get('format')!r}: this verify reads {FORMAT!r}")
    if verdict not in VERDICTS:
        _reject(path, f"verdict {verdict!r} is none of {', '.join(VERDICTS)}")
    cnf_text = _file(path, data, "cnf")
    proof = _file(path, data, "drat") if data.get("drat") is not None else None
    solutions = [_grid(path, puzzle, k, line) for k, line in enumerate(data["solutions"], 1)]
    _fits(path, verdict, solutions, data.get("count"), proof is not None)
    _solutions_checked(path, puzzle, solutions)
    from sudokulab.certificates.encoder import encode

    encoding = encode(puzzle)
    blocked = solutions if proof is not None else []
    if cnf_text != encoding.dimacs(blocked):
        _reject(path, f"{data['cnf']['file']}: {_difference(encoding, blocked, cnf_text)}")
    lemmas, drat_ms = 0, 0.0
    if proof is not None:
        from sudokulab.certificates import drat

        began = time.perf_counter()
        try:
            extra = encoding.clauses(blocked)[len(encoding.rules):]
            outcome = drat.check(encoding.variables, extra, proof, shared=encoding.rules)
        except ValueError as error:
            _reject(path, f"{data['drat']['file']}: {error}")
        drat_ms = (time.perf_counter() - began) * 1000
        if not outcome.ok:
            _reject(path, f"{data['drat']['file']}: {outcome}")
        lemmas = outcome.lemmas
        _lemmas_stated(path, data, "drat", proof)  # once the proof itself holds
    _figures_stated(path, data, cnf_text, len(blocked))  # once the proof itself holds
    core = _core(path, data, encoding, blocked) if proof is not None else 0
    count = {"none": 0, "unique": 1}.get(verdict, len(solutions) if proof else None)
    from sudokulab.puzzle import line_of

    return Report(path, verdict, count, lemmas, (time.perf_counter() - start) * 1000, drat_ms,
                  line_of(puzzle.givens), core)


@dataclass(frozen=True)
class Checked:
    """One certificate checked: its Report when accepted, else the error saying why not."""

    path: Path
    report: Report | None = None
    error: SudokulabError | None = None


def certificates(names: Iterable[str | PathLike[str]]) -> list[Path]:
    """The certificates named: each .json given, and every .json of each folder given
    (sorted); InputError for a name that is neither, or a folder without one."""
    paths: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise InputError(f"{name}: no certificate (.json) in this folder")
            paths += found
        elif path.is_file():
            paths.append(path)
        elif path.exists():  # /dev/null, a pipe: no certificate, and perhaps endless
            raise InputError(f"{name}: not a file or a folder of certificates")
        else:
            raise InputError(f"{name}: no such file or folder")
    return paths


def check_each(paths: Iterable[Path]) -> Iterator[Checked]:
    """Each certificate checked in turn, as it is (`sudokulab verify` and `sl.verify`): a
    caller stopped midway keeps the outcomes it was given."""
    for path in paths:
        try:
            yield Checked(path, report=verify(path))
        except SudokulabError as error:
            yield Checked(path, error=error)


def _lemmas_stated(path: Path, data: dict[str, Any], key: str, text: str) -> None:
    """CertificateRejected when the certificate says its proof holds other than the
    lemmas (additions, not deletions) it holds, or does not say (as the CNF's figures)."""
    stated = data[key].get("lemmas")
    held = sum(1 for line in text.splitlines() if line.strip() and not line.startswith("d"))
    if stated != held or isinstance(stated, bool):  # true == 1 in Python, not a count
        _reject(path, f"{data[key]['file']}: holds {held} lemmas, the certificate says "
                      f"{json.dumps(stated)}")


def _figures_stated(path: Path, data: dict[str, Any], cnf_text: str, blocking: int) -> None:
    """CertificateRejected when the certificate states its CNF's figures other than they
    are: the variables and clauses of the CNF's header (the CNF is the encoding by now),
    the blocking clauses checked, and the encoder verify re-encodes with."""
    from sudokulab.certificates.encoder import VERSION

    header = next(line for line in cnf_text.splitlines() if line.startswith("p cnf"))
    variables, clauses = map(int, header.split()[2:4])
    found: dict[str, object] = {"variables": variables, "clauses": clauses,
                                "blocking": blocking, "encoder": VERSION}
    where = {"variables": f"its header says {variables}",
             "clauses": f"its header says {clauses}",
             "blocking": f"it holds {blocking}",
             "encoder": f"verify re-encodes with {VERSION!r}"}
    for key, value in found.items():
        stated = data["cnf"].get(key)
        if stated != value or isinstance(stated, bool):  # true == 1 in Python, not a count
            _reject(path, f"{data['cnf']['file']}: the certificate says {key} "
                          f"{json.dumps(stated)}, {where[key]}")


def _core(path: Path, data: dict[str, Any], encoding: Encoding, blocked: list[Grid]) -> int:
    """The trimmed core's lemmas, replayed like the proof (0 when there is none)."""
    if data.get("core") is None:
        return 0
    from sudokulab.certificates import drat

    text = _file(path, data, "core")
    try:
        extra = encoding.clauses(blocked)[len(encoding.rules):]
        outcome = drat.check(encoding.variables, extra, text, shared=encoding.rules)
    except ValueError as error:
        _reject(path, f"{data['core']['file']}: {error}")
    if not outcome.ok:
        _reject(path, f"{data['core']['file']}: {outcome}")
    _lemmas_stated(path, data, "core", text)
    return outcome.lemmas


def _reject(path: Path, why: str) -> NoReturn:
    """Raise CertificateRejected: the certificate's name and where it fails."""
    raise CertificateRejected(f"{path.name}: {why}")


def _read(path: Path) -> dict[str, Any]:
    """The certificate's JSON object; InputError if it is no certificate."""
    try:
        if path.stat().st_size > MAX_PART:
            raise InputError(f"{path}: larger than {MAX_PART >> 20} MB: not a certificate")
        data = json_value(path.read_text())
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InputError(f"{path}: not JSON, so not a certificate") from None
    keys = ("verdict", "puzzle", "solutions", "cnf")
    if not isinstance(data, dict) or any(key not in data for key in keys):
        raise InputError(f"{path}: not a sudokulab certificate (it needs "
                         f"{', '.join(keys)})")
    if not isinstance(data["solutions"], list) or not isinstance(data["cnf"], dict):
        raise InputError(f"{path}: 'solutions' must be a list and 'cnf' an object")
    return data


def _file(path: Path, data: dict[str, Any], key: str) -> str:
    """The text of the certificate's CNF or proof, its sha256 checked."""
    entry = data[key]
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        _reject(path, f"'{key}' names no file")
    name: str = entry["file"]
    part = path.parent / name
    if Path(name).name != name or name in ("", ".", ".."):  # the writer names its own files
        _reject(path, f"{name}: names a file outside the certificate's folder")
    try:
        if not part.is_file():  # /dev/zero behind a link would be read for ever
            _reject(path, f"{name}: {'not a file' if part.exists() else 'no such file'}")
        if part.stat().st_size > MAX_PART:
            _reject(path, f"{name}: larger than {MAX_PART >> 20} MB, which no certificate's "
                          f"part is")
        content = part.read_bytes()
    except OSError as error:
        _reject(path, f"{name}: cannot read: {error.strerror}")
    if hashlib.sha256(content).hexdigest() != entry.get("sha256"):
        _reject(path, f"{name}: its sha256 is not the one the certificate names")
    try:
        return content.decode()
    except UnicodeDecodeError:
        _reject(path, f"{name}: not text")


def _grid(path: Path, puzzle: Puzzle, k: int, line: object) -> Grid:
    """Solution k from its line of symbols ('.' or an unknown symbol reads as 0, which
    check.py then names)."""
    if not isinstance(line, str) or len(line) != puzzle.cell_count:
        _reject(path, f"solution {k} is not a line of {puzzle.cell_count} digits")
    return tuple(SYMBOLS.index(ch) + 1 if ch in SYMBOLS[:puzzle.n] else 0 for ch in line)


def _fits(path: Path, verdict: str, solutions: list[Grid], count: object,
          proved: bool) -> None:
    """The verdict, the solutions, the count and the proof agree with one another."""
    wanted = {"none": 0, "unique": 1}
    if verdict in wanted and len(solutions) != wanted[verdict]:
        _reject(path, f"verdict {verdict} with {len(solutions)} "
                      f"solution{'' if len(solutions) == 1 else 's'} listed")
    if verdict in wanted and not proved:
        _reject(path, f"verdict {verdict} without a proof")
    if verdict == "multiple":
        if len(solutions) < 2:
            _reject(path, f"verdict multiple with {len(solutions)} solution listed")
        if len(set(solutions)) != len(solutions):
            first = next(k for k, grid in enumerate(solutions, 1)
                         if grid in solutions[:k - 1])
            _reject(path, f"solution {first} repeats an earlier one")
    exact = wanted.get(verdict, len(solutions) if proved else None)
    if count != exact or isinstance(count, bool):  # true == 1 in Python, not a count
        _reject(path, f"count {count!r}, but the evidence shows "
                      f"{exact if exact is not None else 'two or more (null)'}")


def _solutions_checked(path: Path, puzzle: Puzzle, solutions: list[Grid]) -> None:
    """check.py accepts each solution; else the first violation, named."""
    from sudokulab.check import check

    for k, grid in enumerate(solutions, 1):
        problems = check(puzzle, grid)
        if problems:
            _reject(path, f"solution {k} fails the checker: {problems[0]}")


def _difference(encoding: Encoding, blocked: list[Grid], text: str) -> str:
    """Where a CNF differs from the encoding: the rules' clauses, a given, a blocking
    clause, or the header."""
    from sudokulab.rules import cell_name

    try:
        clauses = _clauses(text)
    except ValueError as error:
        return str(error)
    rules = len(encoding.rules)
    for k, (want, got) in enumerate(zip(encoding.rules, clauses), 1):
        if want != got:
            return (f"clause {k} is not the encoder's for this puzzle's rules: "
                    f"{_text(got)} where the encoding has {_text(want)}")
    if len(clauses) < rules:
        return f"{len(clauses)} clauses: the rules alone take {rules}"
    rest = clauses[rules:]
    units = [clause for clause in rest if len(clause) == 1]
    n, cells = encoding.n, encoding.cells

    def given(lit: int) -> str:
        if not 0 < lit <= len(cells) * n:
            return f"the unit clause {lit}"
        return f"{cell_name(cells[(lit - 1) // n])}={(lit - 1) % n + 1}"

    wanted = {clause[0] for clause in encoding.givens}
    held = {clause[0] for clause in units}
    for lit in sorted(wanted - held):
        return f"the puzzle gives {given(lit)}, the CNF does not"
    for lit in sorted(held - wanted):
        return f"the CNF gives {given(lit)}, the puzzle does not"
    blocks = [clause for clause in rest if len(clause) != 1]
    expected = [encoding.blocking(grid) for grid in blocked]
    for k, (want, got) in enumerate(zip(expected, blocks), 1):
        if want != got:
            return f"blocking clause {k} is not that of solution {k}"
    if len(blocks) != len(expected):
        return (f"{len(blocks)} blocking clauses for the {len(expected)} solutions the "
                f"proof must rule out")
    return "its header or layout is not the encoder's (the clauses agree)"


def _clauses(text: str) -> list[tuple[int, ...]]:
    """The clauses of a DIMACS text, one per line; ValueError naming a bad line."""
    clauses = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(("c", "p")) or not line.strip():
            continue
        words = line.split()
        try:
            values = tuple(map(int, words))
        except ValueError:
            raise ValueError(f"line {number} is no clause: {line[:60]!r}") from None
        if not values or values[-1] != 0:
            raise ValueError(f"line {number} does not end with 0")
        clauses.append(values[:-1])
    return clauses


def _text(clause: tuple[int, ...]) -> str:
    """A clause as DIMACS writes it, cut short."""
    text = " ".join(map(str, clause)) + " 0"
    return f"'{text if len(text) <= 40 else text[:37] + '...'}'"
