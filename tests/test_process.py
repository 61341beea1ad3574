"""The runner core: limits end runs, the whole process group dies, CPU time is measured, nothing is left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from patience.runs.process import Limits, run_process, stop_signals_unwind, stops_deferred

BUSY = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end: pass\nprint('done')"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[1].split()[0] != "Z"


def test_output_exit_code_and_cpu_time():
    run = run_process([sys.executable, "-c", BUSY.format(seconds=0.4)], Limits(timeout=20))
    assert (run.returncode, run.stdout, run.timed_out) == (0, "done\n", False)
    assert run.cpu >= 0.3 and run.wall >= run.cpu * 0.5


def test_exit_code_and_stderr_of_a_failing_command():
    run = run_process([sys.executable, "-c", "import sys; sys.stderr.write('bad'); sys.exit(3)"], Limits())
    assert (run.returncode, run.stderr) == (3, "bad")


def test_wall_clock_limit_kills_the_whole_group(tmp_path):
    pid_file = tmp_path / "grandchild.pid"
    script = f"sleep 300 & echo $! > {pid_file}; wait"
    started = time.monotonic()
    run = run_process(["bash", "-c", script], Limits(timeout=0.5))
    assert run.timed_out and time.monotonic() - started < 5
    grandchild = int(pid_file.read_text())
    time.sleep(0.1)
    assert not alive(grandchild)


def test_orphans_left_by_a_finished_command_are_killed(tmp_path):
    pid_file = tmp_path / "orphan.pid"
    run = run_process(["bash", "-c", f"nohup sleep 300 >/dev/null 2>&1 & echo $! > {pid_file}"], Limits(timeout=10))
    assert run.returncode == 0 and not run.timed_out
    time.sleep(0.1)
    assert not alive(int(pid_file.read_text()))


def test_a_process_ignoring_sigterm_is_killed():
    script = "trap '' TERM; while true; do :; done"
    run = run_process(["bash", "-c", script], Limits(timeout=0.3))
    assert run.timed_out and run.returncode is not None and run.returncode < 0


def test_cpu_limit_counts_cpu_not_wall():
    run = run_process([sys.executable, "-c", BUSY.format(seconds=30)], Limits(timeout=30, cpu=0.5))
    assert run.timed_out and run.cpu >= 0.4 and run.wall < 10


def test_memory_limit_gives_memout():
    grab = ("import time\nblock = bytearray(400 * 1024 * 1024)\n"
            "for i in range(0, len(block), 4096): block[i] = 1\ntime.sleep(30)")
    run = run_process([sys.executable, "-c", grab], Limits(timeout=30, memory_mb=100))
    assert run.memout and not run.timed_out and run.wall < 20


@pytest.mark.parametrize("limits", [Limits(timeout=0.2), Limits()])
def test_no_temporary_files_left(limits, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # a folder no other run on the machine writes to
    run = run_process(["bash", "-c", "echo started; sleep 0.5"], limits)
    assert run.stdout == "started\n"  # the run did use its private folder
    assert list(tmp_path.iterdir()) == []


def test_stdin_text_reaches_the_command():
    assert run_process(["cat"], Limits(timeout=5), stdin_text="hello").stdout == "hello"


@pytest.mark.parametrize(("number", "raised"), [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, SystemExit)])
@pytest.mark.usefixtures("sigint_raises")
def test_a_stop_while_a_solver_starts_waits_until_it_is_known(number, raised):
    """The window where the handle of a just-forked solver is not yet stored: the stop must wait."""
    handlers = {held: signal.getsignal(held) for held in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    steps = []
    with pytest.raises(raised), stop_signals_unwind():
        with stops_deferred():
            signal.raise_signal(number)  # delivered to this thread at once, its handler run before the next line
            steps.append("handle stored")
        steps.append("not reached")
    assert steps == ["handle stored"]
    assert {held: signal.getsignal(held) for held in handlers} == handlers


def _autogroup_settable() -> bool:
    """Whether this kernel has autogroup scheduling and lets this process set its group's nice (it
    writes back the value it reads, so nothing changes)."""
    group = Path("/proc/self/autogroup")
    try:
        group.write_text(group.read_text().split()[-1])
    except (OSError, IndexError):
        return False
    return True


@pytest.mark.skipif(not _autogroup_settable(), reason="no autogroup scheduling, or its nice cannot be set here")
def test_a_niced_caller_gives_its_nice_to_the_solver_session():
    """A solver's session is a scheduling group of its own: it must not run at nice 0 under a niced
    campaign. The child waits (up to 30 s: a loaded machine) for its group's nice to be set, then
    prints it. `os.nice(7)` adds 7 to whatever nice the test run has (`nice -n 10 pytest` gives 17,
    capped at 19): the caller prints the nice it ends up with, and the session must have that one."""
    child = ("import time\n"
             "for _ in range(3000):\n"
             "    text = open('/proc/self/autogroup').read().strip()\n"
             "    if not text.endswith(' nice 0'): break\n"
             "    time.sleep(0.01)\n"
             "print(text)")
    caller = ("import os, sys\n"
              "from patience.runs.process import Limits, run_process\n"
              "print(os.nice(7))\n"
              f"print(run_process([sys.executable, '-c', {child!r}], Limits(timeout=60)).stdout, end='')")
    done = subprocess.run([sys.executable, "-c", caller], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    niced, group = done.stdout.strip().split("\n")
    assert int(niced) == min(os.getpriority(os.PRIO_PROCESS, 0) + 7, 19)
    assert group.endswith(f" nice {niced}")


def test_a_child_started_with_the_caller_environment_ends_with_its_caller(tmp_path):
    """kill -9 of the caller (a command running a Python search in-process, say) leaves its own
    child running in a session of its own; a child that calls `end_with_caller` ends itself."""
    pid_file = tmp_path / "child.pid"
    child = ("import os, time\n"
             "from patience.runs.process import end_with_caller\n"
             "end_with_caller()\n"
             f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
             "time.sleep(120)")
    caller = ("import sys\n"
              "from patience.runs.process import Limits, caller_environment, run_process\n"
              f"run_process([sys.executable, '-c', {child!r}], Limits(timeout=120), env=caller_environment())")
    process = subprocess.Popen([sys.executable, "-c", caller])
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text()):
            assert time.monotonic() < deadline and process.poll() is None, "the child did not start"
            time.sleep(0.05)
        searched = int(pid_file.read_text())
        process.kill()
        process.wait()
        deadline = time.monotonic() + 10
        while alive(searched) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = alive(searched)
        if left:
            os.kill(searched, signal.SIGKILL)
        assert not left, "the child outlived its killed caller"
    finally:
        process.kill()


def test_a_solvers_python_child_imports_nothing_from_the_folder_it_runs_in(tmp_path):
    """A folder that holds a `patience/` checkout or a `clingo.py` (a student's, a clone's) cannot
    stand in for the installed modules: every Python child starts with -P."""
    (tmp_path / "patience").mkdir()
    (tmp_path / "patience" / "__init__.py").write_text('raise SystemExit("the folder\'s patience")\n')
    (tmp_path / "clingo.py").write_text('raise SystemExit("the folder\'s clingo")\n')
    (tmp_path / "deal.param").write_text("letting cards be [48,3,1,19]\n")  # lost: no two cards match
    command = [str(Path(sys.executable).with_name("patience")), "solve", "deal.param", "--timeout", "60"]
    for solver in ("native", "clingo"):
        run = subprocess.run([*command, "--solver", solver], cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
        assert "status: unsolvable" in run.stdout, (solver, run.stdout, run.stderr)
