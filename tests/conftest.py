"""Fixtures shared by the tests (helper functions and paths are in tests/helpers.py)."""

from __future__ import annotations

import os
import signal

import pytest

from patience.formats import read_deal
from tests.helpers import INSTANCES

# The `patience` commands the tests start (hundreds) keep their compiled modules: where the environment
# sets PYTHONDONTWRITEBYTECODE (some sandboxes do) each child would compile every module it imports
# again, about 0.1 s of CPU a start.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture
def paper_deal():
    return read_deal(INSTANCES / "black_hole" / "paper-example.txt")


@pytest.fixture
def sigint_raises():
    """Ctrl-C raises KeyboardInterrupt in this process for the test, as in a terminal, even when the
    suite was started with SIGINT ignored (`pytest ... &` from a script: the shell ignores it in a
    background job, and Python then leaves it ignored; a raised SIGINT would be lost and the test hang)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
