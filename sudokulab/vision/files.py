"""Image files in and out, with one honest line for each way they can fail.

OpenCV says little when it cannot read or write: imdecode answers None, imencode raises a
cv2.error for an extension it has no encoder for, and its logger and the native libraries
under it (libpng, libjpeg) print straight to file descriptor 2. So the bytes are read
here (a file, or '-' for standard input), checked for a known image's start and end,
decoded with descriptor 2 silenced, and output paths are checked before any work.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from sudokulab.errors import ImageError, descriptor_to

STDIN = "-"            # the image argument that means standard input
STDIN_NAME = "<stdin>"  # its name in messages, as the puzzle readers name it
DEFAULT_SUFFIX = ".png"  # an output path without an extension is written as PNG

# The start of each kind of image OpenCV decodes, and the bytes a whole file of that kind
# holds (PNG's last chunk, JPEG's end of image): a file that starts as one and lacks them
# was cut short. None: the kind has no such mark checked here.
KINDS = (
    (b"\x89PNG\r\n\x1a\n", "PNG", b"IEND"),
    (b"\xff\xd8\xff", "JPEG", b"\xff\xd9"),
    (b"II*\x00", "TIFF", None),
    (b"MM\x00*", "TIFF", None),
    (b"RIFF", "WebP", None),
)



@contextmanager
def quiet() -> Iterator[None]:
    """Silence OpenCV's logger and what libpng or libjpeg print on file descriptor 2
    (neither goes through sys.stderr, so redirecting that would not do)."""
    logging = cv2.utils.logging
    level = logging.setLogLevel(logging.LOG_LEVEL_SILENT)  # it answers the level before
    try:
        with open(os.devnull, "w") as null, descriptor_to(2, null.fileno()):
            yield
    finally:
        logging.setLogLevel(level)


# --- reading -------------------------------------------------------------------------------

def load_image(path: str | Path) -> np.ndarray:
    """An image file ('-': standard input) as BGR pixels; ImageError saying why not."""
    if str(path) == STDIN:
        return decode(_stdin_bytes(), STDIN_NAME)
    return decode(_file_bytes(Path(path)), str(path))


MAX_IMAGE = 64 * 1024 * 1024  # bytes of a photo: far above any phone's, far below memory


def _stdin_bytes() -> bytes:
    """Standard input's bytes, read in chunks up to MAX_IMAGE; ImageError if it is closed,
    unreadable or longer."""
    if sys.stdin is None:
        raise ImageError(f"{STDIN_NAME}: cannot read: it is closed")
    chunks, size = [], 0
    try:
        while size <= MAX_IMAGE and (chunk := sys.stdin.buffer.read(1 << 20)):
            chunks.append(chunk)
            size += len(chunk)
    except (OSError, ValueError) as error:
        raise ImageError(f"{STDIN_NAME}: cannot read: {error}") from None
    if size > MAX_IMAGE:
        raise ImageError(f"{STDIN_NAME}: more than {MAX_IMAGE >> 20} MB: no photo is that "
                         f"large")
    return b"".join(chunks)


def _file_bytes(path: Path) -> bytes:
    """A file's bytes; ImageError naming the file and what stops reading it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImageError(f"{path}: is a directory") from None
    except PermissionError:
        raise ImageError(f"{path}: permission denied") from None
    except OSError as error:
        raise ImageError(f"{path}: cannot read it ({error.strerror or error})") from None


def decode(data: bytes, name: str) -> np.ndarray:
    """The BGR pixels of an image's bytes; ImageError naming `name` and what is wrong."""
    if not data:
        raise ImageError(f"{name}: not an image OpenCV can read (empty)")
    kind, end = next(((kind, end) for start, kind, end in KINDS if data.startswith(start)),
                     (None, None))
    if kind and end and end not in data:
        raise ImageError(f"{name}: truncated or corrupt image ({kind} without its end)")
    _refuse_huge(data, name)
    try:
        with quiet():
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    if image is None and kind:
        raise ImageError(f"{name}: truncated or corrupt image ({kind} that does not decode)")
    if image is None:
        raise ImageError(f"{name}: not an image OpenCV can read (PNG, JPEG, TIFF, WebP, ...)")
    return image


