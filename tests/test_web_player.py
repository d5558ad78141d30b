"""The player of issue 54, "a player a SudokuPad user is at home in", in a real browser: at
1400x900 and 1366x768 everything to play is on screen, on a 390x844 phone the board and pad
are; the board stays in view beside (or above) the views that draw on it; progress survives
a reload; Ctrl+digit centre marks, double click selects equal digits, several colours per
cell, marks clear of cage totals, jigsaw tints under the digits; a hint on a wrong entry
outlines it; ARIA labels, a focus ring and Tab through every control; the first screen a
puzzle to play, its rules said; the timer starting again on a new grid.

The screenshots of docs/ (the first screen on a desktop and on a phone) are written only
on request (SUDOKULAB_WRITE_DOCS=1), as tests/test_web_browser.py does."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from conftest import PHONE, open_page, post
from test_web_browser import (
    EASY,
    ROOT,
    SOLUTION,
    VARIANTS,
    WRITE_DOCS,
    grid_text,
    marks_text,
    paste,
)

DESKTOPS = [(1400, 900), (1366, 768)]


def cell(index: int) -> str:
    return f"#grid .cell[data-index='{index}']"


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def in_view(page, selector: str) -> bool:
    """Whether an element's box lies wholly inside the window."""
    b, size = box(page, selector), page.viewport_size
    return (
        b is not None
        and b["x"] >= 0
        and b["y"] >= 0
        and b["x"] + b["width"] <= size["width"] + 0.5
        and b["y"] + b["height"] <= size["height"] + 0.5
    )


def first_screen_solution(page, server: str) -> str:
    """The solution of the dataset puzzle the first screen opened (its name: 'set #k')."""
    name = page.text_content("#puzzle-name")
    dataset, k = name.split(" #")
    with urllib.request.urlopen(
        f"{server}/api/datasets/{dataset}?offset={int(k) - 1}&number=1"
    ) as r:
        return json.load(r)["puzzles"][0]["solution"]


def selected(page) -> set[int]:
    return set(
        page.eval_on_selector_all(
            "#grid .cell.selected", "c => c.map(x => Number(x.dataset.index))"
        )
    )


@pytest.fixture(params=DESKTOPS, ids=lambda s: f"{s[0]}x{s[1]}")
def desktop(request, contexts, server):
    """A desktop page at each size the issue names."""
    width, height = request.param
    yield from open_page(contexts({"viewport": {"width": width, "height": height}}), server)


def test_a_desktop_has_the_pad_timer_check_and_the_finish_in_view(desktop, server):
    page = desktop
    for selector in (
        "#board",
        "#pad",
        "#pad-digits",
        "#timer",
        "#check",
        "#start-over",
        "#message",
    ):
        assert in_view(page, selector), selector
    solution = first_screen_solution(page, server)
    shown = grid_text(page)
    blanks = [i for i, symbol in enumerate(shown) if symbol == "."]
    for i in blanks:  # typed as a player types, on the cells of the board
        page.click(cell(i))
        page.keyboard.press(solution[i])
    page.wait_for_selector("#finish[open]")
    assert in_view(page, "#finish") and in_view(page, "#finish-close")
    assert page.text_content("#finish-text").startswith("You solved ")
    assert page.text_content("#message").startswith("solved in ")
    page.click("#finish-close")
    assert page.is_hidden("#finish")


