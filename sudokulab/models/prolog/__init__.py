"""The CLP(FD) program sudoku.pl, loadable in plain swipl; backends/swipl.py finds
SWI-Prolog and loads it."""
