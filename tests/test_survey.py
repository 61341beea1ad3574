"""Surveys for real: a few hundred numbered deals decided in batches through the CLI, verdicts
equal to `patience solve`, a SIGKILL in the middle and a resume that loses and repeats nothing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patience.cli import main
from patience.errors import InputError
from patience.generators.deals import pysol_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.survey.decide import decide
from patience.survey.store import READ_VERDICT, UNDECIDED, Row, SurveyStore
from tests.helpers import exit_status, group_gone, stored_rows

PATIENCE = [sys.executable, "-m", "patience"]


def _rows(db: Path) -> list[tuple]:
    connection = sqlite3.connect(db)
    rows = list(connection.execute("SELECT seed, verdict, cards, nodes FROM deals ORDER BY seed"))
    connection.close()
    return rows


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row"])
def test_survey_verdicts_and_cards_equal_patience_solve(game, tmp_path, capsys):
    db = tmp_path / "survey.db"
    assert main(["survey", "--game", game, "--seeds", "1-120,32001-32030", "--batch", "40", "--jobs", "2",
                 "--db", str(db)]) == 0
    captured = capsys.readouterr()
    assert "150 of 150" in captured.out and "survey 150/150 done, " in captured.err
    rows = _rows(db)
    assert [row[0] for row in rows] == [*range(1, 121), *range(32001, 32031)]
    for seed, verdict, cards, _ in rows:
        result = solve(pysol_deal(game, seed), "native", Limits(timeout=30), {"max-cards": "on"})
        assert READ_VERDICT[verdict] is result.status  # the store's integer read back as the solver's Status
        assert cards == result.stats["max_cards"]
    assert {READ_VERDICT[row[1]] for row in rows} == {Status.SOLVED, Status.UNSOLVABLE}


def test_sigkill_in_the_middle_then_resume_loses_and_repeats_nothing(tmp_path):
    db, whole = tmp_path / "killed.db", tmp_path / "whole.db"
    command = [*PATIENCE, "survey", "--seeds", "1-400", "--batch", "25", "--jobs", "2", "--quiet"]
    survey = subprocess.Popen([*command, "--db", str(db)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and stored_rows(db, "deals") < 75:
        time.sleep(0.02)
    os.kill(survey.pid, signal.SIGKILL)
    survey.wait()
    assert group_gone(survey.pid, seconds=15), "workers of the killed survey kept running"
    stored = stored_rows(db, "deals")
    assert 75 <= stored < 400 and stored % 25 == 0  # whole batches only
    resumed = subprocess.run([*command, "--db", str(db)], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"400 of 400 black_hole deals stored ({400 - stored} new)" in resumed.stdout
    assert subprocess.run([*command, "--db", str(whole)], capture_output=True, timeout=300).returncode == 0
    assert _rows(db) == _rows(whole)
    again = subprocess.run([*command, "--db", str(db)], capture_output=True, text=True, timeout=60)
    assert "(0 new)" in again.stdout and len(_rows(db)) == 400



def test_a_batch_with_a_stored_seed_is_refused_whole(tmp_path):
    store = SurveyStore(tmp_path / "s.db")
    store.add_batch([Row(1, Status.SOLVED, 51, 10, 0.1), Row(2, Status.UNSOLVABLE, 3, 5, 0.1)])
    with pytest.raises(InputError, match="UNIQUE constraint failed"):
        store.add_batch([Row(3, Status.SOLVED, 51, 10, 0.1), Row(2, Status.UNSOLVABLE, 3, 5, 0.1)])
    assert [row.seed for row in store.rows()] == [1, 2]
    store.close()


def test_a_store_keeps_its_game_and_numbering(tmp_path, capsys):
    db = tmp_path / "s.db"
    assert main(["survey", "--seeds", "1-3", "--db", str(db), "--quiet"]) == 0
    assert main(["survey", "--seeds", "1-3", "--numbering", "pysol", "--db", str(db), "--quiet"]) == 2
    assert "numbering" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--seeds", "0-5"], ["--seeds", "a-b"], ["--seeds", "5-1"], ["--jobs", "0"],
                                  ["--batch", "0"], ["report", "--plot", "x.pdf"], ["report"],
                                  ["shuffles", "--games", "0"]])
def test_bad_survey_arguments_end_in_one_line_and_status_2(argv, tmp_path, capsys):
    code = exit_status(["survey", *argv, "--db", str(tmp_path / "none.db")])
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1 and captured.err.startswith("error: ")


def test_survey_on_a_dask_scheduler_on_loopback(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        db, here = tmp_path / "dask.db", tmp_path / "here.db"
        done = subprocess.run([*PATIENCE, "survey", "--game", "all_in_a_row", "--seeds", "1-60", "--batch", "15",
                               "--scheduler", cluster.scheduler_address, "--db", str(db)],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert main(["survey", "--game", "all_in_a_row", "--seeds", "1-60", "--db", str(here), "--quiet"]) == 0
    assert _rows(db) == _rows(here)


def test_a_search_cut_short_is_undecided_with_its_longest_length():
    deal = pysol_deal("black_hole", 7)  # won in about 3,000 nodes
    verdict, cards, nodes, play = decide(deal, None, nodes=100)
    assert verdict is UNDECIDED is Status.UNKNOWN and play == () and 0 < cards < 51 and nodes == 100
