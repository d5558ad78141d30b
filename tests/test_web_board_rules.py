"""Every variant rule on the REAL page (issue 29), in Debian's Chromium: loaded through the
paste box, each rule changes the board's pixels in its cells (against the same puzzle
loaded without its rules), and a digit typed in play mode that breaks it marks cells as
conflicts, as a clash in a row does. One browser and one page for the whole module.

tests/test_web_rules.py checks rules.js alone on a test page; this file checks the page
the player uses: board.js puts the drawing in the overlay and the conflicts on the cells.
"""

from __future__ import annotations

import base64
import io
import json
import re

import pytest
from conftest import DESKTOP
from test_web_browser import VARIANTS, grid_text, paste
from test_web_rules import features, puzzle_of, rule_cells, solution

from sudokulab import rules as R
from sudokulab.check import violations
from sudokulab.puzzle import Puzzle
from sudokulab.web.common import puzzle_json

INK = 24  # a pixel differs when its channels differ by more than this in all
CHANGED = 6  # pixels of a cell that must differ where a rule is drawn
# A board has a band around the grid only for clues outside it and rules' labels: a puzzle
# whose drawing uses the band is compared with its rules replaced by one drawn only as a
# label in the band below the grid (anti-king; anti-knight for anti-king itself), so that
# its cells sit at the same place; any other with the puzzle without rules.
STAND_IN = {"anti-king": "anti-knight"}
BAND = """(p) => import('/static/rules.js').then((rules) => rules.usesBand(p))"""
NAME = re.compile(r"r(\d+)c(\d+)")
# The cursor's peers and the selection are shaded, and a rule's units change the peers:
# the shading is turned off for the screenshots, so only the drawing is compared.
NO_SHADING = "#grid .cell.peer, #grid .cell.selected, #grid .cell.same " \
             "{ background: transparent !important }"


def sample(name: str) -> str:
    """The puzzle of tests/data/variants.json that shows a rule (the killer for cages)."""
    if name in VARIANTS:
        return name
    return next(key for key, data in VARIANTS.items()
                if any(rule["type"] == name for rule in data["rules"]))


@pytest.fixture(scope="module")
def page(browser, server):
    """One desktop page of the real app for the module; no JavaScript error may be left."""
    context = browser.new_context(**DESKTOP)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    tab.on("console", lambda message: errors.append(f"console: {message.text}")
           if message.type in ("error", "warning") else None)
    tab.goto(server + "/")
    tab.wait_for_selector("body[data-ready='1']")
    tab.add_style_tag(content=NO_SHADING)
    yield tab
    context.close()
    assert errors == [], errors


def board_shot(page, data: dict):
    """The board with a puzzle loaded: its pixels (RGB) and each cell's box in them."""
    import numpy
    from PIL import Image

    paste(page, json.dumps(data))
    png = page.locator("#board").screenshot()
    boxes = page.evaluate("""() => { const b = document.querySelector('#board')
        .getBoundingClientRect(); return [...document.querySelectorAll('#grid .cell')]
        .map(c => { const r = c.getBoundingClientRect();
                    return [r.left - b.left, r.top - b.top, r.width, r.height]; }); }""")
    return numpy.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int), boxes


def crop(pixels, boxes, position: tuple[int, int]):
    """The pixels of a cell, or of a position in the band around the grid."""
    r, c = position
    x0, y0, w, h = boxes[0]
    left, top = round(x0 + c * w), round(y0 + r * h)
    return pixels[max(0, top):max(0, round(top + h)), max(0, left):max(0, round(left + w))]


def changed(a, b) -> int:
    """How many pixels differ between two crops of the same place."""
    return int((abs(a - b).sum(axis=2) > INK).sum())


def test_a_page_is_checked_for_every_rule():
    assert all(sample(name) for name in R.BY_NAME)


@pytest.mark.parametrize("name", sorted(R.BY_NAME))
def test_each_rule_is_drawn_on_the_real_board(page, name):
    data = VARIANTS[sample(name)]
    n = len(data["givens"])
    banded = page.evaluate(BAND, {**data, "size": n})
    stand_in = [{"type": STAND_IN.get(name, "anti-king")}] if banded else []
    bare, bare_boxes = board_shot(page, {**data, "rules": stand_in})
    drawn, boxes = board_shot(page, data)
    assert boxes == bare_boxes  # the grid at the same place: its pixels compare one to one
    missing = []
    for rule in (r for r in puzzle_json(puzzle_of(sample(name)))["rules"] if r["type"] == name):
        for group in features(rule, n, tuple(data["box"])):
            if not any(changed(crop(bare, boxes, cell), crop(drawn, boxes, cell)) >= CHANGED
                       for cell in group):
                missing.append(group[:4])
    assert not missing, f"{name}: nothing drawn at {missing[:5]}"


