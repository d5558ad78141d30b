"""sl.solve_many (issue 59): many puzzles through one engine, in bulk where the engine has
a batch path (native), every grid checked; the same answers as solving one by one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sudokulab as sl
from sudokulab import datasets
from sudokulab.backends import native
from sudokulab.errors import DisagreementError, PuzzleError, UsageError
from sudokulab.formats.text import parse
from sudokulab.harness import bulk
from sudokulab.result import Status

needs_native = pytest.mark.skipif(bool(native.NativeBackend.available().reason),
                                  reason="native needs cffi and a C compiler")


def lines(name: str, k: int) -> list[str]:
    """The first k puzzles of a bundled set, as lines."""
    return [str(p) for p in datasets.load(name)[:k]]


@needs_native
def test_native_in_bulk_gives_the_published_solutions():
    puzzles = lines("top95", 95)
    results = sl.solve_many(puzzles, backend="native")
    assert [r.solutions[0] for r in results] == list(datasets.solutions("top95"))
    assert {r.status for r in results} == {Status.UNIQUE}


@needs_native
def test_bulk_and_one_by_one_agree_on_a_mixed_list():
    # plain lines, Puzzles, a 4x4 and a variant go through the batch or one by one
    mixed = [*lines("easy50", 3), sl.parse("." * 16), datasets.load("top95")[5],
             "1" + "." * 80]
    many = sl.solve_many(mixed, backend="native", limit=2)
    one = [sl.solve(p, backend="native", limit=2) for p in mixed]
    assert [(r.status, r.solutions, r.count) for r in many] == \
        [(r.status, r.solutions, r.count) for r in one]
    assert many[3].status is Status.MULTIPLE and many[5].status is Status.MULTIPLE


def test_an_engine_without_a_batch_solves_one_by_one():
    results = sl.solve_many(lines("easy50", 5), backend="norvig", limit=1)
    assert [r.solutions[0] for r in results] == list(datasets.solutions("easy50")[:5])
    assert {r.status for r in results} == {Status.SOLVED}


@needs_native
def test_a_wrong_grid_from_the_batch_is_named(monkeypatch):
    from sudokulab.backends import make_backend

    engine = make_backend("native")
    real = engine.solve_lines

    def spoiled(text, count, stride=81, limit=2):
        batch = real(text, count, stride, limit)
        first = bytearray(batch.first)
        first[82 * 2], first[82 * 2 + 1] = first[82 * 2 + 1], first[82 * 2]  # puzzle 3
        batch.first = bytes(first)
        return batch

    monkeypatch.setattr(engine, "solve_lines", spoiled)
    puzzles = [parse(line) for line in lines("top95", 4)]
    with pytest.raises(DisagreementError, match="puzzle 3: native's answer fails the checker"):
        bulk.solve_many(engine, puzzles)


@pytest.mark.parametrize("bad, error", [("." * 81, TypeError), (5, TypeError),
                                        ([None], TypeError), (["12"], PuzzleError)])
def test_bad_arguments_are_named(bad, error):
    with pytest.raises(error):
        sl.solve_many(bad)


def test_the_limit_is_one_or_two():
    with pytest.raises(UsageError, match="limit must be 1 or 2"):
        sl.solve_many(lines("easy50", 1), limit=3)


def test_a_dataset_name_is_taken_as_compare_takes_it():
    answers = sl.solve_many("hardest", backend="norvig")
    puzzles = sl.load("hardest")
    assert len(answers) == len(puzzles) and all(a.status is Status.UNIQUE for a in answers)
    assert [a.solutions[0] for a in answers] == [sl.solve(p, backend="sat").solutions[0]
                                                 for p in puzzles]


@pytest.mark.parametrize("call", [sl.solve_many, lambda p: sl.compare(p, ["norvig"],
                                                                      progress=False)],
                         ids=["solve_many", "compare"])
def test_a_bad_puzzle_of_a_list_is_named_by_its_place(call):
    with pytest.raises(PuzzleError, match=r"puzzles\[1\]: wrong length: 2 cells"):
        call([sl.load("hardest")[0], "xx", sl.load("hardest")[1]])


STOPPED = """
import sys
import sudokulab as sl
from sudokulab import datasets
from sudokulab.errors import SolveManyInterrupted

