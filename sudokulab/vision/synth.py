"""Synthetic photos of puzzles, deterministic from a seed: for the tests and the bench.

A puzzle is printed flat (grey paper, thin and thick lines, clues of several sizes in a
font), then photographed: put on a table at up to 20 degrees of rotation in perspective,
lit unevenly with a shadow, blurred, made noisy and saved as a JPEG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sudokulab.puzzle import Puzzle, box_shape, symbol


# How hard a photo is. "photo": a phone photo of a decent print. "newsprint": grey
# newspaper with greyer ink, a smaller grid in the picture (fewer pixels a cell), more
# blur and noise, harsher JPEG, darker shadow.
class Style(TypedDict):
    """The ranges a printing style's photos are drawn from, and its light's gradient."""

    paper: tuple[int, int]
    ink: tuple[int, int]
    grid: tuple[float, float]
    blur: tuple[float, float]
    noise: tuple[float, float]
    jpeg: tuple[int, int]
    gradient: float


STYLES: dict[str, Style] = {
    "photo": {"paper": (185, 245), "ink": (0, 70), "grid": (0.65, 0.95), "blur": (0.3, 1.4),
              "noise": (1, 6), "jpeg": (35, 90), "gradient": 0.45},
    "newsprint": {"paper": (165, 215), "ink": (40, 95), "grid": (0.45, 0.65),
                  "blur": (0.8, 1.8), "noise": (3, 9), "jpeg": (25, 60), "gradient": 0.55},
}


@dataclass(frozen=True)
class Photo:
    """A synthetic photo, the puzzle it shows and where the grid's corners are."""

    image: np.ndarray            # BGR
    puzzle: Puzzle
    corners: np.ndarray          # 4 x 2: top-left, top-right, bottom-right, bottom-left
    font: str


# --- puzzles ---------------------------------------------------------------------------

