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
import hashlib
import sqlite3
import string
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from patience import sat_proof, store_schemas
from patience.arguments import Subcommands
from patience.campaign.store import Store
from patience.checker import Broken, check
from patience.drat import ProofError
from patience.errors import InputError, UsageError
from patience.exit_codes import ExitCode
from patience.games import AnyDeal, deal_content, game_of, write_game_deal
from patience.names import GENERALISED
from patience.outputs import check_apart, output_file, write_file
from patience.result import Status
from patience.runs.progress import Progress
from patience.runs.specs import stored_deal
from patience.survey.decide import Batch
from patience.survey.store import SurveyStore

SAVE_SECONDS = 10.0  # check --resume: the most a stop loses
CHECKED_WORDS: dict[str, str] = {Status.SOLVED: "certified", Status.UNSOLVABLE: "not certified"}  # the progress line's


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "check", help="verify a certificate that a deal cannot be won (solve --certificate writes one)",
        description="Exit 0 and 'certified: cannot be won' when the certificate's positions hold the start, no "
                    "won position, and every position each of their moves leads to; exit 1 naming the first "
                    "position or move that breaks it; exit 2 for a file that is no certificate of this deal. "
                    "With --db STORE: every certificate a `survey --certify` or a campaign with `certify: true` "
                    "kept, exit 0 when all are certified.")
    parser.add_argument("deal", nargs="?", help="deal file in any known form, of any game")
    parser.add_argument("certificate", nargs="?", help="the certificate file (patience solve --certificate FILE)")
    parser.add_argument("--db", type=Path, help="a survey or campaign store: check every certificate it keeps")
    parser.add_argument("--quiet", action="store_true", help="--db: no progress line")
    parser.add_argument("--resume", type=Path, metavar="FILE",
                        help="--db: keep in FILE the certificates that passed (rewritten every few seconds), and "
                             "skip those FILE holds: a stopped check goes on where it was")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.db is not None:
        if args.deal is not None:
            raise UsageError("check takes DEAL CERTIFICATE or --db STORE, not both")
        if args.resume is not None:
            check_apart(output_file(args.resume), [args.db])
        lines, certified = check_store(args.db, not args.quiet, args.resume)
        print("\n".join(lines))
        return ExitCode.SOLVED if certified else ExitCode.UNSOLVABLE
    if args.deal is None or args.certificate is None:
        raise UsageError("check needs DEAL CERTIFICATE (or --db STORE)")
    try:
        print("\n".join(sat_proof.check_certificate(Path(args.deal), Path(args.certificate))))
    except (Broken, ProofError) as broken:
        print(f"not certified: {broken}")
        return ExitCode.UNSOLVABLE
    return ExitCode.SOLVED


def check_store(path: Path, show_progress: bool = True, resume: Path | None = None) -> tuple[list[str], bool]:
    """Check every certificate of the survey or campaign store at `path`: the lines of what failed and a
    summary, and whether every one was certified. `resume`: a file of the certificates that passed,
    skipped and kept up to date."""
    passed = Passed(resume)
    if _marked_campaign(path):
        with Store(path, create=False) as campaign:
            items = ((f"{item.deal} ({item.configuration})", _campaign_deal(item.deal, item.content), item.data)
                     for item in campaign.certificates())
            contradicted = [f"{deal} ({label}): stored as {status or 'no run'}, yet a certificate of its loss is kept"
                            for deal, label, status in campaign.certified_not_lost()]
            return _contradicted(contradicted, _check_all(path, campaign.certified(), items, show_progress,
                                                          "a campaign with certify: true", passed))
    with SurveyStore(path, create=False) as store:
        batch = _survey_batch(path, store.settings())
        items = ((f"{batch.game} deal {item.seed}", _survey_deal(path, batch, item.seed), item.data)
                 for item in store.certificates())
        contradicted = [f"{batch.game} deal {seed}: stored as {'no deal' if verdict is None else verdict.value}, "
                        "yet a certificate of its loss is kept" for seed, verdict in store.certified_not_lost()]
        return _contradicted(contradicted, _check_all(path, store.certified(), items, show_progress,
                                                      "a survey run with --certify", passed))


def scratch_deal_file(folder: Path, deal: AnyDeal) -> Path:
    """`deal` written into the scratch `folder` in the form its game writes whole (any shape of its deals),
    for the checker, which reads a deal file."""
    form = game_of(deal).whole_form
    path = folder / f"deal.{form}"
    path.write_text(write_game_deal(deal, form), encoding="utf-8")
    return path


def _contradicted(contradicted: list[str], checked: tuple[list[str], bool]) -> tuple[list[str], bool]:
    """A store's check with the certified deals it does not keep as lost named first and counted last."""
    lines, certified = checked
    if contradicted:
        lines[-1] += f"; {len(contradicted):,} stored as not lost"
    return [*contradicted, *lines], certified and not contradicted


