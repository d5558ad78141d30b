"""Facts about the geometry of each shape, as in Norvig's essay."""

import pytest

from sudokulab import rules as R
from sudokulab.geometry import geometry


@pytest.mark.parametrize("box, units, peers", [
    ((2, 2), 12, 7),
    ((2, 3), 18, 12),
    ((3, 3), 27, 20),
    ((3, 4), 36, 28),
    ((4, 4), 48, 39),
    ((5, 5), 75, 64),
])
def test_units_and_peers(box, units, peers):
    geo = geometry(box)
    n = box[0] * box[1]
    assert len(geo.cells) == n * n
    assert len(geo.units) == units
    assert all(len(unit) == n for unit in geo.units)
    assert {len(p) for p in geo.peers} == {peers}
    assert all(len(geo.units_of[c]) == 3 for c in geo.cells)


def test_nine_by_nine_cell_c2_as_in_the_essay():
    geo = geometry((3, 3))
    c2 = geo.cell(2, 1)  # Norvig's C2: row C, column 2
    names = {geo.name(p) for p in geo.peers[c2]}
    assert names == {"r1c2", "r2c2", "r4c2", "r5c2", "r6c2", "r7c2", "r8c2", "r9c2",
                     "r3c1", "r3c3", "r3c4", "r3c5", "r3c6", "r3c7", "r3c8", "r3c9",
                     "r1c1", "r1c3", "r2c1", "r2c3"}


def test_six_by_six_boxes_are_two_rows_by_three_columns():
    geo = geometry((2, 3))
    box1 = geo.units[12]
    assert (box1.kind, box1.name, box1.rule) == ("box", "box 1", None)
    assert box1 == (0, 1, 2, 6, 7, 8)


def test_every_cell_is_in_one_box_and_boxes_tile_the_grid():
    for box in ((2, 3), (3, 2), (3, 4), (4, 3), (5, 5)):
        geo = geometry(box)
        boxes = [unit for unit in geo.units if unit.kind == "box"]
        assert sorted(c for b in boxes for c in b) == list(geo.cells)


def test_rules_add_units_and_peers():
    diagonal = geometry((3, 3), (R.Diagonal(),))
    assert len(diagonal.units) == 29
    assert len(diagonal.peers[0]) == 20 + 6  # r1c1 also sees the rest of the main diagonal
    windoku = geometry((3, 3), (R.Windoku(),))
    assert len(windoku.units) == 31
    knight = geometry((3, 3), (R.AntiKnight(),))
    assert len(knight.peers[knight.cell(4, 4)]) == 20 + 8  # every knight move leaves the box
    assert len(knight.peers[knight.cell(0, 0)]) == 20 + 2 - 2  # both moves stay in box 1
    king = geometry((3, 3), (R.AntiKing(),))
    classic = geometry((3, 3))
    assert king.peers[king.cell(4, 4)] == classic.peers[classic.cell(4, 4)]  # all in the box
    assert set(king.peers[2]) - set(classic.peers[2]) == {king.cell(1, 3)}  # r1c3 sees r2c4
    assert len(geometry((3, 3), (R.NonConsecutive(),)).pairs(R.NonConsecutive)) == 2 * 9 * 8


def test_each_unit_says_what_it_is_and_which_rule_adds_it():
    rules = (R.Diagonal(), R.Windoku())
    geo = geometry((3, 3), rules)
    kinds = [unit.kind for unit in geo.units]
    assert kinds == ["row"] * 9 + ["column"] * 9 + ["box"] * 9 + ["diagonal"] * 2 + \
        ["window"] * 4
    assert [unit.part for unit in geo.units[27:]] == ["diagonal"] * 2 + ["windoku"] * 4
    assert geo.units[27].name == "main diagonal" and geo.units[29].name == "window r2c2"
    regions = R.parse_regions("".join("ABCD"[(r // 2) * 2 + c // 2] for r in range(4)
                                      for c in range(4)))
    jigsaw = geometry((2, 2), (regions,))
    assert [unit.kind for unit in jigsaw.units[8:]] == ["region"] * 4
    assert {unit.rule for unit in jigsaw.units[8:]} == {regions}


def test_each_pairwise_relation_carries_its_rule():
    geo = geometry((3, 3), R.MIRACLE)
    knight, king, consecutive = geo.relations
    assert [r.rule for r in geo.relations] == list(R.MIRACLE)
    assert knight.differ and king.differ and not consecutive.differ
    steps = {(abs(a // 9 - b // 9), abs(a % 9 - b % 9)) for a, b in knight.pairs}
    assert steps == {(1, 2), (2, 1)}
    steps = {(abs(a // 9 - b // 9), abs(a % 9 - b % 9)) for a, b in king.pairs}
    assert steps == {(0, 1), (1, 0), (1, 1)}
    assert len(knight.pairs) == 2 * (8 * 7 + 7 * 8) and len(king.pairs) == 2 * 72 + 2 * 64
    assert geo.moves == tuple(sorted(knight.pairs + king.pairs))
    assert geo.pairs(R.NonConsecutive) == consecutive.pairs and len(consecutive.pairs) == 144
    assert geometry((3, 3)).pairs(R.NonConsecutive) == ()


def test_near_cells_are_peers_and_the_cells_of_each_pair_and_digit_relation():
    classic = geometry((3, 3))
    assert [set(near) for near in classic.near] == [set(p) for p in classic.peers]
    miracle = geometry((3, 3), R.MIRACLE)
    r5c5 = 40
    # its 28 peers: the 20 of its units and its 8 knight's moves (the chess-move rules
    # make cells differ, so their pairs are peers; its king's moves and its orthogonal,
    # non-consecutive neighbours are in its box)
    assert len(miracle.peers[r5c5]) == len(miracle.near[r5c5]) == 20 + 8
    assert {r5c5 - 19, r5c5 - 17, r5c5 + 17, r5c5 + 19} <= miracle.near[r5c5]
    thermo = geometry((3, 3), (R.Thermometer(((3, 3), (4, 5), (6, 6))),))
    r5c6, r7c7 = 41, 60  # no unit holds both; the thermometer ties them
    assert r7c7 in thermo.near[r5c6] and r5c6 in thermo.near[r7c7]
    assert r7c7 not in classic.near[r5c6]


def test_geometry_is_shared():
    assert geometry((3, 3)) is geometry((3, 3))
