"""The cross-check: validate every grid, then find the answers that cannot all be right.

A grid the independent checker accepts is a fact: the puzzle has at least as many
solutions as there are distinct valid grids, whoever found them. Each answer is a claim
about the count: exact (`unique` is exactly 1, `none` exactly 0) or "at least" (`solved`
with limit 1 is at least 1, `multiple` at the limit is at least 2). An answer is wrong when
it returns an invalid grid, when its count is below the facts, or, where no grid decides,
when it contradicts what most other answers say. Timeouts, errors and unsupported rules
are failures to answer, not claims, so they are never disagreements.
"""

from __future__ import annotations

import math
import shlex
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sudokulab.check import check
from sudokulab.harness.runner import Record
from sudokulab.puzzle import Grid, Puzzle, format_line, to_json
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
class Verdict:
    """What the backends said about one puzzle, and what they agree on."""

    index: int
    consensus: str
    answers: dict[str, str]
    findings: list[Finding] = field(default_factory=list)


@dataclass
class CrossCheck:
    """The verdicts of a whole run."""

    verdicts: list[Verdict]

    @property
    def findings(self) -> list[Finding]:
        """Every disagreement and invalid grid, puzzle by puzzle."""
        return [f for v in self.verdicts for f in v.findings]

    def consensus(self) -> Counter:
        """How many puzzles have each consensus ('unique', 'none', ...)."""
        return Counter(v.consensus for v in self.verdicts)

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
    verdicts = []
    for index in sorted(claims):
        puzzle, said = puzzles[index], dict(claims[index])
        if index in references:
            said[REFERENCE] = Result(Status.UNIQUE, (references[index],), 1, True)
        consensus, why = judge(puzzle, said)
        findings = [Finding(index, source, answer_text(said[source]), reason,
                            reproduce(puzzle, source, limit, timeout))
                    for source, reason in why.items()]
        verdicts.append(Verdict(index, consensus,
                                {s: answer_text(r) for s, r in claims[index].items()},
                                findings))
    return CrossCheck(verdicts)


def judge(puzzle: Puzzle, claims: Mapping[str, Result]) -> tuple[str, dict[str, str]]:
    """The consensus about a puzzle, and why each claim that cannot be right is wrong."""
    why: dict[str, str] = {}
    valid: dict[Grid, str] = {}  # each valid grid, and who found it first
    violations: dict[Grid, list] = {}
    for source, result in claims.items():
        for grid in result.solutions:
            if grid not in violations:
                violations[grid] = check(puzzle, grid)
            if violations[grid]:
                why.setdefault(source, _invalid(violations[grid]))
            else:
                valid.setdefault(grid, source)
        distinct = len(set(result.solutions))
        if result.status.is_answer and source not in why and distinct != result.count:
            why[source] = (f"claims {result.count_text} solution(s) but returns {distinct} "
                           f"distinct grid(s)")
    answers = {s: bounds(r) for s, r in claims.items() if r.status.is_answer}
    for source, (_, high) in answers.items():
        if high < len(valid) and source not in why:
            finders = ", ".join(sorted(set(valid.values())))
            found = "a valid grid was" if len(valid) == 1 else \
                f"{len(valid)} different valid grids were"
            why[source] = f"{found} found (by {finders})"
    standing = {s: b for s, b in answers.items() if s not in why}
    why.update(_outvoted(standing, len(valid), claims))
    agreed = [b for s, b in standing.items() if s not in why]
    if standing and not agreed:  # a tie: no count is allowed by most claims
        return "disputed", why
    low = max([len(valid)] + [b[0] for b in agreed])
    high = min([math.inf] + [b[1] for b in agreed])
    return consensus_text(low, high, bool(agreed or valid)), why


def _invalid(violations: list) -> str:
    """'invalid grid: row 3: 5 at r3c1 and r3c4 (and 2 more)'."""
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return f"invalid grid: {violations[0]}{more}"


def _outvoted(standing: Mapping[str, Bounds], floor: int,
              claims: Mapping[str, Result]) -> dict[str, str]:
    """Claims no grid refutes but that leave out the count most claims allow.

    The count allowed by the most claims is found among the claims' lower ends (at or
    above `floor`, the number of valid grids); on a tie, a claim must allow every count
    tied for first place.
    """
    counts = {floor} | {int(low) for low, _ in standing.values() if low >= floor}
    support = {c: sum(low <= c <= high for low, high in standing.values()) for c in counts}
    best = max(support.values(), default=0)
    winners = [c for c in counts if support[c] == best]
    why = {}
    for source, (low, high) in standing.items():
        if not all(low <= c <= high for c in winners):
            others = [f"{other} says {answer_text(claims[other])}" for other, b in
                      standing.items() if not _meet((low, high), b)]
            why[source] = f"contradicts {', '.join(others)}"
    return why


def bounds(result: Result) -> Bounds:
    """The counts an answer allows: (n, n) when exact, (n, infinity) for 'at least n'."""
    return (result.count, result.count if result.exact else math.inf)


def _meet(a: Bounds, b: Bounds) -> bool:
    """Whether two count claims can both be true."""
    return max(a[0], b[0]) <= min(a[1], b[1])


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
