"""Issue 20: reading a puzzle from a photo. Photos are made here (synth.py) in fonts the
model never saw, in every size the reader knows; a read that is not unique names its
likely misreads; the command's bad input is one line and exit code 2."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudokulab.check import check
from sudokulab.cli import main
from sudokulab.errors import InputError
from sudokulab.puzzle import Puzzle, box_shape, line_of
from sudokulab.vision import cells, fonts, grid, model, read, synth, train, wicht

HELD_OUT = fonts.paths(fonts.HELD_OUT)
SIZES = (9, 4, 6, 9, 16, 9)


@pytest.fixture(scope="module")
def photos() -> list[synth.Photo]:
    """Twelve photos: every size, every held-out font."""
    return synth.photo_set(12, HELD_OUT, seed=2020, sizes=SIZES)


@pytest.fixture(scope="module")
def readings(photos) -> list[read.Reading]:
    """What the reader makes of each photo."""
    return [read.read_image(photo.image) for photo in photos]


def test_training_never_sees_the_fonts_the_tests_use():
    assert not set(fonts.TRAINING) & set(fonts.HELD_OUT)
    assert {photo.name for photo in HELD_OUT} == {name.split("/")[-1] for name in fonts.HELD_OUT}


def test_every_photo_in_a_held_out_font_reads_exactly(photos, readings):
    assert {p.puzzle.n for p in photos} == {4, 6, 9, 16}
    assert {p.font for p in photos} == {f.name for f in HELD_OUT}
    for photo, reading in zip(photos, readings):
        assert reading.puzzle == photo.puzzle, photo.font
        assert reading.puzzle.box == box_shape(photo.puzzle.n)


def test_the_grid_is_found_where_it_is(photos, readings):
    for photo, reading in zip(photos, readings):
        side = np.linalg.norm(photo.corners[0] - photo.corners[1])
        assert np.abs(reading.corners - photo.corners).max() < 0.02 * side


def test_sixteen_by_sixteen_reads_letters(photos, readings):
    big = [(p, r) for p, r in zip(photos, readings) if p.puzzle.n == 16]
    assert big and all(max(r.puzzle.givens) > 9 for _, r in big)
    assert all(r.puzzle == p.puzzle for p, r in big)


def test_a_clean_screenshot_reads_exactly():
    rng = random.Random(5)
    for n, font in ((9, HELD_OUT[4]), (6, HELD_OUT[1])):
        puzzle = synth.nine_by_nine(77) if n == 9 else synth.make_puzzle(n, rng)
        shot = synth.synthetic_photo(puzzle, font, seed=9, screenshot=True)
        assert read.read_image(shot.image).puzzle == puzzle


def test_a_read_puzzle_is_checked_by_a_solver_engine(photos, readings):
    verdict = read.verify(readings[0], "sat")
    assert verdict.status == "unique" and verdict.backend == "sat"
    assert not check(photos[0].puzzle, verdict.solution)
    assert read.verify(readings[0], "norvig").solution == verdict.solution


def test_confident_reads_are_not_flagged(readings):
    assert all(not reading.doubtful for reading in readings)
    assert all(len(r.confidence) == r.puzzle.cell_count for r in readings)


def _misread(reading: read.Reading, cell: int, digit: int) -> read.Reading:
    """The same reading with one cell read as another digit, with little confidence."""
    givens, confidence, second = (list(x) for x in
                                  (reading.puzzle.givens, reading.confidence, reading.second))
    givens[cell], second[cell], confidence[cell] = digit, givens[cell], 0.55
    return read.Reading(reading.puzzle.with_values(givens), tuple(confidence), tuple(second),
                        reading.corners)


def test_a_misread_that_leaves_no_solution_names_the_cell(photos, readings):
    reading = readings[0]
    solution = read.verify(reading).solution
    cell = next(i for i, d in enumerate(reading.puzzle.givens) if d)
    wrong = next(d for d in range(1, 10) if d != reading.puzzle.givens[cell]
                 and not _clashes(reading.puzzle, cell, d))
    verdict = read.verify(_misread(reading, cell, wrong))
    assert verdict.status in ("none", "multiple") and verdict.solution is None
    assert read.Suspect(cell, wrong, solution[cell]) in verdict.suspects
    assert cell in _misread(reading, cell, wrong).doubtful


def _clashes(puzzle: Puzzle, cell: int, digit: int) -> bool:
    """Whether a digit repeats a given in the cell's row, column or box."""
    from sudokulab.geometry import geometry

    return any(puzzle.givens[p] == digit for p in geometry(puzzle.box).peers[cell])


