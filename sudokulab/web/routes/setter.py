"""The setter's bench on the page: POST /api/setter (sudokulab.generate.setter, in a helper
process of web/tutor.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from sudokulab.web.common import CANCELLED, puzzle_json, read_puzzle, tagged
from sudokulab.web.models import SetterRequest

router = APIRouter()


@router.post("/api/setter")
async def setter(body: SetterRequest, request: Request) -> JSONResponse:
    """The setter's bench on a puzzle being set: solutions left (0, 1, at least 2 with
    two that differ), each cell's true candidates, the givens and rules it stays unique
    without, and the human grade once unique (sudokulab.generate.setter, in a helper process)."""
    puzzle = await read_puzzle(body.puzzle)
    answer = await tagged(request, body.tag, request.app.state.tutor.run(
        "setter", body.timeout, puzzle=puzzle, candidates=body.candidates,
        redundancy=body.redundancy, grade=body.grade,
        grade_seconds=body.grade_timeout)) or dict(CANCELLED)
    return JSONResponse({"puzzle": puzzle_json(puzzle), **answer, "tag": body.tag})
