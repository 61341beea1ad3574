"""Campaigns and surveys on a Slurm cluster (`--cluster slurm`), through dask-jobqueue: this process
runs the Dask scheduler and keeps the store; Slurm jobs run the workers, each job `cores` worker
processes of one core and one run at a time, sized from the run's limits.

The promises, the same as on local workers:
- A result is stored the moment it arrives, here, whole or not at all; so a campaign or a survey
  started again after its jobs or this process died goes on from its store, and runs only what has
  no row (the store, not Slurm, knows what is done). Work is submitted only when there is some: a
  rerun of a finished campaign submits no job.
- No job is left behind: the cluster's jobs are cancelled (scancel) when the work ends, fails or is
  stopped (Ctrl-C, SIGTERM, SIGHUP). After a kill -9 of this process its running workers exit on
  their own once the scheduler is gone (dask-jobqueue's death timeout, 60 s), and the next start on
  the same store cancels the jobs a dead client of this host left queued: every job is named after
  its store and carries its client's host and process id in its comment.
- Jobs end at their walltime; each worker retires a while before (Dask's worker lifetime), and new
  jobs replace them (Dask's adaptive scaling, held at the jobs asked for). A task that was running
  on a retired or killed worker runs again on another: its result was never stored.

Every setting of dask-jobqueue's that has no option here (the network interface, the job script's
prologue, more #SBATCH lines) is read from Dask's configuration, `jobqueue.slurm.*`
(~/.config/dask/jobqueue.yaml)."""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import logging
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from patience.errors import UsageError, quote
from patience.limits import jobs as jobs_argument
from patience.limits import mebibytes
from patience.runs import pool
from patience.runs.process import stop_signals_unwind, stops_deferred

Work = TypeVar("Work")
Result = TypeVar("Result")

SLURM = "slurm"
KINDS = (SLURM,)
WORKER_MB = 512  # a worker process's own memory (Python, Dask, patience) over its run's limit
UNLIMITED_RUN_MB = 2048  # room for a run with no memory limit
LEAST_WALLTIME = 3600  # seconds: a job's default walltime, at the least
COMMENT = "patience-client"  # a job's comment: COMMENT:HOST:PID
# Dask gives up on a task once this many workers died running it (3 by default); a worker that
# retires at its lifetime, or is killed at its job's walltime, counts as one, so a long campaign needs
# more room. The solvers run in processes of their own: a run does not kill its worker.
ALLOWED_FAILURES = 12
LOGS = ".slurm"  # the jobs' output files go in STORE.slurm/
_WALLTIME = re.compile(r"(?:(\d+)-)?(\d+):(\d\d)(?::(\d\d))?")


@dataclass(frozen=True)
class Cluster:
    """Where the jobs go and how big each is. `cores`: worker processes (and CPUs) a job holds;
    `memory_mb`: a job's memory (default: each worker's run limit, or UNLIMITED_RUN_MB, plus
    WORKER_MB); `walltime`: a job's time limit in seconds (default: an hour, or four runs' time
    limits and ten minutes if that is longer)."""

    kind: str = SLURM
    partition: str | None = None
    account: str | None = None
    cores: int = 1
    memory_mb: int | None = None
    walltime: int | None = None


def walltime(text: str) -> int:
    """Seconds of a walltime written as Slurm writes it, [DAYS-]HOURS:MINUTES[:SECONDS] (an argparse type)."""
    match = _WALLTIME.fullmatch(text.strip())
    if not match or int(match[3]) > 59 or int(match[4] or 0) > 59:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a walltime: write HOURS:MINUTES[:SECONDS] "
                                         "or DAYS-HOURS:MINUTES[:SECONDS], as 2:00:00 or 1-12:00")
    days, hours, minutes, seconds = (int(part or 0) for part in match.groups())
    total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds
    if total < 60:
        raise argparse.ArgumentTypeError(f"{quote(text)}: a walltime of at least a minute")
    return total


def slurm_time(seconds: int) -> str:
    """Seconds as Slurm's D-HH:MM:SS."""
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    days, hour = divmod(hours, 24)
    return f"{days}-{hour:02}:{minute:02}:{second:02}"


