"""The one error type for bad input: it names the file and line so the CLI can print one line."""

from __future__ import annotations

import re

from patience.caps import QUOTE_CHARS

_MESSAGE_CHARS = 400  # an error line is read by people: anything longer was quoted from the input
_NAME_CHARS = 160  # a file name in an error line: longer ones keep their start and their end
_LONG_WORD = re.compile(rf"\S{{{QUOTE_CHARS + 1},}}")


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """`text` quoted for an error line, cut so that the quote (its escapes included: one astral
    character is written in ten) stays within `limit` characters and its two quote marks."""
    shown = repr(text[:limit])
    if len(text) <= limit and len(shown) <= limit + 2:
        return shown
    cut = text[:limit]
    while len(shown) > limit + 2:  # each escape is at most ten characters: at most `limit` rounds
        cut = cut[:-1]
        shown = repr(cut)
    return shown + "..."


def shown_name(name: str) -> str:
    """A file name for an error line: whole up to _NAME_CHARS characters, else its first 50 and its
    last 100 (the folder it starts from and the file it ends in) around `...`."""
    return name if len(name) <= _NAME_CHARS else f"{name[:50]}...{name[-100:]}"


def clip_words(text: str) -> str:
    """`text` with every run of more than QUOTE_CHARS non-blank characters cut to QUOTE_CHARS and
    `...`: for messages written by others (argparse's) that quote a value whole."""
    return _LONG_WORD.sub(lambda match: match.group(0)[:QUOTE_CHARS] + "...", text)


def _is_byte(char: str) -> bool:
    """A byte of a file name that no encoding could read: the surrogate `os.fsdecode` keeps it as."""
    return 0xDC80 <= ord(char) <= 0xDCFF


def _byte(char: str) -> str:
    return f"\\x{ord(char) - 0xDC00:02x}"


def encodable(name: str) -> str:
    """`name` (a file's, from the file system) with each byte no encoding could read written as
    `\\xNN` (a Latin-1 `café` from a zip is `caf\\xe9`), so that every UTF-8 output and store takes
    it; the rest is kept as it is (outputs that need one line escape it further with `printable`)."""
    return "".join(_byte(char) if _is_byte(char) else char for char in name) if not name.isascii() else name


def printable(text: str) -> str:
    """`text` (a name: a file's, a folder's, a student's, a deal's) as one printable line that any
    UTF-8 output takes: line breaks, escape sequences and other unprintable characters written as
    Python escapes (`\\n`, `\\x1b`), and a byte of a file name that no encoding could read as the
    byte (`\\xe9`, as `encodable` writes it). Names are data: never a forged line."""
    return "".join(char if char.isprintable() else _byte(char) if _is_byte(char) else repr(char)[1:-1]
                   for char in text)


def escape_unencodable(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler `patience-names` (registered by the command line for standard output
    and standard error): a file name's unreadable byte is printed as `encodable` writes it, any other
    character the stream cannot encode as a Python escape, instead of an exception that ends the command."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start:error.end]
    return "".join(_byte(char) if _is_byte(char) else char.encode("ascii", "backslashreplace").decode()
                   for char in bad), error.end


def one_line(text: str) -> str:
    """`text` as one printable line of at most _MESSAGE_CHARS characters (control characters escaped)."""
    if len(text) > _MESSAGE_CHARS:
        text = text[:_MESSAGE_CHARS] + "..."
    return printable(text)


class InputError(Exception):
    """Malformed input (deal, answer, CNF, solver output). Printed as `error: FILE:LINE: what`."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        where = f"{shown_name(source)}:{line}" if line is not None else shown_name(source)
        super().__init__(one_line(f"{where}: {message}"))


class UsageError(Exception):
    """A bad command-line choice (unknown solver, bad option value). Printed as `error: what`."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))
