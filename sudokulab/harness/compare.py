"""The comparison service behind `sudokulab compare` and `sudokulab.compare`: run backends
over a puzzle set, cross-check them, report timings. Both doors build one `Settings` and
call `compare(settings)`; the command line turns its options into Settings
(sudokulab/commands/compare.py), the API its arguments (sudokulab/api.py). Exit codes
follow errors.PRECEDENCE (bad input before the run, 2; Ctrl-C 130, SIGTERM 143)."""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from sudokulab import datasets, errors
from sudokulab.backends import backend_class, make_backend, names, parse_spec
from sudokulab.errors import (
    BackendError,
    BackendFailed,
    Exit,
    NothingCompared,
    PuzzleError,
    Terminated,
    UsageError,
    error_line,
    time_limit,
    worst,
)
from sudokulab.formats import json_value
from sudokulab.formats.text import parse_many
from sudokulab.harness import provenance, report
from sudokulab.harness.comparison import Comparison
from sudokulab.harness.progress import Progress
from sudokulab.harness.records import Record, cores, merged
from sudokulab.harness.runlog import RunLog
from sudokulab.harness.runner import Options, run_backend
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Status

RUNS = provenance.RUNS
DEFAULT_DATASET = "top95"  # what a run with no dataset, file or puzzles takes



@dataclass(frozen=True)
class Settings:
    """One comparison, as `compare`'s options and `sl.compare`'s arguments both give it.

    Each field means what the `compare` option of the same name means, and defaults to
    it. The fields before `puzzles` are what the run *is*: meta.json saves them
    (`saved()`), so that --resume finishes the same run; the rest say how this session
    runs it.
    """

    dataset: str | None = None   # a bundled set (top95 when no file and no puzzles)
    file: str | None = None      # a file of puzzles (stored resolved, as meta.json keeps it)
    backends: str = "all"        # 'all' or backend specs joined by commas
    limit: int = 2               # solutions looked for per puzzle (2 proves uniqueness)
    timeout: float | None = 10.0  # seconds per puzzle and backend; 0, inf or None: none
    repeat: int = 1              # passes over the whole set
    sample: int | None = None    # puzzles drawn at random (seeded) instead of all
    seed: int = 0                # the sample's and each pass's order's seed
    scatter: str | None = None   # 'A,B': the scatter plot's pair (default: the first two)
    input_format: str = "auto"   # how `file` is read (sudokulab.formats.files.READERS)
    warm: bool = False           # solve each puzzle on the engine as earlier ones left it
    # --- how this session runs it (never saved) ---
    puzzles: tuple[Puzzle, ...] = ()  # puzzles in memory (the API's list), not a set or file
    jobs: int | None = None      # worker processes per backend (None: the usable cores)
    out: str | None = None       # the run folder (None: a new runs/<name>-<timestamp>)
    resume: bool = False         # finish the run in `out` (see `resumed`)
    strict: bool = False         # a bad puzzle of `file` refuses the file
    cluster: str | None = None   # a Dask cluster: local:N or tcp://HOST:PORT
    progress: bool = True        # progress on stderr
    keep: bool = True            # write the run folder; False: records in memory only
    certify: str | None = None   # a folder: each puzzle's verdict certified there (issue 56)

    def __post_init__(self) -> None:
        """Normalise as every door reads the options: no limit is None, a file its full
        path, and no puzzles at all the default dataset; UsageError for a bad timeout."""
        if self.timeout is not None:
            try:
                object.__setattr__(self, "timeout", time_limit(self.timeout))
            except ValueError:
                raise UsageError(f"--timeout {self.timeout}: give seconds, 0 or more "
                                 f"(0 or inf: no timeout)") from None
        if self.file:
            object.__setattr__(self, "file", str(Path(self.file).resolve()))
        if self.dataset is None and not (self.file or self.puzzles):
            object.__setattr__(self, "dataset", DEFAULT_DATASET)
        object.__setattr__(self, "puzzles", tuple(self.puzzles))
        if self.certify is not None:
            _certificates_folder(str(self.certify), self.out)
            object.__setattr__(self, "certify", str(self.certify))

    @classmethod
    def saved_fields(cls) -> tuple[str, ...]:
        """The names of the fields meta.json saves: what the run is."""
        names_ = [f.name for f in fields(cls)]
        return tuple(names_[:names_.index("puzzles")])

    def saved(self) -> dict:
        """The settings as meta.json holds them."""
        return {name: getattr(self, name) for name in self.saved_fields()}

    @classmethod
    def from_saved(cls, data: Mapping, **session: object) -> Settings:
        """The settings meta.json holds (a run saved before solves were cold was warm),
        with this session's fields."""
        known = {k: v for k, v in data.items() if k in cls.saved_fields()}
        return cls(**{"warm": True, **known, **session})

    @property
    def name(self) -> str:
        """The puzzle set's short name: the dataset, or the file's stem."""
        return self.dataset or Path(self.file or "puzzles").name.split(".")[0]

    def options(self) -> Options:
        """How each puzzle is solved."""
        return Options(limit=self.limit, timeout=self.timeout, warm=self.warm)


