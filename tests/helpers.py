"""Shared test helpers: where the instances are, skipping tests whose solver is not installed, process checks."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TypeVar

import pytest
from pysat.solvers import Solver as PySatSolver

from patience.binary_star.deal import BINARY_STAR, BinaryStarDeal
from patience.cli import main
from patience.generators.deals import pysol_deal
from patience.generators.reduction import Formula
from patience.native import engine
from patience.runners.registry import get_solver

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
COURSE = INSTANCES / "lbs-coursework"  # the LBS coursework instances with their Savile Row output
# The smallest unsatisfiable 3-SAT formula: all eight clauses over three variables (a deal of 78 cards).
EVERY_CLAUSE = Formula(3, tuple((a, b, c) for a in (1, -1) for b in (2, -2) for c in (3, -3)))
# How many seeds the slow solver sweeps take: unset, each sweep's CI count (CI runs the whole slow
# set within its budget); `full`, each sweep's full count (by hand: hours on two cores); or a number.
SWEEP_VARIABLE = "PATIENCE_TEST_SWEEP"


def sweep_seeds(full: int, ci: int) -> range:
    """Seeds 1, 2, ... of a slow sweep: `ci` of them unless PATIENCE_TEST_SWEEP asks for `full` or a
    number (read when the tests are collected, so the test ids say which seeds ran)."""
    setting = os.environ.get(SWEEP_VARIABLE, "").strip()
    if not setting:
        return range(1, ci + 1)
    if setting == "full":
        return range(1, full + 1)
    if setting.isdecimal() and int(setting) > 0:
        return range(1, int(setting) + 1)
    raise pytest.UsageError(f"{SWEEP_VARIABLE} must be 'full' or a number of seeds, not {setting!r}")


def needs_solver(name: str) -> pytest.MarkDecorator:
    """Skip a test, with the install hint as the reason, when solver `name` is not installed."""
    solver = get_solver(name)
    return pytest.mark.skipif(not solver.available(), reason=f"{name} not installed: {solver.install_hint()}")


# Tests of the compiled search itself, or too slow on the Python search, skip where it is not built.
needs_compiled_search = pytest.mark.skipif(not engine.compiled(), reason="compiled search not built (pip install -e .)")


def pysolfc_deal(seed: int) -> BinaryStarDeal:
    """PySolFC's Binary Star game number `seed`, dealt by patience.generators.deals as every numbered game."""
    deal = pysol_deal(BINARY_STAR, seed)
    assert isinstance(deal, BinaryStarDeal)
    return deal


def exit_status(argv: list[str]) -> int | str | None:
    """The exit status of `patience ARGV`, also where argparse refuses an argument itself (a number out
    of its option's range) and exits before `main` returns."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


def process_alive(pid: int) -> bool:
    """Running or sleeping; a killed process may linger as a zombie until its new parent reaps it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def processes_with(word: str, field: str = "cmdline") -> list[int]:
    """Live processes but this one whose /proc `field` (cmdline or environ) holds `word`: what a run
    left behind, found by a mark only that run's processes carry."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                text = (entry / field).read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if word in text and process_alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def group_gone(group: int, seconds: float) -> bool:
    """Whether every process of the group ends within `seconds` (orphaned workers finish their run);
    whatever is left then is killed, so that a failing test leaves nothing running."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    os.killpg(group, signal.SIGKILL)
    return False


def stored_rows(db: Path, table: str) -> int:
    """Rows of a store's table so far (0 before the store or its schema exists)."""
    if not db.exists():
        return 0
    try:
        connection = sqlite3.connect(db, timeout=5)
        count = connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        connection.close()
        return count
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


Decoded = TypeVar("Decoded")


def every_model(clauses: Sequence[Sequence[int]], projection: Iterable[int],
                decode: Callable[[set[int]], Decoded]) -> set[Decoded]:
    """Every model of a small formula, decoded from its true variables: each found is blocked on the
    `projection` variables (those that decide the play) until none is left. Tiny formulas only."""
    variables = sorted(set(projection))
    found = set()
    with PySatSolver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            true = {literal for literal in solver.get_model() if literal > 0}
            found.add(decode(true))
            solver.add_clause([-variable if variable in true else variable for variable in variables])
    return found


@contextlib.contextmanager
def benchmark_script(name: str) -> Iterator[ModuleType]:
    """benchmarks/NAME.py loaded as a module (benchmarks/ is not a package), registered in sys.modules
    while in use, since dataclasses look their module up while the script loads."""
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]
