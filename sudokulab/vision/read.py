"""The pipeline: a photo in, a puzzle out, with a confidence per cell and the cells to doubt.

photo -> grey -> threshold -> the grid's outline -> straightened square -> lines and size
-> cells -> blank or digit -> classifier. Then a solver engine of another paradigm checks
the puzzle read: a sound puzzle has exactly one solution; one with none or several names
the cells whose second-best reading would make it unique (the likely misreads).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from sudokulab.errors import GridNotFound, WrongSize
from sudokulab.puzzle import Puzzle, box_shape
from sudokulab.vision import cells as C
from sudokulab.vision import files
from sudokulab.vision import grid as G
from sudokulab.vision.correct import Correction, correct
from sudokulab.vision.model import CLASSES, load

LOW = 0.9          # a cell read with less confidence than this is flagged
OUTLINES = ((7, 3), (7, 7), (20, 3))  # (contrast, closing) tried in turn for the outline
NESTED = 0.2       # a passing outline inside another, and this large, is the grid
SUSPECTS = 24      # the least confident cells tried one by one when the read is not unique


@dataclass(frozen=True)
class Reading:
    """A puzzle read from a photo, with how sure each cell is."""

    puzzle: Puzzle
    confidence: tuple[float, ...]     # per cell: the classifier's probability, or the blank's
    second: tuple[int, ...]           # per cell: the next most likely digit (0: blank)
    corners: np.ndarray               # the grid's corners in the photo, upright
    debug: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    # per cell: the classifier's probability of each symbol (a row of zeros for a blank)
    likelihood: np.ndarray | None = field(default=None, repr=False, compare=False)
    turns: int = 0                    # quarter turns (anticlockwise) that made it upright

    @property
    def doubtful(self) -> list[int]:
        """The cells read with low confidence."""
        return [i for i, p in enumerate(self.confidence) if p < LOW]


@dataclass(frozen=True)
class Suspect:
    """A cell whose other reading would make the puzzle unique."""

    cell: int
    read: int
    instead: int


@dataclass(frozen=True)
class Verdict:
    """What a solver engine says of the puzzle read (after correction, if any)."""

    status: str                        # unique, none or multiple
    solution: tuple[int, ...] | None
    suspects: tuple[Suspect, ...]
    backend: str
    puzzle: Puzzle | None = None       # the puzzle finally read (None: as first seen)
    correction: Correction | None = None   # the cells read otherwise to make it unique
    confirmed: str | None = None       # the engine of another paradigm that agreed


def read_image(image: np.ndarray, *, size: int | None = None,
               box: tuple[int, int] | None = None, debug: bool = False) -> Reading:
    """Read the puzzle in a photo, turned upright; GridNotFound if there is no grid."""
    gray = G.gray_of(image)
    corners, ink, square, (across, down), (n, rows, cols) = _find_grid_of_size(gray, size)
    found = [C.read_cell(crop, inner) for crop, inner in C.cut(square, rows, cols)]
    turns, found, likelihood = upright(found, n, box)
    if turns:  # the photo was taken sideways or upside down: everything turns with it
        corners = np.roll(corners, -turns, axis=0)
        square = np.rot90(square, turns)
        across, down = np.rot90(across, turns), np.rot90(down, turns)  # (drawn together)
    givens, second = [0] * (n * n), [0] * (n * n)
    confidence = [1.0 - 0.5 * cell.doubt for cell in found]  # a blank with a small blob
    for i, p in enumerate(likelihood):
        if found[i].patch is not None:
            best, runner_up = np.argsort(p)[::-1][:2]
            givens[i], confidence[i], second[i] = (int(best) + 1, float(p[best]),
                                                   int(runner_up) + 1)
    puzzle = Puzzle(box or box_shape(n), tuple(givens))
    pictures = _pictures(image, ink, corners, square, across, down, found, givens) if debug else {}
    return Reading(puzzle, tuple(confidence), tuple(second), corners, pictures, likelihood,
                   turns)


def upright(found: list[C.Cell], n: int, box: tuple[int, int] | None = None
            ) -> tuple[int, list[C.Cell], np.ndarray]:
    """The quarter turns that make the digits most believable, the cells so turned, and
    each cell's probabilities (zeros for a blank). A grid whose boxes are not square (6x6)
    turns only by half: a quarter turn would change its boxes."""
    rows, cols = box or box_shape(n)
    choices = (0, 1, 2, 3) if rows == cols else (0, 2)
    digits = [i for i, cell in enumerate(found) if cell.patch is not None]
    if not digits:
        return 0, found, np.zeros((n * n, n), np.float32)
    upright_patches = [cell.patch for cell in found if cell.patch is not None]  # at digits
    patches = [np.rot90(patch, k) for k in choices for patch in upright_patches]
    chances = load().probabilities(patches, n).reshape(len(choices), len(digits), n)
    belief = np.log(chances.max(axis=2) + 1e-9).sum(axis=1)
    pick = int(np.argmax(belief))
    turns = choices[pick]
    likelihood = np.zeros((n * n, n), np.float32)
    likelihood[digits] = chances[pick]
    return turns, *turned(found, likelihood, n, turns)


def turned(found: list[C.Cell], likelihood: np.ndarray, n: int, turns: int
           ) -> tuple[list[C.Cell], np.ndarray]:
    """The cells (and their rows of probabilities) of a grid turned a quarter `turns` times
    anticlockwise, in the turned grid's order, their patches turned too."""
    if not turns:
        return found, likelihood
    order = np.rot90(np.arange(n * n).reshape(n, n), turns).ravel()
    return [_turned_cell(found[i], turns) for i in order], likelihood[order]


