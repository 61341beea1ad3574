"""The Slurm back end (`--cluster slurm`, patience/runs/cluster.py): its options checked here and
now; then, marked slow, surveys and campaigns on a real Slurm cluster (a one-node one on this
machine: `bash .ci/slurm-up.sh` as root, which .ci/run does) that must equal their local runs row for
row, a kill -9 of the client and its resume, and stops that leave no job queued. Where `sinfo` fails
the slow tests skip, saying why."""

from __future__ import annotations

import argparse
import functools
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patience.errors import UsageError
from patience.runs import cluster
from patience.survey.store import SurveyStore
from tests.helpers import exit_status, process_alive, stored_rows

PATIENCE = [sys.executable, "-m", "patience"]


def _slurm() -> str | None:
    """Why no Slurm cluster can be used here, or None when `sinfo` answers."""
    try:
        answer = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"no Slurm cluster: sinfo cannot run ({error}); `bash .ci/slurm-up.sh` as root starts one here"
    if answer.returncode != 0:
        said = answer.stderr.strip().splitlines()[-1:] or [f"exit {answer.returncode}"]
        return f"no Slurm cluster: sinfo fails ({said[0]}); `bash .ci/slurm-up.sh` as root starts one here"
    return None


@functools.cache
def _why_not() -> str | None:
    return _slurm()


@pytest.fixture
def on_slurm() -> None:
    """Skip, saying why, where no Slurm cluster answers (asked once, when the first such test runs)."""
    why = _why_not()
    if why:
        pytest.skip(why)


def on_cluster(test):
    """A slow test on the Slurm cluster: skipped where none answers; these tests share one pytest
    worker, so that they do not queue behind each other's jobs on a small cluster."""
    for mark in (pytest.mark.slow, pytest.mark.xdist_group("slurm"), pytest.mark.usefixtures("on_slurm")):
        test = mark(test)
    return test


# --- the options, without a cluster -----------------------------------------------------------------

@pytest.mark.parametrize("argv, said", [
    (["survey", "--partition", "short"], "--partition: only with --cluster slurm"),
    (["compare", "--deals", "black_hole:1", "--solvers", "native", "--cores", "2", "--walltime", "1:00"],
     "--cores, --walltime: only with --cluster slurm"),
    (["survey", "--cluster", "slurm", "--scheduler", "tcp://127.0.0.1:1"], "give --cluster or --scheduler, not both"),
])
def test_cluster_options_are_refused_where_they_mean_nothing(tmp_path, capsys, argv, said):
    assert exit_status([*argv, "--db", str(tmp_path / "store.sqlite")]) == 2
    assert capsys.readouterr().err.strip() == f"error: {said}"
    assert not (tmp_path / "store.sqlite").exists()


@pytest.mark.parametrize("text, seconds", [("1:00", 3600), ("0:01", 60), ("2:00:00", 7200), ("1-12:00", 129600),
                                           ("0-0:10:30", 630)])
def test_walltimes_read_as_slurm_writes_them(text, seconds):
    assert cluster.walltime(text) == seconds
    assert cluster.walltime(cluster.slurm_time(seconds)) == seconds


@pytest.mark.parametrize("text", ["", "90", "1:60", "1:00:60", "0:00:30", "1-", "one:00", "1:2"])
def test_bad_walltimes_are_refused(text):
    with pytest.raises(argparse.ArgumentTypeError, match="walltime"):
        cluster.walltime(text)


def test_jobs_are_sized_from_the_runs_limits():
    sized = cluster.sized(cluster.Cluster(cores=4), seconds=60, memory_mb=1000)
    assert sized.memory_mb == 4 * (1000 + cluster.WORKER_MB) and sized.walltime == 3600
    long = cluster.sized(cluster.Cluster(cores=2), seconds=3600, memory_mb=None)
    assert long.memory_mb == 2 * (cluster.UNLIMITED_RUN_MB + cluster.WORKER_MB) and long.walltime == 4 * 3600 + 600
    given = cluster.sized(cluster.Cluster(memory_mb=300, walltime=120), seconds=60, memory_mb=1000)
    assert (given.memory_mb, given.walltime) == (300, 120)
    assert cluster.lifetime(3600, 60) == 3600 - 360 and cluster.lifetime(600, 3600) == 300


