"""Argument types for the resource limits every solving command takes (positive numbers only)."""

from __future__ import annotations

import argparse


def seconds(text: str) -> float:
    """A time limit: a number of seconds above zero (a zero or negative limit would never run)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def mebibytes(text: str) -> int:
    """A memory limit in MiB, a whole number above zero."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of MiB: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1 MiB, not {text}")
    return value
