"""The CLP(FD) program (sudoku.pl, loadable in plain swipl) and how Python finds SWI-Prolog
to run it (swipl.py)."""