def entries_that_break(puzzle: Puzzle, rule: R.Rule, data: dict, full: list[int]):
    """A cell of the rule, a digit for it that breaks the rule, and the other entries
    (the solution, with the cells of its row, column and box that hold that digit left
    blank, so no classic house clashes); None when no single digit can."""
    n, box = puzzle.n, puzzle.box
    alone = Puzzle(box, (0,) * (n * n), (rule,))
    houses = [name for name, _ in _classic(puzzle)]
    for r, c in rule_cells(data, n, box):
        cell = r * n + c
        if puzzle.givens[cell]:
            continue
        for digit in range(1, n + 1):
            if digit == full[cell]:
                continue
            clash = {i for _, cells in _classic(puzzle) if cell in cells
                     for i in cells if i != cell and full[i] == digit}
            if any(puzzle.givens[i] for i in clash):
                continue
            grid = [0 if i in clash else d for i, d in enumerate(full)]
            grid[cell] = digit
            if any(_counts(v, grid, cell, houses, n) for v in violations(alone, grid)):
                return cell, digit, grid
    return None


def _classic(puzzle: Puzzle) -> list[tuple[str, list[int]]]:
    """The rows, columns and boxes (the jigsaw's regions are its rule's own houses)."""
    n, (br, bc) = puzzle.n, puzzle.box
    out = [(f"row {r + 1}", [r * n + c for c in range(n)]) for r in range(n)]
    out += [(f"column {c + 1}", [r * n + c for r in range(n)]) for c in range(n)]
    if not any(isinstance(rule, R.Jigsaw) for rule in puzzle.rules):
        out += [(f"box {k + 1}", [(top + r) * n + left + c for r in range(br)
                                  for c in range(bc)])
                for k, (top, left) in enumerate((t, lf) for t in range(0, n, br)
                                                for lf in range(0, n, bc))]
    return out


def _counts(violation, grid: list[int], cell: int, houses: list[str], n: int) -> bool:
    """Whether a violation of the checker is the rule's, names the cell, and involves no
    blank (a blank is not yet a digit: the page judges only what is filled)."""
    text = f"{violation.where} {violation.what}"
    if violation.where in houses or "lacks" in text or "holds 0" in text:
        return False
    named = {(int(r) - 1) * n + int(c) - 1 for r, c in NAME.findall(text)}
    if violation.where.startswith("sandwich"):
        k = int(violation.where.split()[-1]) - 1
        line = [r * n + k for r in range(n)] if "column" in violation.where \
            else [k * n + c for c in range(n)]
        digits = [grid[i] for i in line]
        a, b = sorted((digits.index(1), digits.index(n)))
        named = set(line[a:b + 1])
    return cell in named and all(grid[i] for i in named)


def open_with_entries(page, server: str, data: dict, entries: list[int]) -> None:
    """Open the puzzle with the player's entries through a share link, as a player who
    was sent the link would (one page load: typing them took some 130 key presses, each
    redrawing the board, and most of this module's time)."""
    shared = {"puzzle": json.dumps(data), "name": "a shared puzzle",
              "progress": {"entries": entries}}
    code = base64.urlsafe_b64encode(json.dumps(shared).encode()).decode().rstrip("=")
    page.goto(f"{server}/#p={code}")
    page.reload()  # a new hash alone does not load the page again
    page.wait_for_selector("body[data-ready='1']")
    page.add_style_tag(content=NO_SHADING)  # the other tests of the page compare pixels


def conflicts(page) -> set[int]:
    """The cells the page marks as conflicts."""
    return set(page.eval_on_selector_all("#grid .cell.conflict",
                                         "cells => cells.map(c => Number(c.dataset.index))"))


@pytest.mark.parametrize("name", sorted(R.BY_NAME))
def test_a_digit_that_breaks_each_rule_is_marked_as_a_conflict(page, server, name):
    key = sample(name)
    puzzle, data = puzzle_of(key), VARIANTS[key]
    n, full = puzzle.n, solution(puzzle)
    found = next(filter(None, (entries_that_break(puzzle, rule, shape, full) for rule, shape
                               in zip(puzzle.rules, puzzle_json(puzzle)["rules"])
                               if rule.name == name)), None)
    assert found, f"{name}: no single digit breaks the rule without a clash in a house"
    cell, digit, grid = found
    before = list(grid)
    before[cell] = 0
    open_with_entries(page, server, data,
                      [0 if given else d for d, given in zip(before, puzzle.givens)])
    assert page.is_checked("#mode-play")
    page.click("#tool-digit")
    assert grid_text(page) == "".join(str(d) if d else "." for d in before)
    assert conflicts(page) == set(), f"{name}: conflicts on the unbroken grid"
    page.click(f"#grid .cell[data-index='{cell}']")
    page.keyboard.press(str(digit))
    where = f"r{cell // n + 1}c{cell % n + 1}={digit}"
    assert cell in conflicts(page), f"{name}: {where} breaks the rule but is not marked"
