"""Finding SWI-Prolog and loading sudoku.pl into this process through janus-swi.

Which SWI-Prolog, first found: $SWIPL; the one janus-swi was built against (the stamp
`.janus-swipl` that scripts/install-janus leaves in the venv); the project's own build
in .local/swipl; the first `swipl` on PATH.

SWI_HOME_DIR is set to that installation's home before janus_swi is imported: libswipl
otherwise takes its home from the first `swipl` on PATH, and an older one there makes
Python abort ("incompatible VM-signature", exit 134), which no Python code can catch. So
`availability()` first imports janus and loads the program in a subprocess, and this
process imports janus only once that succeeded: `sudokulab backends` never aborts.

Start-up is what a one-puzzle `sudokulab solve -b prolog` mostly waits for, so what does
not change between runs is kept in a cache folder ($SUDOKULAB_CACHE, else
$XDG_CACHE_HOME/sudokulab, else ~/.cache/sudokulab; SUDOKULAB_CACHE= empty turns it off):
each swipl's runtime variables, and, for one swipl, janus build and sudoku.pl text, that the
probe passed, with sudoku.pl and library(clpfd) compiled to .qlf files (SWI-Prolog's quick
load format) by the first process that loads them from source. Any file there that is
missing or unreadable is made again; the source is always the fallback.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from sudokulab.backends.base import Availability, ctrl_c
from sudokulab.errors import NotAvailable

PROGRAM = Path(__file__).resolve().parents[1] / "models" / "prolog" / "sudoku.pl"
PROJECT_SWIPL = Path(__file__).resolve().parents[2] / ".local" / "swipl" / "bin" / "swipl"
STAMP = Path(sys.prefix) / ".janus-swipl"
MIN_VERSION = 90112  # janus first shipped with SWI-Prolog 9.1.12

FIX = ("run `make install` (it builds SWI-Prolog >= 9.1.12 into .local/swipl when the "
       "system has none, and janus-swi against it); or install SWI-Prolog yourself "
       "(Ubuntu: sudo add-apt-repository ppa:swi-prolog/stable && sudo apt-get install "
       "swi-prolog-nox; macOS: brew install swi-prolog; others: "
       "https://www.swi-prolog.org/download/stable), then run "
       "`scripts/install-janus .venv/bin/pip $(command -v swipl)`")

# Run in a subprocess before janus is imported here: it may abort the whole interpreter.
PROBE = """
import sys, janus_swi as janus
janus.consult(sys.argv[1])
answer = janus.query_once("sudoku:sudoku_count(2-2, Givens, [], [], Count)", {"Givens": [0] * 16})
sys.exit(0 if answer["Count"] == 288 else 3)
"""



# The first load compiles library(clpfd) as sudoku.pl would (optimised: see its header) and
# sudoku.pl itself, each into a .qlf ('$qlf': the option qcompile/1 passes to load_files/2,
# here to write the file into the cache rather than beside the source).
COMPILE = ("current_prolog_flag(optimise, Was), set_prolog_flag(optimise, true), "
           "call_cleanup(load_files(library(clpfd), ['$qlf'(Clpfd)]), "
           "set_prolog_flag(optimise, Was)), load_files(Program, ['$qlf'(Compiled)])")
# A .qlf of library(clpfd) records clpfd.pl as its source: sudoku.pl's use_module then finds
# it loaded.
QUICK_LOAD = "load_files(Clpfd, []), load_files(Compiled, [])"
QLF = ("clpfd.qlf", "sudoku.qlf")
MANIFEST = "qlf.sha256"


@dataclass(frozen=True)
class Swipl:
    """An SWI-Prolog installation: its executable, home (PLBASE), version, how it was found."""

    path: Path
    home: str
    version: int  # 90209 for 9.2.9
    found_by: str

    @property
    def release(self) -> str:
        """The version as people write it: 9.2.9."""
        return f"{self.version // 10000}.{self.version // 100 % 100}.{self.version % 100}"



def candidates() -> list[tuple[str, Path]]:
    """Where to look for swipl, in order, each with how it was found."""
    places = []
    built = stamp().get("swipl")
    if os.environ.get("SWIPL"):
        places.append(("$SWIPL", Path(os.environ["SWIPL"])))
    if built:
        places.append((f"the janus stamp {STAMP}", Path(built)))
    places.append(("the project build", PROJECT_SWIPL))
    on_path = shutil.which("swipl")
    if on_path:
        places.append(("PATH", Path(on_path)))
    return places


def stamp() -> dict[str, str]:
    """What scripts/install-janus recorded about the swipl janus was built against."""
    try:
        lines = STAMP.read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split("=", 1) for line in lines if "=" in line)


def cache_root() -> Path | None:
    """The folder this module keeps its cache in; None when SUDOKULAB_CACHE is empty."""
    chosen = os.environ.get("SUDOKULAB_CACHE")
    if chosen is not None:
        return Path(chosen) / "prolog" if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "sudokulab" / "prolog"


def fingerprint(*parts: object) -> str:
    """A short digest of files (path, size, modification time) and other values."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            stat = part.stat()
            part = (part.resolve(), stat.st_size, stat.st_mtime_ns)
        digest.update(repr(part).encode() + b"\0")
    return digest.hexdigest()[:20]


