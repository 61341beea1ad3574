"""Worker pools that hold no more than they need and stop at once: `--jobs` never starts more workers
than there are tasks; Ctrl-C on `survey --jobs 2` ends it within 2 s with every finished batch stored;
Ctrl-C on `compare` ends it with no worker and no solver (their whole process groups) left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from patience.campaign import execute
from patience.cli import main
from patience.runs.process import descendants
from patience.survey import execute as survey_execute
from tests.helpers import needs_solver, process_alive, stored_rows

PATIENCE = [sys.executable, "-m", "patience"]


def _start(command: list[str]) -> subprocess.Popen:
    """A command in its own session, with Ctrl-C handled as in a terminal (pytest may have it ignored)."""
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for(condition, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the command did not get going"
        time.sleep(0.05)


def _ctrl_c(process: subprocess.Popen, whole_group: bool) -> tuple[float, str]:
    """Ctrl-C as a terminal sends it (to the whole process group) or as `kill -INT PID`; the seconds the
    command took to end, and its stderr. Every process it had started is gone by then, except that
    multiprocessing's resource tracker, which ends when it sees the command gone, gets a moment."""
    below = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in descendants([process.pid])}
    started = time.monotonic()
    if whole_group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    took = time.monotonic() - started
    left = [pid for pid, command in below.items() if process_alive(pid) and b"resource_tracker" not in command]
    deadline = time.monotonic() + 1
    while time.monotonic() < deadline and any(process_alive(pid) for pid in below):
        time.sleep(0.01)
    left += [pid for pid in below if process_alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes outlived the command: {[below[pid][-60:] for pid in left]}"
    return took, err


def test_jobs_never_exceed_the_tasks(tmp_path, monkeypatch, capsys):
    sizes = []

    class Recording(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **options) -> None:
            sizes.append(max_workers)
            super().__init__(max_workers, **options)

    monkeypatch.setattr(execute, "ProcessPoolExecutor", Recording)
    monkeypatch.setattr(survey_execute, "ProcessPoolExecutor", Recording)
    assert main(["compare", "--deals", "random:4,4,3:1-3", "--solvers", "native", "--jobs", "100000",
                 "--db", str(tmp_path / "c.db"), "--quiet"]) == 0
    assert main(["survey", "--seeds", "1-30", "--batch", "10", "--jobs", "100000", "--db", str(tmp_path / "s.db"),
                 "--quiet"]) == 0
    assert sizes == [3, 3]
    assert execute.pool_size(100000, 10 ** 6) == execute.JOBS_PER_CPU * len(os.sched_getaffinity(0))
    assert execute.pool_size(2, 60) == 2


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_ctrl_c_keeps_the_batches_that_finished_meanwhile(monkeypatch):
    """Ctrl-C comes while one result is being stored and another has finished meanwhile: both are kept,
    the batch still running is stopped, and nothing is left running."""
    submitted = []

    def recording(pool, function, work):
        submitted.extend(execute.submit_all(pool, function, work))
        return submitted

    monkeypatch.setattr(survey_execute, "submit_all", recording)
    kept = []

    def keep(result: float) -> None:
        if not kept:  # the first result: wait until the second fast one is done too, then Ctrl-C
            _wait_for(lambda: sum(future.done() for future in submitted) == 2)
            signal.raise_signal(signal.SIGINT)
        kept.append(result)

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        survey_execute.run_local(3)(_nap, [0.0, 0.01, 600.0], keep)
    assert sorted(kept) == [0.0, 0.01] and time.monotonic() - started < 60
    assert submitted[2].cancelled() or submitted[2].exception(timeout=30) is not None


@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "kill-INT"])
def test_ctrl_c_on_a_survey_ends_it_within_2_s_with_its_finished_batches(tmp_path, whole_group):
    db = tmp_path / "s.db"
    survey = _start([*PATIENCE, "survey", "--seeds", "1-100000", "--batch", "50", "--jobs", "2", "--quiet",
                     "--db", str(db)])
    _wait_for(lambda: stored_rows(db, "deals") >= 100)
    _wait_for(lambda: len(descendants([survey.pid])) >= 2)
    stored = stored_rows(db, "deals")
    took, err = _ctrl_c(survey, whole_group)
    assert survey.returncode == 130 and err.strip().startswith("interrupted: the finished batches are in")
    assert len(err.strip().splitlines()) == 1, err
    assert took < 2, f"the survey took {took:.1f} s to stop"
    after = stored_rows(db, "deals")
    assert after >= stored and after % 50 == 0


def test_ctrl_c_on_a_campaign_leaves_no_solver_running(tmp_path):
    started = tmp_path / "started"
    solver = tmp_path / "slow-sat"
    solver.write_text(f"#!/bin/sh\necho $$ >> {started}\nsleep 60 & sleep 60\n")  # a helper in its group too
    solver.chmod(0o755)
    campaign = _start([*PATIENCE, "compare", "--deals", "black_hole:1-6", "--solvers", f"sat:{solver}",
                       "--timeout", "120", "--jobs", "100", "--db", str(tmp_path / "c.db"), "--quiet"])
    _wait_for(lambda: started.exists() and len(started.read_text().split()) == 6)
    took, err = _ctrl_c(campaign, whole_group=True)
    assert campaign.returncode == 130 and err.startswith("interrupted:") and err.count("\n") == 1, err
    assert took < 5, f"the campaign took {took:.1f} s to stop"


@needs_solver("ace")
@needs_solver("fd-ff")
def test_ctrl_c_on_a_campaign_leaves_no_jvm_or_fast_downward_running(tmp_path):
    campaign = _start([*PATIENCE, "compare", "--deals", "black_hole:1-20", "--solvers", "ace,fd-ff", "--jobs", "2",
                       "--timeout", "60", "--db", str(tmp_path / "c.db"), "--quiet"])

    def names() -> set[str]:
        found = set()
        for pid in descendants([campaign.pid]):
            try:
                found.add(Path(f"/proc/{pid}/comm").read_text().strip())
            except OSError:
                continue
        return found

    _wait_for(lambda: {"java", "downward"} <= names())
    took, err = _ctrl_c(campaign, whole_group=True)
    assert campaign.returncode == 130 and err.count("\n") == 1, err
    assert took < 5, f"the campaign took {took:.1f} s to stop"
