"""Stopping `patience solve`: Ctrl-C stops the search at once and the command ends with one line and
status 130 (no traceback), whether the solver is our compiled search running in-process, an
embedded SAT solver in a forked child or an external program in its own process group; SIGTERM and
SIGHUP end it with 128 + the signal. Either way no solver process is left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from patience.formats.yaml_form import write
from patience.generators.deals import pysol_board
from patience.generators.reduction import reduce_formula
from tests.helpers import EVERY_CLAUSE, needs_compiled_search, process_alive, stored_rows

STOPS = [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, ""), (signal.SIGHUP, 129, "")]
NO_PRUNING = ["--set", "cache=off", "--set", "symmetry=off", "--set", "wolter=off", "--set", "reach=off",
              "--set", "restarts=off"]  # with restarts deal 5 is won in a fraction of a second even so


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


def _interrupt(process: subprocess.Popen, number: int = signal.SIGINT) -> subprocess.CompletedProcess:
    """Send the signal (Ctrl-C by default); the command must end within a few seconds."""
    process.send_signal(number)
    try:
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@needs_compiled_search
def test_ctrl_c_stops_the_compiled_search(tmp_path):
    board = tmp_path / "five.txt"
    board.write_text(pysol_board("black_hole", 5))  # minutes with every pruning and restarts off
    process = _start(["solve", str(board), "--solver", "native", "--set", "engine=c", "--timeout", "120",
                      *NO_PRUNING])
    _wait_for(lambda: _cpu_seconds(process.pid) > 2, seconds=60)  # well past start-up, inside the search
    ended = _interrupt(process)
    assert ended.returncode == 130 and ended.stderr.strip() == "interrupted" and ended.stdout == ""


@pytest.mark.parametrize(("number", "status", "said"), STOPS)
def test_stopping_the_command_kills_an_external_solver(tmp_path, number, status, said):
    started = tmp_path / "pid"
    solver = tmp_path / "slow-sat"
    solver.write_text(f"#!/bin/sh\necho $$ > {started}\nexec sleep 120\n")
    solver.chmod(0o755)
    board = tmp_path / "two.txt"
    board.write_text(pysol_board("black_hole", 2))
    process = _start(["solve", str(board), "--solver", f"sat:{solver}", "--timeout", "120"])
    _wait_for(lambda: started.exists() and started.read_text().strip() != "", seconds=60)
    ended = _interrupt(process, number)
    assert ended.returncode == status and ended.stderr.strip() == said and ended.stdout == ""
    assert not process_alive(int(started.read_text())), "the solver outlived the interrupted command"


@pytest.mark.parametrize(("number", "status", "said"), STOPS)
def test_stopping_the_command_kills_an_embedded_sat_solver(tmp_path, number, status, said):
    deal = tmp_path / "unsatisfiable.yaml"
    deal.write_text(write(reduce_formula(EVERY_CLAUSE)))  # CaDiCaL needs seconds of CPU to refute it
    process = _start(["solve", str(deal), "--solver", "sat", "--timeout", "120"])
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    _wait_for(lambda: children.read_text().split() != [], seconds=60)
    solver = int(children.read_text().split()[0])
    ended = _interrupt(process, number)
    assert ended.returncode == status and ended.stderr.strip() == said and ended.stdout == ""
    assert not process_alive(solver), "the forked SAT solver outlived the stopped command"


@pytest.mark.parametrize(("number", "status", "said"), STOPS[1:])
def test_stopping_a_survey_in_this_process_keeps_its_whole_batches(tmp_path, number, status, said):
    """One job: the search runs in the command's own process. SIGTERM and SIGHUP end it with their
    status, no traceback and no warning, at once (a batch being stored is stored whole first), and one
    line: what is stored, and the command that resumes."""
    db = tmp_path / "s.db"
    process = _start(["survey", "--seeds", "1-100000", "--batch", "50", "--jobs", "1", "--quiet", "--db", str(db)])
    _wait_for(lambda: stored_rows(db, "deals") >= 100, seconds=60)
    started = time.monotonic()
    ended = _interrupt(process, number)
    stored = stored_rows(db, "deals")
    assert ended.returncode == status and ended.stdout == ""
    assert ended.stderr.strip() == (f"stopped by {signal.Signals(number).name}: {stored:,} of 100,000 black_hole "
                                    f"deals stored in {db} ({stored:,} new); to resume, run: patience survey "
                                    f"--seeds 1-100000 --batch 50 --db {db} --quiet")
    assert time.monotonic() - started < 2
    assert stored % 50 == 0
