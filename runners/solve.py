"""Run a named solver on a deal and judge its answer: the one road from deal to result."""

from __future__ import annotations

from collections.abc import Mapping

from patience.deal import Deal
from patience.result import Answer, SolverResult, Status, judge
from patience.runners.process import Limits
from patience.runners.registry import get_solver


def solve(deal: Deal, solver_name: str, limits: Limits, options: Mapping[str, str] | None = None) -> SolverResult:
    """Decide `deal` with `solver_name`; the answer is validated before anything calls it solved."""
    solver = get_solver(solver_name)
    if not solver.available():
        return judge(deal, solver_name, Answer(Status.ERROR, message=f"not installed: {solver.install_hint()}"))
    answer = solver.solve(deal, limits, dict(options or {}))
    return judge(deal, solver_name, answer, solver.version())
