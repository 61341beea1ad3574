"""Ctrl-C on `patience solve`: the search stops at once, the solver's processes are gone, and the
command ends with one line and status 130 (no traceback), whether the solver is our compiled
search running in-process or an external program in its own process group."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from patience.generators.deals import pysol_board
from patience.native import engine

NO_PRUNING = ["--set", "cache=off", "--set", "symmetry=off", "--set", "wolter=off", "--set", "reach=off"]


def _start(args: list[str]) -> subprocess.Popen:
    """Run `patience` with Ctrl-C handled as in a terminal (pytest may have it ignored)."""
    return subprocess.Popen([sys.executable, "-m", "patience", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the solver did not start"
        time.sleep(0.05)


def _interrupt(process: subprocess.Popen) -> subprocess.CompletedProcess:
    """Send Ctrl-C; the command must end within a few seconds."""
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(not engine.compiled(), reason="the compiled search is not built")
def test_ctrl_c_stops_the_compiled_search(tmp_path):
    board = tmp_path / "five.txt"
    board.write_text(pysol_board("black_hole", 5))  # minutes with every pruning off
    process = _start(["solve", str(board), "--solver", "native", "--set", "engine=c", "--timeout", "120",
                      *NO_PRUNING])
    _wait_for(lambda: _cpu_seconds(process.pid) > 2, seconds=60)  # well past start-up, inside the search
    ended = _interrupt(process)
    assert ended.returncode == 130 and ended.stderr.strip() == "interrupted" and ended.stdout == ""


def test_ctrl_c_kills_an_external_solver(tmp_path):
    started = tmp_path / "pid"
    solver = tmp_path / "slow-sat"
    solver.write_text(f"#!/bin/sh\necho $$ > {started}\nexec sleep 120\n")
    solver.chmod(0o755)
    board = tmp_path / "two.txt"
    board.write_text(pysol_board("black_hole", 2))
    process = _start(["solve", str(board), "--solver", f"sat:{solver}", "--timeout", "120"])
    _wait_for(lambda: started.exists() and started.read_text().strip() != "", seconds=60)
    ended = _interrupt(process)
    assert ended.returncode == 130 and ended.stderr.strip() == "interrupted" and ended.stdout == ""
    assert not _alive(int(started.read_text())), "the solver outlived the interrupted command"