def _survey_batch(path: Path, settings: dict[str, object]) -> Batch:
    """What makes a survey store's deals again: its game, and its numbering or (generalised deals) its
    shape; a store whose settings hold no game, or a shape where numbers are meant or none where one
    is, is damaged, named in one line."""
    game, shape = settings.get("game"), settings.get("shape")
    if not isinstance(game, str) or (game == GENERALISED) != isinstance(shape, list):
        held = f"game {game} with {'a' if shape else 'no'} shape" if isinstance(game, str) else "no game"
        raise InputError(str(path), None, f"damaged survey store: its settings hold {held}: no deal can be made again")
    return Batch(game, None if shape else str(settings.get("numbering")), (), 0.0,
                 shape=tuple(shape) if isinstance(shape, list) else None)


def _survey_deal(path: Path, batch: Batch, seed: int) -> AnyDeal:
    """The survey's deal `seed` made again; settings that make none (a game without numbered deals, a
    numbering unknown) are a damaged store, named in one line."""
    try:
        return batch.deal(seed)
    except (UsageError, ValueError) as error:
        raise InputError(str(path), None, f"damaged survey store: {error}") from None


def _marked_campaign(path: Path) -> bool:
    """Whether the file is marked a campaign store (anything else is read as a survey store, which
    names what it is if it is not one). Only a regular file is opened: SQLite's open of a FIFO waits for a
    writer, deaf to every signal."""
    if not path.is_file():
        return False
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            (mark,) = connection.execute("PRAGMA application_id").fetchone()
    except (sqlite3.Error, OSError, ValueError):
        return False
    return bool(mark == store_schemas.CAMPAIGN.application_id)


def _campaign_deal(name: str, content: str) -> AnyDeal | None:
    named = stored_deal(name, content)
    return None if named is None else named.deal


class Passed:
    """The certificates a check has passed, by a digest of the deal's content and the certificate's
    bytes (so a certificate is skipped only for the same deal), kept in `path` (None: nowhere): read
    when it exists, written whole every SAVE_SECONDS and at the end, so a check stopped at any moment
    loses at most those seconds."""

    def __init__(self, path: Path | None) -> None:
        self.path, self.saved = path, time.monotonic()
        self.digests: set[str] = set()
        if path is not None and path.exists():
            try:
                lines = path.read_text(encoding="ascii").split()
            except (OSError, UnicodeDecodeError) as error:
                raise InputError(str(path), None, f"cannot read the certificates passed: {error}") from None
            if any(len(line) != 64 or line.strip(string.hexdigits) for line in lines):
                raise InputError(str(path), None, "not a file of check --resume (a SHA-256 digest a line)")
            self.digests = set(lines)

    @staticmethod
    def digest(deal: AnyDeal, data: bytes) -> str:
        return hashlib.sha256(deal_content(game_of(deal), deal).encode() + b"\n" + data).hexdigest()

    def add(self, digest: str) -> None:
        self.digests.add(digest)
        if time.monotonic() - self.saved > SAVE_SECONDS:
            self.save()

    def save(self) -> None:
        if self.path is not None:
            write_file(self.path, "".join(f"{digest}\n" for digest in sorted(self.digests)))
            self.saved = time.monotonic()


def _check_all(path: Path, total: int, items: Iterable[tuple[str, AnyDeal | None, bytes]], show_progress: bool,
               made_by: str, passed: Passed) -> tuple[list[str], bool]:
    """Check each (label, deal, certificate file) as files would be (written beside each other in a
    scratch folder), but those `passed` holds; the failures, each named, and a summary."""
    if not total:
        raise InputError(str(path), None, f"holds no certificates ({made_by} keeps them)")
    failures: list[str] = []
    progress = Progress(total, Counter(), enabled=show_progress, shown=tuple(CHECKED_WORDS), title="check",
                        words=CHECKED_WORDS)
    counts = progress.counts
    with tempfile.TemporaryDirectory(prefix="patience-check-") as scratch, progress:
        certificate_file = Path(scratch) / "deal.certificate"
        try:
            for label, deal, data in items:
                digest = None if deal is None else passed.digest(deal, data)
                if digest in passed.digests:
                    counts[Status.SOLVED] += 1
                    continue
                try:
                    if deal is None or digest is None:
                        raise Broken("its deal can no longer be made (a moved or changed deal file)")
                    deal_file = scratch_deal_file(Path(scratch), deal)
                    certificate_file.write_bytes(data)
                    check(deal_file, certificate_file)
                except (Broken, InputError) as broken:  # of the files written here: what is wrong, not where
                    said: object = broken
                    if isinstance(broken, InputError) and broken.source.startswith(scratch):
                        said = broken.message
                    failures.append(f"{label}: not certified: {said}")
                    counts[Status.UNSOLVABLE] += 1
                else:
                    counts[Status.SOLVED] += 1
                    passed.add(digest)
                progress.show()
        finally:  # stopped or not, what passed is kept
            passed.save()
    summary = (f"{path}: {counts[Status.SOLVED]:,} of {total:,} certificates certified: cannot be won"
               + (f"; {len(failures):,} not certified" if failures else ""))
    return [*failures, summary], not failures
