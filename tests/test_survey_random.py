"""`patience survey --shape R,S,H`: seeded random generalised deals into a resumable store that
records the shape, reported with the share won, its Wilson interval, median and 99th-percentile
nodes and the undecided share; bad shapes refused in one line; stores written before still open."""

from __future__ import annotations

import json
import sqlite3

import pytest

from patience.cli import main
from patience.generators.deals import random_deal
from patience.native import engine
from patience.result import Status
from patience.survey.decide import RULES
from patience.survey.report import percentile
from patience.survey.store import UNDECIDED, SurveyStore

RUN = ["survey", "--shape", "13,4,3", "--mode", "decision", "--nodes", "20000", "--batch", "3", "--quiet"]


def _verdict(deal) -> int:
    outcome, _ = engine.run(deal, None, RULES, False, 20000, 60.0)
    return outcome.status if outcome.status.decided else UNDECIDED


def test_a_random_survey_stores_the_shape_and_the_verdicts_of_those_deals(tmp_path, capsys):
    db = tmp_path / "random.db"
    assert main([*RUN, "--seeds", "1-8", "--db", str(db)]) == 0
    assert capsys.readouterr().out == f"{db}: 8 of 8 generalised deals stored (8 new)\n"
    store = SurveyStore(db, create=False)
    settings, rows = store.settings(), store.rows()
    store.close()
    assert settings == {"game": "generalised", "mode": "decision", "timeout": 60.0, "nodes": 20000,
                        "shape": [13, 4, 3], "certify": False}
    assert [row.seed for row in rows] == list(range(1, 9))
    assert [row.verdict for row in rows] == [_verdict(random_deal(13, 4, 3, seed)) for seed in range(1, 9)]
    assert all(row.cards == 51 for row in rows if row.verdict == Status.SOLVED)
    assert {row.verdict for row in rows} >= {Status.SOLVED}


