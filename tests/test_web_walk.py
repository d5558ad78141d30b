"""Defects a walk through the page found (as a player, a student and a teacher, on a desktop
and on a phone), each pinned by a browser test that failed before its fix: solving with the
last hint, the teaching views keeping the old puzzle's answers after a switch, a playing
replay taking the board back from a hint, and a phone's small controls, hidden board and
statistics broken mid-word."""

from __future__ import annotations

import json
import time

from test_web_browser import (
    EASY,
    HARD,
    VARIANTS,
    grid_text,
    paste,
)

SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
TAP = 40  # px each way a finger needs (the brief's floor; 44-48 is the platforms' advice)


def open_all(page) -> None:
    """Open every section of the tools, as a reader scrolling through would."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def test_the_hint_that_fills_the_last_cell_says_solved_and_stops_the_clock(page):
    paste(page, SOLUTION[:-1] + ".")  # one cell left: the hint is its full house
    page.click("#hint")
    page.wait_for_selector("#learn[data-status='step']")
    page.click("#learn-apply")
    assert grid_text(page) == SOLUTION
    assert page.text_content("#message").startswith("solved in ")
    shown = page.text_content("#timer")
    time.sleep(1.2)  # the page redraws the clock twice a second
    assert page.text_content("#timer") == shown


def test_a_new_puzzle_takes_away_the_old_ones_propagation_boards(page):
    paste(page, HARD)
    page.click("#grids summary")
    page.click("#grids-run")
    page.wait_for_selector("#grids-boards figure")
    paste(page, EASY)
    # a board left there opened the old puzzle's candidates over the new puzzle's grid
    assert page.locator("#grids-boards figure").count() == 0
    assert page.text_content("#grids-text") == ""
    assert grid_text(page) == EASY


def test_a_new_puzzle_takes_away_the_old_ones_search_replay(page):
    paste(page, HARD)
    page.click("#watch summary")
    page.click("#watch-run")
    page.wait_for_selector("#watch[data-steps]")
    paste(page, EASY)
    assert page.locator("#watch-tree circle").count() == 0
    assert page.get_attribute("#watch", "data-steps") is None
    page.click("#watch-play")  # nothing to play: it was a clock ticking over nothing
    assert page.text_content("#watch-play") == "play"
    assert grid_text(page) == EASY


def test_a_new_puzzle_takes_away_the_old_ones_timeline(page):
    paste(page, HARD)
    page.click("#timeline summary")
    page.select_option("#timeline-engine", "sat")
    page.click("#timeline-run")
    page.wait_for_selector("#timeline-charts[data-backend='sat'] figure")
    paste(page, EASY)
    assert page.locator("#timeline-charts figure").count() == 0
    assert page.text_content("#timeline-text") == ""
    assert grid_text(page) == EASY


def test_a_playing_replay_gives_the_board_up_to_a_hint(page):
    paste(page, HARD)
    page.click("#watch summary")
    page.click("#watch-run")
    page.wait_for_selector("#watch[data-steps]")
    page.select_option("#watch-speed", "16")
    page.click("#watch-play")
    page.wait_for_function("Number(document.querySelector('#watch-step').value) > 2")
    page.click("#hint")
    page.wait_for_selector("#learn[data-status='step']")
    step = page.input_value("#watch-step")
    time.sleep(0.8)  # a dozen ticks at 16/s
    assert page.text_content("#watch-play") == "play"
    assert page.input_value("#watch-step") == step
    # the hint's position is on the board, not the replay's (whose waves fill cells)
    assert grid_text(page) == HARD


def test_a_new_puzzle_lists_its_own_rules_side_by_side(page):
    paste(page, json.dumps(VARIANTS["killer"]))
    page.click("#teach summary")
    page.click("#teach-rules")
    page.wait_for_function("[...document.querySelectorAll('#teach-rule option')]"
                           ".some(o => o.textContent.includes('cage'))")
    cage = page.eval_on_selector_all("#teach-rule option", "o => o.map(x => [x.value, "
                                     "x.textContent]).find(x => x[1].includes('cage'))[0]")
    page.select_option("#teach-rule", cage)
    paste(page, EASY)  # classic: 27 rules, so the cage's number is out of range here
    page.click("#teach-show")
    page.wait_for_function("document.querySelector('#teach-pieces').dataset.rule || "
                           "document.querySelector('#teach-pieces').textContent.includes("
                           "'out of range')", timeout=60_000)
    assert page.locator("#teach-pieces .piece").count() > 0
    assert int(page.get_attribute("#teach-pieces", "data-rule")) <= 27


def test_a_new_puzzle_takes_away_the_old_ones_statistics_legend(page):
    paste(page, EASY)
    page.click("#compare")
    page.wait_for_selector("#agreement[data-agree]", timeout=120_000)
    assert page.text_content("#stats-legend") != ""
    paste(page, HARD)
    assert page.locator("#compare-table tbody tr").count() == 0
    assert page.text_content("#stats-legend") == ""


CONTROLS = ("button, select, .button, summary, a, label, "
            "input:not([type=radio]):not([type=checkbox])")
SMALL = """(tap) => [...document.querySelectorAll(CONTROLS)].filter((e) => {
      const r = e.getBoundingClientRect(), hidden = e.closest('[hidden], dialog:not([open])');
      return !hidden && r.width > 0 && r.height > 0 && (r.width < tap || r.height < tap); })
    .map((e) => { const r = e.getBoundingClientRect(), name = e.id || e.textContent.trim();
      return `${name.slice(0, 20)} ${Math.round(r.width)}x${Math.round(r.height)}`; })"""


def test_every_control_on_a_phone_is_big_enough_to_tap(phone):
    paste(phone, EASY)
    open_all(phone)
    phone.tap("#compare")  # its rows' model buttons too
    phone.wait_for_selector("#agreement[data-agree]", timeout=120_000)
    phone.tap("#hint")  # and the learn view's apply and close
    phone.wait_for_selector("#learn[data-status='step']")
    assert phone.evaluate(SMALL.replace("CONTROLS", repr(CONTROLS)), TAP) == []
    assert phone.locator("#pad-digits button").count() == 9
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_puzzle_opened_from_the_gallery_on_a_phone_is_in_sight(phone):
    phone.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
    phone.click("details:has(#gallery) summary")
    thumbnail = phone.locator("#gallery figure").nth(4)
    thumbnail.scroll_into_view_if_needed()
    thumbnail.tap()
    phone.wait_for_function("document.querySelector('#puzzle-name').textContent.endsWith('#5')")
    board = phone.evaluate("(() => { const r = document.querySelector('#board')"
                           ".getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; })()")
    assert board[0] >= 0 and board[1] <= board[2], board


LINES = """() => { const ctx = document.createElement('canvas').getContext('2d'), split = [];
  for (const td of document.querySelectorAll('#compare-table td.stats')) {
    const style = getComputedStyle(td);
    const room = td.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    ctx.font = style.font;
    for (const span of td.querySelectorAll('span')) {
      const range = document.createRange();
      range.selectNodeContents(span);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      const fits = ctx.measureText(span.textContent).width <= room;
      if (lines > 1 && fits) split.push(span.textContent);
    }
  }
  return split; }"""


def test_a_statistic_that_fits_its_column_is_not_broken_across_lines(phone):
    paste(phone, EASY)
    open_all(phone)
    phone.tap("#compare")
    phone.wait_for_selector("#agreement[data-agree]", timeout=120_000)
    assert phone.locator("#compare-table td.stats span").count() > 0
    assert phone.evaluate(LINES) == []
