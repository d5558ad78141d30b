"""static/rules.js in Debian's Chromium: every variant rule of sudokulab/rules.py is drawn
(the pixels in its cells change) and checked while playing (brokenCells agrees with the
independent checker, sudokulab/check.py, on the solution and on grids one digit off it).

One browser and one tab load a small test page from `sudokulab serve`: it draws a board
(grid, givens) in an <svg> with drawRules' markup and exposes the module as window.rules.
Screenshots of each rule (desktop 1400x900 and phone 390x844, cropped to the board) go to
docs/rules/ only on request (SUDOKULAB_WRITE_DOCS=1), else to a temporary folder.
"""

from __future__ import annotations

import io
import json

import pytest
from conftest import DESKTOP
from test_web_browser import ROOT, VARIANTS, WRITE_DOCS

from sudokulab import rules as R
from sudokulab.backends import make_backend
from sudokulab.check import violations
from sudokulab.formats.text import from_json
from sudokulab.puzzle import Puzzle
from sudokulab.web.common import puzzle_json

SIDE = 540  # the board's width in pixels for the pixel comparisons
SCREENS = {"desktop": (1400, 900), "phone": (390, 844)}
HOUSES = ("row ", "column ", "box ")  # the checker's classic houses, which rules.js leaves out
BADGE_RULES = ("anti-knight", "anti-king", "non-consecutive")
CELL_LIMIT = 12  # cells of each rule changed in the cross-check (every digit at each)

# The test page: the board as the real page lays it out (grid under the rules, digits on
# top), in an <svg viewBox="-1 -1 n+2 n+2"> as the contract of rules.js says.
PAGE = """<!doctype html><meta charset="utf-8">
<style>html, body { margin: 0; background: #fff } svg { display: block; margin: 8px }</style>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<script type="module">
import * as rules from "/static/rules.js";
function line(x1, y1, x2, y2, width) {
  return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#222" `
    + `stroke-width="${width}"/>`;
}
function grid(n, [br, bc], jigsaw) {
  let out = "";
  for (let k = 0; k <= n; k++) {
    const w = (k === 0 || k === n) ? 0.05 : 0.012;
    out += line(k, 0, k, n, w) + line(0, k, n, k, w);
  }
  if (!jigsaw) {
    for (let k = br; k < n; k += br) out += line(0, k, n, k, 0.04);
    for (let k = bc; k < n; k += bc) out += line(k, 0, k, n, 0.04);
  }
  return out;
}
window.show = (puzzle, side) => {
  const n = puzzle.size, svg = document.getElementById("board");
  svg.setAttribute("viewBox", `-1 -1 ${n + 2} ${n + 2}`);
  svg.setAttribute("width", side);
  svg.setAttribute("height", side);
  const digits = puzzle.givens.map((d, i) => d ? `<text x="${i % n + 0.5}" `
    + `y="${Math.floor(i / n) + 0.52}" font-size="0.62" text-anchor="middle" `
    + `dominant-baseline="central" font-family="sans-serif">${d}</text>` : "");
  svg.innerHTML = `<rect x="-1" y="-1" width="${n + 2}" height="${n + 2}" fill="#fff"/>`
    + grid(n, puzzle.box, puzzle.rules.some((r) => r.type === "jigsaw"))
    + rules.drawRules(puzzle) + digits.join("");
};
window.rules = rules;
document.body.dataset.ready = "1";
</script>
"""


@pytest.fixture(scope="module")
def tab(browser, server):
    """One Chromium tab on the test page, rules.js loaded; fails on any console error."""
    errors: list[str] = []
    page = browser.new_page(**DESKTOP)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(f"{server}/rules-test", lambda route: route.fulfill(
        body=PAGE, content_type="text/html"))
    page.goto(f"{server}/rules-test")
    page.wait_for_selector("body[data-ready='1']")
    yield page
    page.close()
    assert not errors, f"JavaScript errors: {errors}"


