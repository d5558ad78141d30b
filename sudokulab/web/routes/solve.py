"""Solving on the page: the backends and whether each runs here, the puzzle as the page
draws it, one backend's checked answer, a compare streamed engine by engine with its
agreement, a backend's model, and POST /api/cancel for a tag's work."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import StreamingResponse

from sudokulab.errors import UsageError
from sudokulab.result import Result, Status
from sudokulab.web.common import (
    CANCELLED,
    LOG,
    backends_of,
    checked_spec,
    in_helper,
    puzzle_json,
    read_puzzle,
    tagged,
)
from sudokulab.web.models import CancelRequest, CompareRequest, ModelRequest, SolveRequest

router = APIRouter()


@router.get("/api/backends")
async def backends(request: Request) -> list[dict]:
    """Every backend: paradigm, whether it runs here (engine version) or why not."""
    return await backends_of(request.app)


@router.post("/api/puzzle")
async def read(body: ModelRequest) -> dict:
    """The puzzle as the page draws it: box, givens, rules (cells named r1c1)."""
    return {**puzzle_json(await read_puzzle(body.puzzle)), "tag": body.tag}


@router.post("/api/cancel")
async def cancel(body: CancelRequest, request: Request) -> dict:
    """Stop the work running for a tag: its solves' workers and its hints', explanations'
    or photos' helper processes are ended, and those requests answer 'cancelled'."""
    return {"cancelled": await request.app.state.jobs.cancel(body.tag), "tag": body.tag}


@router.post("/api/solve")
async def solve(body: SolveRequest, request: Request) -> dict:
    """Solve with one backend in a worker; every grid checked before it is sent."""
    puzzle = await read_puzzle(body.puzzle)
    spec = await checked_spec(request.app, body.backend)
    answer = await tagged(request, body.tag,
                          _solve(request.app, spec, puzzle, body.limit, body.timeout))
    return {**(answer or {"backend": spec, **CANCELLED}), "tag": body.tag}


