"""Human-style solving: pencil marks, named techniques, explained steps, grading.

`solver.solve(puzzle)` gives the path of `Step`s a player could take, easiest technique
first (HoDoKu's catalogue and names); `grading` turns a path into HoDoKu's level and score
and a Sudoku Explainer-like rating.
"""
