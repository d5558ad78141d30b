"""Train the digit classifier from fonts, offline, deterministically: `make model`.

Every training sample is one cell as the reader sees it after straightening a photo: a
symbol in a training font (fonts.TRAINING; fonts.HELD_OUT are never used here) at a random
size and offset, with the cell's lines around it, on grey paper, then made thicker or
thinner, turned and sheared a little, lit unevenly, blurred and made noisy. The same
cells.read_cell that reads photos finds and normalises the digit, so training and reading
see the same kind of patch. A scikit-learn perceptron learns from their features; its
weights go to digits.npz with the feature scaling, for model.py's numpy forward pass.

Run: python -m sudokulab.vision.train [--samples K] [--out PATH]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sudokulab.vision import fonts
from sudokulab.vision.cells import MARGIN, read_cell
from sudokulab.vision.model import CLASSES, WEIGHTS, features

SEED = 20
SAMPLES = 60      # per font and symbol
HIDDEN = 192
CELL_SIDES = (36, 48, 64, 96, 144)   # a 16x16, 12x12, 9x9, 6x6 and 4x4 cell of grid.SIDE


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
    cell += nprng.normal(0, rng.uniform(0, 8), cell.shape)
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


def train(per_class: int = SAMPLES, seed: int = SEED, out: Path = WEIGHTS) -> dict:
    """Render, train, measure on held-out fonts, write the weights; the figures."""
    from sklearn.neural_network import MLPClassifier

    cv2.setNumThreads(1)
    started = time.perf_counter()
    x, y, missed = samples(fonts.TRAINING, per_class, seed)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    net = MLPClassifier(hidden_layer_sizes=(HIDDEN,), alpha=1e-3, batch_size=256,
                        learning_rate_init=2e-3, max_iter=60, early_stopping=False,
                        random_state=seed)
    net.fit((x - mean) / scale, y)
    weights = {"mean": mean, "scale": scale, "hidden": net.coefs_[0],
               "hidden_bias": net.intercepts_[0], "out": net.coefs_[1],
               "out_bias": net.intercepts_[1]}
    np.savez_compressed(out, **{k: v.astype(np.float32) for k, v in weights.items()})
    hx, hy, hmissed = samples(fonts.HELD_OUT, max(10, per_class // 4), seed + 1)
    held = float((net.predict((hx - mean) / scale) == hy).mean())
    return {"training samples": len(y), "missed while rendering": missed,
            "training accuracy": float(net.score((x - mean) / scale, y)),
            "held-out fonts accuracy": held, "held-out samples": len(hy),
            "held-out missed": hmissed, "seconds": time.perf_counter() - started,
            "bytes": out.stat().st_size}


def main(argv: list[str] | None = None) -> int:
    """Train and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=SAMPLES,
                        help=f"samples per font and symbol (default {SAMPLES})")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    for key, value in train(args.samples, SEED, args.out).items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
