"""Essence Prime: each game as a constraint model for Savile Row, one module per game."""