@dataclass
class Outcome:
    """What a comparison gives back, to whichever door asked for it."""

    comparison: Comparison
    folder: Path | None              # the run folder (None: kept in memory only)
    summary: report.Report | None    # the tables, written to `folder` (None before the end)
    explicit: bool                   # the backends were named, not 'all'
    stop: KeyboardInterrupt | None = None  # Ctrl-C or SIGTERM that cut the run short
    bad_input: list = field(default_factory=list)  # bad puzzles of the file, skipped
    asked: int = 0                   # solves the run asks for: per backend, puzzle and pass
    certify: bool = False            # whether each verdict was to be certified too

    @property
    def partial(self) -> bool:
        """Whether the run was cut short: the figures cover only what finished."""
        return self.stop is not None

    @property
    def terminated(self) -> bool:
        """Whether SIGTERM, not Ctrl-C, cut the run short."""
        return isinstance(self.stop, Terminated) or (self.partial and errors.terminated())

    @property
    def cause(self) -> str:
        """What cut the run short, in words: 'Ctrl-C', 'SIGTERM' or the lost cluster."""
        if isinstance(self.stop, errors.ClusterLost):
            return f"a lost cluster ({self.stop})"
        return errors.termination() if self.terminated else "Ctrl-C"

    def certified(self) -> int:
        """How many puzzles have their verdict certified."""
        return sum(1 for proof in self.comparison.proofs.values() if proof.verdict is not None)

    def proved(self) -> str:
        """', N of the M puzzles certified' for a --certify run cut short ('' otherwise)."""
        if not self.certify:
            return ""
        return f", {self.certified()} of the {len(self.comparison.puzzles)} puzzles certified"

    def answered(self) -> int:
        """How many solves finished: each pass of each backend on each puzzle (the lines
        of runs.jsonl; a Comparison's record merges a puzzle's passes)."""
        return sum(record.solves for record in self.comparison.records)

    def only_reports_left(self) -> bool:
        """Whether a run cut short had every answer (and certificate) in: only its report
        files were left to write."""
        return (self.answered() >= self.asked
                and (not self.certify or self.certified() >= len(self.comparison.puzzles)))

    def why_partial(self) -> str:
        """What heads the tables of a run cut short after 'PARTIAL: ' (the command's and
        the API's alike): what stopped it, what finished, that the figures cover only
        that; '' for a run that finished."""
        if not self.partial:
            return ""
        done, proved = self.answered(), self.proved()
        if self.only_reports_left():
            return (f"stopped by {self.cause} while the report files were written: all "
                    f"{done} answers finished{proved}")
        each = "backend, puzzle and pass" if self.comparison.repeat > 1 else \
            "backend and puzzle"
        return (f"stopped by {self.cause}: {done} of the {self.asked} answers asked for "
                f"(one per {each}) finished{proved}; the figures cover only those")

    def exit_code(self) -> int:
        """The run's exit code (errors.PRECEDENCE), with one line on stderr saying why
        when it is not 0 or 1; 130 or 143 for a run cut short."""
        if self.partial:
            return Exit.TERMINATED if self.terminated else Exit.INTERRUPTED
        result = self.comparison
        code = exit_code(result.check.findings, result.records, result.skipped,
                         self.explicit, {v.consensus for v in result.check.puzzles})
        if self.bad_input and code not in (Exit.DISAGREE, Exit.ENGINE):
            print(f"sudokulab: {len(self.bad_input)} bad puzzle(s) of "
                  f"{result.meta['settings']['file']} skipped (listed above): exit code 2",
                  file=sys.stderr)
            return Exit.INPUT
        return code


