"""`patience check DEAL CERTIFICATE`: verify a certificate of a loss with the checker, which knows the
rules and no search; exit 0 certified, 1 if the certificate proves nothing (the first position or
move that breaks it named), 2 for a deal or certificate that cannot be read.

`patience check --db STORE`: every certificate a `survey --certify` kept, each checked as a file
would be (its deal made again from the survey's settings and its number, written beside it in a
scratch folder), with a progress line; a summary, exit 0 when every one is certified, 1 when some
is not (each named), 2 for a store that cannot be read."""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from patience import sat_proof
from patience.checker import Broken, check
from patience.drat import ProofError
from patience.errors import InputError, UsageError
from patience.exit_codes import ExitCode
from patience.games import write_game_deal
from patience.result import Status
from patience.runs.progress import Progress
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
    parser.add_argument("--db", type=Path, help="a survey store: check every certificate it keeps")
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
    """Check every certificate of the survey store at `path`; print what failed and a summary."""
    with SurveyStore(path, create=False) as store:
        settings = store.settings()
        total = store.certified()
        if not total:
            raise InputError(str(path), None, "holds no certificates (a survey run with --certify keeps them)")
        shape = settings.get("shape")
        batch = Batch(str(settings["game"]), None if shape else str(settings.get("numbering")), (), 0.0,
                      shape=tuple(shape) if isinstance(shape, list) else None)
        failures: list[str] = []
        progress = Progress(total, Counter(), enabled=show_progress, shown=tuple(CHECKED_WORDS), title="check",
                            words=CHECKED_WORDS)
        counts = progress.counts
        with tempfile.TemporaryDirectory(prefix="patience-check-") as scratch, progress:
            for certificate in store.certificates():
                deal = batch.deal(certificate.seed)
                deal_file = Path(scratch) / f"deal-{certificate.seed}.yaml"
                deal_file.write_text(write_game_deal(deal, DEAL_FORM), encoding="utf-8")
                certificate_file = Path(scratch) / f"deal-{certificate.seed}.certificate"
                certificate_file.write_bytes(certificate.data)
                try:
                    check(deal_file, certificate_file)
                except (Broken, InputError) as broken:
                    failures.append(f"{batch.game} deal {certificate.seed}: not certified: {broken}")
                    counts[Status.UNSOLVABLE] += 1
                else:
                    counts[Status.SOLVED] += 1
                progress.show()
    for line in failures:
        print(line)
    print(f"{path}: {counts[Status.SOLVED]:,} of {total:,} certificates certified: cannot be won"
          + (f"; {len(failures):,} not certified" if failures else ""))
    return ExitCode.UNSOLVABLE if failures else ExitCode.SOLVED
