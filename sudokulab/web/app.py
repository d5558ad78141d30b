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

This module only assembles the app: its state, its guards (guards.py) and its routers
(routes/: pages, solve, learn, setter, teach), which share common.py.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from sudokulab.errors import SudokulabError
from sudokulab.harness.children import CONTEXT, listen, start_tracker
from sudokulab.web.common import Jobs
from sudokulab.web.guards import BodyLimit, Stopping, http_refusal, invalid_request, refused
from sudokulab.web.pool import Pool
from sudokulab.web.routes import certify, learn, pages, setter, solve, teach
from sudokulab.web.tutor import Tutor


def create_app(pool: Pool | None = None) -> FastAPI:
    """The app, with its own worker pool."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.pool = pool or Pool()
        app.state.tutor = Tutor()
        start_tracker()  # before the executor's queue, which needs it
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
    app.add_middleware(Stopping)  # outermost: it answers what the server cancels
    # Starlette types every handler as taking any Exception, not the class it is added
    # for (its signature does not tie the two): each of these gets only its own class.
    app.add_exception_handler(SudokulabError, refused)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_refusal)  # type: ignore[arg-type]
    pages.mount(app)
    for routes in (teach, pages, solve, learn, setter, certify):  # teach: issue 32's views
        app.include_router(routes.router)
    return app