def solved_grid(n: int, rng: random.Random) -> list[int]:
    """A random solution grid: the banded pattern, shuffled within its symmetries."""
    rows, cols = box_shape(n)
    bands = [b * rows + r for b in rng.sample(range(cols), cols)
             for r in rng.sample(range(rows), rows)]
    stacks = [s * cols + c for s in rng.sample(range(rows), rows)
              for c in rng.sample(range(cols), cols)]
    digits = rng.sample(range(1, n + 1), n)
    return [digits[(cols * (r % rows) + r // rows + c) % n] for r in bands for c in stacks]


def make_puzzle(n: int, rng: random.Random, clues: float = 0.45) -> Puzzle:
    """A puzzle with a unique solution: cells blanked at random while norvig proves one."""
    from sudokulab.backends import make_backend
    from sudokulab.result import Status

    solver = make_backend("norvig")
    values = solved_grid(n, rng)
    keep = round(clues * n * n)
    for cell in rng.sample(range(n * n), n * n):
        if sum(1 for v in values if v) <= keep:
            break
        digit, values[cell] = values[cell], 0
        if solver.solve(Puzzle(box_shape(n), tuple(values)), limit=2).status != Status.UNIQUE:
            values[cell] = digit
    return Puzzle(box_shape(n), tuple(values))


def nine_by_nine(index: int) -> Puzzle:
    """A 9x9 puzzle from the bundled sudoku10k set."""
    from sudokulab import datasets

    puzzles = datasets.load("sudoku10k")
    return puzzles[index % len(puzzles)]


# --- printing --------------------------------------------------------------------------

def print_flat(puzzle: Puzzle, font: Path, rng: random.Random, *, clean: bool = False,
               style: str = "photo") -> tuple[np.ndarray, np.ndarray]:
    """The puzzle printed flat in grey levels, and its grid's corners in that image."""
    n = puzzle.n
    rows, cols = puzzle.box
    cell = rng.randint(40, 52) if n > 9 else rng.randint(48, 72)
    margin = cell // 2 + rng.randint(0, cell)
    side = n * cell
    paper = 255 if clean else rng.randint(*STYLES[style]["paper"])
    ink = 0 if clean else rng.randint(*STYLES[style]["ink"])
    image = Image.new("L", (side + 2 * margin, side + 2 * margin), paper)
    draw = ImageDraw.Draw(image)
    thin = 1 if clean else rng.choice((1, 1, 2, 2, 3))
    thick = thin if rng.random() < 0.15 else thin + rng.randint(1, 4)
    for k in range(n + 1):
        at = margin + k * cell
        for width, box in ((thin, 1), (thick, rows)):
            if k % box == 0:
                draw.line([(margin, at), (margin + side, at)], fill=ink, width=width)
        for width, box in ((thin, 1), (thick, cols)):
            if k % box == 0:
                draw.line([(at, margin), (at, margin + side)], fill=ink, width=width)
    height = rng.uniform(0.45, 0.75)
    typeface = ImageFont.truetype(str(font), max(8, round(cell * height * 1.35)))
    for index, digit in enumerate(puzzle.givens):
        if digit:
            r, c = divmod(index, n)
            scale = rng.uniform(0.92, 1.08)
            face = typeface if scale > 0.97 and scale < 1.03 else ImageFont.truetype(
                str(font), max(8, round(cell * height * 1.35 * scale)))
            _centre_text(draw, face, symbol(digit),
                         (margin + (c + 0.5) * cell + rng.uniform(-0.05, 0.05) * cell,
                          margin + (r + 0.5) * cell + rng.uniform(-0.05, 0.05) * cell), ink)
    corners = np.array([[margin, margin], [margin + side, margin],
                          [margin + side, margin + side], [margin, margin + side]], np.float32)
    return np.asarray(image), corners


def _centre_text(draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont, text: str,
                 centre: tuple[float, float], ink: int) -> None:
    """Draw text with its ink's bounding box centred on a point."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((centre[0] - (left + right) / 2, centre[1] - (top + bottom) / 2), text,
              font=font, fill=ink)


# --- photographing ---------------------------------------------------------------------

def photograph(flat: np.ndarray, corners: np.ndarray, rng: random.Random, zoom: float = 1.0,
               style: str = "photo") -> tuple[np.ndarray, np.ndarray]:
    """A phone photo of a flat print: perspective, light, shadow, blur, noise, JPEG.

    The grid is kept whole in the picture; zoom scales the picture (a 16x16 needs more
    pixels to be legible, as a person would move the phone closer)."""
    nprng = np.random.default_rng(rng.randrange(2**32))
    width, height = round(rng.randint(820, 1000) * zoom), round(rng.randint(900, 1150) * zoom)
    h, w = flat.shape
    ranges = STYLES[style]
    side = rng.uniform(*ranges["grid"]) * min(width, height)
    angle = np.radians(rng.uniform(-20, 20))
    shift = nprng.uniform(-0.06, 0.06, 2)
    tilt = nprng.uniform(-0.06, 0.06, (4, 2))
    page = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    while True:  # smaller until the grid is inside the picture
        centre = np.array([width / 2, height / 2]) + shift * side
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * side / 2
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        target = square @ turn.T + centre + tilt * side
        homography = cv2.getPerspectiveTransform(page, np.float32(target))
        grid = cv2.perspectiveTransform(corners[None].astype(np.float32), homography)[0]
        if (grid.min() > 10 and grid[:, 0].max() < width - 10
                and grid[:, 1].max() < height - 10):
            break
        side *= 0.95
    tint = np.array([rng.uniform(0.85, 1.0), rng.uniform(0.93, 1.0), 1.0])
    paper = cv2.cvtColor(flat, cv2.COLOR_GRAY2BGR).astype(np.float32) * tint
    table = _table(height, width, nprng)
    photo: np.ndarray = cv2.warpPerspective(paper, homography, (width, height),
                                            flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(np.ones((h, w), np.float32), homography, (width, height))
    photo = photo + table * (1 - cover[..., None])
    photo *= _light(height, width, rng, ranges["gradient"])[..., None]
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(*ranges["blur"]))
    # as += does: the sum in float64, kept in the photo's own type
    photo = (photo + nprng.normal(0, rng.uniform(*ranges["noise"]), photo.shape)).astype(
        photo.dtype)
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(*ranges["jpeg"])])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    if not ok or decoded is None:
        raise RuntimeError("OpenCV could not encode and decode the synthetic photo")
    return decoded, grid


def _table(height: int, width: int, nprng: np.random.Generator) -> np.ndarray:
    """A table top: a colour with a coarse texture."""
    colour = nprng.uniform(30, 160, 3)
    texture = cv2.resize(nprng.normal(0, 18, (height // 16, width // 16, 3)), (width, height))
    return (colour + texture).astype(np.float32)


def _light(height: int, width: int, rng: random.Random, gradient: float) -> np.ndarray:
    """Uneven light: a gradient across the image, and sometimes a soft shadow."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * xs / width + np.sin(angle) * ys / height)
    ramp = (ramp - ramp.min()) / (np.ptp(ramp) or 1)
    light = 1.0 - rng.uniform(0.0, gradient) * ramp
    if rng.random() < 0.5:
        angle = rng.uniform(0, 2 * np.pi)
        edge = (np.cos(angle) * (xs - width * rng.uniform(0.3, 0.7))
                + np.sin(angle) * (ys - height * rng.uniform(0.3, 0.7)))
        shade = 1 / (1 + np.exp(-edge / rng.uniform(8, 40)))
        light *= 1 - rng.uniform(0.2, 0.4) * shade
    return light


def synthetic_photo(puzzle: Puzzle, font: Path, seed: int, *, screenshot: bool = False,
                    style: str = "photo") -> Photo:
    """A photo (or, with screenshot, a clean flat render) of a puzzle in a font."""
    rng = random.Random(seed)
    flat, corners = print_flat(puzzle, font, rng, clean=screenshot, style=style)
    if screenshot:
        return Photo(cv2.cvtColor(flat, cv2.COLOR_GRAY2BGR), puzzle, corners, font.name)
    image, grid = photograph(flat, corners, rng, 1.5 if puzzle.n > 9 else 1.0, style)
    return Photo(image, puzzle, grid, font.name)


def photo_set(count: int, fonts: list[Path], seed: int, sizes=(9,), style: str = "photo"
              ) -> list[Photo]:
    """count photos of puzzles of the given sizes (in turn), fonts in turn, from a seed."""
    rng = random.Random(seed)
    photos = []
    for k in range(count):
        n = sizes[k % len(sizes)]
        puzzle = nine_by_nine(rng.randrange(10**6)) if n == 9 else make_puzzle(n, rng)
        photos.append(synthetic_photo(puzzle, fonts[k % len(fonts)], rng.randrange(2**31),
                                      style=style))
    return photos
