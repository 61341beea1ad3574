"""What the LP models of every game share: rows written term by term, and long rows wrapped."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

LINE = 200  # LP readers accept long lines, but short ones keep the files readable


def expression(terms: Iterable[tuple[int, str]]) -> str:
    """`2 a - b + c` from (coefficient, variable) terms; zero terms dropped (an empty sum is `0 a_1_1`)."""
    parts = []
    for coefficient, name in terms:
        if coefficient == 0:
            continue
        sign = "-" if coefficient < 0 else "+"
        size = abs(coefficient)
        parts.append(f"{sign} {name}" if size == 1 else f"{sign} {size} {name}")
    text = " ".join(parts) or "0 a_1_1"
    return text[2:] if text.startswith("+ ") else text


def row_text(terms: Iterable[tuple[int, str]], sense: str, rhs: int) -> str:
    """One constraint without its name: `expression sense rhs`."""
    return f"{expression(terms)} {sense} {rhs}"


def wrapped(text: str, indent: str = " ") -> Iterator[str]:
    """Split a long row at term boundaries; LP rows may continue on the next line."""
    while len(text) > LINE:
        cut = text.rfind(" + ", 0, LINE)
        cut = max(cut, text.rfind(" - ", 0, LINE))
        if cut <= 0:
            break
        yield indent + text[:cut]
        text = text[cut + 1:]
    yield indent + text
