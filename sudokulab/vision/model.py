"""The digit classifier: HOG and pixel features, a one-hidden-layer perceptron in numpy.

The weights are committed in digits.npz (made by train.py, `make model`); reading needs
only numpy and OpenCV. Classes are the symbols 1-9 then A-G (16x16 puzzles use letters);
a puzzle of size N keeps the first N classes, so a 9x9 never reads a letter.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from sudokulab.vision.cells import PATCH

WEIGHTS = Path(__file__).with_name("digits.npz")
CLASSES = "123456789ABCDEFG"


def _hog() -> cv2.HOGDescriptor:
    """Gradient histograms: 9 orientations in 8x8 cells, 16x16 blocks every 8 pixels."""
    return cv2.HOGDescriptor((PATCH, PATCH), (16, 16), (8, 8), (8, 8), 9)


HOG = _hog()


def features(patches: list[np.ndarray]) -> np.ndarray:
    """One row of features per normalised digit: its HOG, then its pixels at half size."""
    rows = []
    for patch in patches:
        image = (patch * 255).astype(np.uint8)
        hog = np.asarray(HOG.compute(image)).ravel()
        small = cv2.resize(patch, (PATCH // 2, PATCH // 2), interpolation=cv2.INTER_AREA)
        rows.append(np.concatenate([hog, small.ravel()]))
    return np.array(rows, dtype=np.float32).reshape(len(rows), -1)


class Model:
    """A trained classifier: standardise, one ReLU layer, softmax."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.mean, self.scale = weights["mean"], weights["scale"]
        self.hidden, self.hidden_bias = weights["hidden"], weights["hidden_bias"]
        self.out, self.out_bias = weights["out"], weights["out_bias"]

    def probabilities(self, patches: list[np.ndarray], classes: int = len(CLASSES)
                      ) -> np.ndarray:
        """Each digit's probability of being each of the first `classes` symbols."""
        if not patches:
            return np.zeros((0, classes), np.float32)
        return self.of_features(features(patches), classes)

    def of_features(self, rows: np.ndarray, classes: int = len(CLASSES)) -> np.ndarray:
        """The same from rows of features (model.features)."""
        x = (rows - self.mean) / self.scale
        h = np.maximum(x @ self.hidden + self.hidden_bias, 0)
        logits = (h @ self.out + self.out_bias)[:, :classes]
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)


@lru_cache(maxsize=1)
def load(path: Path = WEIGHTS) -> Model:
    """The committed model."""
    with np.load(path) as data:
        return Model({key: data[key] for key in data.files})
