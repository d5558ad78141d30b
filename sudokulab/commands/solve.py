"""`sudokulab solve`: one backend over one puzzle or a file; every grid checked before it
is printed, by the independent checker (through the cross-check's `verify`)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterator

from sudokulab.backends import DEFAULT
from sudokulab.commands.inputs import (
    backend,
    examples,
    input_arguments,
    nonempty,
    read_entries,
    timeout_seconds,
    unavailable,
)
from sudokulab.errors import (
    EXIT_DISAGREE,
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NONE,
    EXIT_OK,
    EXIT_STALLED,
    EXIT_TERMINATED,
    EXIT_TIMEOUT,
    UsageError,
    count_int,
    error_line,
    exit_help,
    positive_int,
    worst,
)
from sudokulab.formats import LINKS

DESCRIPTION = ("Solve one puzzle or a file of puzzles with one backend. Every grid a backend "
               "returns is checked by the independent checker before it is printed.")
EXAMPLES = examples(
    "sudokulab solve 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",  # noqa: E501  (a puzzle to copy whole)
    "sudokulab solve --file puzzles.txt -b sat --format line",
    "sudokulab solve ................ --count -b dlx   # every 4x4 grid: 288")
EXITS = (EXIT_OK, EXIT_NONE, EXIT_INPUT, EXIT_TIMEOUT, EXIT_DISAGREE, EXIT_ENGINE,
         EXIT_STALLED, EXIT_INTERRUPTED, EXIT_TERMINATED)

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
  json    one JSON object per line (JSON Lines): puzzle, box, rules, backend, status,
          count, exact, solutions, stats, times, message
  fpuzzles, sudokupad
          one link per puzzle that opens it in the browser, its solution inside when
          exactly one is known; otherwise the status word, as in line
A bad puzzle in a file is reported on stderr with its file and line and skipped (status
bad-input in line, csv, tsv and json); --strict stops there instead. Exit code 2 then."""


def options(p: argparse.ArgumentParser) -> None:
    """The options of `solve`."""
    p.description = DESCRIPTION
    p.epilog = f"{FORMATS}\n\n{EXAMPLES}\n\n{exit_help(EXITS)}"
    input_arguments(p)
    p.add_argument("--backend", "-b", metavar="NAME",
                   help="backend, optionally with options: norvig, sat, "
                        f"sat:solver=glucose4, smt:model=int, prolog ... (default: {DEFAULT})")
    p.add_argument("--limit", "-k", type=positive_int, metavar="K",
                   help="stop after K solutions (default 2: proves uniqueness; 1: first only)")
    p.add_argument("--count", action="store_true",
                   help="count every solution; prints the count, not the grids (see --grids)")
    p.add_argument("--count-with", choices=("enumeration", "sharpsat"),
                   help="with --count: enumeration (the backend lists every solution, the "
                        "default) or sharpsat (Ganak counts the models of the sat backend's "
                        "CNF without listing them: millions of solutions in seconds)")
    p.add_argument("--grids", type=count_int, default=0, metavar="K",
                   help="with --count, also print the first K grids found (default 0)")
    p.add_argument("--format", choices=("pretty", "line", "csv", "tsv", "json", *LINKS),
                   default="pretty",
                   help="output format (default: pretty; see below)")
    p.add_argument("--timeout", "-t", type=timeout_seconds, metavar="S",
                   help="give up on a puzzle after S seconds (0 or inf: never); the backend "
                        "then runs in a worker process that is stopped at the deadline")
    p.add_argument("--stats", action="store_true",
                   help="show the engine's statistics (pretty; json holds them always)")
    p.add_argument("--trace", metavar="FILE", type=nonempty,
                   help="norvig and dlx: write the search's events to FILE as JSON Lines "
                        "(each propagation wave, guess, dead end and backtrack; at most 2000 "
                        "per puzzle, then a 'truncated' line and the solutions)")
    p.add_argument("--timeline", metavar="FILE", type=nonempty,
                   help="sat, smt, asp, cpsat, prolog: write the engine's counters over time "
                        "to FILE as JSON Lines (decisions, conflicts ... sampled as the "
                        "engine allows, at most 500 per puzzle, ending on its statistics)")
    p.add_argument("--certify", metavar="DIR", type=nonempty,
                   help="write a certificate for each puzzle's verdict into DIR (a CNF of "
                        "its own, a DRAT proof, the solutions), verify it with code that "
                        "shares none with the engines, and exit 4 if it contradicts the "
                        "engine (docs/certified.md; check one later with `sudokulab verify`)")
    p.set_defaults(multi_grid=True)


