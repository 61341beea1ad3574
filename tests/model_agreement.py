"""What the model tests of Golf and Worm Hole share: the solvers they run, and the check that a
solver's verdict on small deals is the native search's, with every win replayed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import needs_solver

LIMITS = Limits(timeout=60)
SAT_SOLVERS = ["sat", "sat-glucose", pytest.param("cadical", marks=needs_solver("cadical"))]
# fd-ff by default; fd-lama and pyperplan in the slow set (a planner run is a process of its own)
PLANNERS = [pytest.param("fd-ff", marks=needs_solver("fd-ff")),
            *(pytest.param(name, marks=[needs_solver(name), pytest.mark.slow]) for name in ("fd-lama", "pyperplan"))]
ASP_CP_AND_MIP_SOLVERS = [*(pytest.param(name, marks=needs_solver(name))
                            for name in ("clingo", "minizinc", "highs", "cbc")),
                          pytest.param("cpsat", marks=[needs_solver("cpsat"), pytest.mark.slow]),  # OR-Tools a run
                          pytest.param("ace", marks=[needs_solver("ace"), pytest.mark.slow])]  # a JVM a run


def agreement(name: str, deals: Iterable[tuple[object, Any]], search: Callable[[Any], Any],
              replay: Callable[[Any, Any], Any]) -> Counter[bool]:
    """Run solver `name` on each (label, deal): its verdict is `search`'s, and a win `replay`s;
    the count of won (True) and lost (False) deals."""
    verdicts: Counter[bool] = Counter()
    for label, deal in deals:
        result = solve(deal, name, LIMITS)
        truth = search(deal).status
        assert truth in (Status.SOLVED, Status.UNSOLVABLE)
        assert result.status is truth, (name, label, result.message)
        if truth is Status.SOLVED:  # judged: solved only after the replay accepted it
            assert replay(deal, result.sequence).valid
        verdicts[truth is Status.SOLVED] += 1
    return verdicts
