"""Ctrl-C to the command alone, and SIGTERM, leave no process behind, and keep the work.

Each command that starts processes (a counting worker, a fork server and its workers, a
generator's pool, Ganak's counting processes) runs in a session of its own; once its
children are busy, its main process alone is sent SIGINT (a `kill -INT PID`, not a
terminal's Ctrl-C to the group) or SIGTERM. It must exit 130 or 143, print what it found
(the count so far, the puzzles made so far), and leave nothing of its session running: no
worker at full CPU, no fork server holding the reader of its stdout. The session is read in
/proc (Linux).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import LONG_COUNT

from sudokulab.backends import counting
from sudokulab.web.guards import STOPPING

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

EMPTY = "." * 81
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
PATIENCE = 300  # seconds: only so that a hang fails (never a measure of speed)
BUSY = 0.5  # CPU seconds the children spend before the signal: they have found something
POLL = 0.05


def interruptible() -> None:
    """In the child: Ctrl-C's default action, even if the tests run with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first); None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def session(sid: int) -> dict[int, list[str]]:
    """Every live process of the session `sid` (zombies are gone already): pid -> stat."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat(int(entry))
            if fields is not None and fields[3] == str(sid) and fields[0] != "Z":
                found[int(entry)] = fields
    return found


def children_cpu(sid: int) -> float:
    """CPU seconds the session's processes other than its leader have used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    return sum(int(f[11]) + int(f[12]) for pid, f in session(sid).items() if pid != sid) / tick


def deaf() -> None:
    """In the child: Ctrl-C ignored, as a script's `cmd &` starts a command."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start(*args: str, ctrl_c_ignored: bool = False,
          preexec: Callable[[], None] | None = None) -> subprocess.Popen:
    """`sudokulab ARGS` in a session of its own (its pid is the session's id), its output
    to files: a pipe nobody reads while it runs would stop it once full. `preexec` sets
    the child's signals (by default as a terminal's command, or `deaf`)."""
    out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed by ended)
    # faulthandler: a hang is told where it waits (SIGABRT prints every thread's stack)
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", *args], text=True,
                               stdout=out, stderr=err, start_new_session=True,
                               env={**os.environ, "PYTHONFAULTHANDLER": "1"},
                               preexec_fn=preexec or (deaf if ctrl_c_ignored
                                                      else interruptible))
    process.files = (out, err)  # type: ignore[attr-defined]
    return process


def ended(process: subprocess.Popen) -> tuple[str, str]:
    """Its stdout and stderr, once it has ended; a hang fails with the stacks of every
    thread of its session's Python processes."""
    try:
        process.wait(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        for pid in session(process.pid):
            os.kill(pid, signal.SIGABRT)
        process.wait(timeout=PATIENCE)
        pytest.fail(f"still running {PATIENCE} s after the signal; its stacks:\n"
                    f"{read(process)[1][-20000:]}")
    return read(process)


def read(process: subprocess.Popen) -> tuple[str, str]:
    """Its stdout and stderr, from the files they went to."""
    texts = []
    for file in process.files:  # type: ignore[attr-defined]
        file.seek(0)
        texts.append(file.read())
        file.close()
    return texts[0], texts[1]


def stop_when_busy(process: subprocess.Popen, signum: int,
                   busy: float = BUSY) -> tuple[int, str, str]:
    """Once its children have worked `busy` CPU seconds, send `signum` to the main process
    alone; its exit code and output, after checking that its session is empty."""
    give_up = time.monotonic() + PATIENCE
    while children_cpu(process.pid) < busy and process.poll() is None:
        assert time.monotonic() < give_up, "the children never got busy"
        time.sleep(POLL)
    assert process.poll() is None, f"ended before the signal: {ended(process)}"
    return signal_and_collect(process, signum)


def signal_and_collect(process: subprocess.Popen, signum: int) -> tuple[int, str, str]:
    """Send `signum` to the main process alone (SIGHUP to its whole group, as a closed
    terminal sends it); its exit code and output, after checking that its session is
    empty."""
    (os.killpg if signum == signal.SIGHUP else os.kill)(process.pid, signum)
    try:
        out, err = ended(process)
    finally:
        left = remains(process.pid)
    assert not left, f"left running: {left}"
    return process.returncode, out, err


def remains(sid: int) -> dict[int, list[str]]:
    """What is still running in the session once its processes had time to end (one
    killed a moment ago is still being torn down), then killed."""
    give_up = time.monotonic() + PATIENCE
    while session(sid) and time.monotonic() < give_up:
        time.sleep(POLL)
    left = session(sid)
    for pid in left:  # leave nothing behind for the other tests either
        os.kill(pid, signal.SIGKILL)
    return left


CODES = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 143}
WORDS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated",
         signal.SIGHUP: "terminated"}  # SIGHUP is answered as SIGTERM
