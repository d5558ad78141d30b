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
import threading
import time
import urllib.request
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sudokulab import datasets
from sudokulab.backends import make_backend
from sudokulab.harness.testing import write_plugin

# The modules of the longest single tests (milp's Miracle count, about a minute) run
# first: pytest-xdist hands tests out in collection order, and a minute-long test handed
# out last would leave the other workers idle meanwhile.
FIRST = ("test_variants.py", "test_count.py", "test_cluster.py")

# A count that runs for hours yet is not refused (under counting.ENUMERABLE): easy50's
# first solution with its first 51 cells blank, about 4e7 grids. The tests that stop a
# count under way count it: an empty 9x9's count without --timeout is refused at once.
LONG_COUNT = "." * 51 + "245372689514814253769695417382"


# The modules whose tests take a browser, a cluster, many engine starts or whole datasets
# (the slowest of `make test --durations`): marked slow, left out of `make check`. A test
# elsewhere that takes the browser (the `page` and `phone` fixtures) is slow too.
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

# The costliest tests of the fast modules (`pytest -m "not slow" --durations=0`, summed over
# their cases; a name with [case] is that case alone), marked slow: each module keeps
# quicker tests of the same command, engine or area in the fast lane.
SLOW_TESTS = frozenset({
    # the slowest of the fast lane on 2026-11-29 (25, 21 and 13 s of a worker,
    # `pytest -m "not slow" --durations`): each module keeps quicker tests of the same thing
    "test_classic_algorithms.py::"
    "test_every_top95_puzzle_gets_its_reference_solution[sat:solver=teach]",
    "test_classic_algorithms.py::test_the_teaching_cdcl_gets_every_easy50_puzzle_right",
    "test_lessons_signals.py::test_hint_all_prints_the_steps_found_before_the_signal",
    "test_adding_a_rule.py::test_a_rule_made_of_geometry_reaches_every_engine_without_an_edit_there",
    "test_contract.py::test_the_empty_4x4_has_288_grids",
    "test_contract.py::test_other_shapes",
    "test_contract.py::test_a_timeout_keeps_what_was_found_so_far",
    "test_smt.py::test_miracle_rules_admit_72_grids",
    "test_smt.py::test_every_model_agrees_with_norvig_on_top95",
    "test_smt.py::test_blocking_clauses_do_not_outlive_their_search",
    "test_smt.py::test_empty_4x4_has_288_solutions",
    "test_smt.py::test_variant_solutions_are_exactly_the_checked_grids",
    "test_smt.py::test_export_reparses_to_the_same_solution",
    "test_smt.py::test_sandwich_counts_match_brute_force_on_4x4",
    "test_smt.py::test_other_configurations_agree_with_norvig_on_top95",
    "test_smt.py::test_non_consecutive_6x6_has_norvigs_48_grids",
    "test_smt.py::test_timeout_on_25x25_keeps_the_solver_usable",
    "test_smt.py::test_blanking_cells_of_a_solution_agrees_with_norvig",
    "test_dlx.py::test_generated_variant_puzzles_get_norvigs_unique_answer",
    "test_web_api.py::test_a_hung_engine_does_not_hold_up_other_requests",
    "test_web_api.py::test_a_crashing_engine_is_an_error_result",
    "test_web_api.py::test_compare_of_every_available_engine_by_default",
    "test_web_api.py::test_a_client_that_leaves_stops_its_work",
    "test_web_api.py::test_compare_runs_one_engine_at_a_time_after_a_warm_up",
    "test_web_api.py::test_compare_names_the_engine_that_disagrees",
    "test_web_api.py::test_compare_judges_mixed_answers_by_their_grids",
    "test_web_api.py::test_generate_unavailable_is_a_503_with_one_line",
    "test_web_api.py::test_a_hung_engine_is_killed_at_its_timeout_and_answered_timeout",
    "test_web_api.py::test_grids_that_do_not_match_the_count_are_invalid",
    "test_web_api.py::test_cancel_ends_a_compare_and_says_so_in_its_last_event",
    "test_web_api.py::test_cancel_ends_a_solve_and_its_worker",
    "test_asp.py::test_export_to_asp_runs_in_clingo_alone",
    "test_asp.py::test_other_shapes_count_like_norvig",
    "test_sat.py::test_every_encoding_with_every_at_most_one",
    "test_sat.py::test_a_long_solve_is_cut_at_the_timeout_and_the_solver_stays_usable",
    "test_sat.py::test_every_at_most_one_encoding_solves_top95",
    "test_generate.py::test_every_rule_gives_unique_minimal_puzzles_under_that_rule",
    "test_generate.py::test_grade_compare_and_solve_read_the_output_with_its_header",
    "test_availability.py::test_each_engine_hidden_leaves_the_others_working",
    "test_corners.py::test_hard_killers_get_their_published_solutions",
    "test_corners.py::test_smt_export_declares_the_cage_selectors",
    "test_rules.py::test_counts_on_4x4_match_brute_force",
    "test_api.py::test_the_notebook_runs_and_its_page_holds_its_cells",
    "test_api.py::test_compare_finds_a_planted_engine_twice_as_slow",
    "test_api.py::test_the_command_line_and_the_api_report_the_same_tables",
    "test_cli_errors.py::test_solve_timeout_is_a_hard_deadline",
    "test_cpmpy.py::test_each_solver_counts_the_4x4_grids",
    "test_formats.py::test_compare_skips_the_bad_puzzle_and_counts_the_clash_as_none",
    "test_formats.py::test_solve_answers_every_puzzle_of_a_json_lines_file_under_its_rules",
    "test_formats.py::test_compare_runs_a_json_lines_file_of_variants_each_under_its_rules",
    "test_formats.py::test_every_backend_counts_a_5x5_jigsaw_alike",
    "test_teach.py::test_smt_and_cpsat_pieces_add_up_to_their_groups",
    "test_teach.py::test_cnf_pieces_of_the_units_add_up_to_the_formula",
    "test_newuser_battery.py::test_an_answer_stopped_by_sigterm_says_sigterm",
    "test_generate_marks.py::test_9x9_puzzles_need_their_rules",
    "test_human_rules_brute.py::test_random_4x4_killers_against_every_grid",
    "test_human_rules_brute.py::test_random_4x4_variants_against_every_grid",
    "test_human_rules_brute.py::test_random_6x6_killers_against_norvig",
    "test_human_grading.py::test_each_explainer_step_is_the_lowest_rated_and_sound",
    "test_stats_measures.py::test_intervals_shrink_with_more_repeats",
    "test_samurai.py::test_compare_cross_checks_the_engines",
    "test_api_use.py::test_a_script_compares_with_or_without_a_main_guard",
    "test_ctrl_c_cli.py::test_run_backend_hands_back_what_a_worker_found_before_ctrl_c",
    "test_bad_input.py::test_bad_input[compare-resume-garbage-line]",
    "test_bad_input.py::test_bad_input[compare-human-unsupported]",
    "test_bad_input.py::test_bad_input[compare-clash]",
})