puzzles, solutions = datasets.load("top1465"), datasets.solutions("top1465")
print("started", flush=True)
try:
    sl.solve_many(puzzles, backend="dlx")
except SolveManyInterrupted as stop:
    right = all(r.solutions == (tuple(s),) for r, s in zip(stop.results, solutions))
    print(stop.exit_code, len(stop.results), stop.index, right, flush=True)
"""


def interruptible() -> None:
    """In the child: Ctrl-C's default action, even if the tests run with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def cpu_seconds(pid: int) -> float:
    """CPU seconds the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def signalled_after(script: subprocess.Popen, cpu: float, signum: int, what: str) -> str:
    """The script's output once it has spent `cpu` more CPU seconds after saying "started"
    (work done: CPU time, not wall time) and then got the signal; `what` names the work
    it must not have finished by then."""
    assert script.stdout.readline() == "started\n"
    busy = cpu_seconds(script.pid) + cpu
    while cpu_seconds(script.pid) < busy:
        assert script.poll() is None, f"{what} before the signal"
        time.sleep(0.05)
    script.send_signal(signum)
    return script.communicate(timeout=300)[0]  # the timeout only so that a hang fails


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_stopped_solve_many_keeps_the_answers_before_it(signum):
    script = subprocess.Popen([sys.executable, "-c", STOPPED], stdout=subprocess.PIPE,
                              text=True, preexec_fn=interruptible)
    out = signalled_after(script, 2, signum, "solved top1465")  # some puzzles answered
    code, kept, index, right = out.split()
    assert int(code) == 128 + signum and right == "True"
    assert 0 < int(kept) == int(index) < 1465


BATCHED = """
import sudokulab as sl
from sudokulab import datasets
from sudokulab.errors import SolveManyInterrupted

lines, solutions = datasets.lines("top1465") * 300, datasets.solutions("top1465")
print("started", flush=True)
try:
    sl.solve_many(lines, backend="native")  # one C call for all: the batch path
except SolveManyInterrupted as stop:
    right = all(r.solutions == (tuple(solutions[k % 1465]),)
                for k, r in enumerate(stop.results))
    print(stop.exit_code, len(stop.results), stop.index, right, flush=True)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_stopped_batch_keeps_the_lines_it_finished(signum):
    from sudokulab.backends import make_backend

    if not make_backend("native").ready().ok:
        pytest.skip("the compiled engine is not built here")
    script = subprocess.Popen([sys.executable, "-c", BATCHED], stdout=subprocess.PIPE,
                              text=True, preexec_fn=interruptible)
    out = signalled_after(script, 2, signum, "solved 439,500 lines")
    code, kept, index, right = out.split()  # it lost every answer, exit -2, before
    assert int(code) == 128 + signum and right == "True"
    assert 0 < int(kept) == int(index) < 1465 * 300


COUNTING = """
import sys
import sudokulab as sl
from sudokulab.check import check
from sudokulab.errors import Interrupted

backend = sys.argv[1]
sl.solve("." * 16, backend=backend)  # the engine started before the clock
print("started", flush=True)
try:
    # a timeout far past the signal: without one, limit=None is refused at once here
    sl.solve("." * 81, backend=backend, limit=None, timeout=3600)
except Interrupted as stop:
    grids = stop.result.solutions
    valid = all(check(sl.parse("." * 81), grid) == [] for grid in grids)
    print(stop.exit_code, stop.result.count, len(grids), valid, stop.result.message.split(":")[0],
          flush=True)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
@pytest.mark.parametrize("backend", ["dlx", "prolog"])
def test_a_stopped_solve_keeps_the_grids_found_before_it(backend, signum):
    # sl.solve, as the docs promise: Ctrl-C or SIGTERM raise Interrupted with the grids so
    # far; before, SIGTERM killed the script, and Prolog (native code) lost its count
    script = subprocess.Popen([sys.executable, "-c", COUNTING, backend], stdout=subprocess.PIPE,
                              text=True, preexec_fn=interruptible)
    out = signalled_after(script, 1.5, signum, "counted the empty 9x9")  # some grids found
    code, count, listed, valid, message = out.split(maxsplit=4)
    name = "Ctrl-C" if signum == signal.SIGINT else "SIGTERM"
    assert int(code) == 128 + signum and message.strip() == f"interrupted ({name})"
    assert int(count) > 0 and int(listed) == int(count) and valid == "True"
