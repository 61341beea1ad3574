"""The one worker pool (patience/runs/pool.py) and its one stop policy, on each of its users: `--jobs`
never starts more workers than there are tasks; Ctrl-C, SIGTERM and SIGHUP on `compare`, `survey` and
`gen --deals` end them at once with 130, 143 and 129, no traceback and no warning, every finished run
stored and no worker and no solver (their whole process groups) left running; kill -9 of each of them
leaves nothing running either (orphaned workers stop their solvers, an orphaned search ends itself)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import pytest

from patience.cli import main
from patience.lbs.deal import random_deal, write_param
from patience.runs import pool
from patience.runs.process import descendants
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
    """Ctrl-C as a terminal sends it (to the whole process group) or as `kill -INT PID`."""
    return _stop(process, signal.SIGINT, whole_group)


def _stop(process: subprocess.Popen, number: int, whole_group: bool = True) -> tuple[float, str]:
    """Send the signal (to the whole process group, as a terminal or a hangup does, or to the command
    alone); the seconds the command took to end, and its stderr. Every process it had started is gone
    by then, except that multiprocessing's resource tracker, which ends when it sees the command gone,
    gets a moment."""
    below = _below(process)
    started = time.monotonic()
    if whole_group:
        os.killpg(process.pid, number)
    else:
        process.send_signal(number)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    took = time.monotonic() - started
    left = [pid for pid, command in below.items() if process_alive(pid) and b"resource_tracker" not in command]
    _assert_all_end(below, left)
    return took, err


def _below(process: subprocess.Popen) -> dict[int, bytes]:
    """Every process the command has started (workers, solvers, the resource tracker), by pid."""
    found = {}
    for pid in descendants([process.pid]):
        try:
            found[pid] = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
    return found


def _assert_all_end(below: dict[int, bytes], left: list[int], seconds: float = 1) -> None:
    """Wait up to `seconds` for these processes to end; kill and name any left (and those in `left`)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(process_alive(pid) for pid in below):
        time.sleep(0.01)
    left = sorted(set(left) | {pid for pid in below if process_alive(pid)})
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes outlived the command: {[below[pid][-60:] for pid in left]}"


def _clean(err: str, number: int, keeps: bool = False) -> None:
    """Nothing but the command's own one line: no traceback, no warning of multiprocessing's resource
    tracker. A command that `keeps` what finished (compare, survey) says what, and how to resume, on
    every stop; another says `interrupted` on Ctrl-C and nothing on SIGTERM and SIGHUP."""
    lines = err.strip().splitlines()
    if keeps:
        said = "interrupted" if number == signal.SIGINT else f"stopped by {signal.Signals(number).name}"
        assert len(lines) == 1 and lines[0].startswith(f"{said}: "), err
        assert re.search(r" stored in .* \([\d,]+ new\); to resume, run: patience \w+ ", lines[0]), err
    elif number == signal.SIGINT:
        assert len(lines) == 1 and lines[0].startswith("interrupted"), err
    else:
        assert lines == [], err


def test_jobs_never_exceed_the_tasks(tmp_path, monkeypatch, capsys):
    sizes = []

    class Recording(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **options) -> None:
            sizes.append(max_workers)
            super().__init__(max_workers, **options)

    monkeypatch.setattr(pool, "ProcessPoolExecutor", Recording)
    assert main(["compare", "--deals", "random:4,4,3:1-3", "--solvers", "native", "--jobs", "100000",
                 "--db", str(tmp_path / "c.db"), "--quiet"]) == 0
    assert main(["survey", "--seeds", "1-30", "--batch", "10", "--jobs", "100000", "--db", str(tmp_path / "s.db"),
                 "--quiet"]) == 0
    assert sizes == [3, 3]
    assert pool.pool_size(100000, 10 ** 6) == pool.JOBS_PER_CPU * len(os.sched_getaffinity(0))
    assert pool.pool_size(2, 60) == 2


def _exit_on_signal(number: int, frame: object) -> None:
    raise SystemExit(128 + number)


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.usefixtures("sigint_raises")
def test_a_stop_keeps_the_results_that_finished_meanwhile(monkeypatch, number):
    """A stop comes while one result is being kept and another has finished meanwhile: both are kept,
    the item still running is stopped, and nothing is left running. SIGTERM comes as the command turns
    it (SystemExit)."""
    submitted = []

    class Recording(ProcessPoolExecutor):
        def submit(self, *args, **options):
            submitted.append(super().submit(*args, **options))
            return submitted[-1]

    monkeypatch.setattr(pool, "ProcessPoolExecutor", Recording)
    previous = signal.signal(signal.SIGTERM, _exit_on_signal)  # as the command has it
    kept = []

    def keep(result: float) -> None:
        if not kept:  # the first result: wait until the second fast one is done too, then stop
            _wait_for(lambda: sum(future.done() for future in submitted) == 2)
            signal.raise_signal(number)
        kept.append(result)

    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt if number == signal.SIGINT else SystemExit):
            pool.runner(3)(_nap, [0.0, 0.01, 600.0], keep)
    finally:
        signal.signal(signal.SIGTERM, previous)
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
    assert survey.returncode == 130
    _clean(err, signal.SIGINT, keeps=True)
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


