"""The limits the kernel keeps (patience.runs.kernel_limits): a memory burst faster than any sample is
a memout with no more than the limit resident (cgroup) or allocated (RLIMIT_AS), and the CPU of
children that exited is charged to the run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from patience.generators.deals import random_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs import kernel_limits
from patience.runs.process import Limits, run_process, start_limited

LIMIT_MB = 50
# Allocates (and touches) 1 MiB at a time, 400 of them in well under 10 ms of a free core; on a
# failed allocation says how many it had.
BURST = """
import signal
import subprocess
import sys
chunks = []
try:
    for _ in range(400):
        chunks.append(bytearray(1 << 20))
except MemoryError:
    sys.stderr.write(f"allocated {len(chunks)}\\n")
    raise
"""
# Forks two children that each burn 0.25 s of CPU and exit, reaped before the parent ends.
FORKS = """
import os, time
for _ in range(2):
    if os.fork() == 0:
        end = time.process_time() + 0.25
        while time.process_time() < end:
            pass
        os._exit(0)
    os.wait()
"""
CGROUP = kernel_limits.make_cgroup(None)
if CGROUP is not None:
    CGROUP.remove(1.0)
needs_cgroup = pytest.mark.skipif(CGROUP is None, reason="no cgroup can be made here (not root, or no cgroup fs)")


def run_script(script: str, limits: Limits, address_space: bool = True):
    return run_process([sys.executable, "-c", script], limits, address_space=address_space)


@pytest.fixture
def no_cgroup(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rlimit branch, as on a machine without cgroups: by the setting the runs honour."""
    monkeypatch.setenv(kernel_limits.CGROUPS_SETTING, "off")


@needs_cgroup
def test_a_burst_is_stopped_by_the_cgroup_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[kernel_limits.RunCgroup] = []
    real = kernel_limits.make_cgroup
    monkeypatch.setattr(kernel_limits, "make_cgroup", lambda memory_mb: made.append(real(memory_mb)) or made[-1])
    run = run_script(BURST, Limits(timeout=60, memory_mb=LIMIT_MB))
    assert run.memout and not run.timed_out, run
    assert "memory: cgroup" in run.enforcement
    # the peak is gone with the run's cgroup: test_the_cgroup_peak_never_passes_the_limit reads it before
    assert all(not Path(folder).exists() for folder in made[0].folders), "a run's cgroup is left behind"


