"""How answers are written, in every output format (pretty, line, csv, tsv, json,
fpuzzles, sudokupad): each answer's grids checked by the independent checker (through the
cross-check's `verify`) before they are printed, and the exit code each answer gives.
Commands write answers through here, as they read puzzles through inputs.py."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator

from sudokulab.backends.counting import KEPT_CELLS  # the checker's budget for a count
from sudokulab.errors import (
    INTERRUPTED,
    Exit,
    UsageError,
    descriptor_to,
    error_line,
    stopped_by,
)
from sudokulab.formats import LINKS

FORMATS = """output formats:
  pretty  a headline and each grid found, with box lines (the default)
  line    one line per puzzle: the solution when there is exactly one known (unique, or
          solved with --limit 1), the count with --count, otherwise the status word
          (none, multiple, timeout, unsupported, error, stalled, invalid, bad-input;
          interrupted after Ctrl-C); with --count, a timeout or Ctrl-C prints the count
          so far (>= N), as csv does
  csv, tsv
          one line per puzzle after a header: number, status, count, milliseconds,
          the grids printed (comma-separated lines), message
  json    one JSON object per line (JSON Lines): puzzle, box, givens, rules, backend,
          status, count, exact, solutions, stats, build_time, solve_time, message
  fpuzzles, sudokupad
          one link per puzzle that opens it in the browser, its solution inside when
          exactly one is known; otherwise the status word, as in line
