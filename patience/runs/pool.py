"""The one worker pool of campaigns, surveys and families, and its one policy for stopping.

A runner calls `function` on every item of `work` and hands each result to `keep` (which stores it,
or collects it) the moment it is done, in whatever order the items finish: in this process (when
one worker would do and the caller allows it; a campaign does not), on local worker processes, or
on a Dask cluster.

The policy, the same for every user:
- Ctrl-C and SIGHUP are this process's to act on: the workers (and multiprocessing's resource
  tracker) start deaf to them, so that a terminal's signal to the whole process group does not
  stop each worker on its own, mid-run.
- A stop of this process (Ctrl-C, or SIGTERM and SIGHUP, which raise SystemExit as in every command)
  stops the pool at once: a worker's SIGTERM unwinds its run, which kills its solver's process
  group, and the worker exits; a worker still there a moment later is killed with every process it
  had started. Then the results that finished meanwhile are kept, and the stop goes on.
- `keep` runs with the stops held, so that a result is kept whole or not at all; a stop that came
  meanwhile is honoured the moment `keep` returns.
- A worker whose parent has died (even by kill -9) stops its run the same way and exits.
- Never more workers than items, nor more than JOBS_PER_CPU per CPU this process may use.

`in_order` runs work on threads instead (a student's model is a class made at run time, which no
worker process can be sent) under the same policy: a stop of this process, or the end of the work
(the first of a hunt's deals that a model gets wrong), ends the runs of the other threads at once
(each run's process group killed, its files removed: `patience.runs.process.stopping`).
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from multiprocessing import get_context, resource_tracker
from typing import Any, TypeVar

from patience.errors import UsageError, quote
from patience.numeric import whole
from patience.runs.process import (
    descendants,
    end_processes,
    stop_signals_unwind,
    stopping,
    stops_deferred,
    watch_parent,
)

Work = TypeVar("Work")
Result = TypeVar("Result")
Runner = Callable[[Callable[[Any], Any], Sequence[Any], Callable[[Any], None]], None]

CONNECT_SECONDS = 10.0
JOBS_PER_CPU = 4
GROUP_SIGNALS = (signal.SIGINT, signal.SIGHUP)  # sent by a terminal to the whole process group
STOPS = (KeyboardInterrupt, SystemExit)  # how a stop of this process arrives (SystemExit: SIGTERM, SIGHUP)
_UNWIND_SECONDS = 1.0  # an orphaned worker's time to unwind its run before it exits regardless
_STOP_SECONDS = 1.0  # a stopped worker's time to kill its solver's group and exit, then theirs to go


def pool_size(jobs: int, tasks: int) -> int:
    """Local workers for `tasks` tasks when `jobs` are asked for: never more than the tasks, nor more
    than JOBS_PER_CPU per CPU this process may use (more would only make the runs wait for a core
    while their wall clocks run, or exhaust the machine)."""
    return max(1, min(jobs, tasks, JOBS_PER_CPU * len(os.sched_getaffinity(0))))


def runner(jobs: int, scheduler: str | None = None, here: bool = True) -> Runner:
    """How the work will run: on the Dask scheduler at `scheduler` (connected to at once, so that a
    wrong address fails before any work), else on `jobs` local workers. With `here`, work that one
    worker would do runs in this process instead (saving a worker's start); without it, always in a
    worker (a campaign's: a solver that crashes or outgrows its memory takes only the worker)."""
    if scheduler:
        return run_dask(scheduler)
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {jobs}")
    return partial(run_local, jobs, here)


def run_here(function: Callable[[Work], Result], work: Sequence[Work], keep: Callable[[Result], None]) -> None:
    """Every item in this process, one after the other."""
    with stop_signals_unwind():
        for item in work:
            result = function(item)
            with stops_deferred():
                keep(result)


def run_local(jobs: int, here: bool, function: Callable[[Work], Result], work: Sequence[Work],
              keep: Callable[[Result], None]) -> None:
    """Every item on at most `jobs` worker processes (children of this one), under the policy above;
    in this process if `here` and one worker would do."""
    if not work:
        return
    if here and pool_size(jobs, len(work)) == 1:
        run_here(function, work, keep)
        return
    with stop_signals_unwind():  # a library caller's SIGTERM and SIGHUP stop the pool too
        _run_on_workers(jobs, function, work, keep)


def _run_on_workers(jobs: int, function: Callable[[Work], Result], work: Sequence[Work],
                    keep: Callable[[Result], None]) -> None:
    """The pool's locks are taken only with the stops held (`_held`): a stop is an exception raised
    wherever this thread happens to be, and one raised inside concurrent.futures while it takes the
    futures' locks one by one (as `as_completed` and `wait` do) leaves one held, on which the pool's
    thread then waits for ever, and so does the stop. So this thread waits for results only on a
    queue the futures' callbacks fill, a wait a stop ends cleanly."""
    pool: ProcessPoolExecutor | None = None
    futures: list[Future] = []
    kept: set[Future] = set()
    others: set[int] = set()
    finished: queue.SimpleQueue[Future] = queue.SimpleQueue()
    try:
        with _deaf_children(), stops_deferred():
            others = set(_group_below())  # the resource tracker, say: no worker of this pool
            pool = ProcessPoolExecutor(max_workers=pool_size(jobs, len(work)), mp_context=get_context("spawn"),
                                       initializer=_start_worker, initargs=(os.getpid(),))
            for item in work:  # workers start here
                futures.append(pool.submit(_run_in_worker, function, item))
                futures[-1].add_done_callback(finished.put)
        for _ in futures:
            future = finished.get()
            with stops_deferred():  # `kept` says so before a stop can come
                keep(future.result())
                kept.add(future)
    except BaseException as stop:  # a stop, an error of the work, or the caller's own error in `keep`
        if pool is not None:
            with _held():
                stop_pool(pool, others)
                if isinstance(stop, STOPS):
                    _keep_finished(futures, kept, keep)
        raise
    finally:
        if pool is not None:
            with stops_deferred():
                pool.shutdown(wait=True)


@contextlib.contextmanager
def _held() -> Iterator[None]:
    """Stops held and dropped: this thread is stopping the pool already, or has finished with it."""
    with contextlib.suppress(*STOPS), stops_deferred():
        yield


def _keep_finished(futures: Sequence[Future], kept: set[Future], keep: Callable[[Any], None]) -> None:
    """Keep the results that finished while the last ones were kept or the pool was stopped."""
    for future in futures:
        if future not in kept and future.done() and not future.cancelled() and future.exception() is None:
            with stops_deferred():
                keep(future.result())


@contextlib.contextmanager
def _deaf_children() -> Iterator[None]:
    """Hold Ctrl-C and SIGHUP while the pool starts its workers and multiprocessing its resource
    tracker: a child inherits the held mask (a worker then takes its own policy, the tracker keeps
    it), and one that came meanwhile is delivered here at the end. The tracker is started first, as
    starting it unblocks Ctrl-C whatever the mask was."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, GROUP_SIGNALS)
    try:
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, GROUP_SIGNALS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def stop_pool(pool: ProcessPoolExecutor, others: Iterable[int] = ()) -> None:
    """Stop a pool now, leaving no process behind. Leaving it the usual way would wait for the work in
    flight, up to a whole time limit. SIGTERM makes a worker unwind its run, which kills its solver's
    process group, and exit (an idle one exits at once, so none takes another item); a worker still
    there after a moment is killed, and so is every process it had started, and this waits until they
    are gone (a killed JVM takes a second). Then the pool, its workers gone, fails the items left
    (BrokenProcessPool: never kept) and is shut down and waited for, so that its thread is over before
    the interpreter's exit hook could wake it through a pipe already closed (a traceback on stderr,
    "Bad file descriptor"). The futures are not cancelled here: the pool's thread would fail one
    cancelled under it (InvalidStateError).

    The pool has no public handle on its workers. They are this process's children that stay in its
    process group (a solver leads a group of its own), all started by `submit`: every such process
    below this one but `others`, those that were there before the pool."""
    left = set(others)
    workers = [pid for pid in _group_below() if pid not in left]
    below = descendants(workers)
    for pid in workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + _STOP_SECONDS
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.01)
        alive = [pid for pid in _group_below() if pid in workers]
    end_processes(dict.fromkeys(alive, os.getpgrp()) | below, _STOP_SECONDS)
    pool.shutdown(wait=True, cancel_futures=True)


def _group_below() -> list[int]:
    """The live processes below this one in its own process group (a zombie is none)."""
    own = os.getpgrp()
    return [pid for pid, group in descendants([os.getpid()]).items() if group == own]


_stopping = False  # set in a worker once it has been told to stop (or its parent has gone)
_in_run = False  # set in a worker while it runs an item (a stop then unwinds the run)


def _start_worker(parent: int) -> None:
    """Pool worker start: deaf to the group's Ctrl-C and SIGHUP (a no-op handler rather than a held
    mask or SIG_IGN, which the solvers it starts would inherit); SIGTERM unwinds the run in hand, so
    that run_process kills its solver's group; and a worker whose parent dies stops the same way."""
    for number in GROUP_SIGNALS:
        signal.signal(number, _ignore)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, GROUP_SIGNALS)
    signal.signal(signal.SIGTERM, _stop)
    watch_parent(parent, _orphaned)