def compare(settings: Settings, *, caller: Mapping[str, object] | None = None) -> Outcome:
    """The one comparison: line up the backends, load the puzzles, run the workers,
    collect the records, summarise, and (with `settings.keep`) write the run folder.

    `caller` adds to the session meta.json records (the API names itself). Bad input
    raises PuzzleError, BackendError or UsageError before any solve; no backend that can
    run, NothingCompared. Ctrl-C or SIGTERM during the run, or while its reports are
    written, ends it with what finished kept (runs.jsonl, meta.json) and returned, `stop`
    set and the report files left for `--resume` to write.
    """
    folder = run_folder(settings) if settings.keep else None
    if settings.certify:  # refused now, not after the whole run
        from sudokulab.certificates.certificate import writable

        writable(settings.certify)
    if settings.repeat >= 2:  # intervals and paired tests: refused now, not after the run
        from sudokulab.harness import uncertainty

        uncertainty.need()
    bad_input: list = []
    puzzles, references = select(settings, bad_input)
    lineup, engines, skipped = line_up(settings.backends)
    pair = _scatter_pair(settings.scatter, lineup)
    if not lineup:
        raise NothingCompared(failures("no backend can run here", skipped))
    runner = _runner(settings.cluster)  # a bad --cluster is refused before any folder is made
    jobs = _jobs(settings, len(puzzles), api=bool(caller and "api" in caller))
    meta = _meta(folder, settings, engines, provenance.fingerprint(puzzles))
    if settings.resume:  # said once the run is known to go on with the same puzzles
        print(f"resuming {folder}" + (f", certifying in {settings.certify}"
                                      if settings.certify else ""), file=sys.stderr)
    # environment describes the latest session, but for the code that measured the records
    # (keep_measurers); each session keeps its own code and load, so a run resumed at
    # another commit says so
    session = {"started": now(), "command": command(), **(caller or {}), "jobs": jobs,
               "backends": {}, "source": meta["environment"].get("source"),
               "load before": meta["environment"].get("load before")}
    if settings.certify:  # said at once: a run stopped before its proofs still resumes them
        session["certify"] = {"folder": settings.certify}
    meta["sessions"].append(session)
    provenance.keep_measurers(meta)  # the run's code, not this session's, unless it measures
    records, stop = _solve(lineup, puzzles, settings, jobs, skipped, session, folder, meta,
                           runner)
    proofs, stop = _certify(settings, puzzles, records, folder, session, meta, stop)
    result = comparison(settings, puzzles, references, records, skipped, meta, proofs)
    summary = None
    if stop is None and folder is not None:
        try:
            summary = write_reports(result, pair, folder)
        except KeyboardInterrupt as interruption:  # every answer is in: --resume writes them
            stop = interruption
    outcome = Outcome(result, folder, summary, settings.backends.strip() != "all", stop,
                      bad_input, len(lineup) * len(puzzles) * settings.repeat,
                      bool(settings.certify))
    if outcome.partial:  # the Comparison says so itself: its summary, repr and the API's
        result.partial = outcome.why_partial()
        result.finished = finished(result.records, puzzles, [s for s in lineup
                                                             if s not in skipped],
                                   settings.repeat)
    return outcome


