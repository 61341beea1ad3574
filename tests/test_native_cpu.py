"""The native search's two clocks: a CPU limit is CPU time, not a wall-clock deadline, so a search
that the machine holds up (here: a child process stopped with SIGSTOP for a while) still gets its CPU
seconds; the wall-clock limit still ends it on its own clock. Either ends it with timeout (the rule of
patience.result), and the message says which."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patience.api import random_deal
from patience.errors import InputError
from patience.generators.deals import pysol_deal
from patience.native import engine
from patience.native.board import Board
from patience.native.rules import Rules
from patience.result import Status
from patience.runners import python_search
from patience.runners.solve import solve
from patience.runs.process import Limits, ProcessRun

HARD = (52, 8, 4, 1)  # random:52,8,4:1, 415 cards: open for minutes (docs/hardness.md's band)
PLAIN_OPEN = 2  # black_hole deal 2: the plain Python search is still on it after seconds of CPU
STOPPED_SECONDS = 2.5

# The child: set up, say so, then search; prints what it found as one JSON line.
_CHILD = f"""
import json, sys, time
from patience.api import random_deal
from patience.generators.deals import pysol_deal
from patience.native import engine
from patience.native.rules import Rules
name, seconds, cpu_seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
if name == "c":
    deal, rules = random_deal(*{HARD}), Rules()
else:
    deal, rules = pysol_deal("black_hole", {PLAIN_OPEN}), Rules.only()
print("ready", flush=True)
started = time.process_time()
outcome, used = engine.run(deal, name, rules, False, None, seconds or None, None, cpu_seconds or None)
print(json.dumps({{"status": outcome.status.value, "cpu_limited": outcome.cpu_limited, "engine": used,
                  "cpu": time.process_time() - started}}))
"""


def _stopped_search(tmp_path: Path, name: str, seconds: float, cpu_seconds: float) -> tuple[dict, float, float]:
    """Search in a child (its own process group) stopped for STOPPED_SECONDS soon after it starts;
    returns what it printed, the CPU seconds its search used and its wall-clock seconds from then."""
    script = tmp_path / "search.py"
    script.write_text(_CHILD)
    child = subprocess.Popen([sys.executable, str(script), name, str(seconds), str(cpu_seconds)], cwd=tmp_path,
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        started = time.monotonic()
        time.sleep(0.1)
        os.killpg(child.pid, signal.SIGSTOP)
        time.sleep(STOPPED_SECONDS)
        os.killpg(child.pid, signal.SIGCONT)
        printed = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if child.returncode is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        child.stdout.close()
    assert child.returncode == 0, printed
    found = json.loads(printed.splitlines()[-1])
    cpu = found.pop("cpu")
    assert usage.ru_utime + usage.ru_stime >= cpu  # the kernel's count (os.wait4) has the search's in it
    return found, cpu, wall


@pytest.mark.parametrize("name", ["c", "python"])
def test_a_cpu_limit_counts_cpu_not_the_wall_clock(tmp_path: Path, name: str) -> None:
    if name == "c" and not engine.compiled():
        pytest.skip("the compiled search is not built")
    found, cpu, wall = _stopped_search(tmp_path, name, 60.0, 1.0)
    assert found == {"status": "timeout", "cpu_limited": True, "engine": name}
    assert wall > STOPPED_SECONDS
    assert cpu >= 0.95  # a wall-clock deadline of 1 s would have ended it while stopped, with about 0.1 s


def test_the_wall_clock_limit_still_ends_a_stopped_search(tmp_path: Path) -> None:
    name = "c" if engine.compiled() else "python"
    found, cpu, wall = _stopped_search(tmp_path, name, 1.0, 60.0)
    assert found == {"status": "timeout", "cpu_limited": False, "engine": name}
    assert cpu < 1.0  # the search's share of its one second, far from 60
    assert STOPPED_SECONDS < wall < STOPPED_SECONDS + 30


@pytest.mark.parametrize("engine_name", ["c", pytest.param("python", marks=pytest.mark.slow)])  # python: 10-30 s
def test_the_runner_says_which_limit_ended_the_search(engine_name: str) -> None:
    if engine_name == "c" and not engine.compiled():
        pytest.skip("the compiled search is not built")
    deal = random_deal(*HARD) if engine_name == "c" else pysol_deal("black_hole", PLAIN_OPEN)
    options = {"engine": engine_name} if engine_name == "c" else {
        "engine": engine_name, "cache": "off", "symmetry": "off", "wolter": "off", "reach": "off", "restarts": "off"}
    # the Python search runs in a child, whose start counts against its limits: give it longer
    limit = 0.3 if engine_name == "c" else 1.5
    at_cpu = solve(deal, "native", Limits(timeout=60, cpu=limit), options)
    assert at_cpu.status is Status.TIMEOUT and at_cpu.message == "CPU time limit reached"
    assert at_cpu.cpu >= limit
    at_wall = solve(deal, "native", Limits(timeout=limit, cpu=60), options)
    # the child may also be killed at the wall-clock limit, a grace period on, when it starts slowly
    assert at_wall.status is Status.TIMEOUT and at_wall.message in ("time limit reached", "killed at the time limit")


def test_both_directions_and_the_batch_keep_the_cpu_budget() -> None:
    if not engine.compiled():
        pytest.skip("the compiled search is not built")
    deal = random_deal(*HARD)
    both = solve(deal, "native", Limits(timeout=60, cpu=0.3), {"direction": "both"})
    assert both.status is Status.TIMEOUT and both.message == "CPU time limit reached" and both.cpu >= 0.3
    row, = engine.decide_many([Board.of(deal)], Rules(), False, cpu_seconds=0.2)
    assert row.status is Status.TIMEOUT and row.seconds >= 0.2


def test_the_python_child_reports_a_cpu_limit() -> None:
    """The child's answer carries which clock ended it; its budget is what its start left of the limit."""
    printed = json.dumps({"status": "timeout", "nodes": 4096, "max_cards": 3, "cached": 0, "sequence": None,
                          "foundations": None, "piles": None, "cpu_limited": True})
    run = ProcessRun(("python",), 0, printed + "\n", "", 1.0, 1.0)
    assert python_search.read_outcome(run).cpu_limited
    with pytest.raises(InputError, match="cpu_limited"):
        python_search.read_outcome(ProcessRun(("python",), 0, printed.replace("true", "1") + "\n", "", 1.0, 1.0))
    spent = time.process_time()
    assert python_search._cpu_left(None) is None
    assert spent + 0.5 - 0.1 < spent + python_search._cpu_left(spent + 0.5) <= spent + 0.5
    assert python_search._cpu_left(spent - 1) == pytest.approx(0, abs=1e-3)  # spent already: stop at once