def test_a_store_names_its_jobs(tmp_path):
    """The name a restart finds its dead client's jobs by: the same for the same store, however written."""
    os.chdir(tmp_path)
    assert cluster.job_name("a.sqlite") == cluster.job_name(tmp_path / "a.sqlite")
    assert cluster.job_name("a.sqlite") != cluster.job_name("b.sqlite")
    assert cluster.job_name("a.sqlite").startswith("patience-")


def test_a_jobs_comment_names_its_client():
    assert cluster._client("patience-client:login-1:4242") == ("login-1", 4242)
    assert cluster._client("somebody else's") is None and cluster._client("patience-client:host:x") is None


@pytest.mark.parametrize("value, said", [
    (3, "cluster must be 'slurm' or a dict of its options, not int"),
    ("pbs", "cluster: the kind must be one of slurm, not 'pbs'"),
    ({"cores": 0}, "cluster: cores: must be from 1"),
    ({"memory": "8G"}, "cluster: memory must be a whole number, not '8G'"),
    ({"walltime": 3600}, "cluster: walltime must be text such as '2:00:00', not 3600"),
    ({"walltime": "1:60"}, "cluster: walltime: '1:60' is not a walltime"),
    ({"queue": "short"}, "cluster: unknown option 'queue'; known: account, cores, kind, memory, partition, walltime"),
    ({"partition": ""}, "cluster: partition must be a name, not ''"),
])
def test_the_apis_cluster_is_checked_before_anything_runs(tmp_path, value, said):
    import patience

    with pytest.raises(UsageError, match=f"^{said}".replace("(", r"\(").replace(")", r"\)")):
        patience.survey("black_hole", range(1, 3), store=tmp_path / "s.sqlite", cluster=value)
    with pytest.raises(UsageError, match="^cluster"):
        patience.compare("black_hole:1", "native", store=tmp_path / "c.sqlite", cluster=value)
    assert not (tmp_path / "s.sqlite").exists() and not (tmp_path / "c.sqlite").exists()


def test_the_apis_cluster_options():
    assert cluster.from_api({"partition": "short", "account": "lab", "cores": 4, "memory": 8192,
                             "walltime": "2:00:00"}) == cluster.Cluster("slurm", "short", "lab", 4, 8192, 7200)
    assert cluster.from_api("slurm") == cluster.Cluster() and cluster.from_api(None) is None


def test_no_sbatch_is_a_usage_error(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(UsageError, match="no sbatch here"):
        cluster.runner(2, cluster=cluster.Cluster())


# --- on a real Slurm cluster (slow) ------------------------------------------------------------------

def _jobs(name: str) -> list[str]:
    """The ids of the jobs named `name` that Slurm still holds (pending, running or ending)."""
    listed = subprocess.run(["squeue", "-h", "-n", name, "-o", "%i"], capture_output=True, text=True, check=True)
    return listed.stdout.split()


def _no_jobs_left(name: str, seconds: float = 15) -> bool:
    """Whether Slurm holds no job named `name` within `seconds` (a cancelled job takes a moment)."""
    deadline = time.monotonic() + seconds
    while _jobs(name) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not _jobs(name)


def _campaign_rows(db: Path) -> list[tuple]:
    """A campaign store's verdicts, as a local run and a cluster run must both have them."""
    connection = sqlite3.connect(db)
    rows = sorted(connection.execute("SELECT deal, content, configuration, solver, status, sequence FROM runs"))
    connection.close()
    return rows


def _survey_rows(db: Path) -> list[tuple]:
    """A survey store's rows but their times."""
    with SurveyStore(db, create=False) as store:
        return [(row.seed, row.verdict, row.cards, row.nodes) for row in store.rows()]


def _patience(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*PATIENCE, *argv], capture_output=True, text=True, timeout=timeout, check=False)


