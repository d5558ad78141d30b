"""SudokuPad's own puzzle data (scl/ctc links): the rules it draws one way only are read.

SudokuPad opens an f-puzzles puzzle by drawing each constraint (its f-puzzles converter):
a thermometer is a line through cell centres with a round underlay on its first cell,
Kropki dots small round overlays on an edge, XV marks 'X'/'V' overlays on an edge, an
arrow an arrow from a circle overlay, a little killer a small diagonal arrow beside its
number outside the grid; killer cages, extra regions and disjoint groups are cages, and
flags and negative constraints are 'global' names. `drawn` below draws an f-puzzles JSON
that way, from those facts, so each rule can be read back; what SudokuPad draws in more
than one meaning is refused by name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from made_up_rules import read_back

from sudokulab import rules as R
from sudokulab.errors import PuzzleError
from sudokulab.formats import fpuzzles, links, sudokupad
from sudokulab.formats.text import from_json
from sudokulab.puzzle import Puzzle

VARIANTS = json.loads((Path(__file__).parent / "data" / "variants.json").read_text())
DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}


def rc(name: str) -> list[int]:
    """[row, col] from f-puzzles' 'R1C1', counted from 0."""
    row, col = name.upper().lstrip("R").split("C")
    return [int(row) - 1, int(col) - 1]


def centre(name: str) -> list[float]:
    """The centre of a cell, in SudokuPad's coordinates."""
    row, col = rc(name)
    return [row + 0.5, col + 0.5]


def between(cells: list[str]) -> list[float]:
    """The middle of two cells' centres (a dot or a mark on their edge)."""
    (r1, c1), (r2, c2) = centre(cells[0]), centre(cells[1])
    return [(r1 + r2) / 2, (c1 + c2) / 2]