@router.post("/api/compare")
async def compare(body: CompareRequest, request: Request) -> StreamingResponse:
    """Every available backend (or those named), one at a time, streamed as each
    finishes."""
    puzzle = await read_puzzle(body.puzzle)
    if body.backends == []:  # as `compare -b ""` and sl.compare(backends=[]) refuse it
        raise UsageError("backends names no backend: name some, or leave it out (null) "
                         "for every available one")
    if body.backends:
        # a backend named twice runs once, as `sudokulab compare -b sat,sat` runs it: its
        # second answer would wait on a tag already answered, and the compare end "cancelled"
        specs = list(dict.fromkeys([await checked_spec(request.app, name)
                                    for name in body.backends]))
    else:
        specs = [b["name"] for b in await backends_of(request.app) if b["available"]]
    events = _compare(request.app, specs, puzzle, body.limit, body.timeout, body.tag)
    return StreamingResponse(events, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache"})


@router.post("/api/model")
async def model(body: ModelRequest, request: Request) -> dict:
    """What a backend builds for this puzzle (the teaching view of `sudokulab model`)."""
    puzzle = await read_puzzle(body.puzzle)
    spec = await checked_spec(request.app, body.backend)
    try:
        text = await in_helper(request.app, _describe, spec, puzzle)
    except Exception as error:  # an engine that cannot build its model: said, not a 500
        return {"backend": spec, "ok": False, "text": f"{type(error).__name__}: {error}",
                "tag": body.tag}
    return {"backend": spec, **text, "tag": body.tag}


async def _solve(app: FastAPI, spec: str, puzzle, limit: int, timeout: float) -> dict:
    """One backend's checked answer, shaped like Result.to_json() plus the puzzle."""
    return (await _run(app, spec, puzzle, limit, timeout))[1]


async def _run(app: FastAPI, spec: str, puzzle, limit: int, timeout: float,
               warmup: bool = False) -> tuple[Result, dict]:
    """One backend's Result, and its checked answer for the page."""
    started = time.perf_counter()
    solved = await app.state.pool.solve(spec, puzzle, limit, timeout, warmup)
    answer = answer_json(spec, puzzle, solved.result, solved.seconds,
                         time.perf_counter() - started)
    return solved.result, {**answer, "cpu": solved.cpu, "warmup": solved.warmup}


def answer_json(spec: str, puzzle, result, seconds: float, wall: float) -> dict:
    """The answer checked as the cross-check checks it (harness/crosscheck.py `verify`):
    an invalid grid, or grids that do not match the count, turn the status to 'invalid'."""
    from sudokulab.harness.crosscheck import verify

    data = {"backend": spec, "puzzle": puzzle_json(puzzle), **result.to_json(),
            "time": seconds, "wall": wall, "valid": True, "violations": []}
    checked: dict[tuple[int, ...], list] = {}  # each grid's violations, filled by verify
    reason = verify(puzzle, result, checked)
    if reason:
        first = next((found for found in checked.values() if found), [])
        data.update(status="invalid", valid=False,
                    violations=[str(problem) for problem in first[:10]],
                    message=f"invalid answer from {spec}: {reason}")
    return data


# How the page's compare measures, said with its figures (the start event's `measured`)
MEASURED = ("one engine at a time, each in a warm worker of its own; time is the solve's "
            "wall clock inside the worker, CPU its process's CPU time; a worker's first "
            "puzzle is solved once untimed first (a warm-up, as `sudokulab compare` does)")


async def _compare(app: FastAPI, specs: list[str], puzzle, limit: int, timeout: float,
                   tag: str | None):
    """Server-sent events: start, one result per backend as it finishes, then agreement
    (each with the request's tag). The backends run one at a time, so that each time is
    its own and not a share of the cores (all at once on two cores, the fastest engine
    looked the slowest). Cancelling the tag ends the solve running and the ones to come:
    from the start event on, as the compare is under the tag before it is sent."""
    under_tag = asyncio.get_running_loop().create_future()  # cancelled with the tag
    app.state.jobs.add(tag, under_tag)
    results = {}  # judged as Results, not as the page's JSON
    running: asyncio.Future | None = None
    try:
        yield _event("start", {"backends": specs, "puzzle": puzzle_json(puzzle), "tag": tag,
                               "measured": MEASURED})
        for spec in specs:
            if under_tag.cancelled():
                break
            running = asyncio.ensure_future(_run(app, spec, puzzle, limit, timeout, True))
            app.state.jobs.add(tag, running)
            await asyncio.wait({running})
            if running.cancelled():  # POST /api/cancel
                break
            result, answer = running.result()
            results[answer["backend"]] = result
            yield _event("result", {**answer, "tag": tag})
        cancelled = len(results) < len(specs)
        verdict = agreement(puzzle, results)
        if cancelled:
            verdict["message"] = f"cancelled after {len(results)} of {len(specs)} answers"
        yield _event("done", {**verdict, "cancelled": cancelled, "tag": tag})
    finally:  # the client left: its solve stops (its worker is ended)
        if running is not None and not running.done():
            LOG.info("tag %r: the client left its compare, its solve stopped", tag)
            running.cancel()
        if not under_tag.done():
            under_tag.set_result(None)  # the tag forgets the compare


def agreement(puzzle, results: Mapping[str, Result]) -> dict:
    """Whether the backends that answered agree, judged by harness/crosscheck.py `judge`:
    a claim is wrong when it returns an invalid grid, grids that do not match its count, or
    a count below the distinct valid grids found by all. Timeouts, errors, stalls and
    unsupported rules are not answers (`others`), unless their grids are invalid. The
    message names every backend that did not answer, and why."""
    from sudokulab.check import check
    from sudokulab.harness.crosscheck import judge

    _, why = judge(puzzle, results)
    answered = {s for s, result in results.items() if result.status.is_answer} | set(why)
    # judge counts the same grids but does not return them: the page shows how many
    grids = {grid for result in results.values() for grid in result.solutions}
    valid = [grid for grid in grids if not check(puzzle, grid)]
    others = sorted(set(results) - answered)
    agree = not why and bool(answered)
    return {"agree": agree, "answered": sorted(answered), "disagree": sorted(why),
            "grids": len(valid), "others": others,
            "message": agreement_message(results, agree, len(answered), sorted(why), others)}


# why a backend gave no answer, as the compare line says it
SILENT = {Status.TIMEOUT: "timed out", Status.ERROR: "failed",
          Status.UNSUPPORTED: "does not take this puzzle's rules", Status.STALLED: "stalled"}


def agreement_message(results: Mapping[str, Result], agree: bool, answered: int,
                      wrong: list[str], others: list[str]) -> str:
    """One line for the page: how many answers agree out of how many engines, which are
    wrong, and every engine that did not answer with why (never 'all agree' over a gap)."""
    total = len(results)
    engines = f"{total} engine{'' if total == 1 else 's'}"
    if not answered:
        head = f"no answer from {engines}"
    elif agree:
        head = (f"all {engines} agree" if answered == total > 1 else
                "the one engine answered" if total == 1 else f"{answered} of {engines} agree")
    else:
        head = f"the answers disagree: {', '.join(wrong)} judged wrong by their grids"
    silent = [f"{name} {SILENT.get(results[name].status, results[name].status.value)}"
              for name in others]
    return "; ".join([head, ", ".join(silent)] if silent else [head])


def _event(kind: str, data: dict) -> str:
    """One server-sent event."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


def _describe(spec: str, puzzle) -> dict:
    """(in the helper) The backend's teaching view, or why it cannot model this puzzle."""
    from sudokulab.backends import make_backend

    backend = make_backend(spec)
    reason = backend.unsupported(puzzle)
    return {"ok": not reason, "text": reason or backend.describe(puzzle)}