@needs_cgroup
def test_the_cgroup_peak_never_passes_the_limit() -> None:
    cgroup = kernel_limits.make_cgroup(LIMIT_MB)
    assert cgroup is not None
    try:
        child = kernel_limits.child_limits(cgroup, None, LIMIT_MB, True)
        process = start_limited([sys.executable, "-c", BURST], child, os.devnull, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        assert process.wait(timeout=60) != 0 and cgroup.out_of_memory()
        peak = cgroup.peak_mb()
        assert peak is not None and peak <= LIMIT_MB
    finally:
        cgroup.remove(5.0)
    assert all(not folder.exists() for folder in cgroup.folders)


def test_a_burst_under_rlimit_allocates_no_more_than_the_limit(no_cgroup: None) -> None:
    run = run_script(BURST, Limits(timeout=60, memory_mb=LIMIT_MB))
    assert run.memout and run.enforcement == "memory: rlimit; cpu: rlimit", run
    allocated = int(run.stderr.split("allocated ")[1].split()[0])
    assert allocated < LIMIT_MB  # the interpreter itself takes part of the address space


def test_a_jvm_like_solver_is_sampled_not_rlimited(no_cgroup: None) -> None:
    run = run_script(BURST, Limits(timeout=60, memory_mb=LIMIT_MB), address_space=False)
    assert run.enforcement == "memory: sampling; cpu: rlimit"
    assert "allocated" not in run.stderr  # no RLIMIT_AS: its allocations never failed


@pytest.mark.parametrize("kernel", [pytest.param(True, marks=needs_cgroup), False])
def test_children_that_burned_cpu_and_exited_are_charged(kernel: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not kernel:
        monkeypatch.setenv(kernel_limits.CGROUPS_SETTING, "off")
    run = run_script(FORKS, Limits(timeout=120))
    assert run.returncode == 0, run
    assert run.cpu >= 0.45, run.cpu
    assert ("cpu: cgroup" in run.enforcement) == kernel


@pytest.mark.slow  # a second of CPU, many of the wall clock on a loaded machine
def test_rlimit_cpu_ends_a_spinning_run_as_a_timeout(no_cgroup: None) -> None:
    run = run_script("while True: pass", Limits(timeout=120, cpu=1))
    assert run.timed_out and not run.memout and run.returncode == -signal.SIGXCPU, run


@pytest.mark.slow  # two seconds of CPU
def test_a_run_that_fails_at_its_cpu_limit_is_a_timeout_not_its_exit_status(no_cgroup: None) -> None:
    """As MiniZinc does when RLIMIT_CPU ends its FlatZinc solver: it exits 1 on its own, before the
    monitor's next look, its usage as reported a little short of the count that ended the child."""
    script = "import sys, time\nwhile time.process_time() < 1.7:\n    pass\nsys.exit(1)"
    run = run_script(script, Limits(timeout=120, cpu=2))
    # on a loaded machine the rlimit's count may end the script first: a timeout either way
    assert run.out_of_time and not run.memout and run.returncode in (1, -signal.SIGXCPU), run


@pytest.mark.slow  # two seconds of CPU
def test_a_verdict_given_near_the_cpu_limit_stands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A SAT solver that proves unsatisfiability at 85% of its CPU limit exits 20 with its proof: a
    verdict, not a failure at the limit. A fake `cadical` on PATH prints it after that much CPU."""
    fake = tmp_path / "cadical"
    fake.write_text(f"#!{sys.executable}\nimport sys, time\nwhile time.process_time() < 1.7:\n    pass\n"
                    "print('s UNSATISFIABLE')\nsys.exit(20)\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    lost = random_deal(7, 2, 2, seed=3)  # 14 cards, lost (the native search's verdict)
    result = solve(lost, "cadical", Limits(timeout=120, cpu=2.0))
    assert result.status is Status.UNSOLVABLE and result.cpu >= 1.6, result


def test_a_run_that_fails_well_inside_its_cpu_limit_is_not_a_timeout() -> None:
    run = run_script("import sys; sys.exit(3)", Limits(timeout=120, cpu=60))
    assert run.returncode == 3 and not run.timed_out, run


@needs_cgroup
def test_two_runs_at_once_each_have_their_own_cgroup() -> None:
    """As under --jobs 2: two runs side by side, a burst in one and forked children in the other."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        burst = pool.submit(run_script, BURST, Limits(timeout=60, memory_mb=LIMIT_MB))
        forks = pool.submit(run_script, FORKS, Limits(timeout=120, memory_mb=LIMIT_MB * 4))
    assert burst.result().memout and "cgroup" in burst.result().enforcement
    assert forks.result().returncode == 0 and forks.result().cpu >= 0.45 and not forks.result().memout


def test_patience_cgroups_off_makes_no_cgroup_where_one_could_be(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kernel_limits.CGROUPS_SETTING, "Off")
    assert kernel_limits.make_cgroup(LIMIT_MB) is None
    assert kernel_limits.how_enforced(True) == "memory: rlimit; cpu: rlimit"
    assert kernel_limits.how_enforced(False).startswith("memory: sampling; cpu: rlimit (RLIMIT_AS would trip")
    monkeypatch.setenv(kernel_limits.CGROUPS_SETTING, "on")  # anything else: as unset
    assert kernel_limits.how_enforced(True).startswith("memory: cgroup" if CGROUP is not None else "memory: rlimit")


@needs_cgroup
def test_stale_cgroups_are_removed_once_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cgroup left by a process killed with -9 (its pid gone) goes at a process's first run below the
    same parent; the runs after it do not look again."""
    monkeypatch.setattr(kernel_limits, "_looked", set())  # as a fresh process
    gone = 2 ** 22 + 1  # above pid_max's default: never a live process
    assert not Path("/proc", str(gone)).exists()
    assert CGROUP is not None
    parent = CGROUP.folders[0].parent
    stale = [parent / f"patience-{gone}-{number}" for number in (0, 1)]
    stale[0].mkdir()
    try:
        first = kernel_limits.make_cgroup(None)
        assert first is not None and not stale[0].exists()
        stale[1].mkdir()
        second = kernel_limits.make_cgroup(None)
        assert second is not None and stale[1].exists()  # looked for once: left to the next process
        for run in (first, second):
            run.remove(1.0)
    finally:
        for folder in stale:
            if folder.exists():
                folder.rmdir()


def test_patience_solvers_says_how_each_solvers_limits_are_held(monkeypatch: pytest.MonkeyPatch) -> None:
    from patience.commands.solvers import limits_of
    from patience.runners.base import ProcessSolver
    from patience.runners.registry import all_solvers

    monkeypatch.setenv(kernel_limits.CGROUPS_SETTING, "off")  # the rlimit branch: each kind its own way
    said = {solver.name: (solver, limits_of(solver)) for solver in all_solvers()}
    for name, (solver, limits) in said.items():
        if not isinstance(solver, ProcessSolver):
            assert limits == "in this process: the solve's own timers and limits", name
        elif solver.address_space_limit:
            assert limits == "memory: rlimit; cpu: rlimit", name
        else:  # a JVM's reserved heap
            assert limits.startswith("memory: sampling; cpu: rlimit (RLIMIT_AS would trip"), name
    assert said["native"][1].startswith("in this process") and said["cadical"][1] == "memory: rlimit; cpu: rlimit"
    assert said["ace"][1].startswith("memory: sampling")


@pytest.mark.parametrize("kernel", [pytest.param(True, marks=needs_cgroup), False])
def test_the_command_has_its_limits_and_its_input_from_its_first_instruction(
        kernel: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The child waits at the gate until it is in the run's cgroup and under its rlimits, and only
    then becomes the command (no code of this process runs between its fork and its exec)."""
    if not kernel:
        monkeypatch.setenv(kernel_limits.CGROUPS_SETTING, "off")
    made: list[kernel_limits.RunCgroup | None] = []
    real = kernel_limits.make_cgroup
    monkeypatch.setattr(kernel_limits, "make_cgroup", lambda memory_mb: made.append(real(memory_mb)) or made[-1])
    script = 'read -r line; echo "$line"; ulimit -t; cat /proc/self/cgroup'
    run = run_process(["sh", "-c", script], Limits(timeout=60, cpu=7, memory_mb=LIMIT_MB * 4),
                      stdin_text="the input\n", address_space=True)
    assert run.returncode == 0, run
    said, seconds, *groups = run.stdout.splitlines()
    assert said == "the input"
    assert int(seconds) == kernel_limits.rlimit_cpu_seconds(7, made[0])
    names = {line.rsplit("/", 1)[-1] for line in groups}
    assert any(name.startswith("patience-") for name in names) == kernel, groups


def test_a_command_that_cannot_be_found_or_run_is_an_os_error_as_popen_says(tmp_path: Path) -> None:
    child = kernel_limits.child_limits(None, 5, None, False)
    with pytest.raises(FileNotFoundError):
        start_limited(["no-such-solver-anywhere"], child, os.devnull)
    with pytest.raises(FileNotFoundError):
        start_limited([str(tmp_path / "absent")], child, os.devnull)
    (tmp_path / "plain").write_text("not executable\n")
    with pytest.raises(PermissionError):
        start_limited([str(tmp_path / "plain")], child, os.devnull)
