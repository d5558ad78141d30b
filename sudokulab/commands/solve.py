"""`sudokulab solve`: one backend over one puzzle or a file; every grid checked before it
is printed, by the independent checker (through the cross-check's `verify`)."""

from __future__ import annotations

import argparse
import sys
import time

from sudokulab.backends import DEFAULT
from sudokulab.commands.answers import (
    FORMATS,
    LINE_FORMATS,
    Output,
    cut_note,
    grids_kept,
    stdout_to_stderr,
)
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
    Exit,
    UsageError,
    count_int,
    error_line,
    exit_help,
    positive_int,
    whole,
    worst,
)
from sudokulab.formats import LINKS

DESCRIPTION = ("Solve one puzzle or a file of puzzles with one backend. Every grid a backend "
               "returns is checked by the independent checker before it is printed.")
EXAMPLES = examples(
    "sudokulab solve 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",  # noqa: E501  (a puzzle to copy whole)
    "sudokulab solve --file puzzles.txt -b sat --format line",
    "sudokulab solve ................ --count -b dlx   # every 4x4 grid: 288")
EXITS = (Exit.OK, Exit.NONE, Exit.INPUT, Exit.TIMEOUT, Exit.DISAGREE, Exit.ENGINE,
         Exit.STALLED, Exit.INTERRUPTED, Exit.TERMINATED)

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
                   help="count every solution; prints the count, not the grids (see --grids); "
                        "the first grids found are kept and checked (18,518 of a 9x9), the "
                        "rest counted, so memory stays flat; without --timeout, a count "
                        "Knuth's estimate puts over 10^9 grids is refused at once (exit 2)")
    p.add_argument("--count-with", choices=("enumeration", "sharpsat"),
                   help="with --count: enumeration (the backend lists every solution, the "
                        "default) or sharpsat (Ganak counts the models of the sat backend's "
                        "CNF without listing them; on open grids, whose formula never splits "
                        "into parts, it is no faster than enumeration)")
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
                   help="norvig, dlx and native: write the search's events to FILE as JSON "
                        "Lines (each propagation wave, guess, dead end and backtrack; at most "
                        "2000 per puzzle, then a 'truncated' line and the solutions; an 'end' "
                        "line says how the puzzle ended, interrupted too)")
    p.add_argument("--timeline", metavar="FILE", type=nonempty,
                   help="sat, smt, asp, cpsat, prolog: write the engine's counters over time "
                        "to FILE as JSON Lines (decisions, conflicts ... sampled as the "
                        "engine allows, at most 500 per puzzle, ending on its statistics, "
                        "then an 'end' line as --trace's)")
    p.add_argument("--certify", metavar="DIR", type=nonempty,
                   help="write a certificate for each puzzle's verdict into DIR (a CNF of "
                        "its own, a DRAT proof, the solutions), verify it with code that "
                        "shares none with the engines, and exit 4 if it contradicts the "
                        "engine (docs/certified.md; check one later with `sudokulab verify`)")
    p.add_argument("--trim", action="store_true",
                   help="with --certify, also write each proof trimmed to the lemmas its "
                        "refutation uses (<name>.core.drat, found by the lab's own DRAT "
                        "checker, as drat-trim -l would; verify replays it too)")
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
    if args.grids and args.format in LINE_FORMATS:
        raise UsageError(f"--format {args.format} prints one line per puzzle (its count), no "
                         f"grids: give --grids K with --format pretty, csv, tsv or json")
    if args.trim and not args.certify:
        raise UsageError("--trim trims the proof of a certificate: give --certify DIR too")
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
    from sudokulab.commands import batch  # plain classic lines in bulk, where the engine can

    codes = batch.solve_file(args)
    if codes is not None:
        return worst(codes)
    entries = read_entries(args)
    if args.grids and not args.count:
        raise UsageError("--grids K prints K of the grids a count finds: give --count too")
    if args.count_with == "sharpsat":
        if not args.count:
            raise UsageError("--count-with sharpsat counts: give --count too")
        return _sharpsat(args, entries)
    limit = None if args.count else args.limit
    out: Output | _Relabelled | None = None
    try:  # from the engine's start: a signal as its library loads still gets its record
        engine = backend(args.backend)
        why = unavailable(engine)
        if why:
            print(error_line(why), file=sys.stderr)
            return Exit.ENGINE
        if args.count and not engine.complete:
            raise UsageError(f"-b {args.backend} cannot count: it searches no further than "
                             f"its techniques reach, so it proves one solution or stalls; "
                             f"count with an engine that searches (leave out -b, or -b sat)")
        _recordable(args)  # before any output is written
        if args.count and not args.timeout:  # refused at once if beyond enumeration
            from sudokulab.backends.counting import refuse_endless

            refuse_endless(entries, engine.label, relabel=not (args.trace or args.timeline))
        if args.certify:
            from sudokulab.certificates.certificate import writable

            writable(args.certify)
        out = Output(args, engine.label, numbered=len(entries) > 1)
        if args.count:  # a count keeps a bounded number of grids: memory stays flat
            out.keep = grids_kept(entries, args.grids)
        # list the grids of the puzzle reduced by digit relabelling (counting.py); a --trace
        # or --timeline watches the search of the puzzle given, so it keeps that puzzle
        if args.count and not (args.trace or args.timeline):
            out, entries = _Relabelled.wrap(out, entries, args.grids)
        if args.strict:  # stop at the first bad puzzle, after answering those before it
            first_bad = next((k for k, e in enumerate(entries) if e.puzzle is None), None)
            entries = entries if first_bad is None else entries[:first_bad + 1]
        if args.timeout:
            return worst(_isolated(engine.label, entries, limit, args.timeout, out))
        return worst(_in_process(args, engine, entries, limit, out))
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the puzzle under way says so
        if out is None:  # before its engine was built
            out = Output(args, args.backend, numbered=len(entries) > 1)
        _unfinished(out, entries, limit, stop)
        raise


