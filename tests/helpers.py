"""Shared test helpers: where the instances are, skipping tests whose solver is not installed, process checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience.generators.reduction import Formula
from patience.runners.registry import get_solver

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
COURSE = INSTANCES / "lbs-coursework"  # the LBS coursework instances with their Savile Row output
# The smallest unsatisfiable 3-SAT formula: all eight clauses over three variables (a deal of 78 cards).
EVERY_CLAUSE = Formula(3, tuple((a, b, c) for a in (1, -1) for b in (2, -2) for c in (3, -3)))


def needs_solver(name: str) -> pytest.MarkDecorator:
    """Skip a test, with the install hint as the reason, when solver `name` is not installed."""
    solver = get_solver(name)
    return pytest.mark.skipif(not solver.available(), reason=f"{name} not installed: {solver.install_hint()}")


def process_alive(pid: int) -> bool:
    """Running or sleeping; a killed process may linger as a zombie until its new parent reaps it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")