def test_a_random_survey_resumes_and_refuses_another_shape_or_mode(tmp_path, capsys):
    db = tmp_path / "random.db"
    assert main([*RUN, "--seeds", "1-4", "--db", str(db)]) == 0
    assert main([*RUN, "--seeds", "1-6", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{db}: 6 of 6 generalised deals stored (2 new)"
    other_shape = [*RUN[:2], "13,4,2", *RUN[3:]]
    for argv in (other_shape, [*RUN[:3], "--mode", "max-cards", *RUN[5:]], ["survey", "--seeds", "1-4"]):
        assert main([*argv, "--seeds", "1-4", "--db", str(db)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "holds a survey with" in err and "use another --db" in err


def test_the_report_gives_the_share_won_its_interval_nodes_and_the_undecided_share(tmp_path, capsys):
    db = tmp_path / "random.db"
    assert main([*RUN, "--seeds", "1-10", "--db", str(db)]) == 0
    capsys.readouterr()
    rows = SurveyStore(db, create=False).rows()
    won = sum(row.verdict == Status.SOLVED for row in rows)
    decided = sum(row.verdict != UNDECIDED for row in rows)
    assert main(["survey", "report", "--db", str(db), "--plot", str(tmp_path / "random.png")]) == 0
    assert (tmp_path / "random.png").stat().st_size > 0
    text = capsys.readouterr().out
    assert text.startswith("survey: generalised, 10 deals (random 13 ranks x 4 suits in piles of 3, decision mode)\n"
                           "limits: 60.0 s and 20,000 nodes per deal\n")
    assert f"won: {won} of {decided} decided = {100 * won / decided:.2f}% (95% Wilson interval " in text
    assert f"undecided: {10 - decided} of 10 = {10 * (10 - decided):.2f}%" in text
    nodes = sorted(row.nodes for row in rows)
    assert f"nodes per deal: median {nodes[4]:,}, 99th percentile {nodes[9]:,}" in text
    assert "of 51\n" in text and "no playable card" not in text


def test_percentiles_by_nearest_rank():
    values = list(range(100, 0, -1))
    assert (percentile(values, 0.5), percentile(values, 0.99), percentile(values, 1.0)) == (50, 99, 100)
    assert percentile([7], 0.5) == percentile([7], 0.99) == 7


@pytest.mark.parametrize("argv, said", [
    (["--shape", "13,4"], "expected RANKS,SUITS,HEIGHT"),
    (["--shape", "a,b,c"], "expected RANKS,SUITS,HEIGHT"),
    (["--shape", "13,4,3,2"], "expected RANKS,SUITS,HEIGHT"),
    (["--shape", "0,4,3"], "must be positive"),
    (["--shape", "13,-4,3"], "must be positive"),
    (["--shape", "1,1,1"], "at least one card outside the foundation"),
    (["--shape", "20000,2,3"], "more than the cap"),
    (["--shape", "101,100,3"], "more than the cap"),
    (["--shape", "100,90,3"], "the compiled search takes at most 8,192"),
    (["--shape", "9" * 5000 + ",4,3"], "expected RANKS,SUITS,HEIGHT"),
    (["--game", "generalised"], "needs --shape"),
    (["--game", "black_hole", "--shape", "13,4,3"], "--shape is for --game generalised"),
])
def test_bad_shapes_end_in_one_line_and_status_2_without_a_store(argv, said, tmp_path, capsys):
    db = tmp_path / "none.db"
    assert main(["survey", *argv, "--seeds", "1-3", "--db", str(db), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: ") and said in err
    assert len(err) < 300 and not db.exists()


def test_a_store_written_before_shapes_and_modes_still_opens_reports_and_resumes(tmp_path, capsys):
    """The previous version's survey store: unmarked, no `nodes` nor `shape` setting."""
    db = tmp_path / "old.db"
    connection = sqlite3.connect(db)
    connection.executescript("""
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE deals (seed INTEGER PRIMARY KEY, verdict INTEGER NOT NULL, cards INTEGER NOT NULL,
                            nodes INTEGER NOT NULL, seconds REAL NOT NULL);""")
    old = {"game": "black-hole", "numbering": "pysolfc", "mode": "max-cards", "timeout": 60.0}
    connection.executemany("INSERT INTO settings VALUES (?, ?)", [(k, json.dumps(v)) for k, v in old.items()])
    connection.executemany("INSERT INTO deals VALUES (?, ?, ?, ?, ?)", [(1, 1, 51, 90, 0.01), (2, 0, 12, 40, 0.01)])
    connection.commit()
    connection.close()
    assert main(["survey", "report", "--db", str(db)]) == 0
    assert "won: 1 of 2 decided" in capsys.readouterr().out
    assert main(["survey", "--seeds", "1-3", "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out == f"{db}: 3 of 3 black_hole deals stored (1 new)\n"


@pytest.mark.parametrize("shape", ['[0, 4, 3]', '[13, 4]', '"13,4,3"', '[13, 4, true]'])
def test_a_store_with_a_shape_this_patience_cannot_read_is_refused(shape, tmp_path, capsys):
    db = tmp_path / "random.db"
    assert main([*RUN, "--seeds", "1-2", "--db", str(db)]) == 0
    connection = sqlite3.connect(db)
    connection.execute("UPDATE settings SET value = ? WHERE key = 'shape'", (shape,))
    connection.commit()
    connection.close()
    capsys.readouterr()
    assert main(["survey", "report", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "setting shape" in err and "is not one this patience reads" in err


@pytest.mark.parametrize("game, seeds", [("black_hole", "1-40"), ("binary_star", "1-12")])
def test_decision_mode_gives_the_verdicts_of_max_cards_mode_on_numbered_deals(game, seeds, tmp_path):
    verdicts, cards = {}, {}
    for mode in ("decision", "max-cards"):
        db = tmp_path / f"{mode}.db"
        assert main(["survey", "--game", game, "--seeds", seeds, "--mode", mode, "--db", str(db), "--quiet"]) == 0
        store = SurveyStore(db, create=False)
        assert store.settings()["mode"] == mode
        rows = store.rows()
        store.close()
        verdicts[mode] = [row.verdict for row in rows]
        cards[mode] = [row.cards for row in rows]
    assert verdicts["decision"] == verdicts["max-cards"] and Status.UNSOLVABLE in verdicts["decision"]
    assert all(short <= most for short, most in zip(cards["decision"], cards["max-cards"], strict=True))
