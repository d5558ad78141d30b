"""The web app of `sudokulab serve`: a JSON API under /api and a hand-written page.

The event loop only parses, checks and answers: every solve runs in a harness worker
process (see pool.py), and everything that imports an engine (availability, the teaching
view) runs in a helper process, so the server stays small and a slow engine never holds
up another request. A puzzle never gets a 500: bad input is a 400/422 with the command
line's one-line message, an engine failure or timeout is a result.

The human-style solver's hints and explanations, the generator's new puzzles and the
photo reader (learn.py) run in helper processes of their own (tutor.py), bounded the same way.

Every request may carry a `tag` (the page makes one per puzzle and request); its answer,
and each event of a compare, echoes it. POST /api/cancel with a tag stops the work running
for it (its worker or helper process is ended), and so does a client that leaves: the
page cancels the old puzzle's tags when it loads another, so no late answer costs anything.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import Field

from sudokulab.children import CONTEXT, held, listen
from sudokulab.errors import SudokulabError, UsageError
from sudokulab.result import Result, Status
from sudokulab.web import learn
from sudokulab.web.models import (
    MAX_TAG,
    CancelRequest,
    CompareRequest,
    GenerateRequest,
    LearnRequest,
    ModelRequest,
    PuzzleText,
    SetterRequest,
    SolveRequest,
)
from sudokulab.web.pool import Pool
from sudokulab.web.tutor import Tutor

MAX_BODY = 256 * 1024   # bytes in a request body
MAX_IMAGE = 10 * 1024 * 1024  # bytes in a photo sent to /api/read
READ_TIMEOUT = 30.0     # seconds to read a photo and check the puzzle read
MAX_PAGE = 100          # puzzles in one page of a dataset
HELPER_WAIT = 60.0      # seconds for availability or a teaching view
STATIC = resources.files("sudokulab.web") / "static"
LOG = logging.getLogger("sudokulab.web")
# the tab's icon: a 3x3 box with one digit, drawn here (static/ is the page's own)
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">'
           '<rect x=".3" y=".3" width="8.4" height="8.4" rx=".8" fill="#fff" stroke="#234" '
           'stroke-width=".6"/><path d="M3.2 .3v8.4M5.8 .3v8.4M.3 3.2h8.4M.3 5.8h8.4" '
           'stroke="#234" stroke-width=".3"/><text x="4.5" y="5.45" font-size="2.6" '
           'font-family="sans-serif" font-weight="bold" text-anchor="middle" '
           'fill="#c0392b">9</text></svg>')


def create_app(pool: Pool | None = None) -> FastAPI:
    """The app, with its own worker pool."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.pool = pool or Pool()
        app.state.tutor = Tutor()
        app.state.helper = ProcessPoolExecutor(1, mp_context=CONTEXT, initializer=listen)
        app.state.backends = None
        app.state.jobs = Jobs()
        try:
            yield
        finally:
            app.state.pool.close()
            app.state.tutor.close()
            # wait: a helper told to stop before it exits would be left waiting on its queue
            app.state.helper.shutdown(wait=True, cancel_futures=True)

    # /docs is ours (its assets served here, not from a CDN); ReDoc would need a CDN
    app = FastAPI(title="sudokulab", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Solve, compare and play Sudoku with independent engines.")
    app.add_middleware(BodyLimit)
    app.add_exception_handler(SudokulabError, _refused)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    _docs(app)
    _teach_routes(app)  # issue 32: one rule in every engine, search replays
    _timeline_routes(app)  # issue 32: the learning engines' counters over time

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(FAVICON, media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=86400"})

    @app.get("/api/backends")
    async def backends(request: Request) -> list[dict]:
        """Every backend: paradigm, whether it runs here (engine version) or why not."""
        return await _backends(request.app)

    @app.get("/api/datasets")
    async def datasets_index() -> list[dict]:
        """The bundled datasets with their sizes and provenance."""
        return await asyncio.to_thread(_datasets)

    @app.get("/api/datasets/{name}")
    async def dataset_page(name: str, offset: int = Query(0, ge=0),
                           count: int = Query(24, ge=1, le=MAX_PAGE)) -> dict:
        """A page of a dataset's puzzles with their reference solutions."""
        return await asyncio.to_thread(_dataset_page, name, offset, count)

    @app.post("/api/puzzle")
    async def read(body: ModelRequest) -> dict:
        """The puzzle as the page draws it: box, givens, rules (cells named r1c1)."""
        return {**puzzle_json(_parse(body.puzzle)), "tag": body.tag}

    @app.post("/api/cancel")
    async def cancel(body: CancelRequest, request: Request) -> dict:
        """Stop the work running for a tag: its solves' workers and its hints', explanations'
        or photos' helper processes are ended, and those requests answer 'cancelled'."""
        return {"cancelled": await request.app.state.jobs.cancel(body.tag), "tag": body.tag}

    @app.post("/api/solve")
    async def solve(body: SolveRequest, request: Request) -> dict:
        """Solve with one backend in a worker; every grid checked before it is sent."""
        puzzle = _parse(body.puzzle)
        spec = await _spec(request.app, body.backend)
        answer = await _tagged(request, body.tag,
                               _solve(request.app, spec, puzzle, body.limit, body.timeout))
        return {**(answer or {"backend": spec, **CANCELLED}), "tag": body.tag}

    @app.post("/api/compare")
    async def compare(body: CompareRequest, request: Request) -> StreamingResponse:
        """Every available backend (or those named), one at a time, streamed as each
        finishes."""
        puzzle = _parse(body.puzzle)
        if body.backends:
            specs = [await _spec(request.app, name) for name in body.backends]
        else:
            specs = [b["name"] for b in await _backends(request.app) if b["available"]]
        events = _compare(request.app, specs, puzzle, body.limit, body.timeout, body.tag)
        return StreamingResponse(events, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.post("/api/model")
    async def model(body: ModelRequest, request: Request) -> dict:
        """What a backend builds for this puzzle (the teaching view of `sudokulab model`)."""
        puzzle = _parse(body.puzzle)
        spec = await _spec(request.app, body.backend)
        try:
            text = await _in_helper(request.app, _describe, spec, puzzle)
        except Exception as error:  # an engine that cannot build its model: said, not a 500
            return {"backend": spec, "ok": False, "text": f"{type(error).__name__}: {error}",
                    "tag": body.tag}
        return {"backend": spec, **text, "tag": body.tag}

    @app.get("/api/techniques")
    async def techniques() -> list[dict]:
        """The human-style techniques, easiest first (names for `techniques` and `upto`)."""
        return await asyncio.to_thread(learn_techniques)

    @app.post("/api/hint")
    async def hint(body: LearnRequest, request: Request) -> JSONResponse:
        """The easiest next step (the human-style solver), with what to highlight."""
        # plain JSON types already: sent as they are, without FastAPI's walk through them
        return JSONResponse(await _learn(request.app, "hint", body, request))

    @app.post("/api/explain")
    async def explain(body: LearnRequest, request: Request) -> JSONResponse:
        """Every step to the end, easiest technique first, with the grade."""
        return JSONResponse(await _learn(request.app, "explain", body, request))

    @app.post("/api/setter")
    async def setter(body: SetterRequest, request: Request) -> JSONResponse:
        """The setter's bench on a puzzle being set: solutions left (0, 1, at least 2 with
        two that differ), each cell's true candidates, the givens and rules it stays unique
        without, and the human grade once unique (sudokulab.setter, in a helper process)."""
        puzzle = _parse(body.puzzle)
        answer = await _tagged(request, body.tag, request.app.state.tutor.run(
            "setter", body.timeout, puzzle=puzzle, candidates=body.candidates,
            redundancy=body.redundancy, grade=body.grade,
            grade_seconds=body.grade_timeout)) or dict(CANCELLED)
        return JSONResponse({"puzzle": puzzle_json(puzzle), **answer, "tag": body.tag})

    @app.post("/api/generate")
    async def generate(body: GenerateRequest, request: Request) -> dict:
        """A new puzzle (of a level, if asked), proved unique by two engines, graded."""
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        answer = await _tagged(request, body.tag, request.app.state.tutor.run(
            "generate", body.timeout, box=body.box, rules=tuple(body.rules),
            level=body.level, symmetry=body.symmetry, seed=seed)) or dict(CANCELLED)
        if answer["status"] == "timeout":
            answer["message"] = (f"no puzzle{' of level ' + body.level if body.level else ''}"
                                 f" in {body.timeout:g} s: try again, or another level")
        if "puzzle" in answer:
            answer["puzzle"] = puzzle_json(answer["puzzle"])
        return {"seed": seed, "puzzle": None, **answer, "tag": body.tag}

    @app.post("/api/read", openapi_extra={"requestBody": {"required": True, "content": {
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
        answer = await _tagged(request, tag, request.app.state.tutor.run(
            "read", READ_TIMEOUT, data=data)) or dict(CANCELLED)
        if "puzzle" in answer:
            answer["puzzle"] = puzzle_json(answer["puzzle"])
        return {"puzzle": None, "doubtful": [], "suspects": [], **answer, "tag": tag}

    return app


CANCELLED = {"status": "cancelled", "message": "cancelled: the client asked, or left"}


async def _learn(app: FastAPI, task: str, body: LearnRequest, request: Request) -> dict:
    """A hint or an explanation from a helper process; the puzzle as the page draws it."""
    puzzle = _parse(body.puzzle)
    if body.techniques is not None and body.upto is not None:
        raise UsageError("techniques and upto exclude each other: give one")
    if task != "hint" and body.candidates is not None:
        raise UsageError("candidates: only /api/hint starts from the player's pencil marks")
    learn.check_state(puzzle, body.values, body.candidates)
    state = {"values": body.values}
    if task == "hint":
        state["candidates"] = body.candidates
    answer = await _tagged(request, body.tag, app.state.tutor.run(
        task, body.timeout, puzzle=puzzle, techniques=body.techniques, upto=body.upto,
        uniqueness=body.uniqueness, **state)) or dict(CANCELLED)
    empty = {"step": None} if task == "hint" else {"steps": []}  # for a timeout or an error
    return {"puzzle": puzzle_json(puzzle), **empty, "candidates": [], **answer,
            "tag": body.tag}


# --- the work of a tag: cancelled on request, or when its client leaves ------------------

class Jobs:
    """The work under way for each request tag, so that POST /api/cancel can end it."""

    def __init__(self) -> None:
        self.by_tag: dict[str, set[asyncio.Future]] = {}

    def add(self, tag: str | None, work: asyncio.Future) -> None:
        """Record a task under its tag until it is done."""
        if tag is None:
            return
        self.by_tag.setdefault(tag, set()).add(work)
        work.add_done_callback(lambda done: self._forget(tag, done))

    def _forget(self, tag: str, work: asyncio.Future) -> None:
        """A task is done: its tag forgets it."""
        tasks = self.by_tag.get(tag, set())
        tasks.discard(work)
        if not tasks:
            self.by_tag.pop(tag, None)

    async def cancel(self, tag: str) -> int:
        """Cancel the tag's tasks and wait until their processes are ended; how many."""
        tasks = [work for work in self.by_tag.get(tag, ()) if not work.done()]
        for work in tasks:
            work.cancel()
        if tasks:
            await asyncio.wait(tasks)
            LOG.info("tag %r: cancelled, %d task(s) stopped", tag, len(tasks))
        return len(tasks)


async def _tagged(request: Request, tag: str | None, coroutine) -> dict | None:
    """Run a request's work as a task its tag can cancel, and that ends when the client
    leaves: its answer, or None when it was ended so (its process is ended by then)."""
    work = asyncio.ensure_future(coroutine)
    request.app.state.jobs.add(tag, work)
    gone = asyncio.ensure_future(_left(request))
    try:
        await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        if not work.done():  # the client left: nobody to answer, so the work stops
            work.cancel()
            await asyncio.wait({work})
            LOG.info("tag %r: the client left, its work is stopped", tag)
    finally:
        gone.cancel()
        work.cancel()  # the server stops (nothing when the work is done)
    return None if work.cancelled() else work.result()


async def _left(request: Request) -> None:
    """Return when the client disconnects (the body has been read by then)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


# --- reading the request ---------------------------------------------------------------

def _parse(text: str):
    """A Puzzle from any text the command line reads (PuzzleError: a 400)."""
    from sudokulab.errors import PuzzleError
    from sudokulab.formats.text import parse

    puzzle = parse(text)
    if puzzle.layout is not None:  # the page draws one N x N grid
        raise PuzzleError(f"the web page takes one N x N grid, not a {puzzle.layout.name}: "
                          f"use `sudokulab solve`")
    return puzzle


async def _spec(app: FastAPI, spec: str) -> str:
    """A backend spec checked by name and options (UsageError: a 400)."""
    from sudokulab.backends import parse_spec
    from sudokulab.errors import UsageError, unknown

    name, _ = parse_spec(spec)  # BackendError (a UsageError) for a malformed spec
    known = [b["name"] for b in await _backends(app)]
    if name not in known:
        raise UsageError(unknown("backend", name, known))
    if ":" in spec:  # options: checked where the engine may be imported, not here
        problem = await _in_helper(app, spec_problem, spec)
        if problem:
            raise UsageError(problem)
    return spec.strip()


def spec_problem(spec: str) -> str:
    """(in the helper) Why a backend spec's options are wrong, or ''."""
    from sudokulab.backends import BackendError, make_backend

    try:
        make_backend(spec)
    except BackendError as error:
        return str(error)
    return ""


async def _refused(request: Request, error: SudokulabError) -> JSONResponse:
    """The command line's one-line message, with the class's HTTP status: 400 for bad
    input, 503 for what is not installed here, 500 for an engine's failure."""
    return JSONResponse({"error": _one_line(str(error)), "tag": _tag_of(request)},
                        status_code=error.http_status)


async def _invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    """A body that breaks the API's types or bounds: one line naming the field."""
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"] if part != "body")
    return JSONResponse({"error": f"{where}: {first['msg']}" if where else first["msg"],
                         "tag": _tag_of(request)}, status_code=422)


def _tag_of(request: Request) -> str | None:
    """The tag of a request answered with an error: in its query, or in its JSON body
    (kept by BodyLimit), when it is a tag at all."""
    tag = request.query_params.get("tag")
    if tag is None:
        try:
            data = json.loads(request.scope.get("sudokulab.body") or b"null")
        except ValueError:
            return None
        tag = data.get("tag") if isinstance(data, dict) else None
    return tag if isinstance(tag, str) and len(tag) <= MAX_TAG else None


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
            return part.get_payload(decode=True) or b""
    raise UsageError("the form holds no file: send the image as a file field "
                     "(e.g. curl -F image=@photo.jpg)")


def _docs(app: FastAPI) -> None:
    """/docs: Swagger UI from the swagger-ui-bundle package's files, served here, so that
    the page works offline (FastAPI's own loads it from a CDN)."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from swagger_ui_bundle import swagger_ui_path

    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title="sudokulab API",
            swagger_js_url="/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/docs-assets/swagger-ui.css", swagger_favicon_url="/favicon.ico",
            swagger_ui_parameters={"validatorUrl": None})  # no badge from an outside validator


def _one_line(text: str) -> str:
    """One line, whatever line breaks the input put in the message (as the CLI does)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


class BodyLimit:
    """ASGI middleware: a request body over MAX_BODY bytes (MAX_IMAGE for /api/read) gets 413
    and is read no further."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = MAX_IMAGE if scope["path"] == "/api/read" else MAX_BODY
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > limit:
            return await _too_large(send, limit)
        chunks, size, more = [], 0, True
        while more:  # read (at most `limit` bytes) before the app sees any of it
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > limit:  # a body streamed without a length, or lying about it
                return await _too_large(send, limit)
        body = scope["sudokulab.body"] = b"".join(chunks)  # kept for an error's tag
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()  # what comes next: a disconnect
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _too_large(send, limit: int) -> None:
    """413 with the one-line message."""
    body = json.dumps({"error": f"request body too large: at most {limit:,} bytes"})
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body.encode()})


# --- answers ---------------------------------------------------------------------------

def puzzle_json(puzzle) -> dict:
    """A puzzle for the page: its JSON form, with its size and line, and the givens
    cell by cell (the page indexes them so, rather than by rows)."""
    from sudokulab.formats.text import puzzle_data
    from sudokulab.puzzle import line_of

    return {**puzzle_data(puzzle), "size": puzzle.n, "givens": list(puzzle.givens),
            "line": line_of(puzzle.givens)}


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
    checked: dict = {}  # each grid's violations, filled by verify
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


async def _backends(app: FastAPI) -> list[dict]:
    """Availability of every backend, asked once of the helper process."""
    if app.state.backends is None:
        app.state.backends = await _in_helper(app, backends_table)
    return app.state.backends


def backends_table() -> list[dict]:
    """(in the helper) Each backend's name, paradigm, rules, availability."""
    from sudokulab.backends import backend_class, names

    table = []
    for name in names():
        cls = backend_class(name)
        try:
            a = cls.available()
            entry = {"available": a.ok, "version": a.version, "reason": a.reason,
                     "fix": a.fix}
        except Exception as error:  # a broken install must not hide the others
            entry = {"available": False, "version": "", "fix": "",
                     "reason": f"{type(error).__name__}: {error}"}
        rules = sorted(getattr(rule, "name", str(rule)) for rule in cls.supported_rules)
        table.append({"name": name, "paradigm": cls.paradigm, "rules": rules,
                      "records_trace": cls.records_trace,
                      "keeps_timeline": cls.keeps_timeline, **entry})
    return table


def _describe(spec: str, puzzle) -> dict:
    """(in the helper) The backend's teaching view, or why it cannot model this puzzle."""
    from sudokulab.backends import make_backend

    backend = make_backend(spec)
    reason = backend.unsupported(puzzle)
    return {"ok": not reason, "text": reason or backend.describe(puzzle)}


def learn_techniques() -> list[dict]:
    """Each technique's name, tier, HoDoKu level and score, SE-like rating."""
    from sudokulab.human import grading, solver

    return [{"name": t.name, "tier": solver.TIERS[t.tier], "level": grading.TABLE[t.name][0],
             "score": grading.TABLE[t.name][1], "rating": grading.TABLE[t.name][2],
             "uniqueness": t.uniqueness} for t in solver.TECHNIQUES]


def _datasets() -> list[dict]:
    """Name, puzzle count, what it is, origin."""
    from sudokulab import datasets

    about = datasets.provenance()
    return [{"name": name, "puzzles": len(datasets.lines(name)),
             "about": about.get(name, ("", ""))[0], "origin": about.get(name, ("", ""))[1]}
            for name in datasets.names()]


def _dataset_page(name: str, offset: int, count: int) -> dict:
    """Puzzles offset..offset+count of a dataset, each with its reference solution."""
    from sudokulab import datasets

    lines = datasets.lines(name)  # PuzzleError naming the known ones: a 400
    solutions = datasets.solution_lines(name)
    page = range(offset, min(offset + count, len(lines)))
    return {"name": name, "total": len(lines), "offset": offset,
            "puzzles": [{"index": k, "puzzle": lines[k], "solution": solutions[k]}
                        for k in page]}


async def _in_helper(app: FastAPI, function: Callable, *args) -> Any:
    """function(*args) in the helper process, waiting HELPER_WAIT seconds at most (its
    process starts, the first time, deaf to Ctrl-C: sudokulab.children)."""
    with held():
        running = asyncio.get_running_loop().run_in_executor(app.state.helper, function, *args)
    return await asyncio.wait_for(running, HELPER_WAIT)


# --- issue 32: the same rule in every engine, side by side (sudokulab/teach.py) -----------

class RuleRequest(PuzzleText):
    """POST /api/model/rule: rule N of the puzzle in each engine (none: just the list)."""

    rule: int | None = Field(None, ge=1, le=10_000, description="the rule's number, as "
                             "`sudokulab model --list-rules` prints it")
    encoding: str = Field("extended", max_length=20, description="the CNF encoding shown")


def _teach_routes(app: FastAPI) -> None:
    """The routes of the side-by-side view."""

    @app.post("/api/model/rule")
    async def model_rule(body: RuleRequest, request: Request) -> dict:
        """The puzzle's numbered rules and, for `rule`, each engine's piece for it."""
        puzzle = _parse(body.puzzle)
        answer = await _in_helper(request.app, _rule_pieces, puzzle, body.rule, body.encoding)
        return {**answer, "tag": body.tag}

    @app.post("/api/trace")
    async def search_trace(body: TraceRequest, request: Request) -> dict:
        """norvig's or dlx's search on the puzzle, event by event, to its first solution."""
        puzzle = _parse(body.puzzle)
        answer = await _in_helper(request.app, _trace, puzzle, body.engine, body.cap)
        return {**answer, "tag": body.tag}

    @app.post("/api/ladder/grids")
    async def ladder_grids(body: PuzzleText, request: Request) -> dict:
        """The grid where each level of the inference ladder stops, before its first guess."""
        puzzle = _parse(body.puzzle)
        answer = await _in_helper(request.app, _ladder_grids, puzzle)
        return {**answer, "tag": body.tag}


def _rule_pieces(puzzle, number: int | None, encoding: str) -> dict:
    """(in the helper) The numbered rules, and each engine's piece for rule `number`."""
    from sudokulab import teach
    from sudokulab.encodings.cnf import ENCODINGS
    from sudokulab.errors import InputError, unknown

    if encoding not in ENCODINGS:
        raise InputError(unknown("encoding", encoding, ENCODINGS))
    refs = [ref.to_json() for ref in teach.rules_of(puzzle)]
    if number is None:
        return {"rules": refs, "rule": None, "pieces": []}
    pieces = teach.pieces(puzzle, number, encoding=encoding)
    return {"rules": refs, "rule": refs[teach.rule_ref(puzzle, number).number - 1],
            "pieces": [piece.to_json() for piece in pieces]}


# --- issue 32: search you can watch, and where propagation stops (sudokulab/trace.py) ----

TRACE_SECONDS = 20.0  # a traced search gives up after this (the helper has HELPER_WAIT)


class TraceRequest(PuzzleText):
    """POST /api/trace: a search's events (at most `cap`, then the solution)."""

    engine: str = Field("norvig", description="a backend that records a trace: one whose "
                        "records_trace is true in GET /api/backends (400 for another)")
    cap: int = Field(2000, ge=1, le=2000, description="events kept before 'truncated'")


def _trace(puzzle, engine: str, cap: int) -> dict:
    """(in the helper) The search's events, its tree, and what it found."""
    from sudokulab import trace

    result, events = trace.record(puzzle, engine, limit=1, cap=cap, timeout=TRACE_SECONDS)
    return {"engine": engine, "status": result.status.value, "message": result.message,
            "solution": list(result.solutions[0]) if result.solutions else None,
            "stats": result.stats, "cap": cap, "events": events, "tree": trace.tree(events),
            "truncated": any(e["event"] == "truncated" for e in events)}


def _ladder_grids(puzzle) -> dict:
    """(in the helper) Each default level's marks on the puzzle (None: a contradiction)."""
    from sudokulab import ladder

    levels = ladder.choose("default")
    outcomes = ladder.compute(puzzle, levels)
    return {"levels": [{"name": level.name, "engine": level.engine, "what": level.what,
                        "marks": list(out.marks) if out.marks is not None else None,
                        "finished": out.finished, "candidates": out.candidates,
                        "timed_out": out.timed_out}
                       for level in levels for out in [outcomes[level.name]]]}


# --- issue 32: the learning engines' counters over time (sudokulab/timeline.py) -----------

TIMELINE_SECONDS = 20.0  # a sampled search gives up after this (the helper has HELPER_WAIT)


class TimelineRequest(PuzzleText):
    """POST /api/timeline: a learning engine's counters sampled while it solves."""

    backend: str = Field("sat", description="a learning engine: one whose keeps_timeline "
                         "is true in GET /api/backends (400 for another)")


def _timeline_routes(app: FastAPI) -> None:
    """The route of the learning engines' timeline."""

    @app.post("/api/timeline")
    async def engine_timeline(body: TimelineRequest, request: Request) -> dict:
        """The engine's decisions, conflicts ... over time on the puzzle (at most 500)."""
        puzzle = _parse(body.puzzle)
        answer = await _in_helper(request.app, _timeline, puzzle, body.backend)
        return {**answer, "tag": body.tag}


def _timeline(puzzle, backend: str) -> dict:
    """(in the helper) The engine's samples, what each figure means, and what it found."""
    from sudokulab import timeline

    result, samples = timeline.record(puzzle, backend, limit=2, timeout=TIMELINE_SECONDS)
    return {"backend": backend, "status": result.status.value, "message": result.message,
            "stats": result.stats, **samples.to_json()}
