"""The page's teaching views (issue 32) in a real browser: for a row, a cage and the
anti-knight rule, each engine's panel shows exactly the piece `sudokulab model --show-rule N`
prints; the compare table explains its statistics; the search replay steps forward and back
through the same candidates as `sudokulab.backends.trace.replay` and ends on the engine's solution;
the propagation grids are those `sudokulab show --after LEVEL` prints.

With SUDOKULAB_WRITE_DOCS=1 the tests also refresh the tutorial's screenshots
(docs/tutorial/*.png, for docs/tutorial-declarative.md)."""

from __future__ import annotations

import json
import re

import pytest
from test_web_browser import ROOT, WRITE_DOCS, paste

from sudokulab import datasets
from sudokulab.backends import make_backend, trace, with_capability
from sudokulab.cli import main
from sudokulab.formats.text import parse
from sudokulab.teaching import sidebyside as teach

KILLER = json.loads((__import__("pathlib").Path(__file__).parent / "data" / "variants.json")
                    .read_text())["killer"]
PUZZLE = {**KILLER, "rules": [*KILLER["rules"], {"type": "anti-knight"}]}


def shown(page, number: int) -> dict[str, dict]:
    """The panels the page shows for rule `number`, by engine."""
    page.select_option("#teach-rule", str(number))
    page.click("#teach-show")
    page.wait_for_selector(f"#teach-pieces[data-rule='{number}']")
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#teach-pieces .piece')].map(p => [p.dataset.engine, {
        code: p.querySelector('code') ? p.querySelector('code').textContent : '',
        missing: p.dataset.missing === '1', sizes: p.querySelector('.sizes').textContent}]))""")


@pytest.mark.parametrize("name", ["row 1", "cage", "anti-knight"])
def test_each_engine_shows_its_real_piece(page, name, capsys):
    puzzle = parse(json.dumps(PUZZLE))
    refs = teach.rules_of(puzzle)
    number = next(r.number for r in refs if r.name == name or r.name.startswith(name + " "))
    paste(page, json.dumps(PUZZLE))
    page.click("#teach summary")
    page.click("#teach-rules")
    page.wait_for_selector(f"#teach-rule option[value='{number}']", state="attached")
    panels = shown(page, number)
    if name == "cage":
        screenshot(page, "side-by-side", "#teach-wide")  # the panels' dialog
    expected = teach.pieces(puzzle, number)
    assert main(["model", json.dumps(PUZZLE), "--show-rule", str(number), "--backends", "all"]) == 0
    printed = capsys.readouterr().out
    assert list(panels) == [p.engine for p in expected]
    with_piece = [p for p in expected if not p.missing]
    assert {"sat", "smt", "dlx", "norvig", "asp"} <= {p.engine for p in with_piece}
    for piece in with_piece:
        panel = panels[piece.engine]
        assert panel["code"] and panel["code"] == piece.text, piece.engine
        assert piece.render() in printed  # what `sudokulab model --show-rule N` prints
        for value in piece.size.values():
            assert f"{value:,}" in panel["sizes"]
    for piece in expected:
        assert panels[piece.engine]["missing"] == bool(piece.missing)


def test_the_compare_table_explains_its_statistics(page):
    paste(page, "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
    page.click("#compare")
    page.wait_for_function("document.querySelector('#agreement').dataset.agree !== undefined",
                           timeout=120_000)
    titles = page.eval_on_selector_all("#compare-table .stats span", "s => s.map(x => "
                                       "[x.textContent.split('=')[0], x.title])")
    assert any(name == "backtracks" and "dead end" in title for name, title in titles)
    legend = page.text_content("#stats-legend")
    assert "conflicts:" in legend and "each teaches it a clause" in legend


HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SHOTS = ROOT / "docs" / "tutorial"


def screenshot(page, name: str, *selectors: str, with_board: bool = False) -> None:
    """With SUDOKULAB_WRITE_DOCS=1, these parts of the page (none: the board), for the
    tutorial."""
    if not WRITE_DOCS:
        return
    SHOTS.mkdir(exist_ok=True)
    if with_board or not selectors:
        page.locator("#board").screenshot(path=str(SHOTS / f"{name}-board.png"))
    for k, selector in enumerate(selectors):
        suffix = f"-{k + 1}" if len(selectors) > 1 else ""
        page.locator(selector).screenshot(path=str(SHOTS / f"{name}{suffix}.png"))


def board(page) -> list[str]:
    """Each cell of the main board as text: its digit, or its pencil marks."""
    return page.eval_on_selector_all("#grid .cell", """cells => cells.map(c =>
        c.querySelector('.value').textContent || [...c.querySelectorAll('.marks span')]
        .map(s => s.textContent).join(''))""")


def as_text(marks, n: int = 9) -> list[str]:
    """Candidates (bitmasks) as the board shows them."""
    return ["".join(str(d + 1) for d in range(n) if m >> d & 1) for m in marks]


def step_to(page, k: int) -> None:
    """Move the replay's slider to step k, as a drag does."""
    page.eval_on_selector("#watch-step", f"s => {{ s.value = '{k}'; "
                          "s.dispatchEvent(new Event('input')); }")
    page.wait_for_selector(f"#watch[data-step='{k}']", state="attached")


