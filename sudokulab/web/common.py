"""What the page's routers share: reading a request's puzzle and backend, running its
work under its tag (cancelled on request, or when its client leaves), the helper process
for what imports an engine, and the puzzle as the page draws it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request

from sudokulab.harness.children import held

HELPER_WAIT = 60.0      # seconds for availability or a teaching view
LOG = logging.getLogger("sudokulab.web")
CANCELLED = {"status": "cancelled", "message": "cancelled: the client asked, or left"}


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


async def tagged(request: Request, tag: str | None, coroutine) -> dict | None:
    """Run a request's work as a task its tag can cancel, and that ends when the client
    leaves: its answer, or None when it was ended so (its process is ended by then)."""
    work = asyncio.ensure_future(coroutine)
    request.app.state.jobs.add(tag, work)
    gone = asyncio.ensure_future(left(request))
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


async def left(request: Request) -> None:
    """Return when the client disconnects (the body has been read by then)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


# --- reading the request ---------------------------------------------------------------

async def read_puzzle(text: str):
    """parse_puzzle in a thread: a long text or link takes a while to read, and the event
    loop meanwhile answers every other request (a cancel, another tab's solve)."""
    return await asyncio.to_thread(parse_puzzle, text)


def parse_puzzle(text: str):
    """A Puzzle from any text the command line reads (PuzzleError: a 400)."""
    from sudokulab.errors import PuzzleError
    from sudokulab.formats.text import parse

    try:
        puzzle = parse(text)
    except PuzzleError:
        from sudokulab.human.positions import holds_position

        if holds_position(text):
            raise PuzzleError("a pencil-mark position, not a puzzle: send its puzzle here "
                              "(/api/position reads the position into its puzzle, values and "
                              "candidates; /api/hint and /api/explain take all three)"
                              ) from None
        raise
    if puzzle.layout is not None:  # the page draws one N x N grid
        raise PuzzleError(f"the web page takes one N x N grid, not a {puzzle.layout.name}: "
                          f"use `sudokulab solve`")
    return puzzle


async def checked_spec(app: FastAPI, spec: str) -> str:
    """A backend spec checked by name and options (UsageError: a 400)."""
    from sudokulab.backends import parse_spec
    from sudokulab.errors import UsageError, unknown

    name, _ = parse_spec(spec)  # BackendError (a UsageError) for a malformed spec
    known = [b["name"] for b in await backends_of(app)]
    if name not in known:
        raise UsageError(unknown("backend", name, known))
    if ":" in spec:  # options: checked where the engine may be imported, not here
        problem = await in_helper(app, spec_problem, spec)
        if problem:
            raise UsageError(problem)
    return spec.strip()


def spec_problem(spec: str) -> str:
    """(in the helper) Why a backend spec's options are wrong, or ''."""
    from sudokulab.backends import make_backend
    from sudokulab.errors import BackendError

    try:
        make_backend(spec)
    except BackendError as error:
        return str(error)
    return ""


def puzzle_json(puzzle) -> dict:
    """A puzzle for the page: its JSON form, with its size and line, and the givens
    cell by cell (the page indexes them so, rather than by rows)."""
    from sudokulab.formats.text import puzzle_data
    from sudokulab.puzzle import line_of

    return {**puzzle_data(puzzle), "size": puzzle.n, "givens": list(puzzle.givens),
            "line": line_of(puzzle.givens)}


async def backends_of(app: FastAPI) -> list[dict]:
    """Availability of every backend, asked once of the helper process."""
    if app.state.backends is None:
        app.state.backends = await in_helper(app, backends_table)
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


async def in_helper(app: FastAPI, function: Callable, *args) -> Any:
    """function(*args) in the helper process, waiting HELPER_WAIT seconds at most (its
    process starts, the first time, deaf to Ctrl-C: sudokulab.harness.children)."""
    with held():
        running = asyncio.get_running_loop().run_in_executor(app.state.helper, function, *args)
    return await asyncio.wait_for(running, HELPER_WAIT)
