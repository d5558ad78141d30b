"""Issue 36: reading files and standard input honestly at every edge. An endless or binary
input is refused at once in one line, read in bounded chunks; a line that is no UTF-8 is
one bad puzzle, the others read; a bad grid is one bad puzzle, not one per row."""

from __future__ import annotations

import gzip
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab.errors import PuzzleError
from sudokulab.formats import files

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
ROWS = [EASY[r * 9:(r + 1) * 9].replace(".", "0") for r in range(9)]


class Endless(io.RawIOBase):
    """A stream that never ends (/dev/zero's kind), counting the bytes it gave."""

    def __init__(self, pattern: bytes) -> None:
        self.pattern, self.given = pattern, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "an endless stream must be read in chunks"
        self.given += size
        return (self.pattern * (size // len(self.pattern) + 1))[:size]


def outcome(entries: list[files.Entry]) -> list[tuple[int, str, str]]:
    """What a reader answered: each entry's line, its error, and its puzzle's givens."""
    return [(e.line, e.error, e.puzzle and "".join(map(str, e.puzzle.givens)) or "")
            for e in entries]


def both(path: Path) -> tuple[object, object]:
    """What read_file and read_stream answer for the same bytes (or their error)."""
    answers = []
    for read in (lambda: files.read_file(path),
                 lambda: files.read_stream(io.BytesIO(path.read_bytes()), str(path))):
        try:
            answers.append(outcome(read()))
        except PuzzleError as error:
            answers.append(str(error))
    return answers[0], answers[1]


# --- item 4: endless input, read in bounded chunks -------------------------------------

def test_an_endless_line_is_refused_once_it_passes_a_puzzles_limit():
    stream = Endless(b"1")
    with pytest.raises(PuzzleError, match=r"^<stdin>:1: input too long: a line of more "
                                          r"than 1,000,000 characters"):
        files.read_stream(stream)
    assert stream.given <= files.MAX_TEXT + 2 * files.CHUNK


def test_an_endless_stream_of_short_lines_is_refused_at_the_input_limit(monkeypatch):
    monkeypatch.setattr(files, "MAX_INPUT", 10 * files.CHUNK)
    stream = Endless((EASY + "\n").encode())
    with pytest.raises(PuzzleError, match=r"^<stdin>: input too long: more than 655,360 "):
        files.read_stream(stream)
    assert stream.given <= 11 * files.CHUNK


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_is_binary_data_from_a_file_or_a_stream():
    message = "/dev/zero:1: a NUL byte: binary data or UTF-16, not a UTF-8 text of puzzles"
    with pytest.raises(PuzzleError) as from_file:
        files.read_file("/dev/zero")
    with open("/dev/zero", "rb") as zero, pytest.raises(PuzzleError) as from_stream:
        files.read_stream(zero, "/dev/zero")
    assert str(from_file.value) == str(from_stream.value) == message


def test_a_file_of_binary_data_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "noise.bin"
    path.write_bytes(b"\x00" * 5000)
    done = subprocess.run([sys.executable, "-m", "sudokulab.cli", "solve", "--file", str(path)],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"sudokulab: error: {path}:1: a NUL byte: binary data or UTF-16, "
                           f"not a UTF-8 text of puzzles\n")


def test_a_closed_or_failing_standard_input_is_one_error():
    with pytest.raises(PuzzleError, match=r"^<stdin>: cannot read: it is closed$"):
        files.read_stream(None)
    closed = io.BytesIO(EASY.encode())
    closed.close()
    with pytest.raises(PuzzleError, match=r"^<stdin>: cannot read: "):
        files.read_stream(closed)

    class Broken(io.RawIOBase):
        def read(self, size: int = -1) -> bytes:
            raise OSError(5, "Input/output error")

    with pytest.raises(PuzzleError, match=r"^<stdin>: cannot read: Input/output error$"):
        files.read_stream(Broken())


def test_standard_input_is_read_as_bytes_under_its_text_layer():
    data = (EASY + "\n").encode() + b"caf\xe9\n"
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")  # strict, as sys.stdin
    assert [(e.line, e.error) for e in files.read_stream(stdin)] == [
        (1, ""), (2, "<stdin>:2: not UTF-8")]
    assert outcome(files.read_stream(io.StringIO(EASY))) == outcome(files.read_text(EASY))


# --- gzip: still read, the limits on the decompressed text --------------------------------

def test_a_gz_file_is_read_and_a_gzip_bomb_is_refused(tmp_path, monkeypatch):
    good = tmp_path / "p.txt.gz"
    good.write_bytes(gzip.compress((EASY + "\n" + EASY + "\n").encode()))
    assert [e.line for e in files.read_file(good) if e.puzzle] == [1, 2]
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"1" * (20 * files.MAX_TEXT)))  # 20 MB in 20 KB
    with pytest.raises(PuzzleError, match="bomb.txt.gz:1: input too long: a line of more "):
        files.read_file(bomb)
    monkeypatch.setattr(files, "MAX_INPUT", 1000)
    blank = tmp_path / "blank.txt.gz"
    blank.write_bytes(gzip.compress(b"\n" * 100_000))
    with pytest.raises(PuzzleError, match=r"blank.txt.gz: input too long: more than 1,000 "):
        files.read_file(blank)


def test_a_broken_gz_file_is_one_error(tmp_path):
    path = tmp_path / "broken.txt.gz"
    data = gzip.compress((EASY * 100).encode())
    path.write_bytes(data[:20] + b"\xff" * 8 + data[28:])  # zlib's error, no OSError
    with pytest.raises(PuzzleError, match=r"broken.txt.gz: cannot read: .*invalid bit length"):
        files.read_file(path)