STOPS = [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
STOP_IDS = ["INT", "TERM", "HUP"]
HARD_LBS = ((30, 2), (30, 10))  # random LBS deals (cards, seed) the native search takes minutes over


def _workers_busy(process: subprocess.Popen, count: int = 2) -> bool:
    """At least `count` of the command's pool workers are there (the resource tracker aside)."""
    return sum(b"resource_tracker" not in command for command in _below(process).values()) >= count


@pytest.mark.parametrize(("number", "status"), STOPS, ids=STOP_IDS)
def test_a_stopped_campaign_ends_with_its_status_and_keeps_its_finished_runs(tmp_path, number, status):
    db = tmp_path / "c.db"
    campaign = _start([*PATIENCE, "compare", "--deals", "black_hole:1-2000", "--solvers", "native", "--jobs", "2",
                       "--timeout", "60", "--db", str(db), "--quiet"])
    _wait_for(lambda: stored_rows(db, "runs") >= 10)
    took, err = _stop(campaign, number)
    assert campaign.returncode == status and took < 5, err
    _clean(err, number, keeps=True)
    stored = stored_rows(db, "runs")  # the runs it says it stored are there, those finished after the stop too
    assert f": {stored:,} of 2,000 runs stored in {db} ({stored:,} new); to resume, run: patience compare " in err


@pytest.mark.parametrize(("number", "status"), STOPS[1:], ids=STOP_IDS[1:])
def test_sigterm_and_sighup_end_a_survey_with_its_status_and_its_finished_batches(tmp_path, number, status):
    db = tmp_path / "s.db"
    survey = _start([*PATIENCE, "survey", "--seeds", "1-100000", "--batch", "50", "--jobs", "2", "--quiet",
                     "--db", str(db)])
    _wait_for(lambda: stored_rows(db, "deals") >= 100)
    stored = stored_rows(db, "deals")
    took, err = _stop(survey, number)
    assert survey.returncode == status and took < 2, err
    _clean(err, number, keeps=True)
    after = stored_rows(db, "deals")
    assert after >= stored and after % 50 == 0


@pytest.mark.parametrize(("number", "status"), STOPS, ids=STOP_IDS)
def test_a_stopped_family_ends_with_its_status_and_writes_nothing(tmp_path, number, status):
    family = _start([*PATIENCE, "gen", "cnf", "--deals", "black_hole:1-2000", "--jobs", "2", "--quiet",
                     "-o", str(tmp_path / "family")])
    _wait_for(lambda: _workers_busy(family))
    took, err = _stop(family, number)
    assert family.returncode == status and took < 5, err
    _clean(err, number)
    assert list(tmp_path.iterdir()) == []  # no family, no private folder


def _kill_9(process: subprocess.Popen) -> None:
    """kill -9 of the command alone: every process it had started ends within seconds."""
    below = _below(process)
    assert below, "the command started nothing to check"
    process.kill()
    process.communicate(timeout=30)
    _assert_all_end(below, [], seconds=10)


def test_kill_9_of_a_survey_leaves_no_worker(tmp_path):
    db = tmp_path / "s.db"
    survey = _start([*PATIENCE, "survey", "--seeds", "1-100000", "--batch", "50", "--jobs", "2", "--quiet",
                     "--db", str(db)])
    _wait_for(lambda: stored_rows(db, "deals") >= 50 and _workers_busy(survey))
    _kill_9(survey)


@pytest.mark.parametrize("jobs", [1, 2])
def test_kill_9_of_a_family_of_lbs_deals_leaves_no_search_running(tmp_path, jobs):
    """The LBS labels come from the Python search in a child process of its own session: orphaned,
    it ends itself (one job, in the command's process) or its worker ends it (two jobs)."""
    deals = tmp_path / "deals"
    deals.mkdir()
    for cards, seed in HARD_LBS[:jobs]:
        (deals / f"hard-{seed}.param").write_text(write_param(random_deal(cards, seed)))
    family = _start([*PATIENCE, "gen", "cnf", "--deals", str(deals), "--jobs", str(jobs), "--label-timeout", "300",
                     "--quiet", "-o", str(tmp_path / "family")])

    def searching() -> int:
        return sum(b"patience.runners.python_search" in command for command in _below(family).values())

    _wait_for(lambda: searching() == jobs)
    _kill_9(family)


def _no_lock_taking_wait(*args, **options):
    raise AssertionError("the pool waited through concurrent.futures, which a stop can leave with a lock held")


def test_the_pools_wait_on_a_queue_not_on_the_futures_locks(monkeypatch):
    """A stop is an exception raised wherever the main thread is; raised inside `as_completed` or
    `wait` while they take the futures' locks one by one, it leaves one held, and the pool's thread,
    then the stop, wait on it for ever (seen: `gen --deals` stopped by SIGTERM as its workers
    started). The pools wait on a queue their futures' callbacks fill instead."""
    import concurrent.futures

    for name in ("as_completed", "wait"):
        monkeypatch.setattr(concurrent.futures, name, _no_lock_taking_wait)
        monkeypatch.setattr(concurrent.futures._base, name, _no_lock_taking_wait)
    kept = []
    pool.runner(2)(abs, [-1, -2, -3], kept.append)
    assert sorted(kept) == [1, 2, 3]
    assert list(pool.in_order(abs, [-1, -2, -3, -4], jobs=2, last=lambda result: result == 3)) == [
        (-1, 1), (-2, 2), (-3, 3)]


@pytest.mark.slow
def test_stops_at_any_moment_of_a_pools_start_end_the_command(tmp_path):
    """SIGTERM to the whole group at a random moment of the first 0.3 s after the workers appear,
    again and again: the command ends each time with 143 and leaves nothing running."""
    import random

    chance = random.Random(20261202)
    for attempt in range(25):
        family = _start([*PATIENCE, "gen", "cnf", "--deals", "black_hole:1-2000", "--jobs", "2", "--quiet",
                         "-o", str(tmp_path / f"family-{attempt}")])
        _wait_for(partial(_workers_busy, family))
        time.sleep(chance.uniform(0, 0.3))
        took, err = _stop(family, signal.SIGTERM)
        assert family.returncode == 143 and took < 5, (attempt, err)