def test_a_phone_has_the_board_and_pad_in_view(phone):
    for selector in ("#board", "#pad", "#pad-digits", "#timer"):
        assert in_view(phone, selector), selector
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_the_board_stays_in_view_when_a_view_far_below_draws_on_it(phone, page):
    # a phone: explain, far down the page, draws on a board that is still on screen
    phone.locator("#explain").scroll_into_view_if_needed()
    phone.tap("#explain")
    phone.wait_for_selector("#learn[data-status]")
    assert in_view(phone, "#board")
    assert in_view(phone, "#explain")
    # a desktop: the replay's slider moves; the board beside it stays on screen
    paste(page, "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    page.click("#watch summary")
    page.click("#watch-run")
    page.wait_for_selector("#watch[data-steps]")
    page.locator("#watch-step").scroll_into_view_if_needed()
    page.locator("#watch-step").focus()
    page.keyboard.press("End")
    assert in_view(page, "#board") and in_view(page, "#watch-step")


def test_the_first_screen_is_a_puzzle_to_play_with_its_rules(page):
    assert page.text_content("#puzzle-name").startswith("easy50 #")
    assert page.is_checked("#mode-play")
    assert "once in every row, column and 3×3 box" in page.text_content("#rules-text")
    shown = grid_text(page)
    assert shown.count(".") < 81 - 17
    blank = shown.index(".")
    page.click(cell(blank))
    page.keyboard.press("5")
    assert grid_text(page)[blank] == "5"
    assert "given" not in page.get_attribute(cell(blank), "class")  # an entry, not a given
    paste(page, json.dumps(VARIANTS["killer"]))
    assert "dashed cage add up to its total" in page.text_content("#rules-text")


def test_a_reload_restores_a_half_solved_puzzle_and_start_over_clears_it(page):
    paste(page, EASY)
    blanks = [i for i, s in enumerate(EASY) if s == "."]
    for i in blanks[:10]:
        page.click(cell(i))
        page.keyboard.press(SOLUTION[i])
    page.click(cell(blanks[10]))
    page.keyboard.press("Shift+Digit4")
    page.keyboard.press("Control+Digit7")
    page.keyboard.press("v")
    page.keyboard.press("3")
    shown, marks = grid_text(page), marks_text(page)
    time.sleep(1.2)  # a second on the clock
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.text_content("#puzzle-name") == "a pasted puzzle"
    assert page.is_checked("#mode-play")
    assert grid_text(page) == shown and marks_text(page) == marks
    assert page.text_content(f"{cell(blanks[10])} .centre") == "7"
    assert page.eval_on_selector(f"{cell(blanks[10])} .paint", "p => p.style.background") != ""
    assert page.text_content("#timer") != "0:00"
    page.click("#start-over")
    assert grid_text(page) == EASY and "".join(marks_text(page)) == ""
    assert page.text_content("#timer") == "0:00"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert grid_text(page) == EASY


def test_ctrl_digit_writes_a_centre_mark_and_shift_digit_a_corner_mark(page):
    paste(page, EASY)
    page.click(cell(0))
    page.keyboard.press("Control+5")
    page.keyboard.press("Control+Digit8")
    assert page.text_content(f"{cell(0)} .centre") == "58"
    page.keyboard.press("Shift+Digit2")
    assert page.text_content(f"{cell(0)} .marks") == "2"
    assert grid_text(page)[0] == "."  # no digit entered, the mode still digits
    assert page.get_attribute("#tool-digit", "aria-pressed") == "true"


def test_a_double_click_selects_every_cell_of_that_digit(page):
    paste(page, EASY)
    page.dblclick(cell(2))  # a given 3
    assert selected(page) == {i for i, s in enumerate(EASY) if s == "3"}
    page.click(cell(0))
    assert selected(page) == {0}


def test_two_colours_on_one_cell_are_both_shown_and_the_selection_hides_neither(page):
    paste(page, EASY)
    page.click(cell(0))
    page.click("#tool-colour")
    page.click("#pad-digits button[data-digit='1']")
    page.click("#pad-digits button[data-digit='5']")
    paint = page.eval_on_selector(f"{cell(0)} .paint", "p => p.style.background")
    colours = page.eval_on_selector_all(
        "#pad-digits button", "b => b.map(x => getComputedStyle(x).backgroundColor)"
    )
    assert colours[0] in paint and colours[4] in paint, (paint, colours)
    # the selection is an outline: the selected cell's own background stays clear of any colour
    assert page.eval_on_selector(cell(0), "c => getComputedStyle(c).backgroundColor") in (
        "rgba(0, 0, 0, 0)",
        "transparent",
    )
    assert page.eval_on_selector(cell(0), "c => getComputedStyle(c, '::after').boxShadow") != "none"
    page.click("#pad-digits button[data-digit='1']")  # off again: one colour left
    assert colours[0] not in page.eval_on_selector(f"{cell(0)} .paint", "p => p.style.background")


def test_a_hint_on_a_wrong_entry_or_mark_outlines_that_cell(page):
    paste(page, EASY)
    page.click(cell(0))
    page.keyboard.press("1")  # no clash, but r1c1 is 4
    page.click("#hint")
    page.wait_for_selector("#learn[data-status='wrong']")
    assert "wrong" in page.get_attribute(cell(0), "class")
    page.keyboard.press("Delete")
    page.click(cell(1))
    page.keyboard.press("Shift+Digit1")  # r1c2 is 8: its marks leave it out
    page.click("#hint")
    page.wait_for_selector("#learn[data-status='wrong']")
    assert "wrong" in page.get_attribute(cell(1), "class")
    assert "wrong" not in page.get_attribute(cell(0), "class"), (
        grid_text(page),
        page.text_content("#learn-sentence"),
    )


def test_the_timer_starts_again_on_a_new_grid(page):
    page.wait_for_function("document.querySelector('#timer').textContent !== '0:00'")
    page.click("#new-grid")
    assert page.text_content("#timer") == "0:00"
    paste(page, EASY)
    assert page.text_content("#timer") == "0:00"


def test_cells_have_aria_labels(page):
    paste(page, EASY)
    assert page.get_attribute("#grid", "role") == "grid"
    assert page.locator("#grid [role=row]").count() == 9
    assert page.locator("#grid [role=row] [role=gridcell]").count() == 81
    assert page.get_attribute(cell(2), "aria-label") == "row 1, column 3, 3, given"
    page.click(cell(0))
    page.keyboard.press("Shift+Digit4")
    page.keyboard.press("Shift+Digit8")
    assert page.get_attribute(cell(0), "aria-label") == "row 1, column 1, empty, candidates 4 8"
    page.keyboard.press("4")
    assert page.get_attribute(cell(0), "aria-label") == "row 1, column 1, 4"
    page.keyboard.press("7")  # a 7 in its column
    assert page.get_attribute(cell(0), "aria-label") == "row 1, column 1, 7, conflict"
    assert page.get_attribute("#grid", "aria-activedescendant") == "cell-0"
    assert page.get_attribute(cell(0), "aria-selected") == "true"


CONTROLS = [
    "grid",
    "tool-digit",
    "tool-corner",
    "tool-centre",
    "tool-colour",
    "pad-erase",
    "pad-undo",
    "pad-hint",
    "mode-play",
    "undo",
    "redo",
    "check",
    "fill-candidates",
    "clear",
    "share",
    "start-over",
    "paste",
    "load-paste",
    "dataset",
    "dataset-index",
    "load-dataset",
    "photo",
    "new-grid",
    "size",
    "generate",
    "hint",
    "explain",
    "upto",
    "only",
    "backend",
    "solve",
    "show-model",
    "timeout",
    "compare",
]


def test_tab_reaches_each_control_with_a_visible_focus_ring(page):
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement.blur()")
    reached, digits, rings = [], 0, []
    for _ in range(120):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const e = document.activeElement;
          return [e.id, e.dataset.digit || '', getComputedStyle(e).outlineStyle,
                  getComputedStyle(e).outlineWidth]; }""")
        reached.append(focused[0])
        digits += bool(focused[1])
        rings.append(focused[2:])
        if focused[0] == "compare":
            break
    assert [c for c in CONTROLS if c not in reached] == []
    assert digits == 9  # every pad digit
    assert all(style != "none" and width != "0px" for style, width in rings if style), rings


def test_a_gallery_thumbnail_opens_from_the_keyboard(page):
    page.click("details:has(#gallery) summary")
    page.wait_for_selector("#gallery figure")
    page.focus("#gallery figure:nth-child(2)")
    loads = int(page.get_attribute("body", "data-loads"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.loads) > {loads}")
    assert page.text_content("#puzzle-name").endswith(" #2")
    assert page.get_attribute("#gallery figure:nth-child(2)", "tabindex") == "0"


def test_killer_marks_sit_clear_of_the_cage_total_and_nine_centre_marks_fit(page):
    paste(page, json.dumps(VARIANTS["killer"]))
    total = page.locator(cell(0))
    assert "cage-total" in total.get_attribute("class")
    page.click(cell(0))
    page.keyboard.press("x")
    for d in "123456789":
        page.keyboard.press(d)
    page.click(cell(10))
    page.keyboard.press("c")
    for d in "123456789":
        page.keyboard.press(d)
    # the total's white box (the text's own box counts the font's descent, below the digits)
    label = (
        page.locator("#overlay text", has_text="13")
        .first.locator("xpath=preceding-sibling::*[1]")
        .bounding_box()
    )
    for d in range(1, 10):
        mark = page.locator(f"{cell(0)} .marks span[data-digit='{d}']").bounding_box()
        overlap = (
            min(mark["x"] + mark["width"], label["x"] + label["width"]) - max(mark["x"], label["x"])
            > 1
            and min(mark["y"] + mark["height"], label["y"] + label["height"])
            - max(mark["y"], label["y"])
            > 1
        )
        assert not overlap, (d, mark, label)
    fits = page.eval_on_selector(
        f"{cell(10)} .centre",
        """c => { const r = document.createRange();
      r.selectNodeContents(c);
      const t = r.getBoundingClientRect(), b = c.closest('.cell').getBoundingClientRect();
      return [t.left >= b.left, t.right <= b.right, parseFloat(getComputedStyle(c).fontSize)]; }""",
    )
    assert fits[0] and fits[1] and fits[2] >= 9, fits


def test_jigsaw_tints_lie_under_the_digits_and_conflicts_are_red(page):
    paste(page, json.dumps(VARIANTS["jigsaw"]))
    assert page.locator("#underlay rect").count() == 81
    assert page.locator("#overlay [data-under]").count() == 0
    assert (
        page.locator(
            "#overlay [data-rule='jigsaw'] path, #overlay [data-rule='jigsaw'] line"
        ).count()
        > 0
    )
    shown = grid_text(page)
    given = shown.index("8")
    blank = next(i for i in range(9, 18) if shown[i] == ".")  # row 2 has the given 8
    page.click(cell(blank))
    page.keyboard.press("8")
    colour = lambda i: page.eval_on_selector(f"{cell(i)} .value", "v => getComputedStyle(v).color")  # noqa: E731
    assert "conflict" in page.get_attribute(cell(blank), "class")
    assert colour(blank) == "rgb(198, 40, 40)"  # the entry in red
    background = page.eval_on_selector(cell(blank), "c => getComputedStyle(c).backgroundColor")
    assert background.startswith("rgba(220, 38, 38"), background
    page.keyboard.press("Delete")
    page.keyboard.press("5")
    def weight(i: int) -> str:
        return page.eval_on_selector(f"{cell(i)} .value", "v => getComputedStyle(v).fontWeight")

    assert colour(given) != colour(blank) and weight(given) != weight(blank)


def test_side_by_side_is_side_by_side_on_a_desktop(page):
    paste(page, EASY)
    page.click("#teach summary")
    page.click("#teach-show")
    page.wait_for_selector("#teach-pieces .piece", timeout=60_000)
    # in a dialog as wide as the window: three panels or more in a row, all on screen
    tops = page.eval_on_selector_all(
        "#teach-pieces .piece", "p => p.map(x => Math.round(x.getBoundingClientRect().top))"
    )
    assert len(tops) >= 3 and tops[0] == tops[1] == tops[2], tops
    assert all(in_view(page, f"#teach-pieces .piece:nth-child({k})") for k in (1, 2, 3))
    page.click("#teach-close")
    assert page.is_hidden("#teach-wide")


def test_screenshots_of_the_first_screen(page, contexts, server, tmp_path):
    folder = ROOT / "docs" if WRITE_DOCS else tmp_path
    page.screenshot(path=str(folder / "screenshot.png"))
    phone = open_page(contexts(PHONE), server)
    tab = next(phone)
    tab.screenshot(path=str(folder / "screenshot-phone.png"))
    next(phone, None)
    assert (folder / "screenshot.png").stat().st_size > 10_000
    assert (folder / "screenshot-phone.png").stat().st_size > 10_000


def test_the_api_names_wrong_cells_in_wrong(server):
    # what learn.js reads: the cells of a wrong entry, [row, col] from 1
    values = [int(s) if s != "." else 0 for s in EASY]
    values[0] = 1
    answer = post(server, "/api/hint", {"puzzle": EASY, "values": values})
    assert answer["status"] == "wrong" and answer["wrong"] == [[1, 1]]