def add_options(parser: argparse.ArgumentParser) -> None:
    """The cluster options of `compare` and `survey`."""
    parser.add_argument("--cluster", choices=KINDS,
                        help="run on Slurm jobs, submitted and cancelled here (dask-jobqueue); --jobs runs "
                             "at once across them, --cores a job")
    parser.add_argument("--partition", metavar="NAME", help="--cluster: the Slurm partition (default the cluster's)")
    parser.add_argument("--account", metavar="NAME", help="--cluster: the Slurm account to charge")
    parser.add_argument("--cores", type=jobs_argument, metavar="N",
                        help="--cluster: runs at once in each Slurm job, one CPU each (default 1)")
    parser.add_argument("--job-memory", type=mebibytes, metavar="MIB",
                        help="--cluster: memory of each Slurm job in MiB (default: per core, the run's "
                             f"--memory or {UNLIMITED_RUN_MB}, plus {WORKER_MB})")
    parser.add_argument("--walltime", type=walltime, metavar="[D-]HH:MM[:SS]",
                        help="--cluster: each Slurm job's time limit (default 1:00:00, or four runs' "
                             "limits if longer); jobs are replaced as they end")


_OPTIONS = {"partition": "partition", "account": "account", "cores": "cores", "job_memory": "memory_mb",
            "walltime": "walltime"}


def from_args(args: argparse.Namespace) -> Cluster | None:
    """The cluster the options ask for, or None; a usage error for cluster options without --cluster,
    or for --cluster with --scheduler."""
    given = {field: getattr(args, option) for option, field in _OPTIONS.items()
             if getattr(args, option, None) is not None}
    if args.cluster is None:
        if given:
            names = ", ".join("--" + option.replace("_", "-") for option in _OPTIONS if _OPTIONS[option] in given)
            raise UsageError(f"{names}: only with --cluster slurm")
        return None
    if getattr(args, "scheduler", None):
        raise UsageError("give --cluster or --scheduler, not both")
    return Cluster(args.cluster, **given)


def from_api(value: object) -> Cluster | None:
    """The API's `cluster=`: None, "slurm", or a mapping of the options by their names
    (`{"partition": "short", "cores": 4, "memory": 8192, "walltime": "2:00:00", "account": "lab"}`)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = {"kind": value}
    if not isinstance(value, Mapping):
        raise UsageError(f"cluster must be 'slurm' or a dict of its options, not {type(value).__name__}")
    known = {"kind", "partition", "account", "cores", "memory", "walltime"}
    unknown = sorted(str(key) for key in value if key not in known)
    if unknown:
        raise UsageError(f"cluster: unknown option {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}")
    names = {key: _name(value, key) for key in ("partition", "account") if value.get(key) is not None}
    kind = value.get("kind", SLURM)
    if kind not in KINDS:
        raise UsageError(f"cluster: the kind must be one of {', '.join(KINDS)}, not {kind!r}")
    time = value.get("walltime")
    if time is not None and not isinstance(time, str):
        raise UsageError(f"cluster: walltime must be text such as '2:00:00', not {time!r}")
    return Cluster(str(kind), names.get("partition"), names.get("account"), _number(value, "cores", jobs_argument) or 1,
                   _number(value, "memory", mebibytes), None if time is None else _checked(walltime, time, "walltime"))


def _name(value: Mapping[str, object], key: str) -> str:
    item = value[key]
    if not isinstance(item, str) or not item.strip():
        raise UsageError(f"cluster: {key} must be a name, not {item!r}")
    return item


def _number(value: Mapping[str, object], key: str, parse: Callable[[str], int]) -> int | None:
    item = value.get(key)
    if item is None:
        return None
    if isinstance(item, bool) or not isinstance(item, int):
        raise UsageError(f"cluster: {key} must be a whole number, not {item!r}")
    return _checked(parse, str(item), key)


def _checked(parse: Callable[[str], int], text: str, key: str) -> int:
    """`parse(text)`, its complaint a usage error naming the API's `cluster=` option."""
    try:
        return parse(text)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"cluster: {key}: {error}") from None