# --- item 5: a line that is no UTF-8 is one bad puzzle ----------------------------------

def test_a_line_that_is_no_utf8_is_a_bad_puzzle_and_the_others_are_read(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(EASY.encode() + b"\n# Andr\xe9\n" + EASY.encode() + b"\ncaf\xe9 " +
                     EASY.encode() + b"\n# \xc3\xa9t\xc3\xa9\n")
    entries = files.read_file(path)
    assert [(e.line, e.error) for e in entries] == [
        (1, ""), (2, f"{path}:2: not UTF-8"), (3, ""), (4, f"{path}:4: not UTF-8")]
    assert all(e.puzzle for e in entries if not e.error)
    from_file, from_stream = both(path)
    assert from_file == from_stream
    text = path.read_bytes().decode("utf-8", "surrogateescape")  # a C-locale sys.stdin's
    assert outcome(files.read_text(text, str(path))) == from_file


def test_a_row_that_is_no_utf8_makes_its_grid_one_bad_puzzle(tmp_path):
    path = tmp_path / "grids.txt"
    rows = [row.encode() for row in ROWS]
    rows[4] = b"\xe9" + rows[4][1:]
    path.write_bytes(b"\n".join(rows) + b"\n\n" + b"\n".join(r.encode() for r in ROWS) + b"\n")
    assert [(e.line, e.error) for e in files.read_file(path)] == [
        (1, f"{path}:5: not UTF-8"), (11, "")]


@pytest.mark.parametrize("nul", [True, False])
def test_binary_data_gives_one_answer_from_a_file_and_from_a_stream(tmp_path, nul):
    noise = random.Random(36).randbytes(10_000)
    path = tmp_path / "noise.bin"
    path.write_bytes(noise if nul else noise.replace(b"\x00", b""))
    from_file, from_stream = both(path)
    assert from_file == from_stream
    if nul:
        assert "a NUL byte" in from_file
    else:
        assert all(error for _, error, _ in from_file)  # noise: every entry a bad one


def test_a_multibyte_character_cut_between_chunks_is_still_utf8(tmp_path):
    line = "#" + "é" * files.CHUNK + "\n" + EASY + "\n"  # 'é' is 2 bytes: chunks cut one
    path = tmp_path / "accents.txt"
    path.write_text(line, encoding="utf-8")
    assert [(e.line, e.error) for e in files.read_file(path)] == [(2, "")]


# --- item 12: a bad grid is one bad puzzle, at its first line ---------------------------

def test_a_project_euler_grid_with_a_short_row_is_one_bad_puzzle(tmp_path):
    path = tmp_path / "p096.txt"
    short = ROWS[:3] + [ROWS[3][:8]] + ROWS[4:]
    path.write_text("Grid 01\n" + "\n".join(short) + "\nGrid 02\n" + "\n".join(ROWS) + "\n")
    entries = files.read_file(path)
    assert [e.line for e in entries] == [2, 12]
    assert entries[0].error.startswith(f"{path}:2: ") and entries[1].puzzle


def test_a_grid_block_with_a_long_row_is_one_bad_puzzle(tmp_path):
    path = tmp_path / "grids.txt"
    long = ROWS[:3] + [ROWS[3] + "1"] + ROWS[4:]
    path.write_text("\n".join(long) + "\n\n" + EASY + "\n")
    entries = files.read_file(path)
    assert [e.line for e in entries] == [1, 11]
    assert entries[0].error.startswith(f"{path}:1: ") and entries[1].puzzle
    path.write_text("\n".join([EASY, EASY[:-1], EASY, "12345"]) + "\n")  # lines, not rows
    assert [(e.line, bool(e.puzzle)) for e in files.read_file(path)] == [
        (1, True), (2, False), (3, True), (4, False)]


def test_a_samurai_under_a_stray_line_is_one_bad_puzzle_naming_it(tmp_path):
    board = (Path(__file__).parent / "data" / "samurai.txt").read_text()
    path = tmp_path / "samurai.txt"
    path.write_text("my samurai\n" + board)
    [entry] = files.read_file(path)
    assert entry.puzzle is None and entry.line == 1
    assert entry.error == (f"{path}: samurai: line 1: 'my samurai' stands before the board, "
                           f"where only '#' comment lines may")


def test_a_sadman_file_on_standard_input_is_read_as_one_not_as_json():
    text = "[Puzzle]\n" + "\n".join(ROWS) + "\n[State]\n" + "\n".join(ROWS) + "\n"
    [entry] = files.read_stream(io.BytesIO(text.encode()))
    assert entry.line == 2 and entry.puzzle is not None


def test_short_hodoku_lines_are_puzzles_of_their_own_not_the_rows_of_a_grid(tmp_path):
    line = ":0000:x:................:::"  # an empty 4x4 as HoDoKu writes it: 20 characters
    path = tmp_path / "two.txt"
    path.write_text(f"{line}\n{line}\n")
    entries = files.read_file(path)
    assert [entry.line for entry in entries] == [1, 2]
    assert all(entry.puzzle is not None and entry.puzzle.n == 4 for entry in entries)


def test_file_dash_is_standard_input(monkeypatch):
    import io

    from sudokulab.formats import files

    text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    entries = files.read_file("-")
    assert len(files.puzzles(entries)) == 1
