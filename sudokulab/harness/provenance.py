"""What a reader needs to cite a run: the commit and version of the code that measured,
the versions of the engines' and statistics' libraries, the machine (CPU, frequency,
memory, load) and the SHA-256 of the input. `compare` records it in meta.json, the
report's footer names it and `sudokulab compare --cite` turns it into a citation."""

from __future__ import annotations

import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from sudokulab.errors import UsageError
from sudokulab.formats import json_value

if TYPE_CHECKING:
    from sudokulab.puzzle import Puzzle

RUNS = Path("runs")  # where compare keeps its runs, each in a folder of its own

# The checkout the package runs from, when it runs from one (an editable install, or the
# source tree); git is asked about this folder only, never about the current directory.
ROOT = Path(__file__).resolve().parents[2]
CITATION = ROOT / "CITATION.cff"
# Extras of pyproject.toml whose libraries no compare run uses: every other extra holds an
# engine's or a statistic's library, so a new engine's is recorded without a list here.
UNMEASURED_EXTRAS = ("test", "model", "web", "vision", "all")
# Libraries a run uses that no extra names: janus-swi is built by scripts/install-janus,
# distributed comes with dask[distributed].
UNDECLARED = ("janus-swi", "distributed")
EXTRA = re.compile(r"""extra\s*==\s*["']([\w-]+)["']""")  # a requirement's marker
# Who and what, when CITATION.cff is not beside the package (an installed wheel).
AUTHORS = "The sudokulab authors"
TITLE = "sudokulab"


# --- the code: commit, dirty tree, version ----------------------------------------------

def _git(*args: str) -> str | None:
    """git's output about the package's own checkout; None when git is missing or fails."""
    try:
        done = subprocess.run(["git", "--no-optional-locks", "-C", str(ROOT), *args],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def commit() -> str | None:
    """The commit checked out where the package runs from; None when that is no git
    checkout of its own (a package installed inside some other repository's tree)."""
    found = (_git("rev-parse", "--show-toplevel", "HEAD") or "").splitlines()
    if len(found) != 2 or Path(found[0]).resolve() != ROOT:
        return None
    return found[1]


def dirty() -> bool | None:
    """Whether the checkout differs from its commit (untracked files under runs/, the
    runs themselves, do not count); None when it is no checkout."""
    status = _git("status", "--porcelain")
    if status is None or commit() is None:
        return None
    return any(line and not line.startswith("?? runs/") for line in status.splitlines())


def installed() -> str:
    """The version the installed package's metadata says."""
    try:
        return metadata.version("sudokulab")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def pyproject() -> dict:
    """The [project] table of the checkout's pyproject.toml; empty without one (an
    installed wheel) or before Python 3.11 (no tomllib)."""
    try:
        import tomllib

        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")
                                )["project"]
    except (ImportError, OSError, KeyError, ValueError):
        return {}
    return project if project.get("name") == "sudokulab" else {}


def declared() -> str:
    """The version pyproject.toml of the checkout declares (the installed one without it:
    an editable install's metadata is as old as its last `pip install`)."""
    return pyproject().get("version") or installed()


def version(head: str | None, changed: bool | None) -> str:
    """'0.1.0+g1a2b3c4' ('.dirty' added for local changes) from git; without git, the
    installed metadata's version (the same at every commit, so the commit matters)."""
    if head is None:
        return installed()
    return f"{declared()}+g{head[:7]}" + (".dirty" if changed else "")


def source() -> dict:
    """The code that measured: its commit, whether the tree was dirty, its version."""
    head = commit()
    changed = dirty() if head else None
    return {"commit": head, "dirty": changed, "version": version(head, changed)}


# --- the libraries ----------------------------------------------------------------------

def requirements() -> list[tuple[str, str | None]]:
    """Each requirement with its extra (None: the core), from the checkout's
    pyproject.toml, or else from the installed package's metadata."""
    project = pyproject()
    if project:
        return [(r, None) for r in project.get("dependencies", [])] + \
               [(r, extra) for extra, rs in project.get("optional-dependencies", {}).items()
                for r in rs]
    try:
        required = metadata.requires("sudokulab") or []
    except metadata.PackageNotFoundError:
        return []
    return [(r, found[1] if (found := EXTRA.search(r)) else None) for r in required]


def libraries() -> list[str]:
    """The distributions whose versions a run records: the package, its core
    dependencies and those of every extra a run may use, then UNDECLARED."""
    found = ["sudokulab"]
    for requirement, extra in requirements():
        name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
        if name and name[0] != "sudokulab" and extra not in UNMEASURED_EXTRAS:
            found.append(name[0])
    return list(dict.fromkeys([*found, *UNDECLARED]))