def _unfinished(out: Output | _Relabelled, entries: list, limit: int | None,
                stop: KeyboardInterrupt) -> None:
    """The puzzle under way when Ctrl-C came, printed as interrupted with what its engine
    found before it (nothing, when the signal came before its engine began)."""
    from sudokulab.backends.base import interrupted

    if out.answered >= len(entries) or entries[out.answered].puzzle is None:
        return
    index = out.answered
    partial = getattr(stop, "result", None)
    if partial is None or getattr(stop, "index", index) != index:
        partial = interrupted((), limit).result
    out.write(index + 1, entries[index].puzzle, partial, interrupted=True)


def _in_process(args: argparse.Namespace, engine, entries: list, limit: int | None,
                out: Output | _Relabelled) -> list[int]:
    """Solve in this process, one puzzle after another (--trace and --timeline record
    each search); each puzzle's exit code."""
    from sudokulab.backends.base import interrupted

    codes: list[int] = []
    sink = samples = None
    recordings: list = []
    recording = 0  # the puzzle whose search the recordings watch
    try:
        if args.trace:
            from sudokulab.backends.trace import TraceFile

            sink = TraceFile(args.trace, engine)
        if args.timeline:
            from sudokulab.backends.timeline import TimelineFile

            samples = TimelineFile(args.timeline, engine)
        recordings = list(filter(None, (sink, samples)))
        for number, entry in enumerate(entries, 1):
            if entry.puzzle is None:
                codes.append(out.bad(number, entry))
                continue
            with whole():
                for one in recordings:
                    one.watch(engine)
                recording = number
            with stdout_to_stderr():
                # keep= only for a count: a plugin's own solve() may not take it
                kept = {} if out.keep is None else {"keep": out.keep}
                result = engine.solve(entry.puzzle, limit=limit, **kept)
            with whole():  # a puzzle recorded is a puzzle answered, and the other way round
                for one in recordings:
                    one.keep(number, entry.puzzle, engine, result)
                codes.append(out.write(number, entry.puzzle, result))
    except KeyboardInterrupt as interrupt:
        number = len(codes) + 1  # the puzzle printed as interrupted: recorded as such
        if number <= len(entries) and entries[number - 1].puzzle is not None:
            partial = getattr(interrupt, "result", None) or interrupted((), limit).result
            for cut in recordings:
                if recording != number:  # stopped before its search began: nothing seen
                    cut.watch(engine)
                cut.keep(number, entries[number - 1].puzzle, engine, partial,
                         interrupted=True)
        raise
    finally:
        if sink is not None:
            sink.close()
        if samples is not None:
            samples.close()
    return codes


