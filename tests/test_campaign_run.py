"""Campaigns for real: the native solver (and pyperplan) on PySol and random deals, through the
CLI, a SIGKILL in the middle and a resume, a Dask cluster on loopback, reports in every format."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patience.campaign.config import from_solver_list
from patience.campaign.run import campaign
from patience.campaign.store import Store
from patience.cards import parse_card
from patience.cli import main
from patience.games import read_game_deal
from patience.runners.solve import solve
from patience.runs import pool
from patience.runs.process import Limits
from patience.runs.specs import resolve
from patience.validator import replay
from tests.helpers import INSTANCES, group_gone, process_alive, stored_rows

PATIENCE = [sys.executable, "-m", "patience"]


def _rows(db: Path) -> list[dict]:
    connection = sqlite3.connect(db)
    connection.row_factory = sqlite3.Row
    rows = [dict(row) for row in connection.execute("SELECT * FROM runs")]
    connection.close()
    return rows


def _check_against_native(rows: list[dict], spec: str) -> None:
    """Every solved row replays; every decided verdict matches the native solver's own run."""
    deals = {item.name: item.deal for item in resolve(spec)}
    for row in rows:
        deal = deals[row["deal"]]
        if row["status"] == "solved":
            assert replay(deal, [parse_card(name) for name in row["sequence"].split()]).valid
        if row["status"] in ("solved", "unsolvable"):
            assert solve(deal, "native", Limits(timeout=20)).status.value == row["status"]