def _first_case(params: dict[str, Any]) -> Hashable:
    """One kind for every case: the fast lane keeps the first."""
    return None


def _per_engine(params: dict[str, Any]) -> Hashable:
    """A case's engine: the fast lane keeps one case of each engine."""
    return params["backend"]


def _per_command_and_exit(params: dict[str, Any]) -> Hashable:
    """A bad-input case's command and exit code: the fast lane keeps one of each pair."""
    return params["case"].argv[:1], params["case"].code


# Tests of many cases whose fast lane keeps the first case of each kind (in collection
# order) and marks the others slow: every command's bad input and every engine still run.
SAMPLED: dict[str, Callable[[dict[str, Any]], Hashable]] = {
    "test_bad_input.py::test_bad_input": _per_command_and_exit,
    "test_contract.py::test_every_variant_puzzle": _per_engine,
    "test_contract.py::test_without_its_rule_a_variant_puzzle_has_several_solutions":
        _per_engine,
    "test_ctrl_c_cli.py::test_ctrl_c_while_counting_prints_the_count_so_far": _first_case,
    "test_ctrl_c_cli.py::test_ctrl_c_while_counting_in_a_worker_prints_the_count_so_far":
        _first_case,
}


def pytest_configure(config: pytest.Config) -> None:
    """The `slow` marker: `make check` runs -m 'not slow', `make test` everything."""
    config.addinivalue_line("markers", "slow: left out of the fast lane (make check)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The collection order, with the modules of FIRST moved to the front, in its order;
    the tests of SLOW modules, of SLOW_TESTS and the cases SAMPLED leaves out marked slow."""
    first = {name: k for k, name in enumerate(FIRST)}
    items.sort(key=lambda item: first.get(item.path.name, len(FIRST)))  # stable
    kept: set[tuple[str, Hashable]] = set()
    for item in items:
        if is_slow(item, kept):
            item.add_marker(pytest.mark.slow)


def is_slow(item: pytest.Item, kept: set[tuple[str, Hashable]]) -> bool:
    """Whether a test is left out of the fast lane; `kept` holds the SAMPLED kinds already
    in it (a test's first case of a kind is added there)."""
    test = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
    if item.path.name in SLOW or {test, f"{item.path.name}::{item.name}"} & SLOW_TESTS:
        return True
    if "browser" in getattr(item, "fixturenames", ()):  # Chromium: slow wherever it is
        return True
    if test not in SAMPLED:
        return False
    callspec = getattr(item, "callspec", None)
    kind = (test, SAMPLED[test](callspec.params if callspec else {}))
    if kind in kept:
        return True
    kept.add(kind)
    return False


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


@contextlib.contextmanager
def serving(app: Any) -> Iterator[int]:
    """The app under uvicorn in a thread of this process, on a port the system picks (unlike
    TestClient, a client can hang up mid-request): its port, until the block ends."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not (server.started or not thread.is_alive()):
        time.sleep(0.02)
    assert server.started
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join()


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
