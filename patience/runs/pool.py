"""Running a family's deals on worker processes, each result yielded as it finishes.

Stopped early (Ctrl-C, SIGTERM, an error), the pool is shut down with its queue cancelled and its
workers terminated at once: a family's work is all in this process's private folder, which goes
anyway, so nothing is worth waiting for (an orphaned worker exits by itself, as a survey's does)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import TypeVar

from patience.survey.execute import _die_with_parent

Work = TypeVar("Work")
Result = TypeVar("Result")


def run_pool(function: Callable[[Work], Result], work: Sequence[Work], jobs: int) -> Iterator[Result]:
    """`function` on every item, on at most `jobs` workers and never more than items (here when one)."""
    jobs = min(jobs, len(work))
    if jobs <= 1:
        yield from map(function, work)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"), initializer=_die_with_parent,
                               initargs=(os.getpid(),))
    try:
        for future in as_completed([pool.submit(function, item) for item in work]):
            yield future.result()
    except BaseException:
        workers = list(pool._processes.values())  # the pool has no public handle on its workers
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        raise
    finally:
        pool.shutdown(wait=True)
