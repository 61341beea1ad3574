"""The Python API's argument checks: every public function checks what it is given before anything runs,
so a wrong type or value is one `UsageError` naming the argument, never an AttributeError, TypeError or
OverflowError from deep inside, nor a false `timeout` or `memout`.

Numbers go through patience/numeric.py's bounded readers with the command line's bounds
(patience/caps.py: the same as `--timeout`, `--cpu`, `--memory`, `--jobs`, `--seed` take): `inf`,
`1e300`, `2**70` and a float where a whole number is meant are refused there as on the command line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from patience.caps import MAX_JOBS, MAX_MEMORY_MB, MAX_NODES, MAX_SECONDS, MAX_SEED
from patience.errors import UsageError
from patience.numeric import real_value, whole_value

if TYPE_CHECKING:
    from patience.games import AnyDeal, Game
    from patience.runs.process import Limits

PathLike = str | os.PathLike  # a file or folder as the API takes it (bytes are refused: names are text)


def _kind(value: object) -> str:
    """A value's type as an error line names it."""
    return "None" if value is None else type(value).__name__


def text(value: object, what: str, *, optional: bool = False) -> str:
    """`value` if it is a str (or None when `optional`), else a usage error naming `what`."""
    if isinstance(value, str) or (optional and value is None):
        return value  # type: ignore[return-value]
    raise UsageError(f"{what} must be text (a str){' or None' if optional else ''}, not {_kind(value)}")


def choice(value: object, what: str, choices: Iterable[str]) -> str:
    """`value` if it is one of `choices`, else a usage error naming `what` and the choices."""
    known = tuple(choices)
    if isinstance(value, str) and value in known:
        return value
    shown = repr(value) if isinstance(value, str) else _kind(value)
    raise UsageError(f"{what} must be one of {', '.join(known)}, not {shown}")


def flag(value: object, what: str) -> bool:
    """`value` if it is a bool (True or False), else a usage error naming `what`."""
    if isinstance(value, bool):
        return value
    raise UsageError(f"{what} must be True or False, not {_kind(value)}")


def path(value: object, what: str, *, optional: bool = False) -> str:
    """The path `value` names (a str or an os.PathLike of text), else a usage error naming `what`."""
    if optional and value is None:
        return None  # type: ignore[return-value]
    if isinstance(value, str | os.PathLike):
        named = os.fspath(value)
        if isinstance(named, str) and named:
            return named
    raise UsageError(f"{what} must be a path (a str or pathlib.Path){' or None' if optional else ''}, "
                     f"not {_kind(value) if not isinstance(value, str) else 'an empty str'}")


def whole(value: object, what: str, low: int = 0, high: int = MAX_SEED, *, optional: bool = False) -> int:
    """A whole number (an int, not a bool, not a float) in low..high, else a usage error naming `what`."""
    if optional and value is None:
        return None  # type: ignore[return-value]
    if isinstance(value, str):
        raise UsageError(f"{what} must be a whole number (an int), not a str")
    return whole_value(value, what, low, high)


def seconds(value: object, what: str, *, optional: bool = False) -> float:
    """A time limit as `--timeout` takes it: a number above 0 and at most MAX_SECONDS (`inf`, `nan`,
    `1e300` and `2**70` refused), else a usage error naming `what`."""
    if optional and value is None:
        return None  # type: ignore[return-value]
    if isinstance(value, str):
        raise UsageError(f"{what} must be a number of seconds (an int or a float), not a str")
    return real_value(value, what, 0, MAX_SECONDS, above_low=True)


def limits(timeout: object, cpu: object, memory: object) -> Limits:
    """The limits of one run, each checked as its command-line option is (`--timeout`, `--cpu`,
    `--memory` in MiB, a whole number)."""
    from patience.runs.process import Limits

    return Limits(timeout=seconds(timeout, "timeout"), cpu=seconds(cpu, "cpu", optional=True),
                  memory_mb=whole(memory, "memory", 1, MAX_MEMORY_MB, optional=True))


def jobs(value: object, what: str = "jobs") -> int:
    """Worker processes, as `--jobs` takes them."""
    return whole(value, what, 1, MAX_JOBS)


def nodes(value: object, what: str = "nodes") -> int | None:
    """A node limit (None: none), as `--nodes` takes it."""
    return whole(value, what, 1, MAX_NODES, optional=True)


def keywords(options: dict[str, object], what: str) -> dict[str, object]:
    """Solver or generator options given as keywords: each value a str, a bool or a number (an option's
    value on the command line), else a usage error naming the option."""
    for name, value in options.items():
        if not isinstance(value, str | bool | int | float):
            raise UsageError(f"{what} option {name}= must be text, a number or True/False, not {_kind(value)}")
    return options


def deal_or_path(value: object, what: str = "deal") -> AnyDeal:
    """A deal given as itself or as the path of its file; a usage error naming `what` for anything else."""
    from patience.games import read_game_deal

    if isinstance(value, str | os.PathLike):
        return read_game_deal(path(value, what))[1]
    game_of_deal(value, what)
    return value  # type: ignore[return-value]


def is_deal(value: object) -> bool:
    """Whether `value` is a deal object of one of the games."""
    from patience.games import game_of

    try:
        game_of(cast("AnyDeal", value))
    except TypeError:
        return False
    return True


def game_of_deal(value: object, what: str = "deal") -> Game[Any]:
    """The game of a deal object; a usage error naming `what` for anything else."""
    from patience.games import game_of

    try:
        return game_of(cast("AnyDeal", value))
    except TypeError:
        raise UsageError(f"{what} must be a deal (made by patience.deal, random_deal, read_deal or parse_deal) "
                         f"or a deal file's path, not {_kind(value)}") from None
