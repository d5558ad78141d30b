"""Batches: several puzzles per message to a worker, with every answer still its own.

The runner sends fast puzzles to a worker in batches (sudokulab.harness.runner.Feed). A
batch must change nothing that is recorded: a puzzle that hangs or crashes in the middle
of one is the only puzzle recorded as a timeout or an error, a worker killed midway
loses none of the answers it sent, and the answers are those of one puzzle at a time.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from sudokulab.formats.text import format_line
from sudokulab.harness import runner
from sudokulab.harness.runner import Feed, Options, Record, run_backend
from sudokulab.puzzle import Puzzle, empty
from sudokulab.result import Result, Status

SAMPLE = 24  # puzzles of top95 in the tests that trap one; the trap is puzzle TRAP
TRAP = 9
PLAIN = Options()


def solve_all(spec: str, puzzles: list[Puzzle], options: Options = PLAIN, *,
              jobs: int = 1, seen: dict[int, Record] | None = None) -> dict[int, Record]:
    """Every puzzle through run_backend: index -> its one Record."""
    seen = {} if seen is None else seen

    def record(r: Record) -> None:
        assert r.index not in seen, f"puzzle {r.index} recorded twice"
        seen[r.index] = r

    run_backend(spec, list(enumerate(puzzles)), options, jobs=jobs, record=record)
    return seen


@pytest.fixture
def batch_sizes(monkeypatch) -> list[int]:
    """The size of every batch sent to a worker, in order."""
    sizes: list[int] = []
    send = runner.Worker.send

    def spy(worker: runner.Worker, batch: list) -> bool:
        sizes.append(len(batch))
        return send(worker, batch)

    monkeypatch.setattr(runner.Worker, "send", spy)
    return sizes


@pytest.fixture
def by_share(monkeypatch) -> None:
    """Batches cut by each worker's share of what is left only, whatever the engine's
    speed, so that the trap lands mid-batch on any machine: with one worker and SAMPLE
    puzzles, [0], [1], then [2..12], [13..18], ..."""
    monkeypatch.setattr(runner, "BATCH", 1e9)


def said(records: dict[int, Record]) -> dict[int, tuple]:
    """What each answer says, without its timings."""
    return {i: (r.result.status, r.result.solutions, r.result.count, r.result.exact)
            for i, r in records.items()}


def test_batches_give_the_answers_of_one_puzzle_at_a_time(top95, batch_sizes, monkeypatch):
    puzzles = [p for p, _ in top95]
    batched = solve_all("norvig", puzzles, Options(limit=2, timeout=10.0), jobs=2)
    assert max(batch_sizes) > 1
    monkeypatch.setattr(runner, "BATCH_MAX", 1)
    batch_sizes.clear()
    alone = solve_all("norvig", puzzles, Options(limit=2, timeout=10.0), jobs=2)
    assert set(batch_sizes) == {1}
    assert said(batched) == said(alone)
    assert [batched[i].result.solutions for i in range(len(top95))] == \
        [(solution,) for _, solution in top95]


def answer(seconds: float) -> tuple:
    """A worker's answer for one puzzle that took `seconds` to solve."""
    return (0, Result(Status.UNIQUE), seconds, [seconds], None)


def test_batches_are_sized_by_the_engines_time_per_puzzle():
    nine = empty(9)
    feed = Feed([(k, nine) for k in range(1000)], workers=2)
    assert feed.size() == 1  # nothing measured yet
    feed.learn([answer(0.5)])
    assert feed.size() == 1  # a slow engine: one puzzle at a time
    for _ in range(20):
        feed.learn([answer(0.0016)])
    assert feed.size() == int(runner.BATCH / 0.0016)  # 12 puzzles of 1.6 ms
    for _ in range(30):
        feed.learn([answer(1e-7)])
    assert feed.size() == runner.BATCH_MAX
    assert [len(feed.take()), len(feed)] == [runner.BATCH_MAX, 900]
    tail = Feed([(k, nine) for k in range(10)], workers=2)
    tail.learn([answer(1e-7)])
    assert tail.size() == 3  # 10 puzzles left: 2 batches in flight for each of 2 workers
    big = Feed([(k, empty(25)) for k in range(1000)])
    big.learn([answer(1e-7)])
    assert big.size() == runner.BATCH_CELLS // 625


