"""The page itself and what it reads: index.html and its static files, the tab's icon,
/docs (Swagger UI served here, not from a CDN), and the bundled datasets page by page."""

from __future__ import annotations

import asyncio
from importlib import resources

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

MAX_PAGE = 100          # puzzles in one page of a dataset
STATIC = resources.files("sudokulab.web") / "static"
# the tab's icon: a 3x3 box with one digit, drawn here (static/ is the page's own)
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">'
           '<rect x=".3" y=".3" width="8.4" height="8.4" rx=".8" fill="#fff" stroke="#234" '
           'stroke-width=".6"/><path d="M3.2 .3v8.4M5.8 .3v8.4M.3 3.2h8.4M.3 5.8h8.4" '
           'stroke="#234" stroke-width=".3"/><text x="4.5" y="5.45" font-size="2.6" '
           'font-family="sans-serif" font-weight="bold" text-anchor="middle" '
           'fill="#c0392b">9</text></svg>')

router = APIRouter()


def mount(app: FastAPI) -> None:
    """The page's static files, and Swagger UI's from the swagger-ui-bundle package (so
    that /docs works offline; FastAPI's own loads it from a CDN)."""
    from swagger_ui_bundle import swagger_ui_path

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")


@router.get("/docs", include_in_schema=False)
async def docs(request: Request) -> HTMLResponse:
    from fastapi.openapi.docs import get_swagger_ui_html

    return get_swagger_ui_html(
        openapi_url=request.app.openapi_url or "/openapi.json", title="sudokulab API",
        swagger_js_url="/docs-assets/swagger-ui-bundle.js",
        swagger_css_url="/docs-assets/swagger-ui.css", swagger_favicon_url="/favicon.ico",
        swagger_ui_parameters={"validatorUrl": None})  # no badge from an outside validator


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"))


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    return Response(FAVICON, media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=86400"})


@router.get("/api/datasets")
async def datasets_index() -> list[dict]:
    """The bundled datasets with their sizes and provenance."""
    return await asyncio.to_thread(_datasets)


@router.get("/api/datasets/{name}")
async def dataset_page(name: str, offset: int = Query(0, ge=0),
                       number: int = Query(24, ge=1, le=MAX_PAGE)) -> dict:
    """A page of a dataset's puzzles with their reference solutions (`number` of them: a
    count is of solutions, everywhere in the lab)."""
    return await asyncio.to_thread(_dataset_page, name, offset, number)


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
