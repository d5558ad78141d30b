"""The optional parts of sudokulab: what each extra of `pip install 'sudokulab[EXTRA]'`
brings, and the one check a command or backend makes before it uses one.

`pip install sudokulab` alone solves with norvig, dlx, human, sat (PySAT) and smt (Z3);
the rest comes with an extra (pyproject.toml's [project.optional-dependencies] lists the
same names; tests/test_availability.py holds the two together). A command that needs a
missing extra stops with one line naming it (Unavailable, exit code 5).
"""

from __future__ import annotations

from sudokulab.errors import Unavailable

# extra -> the modules it provides, imported to tell whether it is installed
MODULES: dict[str, tuple[str, ...]] = {
    "plots": ("matplotlib",),  # compare's cactus and scatter plots, grade --plot
    "pandas": ("pandas",),  # the Python API's Comparison.to_pandas()
    "web": ("fastapi", "uvicorn", "swagger_ui_bundle"),  # `sudokulab serve`
    "vision": ("cv2", "numpy", "PIL"),  # `sudokulab read`: photos of puzzles
    "cluster": ("dask", "distributed"),  # compare --cluster
    "asp": ("clingo",),  # the asp backend
    "cpsat": ("ortools",),  # the cpsat backend
}


def install(extra: str) -> str:
    """How to install an extra: "pip install 'sudokulab[web]'"."""
    return f"pip install 'sudokulab[{extra}]'"


def absent(module: str) -> str:
    """Why a top-level module cannot be imported here ('' when it is installed). Looked
    up, not imported: asking costs no start-up of what it holds."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError) as error:  # a finder that refuses it, a broken entry
        return f"{module} cannot be imported: {error}"
    return "" if found else f"{module} is not installed"


def missing(extra: str) -> str:
    """Why an extra is not installed here ('' when every module of it is)."""
    return next(filter(None, map(absent, MODULES[extra])), "")


def need(extra: str, what: str) -> None:
    """Unavailable (one line, exit code 5) unless the extra is installed: `what` (a
    command, an option) then says which extra it needs and how to install it."""
    why = missing(extra)
    if why:
        raise Unavailable(f"{what} needs the {extra} extra ({why}): {install(extra)}")