def _ignore(number: int, frame: object) -> None:
    """A group signal reached a worker: the parent acts on it."""


def _stop(number: int, frame: object) -> None:
    """SIGTERM in a worker. Within a run, unwind it (run_process kills its solver's group). Outside
    one there is nothing to unwind, and unwinding could leave the pool's queues torn: a worker stopped
    halfway through reading the next item from the queue it shares with the other workers releases
    the queue's lock with half a message read, and the next reader unpickles the rest as a message of
    its own (a traceback on stderr, `EOFError: Ran out of input`, seen after SIGHUP). So it just ends."""
    global _stopping
    _stopping = True
    if not _in_run:
        os._exit(128 + number)
    raise SystemExit(128 + number)


def _orphaned() -> None:
    os.kill(os.getpid(), signal.SIGTERM)  # unwinds the run: run_process kills its solver's group
    time.sleep(_UNWIND_SECONDS)
    os._exit(1)


def _run_in_worker(function: Callable[[Work], Result], item: Work) -> Result:
    """`function` in a pool worker. The pool would hand a stopped worker its next queued item, and a
    solver started then would outlive the worker; so once the run has unwound, the worker exits."""
    global _in_run
    _in_run = True
    try:
        return function(item)
    finally:
        _in_run = False
        if _stopping:
            os._exit(1)


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