def read_cached(name: str) -> str | None:
    """A cache file's text, or None."""
    root = cache_root()
    try:
        return (root / name).read_text() if root else None
    except OSError:
        return None


def write_cached(name: str, text: str) -> None:
    """Write a cache file whole or not at all (processes may race); a failure only costs
    time next run."""
    root = cache_root()
    if root is None:
        return
    path = root / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(text)
        os.replace(temporary, path)
    except OSError:
        pass


def runtime_variables(swipl: Path) -> dict[str, str]:
    """`swipl --dump-runtime-variables` as a dict (PLBASE, PLVERSION, ...), kept in the cache
    for this swipl executable."""
    name = f"swipl-{fingerprint(swipl)}.vars"
    out = read_cached(name)
    if out is None:
        out = subprocess.run([str(swipl), "--dump-runtime-variables"], capture_output=True,
                             text=True, timeout=60, check=True).stdout
        write_cached(name, out)
    return dict(re.findall(r'^(\w+)="(.*)";$', out, re.MULTILINE))


@lru_cache(maxsize=1)
def find_swipl() -> Swipl:
    """The SWI-Prolog to use; NotAvailable saying where we looked if there is none."""
    for found_by, path in candidates():
        if not (path.is_file() and os.access(path, os.X_OK)):
            if found_by == "$SWIPL":
                raise NotAvailable(f"$SWIPL is {path}, which is not an executable swipl")
            continue
        try:
            variables = runtime_variables(path)
            home, version = variables["PLBASE"], int(variables["PLVERSION"])
        except (OSError, subprocess.SubprocessError, KeyError, ValueError) as error:
            raise NotAvailable(f"{path} (found by {found_by}) does not run as swipl: "
                               f"{error}") from None
        return Swipl(path, home, version, found_by)
    raise NotAvailable("SWI-Prolog not found ($SWIPL unset, no janus stamp, no "
                       f"{PROJECT_SWIPL}, no swipl on PATH)")


def check_janus(swipl: Swipl) -> str:
    """janus-swi's version once it loads with this swipl; NotAvailable saying why not."""
    if swipl.version < MIN_VERSION:
        raise NotAvailable(f"SWI-Prolog {swipl.release} at {swipl.path} is older than "
                           "9.1.12, the first with janus")
    if importlib.util.find_spec("janus_swi") is None:
        raise NotAvailable(f"janus-swi is not installed in {sys.prefix}; build it with "
                           f"`scripts/install-janus {sys.prefix}/bin/pip {swipl.path}`")
    built = stamp()
    if built.get("home") and not same_dir(built["home"], swipl.home):
        raise NotAvailable(f"janus-swi was built against {built.get('swipl')} "
                           f"(home {built['home']}) but the SWI-Prolog found by "
                           f"{swipl.found_by} is {swipl.path} (home {swipl.home}); set "
                           f"SWIPL={built.get('swipl')} or rebuild janus with "
                           f"`scripts/install-janus {sys.prefix}/bin/pip {swipl.path}`")
    passed = f"{build_key(swipl)}/probed"
    version = read_cached(passed)
    if version:
        return version
    if "janus_swi" not in sys.modules:
        probe(swipl)
    from importlib import metadata  # slow to import: only when the probe runs

    version = metadata.version("janus-swi")
    write_cached(passed, version)
    return version


def janus_files() -> list[Path]:
    """janus-swi's compiled extension and Prolog library (found, not imported)."""
    spec = importlib.util.find_spec("janus_swi")
    if spec is None or not spec.submodule_search_locations:  # gone, or not a package
        raise NotAvailable(f"janus-swi is not installed in {sys.prefix}")
    folder = Path(next(iter(spec.submodule_search_locations)))
    return sorted(folder.glob("_swipl*")) + [folder / "janus.pl"]


def build_key(swipl: Swipl) -> str:
    """The cache folder for this swipl, janus build and sudoku.pl text."""
    program = hashlib.sha256(PROGRAM.read_bytes()).hexdigest()
    return fingerprint(swipl.path, swipl.home, swipl.version, *janus_files(), PROGRAM,
                       program)


def same_dir(a: str, b: str) -> bool:
    """Whether two paths name the same directory."""
    return os.path.realpath(a) == os.path.realpath(b)


