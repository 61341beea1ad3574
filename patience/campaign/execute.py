"""A campaign's tasks: what one run is (a deal, a configuration, the limits), the order they run in,
and running one in a worker (`run_task`, on the one pool of patience.runs.pool). Workers only run
`patience.runners.solve.solve` and return a plain record; this process checks each record again
with the validator (`recheck`) before it is stored."""

from __future__ import annotations

import json
import os
import random
import socket
from collections.abc import Sequence
from dataclasses import dataclass, replace

from patience.campaign.config import Configuration
from patience.campaign.record import RunRecord, stored_moves
from patience.errors import InputError
from patience.result import SolverResult, Status, to_record
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.runs.specs import NamedDeal


@dataclass(frozen=True)
class Task:
    """One run to do: a deal, a configuration, the campaign's limits."""

    deal: NamedDeal
    configuration: Configuration
    limits: Limits


def plan(deals: Sequence[NamedDeal], configurations: Sequence[Configuration], limits: Limits,
         finished: set[tuple[str, str, str]], seed: int) -> list[Task]:
    """Every deal x configuration without a stored row (on the deal's content now): the deals shuffled
    so that no deal family meets the machine's busiest (or quietest) minutes more than another, and
    each deal's configurations next to each other, in a shuffled order, so that they meet the same
    minutes and a campaign stopped part way has its deals finished by every configuration, which its
    report compares, not a few runs of each deal."""
    shuffle = random.Random(seed).shuffle
    order = list(deals)
    shuffle(order)
    tasks = []
    for deal in order:
        todo = [Task(deal, configuration, limits) for configuration in configurations
                if (deal.name, deal.content, configuration.label) not in finished]
        shuffle(todo)
        tasks += todo
    return tasks


def run_task(task: Task) -> RunRecord:
    """Run one task (in a worker) and return its store row; a crash of the runner is an error row."""
    configuration, named = task.configuration, task.deal
    try:
        result = solve(named.deal, configuration.solver, task.limits, dict(configuration.options))
    except Exception as error:  # a broken runner must cost one row, not the campaign
        result = SolverResult(configuration.solver, Status.ERROR, None, 0.0, 0.0,
                              message=f"runner failed: {type(error).__name__}: {error}")
    record = to_record(named.deal, result)
    return RunRecord(
        named.name, configuration.label, configuration.solver, configuration.options_json, result.status,
        None if record["sequence"] is None else " ".join(record["sequence"]),
        result.wall, result.cpu, result.nodes, result.version, f"{socket.gethostname()}:{os.getpid()}",
        result.command, result.message, json.dumps(record["stats"], sort_keys=True), content=named.content)


def recheck(task: Task, record: RunRecord) -> RunRecord:
    """Replay a worker's winning sequence here too: a remote worker is trusted no more than a solver."""
    if record.status is not Status.SOLVED:
        return record
    named = task.deal
    try:
        moves = stored_moves(named.game, named.deal, str(record.sequence), f"{named.name} sequence")
        outcome = named.game.replay(named.deal, moves)
        fault = None if outcome.valid else outcome.fault
    except InputError as error:
        fault = str(error)
    if fault is None:
        return record
    return replace(record, status=Status.ERROR, sequence=None,
                   message=f"worker's sequence rejected by the validator: {fault}")