def test_a_puzzle_that_hangs_in_a_batch_is_the_only_timeout(test_backends, top95, tmp_path,
                                                            by_share, batch_sizes):
    puzzles = [p for p, _ in top95[:SAMPLE]]
    trap, log = format_line(puzzles[TRAP]), tmp_path / "asked.log"
    records = solve_all(f"test-count:log={log},hang={trap}", puzzles, Options(timeout=1.0))
    assert sorted(records) == list(range(SAMPLE))
    assert records[TRAP].result.status == Status.TIMEOUT
    assert records[TRAP].result.message == "no answer in time: worker killed"
    assert not records[TRAP].result.exact  # no grid counted: '>= 0', never 'exactly 0'
    assert all(r.result.status == Status.UNIQUE for i, r in records.items() if i != TRAP)
    assert batch_sizes[2] == 11  # the trap was sent with others...
    assert log.read_text().splitlines().count(trap) == 2  # ...then again on its own


def test_a_puzzle_that_crashes_in_a_batch_is_the_only_error(test_backends, top95, tmp_path,
                                                            by_share, batch_sizes):
    puzzles = [p for p, _ in top95[:SAMPLE]]
    trap, log = format_line(puzzles[TRAP]), tmp_path / "asked.log"
    records = solve_all(f"test-count:log={log},crash={trap}", puzzles)
    assert sorted(records) == list(range(SAMPLE))
    assert records[TRAP].result.status == Status.ERROR
    assert records[TRAP].result.message == "worker died (killed by SIGKILL)"
    assert all(r.result.status == Status.UNIQUE for i, r in records.items() if i != TRAP)
    assert batch_sizes[2] == 11
    assert log.read_text().splitlines().count(trap) == 2


def test_a_worker_killed_mid_batch_keeps_its_answers_and_the_rest_is_solved_again(
        test_backends, top95, tmp_path, by_share):
    puzzles = [p for p, _ in top95[:SAMPLE]]
    lines = [format_line(p) for p in puzzles]
    log, hold = tmp_path / "asked.log", tmp_path / "hold"
    hold.touch()
    # the log gets 2 lines for puzzle 0 (the warm-up), then 1 each: puzzle 5 is held, in
    # the middle of the batch [2..12], and the answers to 2, 3 and 4 wait in the worker
    records: dict[int, Record] = {}
    killer = threading.Thread(target=kill_when_held, args=(records, log, hold), daemon=True)
    killer.start()
    solve_all(f"test-count:log={log},hold={hold},after=6", puzzles, seen=records)
    killer.join()
    assert sorted(records) == list(range(SAMPLE))
    assert all(r.result.status == Status.UNIQUE for r in records.values())  # no error
    before, after = log.read_text().split("killed\n")
    assert set(before.splitlines()) == set(lines[:6])
    asked_again = set(after.splitlines())
    assert asked_again.isdisjoint(lines[:5])  # answered before the kill: not solved again
    assert set(lines[5:13]) <= asked_again    # the rest of the batch: solved again


def kill_when_held(records: dict[int, Record], log: Path, hold: Path) -> None:
    """Once puzzle 5 is held and the 5 answers before it are recorded, kill the worker,
    mark the moment in the log, and let the run go on."""
    while not (log.exists() and len(log.read_text().splitlines()) >= 7 and len(records) >= 5):
        time.sleep(0.01)
    for child in multiprocessing.active_children():
        if child.name.startswith("sudokulab-test-count"):
            os.kill(child.pid, signal.SIGKILL)
    with log.open("a") as marker:
        marker.write("killed\n")
    hold.unlink()