def puzzle_of(name: str) -> Puzzle:
    """The variant puzzle of tests/data/variants.json under that name."""
    return from_json(json.dumps(VARIANTS[name]))


def solution(puzzle: Puzzle) -> list[int]:
    """The puzzle's one solution, found by norvig."""
    return list(make_backend("norvig").solve(puzzle, limit=1).solutions[0])


def cells_of(names) -> list[tuple[int, int]]:
    """(row, column) from cell names."""
    return [R.parse_cell(name) for name in names]


def band(n: int) -> list[tuple[int, int]]:
    """The positions around the grid, where outside clues and labels go."""
    return [(r, c) for r in range(-1, n + 1) for c in range(-1, n + 1)
            if not (0 <= r < n and 0 <= c < n)]


def little_killer_clue(cells: list[tuple[int, int]], n: int) -> tuple[int, int]:
    """The outside position next to a little killer's diagonal, where its total goes."""
    (r0, c0), (r1, c1) = cells[0], cells[1]
    dr, dc = r1 - r0, c1 - c0
    before = (r0 - dr, c0 - dc)
    if not (0 <= before[0] < n and 0 <= before[1] < n):
        return before
    return cells[-1][0] + dr, cells[-1][1] + dc


def features(rule: dict, n: int, box: tuple[int, int]) -> list[list[tuple[int, int]]]:
    """The groups of positions where the rule must change the board's pixels: a cage, a
    cell of a line, the two cells of a dot, a region, an outside clue, a label's band."""
    kind = rule["type"]
    everywhere = [(r, c) for r in range(n) for c in range(n)]
    if kind in ("cage", "cage-without-sum"):
        return [cells_of(rule["cells"])]
    if kind == "little-killer":
        return [[little_killer_clue(cells_of(rule["cells"]), n)]]
    if "cells" in rule:
        return [[cell] for cell in cells_of(rule["cells"])]
    if kind in ("kropki", "xv", "consecutive-marks"):
        return [cells_of(pair) for field in ("white", "black", "x", "v", "pairs")
                for pair in rule.get(field, [])]
    if kind == "sandwich":
        return [[(rule["row"] - 1, -1)] if "row" in rule else [(-1, rule["column"] - 1)]]
    if kind == "jigsaw":
        return [cells_of(region) for region in rule["regions"]]
    if kind == "windoku":
        return [[(r + dr, c + dc) for dr in range(box[0]) for dc in range(box[1])]
                for r in range(1, n - box[0] + 1, box[0] + 1)
                for c in range(1, n - box[1] + 1, box[1] + 1)]
    if kind in ("diagonal", "main-diagonal"):
        main = [[(k, k)] for k in range(n)]
        return main + [[(k, n - 1 - k)] for k in range(n)] if kind == "diagonal" else main
    if kind == "anti-diagonal":
        return [[(k, n - 1 - k)] for k in range(n)]
    if kind == "disjoint-groups":
        return [[cell] for cell in everywhere]
    if kind in BADGE_RULES:
        return [band(n)]
    # any other rule without parameters is drawn as its units (each cell marked), read off
    # rules.py: a rule made of units needs no case here
    units = R.SIMPLE_RULES[kind].units(box) if kind in R.SIMPLE_RULES else ()
    assert units, f"no drawing expectation for rule {kind}"
    return [[cell] for _, _, cells in units for cell in cells]


def rule_cells(rule: dict, n: int, box: tuple[int, int]) -> list[tuple[int, int]]:
    """The grid cells a rule constrains, in order (every cell for the global rules)."""
    if rule["type"] == "sandwich":
        k = rule.get("row", rule.get("column")) - 1
        return [(k, c) for c in range(n)] if "row" in rule else [(r, k) for r in range(n)]
    if rule["type"] == "little-killer":
        return cells_of(rule["cells"])
    cells = [cell for group in features(rule, n, box) for cell in group
             if 0 <= cell[0] < n and 0 <= cell[1] < n]
    return list(dict.fromkeys(cells)) or [(r, c) for r in range(n) for c in range(n)]


