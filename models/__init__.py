"""Hand-written solver-language models that do not change per deal."""
