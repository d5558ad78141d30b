"""Issue 32's teaching views: one rule in every engine side by side
(teaching/sidebyside.py), a search you can watch and where each level of propagation
stops (backends/trace.py, teaching/ladder.py), and a learning engine's counters over time
(backends/timeline.py); each worked out in the helper process."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import Field

from sudokulab.web.common import in_helper, read_puzzle
from sudokulab.web.models import PuzzleText

router = APIRouter()


class RuleRequest(PuzzleText):
    """POST /api/model/rule: rule N of the puzzle in each engine (none: just the list)."""

    rule: int | None = Field(None, ge=1, le=10_000, description="the rule's number, as "
                             "`sudokulab model --list-rules` prints it")
    encoding: str = Field("extended", max_length=20, description="the CNF encoding shown")


@router.post("/api/model/rule")
async def model_rule(body: RuleRequest, request: Request) -> dict:
    """The puzzle's numbered rules and, for `rule`, each engine's piece for it."""
    puzzle = await read_puzzle(body.puzzle)
    answer = await in_helper(request.app, _rule_pieces, puzzle, body.rule, body.encoding)
    return {**answer, "tag": body.tag}


def _rule_pieces(puzzle, number: int | None, encoding: str) -> dict:
    """(in the helper) The numbered rules, and each engine's piece for rule `number`."""
    from sudokulab.errors import InputError, unknown
    from sudokulab.models.cnf import ENCODINGS
    from sudokulab.teaching import sidebyside as teach

    if encoding not in ENCODINGS:
        raise InputError(unknown("encoding", encoding, ENCODINGS))
    refs = [ref.to_json() for ref in teach.rules_of(puzzle)]
    if number is None:
        return {"rules": refs, "rule": None, "pieces": []}
    pieces = teach.pieces(puzzle, number, encoding=encoding)
    return {"rules": refs, "rule": refs[teach.rule_ref(puzzle, number).number - 1],
            "pieces": [piece.to_json() for piece in pieces]}


TRACE_SECONDS = 20.0  # a traced search gives up after this (the helper has HELPER_WAIT)


class TraceRequest(PuzzleText):
    """POST /api/trace: a search's events (at most `cap`, then the solution)."""

    engine: str = Field("norvig", description="a backend that records a trace: one whose "
                        "records_trace is true in GET /api/backends (400 for another)")
    cap: int = Field(2000, ge=1, le=2000, description="events kept before 'truncated'")


@router.post("/api/trace")
async def search_trace(body: TraceRequest, request: Request) -> dict:
    """norvig's or dlx's search on the puzzle, event by event, to its first solution."""
    puzzle = await read_puzzle(body.puzzle)
    answer = await in_helper(request.app, _trace, puzzle, body.engine, body.cap)
    return {**answer, "tag": body.tag}


@router.post("/api/ladder/grids")
async def ladder_grids(body: PuzzleText, request: Request) -> dict:
    """The grid where each level of the inference ladder stops, before its first guess."""
    puzzle = await read_puzzle(body.puzzle)
    answer = await in_helper(request.app, _ladder_grids, puzzle)
    return {**answer, "tag": body.tag}


def _trace(puzzle, engine: str, cap: int) -> dict:
    """(in the helper) The search's events, its tree, and what it found."""
    from sudokulab.backends import trace

    result, events = trace.record(puzzle, engine, limit=1, cap=cap, timeout=TRACE_SECONDS)
    return {"engine": engine, "status": result.status.value, "message": result.message,
            "solution": list(result.solutions[0]) if result.solutions else None,
            "stats": result.stats, "cap": cap, "events": events, "tree": trace.tree(events),
            "truncated": any(e["event"] == "truncated" for e in events)}


def _ladder_grids(puzzle) -> dict:
    """(in the helper) Each default level's marks on the puzzle: None with `why` when the
    level has none (its engine cannot take the puzzle, or it is a full search that took a
    choice), None without it at a contradiction."""
    from sudokulab.teaching import ladder

    levels = ladder.choose("default")
    outcomes = ladder.compute(puzzle, levels)
    return {"levels": [{"name": level.name, "engine": level.engine, "what": level.what,
                        "marks": list(out.marks) if out.marks is not None and not why else None,
                        "why": why, "finished": out.finished and not why,
                        "candidates": out.candidates, "timed_out": out.timed_out}
                       for level in levels for out in [outcomes[level.name]]
                       for why in [ladder.without_marks(level, out)]]}


TIMELINE_SECONDS = 20.0  # a sampled search gives up after this (the helper has HELPER_WAIT)


class TimelineRequest(PuzzleText):
    """POST /api/timeline: a learning engine's counters sampled while it solves."""

    backend: str = Field("sat", description="a learning engine: one whose keeps_timeline "
                         "is true in GET /api/backends (400 for another)")


@router.post("/api/timeline")
async def engine_timeline(body: TimelineRequest, request: Request) -> dict:
    """The engine's decisions, conflicts ... over time on the puzzle (at most 500)."""
    puzzle = await read_puzzle(body.puzzle)
    answer = await in_helper(request.app, _timeline, puzzle, body.backend)
    return {**answer, "tag": body.tag}


def _timeline(puzzle, backend: str) -> dict:
    """(in the helper) The engine's samples, what each figure means, and what it found."""
    from sudokulab.backends import timeline

    result, samples = timeline.record(puzzle, backend, limit=2, timeout=TIMELINE_SECONDS)
    return {"backend": backend, "status": result.status.value, "message": result.message,
            "stats": result.stats, **samples.to_json()}