def board_pixels(tab, puzzle: dict, side: int = SIDE):
    """The board drawn for a puzzle (its JSON for the page), as an RGB array."""
    import numpy
    from PIL import Image

    tab.evaluate("([p, side]) => window.show(p, side)", [puzzle, side])
    png = tab.locator("#board").screenshot()
    return numpy.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def changed(before, after, position: tuple[int, int], n: int) -> int:
    """How many pixels of a cell (or an outside position) differ between two boards."""
    unit = before.shape[1] / (n + 2)
    r, c = position
    top, left = round((r + 1) * unit), round((c + 1) * unit)
    bottom, right = round((r + 2) * unit), round((c + 2) * unit)
    diff = abs(before[top:bottom, left:right] - after[top:bottom, left:right]).sum(axis=2)
    return int((diff > 24).sum())


def broken(tab, puzzle: dict, grids: list[list[int]]) -> list[set[int]]:
    """brokenCells for each grid, in one evaluation."""
    found = tab.evaluate("([p, grids]) => grids.map((g) => [...window.rules.brokenCells(p, g)])",
                         [puzzle, grids])
    return [set(cells) for cells in found]


def breaks_rule(rule: R.Rule, box: tuple[int, int], grid: list[int]) -> bool:
    """Whether the independent checker says the grid breaks this one rule."""
    probe = Puzzle(box, (0,) * len(grid), (rule,))
    return any(not v.where.startswith(HOUSES) for v in violations(probe, grid))


# --- the tests ------------------------------------------------------------------------------

def test_rules_js_draws_and_checks_every_rule_of_rules_py(tab):
    drawn = tab.evaluate("[...window.rules.RULE_NAMES]")
    assert sorted(drawn) == sorted(R.BY_NAME)
    said = tab.evaluate("Object.keys(window.rules.SAYS)")  # the player's line's words
    assert sorted(said) == sorted(R.BY_NAME)
    in_puzzles = {rule["type"] for data in VARIANTS.values() for rule in data["rules"]}
    assert set(R.BY_NAME) <= in_puzzles, "a rule without a puzzle in tests/data/variants.json"


