"""`sudokulab compare`: run backends over a puzzle set, cross-check them, report timings.

Exit codes: 0 every answer agrees; 2 bad input (unknown dataset or backend, unreadable
file, bad option); 4 a backend disagrees with the others or the reference solutions, or
returns an invalid grid; 5 no backend can run; 130 interrupted (what is done is kept:
finish it with --resume).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from sudokulab.backends import BackendError, backend_class, make_backend, names, parse_spec
from sudokulab.harness import datasets, report
from sudokulab.harness.crosscheck import cross_check
from sudokulab.harness.progress import Progress
from sudokulab.harness.runlog import RunLog
from sudokulab.harness.runner import BackendFailed, Options, Record, cores, run_backend
from sudokulab.harness.stats import figures
from sudokulab.puzzle import Grid, Puzzle, PuzzleError, read_puzzles

EXIT_OK, EXIT_INPUT, EXIT_DISAGREE, EXIT_ENGINE, EXIT_INTERRUPTED = 0, 2, 4, 5, 130
RUNS = Path("runs")
CHOICES = ("backends", "limit", "timeout", "repeat", "seed")  # defaults: in Settings



class UsageError(ValueError):
    """A bad combination of options: exit code 2."""


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

    @property
    def name(self) -> str:
        """The puzzle set's short name: the dataset, or the file's stem."""
        return self.dataset or Path(self.file or "puzzles").name.split(".")[0]

    def options(self) -> Options:
        """How each puzzle is solved."""
        return Options(limit=self.limit, timeout=self.timeout, repeat=self.repeat)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Every option of `sudokulab compare`."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--dataset", "-d", metavar="NAME",
                        help="a bundled dataset (see `sudokulab datasets`; default: top95)")
    source.add_argument("--file", "-f", metavar="F",
                        help="a file of puzzles in any supported format (.gz works)")
    parser.add_argument("--backends", "-b", metavar="LIST",
                        help="'all' (every available backend, the default) or a comma list "
                             "of backend specs, e.g. norvig,sat:solver=glucose4,smt")
    parser.add_argument("--limit", "-k", type=_positive(int), metavar="K",
                        help="solutions to look for per puzzle (default 2: proves uniqueness)")
    parser.add_argument("--timeout", "-t", type=_positive(float), metavar="S",
                        help="seconds per puzzle and backend (default 10; 0: none)")
    parser.add_argument("--jobs", "-j", type=_positive(int), metavar="J",
                        help=f"worker processes per backend (default: the usable cores, "
                             f"{cores()} here)")
    parser.add_argument("--repeat", "-r", type=_positive(int), metavar="R",
                        help="solve each puzzle R times and keep the median time (default 1)")
    parser.add_argument("--sample", type=_positive(int), metavar="K",
                        help="run K puzzles drawn at random (see --seed) instead of all")
    parser.add_argument("--seed", type=int, metavar="S", help="seed for --sample (default 0)")
    parser.add_argument("--scatter", metavar="A,B",
                        help="the two backends of the scatter plot (default: the first two)")
    parser.add_argument("--out", "-o", metavar="DIR",
                        help="output folder (default: a new runs/<dataset>-<timestamp>)")
    parser.add_argument("--resume", action="store_true",
                        help="finish the interrupted run in --out (default: the latest in "
                             "runs/), solving only what runs.jsonl does not hold yet")
    parser.add_argument("--cluster", metavar="C",
                        help="run on Dask: local:N (a local cluster of N workers) or "
                             "tcp://HOST:PORT (a running `dask scheduler`); see README")


def run(argv: list[str] | None = None) -> int:
    """`sudokulab compare` without the rest of the command line (tests, benchmarks)."""
    parser = argparse.ArgumentParser(prog="sudokulab compare")
    add_arguments(parser)
    return main(parser.parse_args(argv))


def main(args: argparse.Namespace) -> int:
    """Run the comparison the arguments describe; the exit code."""
    try:
        return compare(args)
    except (PuzzleError, BackendError, UsageError) as error:
        print(f"sudokulab: error: {error}", file=sys.stderr)
        return EXIT_INPUT


def compare(args: argparse.Namespace) -> int:
    """Run, cross-check and report; raises PuzzleError, BackendError or UsageError."""
    folder, settings = _resumed(args) if args.resume else _fresh(args)
    puzzles, references = select(settings)
    lineup, engines, skipped = _lineup(settings.backends)
    pair = _scatter_pair(settings.scatter, lineup)
    if not lineup:
        print("sudokulab: error: no backend can run here:\n  " +
              "\n  ".join(f"{name}: {why}" for name, why in skipped.items()), file=sys.stderr)
        return EXIT_ENGINE
    runner = _runner(getattr(args, "cluster", None))
    folder.mkdir(parents=True, exist_ok=True)
    meta = _meta(folder, settings, engines)
    session = {"started": _now(), "command": _command(), "jobs": args.jobs or cores(),
               "backends": {}}
    meta["sessions"].append(session)
    report.write_json(meta, folder / "meta.json")
    log = RunLog(folder)
    try:
        with runner as run:  # runner.run_backend, or the same on a Dask cluster
            session.update(getattr(runner, "about", {}))
            _run(lineup, puzzles, settings.options(), session["jobs"], log, skipped, session,
                 run)
    except KeyboardInterrupt:
        session.update(finished=_now(), interrupted=True)
        report.write_json(meta, folder / "meta.json")
        print(f"\ninterrupted: {len(log.read())} results kept in {log.path}; finish the run "
              f"with:\n  sudokulab compare --resume --out {shlex.quote(str(folder))}",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        log.close()
    session.update(finished=_now(), interrupted=False, skipped=skipped)
    report.write_json(meta, folder / "meta.json")
    records = [r for r in log.read() if r.index in puzzles]
    return _report(settings, puzzles, references, records, skipped, pair, folder,
                   meta["environment"])


def _run(lineup: list[str], puzzles: dict[int, Puzzle], options: Options, jobs: int,
         log: RunLog, skipped: dict[str, str], session: dict,
         run: Callable[..., None] = run_backend) -> None:
    """Each backend in turn over the puzzles runs.jsonl does not hold yet."""
    done = log.done()
    for spec in lineup:
        todo = [(i, p) for i, p in puzzles.items() if (spec, i) not in done]
        if not todo:
            continue
        progress = Progress(spec, len(todo))

        def record(r: Record, progress: Progress = progress) -> None:
            log.append(r)
            progress.step()

        started = time.perf_counter()
        try:
            run(spec, todo, options, jobs=jobs, record=record)
        except BackendFailed as error:
            skipped[spec] = str(error)
        progress.finish()
        session["backends"][spec] = {"puzzles": progress.done,
                                     "wall": round(time.perf_counter() - started, 3)}


def _runner(cluster: str | None) -> contextlib.AbstractContextManager:
    """Where the puzzles are solved: local worker processes, or the Dask --cluster."""
    if not cluster:
        return contextlib.nullcontext(run_backend)
    from sudokulab.harness.cluster import Cluster, ClusterError  # imports Dask

    try:
        return Cluster(cluster)
    except ClusterError as error:
        raise UsageError(str(error)) from None


def _report(settings: Settings, puzzles: dict[int, Puzzle], references: dict[int, Grid],
            records: list[Record], skipped: dict[str, str], pair: list[str] | None,
            folder: Path, environment: dict) -> int:
    """Cross-check, write every report file, print the tables; the exit code."""
    from sudokulab.harness import plots  # matplotlib: only when there is something to draw

    runs: dict[str, list[Record]] = {}
    for record in records:
        runs.setdefault(record.backend, []).append(record)
    check = cross_check(puzzles, records, references, limit=settings.limit,
                        timeout=settings.timeout)
    title = f"{settings.name} ({len(puzzles)} puzzles)"
    summary = report.Report(title, _describe(settings),
                            [figures(b, rs) for b, rs in runs.items()], check, skipped,
                            bool(references), records, environment)
    if runs:
        summary.plots.append(plots.cactus(runs, folder / "cactus.png", title))
    pair = pair or list(runs)[:2]
    if len(pair) == 2 and all(b in runs for b in pair):
        summary.plots.append(plots.scatter(*pair, runs, folder / "scatter.png", title))
    (folder / "summary.md").write_text(report.markdown(summary), encoding="utf-8")
    report.write_csv(summary, folder / "summary.csv")
    print(report.terminal(summary, folder))
    return EXIT_DISAGREE if check.findings else EXIT_OK


# --- settings, fresh or resumed --------------------------------------------------------

def _fresh(args: argparse.Namespace) -> tuple[Path, Settings]:
    """The settings of a new run and its (new, empty) folder."""
    given = {k: getattr(args, k) for k in CHOICES if getattr(args, k) is not None}
    settings = Settings(dataset=args.dataset or (None if args.file else "top95"),
                        file=str(Path(args.file).resolve()) if args.file else None,
                        sample=args.sample, scatter=args.scatter, **given)
    settings.timeout = settings.timeout or None  # --timeout 0: no timeout
    if args.out:
        folder = Path(args.out)
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
        settings = Settings(**saved)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"cannot resume {folder}: no readable meta.json ({error})") from None
    settings.scatter = args.scatter or settings.scatter  # a choice of plot, free to change
    changed = {k: getattr(args, k) for k in (*CHOICES, "sample", "dataset")
               if getattr(args, k) is not None and getattr(args, k) != getattr(settings, k)}
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
    """meta.json as saved (on resume), or new, with this machine's environment."""
    path = folder / "meta.json"
    if path.exists():
        meta = json.loads(path.read_text(encoding="utf-8"))
    else:
        meta = {"settings": asdict(settings), "seed": settings.seed, "sessions": []}
    meta["environment"] = report.environment(engines)
    return meta


