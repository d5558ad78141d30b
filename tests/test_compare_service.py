"""One compare service (issue 55) and its partial answer on Ctrl-C and SIGTERM (issue 53).

`sudokulab compare` and `sl.compare` both build a harness.compare.Settings and call
harness.compare.compare; a run cut short prints the tables of what finished, marked
partial, and exits 130 or 143.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_harness import interruptible, puzzle_file, records, wait_for_records

import sudokulab as sl
from sudokulab import datasets, errors
from sudokulab.cli import build_parser, main
from sudokulab.commands import compare as command
from sudokulab.errors import NothingCompared, UsageError
from sudokulab.formats.text import format_line
from sudokulab.harness import compare as service


def spied(monkeypatch) -> list:
    """The Settings each call of the service gets, the service itself still running."""
    calls = []
    real = service.compare

    def spy(settings, **kwargs):
        calls.append(settings)
        return real(settings, **kwargs)

    monkeypatch.setattr(service, "compare", spy)
    return calls


def options(*words: str):
    """The namespace `sudokulab compare WORDS` parses to."""
    return build_parser().parse_args(["compare", *words])


# --- one service, one settings object ------------------------------------------------

def test_the_command_and_the_api_call_the_one_service_with_the_same_settings(
        monkeypatch, tmp_path, capsys):
    calls = spied(monkeypatch)
    assert main(["compare", "--dataset", "hardest", "--backends", "norvig,dlx", "--sample",
                 "4", "--seed", "2", "--timeout", "5", "--jobs", "1",
                 "--out", str(tmp_path / "run")]) == 0
    capsys.readouterr()
    result = sl.compare("hardest", backends=["norvig", "dlx"], sample=4, seed=2, timeout=5,
                        jobs=1, progress=False)
    cli, api = calls
    assert cli.saved() == api.saved()
    assert (cli.keep, api.keep) == (True, False)  # the command writes its folder, the API not
    by_cli = {(r.backend, r.index): r.result.status for r in sl.open_run(tmp_path / "run").records}
    by_api = {(r.backend, r.index): r.result.status for r in result.records}
    assert by_cli == by_api and len(by_api) == 8


def test_the_settings_defaults_are_the_command_lines_and_the_apis():
    default = service.Settings()
    assert command.settings_of(options()).saved() == default.saved()
    assert default.dataset == "top95" and default.timeout == 10.0 and not default.warm
    signature = inspect.signature(sl.compare).parameters
    for name in ("backends", "timeout", "repeat", "jobs", "limit", "sample", "seed", "warm",
                 "progress"):
        assert signature[name].default == getattr(default, name), name


def test_settings_are_frozen_and_read_every_timeout_as_the_options_do():
    settings = service.Settings(timeout=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.timeout = 3  # type: ignore[misc]
    assert settings.timeout is None and service.Settings(timeout=math.inf).timeout is None
    with pytest.raises(UsageError, match="--timeout -1"):
        service.Settings(timeout=-1)
    assert command.settings_of(options("-t", "0")).timeout is None
    assert command.settings_of(options("-t", "2.5")).timeout == 2.5


def test_meta_json_saves_what_the_run_is_and_resume_gives_it_back(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["compare", "--dataset", "hardest", "--backends", "norvig", "--limit", "1",
                 "--jobs", "1", "--out", str(out)]) == 0
    saved = json.loads((out / "meta.json").read_text())["settings"]
    assert set(saved) == set(service.Settings.saved_fields())  # no session field saved
    again = command.settings_of(options("--resume", "--out", str(out), "--jobs", "2"))
    assert again.saved() == saved and again.jobs == 2 and again.resume
    assert again.out == str(out)
    with pytest.raises(UsageError, match="--limit 2"):
        command.settings_of(options("--resume", "--out", str(out), "--limit", "2"))
    capsys.readouterr()


def test_a_run_with_no_backend_that_can_run_is_refused_at_both_doors(monkeypatch, capsys):
    from sudokulab.backends import backend_class
    from sudokulab.backends.base import Availability

    def gone(cls):
        return Availability(False, reason="hidden for the test")

    monkeypatch.setattr(backend_class("dlx"), "available", classmethod(gone))
    calls = spied(monkeypatch)
    with pytest.raises(NothingCompared, match="no backend can run here: dlx: .*hidden"):
        sl.compare(["1..............."], backends=["dlx"], progress=False)
    assert main(["compare", "--dataset", "hardest", "--backends", "dlx"]) == 5
    assert "no backend can run here: dlx: unavailable: hidden" in capsys.readouterr().err
    assert [settings.keep for settings in calls] == [False, True]


# --- Ctrl-C and SIGTERM: what finished is printed, marked partial ----------------------

def start_held_run(tmp_path: Path, *extra: str, after: int = 8
                   ) -> tuple[subprocess.Popen, Path, Path]:
    """A compare run in its own process, held after `after` solves while the hold file
    exists; the process, its folder and its hold file (`extra`: more options)."""
    lines = [format_line(p) for p in datasets.load("top95")[:30]]
    puzzles, log, out = puzzle_file(tmp_path, lines), tmp_path / "asked.log", tmp_path / "run"
    hold = tmp_path / "hold"
    hold.touch()
    command_line = [sys.executable, "-m", "sudokulab", "compare", "--file", str(puzzles),
                    "--out", str(out), "--jobs", "2", "--timeout", "0",
                    "--backends", f"norvig,test-count:log={log},hold={hold},after={after}", *extra]
    process = subprocess.Popen(command_line, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=interruptible)
    return process, out, hold


@pytest.mark.parametrize(("stop", "name"), [(signal.SIGINT, "Ctrl-C"),
                                            (signal.SIGTERM, "SIGTERM")])
def test_a_stopped_run_prints_what_finished_marked_partial(test_backends, tmp_path, stop,
                                                           name):
    process, out, hold = start_held_run(tmp_path)
    wait_for_records(out, 32, process)  # norvig's 30, and some of the held backend's
    process.send_signal(stop)
    hold.unlink()  # were the signal ignored, the run would finish and the test fail
    stdout, stderr = process.communicate()
    assert process.returncode == 128 + stop
    assert "Traceback" not in stderr and f"--resume --out {out}" in stderr
    assert stdout.startswith(f"PARTIAL: stopped by {name}: ")
    kept = records(out)
    finished = {(r["backend"], r["index"]) for r in kept}
    assert re.search(rf"{len(finished)} of the 60 answers asked for", stdout)
    rows = {line.split()[0]: line.split() for line in stdout.splitlines()
            if line.startswith(("norvig ", "test-count"))}
    held = next(b for b in rows if b.startswith("test-count"))
    assert rows["norvig"][1] == "30"  # each row counts the puzzles its backend finished
    assert int(rows[held][1]) == sum(1 for b, _ in finished if b.startswith("test-count"))
    assert 0 < int(rows[held][1]) < 30
    assert "summary.md, summary.csv" not in stdout and not (out / "summary.md").exists()
    session = json.loads((out / "meta.json").read_text())["sessions"][-1]
    assert session["interrupted"] and session.get("terminated", False) == (stop == signal.SIGTERM)


def test_a_stopped_run_with_repeats_counts_every_pass_it_asked_for(test_backends, tmp_path):
    """--repeat 3 asks for 2 x 30 x 3 solves: held in the second pass, the header and the
    kept count say how many of those finished (each pass a line of runs.jsonl), not 'all
    60 answers finished' once every puzzle has its first pass in."""
    process, out, hold = start_held_run(tmp_path, "--repeat", "3", after=40)
    wait_for_records(out, 70, process)  # both first passes, and 10 of test-count's second
    process.send_signal(signal.SIGINT)
    hold.unlink()
    stdout, stderr = process.communicate()
    kept = len(records(out))
    assert process.returncode == 130 and kept < 180
    assert stdout.startswith(f"PARTIAL: stopped by Ctrl-C: {kept} of the 180 answers asked "
                             f"for (one per backend, puzzle and pass) finished")
    assert f"interrupted: {kept} results kept in {out / 'runs.jsonl'}; finish the run" in stderr


