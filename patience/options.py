"""Option schemas: every model generator and every solver declares its options once, as data.

The same schema builds `gen FORMAT --flag` arguments, checks `solve --set OPTION=VALUE`, checks a
campaign's configurations and is listed by `patience solvers`. Values arrive as text and leave as
typed values (bool for switches, int for counts, str for choices); anything unknown is a usage error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

from patience.caps import MAX_NODES
from patience.errors import UsageError, quote
from patience.numeric import whole

ON_WORDS = ("on", "true", "1", "yes")
OFF_WORDS = ("off", "false", "0", "no")


class Asked(Sequence[str]):
    """Words known only by asking a program (MiniZinc's configured backends): `ask` runs where the
    words are used (a value checked, the choices shown), never when a schema is read."""

    def __init__(self, ask: Callable[[], tuple[str, ...]]) -> None:
        self.ask = ask

    def __len__(self) -> int:
        return len(self.ask())

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self.ask()[index]


@dataclass(frozen=True)
class Option:
    """A named choice among fixed words (`values`, or words `Asked` of a program), or any text when
    `values` is empty."""

    name: str
    default: str | None
    help: str
    values: Sequence[str] = ()

    def parse(self, text: str) -> object:
        if self.values and text not in self.values:
            raise UsageError(f"option {self.name} must be one of {', '.join(self.values)}, not {quote(text)}")
        return text

    @property
    def metavar(self) -> str:
        return "|".join(self.values) if self.values else "VALUE"

    def explain(self) -> str:
        """What it does and its default, for a `--flag`'s help."""
        return f"{self.help} (default {'none' if self.default is None else self.default})"

    def describe(self) -> str:
        """Its values, what it does and its default, for `patience solvers`."""
        return f"{self.metavar}: {self.explain()}"


@dataclass(frozen=True)
class Switch(Option):
    """An on/off option; also accepts true/false, yes/no, 1/0."""

    values: tuple[str, ...] = ("on", "off")

    def parse(self, text: str) -> object:
        lowered = text.lower()
        if lowered in ON_WORDS:
            return True
        if lowered in OFF_WORDS:
            return False
        raise UsageError(f"option {self.name} must be on or off, not {quote(text)}")


@dataclass(frozen=True)
class Count(Option):
    """A whole number from `minimum` to `maximum` (a node limit, a seed); no default means none."""

    minimum: int = 1
    maximum: int = MAX_NODES

    def parse(self, text: str) -> object:
        return whole(text, f"option {self.name}", self.minimum, self.maximum)

    @property
    def metavar(self) -> str:
        return "N"


Schema = Sequence[Option]


def check_options(schema: Schema, given: Mapping[str, str], owner: str) -> dict[str, object]:
    """Every option of `schema`, typed: the given text parsed, the default where none was given.
    An option the schema does not have is a usage error naming the ones it has."""
    known = {option.name: option for option in schema}
    for name in given:
        if name not in known:
            listing = ", ".join(known) or "none"
            raise UsageError(f"{owner} has no option {quote(name)}; known: {listing}")
    return {name: (option.parse(given[name]) if name in given
                   else None if option.default is None else option.parse(option.default))
            for name, option in known.items()}


def option_keywords(values: Mapping[str, object]) -> dict[str, object]:
    """Option names as Python keywords (`symmetry-breaking` -> `symmetry_breaking`)."""
    return {name.replace("-", "_"): value for name, value in values.items()}


def option_text(value: object) -> str:
    """A value given in Python (an experiment file's YAML, `patience.solve(..., presolve=False)`) as the
    text a schema parses: booleans as on/off."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_texts(keywords: Mapping[str, object]) -> dict[str, str]:
    """Python keywords as options (`symmetry_breaking=True` -> `symmetry-breaking`: `on`), the inverse of
    `option_keywords`."""
    return {name.replace("_", "-"): option_text(value) for name, value in keywords.items()}
