"""One example per technique: it fires with exactly the stated eliminations or placements,
and (where marked first) no easier technique fires on the same candidates.

Each example is a bundled puzzle and the number of easiest-first steps that lead to the
state shown; the expected step is written in HoDoKu's notation. Every example's step is also
checked against the puzzle's reference solution (tdoku's), so an example cannot pass by
agreeing with a wrong solver. Examples marked `first` are states where this technique is
the easiest that applies; the others (rare in the bundled sets) are states where it applies
beside an easier one.
"""

from __future__ import annotations

import pytest

from sudokulab.backends import make_backend
from sudokulab.formats.text import parse
from sudokulab.human import solver
from sudokulab.human.candidates import Candidates

EXAMPLES = [
    ('Full House',
     '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
     14, 'Full House: r1c3=7', True),
    ('Naked Single',
     '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
     7, 'Naked Single: r1c6=9', True),
    ('Hidden Single',
     '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
     0, 'Hidden Single: r6c2=4', True),
    ('Locked Pair',  # it clears its box and its row (HoDoKu's test for a locked subset)
     '52...6.........7.13...........4..8..6......5...........418.........3..2...87.....',
     22, 'Locked Pair: 2,4 in r2c56 => r2c1,r2c3,r3c5,r3c6<>4', True),
    ('Locked Triple',
     '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
     3, 'Locked Triple: 2,8,9 in r7c123'
        ' => r7c79<>2, r7c9,r8c2,r9c2<>8, r7c5,r7c7,r7c9,r8c2,r9c2<>9', True),
    ('Locked Candidates Type 1 (Pointing)',
     '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
     5, 'Locked Candidates Type 1 (Pointing): 2 in b5 => r123c6<>2', True),
    ('Locked Candidates Type 2 (Claiming)',
     '....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...',
     24, 'Locked Candidates Type 2 (Claiming): 5 in c7 => r456c9<>5', True),
    ('Naked Pair',
     '48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....',
     35, 'Naked Pair: 5,7 in r6c47 => r6c69<>5, r6c69<>7', True),
    ('Naked Triple',
     '.524.........7.1..............8.2...3.....6...9.5.....1.6.3...........897........',
     17, 'Naked Triple: 3,4,8 in r9c267 => r9c89<>3, r9c89<>4', True),
    ('Hidden Pair',
     '48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....',
     10, 'Hidden Pair: 4,8 in r3c89 => r3c89<>3, r3c89<>5, r3c9<>6, r3c89<>9', True),
    ('Hidden Triple',
     '..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56',
     7, 'Hidden Triple: 1,4,7 in r289c3 => r289c3<>2, r89c3<>3, r28c3<>6', True),
    ('Naked Quadruple',
     '.4.5.....8...9..3..76.2.....146..........9..7.....36....1..4.5..6......3..71..2..',
     19, 'Naked Quadruple: 4,5,8,9 in r1c7,r3c7,r3c8,r3c9 => r1c89<>8, r1c89<>9', True),
    ('Hidden Quadruple',
     '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
     4, 'Hidden Quadruple: 1,5,8,9 in r1357c2 => r135c2<>6, r15c2<>7', False),
    ('X-Wing',
     '6..3.2....1.....5..........7.26............843.........8.15........8.2........7..',
     24, 'X-Wing: 1 r1,r4 c5,c9 => r3c59<>1', True),
    ('Swordfish',
     '.47.8...1............6..7..6....357......5....1..6....28..4.....9.1...4.....2.69.',
     16, 'Swordfish: 5 r3,r8,r9 c2,c5,c9 => r27c9<>5', True),
    ('Jellyfish',
     '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......',
     19, 'Jellyfish: 7 r2,r4,r5,r6 c1,c6,c7,c9 => r9c6<>7', False),
    ('Skyscraper',
     '....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...',
     34, 'Skyscraper: 9 in r1c1,r8c2 (connected by r1c8,r8c8) => r9c1<>9', True),
    ('2-String Kite',
     '....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...',
     29, '2-String Kite: 4 in r9c1,r6c4 (connected by r9c5,r8c4) => r6c1<>4', True),
    ('Turbot Fish',
     '.47.8...1............6..7..6....357......5....1..6....28..4.....9.1...4.....2.69.',
     8, 'Turbot Fish: 5 in r1c1,r8c5 (connected by r1c4,r7c4) => r8c1<>5', True),
    ('Empty Rectangle',
     '6..3.2....5.....1..........7.26............543.........8.15........4.2........7..',
     17, 'Empty Rectangle: 4 in b7 (r1c38) => r9c8<>4', True),
    ('XY-Wing',
     '48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....',
     39, 'XY-Wing: 5/8/9 in r7c1,r2c1,r8c3 => r2c3,r9c1<>9', True),
    ('XYZ-Wing',
     '3.6.7...........518.........1.4.5...7.....6.....2......2.....4.....8.3.....5.....',
     42, 'XYZ-Wing: 3/6/9 in r7c6,r2c6,r7c5 => r9c6<>3', True),
    ('W-Wing',
     '48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....',
     41, 'W-Wing: 9/4 in r5c3,r9c4 connected by 9 in r8c3,r8c6 => r9c3<>4', True),
    ('Simple Colors Trap',
     '.4.5.....8...9..3..76.2.....146..........9..7.....36....1..4.5..6......3..71..2..',
     20, 'Simple Colors Trap: 3 (r1c3,r3c4,r5c2) / (r1c5,r3c1,r5c3,r7c4) => r7c2<>3', True),
    ('Simple Colors Wrap',
     '....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...',
     1, 'Simple Colors Wrap: 1 (r8c2,r9c1) / (r9c2) => r8c2,r9c1<>1', False),
    ('Uniqueness Test 1',
     '...5...........5.697.....2...48.2...25.1...3..8..3.........4.7..13.5..9..2...31..',
     40, 'Uniqueness Test 1: 7/9 in r2c5,r2c6,r5c5,r5c6 => r5c5<>7, r5c5<>9', True),
    ('Uniqueness Test 2',
     '.52..68.......7.2.......6....48..9..2..41......1.....8..61..38.....9...63..6..1.9',
     41, 'Uniqueness Test 2: 5/7 in r8c3,r8c8,r9c3,r9c8 => r3c3,r5c3,r8c1,r8c2,r9c2<>8', True),
    ('Uniqueness Test 3',
     '3.6.7...........518.........1.4.5...7.....6.....2......2.....4.....8.3.....5.....',
     34, 'Uniqueness Test 3: 1/8 in r1c4,r1c6,r5c4,r5c6 => r5c5<>3, r5c5<>9', True),
    ('Uniqueness Test 4',
     '6..3.2....5.....1..........7.26............543.........8.15........4.2........7..',
     19, 'Uniqueness Test 4: 1/5 in r8c1,r8c9,r9c1,r9c9 => r89c1<>1', True),
    ('Bivalue Universal Grave + 1',
     '1.......3.6.3..7...7...5..121.7...9...7........8.1..2....8.64....9.2..6....4.....',
     47, 'Bivalue Universal Grave + 1: r5c1<>6, r5c1<>9', True),
    ('Finned X-Wing',
     '6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....',
     16, 'Finned X-Wing: 7 r2,r4 c3,c4 fr2c1,fr2c2 => r3c3<>7', True),
    ('Sashimi X-Wing',
     '6..3.2....4.....8..........7.26............543.........8.15........8.2........7..',
     17, 'Sashimi X-Wing: 4 c4,c7 r3,r7 fr8c4,fr9c4 => r7c6<>4', True),
    ('Finned Swordfish',
     '.6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8...',
     13, 'Finned Swordfish: 2 r1,r4,r6 c3,c5,c9 fr4c1,fr6c1 => r5c3<>2', True),
    ('Sashimi Swordfish',
     '.6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8...',
     17, 'Sashimi Swordfish: 2 c4,c6,c8 r3,r5,r9 fr8c4,fr8c6 => r9c5<>2', True),
    ('Remote Pair',
     '48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....',
     35, 'Remote Pair: (5)r3c6=(7)r3c6-(7)r3c4=(5)r3c4-(5)r6c4=(7)r6c4-(7)r6c7=(5)r6c7'
         ' => r6c6<>5', False),
    ('X-Chain',
     '6.2.5.........4.3..........43...8....1....2........7..5..27...........81...6.....',
     16, 'X-Chain: (7)r3c8=(7)r1c8-(7)r1c6=(7)r5c6-(7)r4c4=(7)r4c3 => r3c3<>7', False),
    ('XY-Chain',
     '3.6.7...........518.........1.4.5...7.....6.....2......2.....4.....8.3.....5.....',
     37, 'XY-Chain: (9)r2c1=(2)r2c1-(2)r4c1=(6)r4c1-(6)r4c5=(3)r4c5-(3)r7c5=(9)r7c5'
         ' => r7c1<>9', True),
    ('AIC',
     '6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....',
     22, 'AIC: (7)r3c8=(7)r1c8-(7)r1c6=(7)r5c6-(6)r5c6=(6)r6c6-(6)r6c2=(6)r7c2-(6)r7c8=(9)r7c8'
         ' => r3c8<>9', True),
    ('Forcing Chain Contradiction',
     '6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....',
     17, 'Forcing Chain Contradiction: r3c9=9 leads to a contradiction => r3c9<>9', True),
    ('Forcing Chain Verity',
     '.52..68.......7.2.......6....48..9..2..41......1.....8..61..38.....9...63..6..1.9',
     4, 'Forcing Chain Verity: r2c4=3,5,9 all lead to r1c5=4 => r1c5=4', False),
    ('Forcing Net Contradiction',
     '7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........',
     23, 'Forcing Net Contradiction: r2c1=4 leads to a contradiction => r2c1<>4', True),
    ('Forcing Net Verity',
     '.52..68.......7.2.......6....48..9..2..41......1.....8..61..38.....9...63..6..1.9',
     4, 'Forcing Net Verity: r2c7=4,5 all lead to r1c5=4 => r1c5=4', False),
    ('Nested Forcing Net',
     '6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....',
     16, 'Nested Forcing Net: r1c9=3 leads to a contradiction => r1c9<>3', False),
    ('Grouped AIC',
     '.52..68.......7.2.......6....48..9..2..41......1.....8..61..38.....9...63..6..1.9',
     4, 'Grouped AIC: (7)r6c4=(7)r8c4-(7)r8c7=(7)r56c7 => r6c8<>7', False),
]


def state(line: str, steps: int) -> Candidates:
    """The candidates after the first `steps` easiest-first steps."""
    puzzle = parse(line)
    g = Candidates(puzzle)
    chosen = solver.usable(puzzle, solver.TECHNIQUES, unique=True)
    for _ in range(steps):
        g.apply(solver.next_step(g, chosen))
    return g


@pytest.mark.parametrize("technique, line, steps, notation, first", EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_the_example_fires_as_stated(technique, line, steps, notation, first):
    g = state(line, steps)
    found = next(solver.BY_NAME[technique.lower()].find(g), None)  # as a path takes it
    assert found is not None and found.notation == notation
    for cell, digit in found.eliminations:
        assert g.cands[cell] >> (digit - 1) & 1  # a candidate that was there
    solution = make_backend("norvig").solve(g.puzzle, limit=2).solutions[0]
    assert solver.wrong_moves([found], solution, 9) == []
    if first:
        position = solver.TECHNIQUES.index(solver.lookup(technique))
        easier = [t for t in solver.usable(g.puzzle, solver.TECHNIQUES[:position], True)
                  if next(t.find(g), None) is not None]
        assert easier == []
