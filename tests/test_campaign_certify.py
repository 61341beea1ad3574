"""Campaigns with `certify: true` (issue 53 item 4): each loss a run reports keeps a certificate beside
its row in the campaign store (schema 3), `patience check --db` checks them with the independent
checker, a tampered one is named by its deal and configuration, and a store's certify setting is held
from its first run."""

from __future__ import annotations

import contextlib
import gzip
import json
import sqlite3
from pathlib import Path

from patience import store_schemas
from patience.campaign.store import Store
from patience.cli import main
from patience.result import Status


def experiment(folder: Path, certify: object = True) -> Path:
    path = folder / "experiment.yaml"
    path.write_text(f"deals: black_hole:1-6\ntimeout: 30\ncertify: {json.dumps(certify)}\n"
                    "configurations: [native]\n")
    return path


def campaign(db: Path, spec: Path) -> int:
    return main(["compare", "--experiment", str(spec), "--db", str(db), "--quiet"])


def test_a_certified_campaign_keeps_a_certificate_of_each_loss_that_check_db_certifies(tmp_path, capsys):
    db = tmp_path / "campaign.sqlite"
    assert campaign(db, experiment(tmp_path)) == 0
    said = capsys.readouterr().out
    with Store(db, create=False) as store:
        lost = {(run.deal, run.configuration) for run in store.runs() if run.status is Status.UNSOLVABLE}
    assert said.strip().endswith(f"0 contradicting verdicts, lost (certified): {len(lost)} of {len(lost)} lost")
    with Store(db, create=False) as store:
        kept = {(item.deal, item.configuration) for item in store.certificates()}
        assert store.database.version == store_schemas.CAMPAIGN.schema_version == 3 and store.certifies()
    assert lost and kept == lost
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out.strip() == f"{db}: {len(lost)} of {len(lost)} certificates certified: cannot be won"


def test_check_db_names_a_campaigns_tampered_certificate(tmp_path, capsys):
    db = tmp_path / "campaign.sqlite"
    assert campaign(db, experiment(tmp_path)) == 0
    with sqlite3.connect(db) as connection:
        deal, label, data = connection.execute("SELECT deal, configuration, data FROM certificates "
                                               "ORDER BY length(data) DESC LIMIT 1").fetchone()
        header_line, _ = gzip.decompress(data).split(b"\n", 1)
        header = {**json.loads(header_line), "positions": 0}  # every position dropped, the start too
        connection.execute("UPDATE certificates SET data = ? WHERE deal = ? AND configuration = ?",
                           (gzip.compress(json.dumps(header).encode() + b"\n"), deal, label))
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert f"{deal} ({label}): not certified: the start position" in out and "1 not certified" in out


def test_a_campaign_is_certified_or_not_from_its_first_run(tmp_path, capsys):
    db = tmp_path / "campaign.sqlite"
    assert campaign(db, experiment(tmp_path, certify=False)) == 0
    with Store(db, create=False) as store:
        assert store.certified() == 0 and not store.certifies() and "certify" not in store.settings()
    capsys.readouterr()
    assert campaign(db, experiment(tmp_path, certify=True)) == 2
    assert "certify" in capsys.readouterr().err
    assert main(["check", "--db", str(db), "--quiet"]) == 2  # no certificates to check


def test_certify_must_be_true_or_false(tmp_path, capsys):
    assert campaign(tmp_path / "campaign.sqlite", experiment(tmp_path, certify="yes")) == 2
    err = capsys.readouterr().err.strip()
    assert "experiment.yaml" in err and "certify must be true or false" in err and "\n" not in err


def test_a_store_of_schema_2_is_migrated_by_its_first_write(tmp_path, capsys):
    """A campaign store as the previous patience wrote it (no certificates table, no certify setting)
    is read as it is, and its next run adds the empty table and records certify false."""
    db = tmp_path / "campaign.sqlite"
    assert campaign(db, experiment(tmp_path, certify=False)) == 0
    with sqlite3.connect(db, isolation_level=None) as connection:
        connection.execute("DROP TABLE certificates")
        connection.execute("DELETE FROM settings WHERE key = 'certify'")
        connection.execute("PRAGMA user_version = 2")
    assert main(["report", str(db)]) == 0
    assert campaign(db, experiment(tmp_path, certify=False)) == 0
    assert "6 of 6 runs stored (0 new)" in capsys.readouterr().out
    with Store(db, create=False) as store:
        assert store.database.version == 3 and store.certified() == 0


def test_patience_compare_certifies_as_the_experiment_files_key_does(tmp_path, capsys):
    import patience

    db = tmp_path / "api.sqlite"
    frame = patience.compare("black_hole:1-2", "native", timeout=30, store=db, certify=True)
    lost = set(frame[frame["status"] == "unsolvable"]["deal"])
    assert lost == {"black_hole:1"} and frame.attrs["certified"] == (1, 1)  # deal 2 is won
    with Store(db, create=False) as store:
        assert store.certifies()
        assert {(item.deal, item.configuration) for item in store.certificates()} == {("black_hole:1", "native")}
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out.strip() == f"{db}: 1 of 1 certificates certified: cannot be won"
    assert campaign(db, experiment(tmp_path, certify=False)) == 2  # the store is certified from its first run
    assert patience.compare("black_hole:2", "native", timeout=30).attrs["certified"] is None


