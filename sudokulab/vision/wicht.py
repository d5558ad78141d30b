"""Wicht and Hennebert's newspaper photos: where they are and which digits each shows.

The dataset (github.com/wichtounet/sudoku_dataset, CC-BY-4.0; B. Wicht, J. Hennebert,
"Camera-based Sudoku recognition with deep belief network", SoCPaR 2014) holds 200 phone
photos of newspaper puzzles, each image NAME.jpg beside NAME.dat: two lines about the
camera, then the nine rows of the puzzle, 0 for a blank. datasets/v2_train.desc lists the
160 training photos and datasets/v2_test.desc the 40 test photos. It is not shipped with
sudokulab: put a copy of the repository anywhere and point SUDOKULAB_WICHT at it (or give
the folder to the script that wants it). A few training photos are committed under
tests/data/photos/ for the tests.
"""

from __future__ import annotations

import os
from pathlib import Path

from sudokulab import errors

ENV = "SUDOKULAB_WICHT"
SPLITS = {"train": "datasets/v2_train.desc", "test": "datasets/v2_test.desc"}


def root(folder: str | Path | None = None) -> Path | None:
    """The dataset's folder: the one given, else $SUDOKULAB_WICHT; None if neither is set."""
    folder = folder or os.environ.get(ENV)
    return Path(folder) if folder else None


def photos(folder: Path, split: str) -> list[Path]:
    """The photos of one split ('train' or 'test'), in the dataset's order; InputError if
    the folder does not hold the dataset."""
    listing = folder / SPLITS[split]
    if not listing.is_file():
        raise errors.InputError(f"{folder}: not Wicht's sudoku_dataset (no {SPLITS[split]}); "
                                f"see sudokulab/vision/wicht.py")
    return [folder / name for name in listing.read_text().split()]


def truth(photo: Path) -> tuple[int, ...]:
    """The 81 digits of a photo's puzzle, row by row (0: blank), from its .dat file."""
    rows = photo.with_suffix(".dat").read_text().split("\n")[2:]
    digits = tuple(int(d) for row in rows for d in row.split())
    if len(digits) != 81:
        raise errors.InputError(f"{photo.with_suffix('.dat')}: {len(digits)} digits, not 81")
    return digits
