"""A campaign's tasks: what one run is (a deal, a configuration, the limits), the order they run in,
and running one in a worker (`run_task`, on the one pool of patience.runs.pool). Workers only run
`patience.runners.solve.solve` and return a plain record (with `certify`, and the certificate of a
loss: `Certified`); this process checks each record again with the validator (`recheck`) before it
is stored."""

from __future__ import annotations

import os
import random
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from patience.campaign.config import Configuration
from patience.campaign.record import RunRecord, stored_moves
from patience.errors import InputError
from patience.result import Answer, Status, judge
from patience.runners.solve import checked_solver, solve
from patience.runs.process import Limits
from patience.runs.specs import NamedDeal


@dataclass(frozen=True)
class Task:
    """One run to do: a deal, a configuration, the campaign's limits."""

    deal: NamedDeal
    configuration: Configuration
    limits: Limits
    certify: bool = False  # a loss gets a certificate (docs/certificates.md), made in the worker


WON = "won"  # what `certificate` says of a loss whose pass found a win


class Certified(NamedTuple):
    """A certified campaign's run: its record and, for a loss, its certificate (positions, the pass's
    seconds, the file's bytes), or None when the pass reached the limits or the run is no loss."""

    record: RunRecord
    certificate: tuple[int, float, bytes] | None


def plan(deals: Sequence[NamedDeal], configurations: Sequence[Configuration], limits: Limits,
         finished: set[tuple[str, str, str]], seed: int, certify: bool = False) -> list[Task]:
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
        todo = [Task(deal, configuration, limits, certify) for configuration in configurations
                if (deal.name, deal.content, configuration.label) not in finished]
        shuffle(todo)
        tasks += todo
    return tasks


def run_task(task: Task) -> RunRecord | Certified:
    """Run one task (in a worker) and return its store row (`certify`: with its loss's certificate); a
    crash of the runner is an error row."""
    configuration, named = task.configuration, task.deal
    try:
        result = solve(named.deal, configuration.solver, task.limits, dict(configuration.options))
    except Exception as error:  # a broken runner must cost one row, not the campaign
        result = judge(named.deal, configuration.solver,
                       Answer(Status.ERROR, message=f"runner failed: {type(error).__name__}: {error}"))
    row = RunRecord.kept(named, configuration, result, f"{socket.gethostname()}:{os.getpid()}")
    if not task.certify or result.status is not Status.UNSOLVABLE:
        return Certified(row, None) if task.certify else row
    made = certificate(task)
    if made == WON:  # the solver's loss is wrong: the run is an error, as a win that does not replay is
        return Certified(replace(row, status=Status.ERROR, message=f"{row.solver} said unsolvable; the "
                                 "certificate pass found a win"), None)
    return Certified(row, None if isinstance(made, str) else made)


def certificate(task: Task) -> tuple[int, float, bytes] | str | None:
    """The certificate pass on a task's loss (patience.certificates.certificate_pass: the compiled search's own
    failure cache where it plays the game, of the max-cards search when the configuration runs with max-cards on),
    in this worker, under the task's time and CPU limits (as `survey --certify` does): (positions, seconds, the
    file), None at a limit, WON for a win."""
    from patience.certificates import certificate_pass

    started, deal = time.perf_counter(), task.deal.deal
    _, typed = checked_solver(task.configuration.solver, task.deal.game.variant(deal), dict(task.configuration.options))
    found = certificate_pass(deal, task.limits.timeout, task.limits.cpu, bool(typed.get("max-cards")),
                             task.limits.memory_mb)
    if found.won:
        return WON
    if found.limited_by is not None:
        return None
    return found.count, time.perf_counter() - started, found.file(deal)


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
