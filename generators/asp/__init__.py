"""Answer set programs for clingo: one module per game, the facts they share in `facts`."""
