"""Run a named solver on a deal of any game and judge its answer: the one road from deal to result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patience.errors import InputError, UsageError
from patience.games import AnyDeal, game_of
from patience.options import check_options
from patience.result import Answer, Result, Status, judge
from patience.runners.base import Solver
from patience.runners.registry import get_solver
from patience.runs.process import LimitReached, Limits, enforced


def checked_solver(solver_name: str, game: str, options: Mapping[str, str]) -> tuple[Solver, dict[str, Any]]:
    """The solver and its typed options; a usage error for an unknown solver, a game (a name of
    patience.names) it does not play, or an option (or value) it does not have."""
    solver = get_solver(solver_name)
    if game not in solver.games:
        raise UsageError(f"{solver_name} does not play {game} deals; it plays: {', '.join(solver.games)}")
    return solver, check_options(solver.options, options, solver_name)


def solve(deal: AnyDeal, solver_name: str, limits: Limits, options: Mapping[str, str] | None = None) -> Result:
    """Decide `deal` (of any game) with `solver_name`; the answer is validated before anything calls it solved.

    The limits cover the whole solve up to the solver's answer, counted from this call (or from
    earlier, if the caller started them counting: a command, from its start): the model's encoding
    in this process and the solver together, and the solve ends a margin after them
    (patience.runs.process.enforced) whatever it is doing. Only the replay of an answer comes after."""
    limits = limits.counting()
    solver, typed = checked_solver(solver_name, game_of(deal).variant(deal), options or {})
    if not solver.available():
        return judge(deal, solver_name, Answer(Status.ERROR, message=f"not installed: {solver.install_hint()}"))
    try:
        with enforced(limits):
            answer = solver.solve(deal, limits, typed)
    except InputError as error:  # the solver's output, not the user's input, was unreadable
        answer = Answer(Status.ERROR, message=f"unreadable solver output: {error}")
    except LimitReached as reached:
        wall, cpu = limits.spent()
        answer = Answer(Status.TIMEOUT, None, wall, cpu, message=reached.message)
    return judge(deal, solver_name, answer, solver.version_of(answer))
