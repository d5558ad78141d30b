"""runs.jsonl: one line per puzzle, backend and pass over the puzzles (`--repeat`),
appended and flushed as each one finishes; readers get a puzzle's passes merged.

Whatever is on disk is kept: a run stopped by Ctrl-C or a killed machine loses at most
the line being written, and `--resume` skips every (backend, puzzle, pass) already there.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from sudokulab.formats import json_value
from sudokulab.harness.records import Record, merged

FILENAME = "runs.jsonl"


class RunLog:
    """The records of one run folder, appended line by line."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / FILENAME
        self._file: TextIO | None = None
        self._warned: set[int] = set()

    def read(self) -> list[Record]:
        """Every puzzle's record, its passes merged (records.merge)."""
        return merged(self.lines())

    def lines(self) -> list[Record]:
        """Every complete line on disk, a record of one pass. A line that is no record
        (cut short by a crash, or edited by hand) is dropped with a warning, once: its
        puzzle is solved again."""
        if not self.path.exists():
            return []
        records = []
        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            try:
                records.append(Record.from_json(json_value(line)))
            except (ValueError, KeyError, TypeError, AttributeError):
                self._warn(number)
        return records

    def _warn(self, number: int) -> None:
        """Say once that a line is no record and is skipped."""
        if number not in self._warned:
            self._warned.add(number)
            print(f"sudokulab: warning: {self.path}:{number}: not a result record; "
                  f"skipped (its puzzle is solved again)", file=sys.stderr)

    def done(self, passes: int = 1) -> set[tuple[str, int, int]]:
        """The (backend, puzzle index, pass) triples already recorded, of `passes` passes (a
        line of an older run, which holds all its repeats, stands for every pass)."""
        return {(r.backend, r.index, k) for r in self.lines()
                for k in ([r.repeat] if r.repeat is not None else range(1, passes + 1))}

    def append(self, record: Record) -> None:
        """Write one record as one line and flush it to the operating system."""
        if self._file is None:
            self._file = self._open()
        self._file.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
        self._file.flush()

    def _open(self) -> TextIO:
        """Open for appending, first cutting off a line a crash left unfinished."""
        if self.path.exists():
            data = self.path.read_bytes()
            if data and not data.endswith(b"\n"):
                with self.path.open("r+b") as raw:
                    raw.truncate(data.rfind(b"\n") + 1)
        return self.path.open("a", encoding="utf-8")

    def close(self) -> None:
        """Close the file (appending again reopens it)."""
        if self._file is not None:
            self._file.close()
            self._file = None
