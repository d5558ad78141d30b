"""Shared fixtures: bundled datasets with their reference solutions, and the backends
that misbehave on purpose (sudokulab.harness.testing), registered as a plugin."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.harness.testing import write_plugin

# The modules of the longest single tests (milp's Miracle count, about a minute) run
# first: pytest-xdist hands tests out in collection order, and a minute-long test handed
# out last would leave the other workers idle meanwhile.
FIRST = ("test_variants.py", "test_count.py", "test_cluster.py")


# The modules whose tests take a browser, a cluster, many engine starts or whole datasets
# (the slowest of `make test --durations`): marked slow, left out of `make check`.
SLOW = frozenset({
    "test_variants.py", "test_count.py", "test_cluster.py", "test_clean_stdout.py",
    "test_process_tree.py", "test_web_browser.py", "test_web_walk.py", "test_web_player.py",
    "test_web_rules.py", "test_web_board_rules.py", "test_web_soak.py", "test_web_teach.py",
    "test_prolog.py", "test_human_killer.py", "test_measurement.py", "test_ladder.py",
    "test_ladder_cli.py", "test_harness.py", "test_batches.py", "test_vision.py",
    "test_propagation_views.py", "test_setter.py", "test_certify.py", "test_human.py",
    "test_norvig.py", "test_check.py", "test_norvig_variants.py", "test_ranking.py",
    "test_compare_honesty.py", "test_children.py", "test_interrupt.py", "test_mzn.py",
})


def pytest_configure(config: pytest.Config) -> None:
    """The `slow` marker: `make check` runs -m 'not slow', `make test` everything."""
    config.addinivalue_line("markers", "slow: left out of the fast lane (make check)")


def pytest_collection_modifyitems(items: list) -> None:
    """The collection order, with the modules of FIRST moved to the front, in its order;
    the tests of SLOW modules marked slow."""
    first = {name: k for k, name in enumerate(FIRST)}
    items.sort(key=lambda item: first.get(item.path.name, len(FIRST)))  # stable
    for item in items:
        if item.path.name in SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def top95():
    """The top95 puzzles with their reference solutions (from tdoku)."""
    return list(zip(datasets.load("top95"), datasets.solutions("top95")))


def add_to_path(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make a plugin folder visible here and in child processes (sys.path) and in the
    commands a test runs (PYTHONPATH)."""
    monkeypatch.syspath_prepend(str(folder))
    paths = [str(folder), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))


def ready_backend(name: str):
    """A backend made and checked available; Prolog is skipped only on explicit request
    (SUDOKULAB_SKIP_PROLOG=1), never silently, and any other missing engine fails."""
    if name == "prolog" and os.environ.get("SUDOKULAB_SKIP_PROLOG") == "1":
        pytest.skip("SUDOKULAB_SKIP_PROLOG=1")
    engine = make_backend(name)
    ready = engine.available()
    if not ready.ok:
        pytest.fail(f"backend {name} is not available: {ready.reason} ({ready.fix})")
    return engine


@pytest.fixture(scope="session")
def plugin_dir(tmp_path_factory) -> Path:
    """A folder registering the test backends."""
    return write_plugin(tmp_path_factory.mktemp("plugins"))


@pytest.fixture
def test_backends(plugin_dir, monkeypatch) -> Path:
    """The test backends, registered for this test and its workers."""
    add_to_path(monkeypatch, plugin_dir)
    return plugin_dir


ROOT = Path(__file__).resolve().parent.parent
STARTUP = 60.0  # seconds the server may take to answer its first request


