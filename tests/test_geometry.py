"""Facts about the geometry of each shape, as in Norvig's essay."""

import pytest

from sudokulab import rules as R
from sudokulab.geometry import geometry, orthogonal_pairs


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
    assert geo.unit_names[12] == "box 1"
    assert box1 == (0, 1, 2, 6, 7, 8)


def test_every_cell_is_in_one_box_and_boxes_tile_the_grid():
    for box in ((2, 3), (3, 2), (3, 4), (4, 3), (5, 5)):
        geo = geometry(box)
        boxes = [u for u, name in zip(geo.units, geo.unit_names) if name.startswith("box")]
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
    assert len(orthogonal_pairs(9)) == 2 * 9 * 8


def test_geometry_is_shared():
    assert geometry((3, 3)) is geometry((3, 3))
