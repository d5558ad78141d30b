"""Human-style solving: pencil marks, named techniques, explained steps, grading.

`solver.solve(puzzle)` gives the path of `Step`s a player could take, easiest technique
first (HoDoKu's catalogue and names); `grading` turns a path into HoDoKu's level and score
and a Sudoku Explainer-like rating.
"""

from sudokulab import rules as R

# The rules before the line, dot and region rules of issue 19: what the techniques know
# (the human backend answers UNSUPPORTED to the others, `unknown_rules` names them).
FIRST_RULES: tuple[type, ...] = (R.Diagonal, R.AntiKnight, R.AntiKing, R.NonConsecutive,
                                 R.Windoku, R.Jigsaw, R.Cage, R.Parity)
