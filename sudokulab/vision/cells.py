"""Cut a straightened grid into cells, tell a blank from a digit, and normalise the digit.

Each cell is cut with a margin (so its lines are inside the cut, away from the digit),
thresholded on its own (so one cell's shadow or faint print does not depend on another's),
and split into connected blobs of ink. The digit is the biggest blob near the middle that
is tall enough, with the nearby pieces of a broken stroke; lines sit at the edges and
fail the test. The digit is then scaled, keeping its shape, into a PATCH x PATCH square,
as the classifier was trained: the same function makes every training sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PATCH = 32        # the normalised digit's square, in pixels
FIT = 24          # the digit's longer side inside it
MARGIN = 0.12     # a cell is cut with this much of its side around it
MIDDLE = (0.22, 0.78)  # a digit's centre lies in this part of the cell, both ways
TALL = 0.25       # a digit is at least this tall, as a part of the cell's side


@dataclass(frozen=True)
class Cell:
    """What was found in one cell: its normalised digit (None if blank) and the blob's box."""

    patch: np.ndarray | None
    box: tuple[int, int, int, int] | None = None   # x, y, w, h in the cut
    doubt: float = 0.0                             # how nearly a blank was a digit (0..1)


def cut(gray: np.ndarray, rows: list[int], cols: list[int]
        ) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Each cell of a straightened grid, row by row, with its margin, and where the cell
    lies in it: top, left, height, width."""
    side = gray.shape[0]
    cells = []
    for top, bottom in zip(rows, rows[1:]):
        for left, right in zip(cols, cols[1:]):
            margin = round(MARGIN * max(bottom - top, right - left))
            y0, x0 = max(0, top - margin), max(0, left - margin)
            y1, x1 = min(side, bottom + margin), min(side, right + margin)
            cells.append((gray[y0:y1, x0:x1], (top - y0, left - x0, bottom - top, right - left)))
    return cells


def read_cell(crop: np.ndarray, inner: tuple[int, int, int, int]) -> Cell:
    """The digit in one cut cell, normalised, or a blank. inner: top, left, height, width."""
    top, left, height, width = inner
    size = min(height, width)
    ink = _ink(crop, size)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    low, high = MIDDLE
    best, best_area, doubt = 0, 0, 0.0
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        cx, cy = (centres[label][0] - left) / width, (centres[label][1] - top) / height
        if not (low < cx < high and low < cy < high) or w > 0.9 * width or h > 0.95 * height:
            continue
        if h < TALL * height:
            doubt = max(doubt, h / (TALL * height))
            continue
        if area > best_area:
            best, best_area = label, area
    if not best:
        return Cell(None, doubt=doubt)
    mask = _digit_mask(labels, stats, best, inner)
    x, y, w, h = cv2.boundingRect(mask)
    return Cell(normalise(crop, mask, (x, y, w, h)), (x, y, w, h))


def _ink(crop: np.ndarray, size: int) -> np.ndarray:
    """Ink as white on black, against the cell's own background, without the grid lines."""
    block = max(11, (size // 2) | 1)
    blurred = cv2.GaussianBlur(crop, (3, 3), 0)
    ink = cv2.adaptiveThreshold(blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                cv2.THRESH_BINARY_INV, block, 10)
    return cv2.subtract(ink, _lines(ink, size))


def _lines(ink: np.ndarray, size: int) -> np.ndarray:
    """The lines in a cut cell: ink longer than any stroke of a digit, widened a little."""
    long = max(9, size)
    across = cv2.morphologyEx(cv2.dilate(ink, np.ones((3, 1), np.uint8)), cv2.MORPH_OPEN,
                              np.ones((1, long), np.uint8))
    down = cv2.morphologyEx(cv2.dilate(ink, np.ones((1, 3), np.uint8)), cv2.MORPH_OPEN,
                            np.ones((long, 1), np.uint8))
    return cv2.dilate(cv2.max(across, down), np.ones((3, 3), np.uint8))


def _digit_mask(labels: np.ndarray, stats: np.ndarray, best: int,
                inner: tuple[int, int, int, int]) -> np.ndarray:
    """The main blob and the pieces near it inside the cell (a broken stroke)."""
    top, left, height, width = inner
    x, y, w, h = stats[best][:4]
    reach = 0.08 * min(height, width)
    keep = [best]
    for label in range(1, len(stats)):
        lx, ly, lw, lh, area = stats[label]
        if label == best or area < 6 or lw > 0.9 * width or lh > 0.95 * height:
            continue
        inside = left <= lx and lx + lw <= left + width and top <= ly and ly + lh <= top + height
        near = (lx < x + w + reach and x - reach < lx + lw
                and ly < y + h + reach and y - reach < ly + lh)
        if inside and near:
            keep.append(label)
    return np.isin(labels, keep).astype(np.uint8) * 255


def normalise(crop: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The digit as ink strength 0..1, scaled to FIT keeping its shape, centred in PATCH."""
    x, y, w, h = box
    background = float(np.median(crop))
    darkest = float(np.percentile(crop[mask > 0], 5))
    strength = np.clip((background - crop.astype(np.float32)) / max(background - darkest, 1),
                       0, 1)
    strength *= cv2.dilate(mask, np.ones((3, 3), np.uint8))[...] / 255
    digit = strength[y:y + h, x:x + w]
    scale = FIT / max(w, h)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    digit = cv2.resize(digit, size, interpolation=cv2.INTER_AREA)
    patch = np.zeros((PATCH, PATCH), np.float32)
    x0, y0 = (PATCH - size[0]) // 2, (PATCH - size[1]) // 2
    patch[y0:y0 + size[1], x0:x0 + size[0]] = digit
    return patch
