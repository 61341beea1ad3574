"""The specialised Black Hole search: a pure-Python reference and a compiled C extension."""
