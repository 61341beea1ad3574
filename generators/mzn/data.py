"""What the MiniZinc generators share: `.dzn` values, the models' templates, and the search
annotations a model can be given (`--set search=...`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import jinja2

from patience.options import Option

SEARCHES = ("paper", "first-fail", "dom-w-deg", "free")
SEARCH = Option("search", "paper", "the search annotation: paper (x in order, smallest value first), first-fail, "
                                   "dom-w-deg, free (no annotation: the solver's own)", SEARCHES)
DATA_FILE = "deal.dzn"


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("patience.templates", "."),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def render(template: str, **values: object) -> str:
    """A model from its template in templates/."""
    return _environment().get_template(template).render(**values)


def array(values: Sequence[int], first_index: int = 1) -> str:
    """A one-dimensional `.dzn` array; `array1d(lo..hi, [...])` unless it starts at 1."""
    items = "[" + ", ".join(str(value) for value in values) + "]"
    return items if first_index == 1 else f"array1d({first_index}..{first_index + len(values) - 1}, {items})"


def table(rows: Sequence[Sequence[int]], first_column: int = 1) -> str:
    """A two-dimensional `.dzn` array, one row per line."""
    width = len(rows[0])
    body = ",\n  ".join(", ".join(str(value) for value in row) for row in rows)
    return (f"array2d(1..{len(rows)}, {first_column}..{first_column + width - 1}, [\n  {body}\n])")


def boolean(value: bool) -> str:
    return "true" if value else "false"
