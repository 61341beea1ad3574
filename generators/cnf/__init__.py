"""DIMACS CNF: each game as a propositional formula for SAT solvers, one module per game."""