def _recordable(args: argparse.Namespace) -> None:
    """UsageError when --trace or --timeline cannot record this run: with --timeout (the
    worker process would record it), or a backend without the capability."""
    from sudokulab.backends.timeline import TimelineFile
    from sudokulab.backends.trace import TraceFile

    for asked, kind in ((args.trace, TraceFile), (args.timeline, TimelineFile)):
        if not asked:
            continue
        if args.timeout:
            raise UsageError(f"--{kind.kind} records in this process: leave out --timeout")
        why = kind.refusal(args.backend)
        if why:
            raise UsageError(f"--{kind.kind}: {why}")


class _Relabelled:
    """An Output for counts reduced by digit relabelling: each reduced answer is checked
    whole (its grids and its count), then written scaled, for the puzzle asked."""

    def __init__(self, out: Output, reductions: dict, grids: int) -> None:
        self.out, self.reductions, self.grids = out, reductions, grids

    @classmethod
    def wrap(cls, out: Output, entries: list, grids: int) -> tuple:
        """The output and the entries to solve: the reduced puzzles where relabelling holds."""
        from sudokulab.backends.counting import relabelling
        from sudokulab.formats.files import Entry

        reductions, solved = {}, []
        for number, entry in enumerate(entries, 1):
            reduction = relabelling(entry.puzzle)[0] if entry.puzzle is not None else None
            if reduction is not None:
                reductions[number] = (entry.puzzle, reduction)
                entry = Entry(entry.source, entry.line, reduction.reduced)
            solved.append(entry)
        return (cls(out, reductions, grids) if reductions else out), solved

    def write(self, number: int, puzzle, result, interrupted: bool = False,
              counted: bool = False) -> int:
        """Check the reduced answer, then write the puzzle's: the count scaled."""
        from sudokulab.harness.crosscheck import verify

        if number not in self.reductions:
            return self.out.write(number, puzzle, result, interrupted, counted)
        original, reduction = self.reductions[number]
        if verify(reduction.reduced, result, kept=self.out.keep):  # Output says why: exit 4
            return self.out.write(number, reduction.reduced, result, interrupted)
        result = cut_note(result, self.out.keep)
        return self.out.write(number, original, reduction.scaled(result, self.grids),
                              interrupted, counted=True)

    def __getattr__(self, name: str):
        return getattr(self.out, name)


def _sharpsat(args: argparse.Namespace, entries: list) -> int:
    """Count each puzzle's solutions with Ganak; --grids K lists K of them with the backend."""
    from dataclasses import replace

    from sudokulab.backends import counting

    engine = backend(args.backend) if args.grids else None
    if engine is not None and (why := unavailable(engine)):
        print(error_line(why), file=sys.stderr)
        return Exit.ENGINE
    out = Output(args, "sharpsat (Ganak)", numbered=len(entries) > 1)
    codes = []
    for number, entry in enumerate(entries, 1):
        if entry.puzzle is None:
            codes.append(out.bad(number, entry))
            if args.strict:
                break
            continue
        started = time.perf_counter()
        try:
            result = counting.count(entry.puzzle, timeout=args.timeout)
        except KeyboardInterrupt:  # Ganak tells nothing of a count cut short: >= 0
            from sudokulab.result import Result, Status

            seconds = time.perf_counter() - started
            out.write(number, entry.puzzle, Result(
                Status.TIMEOUT, count=0, exact=False, solve_time=seconds,
                message=f"Ganak stopped after {seconds:.1f} s; it keeps no partial count "
                        f"(enumeration does: leave out --count-with)"),
                interrupted=True, counted=True)
            raise
        if engine is not None and result.count:
            with stdout_to_stderr():
                found = engine.solve(entry.puzzle, limit=args.grids)
            result = replace(result, solutions=found.solutions)
        codes.append(out.write(number, entry.puzzle, result, counted=True))
    return worst(codes)


def _isolated(spec: str, entries: list, limit: int | None, timeout: float,
              out: Output | _Relabelled) -> list[int]:
    """Solve in a worker process that is killed when it overruns; write answers in order."""
    from sudokulab.errors import BackendFailed
    from sudokulab.harness.runner import Options, run_backend
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

    options = Options(limit=limit, timeout=timeout, warmup=False, keep=out.keep)
    todo = [(k, e.puzzle) for k, e in enumerate(entries) if e.puzzle is not None]
    deliver()
    try:
        run_backend(spec, todo, options, jobs=1,
                    record=lambda record: deliver(record.index, record.result))
    except BackendFailed as error:
        failed = Result(Status.ERROR, message=f"the worker process failed: {error}")
        for index, _ in todo:
            if index >= len(codes) and index not in waiting:
                deliver(index, failed)
    return codes
