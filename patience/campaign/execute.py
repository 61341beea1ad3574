"""Running a campaign's tasks: a local process pool by default, a Dask cluster with a scheduler
address. Workers only run `patience.runners.solve.solve` and return a plain record; this process
checks each record again with the validator and stores it the moment it arrives."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from multiprocessing import get_context
from typing import TypeVar

from patience.campaign.config import Configuration
from patience.campaign.record import RunRecord, stored_moves
from patience.campaign.specs import NamedDeal
from patience.errors import InputError, UsageError, quote
from patience.numeric import whole
from patience.result import SolverResult, Status, to_record
from patience.runners.process import Limits, descendants, end_processes
from patience.runners.solve import solve

Work = TypeVar("Work")
Result = TypeVar("Result")


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
        named.name, configuration.label, configuration.solver, configuration.options_json, result.status.value,
        None if record["sequence"] is None else " ".join(record["sequence"]),
        result.wall, result.cpu, result.nodes, result.version, f"{socket.gethostname()}:{os.getpid()}",
        result.command, result.message, json.dumps(record["stats"], sort_keys=True))


def recheck(task: Task, record: RunRecord) -> RunRecord:
    """Replay a worker's winning sequence here too: a remote worker is trusted no more than a solver."""
    if record.status != Status.SOLVED.value:
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
    return replace(record, status=Status.ERROR.value, sequence=None,
                   message=f"worker's sequence rejected by the validator: {fault}")


CONNECT_SECONDS = 10.0
JOBS_PER_CPU = 4
_WATCH_SECONDS = 0.5
_UNWIND_SECONDS = 1.0
_STOP_SECONDS = 1.0  # a stopped worker's time to kill its solver's group and exit, then theirs to go


_stopping = False  # set in a pool worker once its campaign is gone


def _stop(signal_number: int, frame: object) -> None:
    global _stopping
    _stopping = True
    raise SystemExit(128 + signal_number)


def _watch(campaign: int) -> None:
    while os.getppid() == campaign:
        time.sleep(_WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)  # unwinds the run: run_process kills its solver's group
    time.sleep(_UNWIND_SECONDS)
    os._exit(1)


def _die_with_campaign(campaign: int) -> None:
    """Pool worker start: a worker orphaned by the campaign's death (even by SIGKILL) stops its run,
    so that no solver is left running, and exits instead of waiting for tasks forever."""
    signal.signal(signal.SIGTERM, _stop)
    threading.Thread(target=_watch, args=(campaign,), daemon=True).start()


def _run_in_worker(task: Task) -> RunRecord:
    """`run_task` in a pool worker. The pool would hand a stopped worker its next queued task, and
    a solver started then would outlive the worker; so once the run has unwound, the worker exits."""
    try:
        return run_task(task)
    finally:
        if _stopping:
            os._exit(1)


def pool_size(jobs: int, tasks: int) -> int:
    """Local workers for `tasks` tasks when `jobs` are asked for: never more than the tasks, nor more
    than JOBS_PER_CPU per CPU this process may use (more would only make the runs wait for a core
    while their wall clocks run, or exhaust the machine)."""
    return max(1, min(jobs, tasks, JOBS_PER_CPU * len(os.sched_getaffinity(0))))


def submit_all(pool: ProcessPoolExecutor, function: Callable[[Work], Result], work: Sequence[Work]) -> list[Future]:
    """Submit every item. The workers start (at submission) with Ctrl-C blocked: a terminal sends it to
    the whole process group, and it is this process, not each worker, that stops the work."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return [pool.submit(function, item) for item in work]
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a Ctrl-C meanwhile is raised here


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now, leaving no process behind. Leaving it the usual way would wait for the work in
    flight, up to a whole time limit. SIGTERM makes a campaign worker unwind its run, which kills its
    solver's process group, and exit; a worker still there after a moment is killed, and so is every
    process it had started, and this waits until they are gone (a killed JVM takes a second)."""
    workers = list((pool._processes or {}).values())  # the pool has no public handle on its workers
    below = descendants(worker.pid for worker in workers)
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    deadline = time.monotonic() + _STOP_SECONDS
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.exitcode is None:
            worker.kill()
            worker.join()
    end_processes(below, _STOP_SECONDS)


def run_local(tasks: Sequence[Task], jobs: int) -> Iterator[tuple[Task, RunRecord]]:
    """Run tasks on local worker processes (children of this one), yielding each result as it finishes."""
    if not tasks:
        return
    with ProcessPoolExecutor(max_workers=pool_size(jobs, len(tasks)), mp_context=get_context("spawn"),
                             initializer=_die_with_campaign, initargs=(os.getpid(),)) as pool:
        futures = dict(zip(submit_all(pool, _run_in_worker, tasks), tasks, strict=True))
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:  # Ctrl-C, SIGTERM, an error, or the caller stopped early
            stop_pool(pool)
            raise


def connect(scheduler: str):
    """A Dask client of the scheduler at `scheduler` (tcp://HOST:PORT); UsageError if unreachable."""
    from distributed import Client

    _, colon, port = scheduler.rpartition(":")
    if colon and port.isdigit():  # Dask's own parse overflows a C long on a port of 20 digits
        whole(port, f"the port of the Dask scheduler {quote(scheduler)}", 1, 65535)
    try:
        return Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, OverflowError) as error:
        raise UsageError(f"cannot reach the Dask scheduler {quote(scheduler)}: {quote(str(error))[1:-1]}") from None


def run_dask(tasks: Sequence[Task], client) -> Iterator[tuple[Task, RunRecord]]:
    """Run tasks on a Dask cluster, yielding results as they come; closes the client at the end."""
    from distributed import as_completed as dask_completed

    try:
        futures = client.map(run_task, tasks, pure=False)
        owners = {future.key: task for future, task in zip(futures, tasks, strict=True)}
        for future in dask_completed(futures):
            yield owners[future.key], future.result()
    finally:
        client.close()


def executor(jobs: int, scheduler: str | None) -> Callable[[Sequence[Task]], Iterator[tuple[Task, RunRecord]]]:
    """How the tasks will run; a scheduler is connected to at once, so that a wrong address fails early."""
    if scheduler:
        client = connect(scheduler)
        return lambda tasks: run_dask(tasks, client)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return lambda tasks: run_local(tasks, jobs)
