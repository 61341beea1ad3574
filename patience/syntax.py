"""Names from outside (a deal's file name, a folder, a family's spec) as text of a model file: the
one way each language writes them, so that a name is always data and never syntax.

A deal named `x\\np cnf 1 2\\n1 0\\n-1 0` or `x\\n:- pile(1,3).` must not add a clause or a rule:
a comment is one line of printable characters (line breaks, U+2028, U+0085, NUL and every other
control or format character become `?`), opened by the language's comment mark and a space (so
that a name can never extend the mark into another one: ASP's `%*`, LP's `\\*`), with the
sequences the language reads inside a comment removed (XML's `--`). An identifier (a PDDL problem
name, a file stem) is a slug of safe characters that starts as the language wants.

Part of the core: deal writers use it too (the comment of an LBS `.param`), not only the generators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMMENT_CHARS = 200  # a name is a label: a comment keeps its first 200 characters


@dataclass(frozen=True)
class Syntax:
    """How one language writes a comment line and an identifier."""

    comment_mark: str  # opens a comment that runs to the end of the line
    comment_end: str = ""  # closes it, for languages whose comments are delimited (XML)
    unsafe: str = r"[^A-Za-z0-9_-]+"  # what an identifier may not hold, replaced by `joiner`
    joiner: str = "_"
    lower: bool = False
    first: str = "[A-Za-z]"  # what an identifier must start with (else `prefix` is put before it)
    prefix: str = "deal"

    def comment_text(self, text: str) -> str:
        """`text` as the inside of one comment line: printable, one line, nothing the comment ends at."""
        kept = "".join(char if char.isprintable() else "?" for char in text[:_COMMENT_CHARS])
        if self.comment_end == " -->":  # XML: `--` may not appear inside a comment
            kept = re.sub(r"-(?=-)", "-?", kept)
        return kept + ("..." if len(text) > _COMMENT_CHARS else "")

    def comment(self, text: str) -> str:
        """One whole comment line holding `text` (no line break at its end)."""
        return f"{self.comment_mark} {self.comment_text(text)}{self.comment_end}".rstrip()

    def identifier(self, text: str) -> str:
        """`text` as a name the language reads as one identifier (the prefix alone for an empty one)."""
        slug = re.sub(self.unsafe, self.joiner, text.lower() if self.lower else text)
        slug = slug.strip(self.joiner + "-.")[:_COMMENT_CHARS]
        if not slug:
            return self.prefix
        return slug if re.match(self.first, slug) else f"{self.prefix}{self.joiner}{slug}"


# Every language the generators write, and the file system (a model's own file names).
SYNTAXES: dict[str, Syntax] = {
    "cnf": Syntax("c"),
    "successor": Syntax("c"),  # a DIMACS file too (gen successor: the compact CNF)
    "pddl": Syntax(";", unsafe=r"[^a-z0-9-]+", joiner="-", lower=True),  # PDDL names: letter, then letters, digits, -
    "eprime": Syntax("$"),
    "xcsp3": Syntax("<!--", " -->"),
    "lp": Syntax("\\"),
    "cpsat": Syntax("#"),
    "mzn": Syntax("%"),
    "asp": Syntax("%", first="[a-z]", lower=True),  # a constant starts lower-case
    "file": Syntax("#", unsafe=r"[^A-Za-z0-9_.-]+", joiner="-", first="[A-Za-z0-9_]"),  # a file name's stem
}


def comment(language: str, text: str) -> str:
    """`text` as one comment line of `language` (see SYNTAXES)."""
    return SYNTAXES[language].comment(text)


def identifier(language: str, text: str) -> str:
    """`text` as one identifier of `language` (see SYNTAXES)."""
    return SYNTAXES[language].identifier(text)