def probe(swipl: Swipl) -> None:
    """Load janus and sudoku.pl in a child Python; NotAvailable if that fails or aborts."""
    env = dict(os.environ, SWI_HOME_DIR=swipl.home)
    try:
        child = subprocess.run([sys.executable, "-c", PROBE, str(PROGRAM)], env=env,
                               capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise NotAvailable("loading janus and sudoku.pl took over 120 s") from None
    if child.returncode == 0:
        return
    last = (child.stderr.strip().splitlines() or ["no message"])[-1]
    if child.returncode in (134, -6):
        raise NotAvailable(f"importing janus_swi with SWI_HOME_DIR={swipl.home} aborted "
                           f"Python (exit {child.returncode}): janus-swi's libswipl does not "
                           f"match SWI-Prolog {swipl.release} (VM signature?): {last}")
    raise NotAvailable(f"janus or sudoku.pl fails to load (exit {child.returncode}): {last}")


@lru_cache(maxsize=1)
def availability() -> Availability:
    """Whether the backend runs here (probed once per process)."""
    try:
        swipl = find_swipl()
        janus_version = check_janus(swipl)
    except NotAvailable as why:
        return Availability(False, reason=str(why), fix=FIX)
    return Availability(True, version=f"SWI-Prolog {swipl.release} ({swipl.path}), "
                                      f"janus-swi {janus_version}")


def janus():
    """janus_swi with sudoku.pl loaded, once per process; NotAvailable if it cannot be. A
    Ctrl-C while SWI-Prolog starts is answered once it has started: a KeyboardInterrupt
    raised inside janus's start comes out of it as a SystemError, an error instead of an
    interruption."""
    if _loaded.cache_info().currsize:  # started: every solve asks, nothing to guard
        return _loaded()
    with ctrl_c(lambda: None) as key:  # nothing to stop: the start runs to its end
        prolog = _loaded()
    if key.pressed:
        raise KeyboardInterrupt
    return prolog


@lru_cache(maxsize=1)
def _loaded():
    """janus() the first time."""
    ready = availability()
    if not ready.ok:
        raise NotAvailable(ready.reason)
    swipl = find_swipl()
    os.environ["SWI_HOME_DIR"] = swipl.home  # before the import: see the docstring
    import janus_swi

    load_program(janus_swi, swipl)
    return janus_swi


def load_program(prolog, swipl: Swipl) -> str:
    """sudoku.pl into janus: its .qlf from the cache, else from source (making the .qlf);
    which of the two ("cache" or "source")."""
    root = cache_root()
    if root is None:
        prolog.consult(str(PROGRAM))
        return "source"
    folder = root / build_key(swipl)
    if intact(folder):
        clpfd, compiled = (str(folder / name) for name in QLF)
        try:
            prolog.query_once(QUICK_LOAD, {"Clpfd": clpfd, "Compiled": compiled})
            return "cache"
        except prolog.PrologError:  # unreadable after all: the source, writing them again
            pass
    compile_program(prolog, folder)
    return "source"


def digest(path: Path) -> str:
    """A file's SHA-256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def intact(folder: Path) -> bool:
    """Whether the .qlf files in folder are whole, as their manifest says: SWI-Prolog aborts
    the whole process on a truncated one."""
    try:
        lines = (folder / MANIFEST).read_text().splitlines()
        listed = {name: sha for sha, name in (line.split() for line in lines)}
        return set(listed) == set(QLF) and all(digest(folder / name) == listed[name]
                                               for name in QLF)
    except (OSError, ValueError):
        return False


def compile_program(prolog, folder: Path) -> None:
    """Load sudoku.pl from source, leaving its .qlf files and their manifest in folder when
    it can."""
    made = [folder / f".{name}.{os.getpid()}" for name in QLF]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        prolog.consult(str(PROGRAM))
        return
    try:
        prolog.query_once(COMPILE, {"Clpfd": str(made[0]), "Compiled": str(made[1]),
                                    "Program": str(PROGRAM)})
        # the manifest goes last: a race with another process only costs a recompile
        manifest = "".join(f"{digest(temporary)} {name}\n"
                           for temporary, name in zip(made, QLF, strict=True))
        for temporary, name in zip(made, QLF, strict=True):
            os.replace(temporary, folder / name)
        write_cached(f"{folder.name}/{MANIFEST}", manifest)
    except OSError:  # not writable, or clpfd was loaded already (no .qlf of it made)
        pass
    except prolog.PrologError:  # not this SWI-Prolog's way to write a .qlf: the plain load
        prolog.consult(str(PROGRAM))
    finally:
        for temporary in made:
            temporary.unlink(missing_ok=True)
