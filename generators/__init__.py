"""Generators: deals in, model files out (and the deal makers themselves)."""