def _turned_cell(cell: C.Cell, turns: int) -> C.Cell:
    """A cell with its patch (if any) turned a quarter `turns` times anticlockwise."""
    if cell.patch is None:
        return cell
    return C.Cell(np.ascontiguousarray(np.rot90(cell.patch, turns)), cell.box, cell.doubt)


def straighten(image: np.ndarray, size: int | None = None
               ) -> tuple[np.ndarray, list[int], list[int]]:
    """The grid straightened onto a square (as photographed, not turned upright) and where
    its row and column lines are; GridNotFound if there is none."""
    found = _find_grid_of_size(G.gray_of(image), size)
    return found[2], found[4][1], found[4][2]


def _find_grid_of_size(gray: np.ndarray, size: int | None):
    """The grid of the size asked for; WrongSize if a grid of another size is there
    (a wrong --size or --box is then named as such, not as a missing grid)."""
    try:
        return _find_grid(gray, size)
    except GridNotFound:
        if size is None:
            raise
        found = _find_grid(gray, None)[4][0]  # GridNotFound as it is if there is no grid
        if found == size:
            raise
        raise WrongSize(size, found) from None


def _find_grid(gray: np.ndarray, size: int | None):
    """The outline whose straightened square has a grid's lines, with those lines.

    The page around a grid can pass for a grid too (its margin and the grid's lines can
    fall where a grid of another size has lines), so of two nested outlines that pass,
    the inner one wins unless it is much smaller (a 4x4 box inside a 16x16 grid passes
    as a 4x4 grid)."""
    found = []
    for contrast, close in OUTLINES:
        quads, ink = G.outlines(gray, contrast, close)
        for corners in quads:
            square = G.warp(gray, corners)
            lines = G.line_masks(G.threshold(square, contrast=4))
            try:
                found.append((corners, ink, square, lines, G.size_and_lines(*lines, size)))
            except GridNotFound:
                continue
        if any(f[4][0] > 4 for f in found):  # a page can pass for a 4x4: look further
            break
    if not found:
        raise GridNotFound("no grid found in the image" + (
            " (no outline has a grid's lines)" if quads else " (no large four-sided outline)"))
    chosen = found[0]
    for candidate in found[1:]:
        if _inside(candidate[0], chosen[0]) and _area(candidate[0]) > NESTED * _area(chosen[0]):
            chosen = candidate
    return chosen


def _area(quad: np.ndarray) -> float:
    """The area inside four corners."""
    return float(cv2.contourArea(np.float32(quad)))


