"""Train the digit classifier from fonts and real photos, offline, deterministically.

Every training sample is one cell as the reader sees it after straightening a photo: a
symbol in a training font (fonts.TRAINING; fonts.HELD_OUT are never used here) at a random
size and offset, with the cell's lines around it, on grey paper, then made thicker or
thinner, turned and sheared a little, lit unevenly, blurred and made noisy. The same
cells.read_cell that reads photos finds and normalises the digit, so training and reading
see the same kind of patch. A scikit-learn perceptron learns from their features; its
weights go to digits.npz with the feature scaling, for model.py's numpy forward pass.

Fonts alone misread newsprint (1 for 4, 8 for 9): when Wicht's newspaper photos are at
hand (--data FOLDER or $SUDOKULAB_WICHT, see wicht.py), the digits of its 160 TRAINING
photos are added, each as read and in AUGMENTED more versions (turned, scaled, shifted,
blurred, lit, noisy, JPEG again). Its 40 test photos are never read here.

Run: python -m sudokulab.vision.train [--samples K] [--data FOLDER] [--out PATH]
(`make model`: one thread, a fixed seed, so the same inputs give the same weights)
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sudokulab.errors import GridNotFound
from sudokulab.vision import fonts, wicht
from sudokulab.vision.cells import MARGIN, cut, read_cell
from sudokulab.vision.model import CLASSES, WEIGHTS, features

SEED = 20
SAMPLES = 60      # per font and symbol
HIDDEN = 192
EPOCHS = 60
CELL_SIDES = (36, 48, 64, 96, 144)   # a 16x16, 12x12, 9x9, 6x6 and 4x4 cell of grid.SIDE
AUGMENTED = 8     # more versions of each digit of a real photo
AGREE = 78        # a real photo's cells must be read blank or not as its .dat says, all
                  # but this many, or its grid was found wrong and it teaches nothing


def render_cell(font: Path, text: str, rng: random.Random) -> tuple[np.ndarray, tuple]:
    """One cell with a symbol, as straightened from a photo; and its inner box."""
    side = round(rng.choice(CELL_SIDES) * rng.uniform(0.85, 1.15))
    margin = round(MARGIN * side)
    full = side + 2 * margin
    paper, ink = rng.randint(140, 250), rng.randint(0, 90)
    ink = min(ink, paper - 80)
    image = Image.new("L", (full, full), paper)
    draw = ImageDraw.Draw(image)
    for edge in (margin, margin + side):
        for width in (max(1, round(rng.uniform(0.5, 5) * side / 64)),):
            jitter = [rng.randint(-2, 2) for _ in range(4)]
            draw.line([(0, edge + jitter[0]), (full, edge + jitter[1])], fill=ink, width=width)
            draw.line([(edge + jitter[2], 0), (edge + jitter[3], full)], fill=ink, width=width)
    height = rng.uniform(0.38, 0.8) * side
    face = ImageFont.truetype(str(font), max(6, round(height * 1.35)))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face)
    scale = height / max(1, bottom - top)
    face = ImageFont.truetype(str(font), max(6, round(height * 1.35 * scale)))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face)
    cx = full / 2 + rng.uniform(-0.07, 0.07) * side
    cy = full / 2 + rng.uniform(-0.07, 0.07) * side
    draw.text((cx - (left + right) / 2, cy - (top + bottom) / 2), text, font=face, fill=ink)
    return _photographed(np.asarray(image), side, paper, rng), (margin, margin, side, side)


def _photographed(cell: np.ndarray, side: int, paper: int, rng: random.Random) -> np.ndarray:
    """Stroke weight, a small turn and shear, uneven light, blur, noise."""
    cell = cell.astype(np.float32)
    if rng.random() < 0.3:  # printing heavier or lighter than the font
        k = np.ones((2, 2), np.uint8) if side < 80 else np.ones((3, 3), np.uint8)
        cell = cv2.erode(cell, k) if rng.random() < 0.5 else cv2.dilate(cell, k)
    full = cell.shape[0]
    turn = cv2.getRotationMatrix2D((full / 2, full / 2), rng.uniform(-2.5, 2.5),
                                   rng.uniform(0.95, 1.05))
    turn[0, 1] += rng.uniform(-0.08, 0.08)
    cell = cv2.warpAffine(cell, turn, (full, full), borderValue=paper)
    ys, xs = np.mgrid[0:full, 0:full].astype(np.float32) / full
    angle = rng.uniform(0, 2 * np.pi)
    cell *= 1 - rng.uniform(0, 0.35) * (np.cos(angle) * xs + np.sin(angle) * ys + 1) / 2
    sigma = rng.uniform(0.2, 1.6) * side / 64
    cell = cv2.GaussianBlur(cell, (0, 0), sigma)
    nprng = np.random.default_rng(rng.randrange(2**32))
    # as += does: the sum in float64, kept in the cell's own type
    cell = (cell + nprng.normal(0, rng.uniform(0, 8), cell.shape)).astype(cell.dtype)
    return np.clip(cell, 0, 255).astype(np.uint8)


def samples(font_names: tuple[str, ...], per_class: int, seed: int
            ) -> tuple[np.ndarray, np.ndarray, int]:
    """Features and labels of rendered cells; and how many the reader missed (blank)."""
    rng = random.Random(seed)
    patches, labels, missed = [], [], 0
    for font in fonts.paths(font_names):
        for label, text in enumerate(CLASSES):
            for _ in range(per_class):
                crop, inner = render_cell(font, text, rng)
                cell = read_cell(crop, inner)
                if cell.patch is None:
                    missed += 1
                    continue
                patches.append(cell.patch)
                labels.append(label)
    return features(patches), np.array(labels), missed


def real_samples(photos: list[Path], seed: int, judge, augmented: int = AUGMENTED
                 ) -> tuple[np.ndarray, np.ndarray, int]:
    """Features and labels of the digits of real photos, each with `augmented` more
    versions; and how many photos were left out (their grid not found as their .dat says).
    judge: features to class probabilities, to tell which way up a photo was taken."""
    rng = random.Random(seed)
    patches, labels, skipped = [], [], 0
    for photo in photos:
        cells = _real_cells(photo, judge)
        if cells is None:
            skipped += 1
            continue
        for crop, inner, turns, label in cells:
            for copy in range(augmented + 1):
                cell = read_cell(_augmented(crop, rng) if copy else crop, inner)
                if cell.patch is not None:
                    patches.append(np.ascontiguousarray(np.rot90(cell.patch, turns)))
                    labels.append(label - 1)
    return features(patches), np.array(labels), skipped


def _real_cells(photo: Path, judge) -> list[tuple] | None:
    """Each digit's cut cell in a real photo, the turns that make it upright, its label;
    None when the grid found does not match the photo's .dat (blanks in the wrong cells)."""
    from sudokulab.vision import read

    truth = wicht.truth(photo)
    image = cv2.imread(str(photo))
    if image is None:
        raise FileNotFoundError(f"OpenCV cannot read {photo}")
    try:
        square, rows, cols = read.straighten(image, 9)
    except GridNotFound:
        return None
    cells = cut(square, rows, cols)
    found = [read_cell(crop, inner) for crop, inner in cells]
    best = None
    for turns in (0, 1, 2, 3):  # the truth is upright: turn the cells until they agree
        order = np.rot90(np.arange(81).reshape(9, 9), turns).ravel()
        blanks = sum((found[i].patch is not None) == bool(truth[j]) for j, i in enumerate(order))
        read_as = read.turned(found, np.zeros((81, 9)), 9, turns)[0]
        digits = [j for j, cell in enumerate(read_as) if cell.patch is not None and truth[j]]
        named = 0
        if digits:
            guess = judge(features([p for j in digits if (p := read_as[j].patch) is not None]))
            named = sum(int(g[:9].argmax()) + 1 == truth[j] for g, j in zip(guess, digits))
        if best is None or blanks + named > best[0] + best[1]:
            best = (blanks, named, turns, order)
    assert best is not None  # the first turn always sets it
    blanks, _, turns, order = best
    if blanks < AGREE:
        return None
    return [(cells[i][0], cells[i][1], turns, truth[j]) for j, i in enumerate(order)
            if truth[j]]


