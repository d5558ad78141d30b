"""Models of a puzzle as each paradigm's input: CNF (cnf), SMT (smt), CP-SAT (cpsat),
MILP (milp), and the programs a person can run outside the lab: asp/sudoku.lp,
prolog/sudoku.pl, mzn/sudoku.mzn. A model is built here and searched only in backends/."""
