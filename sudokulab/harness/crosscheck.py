"""The cross-check: validate every grid, then find the answers that cannot be right.

A grid the independent checker accepts is a fact: the puzzle has at least as many
solutions as there are distinct valid grids, whoever found them. Each answer is a claim
about the count: exact (`unique` is exactly 1, `none` exactly 0) or "at least" (`solved`
with limit 1 is at least 1, `multiple` at the limit is at least 2), and it must return as
many distinct grids as it counts. An answer is wrong when it returns an invalid grid, when
its grids do not match its count, or when its count is below the facts. Two exact counts
that differ therefore never both stand: the larger one's grids refute the smaller. Timeouts,
errors and unsupported rules are failures to answer, not claims: never disagreements.
"""

from __future__ import annotations

import math
import shlex
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sudokulab.check import check
from sudokulab.formats.text import format_line, to_json
from sudokulab.harness.records import Record
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Result, Status

REFERENCE = "reference"  # the dataset's own solution, as one more claim

Bounds = tuple[float, float]


@dataclass(frozen=True)
class Finding:
    """An answer that cannot be right: whose, what it said, why not, how to see it again."""

    index: int
    backend: str
    answer: str
    why: str
    command: str


@dataclass
class PuzzleCheck:
    """What the backends said about one puzzle, and what they agree on."""

    index: int
    consensus: str
    answers: dict[str, str]
    findings: list[Finding] = field(default_factory=list)


@dataclass
class CrossCheck:
    """The cross-check of a whole run, puzzle by puzzle."""

    puzzles: list[PuzzleCheck]

    @property
    def findings(self) -> list[Finding]:
        """Every disagreement and invalid grid, puzzle by puzzle."""
        return [f for v in self.puzzles for f in v.findings]

    def consensus(self) -> Counter:
        """How many puzzles have each consensus ('unique', 'none', ...)."""
        return Counter(v.consensus for v in self.puzzles)

    def wrong(self, backend: str) -> int:
        """How many puzzles a backend answered wrongly."""
        return sum(1 for f in self.findings if f.backend == backend)


def cross_check(puzzles: Mapping[int, Puzzle], records: Iterable[Record],
                references: Mapping[int, Grid], *, limit: int,
                timeout: float | None) -> CrossCheck:
    """Judge every puzzle that has records, against each other and the references."""
    claims: dict[int, dict[str, Result]] = {}
    for record in records:
        claims.setdefault(record.index, {})[record.backend] = record.result
    checked = []
    for index in sorted(claims):
        puzzle, said = puzzles[index], dict(claims[index])
        if index in references:
            said[REFERENCE] = Result(Status.UNIQUE, (references[index],), 1, True)
        consensus, why = judge(puzzle, said)
        findings = [Finding(index, source, answer_text(said[source]), reason,
                            reproduce(puzzle, source, limit, timeout))
                    for source, reason in why.items()]
        checked.append(PuzzleCheck(index, consensus,
                                   {s: answer_text(r) for s, r in claims[index].items()},
                                   findings))
    return CrossCheck(checked)


def verify(puzzle: Puzzle, result: Result, checked: dict[Grid, list] | None = None,
           kept: int | None = None) -> str:
    """Why an answer cannot be right on its own ('' when it can): a grid that fails the
    independent checker, or grids that do not match its count. `checked` keeps each grid's
    violations, so a grid several answers return is checked once. `kept`: the solve kept
    only its first `kept` grids (`Backend.solve(keep=)`), so a count past them has no
    grids to check: the kept ones are, and must be distinct."""
    checked = {} if checked is None else checked
    for grid in result.solutions:
        if grid not in checked:
            checked[grid] = check(puzzle, grid)
        if checked[grid]:
            return _invalid(checked[grid])
    distinct = len(set(result.solutions))
    cut = kept is not None and len(result.solutions) == kept < result.count
    if result.status.is_answer and distinct != (kept if cut else result.count):
        return f"claims {result.count_text} solution(s) but returns {distinct} distinct grid(s)"
    return ""


def judge(puzzle: Puzzle, claims: Mapping[str, Result]) -> tuple[str, dict[str, str]]:
    """The consensus about a puzzle, and why each claim that cannot be right is wrong."""
    why: dict[str, str] = {}
    valid: dict[Grid, str] = {}  # each valid grid, and who found it first
    checked: dict[Grid, list] = {}
    for source, result in claims.items():
        reason = verify(puzzle, result, checked)
        if reason:
            why[source] = reason
        for grid in result.solutions:
            if grid not in checked:
                checked[grid] = check(puzzle, grid)
            if not checked[grid]:
                valid.setdefault(grid, source)
    answers = {s: bounds(r) for s, r in claims.items() if r.status.is_answer}
    for source, (_, high) in answers.items():
        if high < len(valid) and source not in why:
            finders = ", ".join(sorted(set(valid.values())))
            found = "a valid grid was" if len(valid) == 1 else \
                f"{len(valid)} different valid grids were"
            why[source] = f"{found} found (by {finders})"
    # each claim left returns as many valid grids as it counts, so it allows len(valid)
    highs = [high for s, (_, high) in answers.items() if s not in why]
    return consensus_text(len(valid), min(highs, default=math.inf), bool(highs or valid)), why


def _invalid(violations: list) -> str:
    """'invalid grid: row 3: 5 at r3c1 and r3c4 (and 2 more)'."""
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return f"invalid grid: {violations[0]}{more}"


def bounds(result: Result) -> Bounds:
    """The counts an answer allows: (n, n) when exact, (n, infinity) for 'at least n'."""
    return (result.count, result.count if result.exact else math.inf)


def consensus_text(low: float, high: float, answered: bool) -> str:
    """'unique', 'none', 'multiple (3)', 'multiple (>= 2)', 'solved' or 'no answer'."""
    if not answered:
        return "no answer"
    if low == high:
        return {0: "none", 1: "unique"}.get(int(low), f"multiple ({int(low)})")
    return "solved" if low <= 1 else f"multiple (>= {int(low)})"


def answer_text(result: Result) -> str:
    """An answer as people read it: 'unique', 'multiple (>= 2)', 'timeout', ..."""
    if result.status == Status.MULTIPLE:
        return f"multiple ({result.count_text})"
    return result.status.value


def reproduce(puzzle: Puzzle, backend: str, limit: int, timeout: float | None) -> str:
    """The one command that solves this puzzle again with this backend ('' for references)."""
    if backend == REFERENCE:
        return ""
    text = to_json(puzzle) if puzzle.rules else format_line(puzzle)
    command = f"sudokulab solve {shlex.quote(text)} --backend {shlex.quote(backend)} " \
              f"--limit {limit}"
    return command + (f" --timeout {timeout:g}" if timeout else "")
