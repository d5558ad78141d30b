"""Machine-readable output is that alone, whichever engine runs.

`solve` and `compare` print json, csv or line on stdout; an engine that prints (HiGHS's
copyright banner, a solver's log) must not land there, in this process or in a worker.
Each engine the `backends` command lists as available here (and each solver of cpmpy)
solves one puzzle and stdout is parsed strictly. And `--format line` says the count so
far after a timeout, as csv does; a count with a sat timeline no longer overflows PySAT.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys

import pytest

from sudokulab.backends import backend_class, names

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def engines() -> list[str]:
    """Every available backend, and each solver of cpmpy found installed."""
    found = [name for name in names() if backend_class(name).available().ok]
    if "cpmpy" in found:
        from sudokulab.backends.cpmpy import solver_names

        found += [f"cpmpy:solver={solver}" for solver in solver_names() if solver != "choco"]
    return found


def sudokulab(*args: str) -> subprocess.CompletedProcess:
    """`sudokulab ARGS` in a process of its own (an engine's first start included)."""
    return subprocess.run([sys.executable, "-m", "sudokulab", *args], capture_output=True,
                          text=True)


def parse(form: str, out: str) -> list:
    """stdout read strictly as `form`: every line of it, nothing else."""
    lines = out.splitlines()
    if form == "json":
        return [json.loads(line) for line in lines]
    if form == "csv":
        rows = list(csv.reader(io.StringIO(out)))
        assert rows[0][:3] == ["puzzle", "status", "count"] and all(len(r) == 6 for r in rows)
        return rows[1:]
    return lines


def solution_of(form: str, answers: list) -> str:
    """The one answer's solution, from its parsed output."""
    assert len(answers) == 1, answers
    if form == "json":
        return "".join(map(str, answers[0]["solutions"][0]))
    return answers[0][4] if form == "csv" else answers[0]


# In a worker, fd 1 points at stderr from the start, whatever the engine (runner.py): the
# engines known to print from native code stand for the rest there.
PRINTERS = ("milp", "cpmpy:solver=highs")


@pytest.mark.parametrize(("engine", "isolated"),
                         [*((engine, False) for engine in engines()),
                          *((engine, True) for engine in PRINTERS if engine in engines())],
                         ids=lambda v: {False: "here", True: "worker"}.get(v, v))
def test_solve_prints_only_its_format(engine, isolated):
    extra = ["--timeout", "60"] if isolated else []
    for form in ("json", "csv", "line"):
        done = sudokulab("solve", EASY, "-b", engine, "--limit", "1", "--format", form, *extra)
        assert done.returncode == 0, done.stderr
        assert solution_of(form, parse(form, done.stdout)) == SOLUTION, done.stdout


def test_compare_prints_no_engine_output(tmp_path):
    """compare's workers: its report on stdout, its records in runs.jsonl, and nothing an
    engine printed in either (HiGHS's banner says 'Copyright')."""
    given = tmp_path / "one.txt"
    given.write_text(EASY + "\n")
    done = sudokulab("compare", "--file", str(given), "--backends", ",".join(engines()),
                     "--out", str(tmp_path / "run"), "--jobs", "1", "--timeout", "600")
    assert done.returncode == 0, done.stderr
    assert "Copyright" not in done.stdout and "HiGHS" not in done.stdout.replace("(HiGHS)", "")
    records = [json.loads(line) for line in (tmp_path / "run" / "runs.jsonl").open()]
    assert records


def test_line_says_the_count_so_far_after_a_timeout():
    rows = {}
    for form in ("line", "csv"):
        done = sudokulab("solve", "." * 81, "--count", "-b", "norvig", "--timeout", "1",
                         "--format", form)
        assert done.returncode == 3, done.stderr
        rows[form] = parse(form, done.stdout)[0]
    assert rows["line"].startswith(">= ") and rows["csv"][2].startswith(">= ")


def test_a_sat_count_with_a_timeline_past_any_c_long(top95):
    """A count's thousands of calls double the sampling stride past PySAT's C long."""
    from sudokulab.backends import make_backend
    from sudokulab.backends.timeline import Timeline
    from sudokulab.result import Status

    engine = make_backend("sat")
    engine.timeline = Timeline("sat")
    engine.timeline.stride = 2**70
    result = engine.solve(top95[0][0], limit=None)
    assert result.status is Status.UNIQUE, result.message


def native_write(fd: int, text: str) -> None:
    """Write as C code does: to the descriptor, past Python's sys.stdout."""
    os.write(fd, text.encode())


def test_a_moved_descriptor_sends_native_writes_to_the_target_and_comes_back(tmp_path):
    """The one home of 'fd 1 elsewhere for a block' (stdout_to_stderr, the contract's
    capture, HiGHS's banner, OpenCV's quiet): writes in the block land in the target;
    after it, where they did before."""
    from sudokulab.errors import descriptor_to

    before, target = tmp_path / "before", tmp_path / "target"
    with before.open("w") as first, target.open("w") as second:
        saved = os.dup(1)
        try:
            os.dup2(first.fileno(), 1)
            native_write(1, "a ")
            with descriptor_to(1, second.fileno()) as moved:
                native_write(1, "b ")
            native_write(1, "c")
        finally:
            os.dup2(saved, 1)
            os.close(saved)
    assert moved and before.read_text() == "a c" and target.read_text() == "b "


def test_a_signal_in_the_block_still_brings_the_descriptor_back(tmp_path):
    from sudokulab.errors import descriptor_to

    target = tmp_path / "target"
    original = os.fstat(1)
    with target.open("w") as file, pytest.raises(KeyboardInterrupt), \
            descriptor_to(1, file.fileno()):
        signal.raise_signal(signal.SIGINT)
    now = os.fstat(1)
    assert (now.st_dev, now.st_ino) == (original.st_dev, original.st_ino)


def test_a_closed_descriptor_is_left_closed():
    """No descriptor 2 (a daemon's): nothing is moved and the block runs all the same."""
    code = ("import os\nfrom sudokulab.errors import descriptor_to\nos.close(2)\n"
            "with descriptor_to(2, 1) as moved:\n    print('ran', moved)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "ran False\n"
