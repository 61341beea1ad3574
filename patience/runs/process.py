"""Run one external solver command under limits, the way runsolver and BenchExec do.

The command runs in its own session (process group), and where the machine lets us, in a cgroup of
its own whose memory limit the kernel keeps and whose CPU the kernel counts (patience.runs.kernel_limits;
else RLIMIT_CPU and, for solvers that allow it, RLIMIT_AS). A monitor polls that CPU time (the /proc
sampling of the session's CPU and resident memory where no cgroup holds) and kills the WHOLE session
(JVMs and helper processes included, and children that a solver puts into process groups of their
own, as MiniZinc does with its FlatZinc solver) at the wall-clock, CPU or memory limit: SIGTERM, a
grace second, then SIGKILL. Output goes to files
in a private temporary folder that is removed afterwards; nothing is left running, even when this
process is stopped by Ctrl-C, SIGTERM (`timeout`, `kill`, a batch system) or SIGHUP, or when the
thread's caller stops the run (`stopping`: a hunt's deal after the first wrong one, a class at Ctrl-C).

Limits count from the moment a solve starts (`Limits.counting`): what a solve spends in this process
before its solver starts (reading the deal, writing the model) comes off them (`Limits.left`), and
`enforced` ends the work of this process itself (an encoding that outgrows the limit) a margin after
the limit, whatever it is doing then.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from patience.reading import read_output
from patience.runs import kernel_limits

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
_GRACE_SECONDS = 1.0
NEAR_CPU_LIMIT = 0.8  # a run that fails with no verdict past this share of its CPU limit failed at the limit
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
CALLER_VARIABLE = "PATIENCE_CALLER"  # a child of ours (the Python searches) learns here who started it
_WATCH_SECONDS = 0.5
MARGIN_SECONDS = 1.0  # `enforced` stops this process's own work this long after a limit: a solver that stops
# itself at the limit has that second to hand its answer over
TIME_REACHED = "time limit reached"  # why a run ended undecided, as every runner says it
CPU_REACHED = "CPU time limit reached"
LIMIT_SIGNALS = (signal.SIGALRM, signal.SIGPROF)  # `enforced`'s timers: the wall clock, this process's CPU


class Stopped(BaseException):
    """A run ended by its caller (`stopping`), not by a limit: it has no verdict. A BaseException, as
    Ctrl-C's is, so that no `except Exception` takes it for the solver's own error."""


_stop = threading.local()  # this thread's stop event, while `stopping` holds one


@contextlib.contextmanager
def stopping(event: threading.Event) -> Iterator[None]:
    """While this holds, a run started in this thread ends the moment `event` is set, as at a limit
    (its process group sent SIGTERM, killed a grace second later, its files removed) and raises
    `Stopped`; once it is set, no run starts. For the threads a stop of the main thread cannot reach."""
    previous = getattr(_stop, "event", None)
    _stop.event = event
    try:
        yield
    finally:
        _stop.event = previous


def raise_if_stopped() -> None:
    """`Stopped` if this thread's caller has stopped it (`stopping`); else nothing."""
    event = getattr(_stop, "event", None)
    if event is not None and event.is_set():
        raise Stopped


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run; None means unlimited. CPU defaults to the wall-clock limit.
    `since` (set by `counting`): the wall clock and this thread's CPU clock when the limits started
    counting; limits without it count from the start of each process they are given to."""

    timeout: float | None = None
    cpu: float | None = None
    memory_mb: int | None = None
    since: tuple[float, float] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("timeout", "cpu", "memory_mb"):
            value = getattr(self, name)
            if value is not None and not value > 0:  # a zero, negative or nan limit would never run
                raise ValueError(f"{name} must be more than 0, not {value}")

    @property
    def cpu_limit(self) -> float | None:
        return self.cpu if self.cpu is not None else self.timeout

    def with_grace(self, seconds: float) -> Limits:
        """The hard limits of a solver that stops itself at these: each time limit `seconds` later, so
        the kill comes only when the solver did not stop (and a solver stopping at its limit still
        writes its answer). The memory limit is unchanged, and so is the moment they count from."""
        if not seconds:
            return self
        return replace(self, timeout=None if self.timeout is None else self.timeout + seconds,
                       cpu=None if self.cpu is None else self.cpu + seconds)

    def counting(self) -> Limits:
        """These limits counting from now, in this thread: every second of the wall clock and of this
        thread's CPU from here on comes off them (`left`). Limits already counting keep their start,
        so a limit holds from the first moment anything stamped it (a command's start)."""
        return self if self.since is not None else replace(self, since=(time.monotonic(), time.thread_time()))

    def spent(self) -> tuple[float, float]:
        """Wall-clock and CPU seconds (this thread's) since the limits started counting; (0, 0) if they do not."""
        if self.since is None:
            return 0.0, 0.0
        return time.monotonic() - self.since[0], time.thread_time() - self.since[1]

    def left(self) -> Limits:
        """What is left of these limits now, as limits that count from here: each time limit less
        the wall clock and the CPU spent since they started counting, a sliver at least (a limit
        is more than 0: `reached` tells whether anything is left). Limits that do not count are
        returned as they are."""
        if self.since is None:
            return self
        wall, cpu = self.spent()
        cpu_limit = self.cpu_limit
        return Limits(None if self.timeout is None else max(self.timeout - wall, _SLIVER),
                      None if cpu_limit is None else max(cpu_limit - cpu, _SLIVER), self.memory_mb)

    def reached(self) -> str:
        """Which limit the time spent since the limits started counting has used up (TIME_REACHED or
        CPU_REACHED), or '' while both have time left."""
        wall, cpu = self.spent()
        cpu_limit = self.cpu_limit
        if self.since is not None and self.timeout is not None and wall >= self.timeout:
            return TIME_REACHED
        if self.since is not None and cpu_limit is not None and cpu >= cpu_limit:
            return CPU_REACHED
        return ""


_SLIVER = 0.01  # what `left` leaves of a limit already spent: a run then ends at its first look at a clock


class LimitReached(BaseException):
    """This process's own work outlasted a limit and its margin (`enforced`): the solve has no verdict.
    A BaseException, as Ctrl-C's is, so that no `except Exception` on the way takes it for an error."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_enforcing = threading.local()  # whether `enforced` holds in this thread


@contextlib.contextmanager
def enforced(limits: Limits) -> Iterator[None]:
    """While this holds, the work of this process ends with LimitReached MARGIN_SECONDS after what is
    left of `limits` (the wall clock, or this process's CPU), whatever it is doing: an encoding of a
    large deal, a solver that outlives its limit by its kill grace. A run under the runner core is
    killed with its whole process group on the way out (as at Ctrl-C) and its CPU counts, not the
    core's polling. Timers are signals, which only the main thread receives: elsewhere (worker
    threads) only the limits' `left`, and the core's own limits, hold. Nested, the outer one holds;
    a timer the program had set already (its own SIGALRM) is left as it is."""
    if threading.current_thread() is not threading.main_thread() or getattr(_enforcing, "on", False):
        yield
        return
    left = limits.left()
    timers = [(which, number, seconds, message) for which, number, seconds, message in (
        (signal.ITIMER_REAL, signal.SIGALRM, left.timeout, TIME_REACHED),
        (signal.ITIMER_PROF, signal.SIGPROF, left.cpu_limit, CPU_REACHED))
        if seconds is not None and not signal.getitimer(which)[0]]  # a timer of someone else's is left alone
    previous: dict[int, Any] = {}

    def release() -> None:
        """Disarm the timers and give their signals back; called by a timer too, before it raises,
        so that a second timer cannot interrupt the release."""
        for which, number, _, _ in timers:
            if number in previous:
                signal.setitimer(which, 0)
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        previous.clear()
        _enforcing.on = _enforcing.cpu_timer = False

    def reached(message: str) -> Callable[[int, object], None]:
        def raiser(number: int, frame: object) -> None:
            if previous:  # not released yet: the limit is reached
                release()
                raise LimitReached(message)
        return raiser

    _enforcing.on = True
    try:
        for which, number, seconds, message in timers:
            previous[number] = signal.signal(number, reached(message))
            signal.setitimer(which, seconds + MARGIN_SECONDS)
        _enforcing.cpu_timer = signal.SIGPROF in previous
        yield
    finally:
        release()


@contextlib.contextmanager
def _cpu_timer_paused() -> Iterator[list[float]]:
    """While a child runs under the runner core, `enforced`'s CPU timer stops (the core's polling
    is not the solve's work); the child's CPU, put into the list yielded, comes off it after."""
    mine = threading.current_thread() is threading.main_thread() and getattr(_enforcing, "cpu_timer", False)
    remaining = signal.getitimer(signal.ITIMER_PROF)[0] if mine else 0.0
    child_cpu = [0.0]
    if remaining:
        signal.setitimer(signal.ITIMER_PROF, 0)
    try:
        yield child_cpu
    finally:
        if remaining and getattr(_enforcing, "cpu_timer", False):  # not released meanwhile (a limit reached)
            # a margin at least to read what the child said: a solver that answered in its grace after the
            # limit (its answer is why it has one) would otherwise lose the answer to this timer
            signal.setitimer(signal.ITIMER_PROF, max(remaining - child_cpu[0], MARGIN_SECONDS))


@dataclass(frozen=True)
class ProcessRun:
    """What happened to one command: output, exit, times, and which limit (if any) ended it."""

    command: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str
    wall: float
    cpu: float
    timed_out: bool = False
    memout: bool = False
    enforcement: str = ""  # how its limits were held (kernel_limits.Enforcement: "memory: cgroup v1; cpu: ...")
    failed_near_cpu_limit: bool = False  # a non-zero exit with NEAR_CPU_LIMIT of its CPU limit spent or more

    @property
    def command_line(self) -> str:
        return shlex.join(self.command)

    @property
    def out_of_time(self) -> bool:
        """Whether a run that gave no verdict was ended by its time limit: killed at a limit, or failed
        with its CPU at the limit, as MiniZinc exits 1 on its own when the rlimit ends its FlatZinc solver
        (the kernel's count that ended the child runs ahead of the usage reported for it). Only for a
        run with no verdict: a verdict may be a non-zero exit (CaDiCaL's 20), and it stands."""
        return self.timed_out or self.failed_near_cpu_limit


def run_process(command: Sequence[str], limits: Limits, cwd: str | Path | None = None,
                env: Mapping[str, str] | None = None, stdin_text: str | None = None,
                address_space: bool = False) -> ProcessRun:
    """Run `command` to completion or to a limit; never leaves a process of its group (or cgroup)
    alive. `address_space`: RLIMIT_AS may hold its memory limit where no cgroup can (not for a JVM,
    whose reserved heap would trip it). `Stopped` if the thread's caller stops it (`stopping`)."""
    raise_if_stopped()
    stop: threading.Event | None = getattr(_stop, "event", None)
    stopped = False
    cgroup = kernel_limits.make_cgroup(limits.memory_mb)
    enforcement = cgroup.enforcement(address_space) if cgroup else kernel_limits.Enforcement(
        kernel_limits.RLIMIT if address_space else kernel_limits.SAMPLING, kernel_limits.RLIMIT)
    try:
        with tempfile.TemporaryDirectory(prefix="patience-run-") as scratch:
            out_path, err_path, in_path = (Path(scratch, name) for name in ("stdout", "stderr", "stdin"))
            in_path.write_text(stdin_text or "")
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                started = time.monotonic()
                process = None
                with stop_signals_unwind():
                    try:
                        with stops_deferred():  # a signal now would leave the new group running unseen
                            process = start_limited(
                                command, kernel_limits.child_limits(cgroup, limits.cpu_limit, limits.memory_mb,
                                                                    address_space),
                                in_path, stdout=out, stderr=err, cwd=cwd,
                                env=None if env is None else {**os.environ, **env})
                        share_nice(process.pid)
                        watch = _Watch(process.pid, cgroup, sample_memory=enforcement.memory == kernel_limits.SAMPLING)
                        with _cpu_timer_paused() as spent:
                            returncode, child_cpu, timed_out, memout, stopped = _monitor(
                                process, limits, started, stop, watch)
                            spent[0] = child_cpu
                    finally:
                        if process is not None:
                            _end_group(process.pid, _GRACE_SECONDS)  # orphans and daemons of the group
                            if process.returncode is None:  # stopped mid-run: reap the killed child before going on,
                                # or on a busy machine it still runs until the scheduler lets it die
                                with contextlib.suppress(subprocess.TimeoutExpired):
                                    process.wait(timeout=_GRACE_SECONDS * 5)
                wall = time.monotonic() - started
            if cgroup is not None:  # the kernel's count of the whole run, children gone before the end included
                child_cpu = max(child_cpu, cgroup.cpu_seconds() or 0.0)
                memout = memout or (not timed_out and cgroup.out_of_memory())
            stderr = read_output(err_path)
            cpu_limit = limits.cpu_limit
            if cpu_limit is not None and not memout and kernel_limits.killed_by_cpu_limit(
                    returncode, child_cpu, cpu_limit, cgroup):  # RLIMIT_CPU's SIGXCPU, or its SIGKILL
                timed_out = True
            near_limit = (cpu_limit is not None and not (timed_out or memout) and returncode not in (0, None)
                          and child_cpu >= NEAR_CPU_LIMIT * cpu_limit)
            if enforcement.memory == kernel_limits.RLIMIT and limits.memory_mb is not None and not timed_out:
                memout = memout or kernel_limits.says_out_of_memory(returncode, stderr)
            if stopped:
                raise Stopped
            return ProcessRun(tuple(command), returncode, read_output(out_path), stderr, wall, child_cpu,
                              timed_out, memout, str(enforcement), near_limit)
    finally:
        if cgroup is not None:
            cgroup.remove(_GRACE_SECONDS * 5)


# The child waits here, in a shell, for its cgroups and rlimits (a line on its standard input), then
# takes its real standard input and becomes the command: nothing of this process runs in it.
GATE_FAILED = 125  # the child's exit status where the gate closed without opening: it ran nothing
_GATE = f'read -r _ || exit {GATE_FAILED}; exec <"$1"; shift; exec "$@"'


def start_limited(command: Sequence[str], child: kernel_limits.ChildLimits | None, stdin_path: str | Path,
                  **popen: Any) -> subprocess.Popen:
    """Start `command` in a session of its own with `stdin_path` as its standard input, inside the
    cgroups and under the rlimits of `child` from its first instruction. A command that cannot be
    found or run raises OSError here, as subprocess.Popen does."""
    if child is None:
        with open(stdin_path, "rb") as stdin:
            return subprocess.Popen(list(command), stdin=stdin, start_new_session=True, **popen)
    _check_runnable(command[0], popen.get("env"), popen.get("cwd"))
    gate_read, gate_write = os.pipe()
    try:
        process = subprocess.Popen(["/bin/sh", "-c", _GATE, "patience-gate", str(stdin_path), *command],
                                   stdin=gate_read, start_new_session=True, **popen)
    except BaseException:
        os.close(gate_write)
        raise
    finally:
        os.close(gate_read)
    try:
        child.apply(process.pid)
        os.write(gate_write, b"go\n")
    except BaseException:
        _signal_group(process.pid, signal.SIGKILL)
        process.wait()
        raise
    finally:
        os.close(gate_write)
    return process


def _check_runnable(program: str, env: Mapping[str, str] | None, cwd: str | Path | None) -> None:
    """FileNotFoundError or PermissionError if `program` is not an executable (found on the PATH of
    `env` where it names no folder), as Popen raises them where the gate's shell would only exit."""
    if os.sep in program:
        path = Path(cwd or ".", program)
        if not path.is_file():
            raise FileNotFoundError(2, "No such file or directory", program)
        if not os.access(path, os.X_OK):
            raise PermissionError(13, "Permission denied", program)
        return
    search = (os.environ if env is None else env).get("PATH", os.defpath)
    if shutil.which(program, path=search) is None:
        raise FileNotFoundError(2, "No such file or directory", program)


def share_nice(session: int) -> None:
    """Give the child's session this process's nice. With Linux's autogroup scheduling (on by default)
    a new session is a scheduling group of its own at nice 0 whatever the nice of the process that
    started it, so the solvers of a campaign run under `nice` would still take a full core from the
    test suite or the desktop beside them."""
    own = os.getpriority(os.PRIO_PROCESS, 0)
    if own > 0:
        with contextlib.suppress(OSError):  # no autogroup in this kernel, or the session has ended
            Path(f"/proc/{session}/autogroup").write_text(str(own))


@contextlib.contextmanager
def stop_signals_unwind() -> Iterator[None]:
    """While a solver runs, SIGTERM and SIGHUP raise SystemExit as Ctrl-C raises KeyboardInterrupt,
    so that the caller's `finally` kills the solver before this process ends (by default they would end
    it at once and orphan the solver). Signals somebody else already handles are left to them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    for number, handler in previous.items():
        if handler == signal.SIG_DFL:
            signal.signal(number, _exit_on_signal)
    try:
        yield
    finally:
        for number, handler in previous.items():
            if handler == signal.SIG_DFL:
                signal.signal(number, handler)


@contextlib.contextmanager
def stops_deferred() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP (and `enforced`'s timers) while a solver process is being
    started, so that the caller has its handle before any of them unwinds the stack; one that came
    meanwhile is delivered at the end. Without this, a stop in the middle of a fork leaves a child
    that no `finally` knows of."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = (signal.SIGINT, *STOP_SIGNALS, *(LIMIT_SIGNALS if getattr(_enforcing, "on", False) else ()))
    previous = {number: signal.signal(number, lambda number, frame: caught.append(number)) for number in held}
    try:
        yield
    finally:
        _run_pending_handlers()  # a signal received meanwhile reaches the holding handler, not a restored one
        with contextlib.ExitStack() as restore:  # every handler is restored, even if one of them raises
            for number, handler in previous.items():
                restore.callback(signal.signal, number, signal.SIG_DFL if handler is None else handler)
        if caught:
            signal.raise_signal(caught[0])


def watch_parent(parent: int, orphaned: Callable[[], None]) -> None:
    """Call `orphaned` (from a daemon thread) once this process's parent is no longer `parent`: it
    has died, even by kill -9, and this process was given to another."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        orphaned()
    threading.Thread(target=watch, daemon=True).start()


def python_command(*arguments: str) -> list[str]:
    """This Python run on `arguments` (`-m MODULE ...`) with -P: the child never imports from its working
    folder, so a folder the user runs in that holds a `patience/` checkout or a `clingo.py` cannot stand
    in for the installed module."""
    return [sys.executable, "-P", *arguments]


def caller_environment() -> dict[str, str]:
    """The environment that lets a child of ours end with this process (`end_with_caller`)."""
    return {CALLER_VARIABLE: str(os.getpid())}


def end_with_caller() -> None:
    """In a child of ours started with `caller_environment()`: exit at once when the process that
    started it is gone (kill -9 of the caller leaves no search behind to run out its clock)."""
    caller = os.environ.get(CALLER_VARIABLE, "")
    if caller.isdigit():
        watch_parent(int(caller), lambda: os._exit(1))


def _run_pending_handlers() -> None:
    """Nothing: calling a Python function is the point at which CPython runs the Python handlers of
    signals already received (possibly by another thread, whose C handler only marked them pending)."""


def _exit_on_signal(number: int, frame: object) -> None:
    raise SystemExit(128 + number)


class _Watch:
    """Where the monitor reads a run's CPU seconds and memory: the kernel's cgroup accounting, else
    the /proc fields of the live processes of its session."""

    def __init__(self, group: int, cgroup: kernel_limits.RunCgroup | None, sample_memory: bool) -> None:
        self.group, self.cgroup, self.sample_memory = group, cgroup, sample_memory

    def usage(self) -> tuple[float, float, bool]:
        """CPU seconds so far, resident MiB (0 where the kernel keeps the memory limit), and whether
        the kernel has killed a process of the run at its memory limit."""
        cpu = self.cgroup.cpu_seconds() if self.cgroup else None
        rss_mb = 0.0
        if cpu is None or self.sample_memory:
            sampled_cpu, rss_mb = _group_usage(self.group)
            cpu = sampled_cpu if cpu is None else cpu
        return cpu, rss_mb if self.sample_memory else 0.0, bool(self.cgroup and self.cgroup.out_of_memory())


def _monitor(process: subprocess.Popen, limits: Limits, started: float,
             stop: threading.Event | None = None,
             watch: _Watch | None = None) -> tuple[int | None, float, bool, bool, bool]:
    """Poll until the child exits; enforce limits, and end it as at a limit once `stop` is set.
    Returns (exit code, CPU seconds, timeout, memout, stopped)."""
    watch = watch or _Watch(process.pid, None, sample_memory=True)
    timed_out = memout = stopped = False
    peak_cpu = 0.0
    interval = 0.005
    kill_at: float | None = None
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            cpu = usage.ru_utime + usage.ru_stime
            return process.returncode, max(cpu, peak_cpu), timed_out, memout, stopped
        now = time.monotonic()
        if kill_at is None:
            cpu, rss_mb, killed_at_memory = watch.usage()
            peak_cpu = max(peak_cpu, cpu)
            cpu_limit = limits.cpu_limit
            timed_out = (limits.timeout is not None and now - started > limits.timeout) or (
                cpu_limit is not None and cpu > cpu_limit)
            over_memory = limits.memory_mb is not None and rss_mb > limits.memory_mb
            memout = not timed_out and (killed_at_memory or over_memory)
            stopped = stop is not None and stop.is_set()
            if timed_out or memout or stopped:
                _signal_group(process.pid, signal.SIGTERM)
                kill_at = now + _GRACE_SECONDS
        elif now > kill_at:
            _signal_group(process.pid, signal.SIGKILL)
        time.sleep(interval)
        interval = min(interval * 1.5, 0.1)


def _processes() -> Iterator[tuple[int, list[str]]]:
    """Every process's id and its /proc stat fields after the name: [0] state, [1] parent, [2] process
    group; [11], [12] utime, stime; [13], [14] reaped children's; [21] resident pages."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat_file:
                stat = stat_file.read().decode()
        except OSError:
            continue
        yield int(entry.name), stat[stat.rfind(")") + 2:].split()


def _members(group: int) -> Iterator[tuple[int, list[str]]]:
    """The pid and /proc stat fields of every process whose process group or session is `group`: the
    child started a session of its own, so its pid names both, and a solver's own children in process
    groups of their own (MiniZinc's FlatZinc solver) are still in that session."""
    for pid, fields in _processes():
        if int(fields[2]) == group or int(fields[3]) == group:  # [2] pgrp, [3] session
            yield pid, fields


def _group_usage(group: int) -> tuple[float, float]:
    """CPU seconds and resident MiB of all live processes in the session (and process group) the
    child leads, from /proc."""
    cpu_ticks = 0
    rss_pages = 0
    for _, fields in _members(group):
        cpu_ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        rss_pages += int(fields[21])
    return cpu_ticks / _CLOCK_TICKS, rss_pages * _PAGE_BYTES / (1024 * 1024)


def descendants(parents: Iterable[int]) -> dict[int, int]:
    """Every live process below `parents` (workers, say) with its process group: the solvers those
    workers run, each the leader of its own group, and whatever those started."""
    children: dict[int, list[tuple[int, int]]] = {}
    for pid, fields in _processes():
        if fields[0] not in ("Z", "X"):
            children.setdefault(int(fields[1]), []).append((pid, int(fields[2])))
    found: dict[int, int] = {}
    todo = list(parents)
    while todo:
        for pid, group in children.get(todo.pop(), ()):
            if pid not in found:
                found[pid] = group
                todo.append(pid)
    return found


def end_processes(processes: Mapping[int, int], seconds: float) -> None:
    """Kill these processes and the process groups they lead or belong to (never this process's own
    group), and wait up to `seconds` until none of them is alive: a killed JVM takes a moment to go."""
    own = os.getpgrp()
    groups = {group for group in processes.values() if group != own}
    for group in groups:
        _signal_group(group, signal.SIGKILL)
    for pid in processes:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(
            fields[0] not in ("Z", "X") and (pid in processes or int(fields[2]) in groups)
            for pid, fields in _processes()):
        time.sleep(0.01)


def _end_group(group: int, seconds: float) -> None:
    """Kill every process of the child's group and session, and wait up to `seconds` until none of them
    is alive: a killed process takes a moment to go on a busy machine, and a run that has returned
    leaves nothing running."""
    _signal_group(group, signal.SIGKILL)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(fields[0] not in ("Z", "X") for _, fields in _members(group)):
        time.sleep(0.01)


def _signal_group(group: int, signum: int) -> None:
    """Signal the child's process group, then every process left in its session (a solver's
    children in process groups of their own)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is already gone
        os.killpg(group, signum)
    for pid, _ in _members(group):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)
