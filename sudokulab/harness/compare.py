"""The comparison behind `sudokulab compare`: run backends over a puzzle set, cross-check
them, report timings. Its options are in sudokulab/commands/compare.py; its exit codes
follow errors.PRECEDENCE (bad input before the run, 2; Ctrl-C 130, SIGTERM 143)."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import shlex
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from sudokulab import datasets, errors
from sudokulab.backends import BackendError, backend_class, make_backend, names, parse_spec
from sudokulab.errors import (
    EXIT_DISAGREE,
    EXIT_ENGINE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NONE,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_TIMEOUT,
    PuzzleError,
    UsageError,
    error_line,
    worst,
)
from sudokulab.formats.text import parse_many
from sudokulab.harness import provenance, report
from sudokulab.harness.comparison import Comparison
from sudokulab.harness.records import Record, cores
from sudokulab.harness.runlog import RunLog
from sudokulab.harness.runner import BackendFailed, Options, run_backend
from sudokulab.progress import Progress
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Status

RUNS = Path("runs")
CHOICES = ("backends", "limit", "timeout", "repeat", "seed", "warm")  # defaults: in Settings


Terminated = errors.Terminated  # SIGTERM: a KeyboardInterrupt (errors.sigterm_stops)

@dataclass
class Settings:
    """What a run is: saved in meta.json, so that --resume finishes the same run."""

    dataset: str | None = None
    file: str | None = None
    backends: str = "all"
    limit: int = 2
    timeout: float | None = 10.0
    repeat: int = 1
    sample: int | None = None
    seed: int = 0
    scatter: str | None = None
    input_format: str = "auto"  # how --file is read (sudokulab.formats.files.READERS)
    warm: bool = False  # solve each puzzle on the engine as earlier ones left it

    @classmethod
    def saved(cls, data: Mapping) -> Settings:
        """The settings meta.json holds; a run saved before solves were cold was warm."""
        return cls(**{"warm": True, **data})

    @property
    def name(self) -> str:
        """The puzzle set's short name: the dataset, or the file's stem."""
        return self.dataset or Path(self.file or "puzzles").name.split(".")[0]

    def options(self) -> Options:
        """How each puzzle is solved."""
        return Options(limit=self.limit, timeout=self.timeout, warm=self.warm)


def compare(args: argparse.Namespace) -> int:
    """Run, cross-check and report; raises PuzzleError, BackendError or UsageError."""
    folder, settings = _resumed(args) if args.resume else _fresh(args)
    if settings.repeat >= 2:  # intervals and paired tests: refused now, not after the run
        from sudokulab.harness import uncertainty

        uncertainty.need()
    skipped_input: list = []
    puzzles, references = select(settings, skipped_input, strict=getattr(args, "strict", False))
    lineup, engines, skipped = line_up(settings.backends)
    pair = _scatter_pair(settings.scatter, lineup)
    if not lineup:
        print("sudokulab: error: no backend can run here:\n  " +
              "\n  ".join(f"{name}: {why}" for name, why in skipped.items()), file=sys.stderr)
        return EXIT_ENGINE
    jobs = args.jobs or cores()
    if jobs > cores():
        print(f"sudokulab: warning: --jobs {jobs} is more than the {cores()} usable cores: "
              f"workers share cores, so each puzzle's time grows", file=sys.stderr)
    if settings.sample and settings.sample > len(puzzles):
        print(f"sudokulab: warning: --sample {settings.sample} of {len(puzzles)} puzzles: "
              f"running all {len(puzzles)}", file=sys.stderr)
    runner = _runner(getattr(args, "cluster", None))
    meta = _meta(folder, settings, engines)
    # environment describes the latest session; each session keeps its own code and load,
    # so a run resumed at another commit says so
    session = {"started": now(), "command": command(), "jobs": jobs, "backends": {},
               "source": meta["environment"].get("source"),
               "load before": meta["environment"].get("load before")}
    meta["sessions"].append(session)
    _start(folder, meta)
    log = RunLog(folder)
    try:
        with runner as run:  # runner.run_backend, or the same on a Dask cluster
            session.update(getattr(runner, "about", {}))
            _run(lineup, puzzles, settings, jobs, log, skipped, session, run)
    except KeyboardInterrupt as stop:
        session.update(finished=now(), interrupted=True)
        meta["environment"]["load after"] = session["load after"] = provenance.load()
        if isinstance(stop, Terminated):
            session["terminated"] = True
        report.write_json(meta, folder / "meta.json")
        print(f"\n{'terminated' if isinstance(stop, Terminated) else 'interrupted'}: "
              f"{len(log.read())} results kept in {log.path}; finish the run "
              f"with:\n  sudokulab compare --resume --out {shlex.quote(str(folder))}",
              file=sys.stderr)
        return EXIT_TERMINATED if isinstance(stop, Terminated) else EXIT_INTERRUPTED
    finally:
        log.close()
    session.update(finished=now(), interrupted=False, skipped=skipped)
    # a busy machine slows every engine
    meta["environment"]["load after"] = session["load after"] = provenance.load()
    report.write_json(meta, folder / "meta.json")
    records = [r for r in log.read() if r.index in puzzles]
    explicit = settings.backends.strip() != "all"
    code = _report(settings, puzzles, references, records, skipped, pair, folder,
                   meta, explicit)
    if skipped_input and code not in (EXIT_DISAGREE, EXIT_ENGINE):
        print(f"sudokulab: {len(skipped_input)} bad puzzle(s) of {settings.file} skipped "
              f"(listed above): exit code 2", file=sys.stderr)
        return EXIT_INPUT
    return code


def _start(folder: Path, meta: dict) -> None:
    """Make the run folder and its meta.json; UsageError (and no folder left) if we cannot."""
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        report.write_json(meta, folder / "meta.json")
    except OSError as error:
        if made:
            with contextlib.suppress(OSError):
                (folder / "meta.json").unlink(missing_ok=True)
                folder.rmdir()
        raise UsageError(f"--out {folder}: cannot write there: "
                         f"{error.strerror or error}") from None


def _run(lineup: list[str], puzzles: dict[int, Puzzle], settings: Settings, jobs: int,
         log: RunLog, skipped: dict[str, str], session: dict,
         run: Callable[..., None] = run_backend) -> None:
    """Every pass of every backend over the puzzles runs.jsonl does not hold yet."""
    solve_passes(lineup, puzzles, settings, jobs, log.append, skipped,
                 done=log.done(settings.repeat), run=run, walls=session["backends"])


def solve_passes(lineup: list[str], puzzles: Mapping[int, Puzzle], settings: Settings,
                 jobs: int, keep: Callable[[Record], None], skipped: dict[str, str], *,
                 done: set | frozenset = frozenset(), run: Callable[..., None] = run_backend,
                 walls: dict | None = None, progress: bool = True) -> None:
    """`settings.repeat` passes, each over every backend in turn and every puzzle in an
    order shuffled for the pass (seeded), so that a drift of the machine's load falls
    on every backend and puzzle alike; `keep` takes each record as it comes, its pass
    number set. A (backend, puzzle, pass) in `done` is not solved again; a backend that
    cannot start is added to `skipped`; `walls` gets each backend's solves and wall
    seconds (as meta.json's sessions hold them)."""
    options = settings.options()
    walls = {} if walls is None else walls
    for repeat in range(1, settings.repeat + 1):
        order = list(puzzles.items())
        random.Random(f"{settings.seed}:{repeat}").shuffle(order)
        for spec in lineup:
            todo = [(i, p) for i, p in order if (spec, i, repeat) not in done]
            if spec in skipped or not todo:
                continue
            label = spec if settings.repeat == 1 else f"{spec} [{repeat}/{settings.repeat}]"
            shown = Progress(label, len(todo)) if progress else None
            wall = walls.setdefault(spec, {"puzzles": 0, "wall": 0.0})

            def record(r: Record, wall: dict = wall, shown: Progress | None = shown,
                       repeat: int = repeat) -> None:
                keep(replace(r, repeat=repeat))
                wall["puzzles"] += 1
                if shown:
                    shown.step()

            started = time.perf_counter()
            try:
                run(spec, todo, options, jobs=jobs, record=record)
            except BackendFailed as error:
                skipped[spec] = str(error)
            finally:
                if shown:
                    shown.finish()
                wall["wall"] = round(wall["wall"] + time.perf_counter() - started, 3)


def _runner(cluster: str | None) -> contextlib.AbstractContextManager:
    """Where the puzzles are solved: local worker processes, or the Dask --cluster."""
    if not cluster:
        return contextlib.nullcontext(run_backend)
    from sudokulab.harness.cluster import Cluster  # imports Dask

    return Cluster(cluster)  # ClusterError (a UsageError) for a bad or unreachable one


def _report(settings: Settings, puzzles: dict[int, Puzzle], references: dict[int, Grid],
            records: list[Record], skipped: dict[str, str], pair: list[str] | None,
            folder: Path, meta: dict, explicit: bool = True) -> int:
    """Cross-check, write every report file, print the tables; the exit code."""
    from sudokulab.extras import absent
    from sudokulab.harness import plots  # matplotlib: only when there is something to draw

    result = comparison(settings, puzzles, references, records, skipped, meta)
    summary = result.report(meta["environment"])
    runs, heading, wrong, timeout = result.runs, result.heading, result.wrong, settings.timeout
    if runs:
        summary.plots.append(plots.cactus(runs, folder / "cactus.png", heading, wrong=wrong,
                                          timeout=timeout, extra=result.best_line()))
    if len(runs) >= 2 and not absent("numpy") and not absent("scipy"):  # beside the cactus
        summary.plots.append(folder / "profile.png")
        result.profile(summary.plots[-1])
    if summary.ranking is not None:  # three engines or more
        summary.plots.append(folder / "cd.png")
        result.critical_difference(summary.plots[-1])
    pair = pair or list(runs)[:2]
    if len(pair) == 2 and all(b in runs for b in pair):
        summary.plots.append(plots.scatter(*pair, runs, folder / "scatter.png", heading,
                                           wrong=wrong, timeout=timeout))
    if summary.effort:
        summary.plots.append(folder / "effort.png")
        result.effort_plot(summary.plots[-1])
    (folder / "summary.md").write_text(report.markdown(summary), encoding="utf-8")
    report.write_csv(summary, folder / "summary.csv")
    summary.tables = report.write_sections(summary, folder)
    print(report.terminal(summary, folder), flush=True)  # a full stdout fails here
    return exit_code(result.check.findings, records, skipped, explicit,
                     {v.consensus for v in result.check.puzzles})


def comparison(settings: Settings, puzzles: dict[int, Puzzle], references: dict[int, Grid],
               records: list[Record], skipped: dict[str, str],
               meta: dict | None = None) -> Comparison:
    """The Comparison of a run's records (and its meta.json, which says its mode and
    where it ran): what the report files and the API show."""
    result = Comparison(puzzles, records, f"{settings.name} ({len(puzzles)} puzzles)",
                        limit=settings.limit, timeout=settings.timeout,
                        repeat=settings.repeat, seed=settings.seed, references=references,
                        skipped=skipped, about=_describe(settings, len(puzzles)),
                        meta=meta or {})
    if settings.file:
        result.ratings = ratings_of(settings.file, settings.input_format, puzzles)
    return result


def ratings_of(file: str, fmt: str, puzzles: Mapping[int, Puzzle]) -> dict[int, float]:
    """The ratings a file carries after its puzzles (the forum's lists), by index."""
    from sudokulab.formats import files
    from sudokulab.harness.effort import file_ratings

    entries = files.read_file(file, fmt=fmt)
    return file_ratings(file, {i: entries[i].line for i in puzzles if i < len(entries)})


def exit_code(findings: list, records: list[Record], skipped: dict[str, str],
              explicit: bool, consensus: set[str]) -> int:
    """The exit code of a finished run (errors.PRECEDENCE); a code other than 0 and 1
    comes with one line on stderr saying why.

    A backend skipped because it is unavailable here is a failure only when the user
    named it; with `--backends all` it is merely not part of the run.
    """
    failed = [spec for spec, why in skipped.items()
              if explicit or not why.startswith("unavailable")]
    troubles = {status: sorted({r.backend for r in records if r.result.status == status})
                for status in (Status.ERROR, Status.UNSUPPORTED, Status.TIMEOUT)}
    reasons = {EXIT_DISAGREE: f"{len(findings)} wrong answer(s) (see the findings above)"
                              if findings else "",
               EXIT_ENGINE: "; ".join(filter(None, (
                   f"could not run {', '.join(failed)}" if failed else "",
                   *(f"{status.value} answers from {', '.join(specs)}"
                     for status, specs in troubles.items()
                     if specs and status != Status.TIMEOUT)))),
               EXIT_TIMEOUT: f"timeouts from {', '.join(troubles[Status.TIMEOUT])}"
                             if troubles[Status.TIMEOUT] else ""}
    code = worst([code for code, why in reasons.items() if why] +
                 [EXIT_NONE if "none" in consensus else EXIT_OK])
    if reasons.get(code):
        print(f"sudokulab: exit {code}: {reasons[code]}", file=sys.stderr)
    return code


# --- settings, fresh or resumed --------------------------------------------------------

def _fresh(args: argparse.Namespace) -> tuple[Path, Settings]:
    """The settings of a new run and its (new, empty) folder."""
    given = {k: getattr(args, k) for k in CHOICES if getattr(args, k) is not None}
    settings = Settings(dataset=args.dataset or (None if args.file else "top95"),
                        file=str(Path(args.file).resolve()) if args.file else None,
                        sample=args.sample, scatter=args.scatter,
                        input_format=getattr(args, "input_format", None) or "auto", **given)
    if settings.timeout is not None and not settings.timeout >= 0:  # negative, or nan
        raise UsageError(f"--timeout {settings.timeout}: give seconds, 0 or more "
                         f"(0 or inf: no timeout)")
    if not settings.timeout or math.isinf(settings.timeout):
        settings.timeout = None  # --timeout 0 or inf: no timeout
    if args.out:
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"--out {folder} is a file, not a folder: choose another --out")
        if (folder / "runs.jsonl").exists():
            raise UsageError(f"{folder} holds a run already: add --resume to finish it, "
                             f"or choose another --out")
    else:
        folder = _new_folder(settings.name)
    return folder, settings