SURVEY = ["survey", "--seeds", "1-60", "--batch", "6", "--mode", "decision", "--nodes", "200000", "--timeout", "30",
          "--quiet"]
CAMPAIGN = ["compare", "--deals", "black_hole:1-4+all_in_a_row:1-2", "--solvers", "native,sat", "--timeout", "60",
            "--quiet"]


@on_cluster
def test_a_survey_on_slurm_equals_its_local_run(tmp_path):
    local, remote = tmp_path / "local.sqlite", tmp_path / "slurm.sqlite"
    assert _patience(*SURVEY, "--db", str(local)).returncode == 0
    started = time.monotonic()
    done = _patience(*SURVEY, "--db", str(remote), "--cluster", "slurm", "--jobs", "2", "--cores", "2")
    assert done.returncode == 0, done.stderr
    assert f"{remote}: 60 of 60 black_hole deals stored (60 new)" in done.stdout
    assert _survey_rows(remote) == _survey_rows(local) and len(_survey_rows(local)) == 60
    assert _no_jobs_left(cluster.job_name(remote)), "the survey's jobs are still queued"
    print(f"survey of 60 deals on Slurm: {time.monotonic() - started:.1f} s")
    logs = sorted((tmp_path / "slurm.sqlite.slurm").iterdir())
    again = _patience(*SURVEY, "--db", str(remote), "--cluster", "slurm", "--jobs", "2")
    assert again.returncode == 0 and "(0 new)" in again.stdout, again.stderr
    assert sorted((tmp_path / "slurm.sqlite.slurm").iterdir()) == logs, "a finished survey submitted jobs"


@on_cluster
def test_a_campaign_on_slurm_equals_its_local_run(tmp_path):
    local, remote = tmp_path / "local.sqlite", tmp_path / "slurm.sqlite"
    assert _patience(*CAMPAIGN, "--db", str(local)).returncode == 0
    done = _patience(*CAMPAIGN, "--db", str(remote), "--cluster", "slurm", "--jobs", "2", "--memory", "2000")
    assert done.returncode == 0, done.stderr
    assert f"{remote}: 12 of 12 runs stored (12 new), 0 contradicting verdicts" in done.stdout
    assert _campaign_rows(remote) == _campaign_rows(local) and len(_campaign_rows(local)) == 12
    assert _no_jobs_left(cluster.job_name(remote)), "the campaign's jobs are still queued"


@on_cluster
def test_the_api_on_slurm_equals_its_local_run(tmp_path):
    import patience

    on_slurm = patience.compare("black_hole:1-3", ["native", "python=native engine=python"], timeout=30, jobs=2,
                                store=tmp_path / "slurm.sqlite", cluster={"cores": 2, "walltime": "0:30"})
    here = patience.compare("black_hole:1-3", ["native", "python=native engine=python"], timeout=30)
    columns = ["deal", "configuration", "status", "sequence"]
    assert on_slurm[columns].equals(here[columns]) and len(here) == 6
    surveyed = patience.survey("black_hole", range(1, 13), mode="decision", batch=3, jobs=2, cluster="slurm")
    locally = patience.survey("black_hole", range(1, 13), mode="decision", batch=3)
    kept = ["seed", "verdict", "cards", "nodes"]
    assert len(surveyed.rows) == 12 and surveyed.rows[kept].equals(locally.rows[kept])
    assert _no_jobs_left(cluster.job_name(tmp_path / "slurm.sqlite"))


