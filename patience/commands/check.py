"""`patience check DEAL CERTIFICATE`: verify a certificate of a loss with the checker, which knows the
rules and no search; exit 0 certified, 1 if the certificate proves nothing (the first position or
move that breaks it named), 2 for a deal or certificate that cannot be read.

`patience check --db STORE`: every certificate a `survey --certify` (or a campaign with `certify:
true`) kept, each checked as a file would be (its deal made again from the survey's settings and
its number, or from the campaign's deal name, written beside it in a scratch folder), with a
progress line; a summary, exit 0 when every one is certified, 1 when some
is not (each named), 2 for a store that cannot be read."""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from patience import sat_proof, store_schemas
from patience.campaign.store import Store
from patience.checker import Broken, check
from patience.drat import ProofError
from patience.errors import InputError, UsageError
from patience.exit_codes import ExitCode
from patience.games import AnyDeal, write_game_deal
from patience.result import Status
from patience.runs.progress import Progress
from patience.runs.specs import stored_deal
from patience.survey.decide import Batch
from patience.survey.store import SurveyStore

DEAL_FORM = "yaml"  # every game writes it, and it holds any shape of deal
CHECKED_WORDS: dict[str, str] = {Status.SOLVED: "certified", Status.UNSOLVABLE: "not certified"}  # the progress line's


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help="verify a certificate that a deal cannot be won (solve --certificate writes one)",
        description="Exit 0 and 'certified: cannot be won' when the certificate's positions hold the start, no "
                    "won position, and every position each of their moves leads to; exit 1 naming the first "
                    "position or move that breaks it; exit 2 for a file that is no certificate of this deal. "
                    "With --db STORE: every certificate a `survey --certify` kept, exit 0 when all are certified.")
    parser.add_argument("deal", nargs="?", help="deal file in any known form, of any game")
    parser.add_argument("certificate", nargs="?", help="the certificate file (patience solve --certificate FILE)")
    parser.add_argument("--db", type=Path, help="a survey or campaign store: check every certificate it keeps")
    parser.add_argument("--quiet", action="store_true", help="--db: no progress line")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.db is not None:
        if args.deal is not None:
            raise UsageError("check takes DEAL CERTIFICATE or --db STORE, not both")
        return check_store(args.db, not args.quiet)
    if args.deal is None or args.certificate is None:
        raise UsageError("check needs DEAL CERTIFICATE (or --db STORE)")
    checker = sat_proof.check if sat_proof.is_sat_proof(Path(args.certificate)) else check
    try:
        print("\n".join(checker(Path(args.deal), Path(args.certificate))))
    except (Broken, ProofError) as broken:
        print(f"not certified: {broken}")
        return ExitCode.UNSOLVABLE
    return ExitCode.SOLVED


def check_store(path: Path, show_progress: bool = True) -> int:
    """Check every certificate of the survey or campaign store at `path`; print what failed and a summary."""
    if _marked_campaign(path):
        with Store(path, create=False) as campaign:
            items = ((f"{item.deal} ({item.configuration})", _campaign_deal(item.deal, item.content), item.data)
                     for item in campaign.certificates())
            return _check_all(path, campaign.certified(), items, show_progress, "a campaign with certify: true")
    with SurveyStore(path, create=False) as store:
        settings = store.settings()
        shape = settings.get("shape")
        batch = Batch(str(settings["game"]), None if shape else str(settings.get("numbering")), (), 0.0,
                      shape=tuple(shape) if isinstance(shape, list) else None)
        items = ((f"{batch.game} deal {item.seed}", batch.deal(item.seed), item.data) for item in store.certificates())
        return _check_all(path, store.certified(), items, show_progress, "a survey run with --certify")


def _marked_campaign(path: Path) -> bool:
    """Whether the file is marked a campaign store (anything else is read as a survey store, which
    names what it is if it is not one)."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            (mark,) = connection.execute("PRAGMA application_id").fetchone()
    except (sqlite3.Error, OSError, ValueError):
        return False
    return bool(mark == store_schemas.CAMPAIGN.application_id)


def _campaign_deal(name: str, content: str) -> AnyDeal | None:
    named = stored_deal(name, content)
    return None if named is None else named.deal


def _check_all(path: Path, total: int, items: Iterable[tuple[str, AnyDeal | None, bytes]], show_progress: bool,
               made_by: str) -> int:
    """Check each (label, deal, certificate file) as files would be (written beside each other in a
    scratch folder); the failures, each named, and a summary."""
    if not total:
        raise InputError(str(path), None, f"holds no certificates ({made_by} keeps them)")
    failures: list[str] = []
    progress = Progress(total, Counter(), enabled=show_progress, shown=tuple(CHECKED_WORDS), title="check",
                        words=CHECKED_WORDS)
    counts = progress.counts
    with tempfile.TemporaryDirectory(prefix="patience-check-") as scratch, progress:
        deal_file, certificate_file = Path(scratch) / "deal.yaml", Path(scratch) / "deal.certificate"
        for label, deal, data in items:
            try:
                if deal is None:
                    raise InputError(label, None, "its deal can no longer be made (a moved or changed deal file)")
                deal_file.write_text(write_game_deal(deal, DEAL_FORM), encoding="utf-8")
                certificate_file.write_bytes(data)
                check(deal_file, certificate_file)
            except (Broken, InputError) as broken:
                failures.append(f"{label}: not certified: {broken}")
                counts[Status.UNSOLVABLE] += 1
            else:
                counts[Status.SOLVED] += 1
            progress.show()
    for line in failures:
        print(line)
    print(f"{path}: {counts[Status.SOLVED]:,} of {total:,} certificates certified: cannot be won"
          + (f"; {len(failures):,} not certified" if failures else ""))
    return ExitCode.UNSOLVABLE if failures else ExitCode.SOLVED
