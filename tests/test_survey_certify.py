"""survey --certify and check --db (issue 53 item 4): every loss a survey proves keeps a certificate
in the store, and `patience check --db` checks them all with the independent checker, refusing a
tampered one by its deal's number and a damaged store in one line."""

from __future__ import annotations

import contextlib
import gzip
import json
import sqlite3
from pathlib import Path

from patience.cli import main
from patience.result import Status
from patience.survey.store import SurveyStore


def certified_survey(db: Path, seeds: str = "1-60") -> None:
    assert main(["survey", "--seeds", seeds, "--db", str(db), "--certify", "--quiet", "--timeout", "30"]) == 0


def stored(db: Path) -> tuple[set[int], dict[int, bytes]]:
    """The lost seeds and the stored certificates by seed."""
    with SurveyStore(db, create=False) as store:
        lost = {row.seed for row in store.rows() if row.verdict is Status.UNSOLVABLE}
        return lost, {certificate.seed: certificate.data for certificate in store.certificates()}


def test_a_certified_survey_keeps_a_certificate_of_each_loss_that_check_db_certifies(tmp_path, capsys):
    db = tmp_path / "survey.sqlite"
    certified_survey(db)
    lost, certificates = stored(db)
    assert lost and set(certificates) == lost
    capsys.readouterr()
    assert main(["survey", "report", "--db", str(db)]) == 0
    assert f"lost (certified): {len(lost)} of {len(lost)} lost" in capsys.readouterr().out
    assert main(["check", "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out.strip().endswith(f"{len(lost)} of {len(lost)} certificates certified: cannot be won")


def test_check_db_names_a_tampered_certificate(tmp_path, capsys):
    db = tmp_path / "survey.sqlite"
    certified_survey(db)
    _, certificates = stored(db)
    seed = max(certificates, key=lambda number: len(certificates[number]))
    header_line, body = gzip.decompress(certificates[seed]).split(b"\n", 1)
    header = json.loads(header_line)
    size = header["numbers"] * header["width"]
    header["positions"] -= 1  # a position dropped: its parent's move leads out of the set, or the start is gone
    dropped = body[:size * (len(body) // size // 2)] + body[size * (len(body) // size // 2 + 1):]
    tampered = gzip.compress(json.dumps(header, sort_keys=True).encode() + b"\n" + dropped)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE certificates SET data = ? WHERE seed = ?", (tampered, seed))
    connection.close()
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if "not certified" in line and f"deal {seed}:" in line]
    assert out[-1].endswith(f"{len(certificates) - 1} of {len(certificates)} certificates certified: "
                            "cannot be won; 1 not certified")


def test_check_db_names_a_deal_stored_as_won_whose_loss_a_certificate_proves(tmp_path, capsys):
    """The store contradicting itself (its row says won, its certificate proves the loss) is not certified."""
    db = tmp_path / "survey.sqlite"
    certified_survey(db, "1-30")
    _, certificates = stored(db)
    seed = min(certificates)
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.execute("UPDATE deals SET verdict = 1 WHERE seed = ?", (seed,))
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"black_hole deal {seed}: stored as solved, yet a certificate of its loss is kept"
    assert out[-1].endswith("certificates certified: cannot be won; 1 stored as not lost")


def test_a_certified_survey_resumes_certified_and_keeps_to_its_setting(tmp_path, capsys):
    db = tmp_path / "survey.sqlite"
    certified_survey(db, "1-30")
    first_lost, first = stored(db)
    certified_survey(db, "1-60")
    lost, certificates = stored(db)
    assert first_lost < lost and set(certificates) == lost
    assert all(certificates[seed] == first[seed] for seed in first)  # the first run's kept as they were
    capsys.readouterr()
    # resumed without --certify: refused, its losses would go uncertified
    assert main(["survey", "--seeds", "1-90", "--db", str(db), "--quiet", "--timeout", "30"]) == 2
    assert "certify" in capsys.readouterr().err


def test_a_damaged_store_is_one_line_and_exit_2(tmp_path, capsys):
    db = tmp_path / "survey.sqlite"
    certified_survey(db, "1-30")
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE certificates SET data = x'00' WHERE seed = (SELECT min(seed) FROM certificates)")
    connection.close()
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1 and "certificates" in captured.err
    uncertified = tmp_path / "plain.sqlite"
    assert main(["survey", "--seeds", "1-5", "--db", str(uncertified), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["check", "--db", str(uncertified)]) == 2
    assert "holds no certificates" in capsys.readouterr().err


def test_the_api_survey_certifies_too(tmp_path):
    import patience

    summary = patience.survey("black_hole", "1-40", certify=True, store=tmp_path / "survey.sqlite")
    assert summary.lost and summary.summary.certified == summary.lost
    assert "lost (certified)" in str(summary)


def test_a_certified_survey_of_generalised_deals_checks(tmp_path, capsys):
    """Random deals of a shape no board text holds: check --db writes each deal in a form that does."""
    db = tmp_path / "random.sqlite"
    assert main(["survey", "--shape", "7,4,3", "--seeds", "1-200", "--db", str(db), "--certify", "--quiet"]) == 0
    lost, certificates = stored(db)
    assert lost and set(certificates) == lost
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet"]) == 0
    assert capsys.readouterr().out.strip().endswith(f"{len(lost)} of {len(lost)} certificates certified: cannot be won")


def test_check_db_resumes_without_checking_again_what_passed(tmp_path, capsys, monkeypatch):
    """A check stopped part way keeps what passed in its --resume file; the rerun checks only the rest,
    and a certificate tampered since is checked again (the file keys each by its bytes)."""
    from patience.commands import check as check_command

    db, kept = tmp_path / "survey.sqlite", tmp_path / "passed.txt"
    certified_survey(db)
    _, certificates = stored(db)
    checked: list[Path] = []
    real = check_command.check

    def stopping(deal_path: Path, certificate_path: Path) -> list[str]:
        if len(checked) == 3:
            raise KeyboardInterrupt
        checked.append(certificate_path)
        return real(deal_path, certificate_path)

    monkeypatch.setattr(check_command, "check", stopping)
    with contextlib.suppress(KeyboardInterrupt):  # as Ctrl-C stops it
        main(["check", "--db", str(db), "--quiet", "--resume", str(kept)])
    assert len(kept.read_text().split()) == 3  # kept at the stop
    checked.clear()
    monkeypatch.setattr(check_command, "check", lambda deal, certificate: checked.append(certificate) or real(
        deal, certificate))
    capsys.readouterr()
    assert main(["check", "--db", str(db), "--quiet", "--resume", str(kept)]) == 0
    assert len(checked) == len(certificates) - 3
    assert capsys.readouterr().out.strip().endswith(f"{len(certificates)} of {len(certificates)} certificates "
                                                    "certified: cannot be won")
    assert len(kept.read_text().split()) == len(certificates)
    kept.write_text("not a digest\n")
    assert main(["check", "--db", str(db), "--quiet", "--resume", str(kept)]) == 2
