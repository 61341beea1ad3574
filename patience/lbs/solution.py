"""A student's `.solution` file read back into moves, through a mapping of their variable names.

Savile Row prints every `find` variable as `letting NAME be ...`, matrices possibly over several
lines and with index annotations (`[...;int(0..4)]`). The mapping says which two variables hold a
move's source and target position and whether positions count from 1 (the coursework) or 0.
Without a mapping the names are inferred: `actionFrom`/`actionTo`, else the only two one-dimensional
variables whose names contain `from` and `to`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from patience.caps import MAX_CARDS, MAX_MOVES, MAX_VALUES
from patience.errors import InputError, quote
from patience.lbs.rules import Move
from patience.numeric import is_whole, whole_value
from patience.reading import at_most, load_yaml, numbered_lines, read_text

_START = re.compile(r"^letting\s+(\w+)\s+be\s+(.*)$")
_ANNOTATION = re.compile(r";\s*int\(\s*-?\d+\s*\.\.\s*-?\d+\s*\)")


@dataclass(frozen=True)
class Mapping:
    """Which variables hold the moves, and the index of the first position."""

    source: str = "actionFrom"
    target: str = "actionTo"
    first: int = 1

    @property
    def names(self) -> tuple[str, str]:
        return self.source, self.target


def read_mapping(path: Path) -> Mapping:
    """A YAML mapping file: `from: NAME`, `to: NAME`, optional `first_position: 0|1` (default 1)."""
    data = load_yaml(read_text(path), str(path))
    if not isinstance(data, dict) or not isinstance(data.get("from"), str) or not isinstance(data.get("to"), str):
        raise InputError(str(path), 1, "the mapping needs `from: VARIABLE` and `to: VARIABLE`")
    first = whole_value(data.get("first_position", 1), "first_position", 0, 1, str(path), 1)  # not 1.0, not true
    return Mapping(data["from"], data["to"], first)


def read_lettings(text: str, source: str, moves: Collection[str] = ("actionFrom", "actionTo")) -> dict[str, object]:
    """Every `letting NAME be VALUE` (integers and nested matrices of them), `$` comments skipped.
    Values are counted as they are read: the lettings named in `moves` hold at most MAX_MOVES,
    the file at most MAX_VALUES, so a long file is refused at the cap, not after it."""
    chunks: list[tuple[str, list[str]]] = []
    values = total = 0
    for number, raw in numbered_lines(text):
        line = raw.split("$", 1)[0].strip()
        if not line or line.lower().startswith("language"):
            continue
        match = _START.match(line)
        if match:
            chunks.append((match.group(1), [match.group(2)]))
            values = 0
        elif chunks:
            chunks[-1][1].append(line)
        else:
            raise InputError(source, number, f"not a letting: {quote(line)}")
        count = line.count(",") + (1 if match else 0)  # a letting holds one value more than its commas
        values, total = values + count, total + count
        name = chunks[-1][0]
        at_most(values, MAX_MOVES if name in moves else MAX_VALUES, f"values of {quote(name)} (at least)",
                source, number)
        at_most(total, MAX_VALUES, "values in the solution (at least)", source, number)
    lettings: dict[str, object] = {}
    for name, parts in chunks:
        body = _ANNOTATION.sub("", " ".join(parts))
        try:
            lettings[name] = json.loads(body)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as is an over-long number
            lettings[name] = body  # a value the grader never needs (a set, a boolean, ...)
    return lettings


def infer_mapping(lettings: dict[str, object], source: str) -> Mapping:
    if "actionFrom" in lettings and "actionTo" in lettings:
        return Mapping()
    vectors = [name for name, value in lettings.items()
               if isinstance(value, list) and all(map(is_whole, value))]
    sources = [name for name in vectors if "from" in name.lower()]
    targets = [name for name in vectors if "to" in name.lower() and name not in sources]
    if len(sources) == 1 and len(targets) == 1:
        return Mapping(sources[0], targets[0])
    raise InputError(source, 1, "cannot tell which variables hold the moves; give --mapping "
                                f"(one-dimensional variables: {', '.join(vectors) or 'none'})")


def read_moves(text: str, source: str, mapping: Mapping | None = None) -> tuple[Move, ...]:
    """The moves of a solution as 1-based (source, target) pairs."""
    lettings = read_lettings(text, source, (mapping or Mapping()).names)
    mapping = mapping or infer_mapping(lettings, source)
    columns = []
    for name in (mapping.source, mapping.target):
        value = lettings.get(name)
        if not isinstance(value, list) or not all(map(is_whole, value)):
            raise InputError(source, 1, f"no one-dimensional integer variable {quote(name)} in the solution")
        for item in value:  # a position no deal has (the caps) is no move: refused here, not quoted whole
            whole_value(item, f"a position in {quote(name)}", -MAX_CARDS, MAX_CARDS + 1, source, 1)
        columns.append(value)
    if len(columns[0]) != len(columns[1]):
        raise InputError(source, 1, f"{mapping.source} and {mapping.target} differ in length")
    shift = 1 - mapping.first
    return tuple((a + shift, b + shift) for a, b in zip(*columns, strict=True))