def _refuse_huge(data: bytes, name: str) -> None:
    """ImageError for an image whose header gives more pixels than Pillow opens (about 179
    million, above any phone camera's): OpenCV would fail on it as on a corrupt file (past
    2**30 pixels) or take gigabytes. Pillow reads the header only, no pixels."""
    import io
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            Image.open(io.BytesIO(data)).close()
    except Image.DecompressionBombError as error:  # its words: the size and the limit
        sizes = [int(figure) for figure in re.findall(r"\d+", str(error))]
        said = (f"{sizes[0]:,} pixels, more than {sizes[1]:,}" if len(sizes) >= 2
                else str(error))
        raise ImageError(f"{name}: too large to read: {said}; no photo is that large") \
            from None
    except Exception:  # noqa: BLE001 - what Pillow cannot open, OpenCV judges below
        return


# --- writing -------------------------------------------------------------------------------

def check_picture_path(path: str | Path) -> None:
    """ImageError unless a picture can be written at `path`: a kind OpenCV encodes, in a
    folder that is there and writable, not a directory itself. (A full disk shows only
    when writing.)"""
    path = Path(path)
    suffix = path.suffix or DEFAULT_SUFFIX
    if not _encodes(suffix):
        raise ImageError(f"{path}: OpenCV cannot write {suffix} images (use .png or .jpg)")
    if path.is_dir():
        raise ImageError(f"{path}: is a directory")
    folder = path.parent
    if not folder.exists():
        raise ImageError(f"{path}: no such folder {str(folder)!r}")
    if not folder.is_dir():
        raise ImageError(f"{path}: {str(folder)!r} is not a folder")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise ImageError(f"{path}: permission denied")


def check_folder(folder: str | Path) -> None:
    """ImageError unless `folder` is a folder, or one that can be made, to write into."""
    folder = Path(folder)
    there = folder
    while not there.exists() and there != there.parent:  # the nearest part already there
        there = there.parent
    if not there.is_dir():
        what = folder if there == folder else f"{folder}: {str(there)!r}"
        raise ImageError(f"{what} is not a folder")
    if not os.access(there, os.W_OK):
        raise ImageError(f"{folder}: permission denied")


def _encodes(suffix: str) -> bool:
    """Whether OpenCV has an encoder for images of this extension (tried on a tiny one:
    haveImageWriter itself raises for some, OpenEXR for one)."""
    try:
        with quiet():
            ok, _ = cv2.imencode(suffix, np.zeros((2, 2, 3), np.uint8))
    except cv2.error:
        return False
    return bool(ok)


def write_picture(picture: np.ndarray, path: str | Path) -> Path:
    """Write an image file (its kind from its extension, PNG without one); the path
    written, or ImageError saying why it could not be."""
    path = Path(path)
    suffix = path.suffix or DEFAULT_SUFFIX
    try:
        with quiet():
            ok, data = cv2.imencode(suffix, picture)
    except cv2.error:
        ok = False
    if not ok:
        raise ImageError(f"{path}: OpenCV cannot write {suffix} images (use .png or .jpg)")
    try:
        path.write_bytes(data.tobytes())
    except OSError as error:
        raise ImageError(f"{path}: cannot write it ({error.strerror or error})") from None
    return path


def write_pictures(pictures: dict[str, np.ndarray], folder: str | Path) -> list[Path]:
    """Write named pictures as PNG files into a folder (made if needed); the paths."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ImageError(f"{folder}: cannot make the folder ({error.strerror or error})"
                         ) from None
    return [write_picture(picture, folder / f"{name}.png") for name, picture in pictures.items()]