def finished(records: list[Record], puzzles: Mapping[int, Puzzle], lineup: list[str],
             passes: int) -> int:
    """How many of the puzzles every backend of the lineup answered, in every pass."""
    done = {(r.backend, r.index) for r in records if r.solves >= passes}
    return sum(1 for i in puzzles if all((spec, i) in done for spec in lineup))


def _jobs(settings: Settings, puzzles: int, api: bool = False) -> int:
    """The worker processes per backend, warning (on stderr) of more than the cores and
    of a sample larger than the puzzle set, each named as its caller spells it (`api`:
    sample=5, else --sample 5)."""
    def named(option: str, value: object) -> str:
        return f"{option}={value}" if api else f"--{option} {value}"

    jobs = settings.jobs or cores()
    if settings.cluster and settings.jobs:
        print(f"sudokulab: warning: {named('jobs', settings.jobs)} does not apply to a "
              f"cluster: its workers' threads set how many puzzles run at once",
              file=sys.stderr)
    elif jobs > cores():
        print(f"sudokulab: warning: {named('jobs', jobs)} is more than the {cores()} usable "
              f"cores: workers share cores, so each puzzle's time grows", file=sys.stderr)
    if settings.sample and settings.sample > puzzles:
        print(f"sudokulab: warning: {named('sample', settings.sample)} of {puzzles} "
              f"puzzles: running all {puzzles}", file=sys.stderr)
    return jobs


def _solve(lineup: list[str], puzzles: dict[int, Puzzle], settings: Settings, jobs: int,
           skipped: dict[str, str], session: dict, folder: Path | None, meta: dict,
           runner: contextlib.AbstractContextManager
           ) -> tuple[list[Record], KeyboardInterrupt | None]:
    """Run every pass, each record kept as it comes (runs.jsonl, or memory); the records
    (passes merged) and the Ctrl-C or SIGTERM that stopped the run, if one did."""
    lines: list[Record] = []
    log = RunLog(folder) if folder is not None else None
    if folder is not None:
        _start(folder, meta)
    stop = None
    try:
        with runner as run:  # runner.run_backend, or the same on a Dask cluster
            session.update(getattr(runner, "about", {}))
            solve_passes(lineup, puzzles, settings, jobs,
                         log.append if log else lines.append, skipped,
                         done=log.done(settings.repeat) if log else frozenset(), run=run,
                         walls=session["backends"], progress=settings.progress)
    except KeyboardInterrupt as interruption:
        stop = interruption
    finally:
        if log:
            log.close()
    session.update(finished=now(), interrupted=stop is not None,
                   **({"terminated": True} if isinstance(stop, Terminated) or errors.terminated()
                      else {}),
                   skipped=dict(skipped))
    # a busy machine slows every engine
    meta["environment"]["load after"] = session["load after"] = provenance.load()
    provenance.keep_measurers(meta)  # with this session's records counted
    if folder is not None:
        report.write_json(meta, folder / "meta.json")
    records = log.read() if log else merged(lines)
    return [r for r in records if r.index in puzzles], stop