def _resumed(args: argparse.Namespace) -> tuple[Path, Settings]:
    """The folder and saved settings of the run to finish; options may not change them."""
    folder = Path(args.out) if args.out else _latest(args.dataset)
    meta_path = folder / "meta.json"
    try:
        saved = json.loads(meta_path.read_text(encoding="utf-8"))["settings"]
        settings = Settings.saved(saved)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"cannot resume {folder}: no readable meta.json ({error})") from None
    settings.scatter = args.scatter or settings.scatter  # a choice of plot, free to change
    changed = {k: getattr(args, k) for k in (*CHOICES, "sample", "dataset", "input_format")
               if getattr(args, k, None) is not None and getattr(args, k) != getattr(settings, k)}
    if args.file and str(Path(args.file).resolve()) != settings.file:
        changed["file"] = args.file
    if changed:
        options = ", ".join(f"--{k} {v}" for k, v in changed.items())
        raise UsageError(f"{folder} was started with other settings than {options}; resume "
                         f"without them, or start a new run")
    print(f"resuming {folder}", file=sys.stderr)
    return folder, settings


def _latest(dataset: str | None) -> Path:
    """The most recent run folder under runs/ (of this dataset, when given)."""
    pattern = f"{dataset}-*" if dataset else "*"
    candidates = sorted((p for p in RUNS.glob(pattern) if (p / "meta.json").exists()),
                        key=lambda p: p.stat().st_mtime)
    if not candidates:
        raise UsageError(f"no run to resume in {RUNS}/; name one with --out DIR")
    return candidates[-1]


