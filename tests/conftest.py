"""Fixtures shared by the tests (helper functions and paths are in tests/helpers.py)."""

from __future__ import annotations

import pytest

from patience.formats import read_deal
from tests.helpers import INSTANCES


@pytest.fixture
def paper_deal():
    return read_deal(INSTANCES / "black_hole" / "paper-example.txt")
