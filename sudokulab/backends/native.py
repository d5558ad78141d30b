"""The compiled engine: propagation and search written in C, the lab's yardstick of what
the hardware allows ("imperative, all the way down").

The C source (`native/native.c`, written for this project) keeps each cell's candidates
as a bitmask; it propagates naked and hidden singles and box-line locked candidates with
bitwise operations, then guesses on the open cell with fewest candidates, each digit on a
copy of the state. Any box shape up to 16 x 16; the classic rules only (no variant rule:
`supported_rules` is empty, so a variant is UNSUPPORTED, never solved without its rule).

It is called through cffi's out-of-line ABI mode: the library is compiled with the C
compiler `make` already needs (`cc`, or $CC) on first use, or by `make install`, into a
per-user cache named by a hash of the source, declarations, flags and machine
(`~/.cache/sudokulab/native-HASH.so`, beside cffi's module of the declarations,
`native_HASH.py`). No generated file is kept in the repository and nothing prebuilt is
fetched: without cffi or a compiler, `available()` says why and the other engines work.

Besides `solve`, `solve_lines` hands a batch of classic 81-character lines to the C
library in one call (`solve --file F -b native --format line` uses it, through
sudokulab/commands/batch.py): no Puzzle per line; the batch's grids are then checked by
`sudokulab.check.failures`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import threading
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from sudokulab.backends.base import (
    Availability,
    Backend,
    Deadline,
    Need,
    YesNo,
    ctrl_c,
    interrupted,
)
from sudokulab.errors import Unavailable
from sudokulab.puzzle import Grid, Puzzle
from sudokulab.result import Result, Status, verdict

SOURCE = Path(__file__).parent / "native" / "native.c"
FLAGS = ("-O3", "-shared", "-fPIC", "-pthread", "-std=c99", "-D_POSIX_C_SOURCE=199309L")
MAX_N = 16  # candidates are 16-bit masks
FIX = "pip install 'sudokulab[native]' and a C compiler (apt-get install gcc), or make install"

# What Python sees of the library (the declarations of native.c's public part).
CDEF = """
typedef int (*native_found)(const uint8_t *grid);
typedef void (*native_event)(int kind, int slot, int cell, int digit, const uint16_t *cand);
typedef struct {
    volatile int stop;
    double seconds;
    long limit;
    long found;
    long nodes, guesses, backtracks, placements, locked;
    native_found on_solution;
    native_event on_event;
    uint8_t *out;
    long out_cap;
    double deadline;
    int depth;
} native_ctl;
int native_solve(int br, int bc, const uint8_t *givens, native_ctl *ctl);
int native_root(int br, int bc, const uint8_t *givens, uint16_t *marks, native_ctl *ctl);
long native_batch(const char *text, long count, long stride, char *first, char *second,
                  int8_t *status, native_ctl *ctl);
"""
DONE, LIMIT, DEADLINE, STOPPED, BAD_SHAPE = 0, 1, 2, 3, -1
STATS = ("nodes", "guesses", "backtracks", "placements", "locked")


def cache_dir() -> Path:
    """Where compiled libraries are kept: $XDG_CACHE_HOME/sudokulab or ~/.cache/sudokulab."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sudokulab"


def compiler() -> str:
    """The C compiler's path ($CC or cc, gcc, clang); '' when none is found."""
    import shutil

    names = [os.environ["CC"]] if os.environ.get("CC") else ["cc", "gcc", "clang"]
    return next(filter(None, map(shutil.which, names)), "")


def key() -> str:
    """What names this build in the cache: a hash of the source, the declarations, the
    flags and the machine."""
    import platform

    return hashlib.sha256(SOURCE.read_bytes() + CDEF.encode() + " ".join(FLAGS).encode()
                          + platform.machine().encode()).hexdigest()[:16]


def library_path() -> Path:
    """The library's file for this source, these flags and this machine."""
    return cache_dir() / f"native-{key()}.so"


def build() -> tuple[Path, Path]:
    """Compile the library, and write cffi's module of its declarations, into the cache
    unless they are there: their paths. Unavailable if it cannot."""
    library = library_path()
    declarations = library.with_name(f"native_{key()}.py")
    if library.exists() and declarations.exists():
        return library, declarations
    cc = compiler()
    if not cc:
        raise Unavailable("no C compiler found (cc, gcc or clang; or set CC)")
    library.parent.mkdir(parents=True, exist_ok=True)
    with _beside(library) as temporary:
        import subprocess

        done = subprocess.run([cc, *FLAGS, str(SOURCE), "-o", temporary],
                              capture_output=True, text=True)
        if done.returncode:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise Unavailable(f"{cc} failed to compile {SOURCE.name}: {last}")
    with _beside(declarations) as temporary:
        import py_compile

        import cffi

        # cffi's out-of-line ABI mode: the declarations parsed once, here, into a module
        # that loads without cffi's C parser (pycparser): a process starts faster
        builder = cffi.FFI()
        builder.cdef(CDEF)
        builder.set_source(declarations.stem, None)
        with contextlib.redirect_stdout(io.StringIO()):  # its "generating ..." line
            builder.emit_python_code(temporary)
    # its byte-code too, even where PYTHONDONTWRITEBYTECODE is set: no compiling at each start
    py_compile.compile(str(declarations), doraise=True)
    return library, declarations