def test_a_max_cards_configurations_certificates_bound_the_plays_by_its_most_cards(tmp_path, capsys):
    """A configuration with max-cards on gets certificates of the max-cards search's cache: each one's
    checked bound is the run's own most cards (deal 77, lost at 16: the decision search's bounds 20)."""
    from patience.checker import check
    from patience.generators.deals import pysol_deal

    spec = tmp_path / "experiment.yaml"
    spec.write_text("deals: black_hole:77\ntimeout: 30\ncertify: true\nconfigurations:\n"
                    "  most: {solver: native, options: {max-cards: \"on\"}}\n  native: {solver: native}\n")
    db = tmp_path / "campaign.sqlite"
    assert campaign(db, spec) == 0
    with Store(db, create=False) as store:
        most = {run.configuration: json.loads(run.stats).get("max_cards") for run in store.runs()}
        kept = {item.configuration: item.data for item in store.certificates()}
    deal = pysol_deal("black_hole", 77)
    (tmp_path / "deal.txt").write_text(str(deal))
    bounds = {}
    for label, data in kept.items():
        (tmp_path / f"{label}.cert").write_bytes(data)
        bounds[label] = check(tmp_path / "deal.txt", tmp_path / f"{label}.cert")[1]
    assert most["most"] == 16 and bounds["most"] == "certified: no play plays more than 16 of the 51 cards"
    assert bounds["native"] != bounds["most"]


def test_check_db_remakes_a_lost_deal_file_of_every_game(tmp_path, capsys):
    """A campaign over deal files of every game: check --db writes each deal again in a form its game
    writes whole (Late Binding Solitaire has no YAML form), so every certificate is checked. (Golf writes
    YAML as Worm Hole does; a lost Golf deal's certificate walks some 160,000 positions.)"""
    folder = tmp_path / "deals"
    folder.mkdir()
    specs = {"generalised.txt": ["--ranks", "7", "--suits", "4", "--pile-height", "3", "--seed", "15"],
             "lbs.txt": ["--game", "lbs", "--cards", "14", "--seed", "1"],
             "binary_star.txt": ["--game", "binary_star", "--seed", "4"],
             "worm_hole.txt": ["--game", "worm_hole", "--seed", "105"],
             "all_in_a_row.txt": ["--game", "all_in_a_row", "--seed", "1"]}
    for name, arguments in specs.items():
        assert main(["deal", *arguments]) == 0
        (folder / name).write_text(capsys.readouterr().out, encoding="utf-8")
    spec = tmp_path / "experiment.yaml"
    spec.write_text(f"deals: {json.dumps(str(folder))}\ntimeout: 60\ncertify: true\nconfigurations: [native]\n")
    db = tmp_path / "campaign.sqlite"
    assert campaign(db, spec) == 0
    assert capsys.readouterr().out.strip().endswith(f"lost (certified): {len(specs)} of {len(specs)} lost")
    assert main(["check", "--db", str(db), "--quiet"]) == 0
    said = capsys.readouterr().out.strip()
    assert said == f"{db}: {len(specs)} of {len(specs)} certificates certified: cannot be won"


def test_patience_check_of_a_store_says_what_check_db_says(tmp_path, capsys):
    import patience

    db = tmp_path / "campaign.sqlite"
    assert campaign(db, experiment(tmp_path)) == 0
    capsys.readouterr()
    checked = patience.check(store=db, resume=tmp_path / "passed")
    assert main(["check", "--db", str(db), "--quiet"]) == 0
    assert checked and checked.fault is None and "\n".join(checked.lines) == capsys.readouterr().out.strip()
    with sqlite3.connect(db) as connection:
        deal, label, data = connection.execute("SELECT deal, configuration, data FROM certificates LIMIT 1").fetchone()
        header_line, _ = gzip.decompress(data).split(b"\n", 1)
        header = {**json.loads(header_line), "positions": 0}
        connection.execute("UPDATE certificates SET data = ? WHERE deal = ? AND configuration = ?",
                           (gzip.compress(json.dumps(header).encode() + b"\n"), deal, label))
    broken = patience.check(store=db, resume=tmp_path / "passed")  # a changed certificate is checked again
    assert not broken and broken.fault == broken.lines[0]
    assert broken.fault.startswith(f"{deal} ({label}): not certified")
    assert broken.lines[-1].endswith("; 1 not certified")


def test_check_db_names_a_run_stored_as_solved_whose_loss_a_certificate_proves(tmp_path, capsys):
    db = tmp_path / "campaign.sqlite"
    assert campaign(db, experiment(tmp_path)) == 0
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        deal, label = connection.execute("SELECT deal, configuration FROM certificates LIMIT 1").fetchone()
        connection.execute("UPDATE runs SET status = 'solved' WHERE deal = ? AND configuration = ?", (deal, label))
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{deal} ({label}): stored as solved, yet a certificate of its loss is kept"
    assert out[-1].endswith("; 1 stored as not lost")