def _certify(settings: Settings, puzzles: dict[int, Puzzle], records: list[Record],
             folder: Path | None, session: dict, meta: dict,
             stop: KeyboardInterrupt | None) -> tuple[dict, KeyboardInterrupt | None]:
    """With `settings.certify`, each puzzle's verdict certified (those certified.jsonl
    lacks), kept as it comes; the proofs by puzzle index (those of the run folder's
    certified.jsonl without it) and the Ctrl-C or SIGTERM that stopped the run."""
    from sudokulab.harness.certified import ProofLog, certify_all

    log = ProofLog(folder) if folder is not None else None
    proofs = log.read() if log else {}
    if not settings.certify or stop is not None:
        return {i: p for i, p in proofs.items() if i in puzzles}, stop

    def keep(proof) -> None:
        proofs[proof.index] = proof
        if log:
            log.append(proof)

    started = time.perf_counter()
    try:
        # a puzzle certified in an earlier session keeps its certificate if it is there
        done = {i: p for i, p in proofs.items()
                if p.verdict is not None and Path(p.certificate).is_file()}
        certify_all(puzzles, Path(settings.certify), settings.name, records, keep,
                    done=done, progress=settings.progress)
    except KeyboardInterrupt as interruption:
        stop = interruption
    session["certify"].update(puzzles=len(proofs), wall=round(time.perf_counter() - started, 3),
                              interrupted=stop is not None)
    if folder is not None:
        report.write_json(meta, folder / "meta.json")
    return {i: p for i, p in proofs.items() if i in puzzles}, stop


def _certificates_folder(certify: str, out: str | None) -> None:
    """UsageError for a --certify folder that cannot hold only certificates: a file, or
    the run folder itself (whose meta.json `sudokulab verify DIR` would read)."""
    if not certify.strip():
        raise UsageError("--certify needs a folder for the certificates")
    where = Path(certify)
    if where.exists() and not where.is_dir():
        raise UsageError(f"--certify {certify} is a file, not a folder: choose another")
    if out and where.resolve() == Path(out).resolve():
        raise UsageError(f"--certify {certify} is the run folder (--out): give the "
                         f"certificates a folder of their own, e.g. {out}/certificates")


def run_folder(settings: Settings) -> Path:
    """The folder the run is written to: `out` (one holding no run yet, unless it is
    resumed), or a new runs/<name>-<timestamp>; UsageError for one that cannot be."""
    if settings.resume:
        if not settings.out:
            raise UsageError("resume needs the run's folder: make the settings with resumed()")
        return Path(settings.out)
    if not settings.out:
        return _new_folder(settings.name)
    folder = Path(settings.out)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--out {folder} is a file, not a folder: choose another --out")
    if (folder / "runs.jsonl").exists():
        raise UsageError(f"{folder} holds a run already: add --resume to finish it, "
                         f"or choose another --out")
    return folder


def _typed(field: str, value: object) -> str:
    """A setting as it is typed on the command line: '--warm', '--timeout 3'."""
    option = f"--{field.replace('_', '-')}"
    if isinstance(value, bool):
        return option if value else f"no {option}"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{option} {value}"


def resumed(out: str | None, given: Mapping[str, object]) -> Settings:
    """The settings of the run to finish, in `out` (default: the latest in runs/, of the
    dataset given): the saved ones, with this session's fields from `given`; UsageError
    when `given` changes what the run is (the scatter pair, a choice of plot, may)."""
    dataset = given.get("dataset")
    named = dataset if isinstance(dataset, str) else None
    folder = Path(out) if out else provenance.latest_run(named)
    meta, settings = saved_run(folder, "cannot resume ")
    asked = Settings(**{k: v for k, v in given.items() if k in Settings.saved_fields()})
    changed = {k: given[k] for k in given if k in Settings.saved_fields() and k != "scatter"
               and getattr(asked, k) != getattr(settings, k)}
    if changed:
        options = ", ".join(_typed(k, v) for k, v in changed.items())
        raise UsageError(f"{folder} was started with other settings than {options}; resume "
                         f"without them, or start a new run")
    session = {k: v for k, v in given.items() if k not in Settings.saved_fields()}
    certified = _certified_in(meta)
    asked = session.get("certify")
    if certified and not asked:  # the run certifies: so does its end
        session["certify"] = certified
    elif certified and Path(str(asked)).resolve() != Path(certified).resolve():
        raise UsageError(f"{folder} certifies in {certified}: resume without --certify, or "
                         f"with --certify {certified} (its certificates are there)")
    return replace(settings, scatter=given.get("scatter") or settings.scatter,
                   **{**session, "out": str(folder), "resume": True})


