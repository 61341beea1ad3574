"""Worm Hole (Solvitaire's `worm-hole`): Black Hole with free cells, one game package."""