# --- puzzles and backends --------------------------------------------------------------

def select(settings: Settings) -> tuple[dict[int, Puzzle], dict[int, Grid]]:
    """The puzzles of the run by their index in the source, and reference solutions."""
    if settings.file:
        every, solutions = read_puzzles(settings.file), ()
        if not every:
            raise PuzzleError(f"{settings.file}: no puzzles in it")
    else:
        every, solutions = datasets.load(settings.dataset), datasets.solutions(settings.dataset)
    indices = range(len(every))
    if settings.sample and settings.sample < len(every):
        indices = sorted(random.Random(settings.seed).sample(indices, settings.sample))
    references = dict(enumerate(solutions)) if len(solutions) == len(every) else {}
    return ({i: every[i] for i in indices},
            {i: references[i] for i in indices if i in references})


def _lineup(asked: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
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


def _describe(settings: Settings) -> str:
    """'limit 2, timeout 10 s, repeat 1, sample 100 (seed 0)' for the report's header."""
    parts = [f"limit {settings.limit}",
             f"timeout {settings.timeout:g} s" if settings.timeout else "no timeout",
             f"repeat {settings.repeat}"]
    if settings.sample:
        parts.append(f"sample {settings.sample} (seed {settings.seed})")
    return ", ".join(parts) + "."


def _positive(kind: type):
    """An argparse type: a number of `kind` at least 1 (or 0 for --timeout)."""
    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value < (0 if kind is float else 1):
            raise argparse.ArgumentTypeError(f"{text!r} is too small")
        return value
    return convert


def _command() -> list[str]:
    """The command line as typed."""
    return [Path(sys.argv[0]).name, *sys.argv[1:]]


def _now() -> str:
    """The local time, ISO 8601 to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


if __name__ == "__main__":
    sys.exit(run())
