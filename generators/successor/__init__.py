"""The successor encoding: a compact CNF of the Black Hole family (one module per game family)."""