def runner(jobs: int, scheduler: str | None = None, cluster: Cluster | None = None, *, here: bool = True,
           seconds: float | None = None, memory_mb: int | None = None,
           store: str | os.PathLike[str] | None = None) -> pool.Runner:
    """How the work will run: on `cluster` (`jobs` runs at once; `seconds` and `memory_mb` are one
    run's limits, `store` the store the results go to: its jobs' logs go beside it; None for a
    temporary store, which the nodes may not see: no logs), else as patience.runs.pool.runner says."""
    if cluster is None:
        return pool.runner(jobs, scheduler, here)
    if scheduler:
        raise UsageError("give a cluster or a scheduler, not both")
    if shutil.which("sbatch") is None:
        raise UsageError("--cluster slurm: no sbatch here (Slurm's client commands are not installed)")
    spec = sized(cluster, seconds, memory_mb)
    name = job_name(store)
    logs = None if store is None else Path(os.fspath(store) + LOGS)

    def run(function: Callable[[Work], Result], work: Sequence[Work], keep: Callable[[Result], None]) -> None:
        if not work:
            return  # nothing to do: no job submitted
        with stop_signals_unwind(), _quiet_dask(), started(spec, math.ceil(jobs / spec.cores), name, seconds,
                                                           logs) as (client, watch):
            _gather(client, function, work, keep, watch.check)
    return run


def sized(cluster: Cluster, seconds: float | None, memory_mb: int | None) -> Cluster:
    """`cluster` with each job's memory and walltime set from one run's limits where not given."""
    memory = cluster.memory_mb or cluster.cores * ((memory_mb or UNLIMITED_RUN_MB) + WORKER_MB)
    limit = math.ceil(seconds or 0)
    return replace(cluster, memory_mb=memory, walltime=cluster.walltime or max(LEAST_WALLTIME, 4 * limit + 600))


def job_name(store: str | os.PathLike[str] | None) -> str:
    """The name of a store's jobs: patience- and 10 hex digits of the store's absolute path."""
    where = os.path.abspath(os.fspath(store)) if store is not None else f"{socket.gethostname()}:{os.getpid()}"
    return "patience-" + hashlib.sha256(where.encode()).hexdigest()[:10]