def _new_folder(name: str) -> Path:
    """runs/<name>-<timestamp>, made unique if two runs start in the same second."""
    stem = RUNS / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder, k = stem, 1
    while folder.exists():
        k += 1
        folder = Path(f"{stem}-{k}")
    return folder


def _meta(folder: Path, settings: Settings, engines: dict[str, str]) -> dict:
    """meta.json as saved (on resume), or new, with what a reader needs to cite this
    session (provenance.environment: the code, versions, machine), its mode, its input's
    hash and the load as it starts (the session's end adds the load after)."""
    path = folder / "meta.json"
    if not path.exists():
        return new_meta(settings, engines)
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta["environment"] = provenance.environment(engines, settings)
    return meta


def new_meta(settings: Settings, engines: Mapping[str, str]) -> dict:
    """The meta.json of a new run, with no session yet (the CLI's and the API's)."""
    return {"settings": asdict(settings), "seed": settings.seed, "sessions": [],
            "environment": provenance.environment(dict(engines), settings)}


# --- puzzles and backends --------------------------------------------------------------

def select(settings: Settings, skipped: list | None = None, strict: bool = False
           ) -> tuple[dict[int, Puzzle], dict[int, Grid]]:
    """The puzzles of the run by their index in the source, and reference solutions.

    A bad puzzle of a --file is printed with its file and line and left out (appended to
    `skipped`); with `strict`, it is a PuzzleError instead.
    """
    if settings.file:
        from sudokulab.formats import files

        entries = files.read_file(settings.file, fmt=settings.input_format)
        good = [k for k, entry in enumerate(entries) if entry.puzzle is not None]
        bad = [entry for entry in entries if entry.puzzle is None]
        if bad and (strict or not good):  # nothing to run: one line says why
            more = f" (and {len(bad) - 1} more bad, no good puzzle)" if len(bad) > 1 else ""
            raise PuzzleError(bad[0].error + more)
        for entry in bad:
            print(error_line(f"{entry.error} (skipped)"), file=sys.stderr)
            if skipped is not None:
                skipped.append(entry)
        if not good:
            raise PuzzleError(f"{settings.file}: no puzzles in it")
        return {good[i]: entries[good[i]].puzzle for i in drawn(len(good), settings)}, {}
    # a bundled set holds one puzzle per line: draw the lines, then parse only those
    name = settings.dataset
    lines, answers = datasets.lines(name), datasets.solution_lines(name)
    indices = drawn(len(lines), settings)
    puzzles = dict(zip(indices, parse_many("\n".join(lines[i] for i in indices),
                                           f"{name}.txt"), strict=True))
    if len(answers) != len(lines):
        return puzzles, {}
    solutions = parse_many("\n".join(answers[i] for i in indices))
    return puzzles, {i: grid.givens for i, grid in zip(indices, solutions, strict=True)}