def refuse_unused(args: argparse.Namespace) -> None:
    """UsageError for an option the others leave without effect, naming it and why (the
    cli calls it before run); then the defaults of -b, --limit and --count-with, None until
    here so that a given one is told from the default."""
    sharp = args.count_with == "sharpsat"
    if args.count_with and not args.count:
        raise UsageError(f"--count-with {args.count_with} says how --count counts: give "
                         f"--count too")
    if args.count and args.limit:
        raise UsageError("--limit K stops at K solutions, --count finds them all: give one")
    if sharp and args.backend and not args.grids:
        raise UsageError(f"--count-with sharpsat counts with Ganak on the sat CNF, whatever "
                         f"the backend; -b {args.backend} would only list the grids of "
                         f"--grids K: give --grids K, or leave out -b")
    for option in ("trace", "timeline", "stats"):
        if sharp and getattr(args, option):
            raise UsageError(f"--{option} watches the backend's search; --count-with "
                             f"sharpsat counts with Ganak instead: leave out --{option}")
    if args.certify and args.count:
        raise UsageError("--certify proves a verdict (none, unique, several); a count is "
                         "not one: leave out --count or --certify")
    if args.stats and args.format not in ("pretty", "json"):
        raise UsageError(f"--stats shows in --format pretty (json holds them always), not "
                         f"in {args.format}")
    args.backend = args.backend or DEFAULT
    args.limit = args.limit or 2
    args.count_with = args.count_with or "enumeration"


def run(args: argparse.Namespace) -> int:
    """Solve each puzzle with one backend, check every grid, print the answers."""
    entries = read_entries(args)
    if args.grids and not args.count:
        raise UsageError("--grids K prints K of the grids a count finds: give --count too")
    if args.count_with == "sharpsat":
        if not args.count:
            raise UsageError("--count-with sharpsat counts: give --count too")
        return _sharpsat(args, entries)
    engine = backend(args.backend)
    why = unavailable(engine)
    if why:
        print(error_line(why), file=sys.stderr)
        return EXIT_ENGINE
    out = Output(args, engine.label, numbered=len(entries) > 1)
    limit = None if args.count else args.limit
    if args.strict:  # stop at the first bad puzzle, after answering those before it
        first_bad = next((k for k, e in enumerate(entries) if e.puzzle is None), None)
        entries = entries if first_bad is None else entries[:first_bad + 1]
    if args.timeout:
        if args.trace or args.timeline:
            raise UsageError(f"--{'trace' if args.trace else 'timeline'} records in this "
                             f"process: leave out --timeout")
        return worst(_isolated(engine.label, entries, limit, args.timeout, out))
    codes = []
    sink = samples = None
    try:
        if args.trace:
            from sudokulab.trace import TraceFile

            sink = TraceFile(args.trace, engine)
        if args.timeline:
            from sudokulab.timeline import TimelineFile

            samples = TimelineFile(args.timeline, engine)
        for number, entry in enumerate(entries, 1):
            if entry.puzzle is None:
                codes.append(out.bad(number, entry))
            else:
                if sink is not None:
                    sink.watch(engine)
                if samples is not None:
                    samples.watch(engine)
                with stdout_to_stderr():
                    result = engine.solve(entry.puzzle, limit=limit)
                if sink is not None:
                    sink.keep(number, entry.puzzle, engine, result)
                if samples is not None:
                    samples.keep(number, entry.puzzle, engine, result)
                codes.append(out.write(number, entry.puzzle, result))
    except KeyboardInterrupt as interrupt:
        partial = getattr(interrupt, "result", None)  # what the engine found before Ctrl-C
        if partial is not None and len(codes) < len(entries):
            number, puzzle = len(codes) + 1, entries[len(codes)].puzzle
            for recording in (sink, samples):  # what it recorded of the search cut short
                if recording is not None:
                    recording.keep(number, puzzle, engine, partial)
            out.write(number, puzzle, partial, interrupted=True)
        raise
    finally:
        if sink is not None:
            sink.close()
        if samples is not None:
            samples.close()
    return worst(codes)