def lifetime(walltime: int, seconds: float | None) -> int:
    """Seconds a worker works before it retires: the walltime less one run's limit and five minutes,
    and at least half the walltime."""
    return max(walltime // 2, walltime - math.ceil(seconds or 0) - 300)


@contextlib.contextmanager
def started(cluster: Cluster, jobs: int, name: str, seconds: float | None, logs: Path | None) -> Iterator[Any]:
    """A Dask client of a Slurm cluster of `jobs` jobs, adaptively held there; every job cancelled at
    the end, however it comes (stops held meanwhile, so that a second Ctrl-C does not leave jobs)."""
    from distributed import Client

    SLURMCluster = _slurm_cluster()
    cancel_orphans(name)
    assert cluster.walltime is not None and cluster.memory_mb is not None
    alive = lifetime(cluster.walltime, seconds)
    slurm = None
    try:
        with stops_deferred():
            slurm = SLURMCluster(
                cores=cluster.cores, processes=cluster.cores, memory=f"{cluster.memory_mb}MiB",
                queue=cluster.partition, account=cluster.account, walltime=slurm_time(cluster.walltime),
                job_name=name, log_directory=None if logs is None else str(logs),
                job_extra_directives=[f"--comment={COMMENT}:{socket.gethostname()}:{os.getpid()}",
                                      *(() if logs else ("--output=/dev/null", "--error=/dev/null"))],
                worker_extra_args=["--lifetime", f"{alive}s", "--lifetime-stagger", f"{min(60, alive // 10)}s"],
                scheduler_options={"dashboard_address": ":0", "allowed_failures": ALLOWED_FAILURES})
            refused(slurm.job_script())
            slurm.adapt(minimum_jobs=jobs, maximum_jobs=jobs)
        with Client(slurm) as client:
            yield client, _Watch(slurm, client, name, logs)
    finally:
        if slurm is not None:
            with stops_deferred():
                slurm.close()
                cancel_named(name, os.getpid())


def refused(script: str) -> None:
    """A usage error if Slurm would refuse the job `script` (a partition, account, memory or walltime it
    does not have): `sbatch --test-only` submits nothing. Without this, dask-jobqueue would log the
    refusal and submit again, and the work would wait for workers that never come."""
    with tempfile.NamedTemporaryFile("w", prefix="patience-job-", suffix=".sh") as file:
        file.write(script)
        file.flush()
        try:
            done = subprocess.run(["sbatch", "--test-only", file.name], capture_output=True, text=True, timeout=60,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise UsageError(f"--cluster slurm: sbatch does not answer: {error}") from None
    if done.returncode != 0:
        said = [line.split("error:", 1)[-1].strip() for line in done.stderr.splitlines() if line.strip()]
        raise UsageError(f"--cluster slurm: Slurm refuses the job: {'; '.join(said) or f'exit {done.returncode}'}")


def _slurm_cluster() -> Any:
    """dask-jobqueue's SLURMCluster. Importing dask-jobqueue sets Ctrl-C to exit with status 0 (its
    runner module's handler, meant for its own processes): this process's own handler is put back."""
    held = signal.getsignal(signal.SIGINT)
    from dask_jobqueue import SLURMCluster

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, held)
    return SLURMCluster


class _Watch:
    """Whether the work can start at all: Slurm ran every job submitted and none started a worker (a
    Python the nodes do not have, a prologue that fails) is a usage error saying the job's last words;
    dask-jobqueue would wait for them for ever. Jobs still queued are waited for, however long."""

    def __init__(self, slurm: Any, client: Any, name: str, logs: Path | None) -> None:
        self.slurm, self.client, self.name, self.logs = slurm, client, name, logs
        self.started = False

    def check(self) -> None:
        if self.started or self.client.scheduler_info()["workers"]:
            self.started = True
            return
        submitted = {str(job.job_id) for job in list(self.slurm.workers.values()) if getattr(job, "job_id", None)}
        if not submitted or submitted & {job for job, _ in _jobs(self.name)}:
            return
        raise UsageError("--cluster slurm: the Slurm jobs ended without starting a worker: "
                         + self._last_words(submitted))

    def _last_words(self, jobs: set[str]) -> str:
        """The last line a job wrote on its standard error, or where to look."""
        for job in sorted(jobs):
            log = None if self.logs is None else self.logs / f"{self.name}-{job}.err"
            if log is not None and log.is_file():
                lines = [line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()]
                if lines:
                    return f"job {job} said {quote(lines[-1], 200)} ({log})"
        return f"jobs {', '.join(sorted(jobs))} left no message (see their output with sacct or in {self.logs})"


WATCH_SECONDS = 5.0  # how often a wait for results looks at the jobs


def _gather(client: Any, function: Callable[[Work], Result], work: Sequence[Work],
            keep: Callable[[Result], None], check: Callable[[], None]) -> None:
    """Each result kept as it arrives, `check` called while none does; on a stop, the results finished
    meanwhile kept too."""
    from distributed import wait

    futures = client.map(function, work, pure=False)
    kept: set[Any] = set()
    pending = set(futures)
    try:
        while pending:
            try:
                done, pending = wait(pending, timeout=WATCH_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                check()
                continue
            for future in done:
                result = future.result()
                with stops_deferred():
                    keep(result)
                    kept.add(future.key)
    except pool.STOPS:
        for future in futures:
            if future.key not in kept and future.status == "finished":
                with stops_deferred():
                    keep(future.result())
        raise
    finally:
        client.cancel(futures)


def _jobs(name: str) -> list[tuple[str, str]]:
    """(job id, comment) of this user's jobs named `name`."""
    try:
        listed = subprocess.run(["squeue", "-h", "-u", str(os.getuid()), "-n", name, "-o", "%i %k"],
                                capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [(job, comment) for job, _, comment in (line.partition(" ") for line in listed.stdout.splitlines())]


def _client(comment: str) -> tuple[str, int] | None:
    """The host and process id a job's comment names as its client, or None."""
    prefix, _, rest = comment.partition(":")
    host, _, pid = rest.rpartition(":")
    if prefix != COMMENT or not pid.isdigit():
        return None
    return host, int(pid)


def cancel_orphans(name: str) -> None:
    """Cancel the jobs named `name` whose client, on this host, is dead (killed before it could)."""
    here = socket.gethostname()
    orphans = []
    for job, comment in _jobs(name):
        client = _client(comment)
        if client is not None and client[0] == here and not _alive(client[1]):
            orphans.append(job)
    _cancel(orphans)


def cancel_named(name: str, pid: int) -> None:
    """Cancel the jobs named `name` that client `pid` of this host submitted (any left by dask-jobqueue)."""
    mine = f"{COMMENT}:{socket.gethostname()}:{pid}"
    _cancel([job for job, comment in _jobs(name) if comment == mine])


def _cancel(jobs: list[str]) -> None:
    if jobs:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            subprocess.run(["scancel", *jobs], capture_output=True, timeout=30, check=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's scheduler and jobqueue say each start and stop at INFO level on standard error, over
    the progress bar: only their warnings while the work runs."""
    loggers = [logging.getLogger(name) for name in ("distributed", "dask_jobqueue")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(max(logger.getEffectiveLevel(), logging.WARNING))
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