def start_server(path: str = "/api/backends") -> tuple[subprocess.Popen, str]:
    """`sudokulab serve` on a port the system picks (--port 0), answering `path`; its
    process and base URL. Port 0 rather than a probed free port: parallel workers cannot
    race for it."""
    process = subprocess.Popen([sys.executable, "-m", "sudokulab.cli", "serve", "--host",
                                "127.0.0.1", "--port", "0"], cwd=ROOT,
                               stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([process.stderr], [], [], STARTUP)
    announced = process.stderr.readline() if ready else ""
    found = re.search(r"serving (http://\S+?)/? ", announced)
    if not found:
        stop(process)
        pytest.fail(f"sudokulab serve did not start: {announced}{process.stderr.read()}")
    url = found.group(1)
    give_up = time.monotonic() + STARTUP
    while True:
        try:
            urllib.request.urlopen(f"{url}{path}", timeout=STARTUP).read()
            return process, url
        except OSError:
            if process.poll() is not None or time.monotonic() > give_up:
                stop(process)
                pytest.fail(f"sudokulab serve did not answer: {process.stderr.read()}")
            time.sleep(0.2)


def post(server: str, route: str, body: dict) -> dict:
    """A live server's answer to a POST of a JSON body (an HTTPError for a 4xx or 5xx)."""
    request = urllib.request.Request(f"{server}{route}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def stop(process: subprocess.Popen) -> None:
    """Terminate a server, killing it when it does not stop within 10 seconds."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def server():
    """`sudokulab serve` in a subprocess, for the browser tests; its base URL. One per test
    process, not one per module: each start and stop cost about 2 s of a worker's time."""
    process, url = start_server()
    try:
        yield url
    finally:
        stop(process)


CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, through Playwright (no browser download); one per test
    process, for every browser test module (Playwright's sync API allows one at a time)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's Chromium "
                    f"(`make install` runs `apt-get install -y chromium`)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def contexts(browser, server):
    """The test process's browser context for a kind of window (desktop, phone: Playwright's
    context options), made on first use; each test opens a page of its own in it. A context
    per test cost Chromium a renderer process started cold each time, a fifth of what a page
    costs; the page keeps nothing in a context (no cookies; open_page clears its localStorage
    after each test), the cache aside.
    Each context keeps a page of the server open (a static file, no script): Chromium then
    starts one renderer process for a test's page, not two, and the page costs it about
    half the CPU it did alone."""
    made: dict[str, object] = {}

    def context(options: dict):
        key = repr(sorted(options.items()))
        if key not in made:
            made[key] = browser.new_context(**options)
            made[key].new_page().goto(server + "/static/style.css")
        return made[key]

    yield context
    for context_made in made.values():
        context_made.close()


DESKTOP = {"viewport": {"width": 1400, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


def open_page(context, server: str, path: str = "/"):
    """A fresh page in a browser context, loaded and ready; after the test, no JavaScript
    error may be left."""
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    # a 4xx answer is logged as "Failed to load resource": the page's own business, not a bug
    tab.on("console", lambda message: errors.append(f"console: {message.text}")
           if message.type == "error" and not message.text.startswith("Failed to load resource")
           else None)
    tab.goto(server + path)
    tab.wait_for_selector("body[data-ready='1']")
    yield tab
    # the page keeps the player's progress in localStorage: the next test's page starts clean
    # now, and again once the page has saved as it closes (its listeners run first); a
    # page that crashed keeps nothing to clear
    with contextlib.suppress(Exception):
        tab.evaluate("localStorage.clear(); const clear = () => localStorage.clear(); "
                     "addEventListener('pagehide', clear); "
                     "document.addEventListener('visibilitychange', clear)")
    tab.close()
    assert errors == [], errors


@pytest.fixture
def page(contexts, server):
    """A desktop page (1400x900) of the real app."""
    yield from open_page(contexts(DESKTOP), server)


@pytest.fixture
def phone(contexts, server):
    """A phone's page (390x844, touch) of the real app."""
    yield from open_page(contexts(PHONE), server)


@pytest.fixture
def no_loop_running_yet():
    """This thread as a fresh process has it: no event loop running. Playwright's sync API
    (`browser` above) leaves its loop registered as running in the main thread of a test
    process for the whole session, and asyncio.run refuses to start under it."""
    import asyncio

    foreign = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    yield
    asyncio._set_running_loop(foreign)
