"""An argparse parser that lists its own options and subcommands.

argparse keeps a parser's actions in private attributes (`_actions`, `_SubParsersAction`), which any
Python release may change. Two things here need that list: `--debug` is added to every parser of the
tree, and a stopped run prints the exact command that resumes it (patience/runs/stops.py). So the
parsers record what was added to them, through argparse's public calls only.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


class Subcommands(Protocol):
    """What `add_subparsers` returns, as each command's `register` uses it (argparse names its class
    privately, so the commands name this instead)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


@dataclass(frozen=True)
class Added:
    """One `add_argument` call: the action argparse made, and the kind it was asked for (`store`,
    `store_true`, `store_const`, `append`, `help`, `version`...; `custom` for an Action class)."""

    action: argparse.Action
    kind: str


class RecordingParser(argparse.ArgumentParser):
    """An ArgumentParser whose `added` lists every argument added to it or to its groups, and whose
    `subcommands` lists the parsers of its subcommands (each once: aliases share a parser)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.added: list[Added] = []  # before argparse's own __init__, which adds -h
        self._subcommand_groups: list[Any] = []
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        return self._recorded(super().add_argument, args, kwargs)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        return self._recording_group(super().add_argument_group(*args, **kwargs))

    def add_mutually_exclusive_group(self, *args: Any, **kwargs: Any) -> Any:
        return self._recording_group(super().add_mutually_exclusive_group(*args, **kwargs))

    def add_subparsers(self, *args: Any, **kwargs: Any) -> Any:
        group = super().add_subparsers(*args, **kwargs)
        self._subcommand_groups.append(group)
        return group

    @property
    def subcommands(self) -> list[argparse.ArgumentParser]:
        return list(dict.fromkeys(parser for group in self._subcommand_groups for parser in group.choices.values()))

    def _recorded(self, add: Callable[..., argparse.Action], args: tuple[Any, ...],
                  kwargs: dict[str, Any]) -> argparse.Action:
        action = add(*args, **kwargs)
        kind = kwargs.get("action", "store")
        self.added.append(Added(action, kind if isinstance(kind, str) else "custom"))
        return action

    def _recording_group(self, group: Any) -> Any:
        """`group` with its `add_argument` recording into this parser (the group's actions are the parser's)."""
        add = group.add_argument
        group.add_argument = lambda *args, **kwargs: self._recorded(add, args, kwargs)
        return group
