"""`patience convert`: any deal form to any other."""

from __future__ import annotations

import argparse

from patience.errors import UsageError
from patience.formats import FORMATS, read_deal, write_deal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("convert", help="convert a deal between board, yaml, param, dzn and json")
    parser.add_argument("deal", help="deal file in any known form")
    parser.add_argument("--to", required=True, choices=list(FORMATS))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    deal = read_deal(args.deal)
    try:
        text = write_deal(deal, args.to)
    except ValueError as error:
        raise UsageError(f"{args.deal}: {error}") from None
    print(text, end="")
    return 0
