"""The one bounded parser for every number that comes from outside: files, options, experiment YAML.

`int()` on a 5,000-digit string raises ValueError (Python's digit limit), `float('1e300')` seconds
overflow a solver's millisecond limit, YAML reads `.inf` and `1.0` as floats and `true` as an int
(bool is a subclass of int). Every such number goes through this module instead: a text number
must be ASCII digits (at most MAX_DIGITS of them, checked before `int()` runs), a value read by
YAML or JSON must have the right type (never a bool), and every number must lie in its range.
Anything else is refused as bad input: an InputError naming the file and line when a `source` is
given, else a NumberError (a UsageError and a ValueError: an option, or a reader names the file),
so the user sees one line and exit status 2.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import NoReturn, TypeGuard

from patience.errors import InputError, UsageError, quote

MAX_DIGITS = 24  # a whole number written with more digits is refused before int() reads it
_WHOLE = re.compile(rf"[-+]?[0-9]{{1,{MAX_DIGITS}}}")
_REAL = re.compile(rf"[-+]?(?:[0-9]{{1,{MAX_DIGITS}}}(?:\.[0-9]{{0,{MAX_DIGITS}}})?|\.[0-9]{{1,{MAX_DIGITS}}})"
                   r"(?:[eE][-+]?[0-9]{1,3})?")
_COUNT = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
LARGEST = 10 ** MAX_DIGITS - 1  # the largest whole number the parser reads at all


class NumberError(UsageError, ValueError):
    """A number refused where no file is known: a usage error to the command line, and a ValueError to
    a reader that catches those to name its file and line (as a card's reader does)."""


def refuse(message: str, source: str | None = None, line: int | None = None) -> NoReturn:
    """Bad input: an InputError naming `source` (and `line`) when given, else a NumberError."""
    if source is None:
        raise NumberError(message)
    raise InputError(source, line, message)


def whole(text: str, what: str, low: int, high: int, source: str | None = None, line: int | None = None) -> int:
    """The whole number `text` writes (ASCII digits, a sign allowed, surrounding blanks ignored), in
    low..high; refused otherwise, naming `what`."""
    token = text.strip()
    if not _WHOLE.fullmatch(token):
        refuse(f"{_must(what)} a whole number {_span(low, high)}, not {quote(token)}", source, line)
    return _within(int(token), what, low, high, source, line)


def real(text: str, what: str, low: float, high: float, source: str | None = None, line: int | None = None,
         above_low: bool = False) -> float:
    """The finite decimal number `text` writes, in low..high (strictly above `low` with `above_low`);
    `inf`, `nan`, hexadecimal and anything longer than a number needs are refused."""
    token = text.strip()
    if not _REAL.fullmatch(token):
        refuse(f"{_must(what)} a number {_span(low, high, above_low)}, not {quote(token)}", source, line)
    return _within(float(token), what, low, high, source, line, above_low)


def whole_or_none(token: str) -> int | None:
    """The integer an ASCII token of at most MAX_DIGITS digits (and a sign) writes, else None: for
    readers that word their own refusal (`not a literal: ...`)."""
    return int(token) if _WHOLE.fullmatch(token) else None


def count_or_none(given: str | float | int | None) -> int | None:
    """A count a solver printed (nodes, conflicts) as an int, or None when it is not ASCII digits (at
    most MAX_DIGITS) or a whole float in range: statistics are reported, never trusted, and a strange
    one (`²`, `1e400`, `nan`, 5,000 digits) is simply not known."""
    if isinstance(given, float):
        return int(given) if given.is_integer() and 0 <= given <= LARGEST else None
    if is_whole(given):
        return given if 0 <= given <= LARGEST else None
    return whole_or_none(given) if isinstance(given, str) and _COUNT.fullmatch(given) else None


def is_whole(value: object) -> TypeGuard[int]:
    """Whether YAML or JSON data is a whole number: an int, and not a bool (`true` is no 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_value(value: object, what: str, low: int, high: int, source: str | None = None,
                line: int | None = None) -> int:
    """A whole number read by YAML or JSON: an int (not a bool, not a float such as 1.0) in low..high;
    text such as "4" is read as `whole` reads it."""
    if isinstance(value, str):
        return whole(value, what, low, high, source, line)
    if not is_whole(value):
        refuse(f"{_must(what)} a whole number {_span(low, high)}, not {_shown(value)}", source, line)
    return _within(value, what, low, high, source, line)


def real_value(value: object, what: str, low: float, high: float, source: str | None = None,
               line: int | None = None, above_low: bool = False) -> float:
    """A number read by YAML or JSON (an int or a finite float, not a bool) in low..high, as a float;
    text such as "1e3" (YAML 1.1 reads a float only with a dot) is read as `real` reads it."""
    if isinstance(value, str):
        return real(value, what, low, high, source, line, above_low)
    if isinstance(value, bool) or not isinstance(value, int | float):
        refuse(f"{_must(what)} a number {_span(low, high, above_low)}, not {_shown(value)}", source, line)
    if isinstance(value, int) and not low <= value <= high:  # float() of a huge int would overflow
        _within(value, what, low, high, source, line)
    return _within(float(value), what, low, high, source, line, above_low)


def whole_argument(low: int, high: int, what: str = "") -> Callable[[str], int]:
    """An argparse `type=` for a whole-number option in low..high."""
    def parse(text: str) -> int:
        try:
            return whole(text, what, low, high)
        except UsageError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    parse.__name__ = "whole number"  # argparse names the type in some messages
    return parse


def real_argument(low: float, high: float, above_low: bool = False, what: str = "") -> Callable[[str], float]:
    """An argparse `type=` for a decimal option in low..high (strictly above `low` with `above_low`)."""
    def parse(text: str) -> float:
        try:
            return real(text, what, low, high, above_low=above_low)
        except UsageError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    parse.__name__ = "number"
    return parse


def _within(value, what: str, low, high, source: str | None, line: int | None, above_low: bool = False):
    if (value <= low if above_low else value < low) or value > high or (isinstance(value, float)
                                                                          and not math.isfinite(value)):
        refuse(f"{_must(what)} {_span(low, high, above_low)}, not {_shown(value)}", source, line)
    return value


def _must(what: str) -> str:
    """`WHAT must be`, or `must be` alone after argparse's own `argument --flag:`."""
    return f"{what} must be" if what else "must be"


def _span(low: float, high: float, above_low: bool = False) -> str:
    return f"{'above' if above_low else 'from'} {_bound(low)} {'and at most' if above_low else 'to'} {_bound(high)}"


def _bound(number: float) -> str:
    """A range's end as people write it: `1,000,000`, `0.5`, `1e+300` (never 301 digits)."""
    if float(number).is_integer() and abs(number) < 1e18:
        return f"{int(number):,}"
    return f"{number:g}"


def _shown(value: object) -> str:
    """A value as the error line shows it: a huge int by its digit count, anything else quoted short."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) and abs(value) > LARGEST:  # str() of a huge int is slow, or refused past 4,300 digits
        return f"a number of about {int(value.bit_length() * math.log10(2)) + 1:,} digits"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return repr(value)
    return quote(str(value)) if isinstance(value, str) else quote(repr(value))
