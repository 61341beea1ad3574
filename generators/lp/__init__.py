"""LP: each game as a mixed integer program in CPLEX LP format, one module per game, and the MIP start."""
