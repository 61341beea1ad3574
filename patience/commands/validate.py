"""`patience validate DEAL ANSWER`: replay an answer; exit 0 if it wins, 1 if not."""

from __future__ import annotations

import argparse

from patience.answers import read_answer
from patience.formats import read_deal, read_text
from patience.validator import replay


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "validate", help="replay an answer (card list or a solver's output) on a deal",
        description="Exit 0 and 'valid: N moves' if the answer wins the deal; exit 1 and the first "
                    "illegal move otherwise; exit 2 for unreadable input.")
    parser.add_argument("deal", help="deal file in any known form")
    parser.add_argument("answer", help="card list, black-hole-solve transcript, or a solver's plan/solution")
    parser.add_argument("--partial", action="store_true",
                        help="accept a legal sequence that does not play every card")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    deal = read_deal(args.deal)
    sequence = read_answer(read_text(args.answer), args.answer, deal)
    outcome = replay(deal, sequence, complete=not args.partial)
    print(outcome.describe())
    return 0 if outcome.valid else 1