@on_cluster
def test_kill_9_of_the_client_then_resume_repeats_nothing_and_leaves_no_job(tmp_path):
    """The client killed mid-campaign leaves its jobs behind; the same command run again cancels them,
    runs only what has no row, and ends with the local run's rows and no job queued."""
    local, db = tmp_path / "local.sqlite", tmp_path / "runs.sqlite"
    command = ["compare", "--deals", "black_hole:1-40", "--solvers", "native", "--config",
               "python=native engine=python", "--timeout", "60", "--quiet"]  # a tenth of a second a run
    assert _patience(*command, "--db", str(local)).returncode == 0
    on_slurm = [*command, "--db", str(db), "--cluster", "slurm", "--jobs", "2"]
    client = subprocess.Popen([*PATIENCE, *on_slurm], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and stored_rows(db, "runs") < 3:
        time.sleep(0.05)
    os.kill(client.pid, signal.SIGKILL)
    client.wait()
    stored, left = stored_rows(db, "runs"), _jobs(cluster.job_name(db))
    assert 3 <= stored < 80
    assert left, "no job outlived its killed client (the test would not show their cancelling)"
    resumed = _patience(*on_slurm)
    assert resumed.returncode == 0, resumed.stderr
    assert f"80 of 80 runs stored ({80 - stored} new)" in resumed.stdout
    assert _campaign_rows(db) == _campaign_rows(local)
    assert not set(left) & set(_jobs(cluster.job_name(db))), "the dead client's jobs were not cancelled"
    assert _no_jobs_left(cluster.job_name(db))


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
@on_cluster
def test_a_stopped_client_cancels_its_jobs(tmp_path, number):
    """Ctrl-C or SIGTERM to the client mid-run: its status says so, no job stays queued, and no solver
    that ran on the cluster outlives it."""
    started, solver, db = tmp_path / "started", tmp_path / "slow-sat", tmp_path / "runs.sqlite"
    solver.write_text(f"#!/bin/sh\necho $$ >> {started}\nsleep 120\n")
    solver.chmod(0o755)
    client = subprocess.Popen([*PATIENCE, "compare", "--deals", "black_hole:1-6", "--solvers", f"sat:{solver}",
                               "--timeout", "300", "--db", str(db), "--quiet", "--cluster", "slurm", "--jobs", "2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(started.read_text().split() if started.exists() else []) < 2:
        time.sleep(0.1)
    if not _jobs(cluster.job_name(db)):
        client.kill()
        pytest.fail(f"no job running: {client.communicate()[1]}")
    client.send_signal(number)
    try:
        _, err = client.communicate(timeout=60)
    finally:
        client.kill()
    assert client.returncode == 128 + number, err
    assert "to resume, run: patience compare" in err and "--cluster slurm" in err, err
    assert _no_jobs_left(cluster.job_name(db)), "the stopped client's jobs are still queued"
    deadline = time.monotonic() + 15
    pids = [int(line) for line in started.read_text().split()]
    while time.monotonic() < deadline and any(process_alive(pid) for pid in pids):
        time.sleep(0.2)
    assert not [pid for pid in pids if process_alive(pid)], "a solver outlived its cancelled job"
    assert stored_rows(db, "runs") == 0


@on_cluster
def test_a_job_slurm_refuses_is_one_line_and_no_wait(tmp_path):
    """A partition Slurm does not have, or more memory than any node: `error: ...` and exit 2 at once,
    not a wait for workers that never come."""
    db = tmp_path / "s.sqlite"
    for option in (["--partition", "no-such-partition"], ["--job-memory", "1000000"]):
        started = time.monotonic()
        done = _patience(*SURVEY, "--db", str(db), "--cluster", "slurm", *option, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error: --cluster slurm: Slurm refuses the job: "), done.stderr
        assert len(done.stderr.splitlines()) == 1 and time.monotonic() - started < 60
        assert _no_jobs_left(cluster.job_name(db))


@on_cluster
def test_jobs_that_start_no_worker_are_one_line_not_a_wait(tmp_path):
    """Jobs Slurm runs but whose worker cannot start (here: a Python the node does not have): the job's
    last words and exit 2, not a wait for ever."""
    db = tmp_path / "s.sqlite"
    done = subprocess.run([*PATIENCE, *SURVEY, "--db", str(db), "--cluster", "slurm"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "DASK_JOBQUEUE__SLURM__PYTHON": "/nonexistent/python"})
    assert done.returncode == 2, done.stderr
    said = "error: --cluster slurm: the Slurm jobs ended without starting a worker: job "
    assert done.stderr.startswith(said), done.stderr
    assert "/nonexistent/python: No such file or directory" in done.stderr and len(done.stderr.splitlines()) == 1
    assert _no_jobs_left(cluster.job_name(db))

