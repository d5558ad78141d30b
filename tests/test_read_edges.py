"""Issue 36, items 8 and 9: `sudokulab read` at its edges. Each bad image, bad output
path or option that does not fit the photo is one line naming what is wrong, exit code 2,
with no traceback and none of OpenCV's or libpng's own lines; checked through the real
command line (a subprocess: those lines go to file descriptor 2, not to sys.stderr)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudokulab.errors import GridNotFound, ImageError, WrongSize
from sudokulab.puzzle import line_of
from sudokulab.vision import files, fonts, read, synth

FONT = fonts.paths(fonts.HELD_OUT)[0]


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> dict[str, Path]:
    """A 9x9 photo as JPEG and PNG, a 4x4 photo, and cut-short copies, in one folder."""
    folder = tmp_path_factory.mktemp("photos")
    nine = synth.synthetic_photo(synth.nine_by_nine(1), FONT, seed=1)
    four = synth.synthetic_photo(synth.make_puzzle(4, random.Random(1)), FONT, seed=1)
    paths = {"jpg": folder / "photo.jpg", "png": folder / "photo.png",
             "four": folder / "four.png"}
    cv2.imwrite(str(paths["jpg"]), nine.image)
    cv2.imwrite(str(paths["png"]), nine.image)
    cv2.imwrite(str(paths["four"]), four.image)
    for kind in ("jpg", "png"):
        whole = paths[kind].read_bytes()
        paths[f"cut-{kind}"] = folder / f"cut.{kind}"
        paths[f"cut-{kind}"].write_bytes(whole[:len(whole) // 2])
    paths["puzzle"] = line_of(nine.puzzle.givens)
    return paths


def sudokulab(*argv, stdin: bytes = b"", cwd: Path | None = None):
    """Run the command line: its exit code, stdout and stderr."""
    done = subprocess.run([sys.executable, "-m", "sudokulab.cli", *map(str, argv)],
                          input=stdin, capture_output=True, cwd=cwd)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def refused(argv, message: str, stdin: bytes = b"", cwd: Path | None = None) -> None:
    """The command exits 2 with one line on stderr holding the message, and nothing else."""
    code, out, err = sudokulab("read", *argv, stdin=stdin, cwd=cwd)
    assert "Traceback" not in err and "[ WARN" not in err and "libpng" not in err, err
    assert (code, out, err.count("\n")) == (2, "", 1), err
    assert err.startswith("sudokulab: error: ") and message in err, err


# --- images that cannot be read ------------------------------------------------------------

def test_a_text_file_named_like_a_photo(tmp_path):
    (tmp_path / "photo.jpg").write_text("a shopping list\n")
    refused(["photo.jpg"], "photo.jpg: not an image OpenCV can read (", cwd=tmp_path)


def test_an_empty_file(tmp_path):
    (tmp_path / "photo.jpg").write_bytes(b"")
    refused(["photo.jpg"], "photo.jpg: not an image OpenCV can read (empty)", cwd=tmp_path)


def test_a_directory(tmp_path):
    (tmp_path / "adir").mkdir()
    refused(["adir"], "adir: is a directory", cwd=tmp_path)


def test_a_missing_file(tmp_path):
    refused(["nothing.png"], "nothing.png: no such file", cwd=tmp_path)


@pytest.mark.parametrize("kind", ["png", "jpg"])
def test_a_truncated_image(photos, kind):
    refused([photos[f"cut-{kind}"]], f"cut.{kind}: truncated or corrupt image")


def test_a_corrupt_png_with_its_end():
    whole = bytearray(cv2.imencode(".png", np.full((40, 40, 3), 90, np.uint8))[1].tobytes())
    whole[40:60] = b"\x00" * 20  # inside the first chunks: the CRC no longer matches
    with pytest.raises(ImageError, match="x.png: truncated or corrupt image"):
        files.decode(bytes(whole), "x.png")


def test_standard_input_is_read_as_the_image(photos):
    code, out, err = sudokulab("read", "-", "--format", "line",
                               stdin=photos["jpg"].read_bytes())
    assert (code, out, err) == (0, photos["puzzle"] + "\n", "")


def test_standard_input_that_is_no_image():
    refused(["-"], "<stdin>: not an image OpenCV can read (", stdin=b"hello\n")


# --- --box and --size that do not fit the photo --------------------------------------------

def test_a_box_of_another_size_than_the_grid(photos):
    refused([photos["four"], "--box", "3x3"], "--box 3x3 does not fit the grid found (4x4)")


def test_a_size_other_than_the_grid(photos):
    refused([photos["four"], "--size", "9"], "--size 9 does not fit the grid found (4x4)")


def test_a_box_no_grid_the_reader_knows_has(photos):
    refused([photos["four"], "--box", "9x9"], "--box 9x9: a 9x9 box makes a 81x81 grid")


def test_reading_at_a_size_names_the_size_found(photos):
    image = files.load_image(photos["four"])
    with pytest.raises(WrongSize) as caught:
        read.read_image(image, size=9)
    assert (caught.value.asked, caught.value.found) == (9, 4)
    with pytest.raises(GridNotFound) as caught:
        read.read_image(np.full((300, 300, 3), 255, np.uint8), size=9)
    assert not isinstance(caught.value, WrongSize)


# --- output pictures -----------------------------------------------------------------------

@pytest.mark.parametrize("where, message", [
    ("out.txt", "out.txt: OpenCV cannot write .txt images"),
    ("out.exr", "out.exr: OpenCV cannot write .exr images"),
    ("adir", "adir: is a directory"),
    ("missing/out.png", "missing/out.png: no such folder 'missing'"),
    ("notes.txt/out.png", "'notes.txt' is not a folder"),
])
def test_an_overlay_that_cannot_be_written_is_refused_before_reading(tmp_path, where, message):
    (tmp_path / "adir").mkdir()
    (tmp_path / "notes.txt").write_text("notes\n")
    (tmp_path / "photo.jpg").write_text("not even an image\n")  # never read: the path first
    refused(["photo.jpg", "--solve", "--overlay", where], message, cwd=tmp_path)


def test_an_overlay_on_a_full_disk_is_one_line(photos):
    refused([photos["jpg"], "--solve", "--overlay", "/dev/full"],
            "/dev/full: cannot write it (No space left on device)")


def test_a_debug_folder_that_cannot_be_made_is_refused_before_reading(tmp_path):
    (tmp_path / "notes.txt").write_text("notes\n")
    (tmp_path / "photo.jpg").write_text("not even an image\n")
    refused(["photo.jpg", "--debug", "notes.txt"], "notes.txt is not a folder", cwd=tmp_path)
    refused(["photo.jpg", "--debug", "notes.txt/dbg"], "'notes.txt' is not a folder",
            cwd=tmp_path)


def test_overlay_without_solve_is_refused(photos, tmp_path):
    refused([photos["jpg"], "--overlay", tmp_path / "out.png"], "--overlay")
    assert not (tmp_path / "out.png").exists()


def test_the_pictures_written_are_named_on_stderr(photos, tmp_path):
    out, dbg = tmp_path / "solved.jpg", tmp_path / "dbg"
    code, stdout, err = sudokulab("read", photos["png"], "--solve", "--format", "line",
                                  "--overlay", out, "--debug", dbg)
    assert code == 0 and len(stdout.strip()) == 81
    assert f"sudokulab: wrote {out}\n" in err and f"{dbg}" in err
    assert cv2.imread(str(out)).shape == cv2.imread(str(photos["png"])).shape
    assert len(list(dbg.iterdir())) == 6


def test_a_photo_the_human_engine_stalls_on_exits_7(photos):
    # naked singles alone stall on this puzzle (hidden singles finish it): no answer
    code, stdout, err = sudokulab("read", photos["png"], "--solve", "--format", "line",
                                  "-b", "human:upto=naked single")
    assert code == 7 and "Traceback" not in err, err
    code, stdout, err = sudokulab("read", photos["png"], "--solve", "--format", "line",
                                  "-b", "human:upto=hidden single")
    assert code == 0 and len(stdout.strip()) == 81, err


# --- the functions behind them -------------------------------------------------------------

def test_decode_reads_what_encode_wrote_and_names_what_it_cannot():
    pixels = np.random.default_rng(0).integers(0, 255, (30, 40, 3), dtype=np.uint8)
    png = cv2.imencode(".png", pixels)[1].tobytes()
    assert np.array_equal(files.decode(png, "a.png"), pixels)
    for data, message in ((b"", "empty"), (b"hello", "not an image"),
                          (png[:len(png) // 2], r"truncated or corrupt image \(PNG")):
        with pytest.raises(ImageError, match=message):
            files.decode(data, "a.png")


def test_decoding_prints_nothing_on_file_descriptor_2(capfd):
    png = cv2.imencode(".png", np.zeros((50, 50, 3), np.uint8))[1].tobytes()
    broken = png[:30] + b"\x00" * 40 + png[70:]
    with pytest.raises(ImageError):
        files.decode(broken, "b.png")
    assert capfd.readouterr().err == ""


def test_load_image_names_the_problem(tmp_path):
    with pytest.raises(ImageError, match="is a directory"):
        files.load_image(tmp_path)
    with pytest.raises(ImageError, match="no such file"):
        files.load_image(tmp_path / "none.png")


def test_check_picture_path_and_check_folder(tmp_path):
    files.check_picture_path(tmp_path / "fine.png")
    files.check_picture_path(tmp_path / "no-extension")  # written as PNG
    files.check_folder(tmp_path / "new" / "deeper")      # made when written
    (tmp_path / "file").write_text("")
    for bad in (tmp_path / "x.txt", tmp_path, tmp_path / "no" / "x.png",
                tmp_path / "file" / "x.png"):
        with pytest.raises(ImageError):
            files.check_picture_path(bad)
    for bad in (tmp_path / "file", tmp_path / "file" / "sub"):
        with pytest.raises(ImageError, match="is not a folder"):
            files.check_folder(bad)


def test_write_picture_says_why_it_cannot(tmp_path):
    picture = np.zeros((8, 8, 3), np.uint8)
    assert files.write_picture(picture, tmp_path / "a.png").stat().st_size > 0
    with pytest.raises(ImageError, match="cannot write .txt images"):
        files.write_picture(picture, tmp_path / "a.txt")
    with pytest.raises(ImageError, match="No space left"):
        files.write_picture(picture, "/dev/full")
    with pytest.raises(ImageError, match="cannot make the folder"):
        files.write_pictures({"x": picture}, tmp_path / "a.png" / "sub")


def test_an_overlay_of_a_puzzle_without_one_solution_says_it_is_not_written(tmp_path):
    from sudokulab.puzzle import Puzzle

    few = Puzzle((3, 3), synth.nine_by_nine(3).givens[:40] + (0,) * 41)  # several solutions
    shot = synth.synthetic_photo(few, FONT, seed=1, screenshot=True)
    cv2.imwrite(str(tmp_path / "few.png"), shot.image)
    code, _, err = sudokulab("read", "few.png", "--solve", "--overlay", "out.png", cwd=tmp_path)
    assert code == 1 and "out.png not written: the puzzle read has no unique solution" in err
    assert not (tmp_path / "out.png").exists()


def test_an_image_larger_than_any_photo_is_refused_by_its_size():
    """A PNG header of 33000 x 33000 pixels: was 'truncated or corrupt image' (OpenCV stops
    at 2**30 pixels and says nothing), and 20000 x 20000 took 2.4 GB and 10 s."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 33000, 33000, 8, 0, 0, 0, 0)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
           + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))
    with pytest.raises(ImageError, match=r"^big.png: too large to read: 1,089,000,000 pixels"):
        files.decode(png, "big.png")