def drawn(total: int, settings: Settings) -> list[int]:
    """The indices of the puzzles the run takes: a seeded sample, or all of them."""
    if settings.sample and settings.sample < total:
        return sorted(random.Random(settings.seed).sample(range(total), settings.sample))
    return list(range(total))


def line_up(asked: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The backend specs that can run, their engine versions, and why the others cannot."""
    specs = names() if asked.strip() == "all" else split_specs(asked)
    if not specs:
        raise UsageError("--backends names no backend")
    lineup, engines, skipped = [], {}, {}
    for spec in dict.fromkeys(specs):
        name, _ = parse_spec(spec)
        availability = backend_class(name).available()
        if not availability.ok:
            fix = f" (fix: {availability.fix})" if availability.fix else ""
            skipped[spec] = f"unavailable: {availability.reason}{fix}"
            continue
        try:
            make_backend(spec)  # a bad option is a usage error now, not in every worker
        except BackendError:
            raise
        except Exception as error:  # a plugin's constructor may fail any way it likes
            skipped[spec] = f"cannot start: {type(error).__name__}: {error}"
            continue
        lineup.append(spec)
        engines[spec] = availability.version
    return lineup, engines, skipped


def split_specs(text: str) -> list[str]:
    """['norvig', 'sat:solver=glucose4,encoding=minimal'] from the same joined by commas.

    A part with '=' and no ':' is one more option of the spec before it, since a
    backend name never holds '='.
    """
    specs: list[str] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def _scatter_pair(text: str | None, lineup: list[str]) -> list[str] | None:
    """The two backends named by --scatter, which must both be in the run."""
    if not text:
        return None
    pair = split_specs(text)
    if len(pair) != 2 or not all(b in lineup for b in pair):
        raise UsageError(f"--scatter needs two backends of this run ({', '.join(lineup)}), "
                         f"got {text!r}")
    return pair


def _describe(settings: Settings, puzzles: int) -> str:
    """'limit 2, timeout 10 s, repeat 1, sample 100 (seed 0)' for the report's header."""
    parts = [f"limit {settings.limit}",
             f"timeout {settings.timeout:g} s" if settings.timeout else "no timeout",
             f"repeat {settings.repeat}" + (" (passes in shuffled order)"
                                            if settings.repeat > 1 else ""),
             "warm engines (each solve after the ones before)" if settings.warm
             else "cold (each solve on an engine as new)"]
    if settings.sample and settings.sample > puzzles:
        parts.append(f"sample {settings.sample} asked: all {puzzles} puzzles taken")
    elif settings.sample:
        parts.append(f"sample {settings.sample} (seed {settings.seed})")
    return ", ".join(parts) + "."


def command() -> list[str]:
    """The command line as typed."""
    return [Path(sys.argv[0]).name, *sys.argv[1:]]


def now() -> str:
    """The local time, ISO 8601 to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")

