"""XCSP3: each game as a constraint instance (built with PyCSP3), one module per game."""