SIGNALS = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM],
                                  ids=["sigint", "sigterm"])
# SIGHUP too, where children could die of it (a generator's pool, the server's helpers)
WITH_HANGUP = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM,
                                                 signal.SIGHUP],
                                      ids=["sigint", "sigterm", "sighup-group"])


def assert_stopped(code: int, err: str, signum: int) -> None:
    """Exit 130 or 143, saying which on stderr."""
    assert code == CODES[signum], err
    assert WORDS[signum] in err


@SIGNALS
def test_a_count_in_a_worker_prints_the_count_so_far_and_leaves_nothing(signum):
    code, out, err = stop_when_busy(start("solve", EMPTY, "--count", "--timeout", "600",
                                          "--format", "line"), signum)
    assert_stopped(code, err, signum)
    assert out.startswith(">= ") and int(out.split()[1]) > 0


@SIGNALS
def test_a_comparison_of_several_workers_leaves_nothing(signum, tmp_path):
    given = tmp_path / "empty.txt"
    given.write_text(f"{EMPTY}\n{EMPTY}\n")
    code, out, err = stop_when_busy(start("compare", "--file", str(given), "--backends",
                                          "norvig,dlx", "--jobs", "2", "--limit", "100000000",
                                          "--timeout", "600", "--out", str(tmp_path / "run")),
                                    signum)
    assert_stopped(code, err, signum)
    assert "--resume" in err  # how to finish it: what it recorded is kept


@WITH_HANGUP
def test_a_generator_with_workers_keeps_what_it_made_and_leaves_nothing(signum, tmp_path):
    # a few seconds of making: some puzzles are done (a 9x9 takes a fraction of one)
    code, out, err = stop_when_busy(start("generate", "-n", "100000", "--jobs", "2",
                                          "--format", "json"), signum, busy=4.0)
    assert_stopped(code, err, signum)
    made = [json.loads(line) for line in out.splitlines() if not line.startswith("#")]
    assert made and all(len(puzzle["puzzle"]) == 81 for puzzle in made)
    assert "Traceback" not in err and "resource_tracker" not in err, err


@pytest.mark.skipif(bool(counting.available()), reason="needs pyganak")
@SIGNALS
def test_a_sharpsat_count_stops_its_counting_processes(signum):
    code, out, err = stop_when_busy(start("solve", EMPTY, "--count", "--count-with",
                                          "sharpsat", "--format", "json"), signum)
    assert_stopped(code, err, signum)
    answer = json.loads(out)
    assert (answer["status"], answer["count"], answer["exact"]) == ("interrupted", 0, False)
    assert "it keeps no partial count" in answer["message"]  # Ganak tells nothing of it
    assert answer["solve_time"] > 0


@pytest.mark.parametrize("counter", [
    ["--timeout", "600"],
    pytest.param(["--count-with", "sharpsat"], marks=pytest.mark.skipif(
        bool(counting.available()), reason="needs pyganak"))], ids=["worker", "sharpsat"])
def test_a_killed_command_takes_its_workers_with_it(counter):
    """SIGKILL: nothing of the command runs; its workers must die with it all the same."""
    process = start("solve", EMPTY, "--count", *counter, "--format", "line")
    give_up = time.monotonic() + PATIENCE
    while children_cpu(process.pid) < BUSY:
        assert time.monotonic() < give_up and process.poll() is None
        time.sleep(POLL)
    os.kill(process.pid, signal.SIGKILL)
    ended(process)
    assert not remains(process.pid)


