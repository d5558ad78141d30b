"""Find the grid in a photo, straighten it, and find its size and its lines.

The grid is the largest four-sided outline in the thresholded image; a homography maps it
onto a square. In the square the lines run straight, so long thin openings find them,
their positions give the size (4, 6, 9 or 16: the largest whose every line is there) and
the exact cell boundaries, which absorb what the corners got slightly wrong.
"""

from __future__ import annotations

import cv2
import numpy as np

from sudokulab.errors import GridNotFound

SIDE = 576          # the straightened grid, in pixels: 4, 6, 9 and 16 cells divide it
DETECT = 1000       # photos are shrunk to at most this many pixels a side to find the grid
SIZES = (16, 9, 6, 4)
CANDIDATES = 8      # the largest outlines tried as the grid
GAP = 9             # pixels: breaks in a faint line that are closed
LINE = 0.4          # a grid's lines cover this much of the square's side (the median)...
WEAKEST = 0.12      # ...and each at least this much (a faint one, broken up)
BETWEEN = 0.9       # halfway between two lines, no run this long (digits in a column can
                    # chain up through the lines they cross, but not this far)



def gray_of(image: np.ndarray) -> np.ndarray:
    """The image in grey levels."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def threshold(gray: np.ndarray, contrast: int = 7) -> np.ndarray:
    """Ink as white on black: darker by `contrast` than its neighbourhood (so uneven light
    and shadows do not matter)."""
    block = max(15, (min(gray.shape) // 25) | 1)
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    return cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                 cv2.THRESH_BINARY_INV, block, contrast)


def outlines(gray: np.ndarray, contrast: int = 7, close: int = 3
             ) -> tuple[list[np.ndarray], np.ndarray]:
    """Four-sided outlines that may be the grid, largest first (corners ordered top-left,
    top-right, bottom-right, bottom-left), and the thresholded photo.

    The page's own edge or a frame around the grid can be larger than the grid: the
    caller straightens each and keeps one whose lines make a grid. A higher contrast
    keeps a faint grid apart from a noisy table it would otherwise touch; a wider
    closing joins up a faint grid whose lines the threshold broke into dashes."""
    scale = min(1.0, DETECT / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ink = threshold(small, contrast)
    closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((close, close), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    # Hulls, not contours: a grid whose faint border breaks up has a contour that winds
    # into the grid through the gaps, but its hull is still the grid's outline.
    hulls = sorted((cv2.convexHull(c) for c in contours), key=cv2.contourArea, reverse=True)
    least = 0.03 * small.shape[0] * small.shape[1]
    quads = []
    for hull in hulls[:CANDIDATES]:
        if cv2.contourArea(hull) < least:
            break
        quad = _quadrilateral(hull)
        if quad is not None:
            quads.append(_ordered(quad) / scale)
    return quads, ink


def _quadrilateral(hull: np.ndarray) -> np.ndarray | None:
    """Four corners approximating a convex hull, if it has four sides."""
    perimeter = cv2.arcLength(hull, True)
    for epsilon in (0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
            if sides.min() > 0.4 * sides.max():  # a square seen at an angle, not a sliver
                return quad
            return None
    return None


def _ordered(quad: np.ndarray) -> np.ndarray:
    """Corners in the order top-left, top-right, bottom-right, bottom-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise on screen, starting anywhere
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)


def warp(gray: np.ndarray, corners: np.ndarray, side: int = SIDE) -> np.ndarray:
    """The grid straightened onto a side x side square."""
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    homography = cv2.getPerspectiveTransform(np.float32(corners), square)
    return cv2.warpPerspective(gray, homography, (side, side), flags=cv2.INTER_AREA)


def line_masks(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The horizontal and the vertical lines of a straightened grid's ink.

    Ink is widened across a line (a line a pixel off straight stays one line) and closed
    along it (faint thin print breaks up), then only runs longer than any digit are kept."""
    side = ink.shape[0]
    long = side // 5  # shorter than a 16x16's box side: thin lines break at thick ones
    rows = cv2.dilate(ink, np.ones((3, 1), np.uint8))
    rows = cv2.morphologyEx(rows, cv2.MORPH_CLOSE, np.ones((1, GAP), np.uint8))
    cols = cv2.dilate(ink, np.ones((1, 3), np.uint8))
    cols = cv2.morphologyEx(cols, cv2.MORPH_CLOSE, np.ones((GAP, 1), np.uint8))
    horizontal = cv2.morphologyEx(rows, cv2.MORPH_OPEN, np.ones((1, long), np.uint8))
    vertical = cv2.morphologyEx(cols, cv2.MORPH_OPEN, np.ones((long, 1), np.uint8))
    return horizontal, vertical


def size_and_lines(horizontal: np.ndarray, vertical: np.ndarray, size: int | None = None
                   ) -> tuple[int, list[int], list[int]]:
    """The grid's size and where its lines are (rows, then columns, borders included).

    The size is the largest of SIZES whose every inner line is found with no line
    halfway between two of them; or the size given, if its lines are there."""
    across = horizontal.mean(axis=1) / 255  # how much of each row is line
    down = vertical.mean(axis=0) / 255
    for n in (size,) if size else SIZES:
        rows, cols = _lines(across, n), _lines(down, n)
        if rows and cols:
            return n, rows, cols
    raise GridNotFound("the grid's lines do not divide it into "
                       + (f"{size} cells a side" if size else "4, 6, 9 or 16 cells a side"))


def _lines(profile: np.ndarray, n: int) -> list[int] | None:
    """Where the n + 1 lines of a profile are; None unless the inner ones are there (most
    of them strong, none missing: a faint thin line breaks up) and no line lies halfway
    between two. (The borders are the outline itself, which the warp may cut into.)"""
    side = len(profile)
    reach = max(2, side // (n * 6))
    found, strengths = [0], []
    for k in range(1, n):
        expected = round(k * side / n)
        start = max(0, expected - reach)
        window = profile[start:expected + reach + 1]
        strengths.append(float(window.max()))
        peak = np.flatnonzero(window == window.max())
        found.append(start + int(peak.mean()))
    found.append(side)
    if min(strengths) < WEAKEST or np.median(strengths) < LINE:
        return None
    halfway = [(a + b) // 2 for a, b in zip(found, found[1:])]
    if any(profile[max(0, h - 2):h + 3].max() > BETWEEN for h in halfway):
        return None
    return found
