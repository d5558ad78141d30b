"""Issue 54 on the server: a cancelled setter request stops its work but keeps its helper
process (and so its warm incremental solver): the next update is answered by the same
process, correctly. And tags are opaque, per tab: cancelling one tab's tag leaves another
tab's request with the same puzzle and counter alone."""

from __future__ import annotations

import threading
import time

import httpx
import pytest
from conftest import serving

from sudokulab.check import check
from sudokulab.formats.text import parse
from sudokulab.web import tutor

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SLOW = "." * 256   # an empty 16x16: every cell's true candidates take seconds


@pytest.fixture
def served():
    """The app under uvicorn in a thread, on a free port: the app and its URL. One per
    test: a helper remembers the puzzles it answered whole, so a SLOW an earlier test had
    finished was answered at once, before its cancel (in another test order)."""
    from sudokulab.web.app import create_app

    app = create_app()
    with serving(app) as port:
        yield app, f"http://127.0.0.1:{port}"


def in_thread(url: str, route: str, body: dict) -> tuple[threading.Thread, list]:
    """POST in a thread of its own; the thread and the list its JSON answer goes into."""
    answers: list = []

    def post() -> None:
        answers.append(httpx.post(f"{url}{route}", json=body, timeout=120).json())

    thread = threading.Thread(target=post)
    thread.start()
    return thread, answers


def under_way(app, *tags: str) -> None:
    """Wait until the server runs work for every tag (the requests reached their helper)."""
    while not all(tag in app.state.jobs.by_tag for tag in tags):
        time.sleep(0.01)
    time.sleep(0.3)  # into the SAT calls, past the helper's task hand-over


def pids(app) -> list[int]:
    """The helper processes of the setter's bench, idle now."""
    return sorted(helper.process.pid for helper in app.state.tutor.idle)


def test_a_cancelled_setter_request_keeps_its_helper_warm(served, monkeypatch):
    # the page waits STOP_WAIT (2 s) for a stopped task before it kills the helper; a
    # loaded machine can take longer to answer: this test is about stopping, not the wait
    monkeypatch.setattr(tutor, "STOP_WAIT", 300.0)  # only so that a hang fails
    app, url = served
    first = httpx.post(f"{url}/api/setter", json={"puzzle": EASY, "grade": False},
                       timeout=120).json()
    assert first["status"] == "unique"
    before = pids(app)
    thread, answers = in_thread(url, "/api/setter", {"puzzle": SLOW, "timeout": 30,
                                                     "tag": "tab-a:setter:1"})
    under_way(app, "tab-a:setter:1")
    cancel = httpx.post(f"{url}/api/cancel", json={"tag": "tab-a:setter:1"}, timeout=60)
    thread.join()
    assert cancel.json()["cancelled"] == 1 and answers[0]["status"] == "cancelled"
    assert pids(app) == before  # stopped, not killed: the same process, idle again
    again = httpx.post(f"{url}/api/setter", json={"puzzle": EASY, "grade": False,
                                                  "tag": "tab-a:setter:2"}, timeout=120).json()
    assert again["status"] == "unique" and again["complete"]
    assert not check(parse(EASY), tuple(again["solutions"][0]))
    assert again["candidates"] == [[d] for d in again["solutions"][0]]
    assert pids(app) == before


def test_cancelling_one_tabs_tag_leaves_the_other_tab_alone(served):
    app, url = served
    # the page's old tags were "<puzzle>:<counter>": two tabs sent the same "1:1"
    one, two = "3f2a9c:1:1", "b81e07:1:1"
    first, answers_one = in_thread(url, "/api/setter", {"puzzle": SLOW, "timeout": 30,
                                                        "grade": False, "tag": one})
    second, answers_two = in_thread(url, "/api/setter", {"puzzle": SLOW, "timeout": 30,
                                                         "grade": False, "tag": two})
    under_way(app, one, two)
    cancel = httpx.post(f"{url}/api/cancel", json={"tag": one}, timeout=60).json()
    first.join()
    second.join()
    assert cancel == {"cancelled": 1, "tag": one}
    assert answers_one[0]["status"] == "cancelled" and answers_one[0]["tag"] == one
    assert answers_two[0]["status"] == "several" and answers_two[0]["tag"] == two
    assert answers_two[0]["complete"]


def test_a_tag_is_opaque_text(served):
    _, url = served
    tag = "tab: ü/1:2 ;; \"x\""
    answer = httpx.post(f"{url}/api/solve", json={"puzzle": EASY, "tag": tag},
                        timeout=120).json()
    assert answer["tag"] == tag and answer["status"] == "unique"
    assert httpx.post(f"{url}/api/cancel", json={"tag": tag}, timeout=60).json() == {
        "cancelled": 0, "tag": tag}
