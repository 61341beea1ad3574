"""A stored deal is known by its content, its path only a label: a deal file replaced under the same
path is a new deal (said in one line when a campaign resumes), its old runs stay with the old content,
and no verdict on one content is set against a verdict on the other."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

from patience.cli import main
from patience.games import deal_content, game_of, parse_game_deal
from patience.generators.deals import pysol_deal
from patience.lbs.deal import LBSDeal
from patience.runs import specs

SOLVABLE = "ranks: 4\nfoundation: r0s0\npiles:\n  - [r1s0, r2s0, r3s0]\n  - [r2s1, r1s1, r3s1]\n  - [r0s1]\n"
UNSOLVABLE = "ranks: 4\nfoundation: r0s0\npiles:\n  - [r2s0, r1s0, r3s0]\n  - [r2s1, r1s1, r3s1]\n  - [r0s1]\n"


def test_a_deal_content_is_its_cards_not_its_form_or_name():
    deal = pysol_deal("black_hole", 7, "pysolfc")
    game = game_of(deal)
    key = deal_content(game, deal)
    for form in game.forms:  # the same deal read back from every form it is written in
        again = parse_game_deal(game.write_deal(deal, form), f"deal.{form}")[1]
        assert deal_content(game, again) == key, form
    assert deal_content(game, pysol_deal("black_hole", 8, "pysolfc")) != key
    assert deal_content(game, pysol_deal("all_in_a_row", 7, "pysolfc")) != key
    lbs = LBSDeal((3, 1, 2, 4), name="first")
    assert deal_content(game_of(lbs), lbs) == deal_content(game_of(lbs), replace(lbs, name="second"))
    assert deal_content(game_of(lbs), lbs) != deal_content(game_of(lbs), replace(lbs, cards=(1, 3, 2, 4)))


def _compare(folder: Path, db: Path, *labels: str) -> list[str]:
    configs = [item for label in labels for item in ("--config", f"{label}=native")]
    return ["compare", "--deals", str(folder), *configs, "--timeout", "10", "--quiet", "--db", str(db)]


def test_a_deal_file_changed_under_its_path_is_a_new_deal(tmp_path, capsys):
    folder, db = tmp_path / "deals", tmp_path / "campaign.db"
    folder.mkdir()
    changing = folder / "a.txt"
    changing.write_text(SOLVABLE)
    (folder / "b.txt").write_text(UNSOLVABLE)
    assert main(_compare(folder, db, "first")) == 0
    capsys.readouterr()
    changing.write_text(UNSOLVABLE)  # the same path, another deal: the stored `solved` is not its verdict
    assert main(_compare(folder, db, "first", "second")) == 0  # was: CONTRADICTION on a.txt, exit 4
    out, err = capsys.readouterr()
    assert out.endswith(": 4 of 4 runs stored (3 new), 0 contradicting verdicts\n"), out
    [note] = err.splitlines()
    old = deal_content(*parse_game_deal(SOLVABLE, "old"))
    new = deal_content(*parse_game_deal(UNSOLVABLE, "new"))
    assert note == (f"note: {changing} changed since it was stored (content {old[:12]}, now {new[:12]}): its old "
                    "runs are kept under the old content, and it runs as a new deal")
    connection = sqlite3.connect(db)
    stored = connection.execute("SELECT content, configuration, status FROM runs WHERE deal = ?", (str(changing),))
    assert sorted(stored) == sorted([(old, "first", "solved"), (new, "first", "unsolvable"),
                                     (new, "second", "unsolvable")])
    connection.close()
    # a third run finds every run there, and says nothing more
    assert main(_compare(folder, db, "first", "second")) == 0
    out, err = capsys.readouterr()
    assert "4 of 4 runs stored (0 new)" in out and err == ""
    # the report names each content of the changed file apart, and makes a replay page only for the
    # content the file holds now
    assert main(["report", str(db), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["deals"] == 3
    assert err == (f"note: {changing} changed between runs; its 2 contents are reported apart: "
                   f"{changing}#{old[:12]}, {changing}#{new[:12]}\n")
    html = tmp_path / "html"
    assert main(["report", str(db), "--html", str(html)]) == 0
    capsys.readouterr()
    index = (html / "index.html").read_text()
    assert f"{changing}#{old[:12]}" in index and f"{changing}#{new[:12]}" in index
    pages = sorted(path.name for path in (html / "deals").iterdir())
    assert len(pages) == 2 and any(new[:12] in page for page in pages) and not any(old[:12] in page for page in pages)
    # `report --deals` keeps the deals as they are now: the old content's run is left out
    assert main(["report", str(db), "--deals", str(folder), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 2


def test_a_stored_name_is_one_deal_within_the_caps():
    """A store naming a range, or a random shape beyond the caps, names no deal to make (it was
    3.9 GB for `report --html` on `black_hole:1-999999`)."""
    assert specs.stored_deal("black_hole:1-999999", "") is None
    assert specs.stored_deal("random:100000,100000,1:1", "") is None
    assert specs.stored_deal("black_hole:1,2", "") is None
    named = specs.stored_deal("black_hole:3", "")
    assert named is not None and specs.stored_deal("black_hole:3", named.content) is not None
    assert specs.stored_deal("black_hole:3", "0" * 64) is None


def test_report_pages_make_no_deal_a_store_names_beyond_the_caps(tmp_path, capsys):
    db = tmp_path / "campaign.db"
    assert main(["compare", "--deals", "random:4,4,3:1-2", "--solvers", "native", "--quiet", "--db", str(db)]) == 0
    connection = sqlite3.connect(db, isolation_level=None)
    for table, column in (("deals", "name"), ("runs", "deal")):
        connection.execute(f"UPDATE {table} SET {column} = 'black_hole:1-999999' WHERE {column} = 'random:4,4,3:1'")
    connection.close()
    capsys.readouterr()
    assert main(["report", str(db), "--html", str(tmp_path / "html")]) == 0
    assert "(1 replay pages)" in capsys.readouterr().out
    assert sorted(path.name for path in (tmp_path / "html" / "deals").iterdir()) == ["random_4_4_3_2.html"]


def test_the_table4_snapshot_of_schema_1_reads_unchanged(tmp_path, capsys):
    """docs/table4.md reports this store; it was written with schema 1 and must read as it is."""
    import hashlib
    import lzma

    snapshot = Path(__file__).resolve().parents[1] / "docs" / "table4" / "table4.sqlite.xz"
    db = tmp_path / "table4.sqlite"
    db.write_bytes(lzma.decompress(snapshot.read_bytes()))
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    assert main(["report", str(db), "--format", "json", "--deals", "black_hole:1-100"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 100 and data["runs"] == 500 and data["disagreements"] == []
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(item.name for item in tmp_path.iterdir()) == ["table4.sqlite"]
