"""The bundled puzzle sets (gzip-compressed in sudokulab/data, provenance in its README)."""

from __future__ import annotations

import gzip
from functools import lru_cache
from importlib import resources

from sudokulab.puzzle import Grid, Puzzle, PuzzleError, parse_many

DATA = resources.files("sudokulab") / "data"


def names() -> list[str]:
    """The bundled dataset names, smallest first."""
    sizes = {entry.name[: -len(".txt.gz")]: len(entry.read_bytes())
             for entry in DATA.iterdir()
             if entry.name.endswith(".txt.gz") and ".solutions." not in entry.name}
    return sorted(sizes, key=sizes.get)


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
