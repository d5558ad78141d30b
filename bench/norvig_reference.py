"""The yardstick: Peter Norvig's 2006 Sudoku solver, written plainly from the essay.

This is deliberately the straightforward version of the published algorithm, not a
tuned one, so that "k times faster than Norvig's solver" means something:
- values: a dict of square name -> string of the digits still possible there;
- assign(values, s, d) eliminates every other digit from s;
- eliminate(values, s, d) removes d from s and applies the two rules:
  (1) a square left with one digit: eliminate that digit from its peers;
  (2) a unit left with one place for d: assign d there;
- search tries the square with the fewest possibilities, on a dict copy per guess.
9x9 only. `solve(line)` takes an 81-character line ('.' or '0' for a blank).
Run as a script, `python bench/norvig_reference.py FILE` solves every line of a file.
"""

from __future__ import annotations

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
COLS = DIGITS


def cross(a: str, b: str) -> list[str]:
    """Every concatenation of a character of a with a character of b."""
    return [x + y for x in a for y in b]


SQUARES = cross(ROWS, COLS)
UNITLIST = ([cross(ROWS, c) for c in COLS] + [cross(r, COLS) for r in ROWS]
            + [cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")])
UNITS = {s: [u for u in UNITLIST if s in u] for s in SQUARES}
PEERS = {s: set(sum(UNITS[s], [])) - {s} for s in SQUARES}


def parse_grid(line: str) -> dict[str, str] | bool:
    """Every square's possible digits after assigning the givens, or False on a contradiction."""
    values = {s: DIGITS for s in SQUARES}
    for s, d in grid_values(line).items():
        if d in DIGITS and not assign(values, s, d):
            return False
    return values


def grid_values(line: str) -> dict[str, str]:
    """The characters of a grid line, by square."""
    chars = [c for c in line if c in DIGITS or c in "0."]
    assert len(chars) == 81, f"need 81 cells, got {len(chars)}"
    return dict(zip(SQUARES, chars, strict=True))


def assign(values: dict[str, str], s: str, d: str) -> dict[str, str] | bool:
    """Eliminate every digit but d from s; False on a contradiction."""
    other = values[s].replace(d, "")
    if all(eliminate(values, s, d2) for d2 in other):
        return values
    return False


def eliminate(values: dict[str, str], s: str, d: str) -> dict[str, str] | bool:
    """Remove d from s and apply both rules; False on a contradiction."""
    if d not in values[s]:
        return values  # already gone
    values[s] = values[s].replace(d, "")
    # (1) a square reduced to one digit: that digit goes from its peers
    if len(values[s]) == 0:
        return False
    if len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2) for s2 in PEERS[s]):
            return False
    # (2) a unit reduced to one place for d: put it there
    for u in UNITS[s]:
        places = [s2 for s2 in u if d in values[s2]]
        if len(places) == 0:
            return False
        if len(places) == 1 and not assign(values, places[0], d):
            return False
    return values


def search(values: dict[str, str] | bool) -> dict[str, str] | bool:
    """Depth-first search on the square with the fewest possibilities, copying per guess."""
    if values is False:
        return False
    if all(len(values[s]) == 1 for s in SQUARES):
        return values
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    return some(search(assign(values.copy(), s, d)) for d in values[s])


def some(seq):
    """The first true element of seq, or False."""
    for e in seq:
        if e:
            return e
    return False


def solve(line: str) -> str | None:
    """The solution of a 9x9 grid line as an 81-digit line, or None if it has none."""
    values = search(parse_grid(line))
    if not values:
        return None
    return "".join(values[s] for s in SQUARES)


def main(path: str) -> None:
    """Solve every 81-character line of a file (.gz too); print each solution or 'none'."""
    import gzip
    import sys

    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as lines:
        for line in lines:
            line = line.strip()
            if len(line) == 81:
                sys.stdout.write((solve(line) or "none") + "\n")


if __name__ == "__main__":
    import sys

    main(sys.argv[1])