def test_a_blank_read_as_a_digit_is_named(readings):
    reading = readings[0]
    solution = read.verify(reading).solution
    cell = next(i for i, d in enumerate(reading.puzzle.givens) if not d)
    wrong = next(d for d in range(1, 10) if d != solution[cell]
                 and not _clashes(reading.puzzle, cell, d))
    misread = _misread(reading, cell, wrong)
    misread = read.Reading(misread.puzzle, misread.confidence,
                           misread.second[:cell] + (0,) + misread.second[cell + 1:],
                           misread.corners)
    verdict = read.verify(misread)
    assert verdict.status == "none"
    assert read.Suspect(cell, wrong, 0) in verdict.suspects


def test_the_overlay_fills_the_blanks_of_the_puzzle_finally_read(photos, readings):
    from dataclasses import replace

    photo, reading = photos[0], readings[0]
    verdict = read.verify(reading)
    cell = next(i for i, d in enumerate(reading.puzzle.givens) if not d)
    wrong = next(d for d in range(1, 10) if d != verdict.solution[cell])
    first = _misread(reading, cell, wrong)  # a blank first read as a digit, then corrected
    drawn = read.overlay(photo.image, first, verdict)
    assert np.array_equal(drawn, read.overlay(photo.image, reading, verdict))
    as_first_read = read.overlay(photo.image, first, replace(verdict, puzzle=None))
    assert not np.array_equal(drawn, as_first_read)


# --- cells and the model -------------------------------------------------------------------

def test_a_blank_cell_with_lines_and_noise_is_blank_and_a_digit_is_not():
    rng = random.Random(3)
    crop, inner = train.render_cell(HELD_OUT[0], "5", rng)
    found = cells.read_cell(crop, inner)
    assert found.patch is not None and found.patch.shape == (cells.PATCH, cells.PATCH)
    top, left, h, w = inner
    blank = crop.copy()
    blank[top + 3:top + h - 3, left + 3:left + w - 3] = np.median(crop)
    noise = np.random.default_rng(1).normal(0, 4, blank.shape)
    blank = np.clip(blank + noise, 0, 255).astype(np.uint8)
    assert cells.read_cell(blank, inner).patch is None


def test_the_model_is_small_and_keeps_to_the_puzzles_symbols():
    assert model.WEIGHTS.stat().st_size < 3_000_000
    crop, inner = train.render_cell(HELD_OUT[2], "G", random.Random(4))
    patch = cells.read_cell(crop, inner).patch
    net = model.load()
    assert model.CLASSES[int(np.argmax(net.probabilities([patch])[0]))] == "G"
    nine = net.probabilities([patch], 9)
    assert nine.shape == (1, 9) and abs(float(nine.sum()) - 1) < 1e-5


def test_training_samples_are_the_same_from_the_same_seed():
    one = train.samples(fonts.TRAINING[:2], 1, seed=7)
    two = train.samples(fonts.TRAINING[:2], 1, seed=7)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
    assert sorted(set(one[1].tolist())) == list(range(16))


def test_synthetic_photos_are_deterministic():
    a = synth.synthetic_photo(synth.nine_by_nine(1), HELD_OUT[0], seed=11)
    b = synth.synthetic_photo(synth.nine_by_nine(1), HELD_OUT[0], seed=11)
    assert np.array_equal(a.image, b.image)


def test_made_puzzles_are_unique_in_every_size():
    from sudokulab.backends import make_backend

    for n in (4, 6, 16):
        puzzle = synth.make_puzzle(n, random.Random(n))
        assert make_backend("sat").solve(puzzle, limit=2).status.value == "unique"


# --- the command ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def photo_file(tmp_path_factory, photos) -> tuple[str, synth.Photo]:
    """The first photo, saved as a JPEG file."""
    path = tmp_path_factory.mktemp("photos") / "puzzle.jpg"
    cv2.imwrite(str(path), photos[0].image)
    return str(path), photos[0]


