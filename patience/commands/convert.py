"""`patience convert`: any deal form to any other form of the same game."""

from __future__ import annotations

import argparse

from patience.arguments import Subcommands
from patience.exit_codes import ExitCode
from patience.formats import FORMATS
from patience.games import read_game_deal, write_game_deal
from patience.names import GAME_OPTION_HELP, game_option


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser("convert", help="convert a deal between board, yaml, param, dzn and json "
                                                 "(PyCSP3's data; an lbs deal: param or json)")
    parser.add_argument("deal", help="deal file in any known form")
    parser.add_argument("--to", required=True, choices=list(FORMATS))
    parser.add_argument("--game", type=game_option(), metavar="GAME", help=GAME_OPTION_HELP)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    _, deal = read_game_deal(args.deal, args.game)
    print(write_game_deal(deal, args.to, args.deal), end="")
    return ExitCode.SOLVED
