"""sudokulab: solve Sudoku with independent paradigms and compare them."""

__version__ = "0.1.0"