def _sharpsat(args: argparse.Namespace, entries: list) -> int:
    """Count each puzzle's solutions with Ganak; --grids K lists K of them with the backend."""
    from dataclasses import replace

    from sudokulab import counting

    engine = backend(args.backend) if args.grids else None
    if engine is not None and (why := unavailable(engine)):
        print(error_line(why), file=sys.stderr)
        return EXIT_ENGINE
    out = Output(args, "sharpsat (Ganak)", numbered=len(entries) > 1)
    codes = []
    for number, entry in enumerate(entries, 1):
        if entry.puzzle is None:
            codes.append(out.bad(number, entry))
            if args.strict:
                break
            continue
        try:
            result = counting.count(entry.puzzle, timeout=args.timeout)
        except KeyboardInterrupt:  # Ganak tells nothing of a count cut short: >= 0
            from sudokulab.result import Result, Status

            out.write(number, entry.puzzle, Result(Status.TIMEOUT, count=0, exact=False),
                      interrupted=True, counted=True)
            raise
        if engine is not None and result.count:
            with stdout_to_stderr():
                found = engine.solve(entry.puzzle, limit=args.grids)
            result = replace(result, solutions=found.solutions)
        codes.append(out.write(number, entry.puzzle, result, counted=True))
    return worst(codes)


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """In the block, what is written to file descriptor 1 goes to stderr: an engine's
    banner or log (native code that prints) never mixes into json, csv or line output."""
    sys.stdout.flush()  # what we printed before goes to stdout, in its place
    try:
        saved = os.dup(1)
    except OSError:  # no descriptor 1: nothing to keep clean
        yield
        return
    try:
        os.dup2(2, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _isolated(spec: str, entries: list, limit: int | None, timeout: float,
              out: Output) -> list[int]:
    """Solve in a worker process that is killed when it overruns; write answers in order."""
    from sudokulab.harness.runner import BackendFailed, Options, RunInterrupted, run_backend
    from sudokulab.result import Result, Status

    waiting: dict = {}
    codes: list[int] = []

    def deliver(index: int | None = None, result=None) -> None:
        """Keep each answer until every earlier one is written (bad puzzles in their turn)."""
        if index is not None:
            waiting[index] = result
        while len(codes) < len(entries):
            index = len(codes)
            entry = entries[index]
            if entry.puzzle is None:
                codes.append(out.bad(index + 1, entry))
            elif index in waiting:
                codes.append(out.write(index + 1, entry.puzzle, waiting.pop(index)))
            else:
                return

    options = Options(limit=limit, timeout=timeout, warmup=False)
    todo = [(k, e.puzzle) for k, e in enumerate(entries) if e.puzzle is not None]
    deliver()
    try:
        run_backend(spec, todo, options, jobs=1,
                    record=lambda record: deliver(record.index, record.result))
    except RunInterrupted as stop:  # Ctrl-C: the puzzle being solved prints what was found
        if stop.result is not None and stop.index == len(codes):
            out.write(stop.index + 1, entries[stop.index].puzzle, stop.result, interrupted=True)
        raise
    except BackendFailed as error:
        failed = Result(Status.ERROR, message=f"the worker process failed: {error}")
        for index, _ in todo:
            if index >= len(codes) and index not in waiting:
                deliver(index, failed)
    return codes


TABLES = ("csv", "tsv")
LINE_FORMATS = ("line", *LINKS)  # one line per puzzle: the solution or a word
HEADLINES = {
    "unique": "unique solution", "multiple": "several solutions",
    "solved": "solved (uniqueness not checked)", "none": "no solution", "timeout": "timeout",
    "unsupported": "unsupported", "error": "error",
    "stalled": "stalled (the techniques found no further step; the grid so far)",
    "interrupted": "interrupted (Ctrl-C), what was found so far",
}
CODES = {"none": EXIT_NONE, "timeout": EXIT_TIMEOUT, "error": EXIT_ENGINE,
         "unsupported": EXIT_ENGINE, "stalled": EXIT_STALLED}


class Output:
    """Writes each puzzle's answer in the chosen format, after checking its grids."""

    def __init__(self, args: argparse.Namespace, label: str, numbered: bool) -> None:
        from sudokulab.harness.crosscheck import verify
        from sudokulab.puzzle import line_of

        self.verify, self.line_of = verify, line_of
        self.format, self.stats, self.label = args.format, args.stats, label
        self.counting, self.grids = args.count, args.grids
        self.certify = getattr(args, "certify", None)  # a folder for certificates
        self.numbered = numbered
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
            why = self.verify(puzzle, result)
        if why:
            return self._invalid(number, puzzle, result, why)
        value = result.status.value
        self.emit(self._render(number, puzzle, result, shown,
                               "interrupted" if interrupted else value))
        if self.certify and not interrupted:
            return self._certified(number, puzzle, result, CODES.get(value, EXIT_OK))
        return CODES.get(value, EXIT_OK)

    def _certified(self, number: int, puzzle, result, code: int) -> int:
        """Certify and verify the puzzle's verdict, saying so on stderr; exit 4 when the
        certificate contradicts the engine, 5 when it cannot express the puzzle."""
        from sudokulab.certify.answer import certify_answer
        from sudokulab.errors import UnsupportedRule

        try:
            certified = certify_answer(puzzle, result, self.certify, f"puzzle-{number}")
        except UnsupportedRule as error:
            print(error_line(f"puzzle {number}: no certificate: {error}"), file=sys.stderr)
            return max(code, EXIT_ENGINE)
        print(f"sudokulab: {certified.line(number)}", file=sys.stderr)
        return EXIT_DISAGREE if certified.contradiction else code

    def bad(self, number: int, entry) -> int:
        """A puzzle of a file that is not one: say where and why, keep the numbering."""
        print(error_line(entry.error), file=sys.stderr)
        if self.format == "json":
            import json

            self.emit(json.dumps({"puzzle": None, "where": entry.where, "backend": self.label,
                                  "status": "bad-input", "message": entry.error}))
        elif self.format in TABLES:
            self.emit(self._row((number, "bad-input", "", "", "", entry.error)))
        elif self.format != "pretty":
            self.emit("bad-input")
        return EXIT_INPUT

    def _invalid(self, number: int, puzzle, result, why: str) -> int:
        """A backend's answer cannot be right (a grid breaks the rules): say so, exit 4."""
        print(error_line(f"puzzle {number}: {self.label}'s answer fails the independent "
                         f"check: {why}"), file=sys.stderr)
        from sudokulab.result import Result, Status

        rejected = Result(Status.ERROR, message=f"invalid grid from {self.label}: {why}")
        self.emit(self._render(number, puzzle, rejected, (), "invalid"))
        return EXIT_DISAGREE

    def _render(self, number: int, puzzle, result, shown, status: str) -> str:
        """One answer in the chosen format."""
        line_of = self.line_of
        if self.format == "json":
            return self._json(puzzle, result, shown, status)
        if self.format in TABLES:
            return self._row((number, status, result.count_text, f"{result.time * 1000:.3f}",
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
        # no verdict and no bound either (a stall, an error): "0 solution(s)" would read as
        # "the puzzle has none"; a count stopped early keeps its lower bound (">= 0")
        found = "" if result.exact and not result.count and not result.status.is_answer \
            else f"{result.count_text} solution(s) "
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
        hidden = len(result.solutions) - len(shown)
        if hidden:
            more = "more " if shown else ""
            parts.append(f"({hidden} {more}grid(s) found, not shown: --grids K prints K)")
        return "\n".join(parts)

    def emit(self, text: str) -> None:
        """Print, flushing at most ten times a second (so a long file streams cheaply)."""
        sys.stdout.write(text + "\n")
        now = time.perf_counter()
        if now - self.flushed > 0.1:
            sys.stdout.flush()
            self.flushed = now
