"""The page's side-by-side view of one rule (issue 32) in a real browser: for a row, a cage
and the anti-knight rule, each engine's panel shows exactly the piece `sudokulab model
--rule N` prints, and the compare table explains its statistics."""

from __future__ import annotations

import json

import pytest
from test_web_browser import DESKTOP, browser, open_page, paste  # noqa: F401 (fixtures)

from sudokulab import teach
from sudokulab.cli import main
from sudokulab.formats.text import parse

KILLER = json.loads((__import__("pathlib").Path(__file__).parent / "data" / "variants.json")
                    .read_text())["killer"]
PUZZLE = {**KILLER, "rules": [*KILLER["rules"], {"type": "anti-knight"}]}


@pytest.fixture
def page(browser, server):  # noqa: F811
    """A desktop page (1400x900)."""
    yield from open_page(browser, server, DESKTOP)


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
    expected = teach.pieces(puzzle, number)
    assert main(["model", json.dumps(PUZZLE), "--rule", str(number), "--backends", "all"]) == 0
    printed = capsys.readouterr().out
    assert list(panels) == [p.engine for p in expected]
    with_piece = [p for p in expected if not p.missing]
    assert {"sat", "smt", "dlx", "norvig", "asp"} <= {p.engine for p in with_piece}
    for piece in with_piece:
        panel = panels[piece.engine]
        assert panel["code"] and panel["code"] == piece.text, piece.engine
        assert piece.render() in printed  # what `sudokulab model --rule N` prints
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