def drawn(fp: dict) -> dict:
    """SudokuPad's puzzle data for an f-puzzles JSON, drawn as its converter draws."""
    n = fp["size"]
    height = int(n ** 0.5)
    while n % height:
        height -= 1
    width = n // height
    regions: dict = {}
    cells = []
    for r, row in enumerate(fp["grid"]):
        cells.append([{"value": cell["value"]} if cell.get("given") else {} for cell in row])
        for c, cell in enumerate(row):
            label = cell.get("region", (r // height) * height + c // width)
            regions.setdefault(label, []).append([r, c])
    data: dict = {"cells": cells, "regions": list(regions.values())}

    def add(key: str, item) -> None:
        data.setdefault(key, []).append(item)

    for flag in ("antiknight", "antiking", "nonconsecutive"):
        if fp.get(flag):
            add("global", flag)
    for name in fp.get("negative", []):
        add("global", "anti" + name)
    if fp.get("diagonal+"):
        add("lines", {"color": "#34BBE6", "thickness": 2, "wayPoints": [[0, n], [n, 0]]})
    if fp.get("diagonal-"):
        add("lines", {"color": "#34BBE6", "thickness": 2, "wayPoints": [[0, 0], [n, n]]})
    for cage in fp.get("killercage", []):
        part = {"unique": True, "cells": [rc(c) for c in cage["cells"]]}
        if cage.get("value"):
            part.update(value=cage["value"], sum=int(cage["value"]))
        add("cages", part)
    for region in fp.get("extraregion", []):
        size = len(region["cells"])
        add("cages", {"style": "extraregion", "unique": True, "sum": size * (size + 1) // 2,
                      "cells": [rc(c) for c in region["cells"]]})
    if fp.get("disjointgroups"):
        boxes = list(regions.values())
        for k in range(n):
            add("cages", {"cells": [box[k] for box in boxes], "unique": True,
                          "type": "disjoint", "style": None})
        add("global", "disjoint")
    for thermo in fp.get("thermometer", []):
        for line in thermo["lines"]:
            add("underlays", {"borderColor": "#CFCFCF", "backgroundColor": "#CFCFCF",
                              "center": centre(line[0]), "rounded": True, "width": 0.85,
                              "height": 0.85})
            add("lines", {"color": "#CFCFCF", "thickness": 21,
                          "wayPoints": [centre(c) for c in line]})
    for palindrome in fp.get("palindrome", []):
        for line in palindrome["lines"]:
            add("lines", {"color": "#CFCFCF", "thickness": 16,
                          "wayPoints": [centre(c) for c in line]})
    for key, colour in (("difference", "#FFFFFF"), ("ratio", "#000000")):
        for dot in fp.get(key, []):
            add("overlays", {"borderColor": "#000000", "backgroundColor": colour,
                             "center": between(dot["cells"]), "rounded": True,
                             "width": 0.3, "height": 0.3, "text": ""})
    for mark in fp.get("xv", []):
        add("overlays", {"backgroundColor": "#FFFFFF", "borderColor": "#FFFFFF",
                         "center": between(mark["cells"]), "fontSize": 21, "rounded": False,
                         "width": 0.25, "height": 0.25, "text": mark["value"]})
    for arrow in fp.get("arrow", []):
        for line in arrow["lines"]:
            points = [centre(c) for c in line]
            dr, dc = points[1][0] - points[0][0], points[1][1] - points[0][1]
            length = (dr * dr + dc * dc) ** 0.5
            points[0] = [points[0][0] + round(40 * dr / length) / 100,
                         points[0][1] + round(40 * dc / length) / 100]
            add("arrows", {"color": "#a1a1a1", "headLength": 0.3, "thickness": 5,
                           "wayPoints": points})
        add("overlays", {"borderColor": "#a1a1a1", "backgroundColor": "#ffffff",
                         "center": centre(arrow["cells"][0]), "rounded": True, "text": "",
                         "width": 0.83, "height": 0.83})
    for killer in fp.get("littlekillersum", []):
        (r, c), (dr, dc) = centre(killer["cell"]), DIRECTIONS[killer["direction"]]
        add("arrows", {"color": "#000000", "thickness": 2,
                       "wayPoints": [[r + 0.3 * dr, c + 0.3 * dc],
                                     [r + 0.48 * dr, c + 0.48 * dc]]})
        add("overlays", {"backgroundColor": "#FFFFFF", "borderColor": "#FFFFFF",
                         "center": [r, c], "fontSize": 28, "width": 0.25, "height": 0.25,
                         "rounded": False, "text": killer["value"]})
    for clue in fp.get("sandwichsum", []):
        add("overlays", {"backgroundColor": "#FFFFFF", "borderColor": "#FFFFFF",
                         "center": centre(clue["cell"]), "fontSize": 32, "rounded": False,
                         "width": 0.25, "height": 0.25, "text": clue["value"]})
    for key, rounded in (("even", False), ("odd", True)):
        for part in fp.get(key, []):
            add("underlays", {"backgroundColor": "#CFCFCF", "center": centre(part["cell"]),
                              "rounded": rounded, "width": 0.7, "height": 0.7})
    return data


# What SudokuPad's drawing does not carry in one meaning: sandwich sums (a number outside
# the grid, as many other clues), parity (grey shapes in cells). Renban and whispers its
# converter does not draw at all: only the rules text can still name them.
REFUSED = {"sandwich": "clues outside the grid", "parity": "underlays",
           "renban": "renban (named by the rules text", "whispers": "whisper (named by"}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_puzzle_drawn_by_sudokupad_is_read_back_or_refused(name):
    puzzle = from_json(json.dumps(VARIANTS[name]))
    fp = fpuzzles.to_fpuzzles(puzzle)
    if name in REFUSED:
        data = drawn(fp)
        data["metadata"] = {"rules": f"Normal sudoku rules apply. {name.title()} rules."}
        with pytest.raises(PuzzleError, match="cannot express") as error:
            sudokupad.from_scl(data)
        assert REFUSED[name] in str(error.value)
        return
    read = sudokupad.from_scl(drawn(fp))
    if set(read.rules) != set(puzzle.rules):  # a rule the site lacks: drawn as its units
        assert read_back(read, puzzle)
    assert (read.box, read.givens) == (puzzle.box, puzzle.givens)


def grid4(**keys) -> dict:
    """A 4x4 SudokuPad puzzle with 2x2 boxes and the given drawing keys."""
    regions = [[[r, c] for r in rows for c in cols] for rows in ((0, 1), (2, 3))
               for cols in ((0, 1), (2, 3))]
    return {"cells": [[{} for _ in range(4)] for _ in range(4)], "regions": regions, **keys}


def test_a_cage_without_a_sum_is_a_cage_whose_digits_differ():
    puzzle = sudokupad.from_scl(grid4(cages=[{"cells": [[0, 0], [1, 2]], "unique": True},
                                         {"cells": [[2, 0], [3, 3]]}]))
    assert puzzle.rules == (R.SumlessCage(((0, 0), (1, 2))), R.SumlessCage(((2, 0), (3, 3))))


@pytest.mark.parametrize("ends, rule", [([[0, 0], [4, 4]], R.MainDiagonal()),
                                        ([[0, 4], [4, 0]], R.AntiDiagonal()),
                                        ([[4, 4], [0, 0]], R.MainDiagonal())])
def test_one_diagonal_alone_is_read(ends, rule):
    assert sudokupad.from_scl(grid4(lines=[{"wayPoints": ends}])).rules == (rule,)


def test_the_compact_form_of_a_thermometer_link_is_read():
    import lzstring

    # short keys: u underlays, l lines, ct center, r rounded, w width, h height, wp wayPoints
    compact = ("{cells:[[,,,],[,,,],[,,,],[,,,]],u:[{ct:[1.5,2.5],r:t,w:0.85,h:0.85}],"
               "l:[{c:'#CFCFCF',th:21,wp:[[3.5,0.5],[1.5,0.5],[1.5,2.5]]}]}")
    link = "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(compact)
    puzzle = links.read_link(link)
    # the bulb is at the line's last way point; the straight run r4c1-r2c1 is filled in
    assert R.Thermometer(((1, 2), (1, 1), (1, 0), (2, 0), (3, 0))) in puzzle.rules


def test_negative_constraints_come_from_the_global_names():
    dot = {"rounded": True, "width": 0.3, "height": 0.3, "text": "",
           "backgroundColor": "#FFFFFF", "center": [0.5, 1]}
    black = {**dot, "backgroundColor": "#000000", "center": [1, 0.5]}
    assert sudokupad.from_scl(grid4(overlays=[dot])).rules == (
        R.Kropki(white=(((0, 0), (0, 1)),)),)
    assert sudokupad.from_scl(grid4(overlays=[dot], **{"global": ["antidifference"]})).rules == (
        R.ConsecutiveMarks((((0, 0), (0, 1)),)),)
    both = sudokupad.from_scl(grid4(overlays=[dot, black],
                                **{"global": ["antiratio", "antidifference"]}))
    assert both.rules == (R.Kropki((((0, 0), (0, 1)),), (((0, 0), (1, 0)),), negative=True),)
    mark = {"text": "V", "rounded": False, "center": [2, 3.5]}
    assert sudokupad.from_scl(grid4(overlays=[mark], **{"global": ["antixv"]})).rules == (
        R.XV(v=(((1, 3), (2, 3)),), negative=True),)


LINE = {"color": "#F067F0", "thickness": 10, "wayPoints": [[0.5, 0.5], [0.5, 2.5]]}
DOT = {"rounded": True, "width": 0.3, "height": 0.3, "text": "",
       "backgroundColor": "#FFFFFF", "center": [0.5, 1]}


@pytest.mark.parametrize("keys, refused", [
    ({"lines": [LINE]}, "lines (1)"),  # a coloured line: renban? whispers? only words say
    ({"overlays": [{"text": "7", "center": [-0.5, 1.5]}]},
     "clues outside the grid without an arrow (1)"),  # a sandwich? an X-sum? ...
    ({"metadata": {"bgimage": "https://example.org/lines.png"}}, "a background image"),
    ({"cages": [{"cells": [[0, 0], [0, 1]], "unique": False}]},
     "cage whose digits may repeat"),
    ({"cages": [{"cells": [[0, 0], [0, 1]], "style": "fpRowIndexer"}]},
     "cage of style 'fpRowIndexer'"),
    ({"cages": [{"cells": [[0, 0], [0, 1]], "value": "?"}]}, "cage of value '?'"),
    ({"overlays": [{**DOT, "backgroundColor": "#808080"}]}, "dot of colour '#808080'"),
    ({"overlays": [DOT], "metadata": {"rules": "All possible white dots are given."}},
     "no mark means neither"),
    ({"global": ["foglight"]}, "global 'foglight'"),
    ({"underlays": [{"rounded": True, "width": 0.7, "height": 0.7, "center": [0.5, 0.5]}]},
     "underlays (1)"),  # an odd circle of f-puzzles, not a bulb
    ({"overlays": [{"rounded": True, "width": 0.8, "height": 0.8, "center": [0.5, 0.5]}]},
     "circles without an arrow (1)"),
    ({"lines": [{**LINE, "wayPoints": [[0.5, 0.5], [1.5, 2.5]]}],
      "underlays": [{"rounded": True, "width": 0.85, "height": 0.85, "center": [0.5, 0.5]}]},
     "lines (1)"),  # a thermometer's bulb, but a line that jumps a cell
    ({"lines": [{**LINE, "wayPoints": [[0.5, 0.5], [0.5, 1.5]]}],
      "underlays": [{"rounded": True, "width": 0.85, "height": 0.85, "center": [0.5, 0.5]}],
      "metadata": {"rules": "Digits increase slowly along slow thermometers"}},
     "slow thermometers"),
])
def test_drawings_of_more_than_one_meaning_are_refused_by_name(keys, refused):
    with pytest.raises(PuzzleError, match="cannot express") as error:
        sudokupad.from_scl(grid4(**keys))
    assert refused in str(error.value)


def test_the_disjoint_global_with_other_groups_is_refused():
    cages = [{"cells": [[0, 0], [1, 1], [2, 2], [3, 3]], "unique": True, "type": "disjoint"}]
    with pytest.raises(PuzzleError, match="disjoint groups that are not the boxes' groups"):
        sudokupad.from_scl(grid4(cages=cages, **{"global": ["disjoint"]}))
    # without the global name, each such cage is what it says: its digits differ
    assert sudokupad.from_scl(grid4(cages=cages)).rules == (
        R.SumlessCage(((0, 0), (1, 1), (2, 2), (3, 3))),)


def test_an_arrow_and_a_little_killer_are_read_with_their_cells():
    data = grid4(
        overlays=[{"rounded": True, "width": 0.83, "height": 0.83, "text": "",
                   "center": [0.5, 0.5]},
                  {"text": "5", "rounded": False, "center": [-0.5, 0.5]}],
        arrows=[{"wayPoints": [[0.5, 0.9], [0.5, 2.5], [1.5, 3.5]]},
                {"wayPoints": [[-0.2, 0.8], [-0.02, 0.98]]}])
    assert sudokupad.from_scl(data) == Puzzle((2, 2), (0,) * 16, (
        R.Arrow(((0, 0), (0, 1), (0, 2), (1, 3))), R.LittleKiller(((0, 1), (1, 2), (2, 3)), 5)))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_puzzle_survives_a_sudokupad_link(name):
    """sudokupad_link writes f-puzzles' payload after sudokupad.app/fpuzzles: every rule."""
    puzzle = from_json(json.dumps(VARIANTS[name]))
    link = links.sudokupad_link(puzzle)
    assert link.startswith("https://sudokupad.app/fpuzzles")
    assert read_back(links.read_link(link), puzzle)  # a rule the site lacks: as its units
