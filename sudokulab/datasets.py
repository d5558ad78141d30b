"""The bundled puzzle sets (gzip-compressed in sudokulab/data, provenance in its README)."""

from __future__ import annotations

import gzip
import sys
import types
from functools import lru_cache
from importlib import resources

from sudokulab.errors import PuzzleError
from sudokulab.formats.text import parse_many
from sudokulab.puzzle import Grid, Puzzle

DATA = resources.files("sudokulab") / "data"


def names() -> list[str]:
    """The bundled dataset names, smallest first."""
    sizes = {entry.name[: -len(".txt.gz")]: len(entry.read_bytes())
             for entry in DATA.iterdir()
             if entry.name.endswith(".txt.gz") and ".solutions." not in entry.name}
    return sorted(sizes, key=sizes.__getitem__)


def _text(filename: str) -> str:
    """A bundled file, decompressed."""
    return gzip.decompress((DATA / filename).read_bytes()).decode("utf-8")


@lru_cache(maxsize=16)
def load(name: str) -> tuple[Puzzle, ...]:
    """The puzzles of a bundled dataset; PuzzleError naming the known ones if unknown."""
    if name not in names():
        raise PuzzleError(f"unknown dataset {name!r}; bundled: {', '.join(names())}")
    return tuple(parse_many(_text(f"{name}.txt.gz"), f"{name}.txt"))


@lru_cache(maxsize=16)
def solutions(name: str) -> tuple[Grid, ...]:
    """The reference solutions of a bundled dataset (from tdoku, an independent engine)."""
    return tuple(p.givens for p in parse_many(_text(f"{name}.solutions.txt.gz")))


@lru_cache(maxsize=16)
def lines(name: str) -> tuple[str, ...]:
    """The puzzle lines of a bundled dataset, unparsed (one puzzle per line)."""
    if name not in names():
        raise PuzzleError(f"unknown dataset {name!r}; bundled: {', '.join(names())}")
    return tuple(line for line in _text(f"{name}.txt.gz").splitlines() if line.strip())


@lru_cache(maxsize=16)
def solution_lines(name: str) -> tuple[str, ...]:
    """The reference solution lines of a bundled dataset, unparsed."""
    return tuple(line for line in _text(f"{name}.solutions.txt.gz").splitlines()
                 if line.strip())


def describe() -> str:
    """A table of the bundled datasets: name, puzzles, what each is and where it comes from."""
    from tabulate import tabulate

    about = provenance()
    rows = [(name, f"{_count(name):,}", *about.get(name, ("", ""))) for name in names()]
    return tabulate(rows, headers=("name", "puzzles", "what it is", "origin"),
                    tablefmt="simple")


def _count(name: str) -> int:
    """How many puzzles a dataset holds (one per line), without parsing them."""
    return sum(1 for line in _text(f"{name}.txt.gz").splitlines() if line.strip())


def provenance() -> dict[str, tuple[str, str]]:
    """(what it is, origin) per dataset name, from the table in sudokulab/data/README.md
    (what the page shows beside each dataset, and `describe` prints)."""
    about = {}
    for line in (DATA / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].endswith(".txt"):
            about[cells[0][: -len(".txt")]] = (cells[2], cells[3])
    return about


class _Callable(types.ModuleType):
    """This module, callable: `sudokulab.datasets()` is the API's list of names (as a
    submodule, it is what the package's attribute `datasets` is once imported)."""

    def __call__(self, *args: object, **kwargs: object) -> list[str]:
        """The names of the bundled puzzle sets, smallest first."""
        if args or kwargs:
            raise TypeError("sl.datasets() takes no argument: it lists the bundled sets' "
                            "names (sl.load(NAME) loads one)")
        return names()


sys.modules[__name__].__class__ = _Callable
