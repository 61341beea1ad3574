"""PDDL: each game as a planning domain and problem, one module per game."""
