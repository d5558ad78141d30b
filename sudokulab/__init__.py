"""sudokulab: solve Sudoku with independent paradigms and compare them.

    import sudokulab as sl
    sl.solve(sl.parse("..."), backend="sat")
    sl.compare("top95", backends=["norvig", "sat"], sample=20).summary()

The API (sudokulab.api) is imported on first use of one of its names, so that the
command line, which does not use it, starts as fast as before.
"""

from __future__ import annotations

__version__ = "0.1.0"

API = ("Comparison", "Puzzle", "Record", "Result", "Status", "certify", "compare", "count",
       "datasets", "load", "open_run", "parse", "rate", "setter", "solve", "solve_many",
       "verify")
__all__ = [*API, "__version__"]


def __getattr__(name: str):
    """sudokulab.solve and the rest of the API, imported when first asked for."""
    # a submodule, callable: sl.datasets() lists the names
    if name == "datasets":
        import importlib

        return importlib.import_module(f"sudokulab.{name}")
    if name in API:
        from sudokulab import api

        return getattr(api, name)
    raise AttributeError(f"module 'sudokulab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *API])