@pytest.mark.parametrize(("stop", "name", "code"), [(KeyboardInterrupt, "Ctrl-C", 130),
                                                    (errors.Terminated, "SIGTERM", 143)])
def test_a_run_stopped_while_its_reports_are_written_says_so_and_resumes(
        monkeypatch, tmp_path, capsys, stop, name, code):
    out = tmp_path / "run"
    write_reports = service.write_reports

    def stopped(*_):  # the signal lands after the last answer, in the plots
        raise stop

    monkeypatch.setattr(service, "write_reports", stopped)
    args = ["compare", "--dataset", "hardest", "--backends", "norvig,dlx", "--out", str(out)]
    assert main(args) == code
    stdout, stderr = capsys.readouterr()
    assert stdout.startswith(f"PARTIAL: stopped by {name} while the report files were "
                             f"written: all 22 answers finished\n")
    assert f"22 results kept in {out / 'runs.jsonl'}; write its reports with:" in stderr
    assert f"compare --resume --out {out}" in stderr and not (out / "summary.md").exists()
    monkeypatch.setattr(service, "write_reports", write_reports)
    assert main(["compare", "--resume", "--out", str(out)]) == 0
    assert (out / "summary.md").exists() and len(records(out)) == 22  # nothing solved again


SCRIPT = """
import sudokulab as sl
from sudokulab.errors import CompareInterrupted

try:
    sl.compare(sl.load("top95")[:30], ["norvig", "test-count:log={log},hold={hold},after=8"],
               jobs=2, timeout=0, progress=False)
except CompareInterrupted as stop:
    runs = {{backend: len(records) for backend, records in stop.comparison.runs.items()}}
    print(stop.exit_code, runs["norvig"], sum(runs.values()))
    print(stop)
    print(stop.comparison.summary())
"""


