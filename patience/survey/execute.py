"""Where batches run: in this process (one job), on local worker processes, or on an existing Dask
cluster. Each hands every batch's result to `keep` (which stores it) the moment the batch is done, in
whatever order they finish. Ctrl-C stops the work at once, but what has finished is kept first."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import TypeVar

from patience.campaign.execute import connect, pool_size, stop_pool, submit_all
from patience.errors import UsageError
from patience.runs.process import stops_deferred

Work = TypeVar("Work")
Result = TypeVar("Result")
Runner = Callable[[Callable[[Work], Result], Sequence[Work], Callable[[Result], None]], None]

_WATCH_SECONDS = 0.5


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)


def _die_with_parent(parent: int) -> None:
    """Pool worker start: a worker whose survey has died (even by kill -9) exits at once instead of
    finishing a batch nobody will store."""
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _keep_whole(keep: Callable[[Result], None], result: Result) -> None:
    """Keep one result with Ctrl-C held until it is stored: a batch is stored whole or not at all,
    and the interruption then comes where the runner can still keep what else has finished."""
    with stops_deferred():
        keep(result)


def run_here(function: Callable[[Work], Result], work: Sequence[Work], keep: Callable[[Result], None]) -> None:
    for item in work:
        _keep_whole(keep, function(item))


def run_local(jobs: int) -> Runner:
    def run(function: Callable[[Work], Result], work: Sequence[Work], keep: Callable[[Result], None]) -> None:
        if not work:
            return
        with ProcessPoolExecutor(max_workers=pool_size(jobs, len(work)), mp_context=get_context("spawn"),
                                 initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
            futures = submit_all(pool, function, work)
            kept: set[Future] = set()
            try:
                for future in as_completed(futures):
                    with stops_deferred():  # as in _keep_whole, and `kept` says so before Ctrl-C can come
                        keep(future.result())
                        kept.add(future)
            except KeyboardInterrupt:
                stop_pool(pool)
                for future in futures:  # batches that finished while the last ones were stored or stopped
                    if future not in kept and future.done() and not future.cancelled() and not future.exception():
                        keep(future.result())
                raise
            except BaseException:
                stop_pool(pool)
                raise
    return run


def run_dask(scheduler: str) -> Runner:
    client = connect(scheduler)  # at once, so that a wrong address fails before any work

    def run(function: Callable[[Work], Result], work: Sequence[Work], keep: Callable[[Result], None]) -> None:
        from distributed import as_completed as dask_completed

        try:
            for future in dask_completed(client.map(function, work, pure=False)):
                _keep_whole(keep, future.result())
        finally:
            client.close()
    return run


def runner(jobs: int, scheduler: str | None) -> Runner:
    if scheduler:
        return run_dask(scheduler)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return run_here if jobs == 1 else run_local(jobs)