def run_dask(scheduler: str) -> Runner:
    """Work on a Dask cluster; the client is connected now and closed when the work ends."""
    client = connect(scheduler)

    def run(function: Callable[[Work], Result], work: Sequence[Work], keep: Callable[[Result], None]) -> None:
        from distributed import as_completed as dask_completed

        try:
            for future in dask_completed(client.map(function, work, pure=False)):
                result = future.result()
                with stops_deferred():
                    keep(result)
        finally:
            client.close()
    return run


def in_order(function: Callable[[Work], Result], work: Iterable[Work], jobs: int,
             last: Callable[[Result], bool] = lambda result: False) -> Generator[tuple[Work, Result], None, None]:
    """(item, result) for each item of `work` in its order, `jobs` items running at once on threads (one
    job: in this thread, where Ctrl-C stops a run at once), the items taken from `work` only as threads
    free up. The first result for which `last` holds is the last one yielded: the items before it still
    run to their end, those after it are stopped at once (their solvers' process groups killed) and no
    more are started; so any `jobs` yields the same items and results as one job. A stop of this thread
    (Ctrl-C, SIGTERM, an error, the generator closed) stops every run still going before it goes on.
    Close the generator when done with it (`contextlib.closing`)."""
    if jobs == 1:
        for item in work:
            result = function(item)
            yield item, result
            if last(result):
                return
        return
    items = iter(work)
    running: dict[int, tuple[Work, Future[Result], threading.Event]] = {}  # by the item's place in `work`
    finished: dict[int, tuple[Work, Result]] = {}
    first_last: int | None = None  # the place of the first item whose result is `last`, once known
    taken = turn = 0
    ended: queue.SimpleQueue[Future] = queue.SimpleQueue()  # filled by the callbacks (_run_on_workers: why)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            while True:
                while first_last is None and len(running) < jobs:
                    item = next(items, _END)
                    if item is _END:
                        break
                    event = threading.Event()
                    with stops_deferred():
                        future = pool.submit(_stoppable, event, function, item)
                        future.add_done_callback(ended.put)
                    running[taken] = (item, future, event)
                    taken += 1
                while turn in finished:
                    yield finished.pop(turn)
                    if turn == first_last:
                        return
                    turn += 1
                if not running:
                    return
                done = {ended.get()}
                with contextlib.suppress(queue.Empty):
                    while True:
                        done.add(ended.get_nowait())
                for place in sorted(place for place, (_, future, _) in running.items() if future in done):
                    item, future, _ = running.pop(place)
                    finished[place] = (item, future.result())
                    if last(finished[place][1]) and (first_last is None or place < first_last):
                        first_last = place
                for place in [place for place in running if first_last is not None and place > first_last]:
                    _stop_thread(*running.pop(place)[1:])
        finally:
            for _, future, event in running.values():
                _stop_thread(future, event)


_END: Any = object()  # the end of `in_order`'s work


def _stoppable(event: threading.Event, function: Callable[[Work], Result], item: Work) -> Result:
    with stopping(event):
        return function(item)


def _stop_thread(future: Future, event: threading.Event) -> None:
    """Stop one item of `in_order`: not started, it never starts; running, its run ends at once."""
    event.set()
    future.cancel()
