"""patience-models: patience deals as models for every kind of solver, run and validated."""

__version__ = "0.1.0"