@pytest.mark.parametrize(("stop", "exit_code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_in_a_script_keeps_what_sl_compare_measured(test_backends, tmp_path, stop,
                                                             exit_code):
    log, hold = tmp_path / "asked.log", tmp_path / "hold"
    hold.touch()
    script = tmp_path / "study.py"
    script.write_text(SCRIPT.format(log=log, hold=hold))
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    while not (log.exists() and len(log.read_text().splitlines()) > 8):
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    process.send_signal(stop)
    hold.unlink()  # were the signal ignored, the run would finish and print nothing
    stdout, stderr = process.communicate()
    assert process.returncode == 0 and stdout, stderr  # it printed what it caught
    code, norvig, answered = (int(word) for word in stdout.splitlines()[0].split())
    assert (code, norvig) == (exit_code, 30) and 30 < answered < 60
    said = "SIGTERM" if stop == signal.SIGTERM else "Ctrl-C"
    assert (f"interrupted ({said}): {answered} answer(s) recorded before it, "
            f"{answered - 30} of the 30 puzzle(s) finished by every backend") in stdout
    summary = stdout.split("\n", 2)[2]
    assert summary.startswith(f"PARTIAL: stopped by {said}: {answered} of the 60 answers")
    assert "norvig" in summary  # the summary's table


@pytest.mark.parametrize("text, said", [
    ("[1, 2]", "holds no run's settings"),
    ('{"settings": 3}', "holds no run's settings"),
    ("not json", "is not JSON"),
])
def test_a_malformed_meta_json_is_one_line_for_open_run_and_resume(text, said, tmp_path,
                                                                   capsys):
    (tmp_path / "meta.json").write_text(text)
    with pytest.raises(UsageError, match=f"meta.json {said}"):
        sl.open_run(tmp_path)
    assert main(["compare", "--resume", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"cannot resume {tmp_path}: " in err and said in err


def test_a_saved_setting_the_run_refuses_is_named(tmp_path):
    (tmp_path / "meta.json").write_text('{"settings": {"timeout": -1}}')
    with pytest.raises(UsageError, match=r"meta.json: --timeout -1: give seconds"):
        sl.open_run(tmp_path)
