"""Limits the kernel keeps for one solver run, BenchExec's and Fast Downward's ways.

Where this process may make a cgroup of its own (root, or a delegated subtree), each run gets a
fresh child of the cgroup this process is in: its memory limit is the kernel's (cgroup v2
`memory.max`, else v1 `memory.limit_in_bytes`; a burst past it is stopped at the page, not at the
next sample) and its CPU time is the kernel's accounting of every process the run ever had,
children that exited included (v2 `cpu.stat`, else v1 `cpuacct.usage`). Where no cgroup can be
made, the child gets `RLIMIT_AS` (only for solvers that declare it right: a JVM reserves more
address space than it ever uses) before it execs; and `RLIMIT_CPU` always backs the CPU limit. The
/proc sampling of the runner core is what is left where neither holds (a JVM's memory without a
cgroup). Every cgroup made here is removed after its run, its processes killed first; one left by a
process killed with -9 is removed by the first run of a later process below the same cgroup (each
process looks for them once). `PATIENCE_CGROUPS=off` in the environment makes no cgroup where one
could be made: the rlimits and the sampling hold the limits, as on a machine without cgroups.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import os
import resource
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

CGROUP_V2, CGROUP_V1, RLIMIT, SAMPLING = "cgroup v2", "cgroup v1", "rlimit", "sampling"
CGROUPS_SETTING = "PATIENCE_CGROUPS"  # "off": no cgroups, the rlimits' and the sampling's ways only
_PREFIX = "patience-"
_MIB = 1024 * 1024
_numbers = itertools.count()
_looked: set[tuple[int, Path]] = set()  # (process, parent cgroup) already cleared of stale cgroups


@dataclass(frozen=True)
class Enforcement:
    """How one run's limits are held: memory by `memory`, CPU time read from `cpu` (each one of
    CGROUP_V2, CGROUP_V1, RLIMIT, SAMPLING)."""

    memory: str
    cpu: str

    def __str__(self) -> str:
        return f"memory: {self.memory}; cpu: {self.cpu}"


@dataclass
class RunCgroup:
    """The cgroup(s) of one run: a memory one and a CPU-accounting one (the same folder under v2
    with its memory controller; two under v1, or v1 memory beside v2's `cpu.stat`)."""

    memory_dir: Path | None = None
    memory_v2: bool = False
    cpu_dir: Path | None = None
    cpu_v2: bool = False
    folders: list[Path] = field(default_factory=list)

    def enforcement(self, address_space: bool) -> Enforcement:
        memory = (CGROUP_V2 if self.memory_v2 else CGROUP_V1) if self.memory_dir else (
            RLIMIT if address_space else SAMPLING)
        cpu = (CGROUP_V2 if self.cpu_v2 else CGROUP_V1) if self.cpu_dir else RLIMIT
        return Enforcement(memory, cpu)

    def cpu_seconds(self) -> float | None:
        """CPU seconds of every process the run had, live or gone; None without CPU accounting."""
        if self.cpu_dir is None:
            return None
        with contextlib.suppress(OSError, ValueError):
            if self.cpu_v2:
                for line in (self.cpu_dir / "cpu.stat").read_text().splitlines():
                    if line.startswith("usage_usec "):
                        return int(line.split()[1]) / 1e6
                return None
            return int((self.cpu_dir / "cpuacct.usage").read_text()) / 1e9
        return None

    def peak_mb(self) -> float | None:
        """The most memory the run ever had charged, MiB; None if the kernel does not say."""
        if self.memory_dir is None:
            return None
        name = "memory.peak" if self.memory_v2 else "memory.max_usage_in_bytes"
        with contextlib.suppress(OSError, ValueError):
            return int((self.memory_dir / name).read_text()) / _MIB
        return None

    def out_of_memory(self) -> bool:
        """Whether the kernel has killed a process of the run at its memory limit."""
        if self.memory_dir is None:
            return False
        name = "memory.events" if self.memory_v2 else "memory.oom_control"
        with contextlib.suppress(OSError, ValueError):
            for line in (self.memory_dir / name).read_text().splitlines():
                if line.startswith("oom_kill "):
                    return int(line.split()[1]) > 0
        return False

    def remove(self, seconds: float) -> None:
        """Kill whatever is left in the run's cgroups, wait up to `seconds` until they are empty,
        and remove them."""
        for folder in self.folders:
            _remove(folder, seconds)


def make_cgroup(memory_mb: int | None) -> RunCgroup | None:
    """A fresh cgroup for one run below this process's own, with `memory_mb` as its kernel memory
    limit; None where none can be made (no cgroup file system, or no right to write it), or where
    `PATIENCE_CGROUPS=off` says not to."""
    if cgroups_off():
        return None
    mounts = _mounts()
    own = _own_cgroups()
    run = RunCgroup()
    name = f"{_PREFIX}{os.getpid()}-{next(_numbers)}"
    v2 = _child(mounts.get("cgroup2"), own.get(""), name)
    try:
        if v2 is not None:
            run.folders.append(v2)
            run.cpu_dir, run.cpu_v2 = v2, (v2 / "cpu.stat").exists()
            if not run.cpu_v2:
                run.cpu_dir = None
            if (v2 / "memory.max").exists():
                run.memory_dir, run.memory_v2 = v2, True
                _write(v2 / "memory.max", "max" if memory_mb is None else str(memory_mb * _MIB))
                with contextlib.suppress(OSError):  # no swap accounting: nothing to keep from swap
                    _write(v2 / "memory.swap.max", "0")
        if run.memory_dir is None:
            memory = _child(mounts.get("memory"), own.get("memory"), name)
            if memory is not None:
                run.folders.append(memory)
                run.memory_dir = memory
                if memory_mb is not None:
                    _write(memory / "memory.limit_in_bytes", str(memory_mb * _MIB))
                    with contextlib.suppress(OSError):
                        _write(memory / "memory.memsw.limit_in_bytes", str(memory_mb * _MIB))
        if run.cpu_dir is None:
            cpu = _child(mounts.get("cpuacct"), own.get("cpuacct"), name)
            if cpu is not None:
                run.folders.append(cpu)
                run.cpu_dir = cpu
    except OSError:
        run.remove(0.0)
        return None
    if run.memory_dir is None and run.cpu_dir is None:
        run.remove(0.0)
        return None
    return run


def cgroups_off() -> bool:
    """Whether the environment says to make no cgroups (`PATIENCE_CGROUPS=off`), read at each run so
    that a process's workers, and its tests, follow the setting as it is now."""
    return os.environ.get(CGROUPS_SETTING, "").strip().lower() == "off"


@dataclass(frozen=True)
class ChildLimits:
    """What a started child is given before it execs its command (patience.runs.process holds it at a
    gate until then): the run's cgroups joined and its rlimits set, both by this process, by pid. No
    code of this process runs in the child between its fork and its exec: a fork of a process with
    threads (a Dask worker, a notebook) may hold any lock there, and CPython's `preexec_fn` is not
    safe in it."""

    procs: tuple[Path, ...]
    rlimits: tuple[tuple[int, tuple[int, int]], ...]

    def apply(self, pid: int) -> None:
        for path in self.procs:
            descriptor = os.open(path, os.O_WRONLY)
            try:
                os.write(descriptor, str(pid).encode())  # one write: the kernel moves one process a write
            finally:
                os.close(descriptor)
        for which, values in self.rlimits:
            resource.prlimit(pid, which, values)


def child_limits(run: RunCgroup | None, cpu_limit: float | None, memory_mb: int | None,
                 address_space: bool) -> ChildLimits | None:
    """The cgroups and rlimits a run's child must have before it execs; None if none."""
    procs = tuple(folder / "cgroup.procs" for folder in (run.folders if run else ()))
    limits = []
    if cpu_limit is not None:  # SIGXCPU at the soft limit, SIGKILL a second later
        seconds = rlimit_cpu_seconds(cpu_limit, run)
        limits.append((resource.RLIMIT_CPU, (seconds, seconds + 1)))
    if memory_mb is not None and address_space and (run is None or run.memory_dir is None):
        limits.append((resource.RLIMIT_AS, (memory_mb * _MIB, memory_mb * _MIB)))
    if not procs and not limits:
        return None
    return ChildLimits(procs, tuple(limits))


def rlimit_cpu_seconds(cpu_limit: float, run: RunCgroup | None) -> int:
    """RLIMIT_CPU's soft limit for a run of `cpu_limit` seconds. Where a cgroup counts the run's CPU, the
    monitor ends the run on that exact count, and the rlimit is a backstop a second above: at the limit
    itself, the rlimit's tick count could end one process of the run a few milliseconds before the
    cgroup's count reaches the limit, and the rest of the run would go on to its wall-clock limit."""
    seconds = max(1, math.ceil(cpu_limit))
    return seconds + 1 if run is not None and run.cpu_dir is not None else seconds


def killed_by_cpu_limit(returncode: int | None, cpu: float, cpu_limit: float, run: RunCgroup | None = None) -> bool:
    """Whether a run was ended by RLIMIT_CPU: SIGXCPU at the soft limit (no one else sends it), or
    SIGKILL past it (the kernel counts CPU in ticks: a tenth of slack)."""
    soft_limit = rlimit_cpu_seconds(cpu_limit, run)
    return returncode == -signal.SIGXCPU or (returncode == -signal.SIGKILL and cpu >= soft_limit - 0.1)


OUT_OF_MEMORY_WORDS = ("MemoryError", "bad_alloc", "out of memory", "Out of memory", "OutOfMemoryError",
                       "Cannot allocate memory", "cannot allocate memory")


def says_out_of_memory(returncode: int | None, output: str) -> bool:
    """Whether a run under RLIMIT_AS ended because an allocation failed: it ended badly and its last
    words say so (the kernel tells no one else: the allocation just fails)."""
    return returncode not in (0, None) and any(word in output[-4000:] for word in OUT_OF_MEMORY_WORDS)


@functools.cache
def _mounts() -> dict[str, Path]:
    """Where the cgroup hierarchies are mounted: "cgroup2", and each v1 controller by its name (read
    once a process: the mounts do not move under a run, and every solver run asks)."""
    found: dict[str, Path] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) < 4:
                continue
            if parts[2] == "cgroup2":
                found.setdefault("cgroup2", Path(parts[1]))
            elif parts[2] == "cgroup":
                for option in parts[3].split(","):
                    found.setdefault(option, Path(parts[1]))
    return found


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup in each hierarchy: "" for v2, each v1 controller by its name."""
    found: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                found[controller] = path
    return found


def _child(mount: Path | None, own: str | None, name: str) -> Path | None:
    """A new cgroup `name` below this process's own in a hierarchy, after the removal of ones whose
    process is gone (killed with -9 before it could remove them: looked for at a process's first run
    below `parent`, not at every run); None if it cannot be made."""
    if mount is None or own is None:
        return None
    parent = mount / own.lstrip("/")
    if not os.access(parent, os.W_OK):
        return None
    looked = (os.getpid(), parent)  # by pid: a forked worker looks for itself
    if looked not in _looked:
        _looked.add(looked)
        _remove_stale(parent)
    folder = parent / name
    try:
        folder.mkdir()
    except OSError:
        return None
    return folder


def _remove_stale(parent: Path) -> None:
    """Remove the cgroups of runs whose patience process no longer exists."""
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            owner = entry.name[len(_PREFIX):].split("-")[0] if entry.name.startswith(_PREFIX) else ""
            if owner.isdigit() and not Path("/proc", owner).exists():
                _remove(entry, 1.0)


def _remove(folder: Path, seconds: float) -> None:
    """Kill the processes of a cgroup, wait up to `seconds` until it is empty, remove it."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(OSError):
            pids = [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            folder.rmdir()
        if not folder.exists() or time.monotonic() >= deadline:
            return
        time.sleep(0.01)


def _write(path: Path, text: str) -> None:
    path.write_text(text)


@functools.cache
def _probe(off: bool) -> RunCgroup | None:
    """Whether a run's cgroup can be made here (one made and removed at once), asked once a process
    (and setting of PATIENCE_CGROUPS)."""
    run = None if off else make_cgroup(None)
    if run is not None:
        run.remove(1.0)
    return run


def how_enforced(address_space: bool) -> str:
    """How a solver process's limits would be held on this machine (`patience solvers --verbose`)."""
    run = _probe(cgroups_off())
    enforcement = run.enforcement(address_space) if run else Enforcement(RLIMIT if address_space else SAMPLING, RLIMIT)
    why = "" if address_space or (run and run.memory_dir) else " (RLIMIT_AS would trip on its reserved address space)"
    return f"{enforcement}{why}"