@WITH_HANGUP
def test_every_command_answers_a_signal_as_ctrl_c(signum):
    """The command line's own answer, whichever command runs: a command whose run is
    signalled midway exits as on Ctrl-C (130), or 143 for SIGTERM."""
    script = ("import os, signal, sys, time\n"
              "from sudokulab import cli\n"
              "import sudokulab.commands.show as show\n"
              "def run(args):\n"
              f"    os.kill(os.getpid(), {int(signum)})\n"
              "    time.sleep(60)\n"
              "show.run = run\n"
              f"sys.exit(cli.main(['show', '{EASY}']))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          preexec_fn=interruptible, timeout=PATIENCE)
    assert_stopped(done.returncode, done.stderr, signum)


@pytest.mark.parametrize("kind, engine", [("trace", "norvig"), ("timeline", "sat")])
def test_an_interrupted_solve_keeps_its_trace_and_timeline(kind, engine, tmp_path):
    """Written as each puzzle ends, the puzzle cut short included: whole JSON lines."""
    path = tmp_path / f"{kind}.jsonl"
    process = start("solve", LONG_COUNT, "--count", "-b", engine, f"--{kind}", str(path),
                    "--format", "line")
    give_up = time.monotonic() + PATIENCE
    tick = os.sysconf("SC_CLK_TCK")
    while (fields := stat(process.pid)) and (int(fields[11]) + int(fields[12])) / tick < 2:
        assert time.monotonic() < give_up
        time.sleep(POLL)
    os.kill(process.pid, signal.SIGTERM)
    out, err = ended(process)
    assert_stopped(process.returncode, err, signal.SIGTERM)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["event"] == kind and lines[0]["puzzle"] == LONG_COUNT and len(lines) > 1


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_between_puzzles_leaves_every_printed_puzzle_recorded(signum, tmp_path):
    """The signal lands after the second search returned, before its answer is printed:
    that puzzle is printed as interrupted, and its trace block ends saying so."""
    path, file = tmp_path / "trace.jsonl", tmp_path / "puzzles.txt"
    file.write_text(f"{EASY}\n" * 3)
    script = ("import os, signal, sys\n"
              "from sudokulab import cli\n"
              "from sudokulab.backends import backend_class\n"
              "cls = backend_class('norvig')\n"
              "real, calls = cls.solve, []\n"
              "def solve(self, *args, **kwargs):\n"
              "    result = real(self, *args, **kwargs)\n"
              "    calls.append(1)\n"
              "    if len(calls) == 2:\n"
              f"        os.kill(os.getpid(), {int(signum)})\n"
              "    return result\n"
              "cls.solve = solve\n"
              f"sys.exit(cli.main(['solve', '--file', {str(file)!r}, '--trace', "
              f"{str(path)!r}, '--format', 'line']))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          preexec_fn=interruptible, timeout=PATIENCE)
    assert_stopped(done.returncode, done.stderr, signum)
    printed = done.stdout.splitlines()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    heads = [line["number"] for line in lines if line["event"] == "trace"]
    ends = [(line["number"], line["status"]) for line in lines if line["event"] == "end"]
    assert len(printed) == 2 and heads == [1, 2]
    assert ends == [(1, "unique"), (2, "interrupted")]


def long_puzzle() -> str:
    """A puzzle that keeps a pool worker busy: CaDiCaL takes far longer than the test."""
    from sudokulab import rules as R
    from sudokulab.formats.text import puzzle_data
    from sudokulab.puzzle import empty

    rules = (R.AntiKnight(), R.AntiKing(), R.Diagonal(), R.NonConsecutive())
    return json.dumps(puzzle_data(empty(16, rules)))


def serving(process: subprocess.Popen) -> str:
    """The base URL `sudokulab serve --port 0` announces on stderr, once it answers."""
    import re
    import urllib.request

    err = process.files[1]  # type: ignore[attr-defined]
    give_up = time.monotonic() + PATIENCE
    while not (found := re.search(r"serving (http://\S+?)/? ", (err.seek(0), err.read())[1])):
        assert process.poll() is None and time.monotonic() < give_up, "serve never announced"
        time.sleep(POLL)
    url = found.group(1)
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/backends", timeout=PATIENCE).read()
            return url
        except OSError:
            assert process.poll() is None and time.monotonic() < give_up
            time.sleep(POLL)


def ask(url: str, route: str, body: dict, answers: list | None = None) -> None:
    """POST a JSON body and read the answer (its status and body added to `answers`), or
    the connection the server dropped."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(f"{url}{route}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            answer = (response.status, response.read().decode())
    except urllib.error.HTTPError as refused:
        answer = (refused.code, refused.read().decode())
    except OSError:  # the server stopped while it answered
        return
    if answers is not None:
        answers.append(answer)


@WITH_HANGUP
def test_serve_stops_with_its_workers_and_helpers(signum):
    """A server with a warm pool worker, a tutor's helper and a solve under way."""
    import threading

    process = start("serve", "--port", "0")
    answers: list = []
    try:
        url = serving(process)
        ask(url, "/api/solve", {"puzzle": EASY, "backend": "norvig"})  # a pool worker
        ask(url, "/api/hint", {"puzzle": EASY})  # the tutor's helper process
        asking = threading.Thread(target=ask, args=(url, "/api/solve", {
            "puzzle": long_puzzle(), "backend": "sat", "limit": 1, "timeout": 60,
            "tag": "long"}, answers), daemon=True)
        asking.start()
        code, out, err = stop_when_busy(process, signum,
                                        busy=BUSY + children_cpu(process.pid))
    finally:
        if process.poll() is None:  # failed before the signal: leave no server behind
            process.kill()
            ended(process)
            remains(process.pid)
    assert_stopped(code, err, signum)
    assert out == "" and "Traceback" not in err
    # the 60 s solve is cancelled, not waited for, and the server says so
    assert "sudokulab: 1 request(s) still running 2 s after the signal cancelled" in err, err
    assert err.splitlines()[-1] == f"sudokulab: {WORDS[signum]}", err
    asking.join(PATIENCE)  # its client is told, not dropped
    assert len(answers) == 1 and answers[0][0] == 503, answers
    assert json.loads(answers[0][1]) == {"error": STOPPING, "tag": "long"}


@SIGNALS
def test_serve_stops_with_a_setter_request_under_way(signum):
    """The setter's task is stopped, not killed, when its request is cancelled: the server,
    stopping, must still end its helper (multiprocessing would wait for it at exit)."""
    import threading

    killer = (Path(__file__).parent / "data" / "killers-forum.jsonl").read_text().split("\n")[0]
    process = start("serve", "--port", "0")
    answers: list = []
    try:
        url = serving(process)
        asking = threading.Thread(target=ask, args=(url, "/api/setter", {
            "puzzle": killer, "timeout": 60, "tag": "setting"}, answers), daemon=True)
        asking.start()
        code, out, err = stop_when_busy(process, signum,
                                        busy=BUSY + children_cpu(process.pid))
    finally:
        if process.poll() is None:
            process.kill()
            ended(process)
            remains(process.pid)
    assert_stopped(code, err, signum)
    assert "Traceback" not in err
    asking.join(PATIENCE)
    assert [status for status, _ in answers] == [503], answers


def test_serve_stopped_by_ctrl_c_twice_prints_no_traceback():
    """A second Ctrl-C within the grace (what a user presses when a server does not stop
    at once) is uvicorn's force exit: the app's lifespan was left running, then cancelled
    with a traceback when the first Ctrl-C was raised again inside the event loop."""
    import threading

    process = start("serve", "--port", "0")
    try:
        url = serving(process)
        asking = threading.Thread(target=ask, args=(url, "/api/solve", {
            "puzzle": long_puzzle(), "backend": "sat", "limit": 1, "timeout": 60}),
            daemon=True)
        asking.start()
        give_up = time.monotonic() + PATIENCE
        while children_cpu(process.pid) < BUSY + 0.5:
            assert time.monotonic() < give_up, "the solve never got busy"
            time.sleep(POLL)
        os.kill(process.pid, signal.SIGINT)
        time.sleep(0.3)  # within the 2 s grace: the order of the two signals is the case
        os.kill(process.pid, signal.SIGINT)
        out, err = ended(process)
    finally:
        if process.poll() is None:
            process.kill()
            ended(process)
    assert process.returncode == 130, err
    assert "Traceback" not in err and err.splitlines()[-1] == "sudokulab: interrupted", err
    assert remains(process.pid) == {}
