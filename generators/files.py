"""What every model generator returns: the files of one deal's model and the way back from a
solver's answer, in the model's own terms, to the game's moves."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from patience.options import Option

if TYPE_CHECKING:
    from patience.games import AnyDeal

D = TypeVar("D", bound="AnyDeal", contravariant=True)  # the deal type a generator models


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


@runtime_checkable
class Generator(Protocol[D]):
    """What every generator module gives (one module per language and game family, registered in
    `MODEL_LANGUAGES`): its title and option schema, the `gen` flags that print a fixed file of the
    model (SHOW: flag -> file name, each a file of `fixed_files`), the files that need no deal, and
    the model of one deal. tests/test_generator_contract.py holds every registered module to it."""

    TITLE: str
    OPTIONS: Sequence[Option]
    SHOW: Mapping[str, str]

    def fixed_files(self, **options: Any) -> dict[str, str]: ...

    def build(self, deal: D, **options: Any) -> ModelFiles: ...


@runtime_checkable
class FormulaGenerator(Generator[D], Protocol):
    """A CNF generator also gives its encoding as a PySAT formula, for the solvers that take the
    clauses without a file (runners/sat_embedded.py)."""

    def formula(self, deal: D, **options: Any) -> Any: ...


def no_fixed_files(**_options: object) -> dict[str, str]:
    """`fixed_files` of a model whose every file depends on the deal."""
    return {}


def fixed_file_keywords(module: Generator[Any], keywords: Mapping[str, Any]) -> dict[str, Any]:
    """The options that shape a model's fixed files: those its `fixed_files` names (a switch that
    only changes the deal's data, such as symmetry breaking in a `.dzn`, changes no fixed file)."""
    accepted = inspect.signature(module.fixed_files).parameters
    return {name: value for name, value in keywords.items() if name in accepted}
