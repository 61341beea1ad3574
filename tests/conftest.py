"""Shared test helpers: deal loading and skipping tests whose solver is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience.formats import read_deal
from patience.runners.registry import get_solver

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
SHARED = ROOT.parent / "shared"


def needs_solver(name: str) -> pytest.MarkDecorator:
    """Skip a test, with the install hint as the reason, when solver `name` is not installed."""
    solver = get_solver(name)
    return pytest.mark.skipif(not solver.available(), reason=f"{name} not installed: {solver.install_hint()}")


@pytest.fixture
def paper_deal():
    return read_deal(INSTANCES / "black_hole" / "paper-example.txt")
