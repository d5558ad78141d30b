"""Progress on stderr: a bar with rate and ETA on a terminal, plain periodic lines otherwise."""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import TextIO

BAR = 24
REDRAW = 0.1      # seconds between redraws of the bar on a terminal
EVERY = 10.0      # seconds between plain lines when stderr is a file or a pipe


class Progress:
    """Counts finished puzzles of one backend and shows how far along it is."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None) -> None:
        self.label, self.total, self.done = label, total, 0
        self.stream = stream or sys.stderr
        # a terminal that cannot move the cursor (TERM=dumb) gets the plain lines
        self.tty = self.stream.isatty() and os.environ.get("TERM") != "dumb"
        self.started = self.shown = time.perf_counter()

    def step(self) -> None:
        """One more puzzle finished."""
        self.done += 1
        now = time.perf_counter()
        if self.done == 1:
            self.first = now  # the rate counts from here: engine start-up is not throughput
        if now - self.shown >= (REDRAW if self.tty else EVERY):
            self.shown = now
            self._show(now)

    def finish(self) -> None:
        """The last line, with the total time."""
        elapsed = time.perf_counter() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        line = f"{self.label}: {self.done}/{self.total} in {elapsed:.1f} s ({rate:.1f}/s)"
        self.stream.write(("\r\033[K" if self.tty else "") + line + "\n")
        self.stream.flush()

    def _show(self, now: float) -> None:
        """Draw the bar in place, or print a plain line."""
        rate = (self.done - 1) / (now - self.first) if now > self.first else 0.0
        eta = _clock((self.total - self.done) / rate) if rate else "?"
        figures = f"{self.done}/{self.total}  {rate:.1f}/s  ETA {eta}"
        if self.tty:  # the bar shrinks, then goes, so the line fits the terminal's width
            room = shutil.get_terminal_size().columns - 1
            width = min(BAR, room - len(self.label) - len(figures) - 2)
            filled = width * self.done // max(1, self.total)
            bar = "█" * filled + "░" * (width - filled) + " " if width >= 4 else ""
            self.stream.write(f"\r\033[K{self.label} {bar}{figures}"[:room + 4])
        else:
            self.stream.write(f"{self.label}: {figures}\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    """'1:02:03' or '2:03'."""
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