def _inside(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether every corner of one outline lies inside (or on) another."""
    contour = np.float32(outer).reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -3
               for x, y in inner)


def verify(reading: Reading, backend="norvig", *, confirm="sat",
           seconds: float | None = None) -> Verdict:
    """Solve the puzzle read with a solver engine (a name or a Backend) and check its grid.
    A puzzle without exactly one solution is read again: the most likely other reading
    with one solution (correct.py: norvig counts) is kept when `confirm`, an engine of
    another paradigm, finds the same one solution; otherwise the verdict names the cells
    likely misread."""
    from sudokulab.backends import make_backend
    from sudokulab.check import check
    from sudokulab.result import Status

    solver = make_backend(backend) if isinstance(backend, str) else backend
    result = solver.solve(reading.puzzle, limit=2)
    if result.status == Status.UNIQUE:
        if check(reading.puzzle, result.solutions[0]):
            return Verdict("invalid", None, (), solver.label)
        return Verdict("unique", result.solutions[0], (), solver.label, reading.puzzle)
    status = "multiple" if result.status == Status.MULTIPLE else "none"
    if result.status not in (Status.MULTIPLE, Status.NONE):
        status = result.status.value
    else:
        verdict = _corrected(reading, solver, confirm, seconds)
        if verdict:
            return verdict
    return Verdict(status, None, tuple(_suspects(reading, solver)), solver.label)


def _corrected(reading: Reading, solver, confirm, seconds: float | None) -> Verdict | None:
    """The verdict on the most likely other reading with one solution, if `confirm`
    agrees; None if there is none or it does not."""
    from sudokulab.backends import make_backend
    from sudokulab.check import check
    from sudokulab.result import Status

    counter = solver if solver.name == "norvig" else make_backend("norvig")
    found = correct(reading.puzzle, reading.confidence, reading.likelihood, counter,
                    **({"seconds": seconds} if seconds is not None else {}))
    if found is None:
        return None
    checker = make_backend(confirm) if isinstance(confirm, str) else confirm
    second = checker.solve(found.puzzle, limit=2)
    if second.status != Status.UNIQUE or check(found.puzzle, second.solutions[0]):
        return None
    solution = counter.solve(found.puzzle, limit=2).solutions[0]
    if tuple(second.solutions[0]) != tuple(solution):
        return None
    return Verdict("unique", second.solutions[0], (), counter.label, found.puzzle, found,
                   checker.label)


def _suspects(reading: Reading, solver) -> list[Suspect]:
    """The cells whose second-best reading (a digit, or blank) makes the puzzle unique."""
    from sudokulab.result import Status

    givens = list(reading.puzzle.givens)
    order = sorted(range(len(givens)), key=lambda i: reading.confidence[i])[:SUSPECTS]
    suspects = []
    for cell in order:
        options = [reading.second[cell], 0] if givens[cell] else []
        for instead in options:
            changed = givens[:cell] + [instead] + givens[cell + 1:]
            result = solver.solve(reading.puzzle.with_values(changed), limit=2)
            if result.status == Status.UNIQUE:
                suspects.append(Suspect(cell, givens[cell], instead))
                break
    return suspects


# --- pictures for people -----------------------------------------------------------------

def _pictures(image, ink, corners, square, across, down, found, givens) -> dict:
    """The intermediate images --debug writes: threshold, contour, warped grid, cells."""
    outline = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    cv2.polylines(outline, [np.int32(corners)], True, (0, 0, 255), 3)
    for x, y in np.int32(corners):
        cv2.circle(outline, (int(x), int(y)), 8, (0, 200, 0), -1)
    return {"1-threshold": ink, "2-contour": outline, "3-warped": square,
            "4-lines": cv2.max(across, down), "5-cells": _mosaic(found, givens)}


def _mosaic(found: list[C.Cell], givens: list[int]) -> np.ndarray:
    """Every normalised cell in grid order, labelled with what was read."""
    n = round(len(found) ** 0.5)
    tile = 2 * C.PATCH
    board = np.full((n * tile, n * tile), 40, np.uint8)
    for i, cell in enumerate(found):
        r, c = divmod(i, n)
        if cell.patch is not None:
            board[r * tile:r * tile + C.PATCH, c * tile:c * tile + C.PATCH] = cell.patch * 255
            cv2.putText(board, CLASSES[givens[i] - 1], (c * tile + C.PATCH + 4, r * tile + 56),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.8, 255, 2)
    return board


def write_pictures(reading: Reading, folder: str | Path) -> list[Path]:
    """Write the debug images as PNG files into a folder (made if needed)."""
    return files.write_pictures(reading.debug, folder)


def overlay(image: np.ndarray, reading: Reading, verdict: Verdict) -> np.ndarray:
    """The photo with the verdict's solution written into the blank cells of the puzzle
    finally read (a misread given that was corrected away gets its digit drawn too)."""
    puzzle, solution = verdict.puzzle or reading.puzzle, verdict.solution
    if solution is None:
        raise ValueError("no solution to draw: the verdict has none")
    n, side = puzzle.n, G.SIDE
    layer = np.zeros((side, side), np.uint8)
    step = side / n
    scale = step / 40
    for i, digit in enumerate(solution):
        if puzzle.givens[i]:
            continue
        r, c = divmod(i, n)
        text = CLASSES[digit - 1]
        (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        corner = (round(c * step + (step - w) / 2), round(r * step + (step + h) / 2))
        cv2.putText(layer, text, corner,
                    cv2.FONT_HERSHEY_SIMPLEX, scale, 255, max(1, round(2 * scale)), cv2.LINE_AA)
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    back = cv2.getPerspectiveTransform(square, np.float32(reading.corners))
    height, width = image.shape[:2]
    alpha = cv2.warpPerspective(layer, back, (width, height)).astype(np.float32)[..., None] / 255
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    ink = np.array([200, 60, 0], np.float32)  # blue, unlike the print
    return (colour * (1 - alpha) + ink * alpha).astype(np.uint8)
