"""The cage arithmetic every backend shares: the digit sets that fill a cage."""

from itertools import combinations

import pytest

from sudokulab.cages import digit_sets


def test_digit_sets_of_a_cage():
    # 2 cells adding up to 10 in a 9x9: 1+9, 2+8, 3+7, 4+6 (never 5+5)
    assert digit_sets(2, 10, 9) == ((1, 9), (2, 8), (3, 7), (4, 6))
    assert digit_sets(3, 6, 9) == ((1, 2, 3),)  # only 1+2+3
    assert digit_sets(3, 5, 9) == ()  # too small for three distinct digits
    assert digit_sets(3, 25, 9) == ()  # too large: 7+8+9 is 24
    assert digit_sets(9, 45, 9) == (tuple(range(1, 10)),)
    assert len(digit_sets(3, 15, 9)) == 8


@pytest.mark.parametrize("n", [4, 6, 9])
def test_digit_sets_are_every_set_of_distinct_digits_with_the_total(n):
    for size in range(1, n + 1):
        for total in range(n * size + 2):
            want = tuple(digits for digits in combinations(range(1, n + 1), size)
                         if sum(digits) == total)
            assert digit_sets(size, total, n) == want, (size, total)


def test_digit_sets_of_a_large_grid_are_found_without_trying_every_combination():
    # 25 choose 12 is over five million combinations; the sets of 12 digits adding up to
    # the smallest total but one differ from 1..12 by one step up: only one
    assert digit_sets(12, sum(range(1, 13)) + 1, 25) == ((*range(1, 12), 13),)