def _certified_in(meta: dict) -> str | None:
    """The certificates' folder of the latest session of a run that certified (None:
    none did)."""
    for session in reversed(meta.get("sessions") or []):
        folder = (session.get("certify") or {}).get("folder")
        if folder:
            return str(folder)
    return None


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


def write_reports(result: Comparison, pair: list[str] | None, folder: Path) -> report.Report:
    """Write every report file of a finished run (summary.md, summary.csv and the other
    tables, the plots) into its folder; the Report they are made of."""
    from sudokulab.backends.extras import absent
    from sudokulab.harness import plots  # matplotlib: only when there is something to draw

    summary = result.report(result.meta["environment"])
    runs, heading, wrong, timeout = result.runs, result.heading, result.wrong, result.timeout
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
    rates = {f.backend: f.rate for f in summary.figures if f.rate}
    if report.limit_rate(summary) and len(rates) >= 2:  # the paradigms from the limit down
        summary.plots.append(plots.limit(rates, folder / "limit.png", heading))
    (folder / "summary.md").write_text(report.markdown(summary), encoding="utf-8")
    report.write_csv(summary, folder / "summary.csv")
    summary.tables = report.write_sections(summary, folder)
    return summary


def comparison(settings: Settings, puzzles: dict[int, Puzzle], references: dict[int, Grid],
               records: list[Record], skipped: dict[str, str],
               meta: dict | None = None, proofs: dict | None = None) -> Comparison:
    """The Comparison of a run's records (and its meta.json, which says its mode and
    where it ran; and its certified verdicts): what the report files and the API show."""
    result = Comparison(puzzles, records, f"{settings.name} ({len(puzzles)} puzzles)",
                        limit=settings.limit, timeout=settings.timeout,
                        repeat=settings.repeat, seed=settings.seed, references=references,
                        skipped=skipped, about=_describe(settings, len(puzzles)),
                        meta=meta or {}, given=list(settings.puzzles),
                        proofs=proofs or {})
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
    reasons = {Exit.DISAGREE: f"{len(findings)} wrong answer(s) (see the findings above)"
                              if findings else "",
               Exit.ENGINE: "; ".join(filter(None, (
                   f"could not run {', '.join(failed)}" if failed else "",
                   *(f"{status.value} answers from {', '.join(specs)}"
                     for status, specs in troubles.items()
                     if specs and status != Status.TIMEOUT)))),
               Exit.TIMEOUT: f"timeouts from {', '.join(troubles[Status.TIMEOUT])}"
                             if troubles[Status.TIMEOUT] else ""}
    code = worst([code for code, why in reasons.items() if why] +
                 [Exit.NONE if "none" in consensus else Exit.OK])
    if reasons.get(code):
        print(f"sudokulab: exit {code}: {reasons[code]}", file=sys.stderr)
    return code


# --- run folders and meta.json ---------------------------------------------------------

def saved_run(folder: Path, doing: str = "", **session: object) -> tuple[dict, Settings]:
    """A run folder's meta.json and the settings it saved; UsageError saying what is wrong
    with it (`doing` opens the message)."""
    where = folder / "meta.json"
    try:
        meta = json_value(where.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"{doing}{folder}: no run here: {where} cannot be read "
                         f"({error.strerror or error})") from None
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{doing}{folder}: {where} is not JSON") from None
    try:
        return meta, Settings.from_saved(meta["settings"], **session)
    except UsageError as error:  # a saved setting the run refuses (a bad timeout): say which
        raise UsageError(f"{doing}{folder}: {where}: {error}") from None
    except (AttributeError, KeyError, TypeError, ValueError):
        raise UsageError(f"{doing}{folder}: {where} holds no run's settings (a 'settings' "
                         f"object as `sudokulab compare` writes it)") from None