def versions() -> dict[str, str | None]:
    """Python's version, each library's (None: not installed) and the executables'."""
    found: dict[str, str | None] = {"python": platform.python_version()}
    for name in libraries():
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    found["minizinc (executable)"] = minizinc()
    found["SWI-Prolog"] = swi_prolog()
    return found


def minizinc() -> str | None:
    """The version of the `minizinc` executable on the PATH (the mzn backend's), if any."""
    path = shutil.which("minizinc")
    if path is None:
        return None
    try:
        said = subprocess.run([path, "--version"], capture_output=True, text=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"version (\S+)", said)
    return found[1] if found else said.strip().splitlines()[0] if said.strip() else None


def swi_prolog() -> str | None:
    """The SWI-Prolog release the prolog backend would use, if there is one (its finder
    caches what it asked the executable, so this costs a file read once known)."""
    from sudokulab.backends.swipl import find_swipl
    from sudokulab.errors import NotAvailable

    try:
        return find_swipl().release
    except (NotAvailable, OSError):
        return None


# --- the machine ------------------------------------------------------------------------

def machine() -> dict:
    """The machine: platform, CPU and its frequency, cores, memory, the interpreter."""
    from sudokulab.harness.records import cores

    return {"platform": platform.platform(), "cpu": cpu_model(), **frequency(),
            "cores": os.cpu_count(), "usable cores": cores(), **memory(),
            "python executable": sys.executable}


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, or what platform knows."""
    for line in _lines("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def frequency() -> dict[str, float | None]:
    """The cores' mean clock now and the highest they may reach, in MHz (None unknown)."""
    now = [float(line.split(":", 1)[1]) for line in _lines("/proc/cpuinfo")
           if line.startswith("cpu MHz")]
    top = _lines("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
    return {"cpu MHz": round(sum(now) / len(now), 1) if now else None,
            "cpu max MHz": round(int(top[0]) / 1000, 1) if top and top[0].isdigit() else None}


def memory() -> dict[str, int | None]:
    """The machine's memory and how much of it was free for use, in MiB (None unknown)."""
    kib = {}
    for line in _lines("/proc/meminfo"):
        key, _, value = line.partition(":")
        if key in ("MemTotal", "MemAvailable") and value.split():
            kib[key] = int(value.split()[0])
    return {"memory MiB": kib["MemTotal"] // 1024 if "MemTotal" in kib else None,
            "memory available MiB": kib["MemAvailable"] // 1024
            if "MemAvailable" in kib else None}


def load() -> list[float] | None:
    """The load average over 1, 5 and 15 minutes (None where the system has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def _lines(path: str) -> list[str]:
    """A small system file's lines; none when it cannot be read (not Linux)."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


# --- the input --------------------------------------------------------------------------

def input_of(dataset: str | None, file: str | None) -> dict:
    """What was solved: the dataset or file, and the SHA-256 of its bytes as stored (a
    bundled set's compressed file; None when it cannot be read)."""
    if file:
        return {"file": file, "sha256": _sha256_file(Path(file))}
    if not dataset:  # puzzles handed to the API: no file holds them
        return {"dataset": None, "sha256": None}
    from sudokulab import datasets

    try:
        data = (datasets.DATA / f"{dataset}.txt.gz").read_bytes()
    except OSError:
        return {"dataset": dataset, "sha256": None}
    return {"dataset": dataset, "sha256": hashlib.sha256(data).hexdigest()}


def fingerprint(puzzles: Iterable[Puzzle] | Mapping[int, Puzzle]) -> str:
    """'N:hash' of a run's puzzles (with a mapping, each with its index in the source), so
    that a resumed run (`compare --resume`, `ladder --resume`) is sure to go on with the
    same: a file edited between the sessions would pair its new puzzles with the old
    answers. The puzzles as read, not the bytes: a comment or a blank line added is no
    change."""
    digest = hashlib.sha256()
    if isinstance(puzzles, Mapping):
        for index, puzzle in puzzles.items():
            digest.update(f"{index}:{puzzle!r}".encode())
    else:
        puzzles = list(puzzles)
        for puzzle in puzzles:
            digest.update(repr(puzzle).encode())
    return f"{len(puzzles)}:{digest.hexdigest()[:16]}"


def _sha256_file(path: Path) -> str | None:
    """A file's SHA-256, read in blocks (a file of millions of puzzles fits no memory)."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as data:
            while block := data.read(1 << 20):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


# --- everything, as meta.json holds it --------------------------------------------------

def environment(engines: Mapping[str, str], settings: object = None) -> dict:
    """Where a session's figures come from, for meta.json: the code, the libraries' and
    the engines' versions, the machine; with the run's settings (harness.compare's), also
    its mode, its input's hash and the load as it starts."""
    found = {"source": source(), "versions": versions(), "engines": dict(engines),
             "machine": machine()}
    if settings is not None:
        found.update({"mode": mode(getattr(settings, "warm", False)),
                      "input": input_of(settings.dataset, settings.file),
                      "load before": load()})
    return found


def measured_by(sessions: list[dict]) -> list[dict]:
    """Each code that measured a run's records, in the order it first did: its source
    (commit, dirty, version, as its sessions recorded it) with `records`, the answers its
    sessions measured; a session that measured none (a resume of a finished run, one
    stopped at once) is left out, so resuming never takes the records over."""
    found: list[dict] = []
    for session in sessions:
        source = session.get("source")
        count = sum(int((solved or {}).get("puzzles", 0))
                    for solved in (session.get("backends") or {}).values())
        if not isinstance(source, dict) or not count:
            continue
        same = next((s for s in found if all(s.get(key) == source.get(key)
                                               for key in ("commit", "dirty", "version"))),
                    None)
        if same is None:
            found.append({**source, "records": count})
        else:
            same["records"] += count
    return found


def keep_measurers(meta: dict) -> None:
    """Set meta.json's environment `source` to the code that measured the run's first
    records (the run's own, not the latest session's) and `sources` to every code that
    measured some, with how many records each (measured_by); left as the session's own
    while no session has measured any."""
    sources = measured_by(meta.get("sessions") or [])
    if sources:
        environment = meta.setdefault("environment", {})
        environment["source"] = {k: v for k, v in sources[0].items() if k != "records"}
        environment["sources"] = sources


def sources_of(environment: Mapping) -> list[dict]:
    """The codes that measured a run's records (environment `sources`; a run saved before
    it was kept: its one `source`, its records not counted)."""
    sources = environment.get("sources")
    if isinstance(sources, list) and sources:
        return [s for s in sources if isinstance(s, dict)]
    source = environment.get("source")
    return [source] if isinstance(source, dict) and source else []


def described(source: Mapping, width: int = 40) -> str:
    """'commit 1a2b3c4d5e6f (dirty: uncommitted changes)', 'no git commit known'."""
    if not source.get("commit"):
        return "no git commit known"
    dirty = " (dirty: uncommitted changes)" if source.get("dirty") else ""
    return f"commit {source['commit'][:width]}{dirty}"


def mode(warm: bool) -> str:
    """'warm' or 'cold': whether engines kept what earlier solves taught them."""
    return "warm" if warm else "cold"


# --- the citation -----------------------------------------------------------------------

def software() -> dict:
    """The software's citation fields (title, authors, version, license) from
    CITATION.cff; AUTHORS, TITLE and the installed version without it."""
    try:
        text = CITATION.read_text(encoding="utf-8")
    except OSError:
        return {"title": TITLE, "authors": [AUTHORS], "version": installed(), "license": None}
    return cff_fields(text)


def cff_fields(text: str) -> dict:
    """title, version, license and the authors' names of a CITATION.cff: the top-level
    scalars and the `name:` of each author (all this project's file uses; PyYAML is no
    dependency of the package)."""
    fields: dict = {"authors": []}
    section = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        value = value.strip().strip("\"'")
        if line[:1].isalpha():
            section = key
            if key in ("title", "version", "license"):
                fields[key] = value
        elif section == "authors" and key.strip(" -") in ("name", "given-names"):
            fields["authors"].append(value)
    return fields


def citation(folder: Path, meta: Mapping) -> str:
    """How to cite the run in `folder` whose meta.json is `meta`: the software as text and
    as a BibTeX @software entry, then what identifies the run."""
    about = meta.get("environment") or {}
    code = about.get("source") or {}
    started = (meta.get("sessions") or [{}])[0].get("started") or ""
    cited = {**software(), "commit": code.get("commit"), "dirty": code.get("dirty"),
             "year": started[:4] if started[:4].isdigit() else None,
             "also": sources_of(about)[1:]}
    cited["version"] = code.get("version") or cited.get("version")  # the run's, from git
    return "\n".join(["Cite the software as:", f"  {plain(cited)}", "", "BibTeX:",
                      *bibtex(cited), "", "and the run as:", *run_lines(folder, meta)])


def plain(cited: Mapping) -> str:
    """'The sudokulab authors (2026). sudokulab (version ..., commit ...) [Computer
    software]. License: MIT.'"""
    year = f" ({cited['year']})" if cited.get("year") else ""
    changes = " with uncommitted changes" if cited.get("dirty") else ""
    commit = f", commit {cited['commit']}{changes}" if cited.get("commit") else ""
    licence = f" License: {cited['license']}." if cited.get("license") else ""
    also = "".join(f"; {also_line(source)}" for source in cited.get("also") or [])
    return (f"{', '.join(cited['authors'])}{year}. {cited.get('title', TITLE)} (version "
            f"{cited.get('version')}{commit}{also}) [Computer software].{licence}")


def also_line(source: Mapping) -> str:
    """'records also measured by version 0.1.0+g1a2b3c4, commit 1a2b... (5 records)':
    a code that measured some of a run's records after its first."""
    count = f" ({source['records']} records)" if source.get("records") else ""
    return (f"records also measured by version {source.get('version')}, "
            f"{described(source)}{count}")


def bibtex(cited: Mapping) -> list[str]:
    """A BibTeX @software entry (biblatex's type); the authors braced, as an entity's name
    must be, and the commit in its note."""
    note = ", ".join(filter(None, [cited.get("commit") and f"commit {cited['commit']}",
                                   cited.get("dirty") and "dirty tree",
                                   *map(also_line, cited.get("also") or [])]))
    fields = {"author": " and ".join(f"{{{name}}}" for name in cited["authors"]),
              "title": cited.get("title", TITLE), "version": cited.get("version"),
              "year": cited.get("year"), "license": cited.get("license"), "note": note}
    key = f"sudokulab_{(cited.get('commit') or cited.get('version') or 'run')[:7]}"
    return [f"@software{{{key},", *(f"  {name:<7} = {{{value}}}," for name, value
                                    in fields.items() if value), "}"]


def run_lines(folder: Path, meta: Mapping) -> list[str]:
    """What identifies the run: its folder, commit, dirty flag, version, mode, seed,
    input and its hash, and when it ran."""
    about = meta.get("environment") or {}
    code, given = about.get("source") or {}, about.get("input") or {}
    settings = meta.get("settings") or {}
    sessions = meta.get("sessions") or [{}]
    started, finished = sessions[0].get("started"), sessions[-1].get("finished")
    dirty = {True: "yes: uncommitted changes, the commit alone does not hold the code "
                   "that measured", False: "no"}.get(code.get("dirty"), "unknown")
    run = {"folder": str(folder),
           "commit": code.get("commit") or "unknown (not run from a git checkout)",
           "dirty": dirty, "version": code.get("version") or "not recorded",
           "mode": about.get("mode") or mode(settings.get("warm", False)),
           "seed": meta.get("seed", settings.get("seed")),
           "input": f"{given.get('dataset') or given.get('file') or settings.get('dataset')}"
                    f", SHA-256 {given.get('sha256') or 'not recorded'}",
           "date": f"{started} to {finished}" if finished else f"{started} (unfinished)"}
    sources = sources_of(about)
    if len(sources) > 1:  # resumed by other code: each, with the records it measured
        run["measured by"] = "; ".join(
            f"{s.get('version')}, {described(s)}: {s.get('records', 'unknown')} records"
            for s in sources)
    width = max(map(len, run))
    return [f"  {key:<{width}}  {value}" for key, value in run.items()]


def cite(out: str | None, dataset: str | None = None) -> str:
    """How to cite the run in `out`, or the latest under runs/ (of `dataset` when given)
    as --resume finds it; UsageError (exit 2) when there is no run there."""

    if out is None:
        try:
            out = str(latest_run(dataset))
        except UsageError:
            raise UsageError("no run to cite in runs/; name one with --out DIR") from None
    folder = Path(out)
    try:
        meta = json_value((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        why = error.strerror if isinstance(error, OSError) else "not JSON"
        raise UsageError(f"--cite: {folder} holds no run (meta.json: {why}); "
                         f"name a run's folder with --out DIR") from None
    if not isinstance(meta, dict) or "settings" not in meta:
        raise UsageError(f"--cite: {folder / 'meta.json'} is not a compare run's meta.json")
    return citation(folder, meta)


def latest_run(dataset: str | None) -> Path:
    """The most recent run folder under runs/ (of this dataset, when given)."""
    pattern = f"{dataset}-*" if dataset else "*"
    candidates = sorted((p for p in RUNS.glob(pattern) if (p / "meta.json").exists()),
                        key=lambda p: p.stat().st_mtime)
    if not candidates:
        raise UsageError(f"no run to resume in {RUNS}/; name one with --out DIR")
    return candidates[-1]
