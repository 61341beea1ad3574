"""The one error type for bad input: it names the file and line so the CLI can print one line."""

from __future__ import annotations


class InputError(Exception):
    """Malformed input (deal, answer, CNF, solver output). Printed as `error: FILE:LINE: what`."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class UsageError(Exception):
    """A bad command-line choice (unknown solver, bad option value). Printed as `error: what`."""