@contextlib.contextmanager
def _beside(target: Path) -> Iterator[str]:
    """A temporary file beside `target`, renamed to it when the block ends well: a process
    loading it never sees half a file."""
    import tempfile

    fd, temporary = tempfile.mkstemp(suffix=target.suffix, dir=target.parent)
    os.close(fd)
    try:
        yield temporary
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


@cache
def engine() -> tuple[Any, Any]:
    """(ffi, lib): the library, compiled on first use, loaded once per process."""
    import importlib.util

    library, declarations = build()
    spec = importlib.util.spec_from_file_location(declarations.stem, declarations)
    if spec is None or spec.loader is None:
        raise Unavailable(f"cannot load {declarations}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ffi, module.ffi.dlopen(str(library))


_sink = threading.local()  # the solve running in this thread: where its solutions go


@cache
def _on_solution() -> Any:
    """The one C callback every solve shares (cffi makes each callback once, at a cost):
    it hands each solution to the solve running in its thread."""
    ffi, _ = engine()
    return ffi.callback("native_found", lambda pointer: _sink.found(pointer))


@cache
def _on_event() -> Any:
    """The one C callback for search events (a trace), handing each to the solve running
    in its thread."""
    ffi, _ = engine()
    return ffi.callback("native_event", lambda *event: _sink.event(*event))


START, WAVE, DEAD, CHOSE, GUESS = range(5)  # native.c's EV_*


class Tracer:
    """native.c's search events told to a trace Recorder, as norvig tells its own: the
    candidates before and after each node's propagation, each branch and guess."""

    def __init__(self, ffi: Any, ctl: Any, recorder: Any, n: int, cells: int) -> None:
        self.ffi, self.ctl, self.recorder, self.n, self.cells = ffi, ctl, recorder, n, cells
        self.before: list[int] = []  # the candidates the next propagation starts from

    def __call__(self, kind: int, slot: int, cell: int, digit: int, cand: Any) -> None:
        """One event of the C search; past the recorder's cap, the search is told to stop
        telling (the solutions still come, through on_solution)."""
        trace = self.recorder
        if trace.full:
            self.ctl.on_event = self.ffi.NULL
            return
        marks = self.ffi.unpack(cand, self.cells)
        if kind == START:
            trace.start(marks, self.n)
            self.before = marks
        elif kind in (WAVE, DEAD):
            trace.wave(self.before, marks)
            if kind == DEAD:
                where = [cell] if cell >= 0 else [k for k, m in enumerate(marks) if not m]
                trace.dead_end(where, "the guess empties a peer" if cell >= 0 else
                               "propagation left a cell or a unit's digit with no place")
        elif kind == CHOSE:
            trace.chose(slot, f"{trace.name(cell)}: {digit} candidates, the fewest")
        elif kind == GUESS:
            trace.guess(slot, cell, digit)
            self.before = marks


def grid_of(ffi: Any, pointer: Any, cells: int) -> Grid:
    """One solution as the C library hands it over (a byte per cell)."""
    return tuple(ffi.buffer(pointer, cells)[:])


class NativeBackend(Backend):
    """Compiled propagation (singles, locked candidates) and search, in C through cffi."""

    name = "native"
    paradigm = "propagation and search (compiled C)"
    records_trace = True  # off (None), the C search tests one pointer per event
    supported_rules = ()  # the classic rules only: every variant is UNSUPPORTED
    needs = (Need("cffi", FIX),)
    option_table = {
        "root": YesNo(help="stop at the root: the pencil marks singles and locked "
                           "candidates leave, no guess (the marks of the ladder's "
                           "human:locked level, computed in C)")}

    def __init__(self, root: str = "no") -> None:
        self.root = root == "yes"
        self.trace = None

    @classmethod
    def ready(cls) -> Availability:
        """Available when the library loads (compiled now if it is not yet)."""
        try:
            engine()
        except (Unavailable, OSError) as error:
            return Availability(False, reason=str(error), fix=FIX)
        return Availability(True, version=f"C, {compiler() or 'prebuilt'} "
                                          f"({library_path().name})")

    def _solve(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> Result:
        """Hand the givens to the C search; collect its solutions as it finds them."""
        started = time.perf_counter()
        (br, bc), n = puzzle.box, puzzle.n
        if n > MAX_N:
            return Result(Status.UNSUPPORTED, message=f"native takes grids up to {MAX_N} x "
                                                      f"{MAX_N}, not {n} x {n}")
        ffi, lib = engine()
        givens = ffi.new("uint8_t[]", bytes(puzzle.givens))
        ctl = ffi.new("native_ctl *")
        left = deadline.left()
        ctl.seconds = -1.0 if left is None else left
        if self.root:
            return self._root(ffi, lib, puzzle, givens, ctl, limit, started)
        ctl.limit = limit or 0
        solutions = self.new_found()
        cells = n * n

        recorder = self.trace

        def found(pointer: Any) -> int:
            """Keep one solution; nonzero stops the search (Ctrl-C heard meanwhile)."""
            solutions.append(grid_of(ffi, pointer, cells))
            if recorder is not None:
                recorder.solution(solutions[-1])
            return int(state.pressed)

        ctl.on_solution = _on_solution()
        outer = getattr(_sink, "found", None), getattr(_sink, "event", None)  # put back after
        _sink.found = found
        if recorder is not None:  # a trace: the C search tells each event
            from sudokulab.geometry import geometry

            recorder.name = geometry(puzzle.box, puzzle.rules, puzzle.layout).name
            _sink.event = Tracer(ffi, ctl, recorder, n, cells)
            ctl.on_event = _on_event()
        built = time.perf_counter()
        try:
            with ctrl_c(lambda: setattr(ctl, "stop", 1)) as state:
                why = lib.native_solve(br, bc, givens, ctl)
        finally:
            _sink.found, _sink.event = outer
        took = time.perf_counter() - built
        stats = statistics(ctl)
        if state.pressed or why == STOPPED:
            raise interrupted(solutions, limit, stats=stats, build_time=built - started,
                              solve_time=took)
        return verdict(solutions, limit, complete=why in (DONE, LIMIT), stats=stats,
                       build_time=built - started, solve_time=took)

    def _root(self, ffi: Any, lib: Any, puzzle: Puzzle, givens: Any, ctl: Any,
              limit: int | None, started: float) -> Result:
        """Propagation at the root alone: the marks it leaves, as `root_result` reads them."""
        from sudokulab.backends.root import root_result

        marks = ffi.new("uint16_t[]", puzzle.n * puzzle.n)
        ok = lib.native_root(puzzle.box[0], puzzle.box[1], givens, marks, ctl)
        result = root_result(list(marks) if ok else None, limit, started)
        result.stats.update(statistics(ctl))
        return result

    def solve_lines(self, text: bytes, count: int, stride: int = 81, limit: int = 2
                    ) -> Batch:
        """The batch path (`solve --file`): plain classic lines, one C call (see the
        module's `solve_lines`)."""
        return solve_lines(text, count, stride, limit)

    def describe(self, puzzle: Puzzle) -> str:
        """What the C engine builds: bitmasks per cell, its propagation and its search."""
        n = puzzle.n
        return (f"native: {n * n} cells of {n}-bit candidate masks, {3 * n} units (rows, "
                f"columns, boxes); naked and hidden singles, box-line locked candidates; "
                f"guess on the open cell with fewest candidates, each digit on a copy of "
                f"the state (C source: {SOURCE.name})")


def statistics(ctl: Any) -> dict[str, float | str]:
    """The C search's counters by name."""
    return {name: int(getattr(ctl, name)) for name in STATS}


# --- the batch path: many classic lines in, one C call ----------------------------------

# A line the batch takes: 81 characters, each a digit or '.' or '0' for a blank.
PLAIN = frozenset("0123456789.")


def plain(line: str) -> bool:
    """Whether a stripped line is a classic 9x9 puzzle the batch takes as it is."""
    return len(line) == 81 and PLAIN.issuperset(line)


class Batch:
    """What one C call made of a batch of lines: for line k, `status[k]` solutions found
    (up to `limit`, 1 or 2: with 2, 0 none, 1 unique, 2 several), the first in
    `first[82k:82k+81]` (each followed by a line feed: the lines `solve` prints), the
    second in `second[81k:81k+81]` ('0's where there is none)."""

    def __init__(self, status: list[int], first: bytes, second: bytes, limit: int,
                 stats: dict[str, float | str]) -> None:
        self.status, self.first, self.second = status, first, second
        self.limit, self.stats = limit, stats


def solve_lines(text: bytes, count: int, stride: int = 81, limit: int = 2) -> Batch:
    """Solve `count` plain classic lines (see `plain`), line k at text[k*stride:][:81],
    in one C call. Ctrl-C raises KeyboardInterrupt holding `batch`, the lines done."""
    ffi, lib = engine()
    first = ffi.new("char[]", 82 * count or 1)
    second = ffi.new("char[]", 81 * count or 1)
    status = ffi.new("int8_t[]", count or 1)
    ctl = ffi.new("native_ctl *")
    ctl.seconds, ctl.limit = -1.0, limit
    with ctrl_c(lambda: setattr(ctl, "stop", 1)) as state:
        done = lib.native_batch(text, count, stride, first, second, status, ctl)
    batch = Batch(list(ffi.unpack(status, done)), ffi.buffer(first, 82 * done)[:],
                  ffi.buffer(second, 81 * done)[:], int(ctl.limit), statistics(ctl))
    if state.pressed or done < count:
        stop = KeyboardInterrupt()
        stop.batch = batch  # type: ignore[attr-defined]
        raise stop
    return batch


if __name__ == "__main__":  # `make install`: compile the library now, say where it is
    print(build())
