"""What every model generator returns: the files of one deal's model and the way back from a
solver's answer, in the model's own terms, to the game's moves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ModelFiles:
    """`files` maps file names to their text; `primary` is the one `gen` prints; `decode` turns the
    solver's answer (a plan, a set of true variables, variable values, a solution file's text,
    depending on the language) into moves, through the names the generator gave, never re-derived."""

    files: Mapping[str, str]
    primary: str
    decode: Callable[..., tuple[Any, ...]]
    stats: Mapping[str, int | str] = field(default_factory=dict)
    arrays: Mapping[str, int] = field(default_factory=dict)  # sizes of arrays a solver may name whole (`x[]`)

    def __post_init__(self) -> None:
        if self.primary not in self.files:
            raise ValueError(f"the primary file {self.primary!r} is not among the model's files")
