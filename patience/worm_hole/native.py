"""Worm Hole's hooks into the native runner and the survey: its search under a run's limits, every
play it reports replayed before it is believed."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from patience.errors import UsageError
from patience.result import Answer, Status
from patience.runs.process import CPU_REACHED, TIME_REACHED, Limits
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.rules import move_name, replay
from patience.worm_hole.search import Outcome, search

SURVEY_MEMORY_MB = 1024  # the most a survey's search keeps in its memo (a worker each)
_LIMIT_MESSAGES = {Status.TIMEOUT: TIME_REACHED, Status.UNKNOWN: "node limit reached"}


class UntrustedSearch(RuntimeError):
    """The search reported a play the validator rejects: a bug, never a verdict."""


def checked(deal: WormHoleDeal, outcome: Outcome) -> Outcome:
    """`outcome`, once its play (a win, or max-cards' longest play) replays as claimed."""
    if outcome.moves is None:
        return outcome
    played = replay(deal, outcome.moves, complete=outcome.status is Status.SOLVED)
    cards = sum(not move.park for move in outcome.moves)
    if not played.valid or cards != outcome.max_cards:
        raise UntrustedSearch(f"the search's play of {cards} cards (claimed {outcome.max_cards}) does not "
                              f"replay: {played.fault}")
    return outcome


def native_search(deal: WormHoleDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
    """The native runner's hook: the search under what is left of the run's limits. Of the runner's
    options, `engine` (c or python; c where it is built by default), `nodes`, `max-cards`, `cache` (the
    memo), `reach` (the reach and balance rules), `symmetry` (the leaf rule) and `restarts` apply."""
    started, cpu_started = time.monotonic(), time.process_time()
    max_cards = bool(options.get("max-cards"))
    try:
        found = search(deal, max_cards, options.get("nodes"), limits.timeout, limits.cpu_limit,
                       stranded=options.get("reach", True) is not False,
                       leaves=options.get("symmetry", True) is not False,
                       memo=options.get("cache", True) is not False, memory_mb=limits.memory_mb,
                       restarts=options.get("restarts", True) is not False, engine=options.get("engine"))
    except ValueError as error:  # engine=c where it is not built, or no such engine
        raise UsageError(f"engine={options.get('engine')}: {error}") from None
    outcome = checked(deal, found)
    wall, cpu = time.monotonic() - started, time.process_time() - cpu_started
    stats: dict[str, float | int | str] = {"engine": outcome.engine, "cached_states": outcome.cached,
                                           "nodes_per_s": round(outcome.nodes / wall) if wall > 0 else 0}
    if max_cards:
        stats["max_cards"] = outcome.max_cards
    if outcome.status is Status.SOLVED:
        return Answer(Status.SOLVED, outcome.moves, wall, cpu, outcome.nodes, stats)
    if outcome.status is Status.UNSOLVABLE:
        if outcome.moves:
            stats["longest_play"] = " ".join(move_name(deal, move) for move in outcome.moves)
        return Answer(Status.UNSOLVABLE, None, wall, cpu, outcome.nodes, stats)
    message = CPU_REACHED if outcome.cpu_limited else _LIMIT_MESSAGES[outcome.status]
    return Answer(outcome.status, None, wall, cpu, outcome.nodes, stats, message=message)


def survey_search(deal: WormHoleDeal, seconds: float | None, nodes: int | None,
                  max_cards: bool) -> tuple[Status, int, int]:
    """The survey's hook: (verdict, most cards played, nodes) within `seconds` of CPU, the play replayed;
    the compiled search where it is built, else the Python one."""
    from patience.survey.decide import UntrustedPlay, verdict

    try:
        outcome = checked(deal, search(deal, max_cards, nodes, None, seconds, memory_mb=SURVEY_MEMORY_MB))
    except UntrustedSearch as error:
        raise UntrustedPlay(str(error)) from None
    return verdict(outcome.status), outcome.max_cards, outcome.nodes