def _augmented(crop: np.ndarray, rng: random.Random) -> np.ndarray:
    """A real cell as another photo could show it: turned, scaled, shifted, sheared,
    blurred or sharper, lit and contrasted otherwise, noisy, saved as JPEG again."""
    h, w = crop.shape
    paper = float(np.median(crop))
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-4, 4), rng.uniform(0.9, 1.1))
    turn[0, 1] += rng.uniform(-0.1, 0.1)
    turn[:, 2] += [rng.uniform(-0.05, 0.05) * w, rng.uniform(-0.05, 0.05) * h]
    cell = cv2.warpAffine(crop.astype(np.float32), turn, (w, h), borderValue=paper)
    if rng.random() < 0.25:  # print heavier or lighter
        k = np.ones((2, 2), np.uint8)
        cell = cv2.erode(cell, k) if rng.random() < 0.5 else cv2.dilate(cell, k)
    if rng.random() < 0.6:
        cell = cv2.GaussianBlur(cell, (0, 0), rng.uniform(0.3, 1.3))
    contrast, level = rng.uniform(0.5, 1.2), rng.uniform(-30, 30)
    cell = paper + (cell - paper) * contrast + level
    nprng = np.random.default_rng(rng.randrange(2**32))
    cell = np.clip(cell + nprng.normal(0, rng.uniform(0, 7), cell.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        quality = [cv2.IMWRITE_JPEG_QUALITY, rng.randint(25, 85)]
        decoded = cv2.imdecode(cv2.imencode(".jpg", cell, quality)[1], cv2.IMREAD_GRAYSCALE)
        if decoded is None:
            raise RuntimeError("OpenCV could not decode the JPEG it had just encoded")
        cell = decoded
    return cell


def _net(seed: int, epochs: int):
    """The perceptron, untrained."""
    from sklearn.neural_network import MLPClassifier

    return MLPClassifier(hidden_layer_sizes=(HIDDEN,), alpha=1e-3, batch_size=256,
                         learning_rate_init=2e-3, max_iter=epochs, early_stopping=False,
                         random_state=seed)


def train(per_class: int = SAMPLES, seed: int = SEED, out: Path = WEIGHTS,
          photos: Sequence[Path] = ()) -> dict:
    """Render, add the real photos' digits, train, measure on held-out fonts, write the
    weights; the figures."""
    cv2.setNumThreads(1)
    started = time.perf_counter()
    x, y, missed = samples(fonts.TRAINING, per_class, seed)
    skipped, real = 0, 0
    if photos:  # a first net from the fonts alone tells which way up each photo is
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
        first = _net(seed, 20).fit((x - mean) / scale, y)
        rx, ry, skipped = real_samples(list(photos), seed + 2,
                                       lambda f: first.predict_proba((f - mean) / scale))
        x, y, real = np.concatenate([x, rx]), np.concatenate([y, ry]), len(ry)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    net = _net(seed, EPOCHS).fit((x - mean) / scale, y)
    weights = {"mean": mean, "scale": scale, "hidden": net.coefs_[0],
               "hidden_bias": net.intercepts_[0], "out": net.coefs_[1],
               "out_bias": net.intercepts_[1]}
    np.savez_compressed(out, **{k: v.astype(np.float32) for k, v in weights.items()})
    hx, hy, hmissed = samples(fonts.HELD_OUT, max(10, per_class // 4), seed + 1)
    held = float((net.predict((hx - mean) / scale) == hy).mean())
    return {"training samples": len(y), "of them from real photos": real,
            "real photos": len(photos), "real photos left out": skipped,
            "missed while rendering": missed,
            "training accuracy": float(net.score((x - mean) / scale, y)),
            "held-out fonts accuracy": held, "held-out samples": len(hy),
            "held-out missed": hmissed, "seconds": time.perf_counter() - started,
            "bytes": out.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    """Train and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=SAMPLES,
                        help=f"samples per font and symbol (default {SAMPLES})")
    parser.add_argument("--data", metavar="FOLDER",
                        help=f"Wicht's sudoku_dataset (default ${wicht.ENV}); its training "
                             "photos are learnt from, its test photos never read")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--fonts-only", action="store_true",
                        help="train from the fonts alone (the committed model also learnt "
                             "from real photos: without them newsprint is misread)")
    args = parser.parse_args(argv)
    folder = wicht.root(args.data)
    if not folder and not args.fonts_only:
        print(f"train: error: the committed model learns from Wicht's newspaper photos too: "
              f"give --data FOLDER or set ${wicht.ENV} (sudokulab/vision/wicht.py says where "
              f"to get them), or --fonts-only", file=sys.stderr)
        return 2
    if importlib.util.find_spec("sklearn") is None:  # only training needs it, not reading
        print("train: error: training needs scikit-learn: pip install -e '.[model]' (as "
              "make model does)", file=sys.stderr)
        return 2
    photos = wicht.photos(folder, "train") if folder else []
    for key, value in train(args.samples, SEED, args.out, photos).items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
