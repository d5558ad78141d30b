"""Encodings of a puzzle as solver input (CNF, SMT), exportable without a solver."""