def test_the_page_gives_no_player_link_that_would_drop_a_rule(tab):
    # a rule links.js has no f-puzzles form for: no link rather than a link to another puzzle
    made_up = {"size": 4, "box": [2, 2], "givens": [0] * 16, "rules": [{"type": "made-up"}]}
    links = tab.evaluate("(p) => import('/static/links.js').then((m) => m.playerLinks(p))",
                         made_up)
    assert links == {"fpuzzles": None, "sudokupad": None,
                     "why": "f-puzzles has no form for the rule made-up"}
    made_up["rules"] = [{"type": "kropki", "white": [["r1c1", "r1c2"]], "negative": True},
                        {"type": "kropki", "white": [["r3c3", "r3c4"]]}]  # as fpuzzles.py
    links = tab.evaluate("(p) => import('/static/links.js').then((m) => m.playerLinks(p))",
                         made_up)
    assert links["fpuzzles"] is None and "one negative constraint" in links["why"]
    made_up["rules"] = [{"type": "disjoint-groups"}]
    links = tab.evaluate("(p) => import('/static/links.js').then((m) => m.playerLinks(p))",
                         made_up)
    assert links["why"] == "" and links["fpuzzles"].startswith("https://f-puzzles.com/?load=")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_rule_is_drawn_in_its_cells(tab, name):
    puzzle = puzzle_of(name)
    data, bare = puzzle_json(puzzle), puzzle_json(puzzle.with_rules(()))
    n = puzzle.n
    without, with_rules = board_pixels(tab, bare), board_pixels(tab, data)
    for kind in {rule["type"] for rule in data["rules"]}:
        groups = tab.eval_on_selector_all(f"#board g[data-rule='{kind}']",
                                          "gs => gs.map(g => g.childElementCount)")
        assert len(groups) == sum(rule["type"] == kind for rule in data["rules"])
        assert all(groups), f"{kind}: an empty drawing"
    for rule in data["rules"]:
        for group in features(rule, n, puzzle.box):
            assert any(changed(without, with_rules, cell, n) for cell in group), \
                f"{name}: {rule['type']} not drawn at {group}"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_no_cell_is_broken_on_the_way_to_the_solution(tab, name):
    puzzle = puzzle_of(name)
    full = solution(puzzle)
    partial = [d if i % 3 else 0 for i, d in enumerate(full)]
    assert broken(tab, puzzle_json(puzzle), [full, list(puzzle.givens), partial]) == \
        [set(), set(), set()]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_digit_that_breaks_a_rule_is_marked_as_the_checker_says(tab, name):
    # Each rule alone on an empty grid, over its solution with one cell changed to each
    # other digit: brokenCells marks the changed cell exactly when the independent
    # checker says the rule is broken, and marks nothing when it is not.
    puzzle = puzzle_of(name)
    full, n = solution(puzzle), puzzle.n
    marked_some = False
    for rule, data in zip(puzzle.rules, puzzle_json(puzzle)["rules"]):
        alone = {**puzzle_json(puzzle.with_rules((rule,))), "givens": [0] * (n * n)}
        trials = []
        for r, c in rule_cells(data, n, puzzle.box)[:CELL_LIMIT]:
            for digit in range(1, n + 1):
                if digit != full[r * n + c]:
                    grid = list(full)
                    grid[r * n + c] = digit
                    trials.append((r * n + c, grid, breaks_rule(rule, puzzle.box, grid)))
        found = broken(tab, alone, [grid for _, grid, _ in trials])
        for (cell, grid, breaks), cells in zip(trials, found):
            where = f"{name}: {data['type']} with r{cell // n + 1}c{cell % n + 1}={grid[cell]}"
            assert (cell in cells) == breaks, f"{where}: marked {sorted(cells)}"
            assert breaks or not cells, f"{where}: marked {sorted(cells)} though unbroken"
        marked_some |= any(breaks for _, _, breaks in trials)
    assert marked_some, f"{name}: no single digit broke its rules"


def test_screenshots_of_each_rule(tab, tmp_path):
    from PIL import Image

    folder = ROOT / "docs" / "rules" if WRITE_DOCS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    for screen, (width, height) in SCREENS.items():
        tab.set_viewport_size({"width": width, "height": height})
        for name in VARIANTS:
            tab.evaluate("([p, side]) => window.show(p, side)",
                         [puzzle_json(puzzle_of(name)), min(width, height) - 16])
            shot = folder / f"{name}-{screen}.png"
            png = Image.open(io.BytesIO(tab.locator("#board").screenshot()))
            png.quantize(64).save(shot, optimize=True)  # a third of the size, same look
            assert shot.stat().st_size > 2_000
    tab.set_viewport_size(DESKTOP["viewport"])


@pytest.mark.parametrize("name", ["killer", "cage-without-sum"])
def test_a_cage_outline_is_closed_even_at_inside_corners(tab, name):
    # Every end of a dashed segment meets another one: no gap where a cage turns inwards.
    tab.evaluate("([p, side]) => window.show(p, side)", [puzzle_json(puzzle_of(name)), SIDE])
    cages = tab.eval_on_selector_all("#board g[data-rule^='cage']", """gs => gs.map(g =>
        [...g.querySelectorAll('line')].flatMap(l => ['1', '2'].map(k =>
            l.getAttribute('x' + k) + ',' + l.getAttribute('y' + k))))""")
    assert cages
    for ends in cages:
        assert all(ends.count(end) == 2 for end in ends), sorted(ends)