def read_run(folder: Path) -> Comparison:
    """The Comparison of a run from its folder (meta.json and runs.jsonl), written by
    `sudokulab compare` or Comparison.save; UsageError when it holds no run."""
    meta, settings = saved_run(folder, keep=False)
    moved = folder / Path(settings.file or "").name
    if settings.file and not Path(settings.file).exists() and moved.is_file():
        settings = replace(settings, file=str(moved))  # puzzles.jsonl, moved with its folder
    puzzles, references = select(settings)
    records = [r for r in RunLog(folder).read() if r.index in puzzles]
    skipped = dict((meta.get("sessions") or [{}])[-1].get("skipped", {}))
    from sudokulab.harness.certified import ProofLog

    proofs = {i: p for i, p in ProofLog(folder).read().items() if i in puzzles}
    result = comparison(settings, puzzles, references, records, skipped, proofs=proofs)
    result.meta = {**meta, "settings": settings.saved()}
    if "ratings" in meta:  # kept by Comparison.save
        result.ratings = {int(k): float(v) for k, v in meta["ratings"].items()}
    return result


def _new_folder(name: str) -> Path:
    """runs/<name>-<timestamp>, made unique if two runs start in the same second."""
    stem = RUNS / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder, k = stem, 1
    while folder.exists():
        k += 1
        folder = Path(f"{stem}-{k}")
    return folder


def _meta(folder: Path | None, settings: Settings, engines: dict[str, str],
          puzzles: str) -> dict:
    """meta.json as saved (on resume), or new, with what a reader needs to cite this
    session (provenance.environment: the code, versions, machine), its mode, its input's
    hash and the load as it starts (the session's end adds the load after). `puzzles` is
    the fingerprint of the puzzles this session read: UsageError when a resumed run
    started with others (its file edited since), whose answers would be paired with the
    wrong puzzles."""
    if folder is None or not (folder / "meta.json").exists():
        return new_meta(settings, engines, puzzles)
    meta = json_value((folder / "meta.json").read_text(encoding="utf-8"))
    if meta.get("puzzles", puzzles) != puzzles:  # a run saved before it was kept: unknown
        source = settings.file or settings.dataset or "the list given"
        raise UsageError(f"the puzzles of {source} are not those the run in {folder} "
                         f"started with: start a new run")
    meta["environment"] = provenance.environment(engines, settings)
    return meta


def new_meta(settings: Settings, engines: Mapping[str, str], puzzles: str | None = None
             ) -> dict:
    """The meta.json of a new run, with no session yet; `puzzles`, the fingerprint of
    its puzzles (provenance.fingerprint), which --resume checks."""
    return {"settings": settings.saved(), "seed": settings.seed, "sessions": [],
            **({"puzzles": puzzles} if puzzles else {}),
            "environment": provenance.environment(dict(engines), settings)}


# --- puzzles and backends --------------------------------------------------------------

def select(settings: Settings, skipped: list | None = None
           ) -> tuple[dict[int, Puzzle], dict[int, Grid]]:
    """The puzzles of the run by their index in the source, and reference solutions.

    A bad puzzle of a --file is printed with its file and line and left out (appended to
    `skipped`); with `settings.strict`, it is a PuzzleError instead.
    """
    if settings.puzzles:  # a list in memory: no references
        given = settings.puzzles
        return {i: given[i] for i in drawn(len(given), settings)}, {}
    if settings.file:
        from sudokulab.formats import files

        entries = files.read_file(settings.file, fmt=settings.input_format)
        good = [k for k, entry in enumerate(entries) if entry.puzzle is not None]
        bad = [entry for entry in entries if entry.puzzle is None]
        if bad and (settings.strict or not good):  # nothing to run: one line says why
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



def failures(headline: str, why: Mapping[str, str]) -> str:
    """'headline: norvig: why; sat: why' on one line."""
    return f"{headline}: " + "; ".join(f"{name}: {reason}" for name, reason in why.items())
