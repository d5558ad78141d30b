"""Learning on the page: the techniques, a hint, an explanation, a new puzzle and a puzzle
read from a photo, each from the lesson service or the generator or the photo reader
(web/learn.py) in a helper process of its own (web/tutor.py)."""

from __future__ import annotations

import asyncio
import secrets

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse

from sudokulab.errors import UsageError
from sudokulab.web import learn
from sudokulab.web.common import CANCELLED, parse_puzzle, puzzle_json, read_puzzle, tagged
from sudokulab.web.models import MAX_TAG, GenerateRequest, LearnRequest, PuzzleText

READ_TIMEOUT = 30.0     # seconds to read a photo and check the puzzle read

router = APIRouter()


@router.get("/api/techniques")
async def techniques() -> list[dict]:
    """The human-style techniques, easiest first (names for `techniques` and `upto`)."""
    return await asyncio.to_thread(learn_techniques)


@router.post("/api/position")
async def position(body: PuzzleText) -> dict:
    """Pasted text as the page opens it: a pencil-mark position (HoDoKu's library line, a
    candidate grid as HoDoKu, SudokuWiki or the forum print it, the 729-character string,
    JSON with candidates: sudokulab.human.positions) gives the puzzle (its givens), the
    digits placed over them (`values`) and each cell's candidates; any other puzzle text
    gives the puzzle alone (`position` false), as /api/puzzle does."""
    return {**await asyncio.to_thread(read_position, body.puzzle), "tag": body.tag}


def read_position(text: str) -> dict:
    """The page's answer for pasted text (PuzzleError, a 400, for a bad position)."""
    from sudokulab.human.positions import read_position as read

    found = read(text)
    if found is None:
        return {"position": False, "puzzle": puzzle_json(parse_puzzle(text)),
                "values": None, "candidates": None}
    placed = [d if c in found.placed else 0 for c, d in enumerate(found.givens)]
    # a grid says not which digits were given: all are (a library line says)
    return {"position": True, "puzzle": puzzle_json(found.puzzle()), "values": placed,
            "candidates": found.candidates()}


@router.post("/api/hint")
async def hint(body: LearnRequest, request: Request) -> JSONResponse:
    """The easiest next step (the human-style solver), with what to highlight."""
    # plain JSON types already: sent as they are, without FastAPI's walk through them
    return JSONResponse(await _learn(request.app, "hint", body, request))


@router.post("/api/explain")
async def explain(body: LearnRequest, request: Request) -> JSONResponse:
    """Every step to the end, easiest technique first, with the grade."""
    return JSONResponse(await _learn(request.app, "explain", body, request))


@router.post("/api/generate")
async def generate(body: GenerateRequest, request: Request) -> dict:
    """A new puzzle (of a level, if asked), proved unique by two engines, graded."""
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    answer = await tagged(request, body.tag, request.app.state.tutor.run(
        "generate", body.timeout, box=body.box, rules=tuple(body.rules),
        level=body.level, symmetry=body.symmetry, seed=seed)) or dict(CANCELLED)
    if answer["status"] == "timeout":
        answer["message"] = (f"no puzzle{' of level ' + body.level if body.level else ''}"
                             f" in {body.timeout:g} s: try again, or another level")
    if "puzzle" in answer:
        answer["puzzle"] = puzzle_json(answer["puzzle"])
    return {"seed": seed, "puzzle": None, **answer, "tag": body.tag}


@router.post("/api/read", openapi_extra={"requestBody": {"required": True, "content": {
    "image/*": {"schema": {"type": "string", "format": "binary"}},
    "multipart/form-data": {"schema": {"type": "object", "properties": {
        "image": {"type": "string", "format": "binary"}}}}}}})
async def read_photo(request: Request,
                     tag: str | None = Query(None, max_length=MAX_TAG)) -> dict:
    """A puzzle read from a photo or screenshot (its bytes as the body, or one file in
    a multipart form; at most 10 MB), as `sudokulab read` reads it, checked by norvig:
    the puzzle, the cells read with low confidence (`doubtful`, [row, col] from 1),
    `status` (unique, none, multiple) and the cells likely misread (`suspects`)."""
    data = _image(request.headers.get("content-type", ""), await request.body())
    answer = await tagged(request, tag, request.app.state.tutor.run(
        "read", READ_TIMEOUT, data=data)) or dict(CANCELLED)
    if "puzzle" in answer:
        answer["puzzle"] = puzzle_json(answer["puzzle"])
    return {"puzzle": None, "doubtful": [], "suspects": [], **answer, "tag": tag}


async def _learn(app: FastAPI, task: str, body: LearnRequest, request: Request) -> dict:
    """A hint or an explanation from a helper process; the puzzle as the page draws it."""
    puzzle = await read_puzzle(body.puzzle)
    if body.techniques is not None and body.upto is not None:
        raise UsageError("techniques and upto exclude each other: give one")
    learn.check_state(puzzle, body.values, body.candidates)
    state: dict[str, object] = {"values": body.values, "candidates": body.candidates}
    answer = await tagged(request, body.tag, app.state.tutor.run(
        task, body.timeout, puzzle=puzzle, techniques=body.techniques, upto=body.upto,
        uniqueness=body.uniqueness, **state)) or dict(CANCELLED)
    # every key docs/web.md lists, null (or empty) where this answer has none: a refusal,
    # a wrong entry, a timeout or an error
    empty = HINT_KEYS if task == "hint" else EXPLAIN_KEYS
    return {**empty, "puzzle": puzzle_json(puzzle), **answer, "tag": body.tag}


# The keys of /api/hint's and /api/explain's answers (docs/web.md), as an answer without them
HINT_KEYS: dict[str, object] = {"step": None, "candidates": [], "verified": None,
                                "problems": [], "reference": None, "referee": None}
EXPLAIN_KEYS: dict[str, object] = {
    "solved": None, "level": None, "score": None, "rating": None, "hardest": None,
    "steps": [], "candidates": [], "verified": None, "problems": [], "reference": None,
    "referee": None}


def _image(content_type: str, body: bytes) -> bytes:
    """The image in a request body: the bytes themselves, or the first file of a
    multipart form (read with the standard library: no form parser needed)."""
    if not content_type.startswith("multipart/form-data"):
        return body
    from email.parser import BytesParser
    from email.policy import HTTP

    form = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    for part in form.iter_parts():
        if part.get_filename() is not None:
            payload = part.get_payload(decode=True)  # None for a part that is a form
            return payload if isinstance(payload, bytes) else b""
    raise UsageError("the form holds no file: send the image as a file field "
                     "(e.g. curl -F image=@photo.jpg)")


def learn_techniques() -> list[dict]:
    """Each technique's name, tier, HoDoKu level and score, SE-like rating, and whether a
    path takes it unless named (`by_default`: those used only when named come too)."""
    from sudokulab.human import grading

    return grading.records()