def run(capsys, *argv):
    """The command's exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_read_prints_the_puzzle_line(capsys, photo_file):
    path, photo = photo_file
    code, out, err = run(capsys, "read", path, "--format", "line")
    assert (code, out, err) == (0, line_of(photo.puzzle.givens) + "\n", "")


def test_read_json_has_a_confidence_per_cell_and_the_verdict(capsys, photo_file):
    path, photo = photo_file
    code, out, _ = run(capsys, "read", path, "--format", "json", "--solve", "-b", "sat")
    data = json.loads(out)
    assert code == 0 and data["puzzle"] == line_of(photo.puzzle.givens)
    assert len(data["confidence"]) == 9 and all(len(row) == 9 for row in data["confidence"])
    assert data["status"] == "unique" and data["backend"] == "sat"
    assert not check(photo.puzzle, [int(c) for c in data["solution"]])


def test_read_solve_draws_the_solution_and_debug_writes_its_images(capsys, photo_file,
                                                                   tmp_path):
    path, photo = photo_file
    overlay = tmp_path / "solved.png"
    code, out, _ = run(capsys, "read", path, "--solve", "--debug", str(tmp_path / "dbg"),
                       "--overlay", str(overlay))
    assert code == 0 and "solution:" in out and "unique" in out.splitlines()[0]
    names = sorted(p.name for p in (tmp_path / "dbg").iterdir())
    assert names == ["1-threshold.png", "2-contour.png", "3-warped.png", "4-lines.png",
                     "5-cells.png", "6-solution.png"]
    assert cv2.imread(str(tmp_path / "dbg" / "3-warped.png")).shape[:2] == (grid.SIDE,) * 2
    drawn = cv2.imread(str(overlay))
    assert drawn.shape == photo.image.shape and not np.array_equal(drawn, photo.image)


def test_read_reports_a_puzzle_with_several_solutions(capsys, tmp_path):
    puzzle = Puzzle((3, 3), synth.nine_by_nine(3).givens[:40] + (0,) * 41)
    shot = synth.synthetic_photo(puzzle, HELD_OUT[3], seed=1, screenshot=True)
    path = tmp_path / "few.png"
    cv2.imwrite(str(path), shot.image)
    code, out, err = run(capsys, "read", str(path))
    assert code == 1 and "SEVERAL solutions" in out and "several solutions" in err
    with pytest.raises(SystemExit):
        main(["read", "--help"])
    helped = capsys.readouterr().out
    assert re.search(r"\n  1 +no unique solution: none, or several", helped)


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "missing.png", "no such file"),
    (lambda d: _write(d / "notes.png", b"not an image"), "not an image"),
    (lambda d: _image(d / "white.png", np.full((400, 400, 3), 255, np.uint8)), "no grid found"),
    (lambda d: _image(d / "box.png", _rectangle()), "no grid found"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, make, message):
    code, out, err = run(capsys, "read", str(make(tmp_path)))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("sudokulab: error: ") and message in err


def test_bad_options_are_one_line_and_exit_2(capsys, photo_file):
    path, _ = photo_file
    for argv in (["--size", "7"], ["--size", "9", "--box", "2x3"], ["--backend", "nope"]):
        code, _, err = run(capsys, "read", path, *argv)
        assert code == 2 and err.startswith("sudokulab: error: ") and err.count("\n") == 1


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def _image(path, pixels: np.ndarray):
    cv2.imwrite(str(path), pixels)
    return path


def _rectangle() -> np.ndarray:
    """A black frame on white: four-sided, but no grid inside."""
    pixels = np.full((500, 500, 3), 255, np.uint8)
    cv2.rectangle(pixels, (60, 60), (440, 440), (0, 0, 0), 4)
    return pixels


def test_the_command_line_imports_no_opencv():
    probe = ("import sys, sudokulab.cli\n"
             "from sudokulab.cli import build_parser\nbuild_parser('read')\n"
             "print(sorted(m for m in ('cv2', 'numpy', 'PIL') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


# --- issue 33: turned photos, the solver correction, real newspaper photos -----------------

PHOTOS = Path(__file__).parent / "data" / "photos"


def test_a_photo_taken_sideways_or_upside_down_reads_upright(photos, readings):
    for index, turns in ((0, 1), (0, 2), (0, 3), (2, 2)):  # a 9x9 three ways, a 6x6 by half
        photo = photos[index]
        reading = read.read_image(np.ascontiguousarray(np.rot90(photo.image, turns)))
        assert reading.puzzle == photo.puzzle and reading.turns == -turns % 4, (index, turns)
    assert photos[2].puzzle.n == 6 and all(r.turns == 0 for r in readings)


def _likely_misread(reading: read.Reading, cell: int, digit: int) -> read.Reading:
    """The reading with one cell read as another digit, the true one its runner-up."""
    true = reading.puzzle.givens[cell]
    likelihood = reading.likelihood.copy()
    likelihood[cell] = 0.0
    likelihood[cell, digit - 1], likelihood[cell, true - 1] = 0.6, 0.35
    misread = _misread(reading, cell, digit)
    return read.Reading(misread.puzzle, misread.confidence, misread.second, misread.corners,
                        likelihood=likelihood)


def test_a_misread_is_corrected_and_confirmed_by_another_paradigm(photos, readings):
    reading = readings[0]
    cell = next(i for i, d in enumerate(reading.puzzle.givens) if d)
    wrong = next(d for d in range(1, 10) if d != reading.puzzle.givens[cell]
                 and _clashes(reading.puzzle, cell, d))
    verdict = read.verify(_likely_misread(reading, cell, wrong))
    assert verdict.status == "unique" and verdict.puzzle == photos[0].puzzle
    assert verdict.confirmed == "sat" and verdict.backend == "norvig"
    (change,) = verdict.correction.changes
    assert (change.cell, change.first, change.now) == (cell, wrong, photos[0].puzzle.givens[cell])
    assert change.chance == pytest.approx(0.35)
    assert not check(photos[0].puzzle, verdict.solution)


def test_two_misreads_are_corrected_together(photos, readings):
    reading, truth = readings[3], photos[3].puzzle
    digits = [i for i, d in enumerate(truth.givens) if d]
    misread = reading
    for cell in digits[:2]:
        wrong = next(d for d in range(1, 10) if d != truth.givens[cell]
                     and _clashes(truth, cell, d))
        misread = _likely_misread(misread, cell, wrong)
    verdict = read.verify(misread)
    assert verdict.puzzle == truth and len(verdict.correction.changes) == 2


def test_the_correction_gives_up_when_no_reading_is_unique(readings):
    reading = readings[0]
    few = reading.puzzle.with_values(reading.puzzle.givens[:40] + (0,) * 41)
    likelihood = reading.likelihood.copy()
    likelihood[40:] = 0
    verdict = read.verify(read.Reading(few, reading.confidence, reading.second,
                                       reading.corners, likelihood=likelihood), seconds=0.2)
    assert verdict.status == "multiple" and verdict.correction is None
    assert verdict.puzzle is None


def test_read_says_which_cells_it_read_otherwise(capsys, photo_file, monkeypatch):
    path, photo = photo_file
    truth, first = photo.puzzle, read.read_image
    cell = next(i for i, d in enumerate(truth.givens) if d)
    wrong = next(d for d in range(1, 10) if d != truth.givens[cell] and _clashes(truth, cell, d))
    monkeypatch.setattr(read, "read_image",
                        lambda *a, **k: _likely_misread(first(*a, **k), cell, wrong))
    code, out, err = run(capsys, "read", path, "--format", "line")
    r, c = divmod(cell, 9)
    assert code == 0 and out == line_of(truth.givens) + "\n"
    assert (f"read 1 cell differently than first seen: r{r + 1}c{c + 1} {wrong}\u2192"
            f"{truth.givens[cell]}") in err and "sat confirms" in err
    code, out, _ = run(capsys, "read", path, "--format", "json")
    data = json.loads(out)
    assert data["puzzle"] == line_of(truth.givens) and data["confirmed"] == "sat"
    assert data["corrections"][0]["now"] == truth.givens[cell]
    assert data["first_read"][cell] == str(wrong)


def _real_photos() -> list[Path]:
    """The committed newspaper photos (training photos of Wicht's dataset)."""
    return sorted(PHOTOS.glob("*.jpg"))


def test_the_committed_newspaper_photos_have_their_digits_and_licence():
    assert 3 <= len(_real_photos()) <= 5
    assert "CC-BY-4.0" in (PHOTOS / "README.md").read_text()
    train_list = set((PHOTOS / "README.md").read_text().split())
    for photo in _real_photos():
        assert len(wicht.truth(photo)) == 81 and f"images/{photo.name}" in train_list


@pytest.mark.parametrize("photo", _real_photos(), ids=lambda p: p.stem)
def test_a_newspaper_photo_reads_right(photo):
    reading = read.read_image(cv2.imread(str(photo)))
    verdict = read.verify(reading)
    assert verdict.status == "unique"
    assert verdict.puzzle.givens == wicht.truth(photo)
    assert not check(verdict.puzzle, verdict.solution)


def test_the_dataset_is_found_where_it_is_said_to_be(tmp_path, monkeypatch):
    monkeypatch.delenv(wicht.ENV, raising=False)
    assert wicht.root() is None
    monkeypatch.setenv(wicht.ENV, str(tmp_path))
    assert wicht.root() == tmp_path and wicht.root("elsewhere") == Path("elsewhere")
    with pytest.raises(InputError, match="not Wicht's sudoku_dataset"):
        wicht.photos(tmp_path, "test")


def test_real_training_samples_are_the_same_from_the_same_seed():
    photo = _real_photos()[:1]
    judge = model.load().of_features
    one = train.real_samples(photo, 3, judge, augmented=1)
    two = train.real_samples(photo, 3, judge, augmented=1)
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
    digits = [d for d in wicht.truth(photo[0]) if d]
    assert one[2] == 0 and 1.8 * len(digits) <= len(one[1]) <= 2 * len(digits)
    assert set(one[1].tolist()) == {d - 1 for d in digits}  # every digit, as the .dat says
