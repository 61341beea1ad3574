"""`patience check DEAL CERTIFICATE`: verify a certificate of a loss with the checker, which knows the
rules and no search; exit 0 certified, 1 if the certificate proves nothing (the first position or
move that breaks it named), 2 for a deal or certificate that cannot be read."""

from __future__ import annotations

import argparse
from pathlib import Path

from patience.checker import Broken, check
from patience.exit_codes import ExitCode


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help="verify a certificate that a deal cannot be won (solve --certificate writes one)",
        description="Exit 0 and 'certified: cannot be won' when the certificate's positions hold the start, no "
                    "won position, and every position each of their moves leads to; exit 1 naming the first "
                    "position or move that breaks it; exit 2 for a file that is no certificate of this deal.")
    parser.add_argument("deal", help="deal file in any known form, of any game")
    parser.add_argument("certificate", help="the certificate file (patience solve --certificate FILE)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        print("\n".join(check(Path(args.deal), Path(args.certificate))))
    except Broken as broken:
        print(f"not certified: {broken}")
        return ExitCode.UNSOLVABLE
    return ExitCode.SOLVED