@pytest.mark.slow
def test_a_campaign_mixes_lbs_instances_and_black_hole_deals(tmp_path, capsys):
    """Deals of two games in one store: each run judged by its own game's rules, one report."""
    course = INSTANCES / "lbs-coursework"
    lbs = [course / "SolvableInstances" / "LBS7_47.param", course / "UnsolvableInstances" / "LBS6_20.param"]
    db, spec = tmp_path / "runs.sqlite", "+".join([*map(str, lbs), "black_hole:1-2"])
    assert main(["compare", "--deals", spec, "--solvers", "native,cadical", "--timeout", "30", "--db", str(db)]) == 0
    assert "8 of 8 runs stored (8 new), 0 contradicting" in capsys.readouterr().out
    rows = {(row["deal"], row["configuration"]): row for row in _rows(db)}
    for path in lbs:
        game, deal = read_game_deal(path)
        for solver in ("native", "cadical"):
            row = rows[(str(path), solver)]
            assert row["status"] == solve(deal, "native", Limits(timeout=20)).status.value
            if row["status"] == "solved":  # stored as `FROM->TO` moves that replay under LBS rules
                moves = game.read_answer("\n".join(row["sequence"].split()), "stored", deal)
                assert game.replay(deal, moves).valid and "->" in row["sequence"]
    games = dict(sqlite3.connect(db).execute("SELECT name, game FROM deals"))
    assert games[str(lbs[0])] == "lbs" and games["black_hole:1"] == "black_hole"
    assert main(["report", str(db), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["runs"] == 8 and report["disagreements"] == []


def test_a_campaign_is_a_library_call_that_resumes(tmp_path):
    """`campaign.run.campaign`, as `compare` calls it: every run stored once, the second call has
    nothing left to do, and a stored win is the validator's."""
    deals, configurations = resolve("black_hole:1-3"), from_solver_list("native")
    store = Store(tmp_path / "runs.sqlite")
    try:
        first = campaign(deals, configurations, Limits(timeout=20), store, pool.runner(1), show_progress=False)
        second = campaign(deals, configurations, Limits(timeout=20), store, pool.runner(1), show_progress=False)
        rows = store.runs()
    finally:
        store.close()
    assert (first.wanted, first.before, first.new, first.contradictions) == (3, 0, 3, [])
    assert (second.before, second.new) == (3, 0)
    assert sorted(row.deal for row in rows) == [item.name for item in deals]
    _check_against_native([vars(row) for row in rows], "black_hole:1-3")


def test_compare_stores_validated_runs_and_reports(tmp_path, capsys):
    db, spec = tmp_path / "runs.sqlite", "black_hole:1-4+random:6,3,3:1-3"
    code = main(["compare", "--deals", spec, "--solvers", "native", "--config", "nocache=native cache=off",
                 "--timeout", "10", "--jobs", "2", "--db", str(db)])
    captured = capsys.readouterr()
    assert code == 0 and "14 of 14 runs stored (14 new), 0 contradicting" in captured.out
    assert "compare 14/14 done, " in captured.err and " elapsed" in captured.err
    rows = _rows(db)
    assert len(rows) == 14 and len({(row["deal"], row["configuration"]) for row in rows}) == 14
    assert {row["configuration"] for row in rows} == {"native", "nocache"}
    assert all(row["host"] and row["version"] for row in rows)
    _check_against_native(rows, spec)
    assert main(["compare", "--deals", spec, "--solvers", "native", "--config", "nocache=native cache=off",
                 "--timeout", "10", "--db", str(db), "--quiet"]) == 0
    assert "(0 new)" in capsys.readouterr().out and len(_rows(db)) == 14

    assert main(["report", str(db), "--format", "json", "--plots", str(tmp_path / "plots")]) == 0
    data = json.loads(capsys.readouterr().out.split("\nplot: ")[0])
    solved = sum(row["status"] == "solved" for row in rows if row["configuration"] == "native")
    assert data["table4"]["native"]["solved"] == solved and data["runs"] == 14 and data["disagreements"] == []
    for name in ("cactus.png", "cactus.svg", "effort.png", "effort.svg"):
        assert (tmp_path / "plots" / name).stat().st_size > 1000
    assert (tmp_path / "plots" / "cactus.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["report", str(db), "--format", "csv", "--clock", "wall"]) == 0
    table4 = [row for row in csv.reader(io.StringIO(capsys.readouterr().out)) if row and row[0] == "table4"]
    assert ["table4", "solved", str(solved)] == table4[1][:3]
    assert main(["report", str(db), "--format", "markdown"]) == 0
    assert "| runs | 7 | 7 |" in capsys.readouterr().out
    assert main(["report", str(db)]) == 0
    assert "fastest %" in capsys.readouterr().out


def test_contradicting_verdicts_are_flagged_loudly(tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    assert main(["compare", "--deals", "black_hole:1-3", "--solvers", "native", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    solved = next(row["deal"] for row in _rows(db) if row["status"] == "solved")
    connection = sqlite3.connect(db)  # a lying solver's row, as a buggy runner would have stored it
    connection.execute("INSERT INTO configurations VALUES ('liar', 'native', '{}')")
    connection.execute("INSERT INTO runs SELECT deal, content, 'liar', solver, options, 'unsolvable', NULL, wall, cpu, "
                       "nodes, version, host, command, message, stats, finished FROM runs WHERE deal = ?", (solved,))
    connection.commit()
    connection.close()
    assert main(["compare", "--deals", "black_hole:1-3", "--solvers", "native", "--db", str(db), "--quiet"]) == 4
    warning = f"CONTRADICTION on {solved}: solved (validated) by native, called unsolvable by liar"
    assert warning in capsys.readouterr().err
    assert main(["report", str(db)]) == 0
    assert f"{solved}  native     liar" in capsys.readouterr().out


def test_sigkill_in_the_middle_then_resume_loses_and_duplicates_nothing(tmp_path):
    db, spec = tmp_path / "runs.sqlite", "black_hole:1-8"
    command = [*PATIENCE, "compare", "--deals", spec, "--solvers", "native",
               "--config", "python=native engine=python", "--timeout", "2", "--jobs", "2", "--db", str(db)]
    campaign = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and stored_rows(db, "runs") < 3:
        time.sleep(0.05)
    os.kill(campaign.pid, signal.SIGKILL)
    campaign.wait()
    assert group_gone(campaign.pid, seconds=15), "workers of the killed campaign kept running"
    stored = stored_rows(db, "runs")
    assert 3 <= stored < 16
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"16 of 16 runs stored ({16 - stored} new)" in resumed.stdout
    rows = _rows(db)
    assert len(rows) == 16 and len({(row["deal"], row["configuration"]) for row in rows}) == 16
    _check_against_native(rows, spec)


def test_killed_campaign_leaves_no_solver_running(tmp_path):
    """A worker orphaned by a SIGKILL stops its solver and starts no other (the pool has more queued)."""
    started = tmp_path / "started"
    solver = tmp_path / "slow-sat"
    solver.write_text(f"#!/bin/sh\necho $$ >> {started}\nsleep 60\n")
    solver.chmod(0o755)
    command = [*PATIENCE, "compare", "--deals", "black_hole:1-4", "--solvers", f"sat:{solver}",
               "--timeout", "120", "--jobs", "1", "--db", str(tmp_path / "runs.sqlite"), "--quiet"]
    campaign = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not started.exists():
        time.sleep(0.05)
    os.kill(campaign.pid, signal.SIGKILL)
    campaign.wait()
    assert group_gone(campaign.pid, seconds=15), "workers of the killed campaign kept running"
    time.sleep(2)  # a solver started by a stray task would have written its pid by now
    pids = [int(line) for line in started.read_text().split()]
    assert pids and not [pid for pid in pids if process_alive(pid)], "a solver outlived its campaign"


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_the_campaign_alone_stops_the_run_in_flight(tmp_path, number):
    """`kill -INT PID` reaches the campaign but not its workers: it must not wait out their runs."""
    started = tmp_path / "started"
    solver = tmp_path / "slow-sat"
    solver.write_text(f"#!/bin/sh\necho $$ >> {started}\nsleep 60\n")
    solver.chmod(0o755)
    db = tmp_path / "runs.sqlite"
    command = [*PATIENCE, "compare", "--deals", "black_hole:1-4", "--solvers", f"sat:{solver}",
               "--timeout", "120", "--jobs", "2", "--db", str(db), "--quiet"]
    campaign = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True,  # Ctrl-C as a shell delivers it, even if ignored here
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(started.read_text().split() if started.exists() else []) < 2:
        time.sleep(0.05)
    campaign.send_signal(number)
    try:
        _, err = campaign.communicate(timeout=20)
    finally:
        campaign.kill()
    assert campaign.returncode == 128 + number, err
    assert group_gone(campaign.pid, seconds=15), "workers of the stopped campaign kept running"
    pids = [int(line) for line in started.read_text().split()]
    assert len(pids) == 2 and not [pid for pid in pids if process_alive(pid)], "a solver outlived its campaign"
    assert stored_rows(db, "runs") == 0


def test_dask_scheduler_on_loopback(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        db, spec = tmp_path / "runs.sqlite", "black_hole:1-5+all_in_a_row:1-3"
        done = subprocess.run([*PATIENCE, "compare", "--deals", spec, "--solvers", "native", "--timeout", "10",
                               "--scheduler", address, "--db", str(db)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = _rows(db)
    assert len(rows) == 8 and all(row["status"] in ("solved", "unsolvable") for row in rows)
    assert len({row["host"] for row in rows}) >= 1
    _check_against_native(rows, spec)


def test_bad_input_exits_2_with_one_line_and_no_store(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pool, "CONNECT_SECONDS", 1.0)
    db, empty = tmp_path / "runs.sqlite", tmp_path / "empty.sqlite"
    Store(empty).close()
    negative = tmp_path / "negative.yaml"
    negative.write_text("deals: black_hole:1\ntimeout: -3\nconfigurations: {a: {solver: native}}\n")
    cases = [
        ["compare", "--deals", "black_hole:1", "--solvers", "native", "--db", str(db), "--scheduler", "tcp://127.0.0.1:9"],
        ["compare", "--deals", "black_hole:1", "--solvers", "no-such-solver", "--db", str(db)],
        ["compare", "--deals", "nonsense", "--solvers", "native", "--db", str(db)],
        ["compare", "--deals", "black_hole:0-2", "--solvers", "native", "--db", str(db)],
        ["compare", "--deals", "black_hole:1", "--db", str(db)],
        ["compare", "--deals", "black_hole:1", "--solvers", "native", "--jobs", "0", "--db", str(db)],
        ["compare", "--experiment", str(tmp_path / "missing.yaml"), "--db", str(db)],
        ["compare", "--experiment", str(negative), "--db", str(db)],
        ["report", str(tmp_path / "missing.sqlite")],
        ["report", str(empty)],
    ]
    for arguments in cases:
        try:
            code = main(arguments)
        except SystemExit as stop:  # a number out of its option's range is refused by argparse itself
            code = stop.code
        assert code == 2, arguments
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith("error: ") and captured.err.count("\n") == 1
    assert not db.exists()


def test_cli_error_has_no_traceback(tmp_path):
    (tmp_path / "bad.yaml").write_text("deals: black_hole:1\nconfigurations: {a: {solver: native, options: [1]}}\n")
    done = subprocess.run([*PATIENCE, "compare", "--experiment", str(tmp_path / "bad.yaml"), "--db",
                           str(tmp_path / "runs.sqlite")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: {tmp_path / 'bad.yaml'}: configuration a: expected")
    assert done.stderr.count("\n") == 1


def test_report_on_a_part_of_the_deals(tmp_path, capsys):
    db = tmp_path / "runs.sqlite"
    assert main(["compare", "--deals", "black_hole:1-4", "--solvers", "native", "--timeout", "20",
                 "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(db), "--format", "json", "--deals", "black_hole:2-3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["deals"], data["runs"]) == (2, 2)
    assert main(["report", str(db), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 4
