"""Readers and writers of puzzles beyond one line or grid: files of many puzzles, each
with its own rules (JSON Lines, JSON arrays), the files Sudoku programs exchange (.sdk,
.sdm, .ss, Project Euler 96, HoDoKu's library, the forum's `puzzle ; rating` lines), and
f-puzzles and SudokuPad links (`formats.links`: the address and its payload; the JSON
inside is `formats.fpuzzles` or `formats.sudokupad`). `formats.files` is the API the commands
call: `read_file`/`read_text` give one Entry per puzzle (or per bad one, with its file
and line), `write` gives a file's text.
"""
