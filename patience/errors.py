"""The one error type for bad input: it names the file and line so the CLI can print one line."""

from __future__ import annotations

from patience.caps import QUOTE_CHARS

_MESSAGE_CHARS = 400  # an error line is read by people: anything longer was quoted from the input


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """`text` quoted for an error line, cut to `limit` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def one_line(text: str) -> str:
    """`text` as one printable line of at most _MESSAGE_CHARS characters (control characters escaped)."""
    if len(text) > _MESSAGE_CHARS:
        text = text[:_MESSAGE_CHARS] + "..."
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class InputError(Exception):
    """Malformed input (deal, answer, CNF, solver output). Printed as `error: FILE:LINE: what`."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(one_line(f"{where}: {message}"))


class UsageError(Exception):
    """A bad command-line choice (unknown solver, bad option value). Printed as `error: what`."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))