# top95's 11th: every engine that records a trace guesses on it (native takes HARD without)
GUESSY = str(datasets.load("top95")[10])


@pytest.mark.parametrize("engine", with_capability("records_trace"))
def test_the_replay_steps_forward_and_back_and_ends_on_the_solution(page, engine):
    _, events = trace.record(parse(GUESSY), engine, limit=1)  # what the page's endpoint runs
    states = trace.replay(events)
    solution = make_backend(engine).solve(parse(GUESSY), limit=1).solutions[0]
    paste(page, GUESSY)
    page.click("#watch summary")
    page.select_option("#watch-engine", engine)
    page.click("#watch-run")
    page.wait_for_selector(f"#watch[data-engine='{engine}'][data-step='0']", state="attached")
    assert int(page.get_attribute("#watch", "data-steps")) == len(events)
    assert board(page) == as_text(states[0])
    for k in [1, 2, 3, 4, 5, 4, 3, 10, 2]:  # forward, back, a jump, back again
        step_to(page, k)
        assert board(page) == as_text(states[k]), k
    guess = next(k for k, e in enumerate(events) if e["event"] == "guess")
    step_to(page, guess - 1)  # the guess comes next: its cell and reason are said
    assert events[guess]["why"] in page.text_content("#watch-text")
    assert page.locator("#grid .cell.hl-cell").count() == 1
    screenshot(page, f"replay-{engine}", "#watch", with_board=engine == "norvig")
    # the tree: one node per guess, and every node finished (solved or dead)
    nodes = trace.tree(events)
    dots = page.eval_on_selector_all("#watch-tree circle", "cs => cs.map(c => c.dataset.outcome)")
    assert sorted(dots) == sorted(node["outcome"] for node in nodes)
    assert "solved" in dots and "dead" in dots
    # play at full speed to the end: the board holds the engine's solution
    page.select_option("#watch-speed", "64")
    page.click("#watch-play")
    last = len(events) - 1
    page.wait_for_selector(f"#watch[data-step='{last}']", state="attached", timeout=30_000)
    assert board(page) == [str(d) for d in solution]
    assert page.text_content("#watch-play") == "play"  # it stopped at the end
    step_to(page, last - 1)
    assert board(page) == as_text(states[last - 1])
    page.click("#watch-close")
    assert board(page)[:2] == ["6", ""]  # the player's grid again


def printed_marks(capsys, level: str) -> list[str]:
    """The pencil marks `sudokulab show PUZZLE --after LEVEL` prints, cell by cell."""
    assert main(["show", HARD, "--after", level]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    return [token for line in lines if not line.startswith("-")
            for token in re.findall(r"[1-9]+", line)]


def test_the_propagation_grids_are_what_show_after_prints(page, capsys):
    from sudokulab.teaching import ladder

    paste(page, HARD)
    page.click("#grids summary")
    page.click("#grids-run")
    page.wait_for_selector("#grids-boards figure[data-level='human:chains']", timeout=60_000)
    names = page.eval_on_selector_all("#grids-boards figure", "fs => fs.map(f => f.dataset.level)")
    assert names == [level.name for level in ladder.choose("default")]
    shown = {name: page.eval_on_selector_all(f"#grids-boards figure[data-level='{name}'] .g span",
                                             "ss => ss.map(s => s.dataset.marks)")
             for name in names}
    for name in (n for n in names if ladder.BY_NAME[n].engine not in ladder.SEARCH_SPEC):
        assert shown[name] == printed_marks(capsys, name), name  # asp, cpsat: no marks
    # they differ where the paradigms do: singles stop short, locked candidates finish
    assert shown["norvig"] == shown["human:singles"] != shown["human:locked"]
    assert all(len(marks) == 1 for marks in shown["human:locked"])
    assert shown["sat:minimal"] != shown["sat:extended"]
    screenshot(page, "grids", "#grids")
    page.click("#grids-boards figure[data-level='norvig']")
    page.wait_for_selector("#grids[data-open='norvig']", state="attached")
    assert board(page) == shown["norvig"]
    screenshot(page, "grids-open")
    page.click("#grids-close")
    assert board(page)[:2] == ["4", ""]


def test_the_timeline_charts_a_learning_engine_over_time(page, top95):
    from sudokulab.backends import timeline
    from sudokulab.puzzle import line_of

    puzzle = line_of(top95[2][0].givens)  # a hard one: CaDiCaL needs dozens of conflicts
    paste(page, puzzle)
    page.click("#timeline summary")
    page.select_option("#timeline-engine", "sat")
    page.click("#timeline-run")
    page.wait_for_selector("#timeline-charts[data-backend='sat'] figure", timeout=30_000)
    charts = page.eval_on_selector_all("#timeline-charts figure", """fs => fs.map(f => ({
        figure: f.dataset.figure, points: Number(f.dataset.points),
        drawn: f.querySelector('polyline').getAttribute('points').trim().split(' ').length,
        caption: f.querySelector('figcaption').textContent}))""")
    assert [c["figure"] for c in charts] == list(timeline.MEANING["sat"])
    for chart in charts:
        assert chart["points"] >= 2 and chart["drawn"] == chart["points"]
        assert timeline.MEANING["sat"][chart["figure"]] in chart["caption"]
    assert "conflict budget" in page.text_content("#timeline-text")
    screenshot(page, "timeline-sat", "#timeline")
