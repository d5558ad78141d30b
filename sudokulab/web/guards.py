"""The app's guards: a body limit read before any route sees a request, and every refusal
answered with the command line's one-line message (and the request's tag)."""

from __future__ import annotations

import json

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from sudokulab.errors import SudokulabError
from sudokulab.formats import json_value
from sudokulab.web.models import MAX_TAG

MAX_BODY = 256 * 1024   # bytes in a request body


MAX_IMAGE = 10 * 1024 * 1024  # bytes in a photo sent to /api/read


async def refused(request: Request, error: SudokulabError) -> JSONResponse:
    """The command line's one-line message, with the class's HTTP status: 400 for bad
    input, 503 for what is not installed here, 500 for an engine's failure."""
    return JSONResponse({"error": _one_line(str(error)), "tag": _tag_of(request)},
                        status_code=error.http_status)


async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    """A body that breaks the API's types or bounds: one line naming the field."""
    first: dict = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
    if first.get("type") == "json_invalid":   # loc is (body, the character it failed at)
        why = first.get("ctx", {}).get("error", "")
        at = first["loc"][-1] if first["loc"] else "?"
        return JSONResponse({"error": f"the body is not JSON ({why} at character {at})",
                             "tag": None}, status_code=422)
    kind = request.headers.get("content-type", "")
    if tuple(first["loc"]) == ("body",) and "json" not in kind:  # not parsed as JSON at all
        return JSONResponse({"error": f"the body: send JSON with the header Content-Type: "
                                      f"application/json (it came as {kind or 'no type'})",
                             "tag": _tag_of(request)}, status_code=422)
    where = ".".join(str(part) for part in first["loc"] if part != "body") or "the body"
    return JSONResponse({"error": f"{where}: {first['msg']}", "tag": _tag_of(request)},
                        status_code=422)


async def http_refusal(request: Request, error: StarletteHTTPException) -> JSONResponse:
    """What the framework refuses itself (a body it cannot parse, an unknown route, a
    method a route lacks) in the API's shape: {"error": ..., "tag": ...}, its status. A
    JSON body it cannot parse is a 422, as any body that is not JSON."""
    if error.status_code == 400 and error.detail == UNPARSED:
        return JSONResponse({"error": "the body is not JSON (bytes that are not UTF-8, or "
                                      "nesting too deep)", "tag": None}, status_code=422)
    return JSONResponse({"error": _one_line(str(error.detail)), "tag": _tag_of(request)},
                        status_code=error.status_code, headers=error.headers)


# FastAPI's own words for a JSON body that its decoder could not take (not a JSONDecodeError:
# bytes that are not UTF-8, or nesting past the recursion limit)
UNPARSED = "There was an error parsing the body"


def _tag_of(request: Request) -> str | None:
    """The tag of a request answered with an error: in its query, or in its JSON body
    (kept by BodyLimit), when it is a tag at all."""
    tag = request.query_params.get("tag")
    if tag is None:
        try:
            data = json_value(request.scope.get("sudokulab.body") or b"null")
        except ValueError:
            return None
        tag = data.get("tag") if isinstance(data, dict) else None
    return tag if isinstance(tag, str) and len(tag) <= MAX_TAG else None


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
    body = json.dumps({"error": f"request body too large: at most {limit:,} bytes",
                       "tag": None})  # the body holding the tag is not read
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body.encode()})


STOPPING = "the server is stopping (Ctrl-C or SIGTERM): this request was cancelled"


class Stopping:
    """ASGI middleware: a request the server cancels as it stops (uvicorn, its grace after
    Ctrl-C or SIGTERM over) is answered, not dropped: 503 with the one-line error, or, once
    an event stream is under way, a last `error` event."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        import asyncio

        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started: list[dict] = []  # the response's start, once sent

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                started.append(message)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            await _say_stopping(send, started[0] if started else None,
                                _tag_of(Request(scope)))


async def _say_stopping(send, started: dict | None, tag: str | None) -> None:
    """The cancelled request's last words: 503, or the stream's `error` event; nothing
    if the client is gone or the body was under way in another form."""
    import contextlib

    error = json.dumps({"error": STOPPING, "tag": tag})
    with contextlib.suppress(Exception):  # the client left: nobody to tell
        if started is None:
            await send({"type": "http.response.start", "status": 503,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": error.encode()})
        elif (b"content-type", b"text/event-stream") in _lowered(started["headers"]):
            await send({"type": "http.response.body",
                        "body": f"event: error\ndata: {error}\n\n".encode()})


def _lowered(headers) -> list[tuple[bytes, bytes]]:
    """The headers with lower-case names, values cut at ';' (charset)."""
    return [(name.lower(), value.split(b";")[0].strip()) for name, value in headers]