A bad puzzle in a file is reported on stderr with its file and line and skipped (status
bad-input in line, csv, tsv and json); --strict stops there instead. Exit code 2 then."""


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """In the block, what is written to file descriptor 1 goes to stderr: an engine's
    banner or log (native code that prints) never mixes into json, csv or line output."""
    with descriptor_to(1, 2):
        yield


TABLES = ("csv", "tsv")
LINE_FORMATS = ("line", *LINKS)  # one line per puzzle: the solution or a word
HEADLINES = {
    "unique": "unique solution", "multiple": "several solutions",
    "solved": "solved (uniqueness not checked)", "none": "no solution", "timeout": "timeout",
    "unsupported": "unsupported", "error": "error",
    "stalled": "stalled (the techniques found no further step; the grid so far)",
    "interrupted": "interrupted (Ctrl-C), what was found so far",
}
CODES = {"none": Exit.NONE, "timeout": Exit.TIMEOUT, "error": Exit.ENGINE,
         "unsupported": Exit.ENGINE, "stalled": Exit.STALLED}



def grids_kept(entries: list, grids: int) -> int:
    """How many grids a count keeps: those asked (--grids), and as many more as the
    checker's budget holds for the run's biggest puzzle."""
    cells = max((len(e.puzzle.givens) for e in entries if e.puzzle is not None), default=81)
    return max(grids, KEPT_CELLS // cells)


def cut_note(result, kept: int | None):
    """The result saying which of its grids were checked, when the count outran them."""
    from dataclasses import replace

    if kept is None or not len(result.solutions) == kept < result.count:
        return result
    note = f"the first {kept:,} grids kept and checked, the rest counted"
    return replace(result, message="; ".join(filter(None, (result.message, note))))


class Output:
    """Writes each puzzle's answer in the chosen format, after checking its grids."""

    def __init__(self, args: argparse.Namespace, label: str, numbered: bool) -> None:
        from sudokulab.harness.crosscheck import verify
        from sudokulab.puzzle import line_of

        self.verify, self.line_of = verify, line_of
        self.format, self.stats, self.label = args.format, args.stats, label
        self.counting, self.grids = args.count, args.grids
        self.keep: int | None = None  # a count's grids kept (grids_kept; None: all)
        # a folder for certificates (None: none asked)
        self.certify: str | None = getattr(args, "certify", None)
        self.trim: bool = getattr(args, "trim", False)  # the proofs' trimmed cores too
        self.numbered = numbered
        self.answered = 0  # the number of the last puzzle answered (0: none yet)
        self.flushed = time.perf_counter()
        if self.format in TABLES:
            self.emit(self._row(("puzzle", "status", "count", "ms", "grids", "message")))

    def write(self, number: int, puzzle, result, interrupted: bool = False,
              counted: bool = False) -> int:
        """Check and print one answer; its exit code. `counted`: a #SAT count, whose grids
        (--grids) are only some of the solutions counted."""
        shown = result.solutions[:self.grids] if self.counting else result.solutions
        # every grid the backend returned, shown or not (a #SAT count: the grids alone)
        if counted:
            from sudokulab.result import Result, Status

            why = self.verify(puzzle, Result(Status.TIMEOUT, solutions=result.solutions))
        else:
            why = self.verify(puzzle, result, kept=self.keep)
            result = cut_note(result, self.keep)
        self.answered = number
        if why:
            return self._invalid(number, puzzle, result, why)
        value = result.status.value
        self.emit(self._render(number, puzzle, result, shown,
                               "interrupted" if interrupted else value))
        if self.certify and not interrupted:
            return self._certified(number, puzzle, result, CODES.get(value, Exit.OK),
                                   self.certify)
        return CODES.get(value, Exit.OK)

    def _certified(self, number: int, puzzle, result, code: int, folder: str) -> int:
        """Certify and verify the puzzle's verdict in `folder`, saying so on stderr; exit 4
        when the certificate contradicts the engine, 5 when it cannot express the puzzle."""
        from sudokulab.certificates.answer import certify_answer
        from sudokulab.errors import UnsupportedRule

        try:
            certified = certify_answer(puzzle, result, folder, f"puzzle-{number}",
                                       trim=self.trim)
        except UnsupportedRule as error:
            print(error_line(f"puzzle {number}: no certificate: {error}"), file=sys.stderr)
            return max(code, Exit.ENGINE)
        print(f"sudokulab: {certified.line(number)}", file=sys.stderr)
        return Exit.DISAGREE if certified.contradiction else code

    def bad(self, number: int, entry) -> int:
        """A puzzle of a file that is not one: say where and why, keep the numbering."""
        self.answered = number
        print(error_line(entry.error), file=sys.stderr)
        if self.format == "json":
            import json

            self.emit(json.dumps({"puzzle": None, "where": entry.where, "backend": self.label,
                                  "status": "bad-input", "message": entry.error}))
        elif self.format in TABLES:
            self.emit(self._row((number, "bad-input", "", "", "", entry.error)))
        elif self.format != "pretty":
            self.emit("bad-input")
        return Exit.INPUT

    def _invalid(self, number: int, puzzle, result, why: str) -> int:
        """A backend's answer cannot be right (a grid breaks the rules): say so, exit 4."""
        print(error_line(f"puzzle {number}: {self.label}'s answer fails the independent "
                         f"check: {why}"), file=sys.stderr)
        from sudokulab.result import Result, Status

        rejected = Result(Status.ERROR, message=f"invalid grid from {self.label}: {why}")
        self.emit(self._render(number, puzzle, rejected, (), "invalid"))
        return Exit.DISAGREE

    def _render(self, number: int, puzzle, result, shown, status: str) -> str:
        """One answer in the chosen format."""
        line_of = self.line_of
        if self.format == "json":
            return self._json(puzzle, result, shown, status)
        if self.format in TABLES:
            return self._row((number, status, result.count_claim, f"{result.time * 1000:.3f}",
                              ",".join(map(line_of, shown)), result.message))
        if self.format in LINE_FORMATS:
            if status in ("unique", "solved") and not self.counting:
                if self.format == "line":
                    return line_of(result.solutions[0])
                from sudokulab.formats import links

                if puzzle.layout is not None:
                    raise UsageError(f"a {self.format} link holds one N x N grid; a "
                                     f"{puzzle.layout.name} prints as pretty, line, csv, tsv "
                                     f"or json")
                link = links.fpuzzles_link if self.format == "fpuzzles" else links.sudokupad_link
                return link(puzzle, result.solutions[0])
            counted = result.status.is_answer or status in ("interrupted", "timeout")
            return result.count_text if self.counting and counted else status
        return self._pretty(number, puzzle, result, shown, status)

    def _row(self, cells) -> str:
        """One row of the csv or tsv table (a message's tabs and line breaks are spaces)."""
        import csv
        import io

        text = io.StringIO()
        delimiter = "," if self.format == "csv" else "\t"
        csv.writer(text, delimiter=delimiter, lineterminator="").writerow(
            [" ".join(str(cell).split()) if isinstance(cell, str) else cell for cell in cells])
        return text.getvalue()

    def _json(self, puzzle, result, shown, status: str) -> str:
        """One JSON object: the puzzle with its rules, and the backend's answer."""
        import json

        from sudokulab.formats.text import puzzle_data
        from sudokulab.puzzle import line_of

        data = {"puzzle": line_of(puzzle.givens), **puzzle_data(puzzle),
                "backend": self.label, **result.to_json()}
        data["status"] = status
        data["solutions"] = [list(grid) for grid in shown]
        return json.dumps(data)

    def _pretty(self, number: int, puzzle, result, shown, status: str) -> str:
        """A headline, the rules, the statistics and each grid, boxed."""
        from sudokulab.formats.text import format_grid, format_rules

        headline = HEADLINES.get(status, status)
        if status == "interrupted":  # SIGTERM says SIGTERM
            headline = headline.replace(INTERRUPTED, stopped_by())
        found = f"{result.count_claim} solution(s) " if result.count_claim else ""
        head = (f"{f'#{number} ' if self.numbered else ''}{headline}: "
                f"{found}[{self.label}, {result.time * 1000:.1f} ms]")
        parts = [head + (f" {result.message}" if result.message else "")]
        if puzzle.rules:
            parts.append(format_rules(puzzle))
        if self.stats and result.stats:
            parts.append("  " + result.stats_text())
        parts += [format_grid(puzzle.with_values(grid)) + "\n" for grid in shown]
        if result.partial:
            parts.append(format_grid(puzzle.with_values(result.partial)) + "\n")
        # a count by relabelling or by a #SAT counter keeps only the grids asked for: the
        # count tells the rest (counted, not necessarily found)
        hidden = max(len(result.solutions), result.count) - len(shown)
        if hidden:
            more = "more " if shown else ""
            parts.append(f"({hidden} {more}grid(s) counted, not shown: --grids K prints K)")
        return "\n".join(parts)

    def emit(self, text: str) -> None:
        """Print, flushing at most ten times a second (so a long file streams cheaply)."""
        sys.stdout.write(text + "\n")
        now = time.perf_counter()
        if now - self.flushed > 0.1:
            sys.stdout.flush()
            self.flushed = now
