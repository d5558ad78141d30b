"""The web server cannot wedge: requests cancelled at every moment (while a worker starts,
solves or answers), twice in the same moment as the page does (its own abort and its
POST /api/cancel), give back every worker's slot, and a solve still answers afterwards.

SUDOKULAB_SOAK_ROUNDS sets the rounds (`make soak` runs a thousand)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import threading
import urllib.request

import pytest
from conftest import serving

from sudokulab.check import check
from sudokulab.formats.text import parse
from sudokulab.web import tutor as tutor_module
from sudokulab.web.pool import Pool
from sudokulab.web.tutor import Tutor

ROUNDS = int(os.environ.get("SUDOKULAB_SOAK_ROUNDS", "12"))
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
# empty grids of each size: an engine's start and a long search, to be cancelled anywhere
EMPTY = {4: "." * 16, 9: "." * 81, 16: "." * 256, 25: "." * 625}
BACKENDS = ("norvig", "dlx", "sat", "cpsat")


def run(coroutine) -> None:
    """Run a coroutine to its end on an event loop of its own, in a thread of its own: a
    browser test before it in the same worker may have left a loop running in this one."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, coroutine).result()


def settled(pool: Pool) -> None:
    """With no request under way, every worker the pool counts is an idle, living one."""
    assert pool.size == len(pool.idle), (dict(pool.live), len(pool.idle))
    assert all(worker.process.is_alive() for worker in pool.idle)


async def cancelled_twice(tasks: list[asyncio.Future], rng: random.Random) -> None:
    """Cancel the tasks, then again a moment later (or in the same tick), and wait."""
    for task in tasks:
        task.cancel()
    await asyncio.sleep(rng.choice((0, 0, 0.001, 0.005, 0.02)))
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks)


def test_solves_cancelled_anywhere_give_back_every_worker():
    async def soak() -> None:
        pool = Pool(max_processes=6)
        rng = random.Random(53)
        try:
            for _ in range(ROUNDS):
                size = rng.choice(list(EMPTY))
                tasks = [asyncio.ensure_future(pool.solve(spec, parse(EMPTY[size]), 2, 10.0))
                         for spec in rng.sample(BACKENDS, 3)]
                await asyncio.sleep(rng.uniform(0, 0.5))
                await cancelled_twice(tasks, rng)
                settled(pool)
            result = (await pool.solve("norvig", parse(EASY), 2, 10.0)).result
            assert result.status.value == "unique"
            settled(pool)
        finally:
            await asyncio.gather(*pool.ending)
            pool.close()

    run(soak())


def test_a_worker_that_died_while_idle_is_replaced():
    async def replaced() -> None:
        pool = Pool()
        try:
            first = (await pool.solve("norvig", parse(EASY), 2, 10.0)).result
            [worker] = pool.idle
            worker.process.kill()
            worker.process.join()
            again = (await pool.solve("norvig", parse(EASY), 2, 10.0)).result
            assert (first.status.value, again.status.value) == ("unique", "unique")
            [replacement] = pool.idle
            assert replacement is not worker and pool.size == 1
        finally:
            await asyncio.gather(*pool.ending)
            pool.close()

    run(replaced())


def test_hints_cancelled_anywhere_give_back_every_helper():
    async def soak() -> None:
        tutor = Tutor(max_processes=2)
        rng = random.Random(54)
        try:
            for _ in range(max(ROUNDS // 2, 4)):
                tasks = [asyncio.ensure_future(tutor.run("hint", 30.0, puzzle=EASY))
                         for _ in range(3)]
                await asyncio.sleep(rng.uniform(0, 0.5))
                await cancelled_twice(tasks, rng)
                assert tutor.busy == 0 and tutor.live == len(tutor.idle)
            answer = await tutor.run("hint", 60.0, puzzle=EASY)
            assert answer.get("status") != "timeout", answer
            assert tutor.busy == 0
        finally:
            await asyncio.gather(*tutor.ending)
            tutor.close()

    run(soak())


def test_setter_updates_cancelled_anywhere_keep_their_helper_warm(monkeypatch):
    """The setter's bench is stopped, not killed, when cancelled (issue 54): whenever the
    cancels come, the helper that answered first is the one that answers last, warm."""
    # the wait for a stopped task (STOP_WAIT, 2 s) is the product's; a loaded machine can
    # take longer to answer, and this test is about stopping, not the wait
    monkeypatch.setattr(tutor_module, "STOP_WAIT", 300.0)  # only so that a hang fails
    async def soak() -> None:
        tutor = Tutor(max_processes=2)
        rng = random.Random(56)
        try:
            await tutor.run("setter", 60.0, puzzle=parse(EASY), grade=False)
            [helper] = tutor.idle
            for _ in range(max(ROUNDS // 2, 4)):
                size = rng.choice((4, 9, 16))
                tasks = [asyncio.ensure_future(tutor.run("setter", 30.0,
                                                         puzzle=parse(EMPTY[size])))]
                await asyncio.sleep(rng.uniform(0, 0.5))
                await cancelled_twice(tasks, rng)
                await asyncio.gather(*tutor.ending)
                assert tutor.busy == 0 and tutor.live == len(tutor.idle)
            answer = await tutor.run("setter", 60.0, puzzle=parse(EASY), grade=False)
            assert answer["status"] == "unique", answer
            assert not check(parse(EASY), tuple(answer["solutions"][0]))
            assert helper in tutor.idle and helper.process.is_alive()
        finally:
            await asyncio.gather(*tutor.ending)
            tutor.close()

    run(soak())


def request_bytes(route: str, body: dict) -> bytes:
    """A raw HTTP/1.1 POST of a JSON body."""
    data = json.dumps(body).encode()
    return (f"POST {route} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n").encode() + data


def post(port: int, route: str, body: dict) -> dict:
    """The server's JSON answer to a POST."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{route}",
                                     data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


@pytest.fixture
def served():
    """The app under uvicorn in a thread, on a free port: the app and its port."""
    from sudokulab.web.app import create_app

    app = create_app()
    with serving(app) as port:
        yield app, port


def test_the_pages_compare_then_load_sequence_never_wedges_the_server(served):
    """The page's sequence from the report: a grid, compare every engine, then load
    another puzzle about a second later (the page aborts its stream and posts a cancel
    for the old tag in the same moment), round after round."""
    import time

    app, port = served
    rng = random.Random(55)
    for number in range(max(ROUNDS // 2, 4)):
        tag = f"soak:{number}"
        size = rng.choice(list(EMPTY))
        with socket.create_connection(("127.0.0.1", port)) as connection:
            connection.sendall(request_bytes("/api/compare", {
                "puzzle": EMPTY[size], "backends": list(BACKENDS), "timeout": 20, "tag": tag}))
            time.sleep(rng.uniform(0, 1.5))
            canceller = threading.Thread(target=post, args=(port, "/api/cancel", {"tag": tag}))
            canceller.start()  # the cancel and the hang-up in the same moment
        canceller.join()
        answer = post(port, "/api/solve", {"puzzle": EASY, "tag": f"load:{number}"})
        assert answer["status"] == "unique", answer
    pool = app.state.pool
    while app.state.jobs.by_tag or pool.ending:  # the last hang-up's work ends
        time.sleep(0.05)
    settled(pool)
