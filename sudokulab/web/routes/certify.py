"""Certified verdicts on the page (issue 56): POST /api/certify proves the puzzle's verdict
and sends the certificate; POST /api/verify checks a certificate sent back. Both run in a
helper process of web/tutor.py (web/certificates.py), bounded by the request's timeout
and stopped by its tag, like the other routes."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from sudokulab.web.common import CANCELLED, puzzle_json, read_puzzle, tagged
from sudokulab.web.models import DEFAULT_TIMEOUT, MAX_TIMEOUT, PuzzleText, Tagged

router = APIRouter()


class CertifyRequest(PuzzleText):
    """POST /api/certify: the puzzle's verdict, proved."""

    timeout: float = Field(DEFAULT_TIMEOUT, gt=0, le=MAX_TIMEOUT, description="seconds to "
                           "make and verify the certificate; the helper is stopped past it")


class VerifyRequest(Tagged):
    """POST /api/verify: a certificate checked."""

    certificate: str = Field(max_length=250_000, description="the zip /api/certify sent "
                             "(its files: <name>.json, .cnf, .drat), base64")
    timeout: float = Field(DEFAULT_TIMEOUT, gt=0, le=MAX_TIMEOUT, description="seconds to "
                           "check it; the helper is stopped past it")


@router.post("/api/certify")
async def certify(body: CertifyRequest, request: Request) -> JSONResponse:
    """The puzzle decided on the certificates' own CNF and the certificate verified:
    'proved' with the verdict (one solution, none, or two shown) and the certificate as
    a base64 zip, or 'rejected' (never shown as proved)."""
    puzzle = await read_puzzle(body.puzzle)
    answer = await tagged(request, body.tag, request.app.state.tutor.run(
        "certify", body.timeout, puzzle=puzzle)) or dict(CANCELLED)
    return JSONResponse({"puzzle": puzzle_json(puzzle), **answer, "tag": body.tag})


@router.post("/api/verify")
async def verify(body: VerifyRequest, request: Request) -> JSONResponse:
    """A certificate checked with the lab's own encoder and DRAT checker: 'proved' with its
    verdict, or 'rejected' with where it fails."""
    answer = await tagged(request, body.tag, request.app.state.tutor.run(
        "verify", body.timeout, certificate=body.certificate)) or dict(CANCELLED)
    return JSONResponse({**answer, "tag": body.tag})
