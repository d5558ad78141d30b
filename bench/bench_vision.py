"""Benchmark of `sudokulab read`: 200 synthetic photos in fonts the model never saw.

Photos of puzzles in every size the reader knows (mostly 9x9), printed in the held-out
fonts (fonts.HELD_OUT) and photographed synthetically (synth.py: up to 20 degrees of
rotation, perspective, uneven light and shadow, blur, noise, JPEG). Measures the share of
cells read right, of grids read entirely right, how many wrong grids the reader flagged
(a low-confidence cell, or a solver engine finding no unique solution), and the CPU time
per image on one core (JPEG decoding included). Writes results/vision.md; exits 0 when
the targets of issue 20 are met.
Run: .venv/bin/python bench/bench_vision.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
from provenance import machine_section
from tabulate import tabulate

from sudokulab.vision import fonts, read, synth

PHOTOS, SEED = 200, 2026
HARD = 100                                # newsprint photos: measured and reported, no target
SIZES = (9, 9, 9, 9, 9, 9, 9, 4, 6, 16)   # 140 9x9, 20 each of 4x4, 6x6, 16x16
CELLS, GRIDS, SECONDS = 0.995, 0.95, 0.3  # issue 20's targets
RESULTS = Path(__file__).resolve().parent.parent / "results" / "vision.md"
MEASURED = ["sudokulab/vision", "bench/bench_vision.py"]


def measure(photos: list[synth.Photo]) -> list[dict]:
    """Read every photo from its JPEG bytes; one record each."""
    records = []
    for photo in photos:
        jpeg = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1]
        started, wall = time.process_time(), time.perf_counter()
        try:
            reading = read.read_image(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
        except ValueError as error:  # no grid found: every cell counts as wrong
            reading, note = None, str(error)
        seconds, wall = time.process_time() - started, time.perf_counter() - wall
        truth = photo.puzzle.givens
        right = (sum(a == b for a, b in zip(reading.puzzle.givens, truth))
                 if reading and reading.puzzle.n == photo.puzzle.n else 0)
        flagged = True
        if reading:
            verdict = read.verify(reading)
            flagged, note = bool(reading.doubtful) or verdict.status != "unique", verdict.status
        records.append({"size": photo.puzzle.n, "font": photo.font, "cells": len(truth),
                        "right": right, "seconds": seconds, "wall": wall,
                        "flagged": flagged, "note": note})
    return records


def summary(records: list[dict]) -> dict:
    """Cell and grid accuracy, flags and times of some records."""
    cells = sum(r["cells"] for r in records)
    wrong = [r for r in records if r["right"] < r["cells"]]
    return {"photos": len(records), "cells": sum(r["right"] for r in records) / cells,
            "grids": 1 - len(wrong) / len(records),
            "wrong grids flagged": f"{sum(r['flagged'] for r in wrong)}/{len(wrong)}",
            "right grids flagged": sum(r["flagged"] for r in records if r not in wrong),
            "cpu s/image": statistics.mean(r["seconds"] for r in records),
            "max cpu s": max(r["seconds"] for r in records)}


def table(groups: dict[str, list[dict]]) -> str:
    """A Markdown table of summaries by group."""
    rows = []
    for name, records in groups.items():
        s = summary(records)
        rows.append([name, s["photos"], f"{s['cells']:.4%}", f"{s['grids']:.1%}",
                     s["wrong grids flagged"], s["right grids flagged"],
                     f"{s['cpu s/image']:.3f}", f"{s['max cpu s']:.3f}"])
    return tabulate(rows, headers=["", "photos", "cells right", "grids right",
                                   "wrong grids flagged", "right grids flagged",
                                   "CPU s/image", "max"], tablefmt="github")


def misses_table(records: list[dict]) -> str:
    """The photos not read entirely right, as a Markdown table (or "none")."""
    misses = [r for r in records if r["right"] < r["cells"]]
    if not misses:
        return "none"
    return tabulate([[r["size"], r["font"], r["cells"] - r["right"], r["flagged"], r["note"]]
                     for r in misses], headers=["size", "font", "cells wrong", "flagged",
                                                "verdict"], tablefmt="github")


def main() -> int:
    """Make the photos, read them, report; 0 when every target is met."""
    cv2.setNumThreads(1)  # one core, as the target says
    made = time.perf_counter()
    photos = synth.photo_set(PHOTOS, fonts.paths(fonts.HELD_OUT), SEED, SIZES)
    made = time.perf_counter() - made
    records = measure(photos)
    total = summary(records)
    hard = measure(synth.photo_set(HARD, fonts.paths(fonts.HELD_OUT), SEED + 1, SIZES,
                                   style="newsprint"))
    hard_sizes = defaultdict(list)
    for r in hard:
        hard_sizes[f"{r['size']}x{r['size']}"].append(r)
    by_size, by_font = defaultdict(list), defaultdict(list)
    for r in records:
        by_size[f"{r['size']}x{r['size']}"].append(r)
        by_font[r["font"]].append(r)
    targets = [
        (f"cells read right >= {CELLS:.1%}", f"{total['cells']:.4%}", total["cells"] >= CELLS),
        (f"grids read right >= {GRIDS:.0%}", f"{total['grids']:.1%}", total["grids"] >= GRIDS),
        (f"CPU seconds per image <= {SECONDS}", f"{total['cpu s/image']:.3f}",
         total["cpu s/image"] <= SECONDS),
    ]
    for name, value, met in targets:
        print(f"vision: {name}: {value} {'PASS' if met else 'FAIL'}")
    lines = [
        "# Reading photos: `sudokulab read` on synthetic photos in held-out fonts", "",
        f"{PHOTOS} photos (seed {SEED}), fonts never used in training: "
        f"{', '.join(Path(f).name for f in fonts.HELD_OUT)}. Rotation up to 20 degrees, "
        "perspective, light gradient and shadow, blur, noise, JPEG quality 35-90 "
        "(`sudokulab/vision/synth.py`). A grid is flagged when a cell is read with "
        f"confidence under {read.LOW} or when norvig finds no unique solution for it.", "",
        "## Targets", "",
        tabulate([[n, v, "PASS" if m else "FAIL"] for n, v, m in targets],
                 headers=["target", "measured", "verdict"], tablefmt="github"), "",
        "## By size", "", table({"all": records, **dict(sorted(by_size.items()))}), "",
        "## By font", "", table(dict(sorted(by_font.items()))), "",
        "## Harder: newsprint (no target)", "",
        f"{HARD} more photos (seed {SEED + 1}) in the `newsprint` style of synth.py: grey "
        "paper and greyer ink, the grid smaller in the picture (fewer pixels a cell), more "
        "blur and noise, JPEG quality 25-60, darker shadows. Reported to show where the "
        "reader stops being reliable, and that it says so (flagged).", "",
        table({"all": hard, **dict(sorted(hard_sizes.items()))}), "",
        "Its grids not read entirely right (verdict: what norvig said of the puzzle read, or "
        "why no grid was found):", "", misses_table(hard), "",
        "## Grids not read entirely right (the 200 above)", "",
        misses_table(records), "",
        f"Making the photos took {made:.1f} s; wall-clock per image "
        f"{statistics.mean(r['wall'] for r in records):.3f} s (CPU time above, one OpenCV "
        "thread).", "",
        *machine_section(f"opencv: {cv2.__version__}", measured=MEASURED),
    ]
    RESULTS.write_text("\n".join(lines) + "\n")
    ok = all(met for _, _, met in targets)
    hs = summary(hard)
    print(f"vision (newsprint, no target): cells {hs['cells']:.4%}, grids {hs['grids']:.1%}, "
          f"wrong grids flagged {hs['wrong grids flagged']}")
    print(f"{'PASS' if ok else 'FAIL'}; wrote {RESULTS}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
