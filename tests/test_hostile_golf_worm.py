"""Golf's, Worm Hole's and their loss certificates' hostile input, as a careful new user tries it: a
certificate whose header nests past the interpreter's limit or announces more positions than memory
holds, one that repeats a position a million times, one with a position of a rank the deal has not, and
a survey store whose settings make no deal, each end in one line (exit 2, or a verdict of the rules,
exit 1), never an internal error, and in memory bounded by what the file holds."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import sqlite3
import subprocess
import sys
import tracemalloc
import zlib

import pytest

from patience.certificates import dead_positions
from patience.checker import check
from patience.cli import main
from patience.errors import InputError
from patience.generators.deals import pysol_deal
from tests.test_certificates import read, write
from tests.test_certificates_golf_worm_hole import deal_file, lost_worm_hole, verdict


@pytest.fixture
def worm(tmp_path):
    """PySolFC's Worm Hole deal 105 (lost), its file, and its certificate's file, header and body."""
    deal = lost_worm_hole()
    path, certificate = deal_file(tmp_path, deal), tmp_path / "real.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    line, body = gzip.decompress(certificate.read_bytes()).split(b"\n", 1)
    return deal, path, json.loads(line), body


def test_a_header_nested_past_the_recursion_limit_is_no_header(tmp_path, capsys, worm):
    deal, path, header, body = worm
    certificate = tmp_path / "deep.cert"
    certificate.write_bytes(gzip.compress(b"[" * 2000 + b"]" * 2000 + b"\n" + body))  # 4,000 bytes: a header's room
    assert verdict(path, certificate, capsys) == (
        2, f"error: {certificate}:1: not a certificate: the first line is no JSON header")


@pytest.mark.parametrize("announced", [10 ** 10, 10 ** 18, 10 ** 40])
def test_a_huge_count_of_positions_is_named_not_allocated(tmp_path, capsys, worm, announced):
    """The count is a claim: the positions are read as they come, so a count past memory (or past an
    index) is the count announced against the positions found."""
    deal, path, header, body = worm
    certificate = tmp_path / "huge.cert"
    certificate.write_bytes(gzip.compress(json.dumps({**header, "positions": announced}).encode() + b"\n" + body))
    found = len(body) // header["numbers"]
    assert verdict(path, certificate, capsys) == (2, f"error: {certificate}: {announced} positions announced, "
                                                     f"{found} found")


def test_a_position_repeated_a_million_times_stops_at_its_second(tmp_path, capsys, worm):
    """A 19 MB body in a gzip of 19 KB: its second position is refused before the rest is read."""
    deal, path, header, body = worm
    start, copies = body[:header["numbers"]], 10 ** 6
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip's wrapping
    data = packer.compress(json.dumps({**header, "positions": copies}).encode() + b"\n")
    data += b"".join(packer.compress(start * 10 ** 4) for _ in range(copies // 10 ** 4)) + packer.flush()
    certificate = tmp_path / "bomb.cert"
    certificate.write_bytes(data)
    assert verdict(path, certificate, capsys) == (
        2, f"error: {certificate}: position 2 is not after position 1: positions are sorted, each once")
    peaks = []
    for checked in (path.parent / "real.cert", certificate):  # the memory the check takes beside a real one's
        tracemalloc.start()
        try:
            with contextlib.suppress(InputError):
                check(path, checked)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] - peaks[0] < 4 * 1024 * 1024, peaks  # the whole body read first took 19 MB, its records 50 more


@pytest.mark.parametrize("stray", ["foundation", "cell"])
def test_a_position_of_a_rank_the_deal_has_not_is_judged_by_the_rules(tmp_path, capsys, worm, stray):
    """A listed position with rank 199 on the foundation, or in the cell: a position no play reaches,
    whose moves (a park, a card onto no foundation) lead off the list, so the certificate proves nothing."""
    deal, path, header, body = worm
    _, positions = read(path.parent / "real.cert")
    odd = (200, *[0] * 17, 0) if stray == "foundation" else (0, *[0] * 17, 200)
    certificate = tmp_path / "odd.cert"
    write(certificate, header, [*positions, odd])
    code, message = verdict(path, certificate, capsys)
    assert code == 1 and message.startswith("not certified: position ") and "r199" in message
    assert message.endswith("which is not listed") and "\n" not in message


def test_a_black_hole_position_on_no_rank_has_no_move(tmp_path, capsys):
    """Without cells such a position has no move at all: the rest still proves All in a Row deal 18 lost."""
    deal = pysol_deal("all_in_a_row", 18)
    path, certificate = deal_file(tmp_path, deal), tmp_path / "odd.cert"
    certificate.write_bytes(dead_positions(deal).file(deal))
    header, positions = read(certificate)
    write(certificate, header, [*positions, (200, *[0] * len(deal.piles))])
    code, message = verdict(path, certificate, capsys)
    assert code == 0 and message.splitlines()[0] == "certified: cannot be won"


@pytest.fixture
def survey(tmp_path, capsys):
    """A certified survey store of Worm Hole deals 104-105 (105 lost, with its certificate)."""
    db = tmp_path / "survey.db"
    assert main(["survey", "--game", "worm_hole", "--seeds", "104-105", "--mode", "decision", "--db", str(db),
                 "--certify", "--quiet"]) == 0
    capsys.readouterr()
    return db


@pytest.mark.parametrize("damage, said", [
    ("DELETE FROM settings WHERE key = 'game'", "its settings hold no game: no deal can be made again"),
    ("UPDATE settings SET value = '\"generalised\"' WHERE key = 'game'",
     "its settings hold game generalised with no shape: no deal can be made again"),
    ("UPDATE settings SET value = '\"lbs\"' WHERE key = 'game'", "unknown numbered game 'lbs'"),
    ("UPDATE settings SET value = '\"golf_generalised\"' WHERE key = 'game'", "golf_generalised deals have no numbers"),
    ("DELETE FROM settings WHERE key = 'numbering'", "unknown deal numbering 'None'"),
])
def test_a_survey_store_whose_settings_make_no_deal_is_named(survey, capsys, damage, said):
    with sqlite3.connect(survey) as connection:
        connection.execute(damage)
    connection.close()
    assert main(["check", "--db", str(survey), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {survey}: damaged survey store: ") and said in err, err
    assert err.count("\n") == 1


def test_a_stored_certificate_that_fails_is_named_by_its_deal_not_a_scratch_file(survey, capsys):
    with sqlite3.connect(survey) as connection:
        connection.execute("UPDATE certificates SET data = ?", (gzip.compress(b"garbage"),))
    connection.close()
    assert main(["check", "--db", str(survey), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("worm_hole deal 105: not certified: not a certificate: the first line is no "
                                   "JSON header"), out


def test_a_campaign_certificate_whose_deal_cannot_be_made_is_named_once(tmp_path, capsys):
    experiment, db = tmp_path / "experiment.yaml", tmp_path / "campaign.db"
    experiment.write_text("deals: worm_hole:105\nconfigurations:\n  - native\ntimeout: 20\ncertify: true\n")
    assert main(["compare", "--experiment", str(experiment), "--db", str(db), "--jobs", "1"]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA foreign_keys = OFF")
        connection.execute("UPDATE certificates SET deal = 'chess:5'")
    connection.close()
    assert main(["check", "--db", str(db), "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out.count("chess:5 (native): not certified: its deal can no longer be made (a moved or changed deal "
                     "file)") == 1
    assert "chess:5 (native): stored as no run, yet a certificate of its loss is kept" in out  # no run of that name


def test_a_fifo_as_the_certificate_or_the_store_is_refused_before_it_is_opened(tmp_path, worm):
    """A FIFO with no writer: its open waits for one (SQLite's, deaf even to SIGTERM), so it is refused
    as no regular file, as deal files are; a directory is named as one."""
    deal, path, header, body = worm
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for arguments, said in ((["check", str(path), str(fifo)], "not a regular file (a FIFO, device or socket)"),
                            (["check", "--db", str(fifo)], "not a regular file, not a survey store"),
                            (["check", str(path), str(tmp_path)], "is a directory, not a file")):
        done = subprocess.run([sys.executable, "-m", "patience", *arguments], capture_output=True, text=True,
                              timeout=60)
        assert (done.returncode, done.stdout) == (2, "") and done.stderr.endswith(f": {said}\n"), done.stderr
