"""Running a campaign's tasks: a local process pool by default, a Dask cluster with a scheduler
address. Workers only run `patience.runners.solve.solve` and return a plain record; this process
checks each record again with the validator and stores it the moment it arrives."""

from __future__ import annotations

import json
import os
import random
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context

from patience.campaign.config import Configuration
from patience.campaign.specs import NamedDeal
from patience.cards import parse_card
from patience.errors import UsageError
from patience.result import SolverResult, Status, to_record
from patience.runners.process import Limits
from patience.runners.solve import solve
from patience.validator import replay


@dataclass(frozen=True)
class Task:
    """One run to do: a deal, a configuration, the campaign's limits."""

    deal: NamedDeal
    configuration: Configuration
    limits: Limits


def plan(deals: Sequence[NamedDeal], configurations: Sequence[Configuration], limits: Limits,
         finished: set[tuple[str, str]], seed: int) -> list[Task]:
    """Every deal x configuration without a stored row, shuffled so that no solver or deal family
    meets the machine's busiest (or quietest) minutes more than another."""
    tasks = [Task(deal, configuration, limits) for deal in deals for configuration in configurations
             if (deal.name, configuration.label) not in finished]
    random.Random(seed).shuffle(tasks)
    return tasks


def run_task(task: Task) -> dict[str, object]:
    """Run one task (in a worker) and return its store row; a crash of the runner is an error row."""
    configuration = task.configuration
    try:
        result = solve(task.deal.deal, configuration.solver, task.limits, dict(configuration.options))
    except Exception as error:  # a broken runner must cost one row, not the campaign
        result = SolverResult(configuration.solver, Status.ERROR, None, 0.0, 0.0,
                              message=f"runner failed: {type(error).__name__}: {error}")
    record = to_record(task.deal.deal, result)
    return {
        "deal": task.deal.name, "configuration": configuration.label, "solver": configuration.solver,
        "options": configuration.options_json, "status": record["status"],
        "sequence": None if record["sequence"] is None else " ".join(record["sequence"]),
        "wall": record["wall"], "cpu": record["cpu"], "nodes": record["nodes"], "version": record["version"],
        "host": f"{socket.gethostname()}:{os.getpid()}", "command": record["command"],
        "message": record["message"], "stats": json.dumps(record["stats"], sort_keys=True),
    }


def recheck(task: Task, record: dict[str, object]) -> dict[str, object]:
    """Replay a worker's winning sequence here too: a remote worker is trusted no more than a solver."""
    if record["status"] != Status.SOLVED.value:
        return record
    try:
        outcome = replay(task.deal.deal, [parse_card(name) for name in str(record["sequence"]).split()])
        fault = None if outcome.valid else outcome.fault
    except ValueError as error:
        fault = str(error)
    if fault is None:
        return record
    return {**record, "status": Status.ERROR.value, "sequence": None,
            "message": f"worker's sequence rejected by the validator: {fault}"}


def run_local(tasks: Sequence[Task], jobs: int) -> Iterator[tuple[Task, dict[str, object]]]:
    """Run tasks on `jobs` worker processes, yielding each result as it finishes."""
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("forkserver")) as pool:
        futures = {pool.submit(run_task, task): task for task in tasks}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def run_dask(tasks: Sequence[Task], scheduler: str) -> Iterator[tuple[Task, dict[str, object]]]:
    """Run tasks on the Dask cluster at `scheduler` (tcp://HOST:PORT), yielding results as they come."""
    from distributed import Client
    from distributed import as_completed as dask_completed

    try:
        client = Client(scheduler, timeout=20)
    except (OSError, TimeoutError) as error:
        raise UsageError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    try:
        futures = client.map(run_task, tasks, pure=False)
        owners = {future.key: task for future, task in zip(futures, tasks, strict=True)}
        for future in dask_completed(futures):
            yield owners[future.key], future.result()
    finally:
        client.close()


def executor(jobs: int, scheduler: str | None) -> Callable[[Sequence[Task]], Iterator[tuple[Task, dict]]]:
    if scheduler:
        return lambda tasks: run_dask(tasks, scheduler)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return lambda tasks: run_local(tasks, jobs)
