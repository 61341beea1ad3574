"""Where batches run: in this process (one job), on local worker processes, or on an existing Dask
cluster. Each yields a batch's rows the moment the batch is done, in whatever order they finish."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import TypeVar

from patience.campaign.execute import connect
from patience.errors import UsageError

Work = TypeVar("Work")
Result = TypeVar("Result")
Runner = Callable[[Callable[[Work], Result], Sequence[Work]], Iterator[Result]]

_WATCH_SECONDS = 0.5


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)


def _die_with_parent(parent: int) -> None:
    """Pool worker start: a worker whose survey has died (even by kill -9) exits at once instead of
    finishing a batch nobody will store."""
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def run_here(function: Callable[[Work], Result], work: Sequence[Work]) -> Iterator[Result]:
    for item in work:
        yield function(item)


def run_local(jobs: int) -> Runner:
    def run(function: Callable[[Work], Result], work: Sequence[Work]) -> Iterator[Result]:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"),
                                 initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
            futures = [pool.submit(function, item) for item in work]
            try:
                for future in as_completed(futures):
                    yield future.result()
            finally:
                pool.shutdown(wait=False, cancel_futures=True)
    return run


def run_dask(scheduler: str) -> Runner:
    client = connect(scheduler)  # at once, so that a wrong address fails before any work

    def run(function: Callable[[Work], Result], work: Sequence[Work]) -> Iterator[Result]:
        from distributed import as_completed as dask_completed

        try:
            for future in dask_completed(client.map(function, work, pure=False)):
                yield future.result()
        finally:
            client.close()
    return run


def runner(jobs: int, scheduler: str | None) -> Runner:
    if scheduler:
        return run_dask(scheduler)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return run_here if jobs == 1 else run_local(jobs)
