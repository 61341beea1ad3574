"""`patience convert`: any deal form to any other form of the same game."""

from __future__ import annotations

import argparse

from patience.errors import UsageError
from patience.exit_codes import ExitCode
from patience.formats import FORMATS
from patience.games import GAMES, read_game_deal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("convert", help="convert a deal between board, yaml, param, dzn and json")
    parser.add_argument("deal", help="deal file in any known form")
    parser.add_argument("--to", required=True, choices=list(FORMATS))
    parser.add_argument("--game", choices=list(GAMES), help="the deal's game (default: found from the file)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    game, deal = read_game_deal(args.deal, args.game)
    try:
        text = game.write_deal(deal, args.to)
    except ValueError as error:
        raise UsageError(f"{args.deal}: {error}") from None
    print(text, end="")
    return ExitCode.SOLVED
