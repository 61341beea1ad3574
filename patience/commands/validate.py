"""`patience validate DEAL ANSWER`: replay an answer on a deal of any game; exit 0 if it wins, 1 if not."""

from __future__ import annotations

import argparse

from patience.arguments import Subcommands
from patience.exit_codes import INVALID_ANSWER, ExitCode
from patience.games import read_game_deal
from patience.names import GAME_OPTION_HELP, game_option
from patience.reading import read_text


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "validate", help="replay an answer (move list or a solver's output) on a deal",
        description="Exit 0 and 'valid: N moves' if the answer wins the deal; exit 1 and the first "
                    "illegal move otherwise; exit 2 for unreadable input.")
    parser.add_argument("deal", help="deal file in any known form, of any game")
    parser.add_argument("answer", help="card list, black-hole-solve transcript, a solver's plan/solution, "
                                       "or for lbs a .solution or `FROM TO` lines")
    parser.add_argument("--game", type=game_option(), metavar="GAME", help=GAME_OPTION_HELP)
    parser.add_argument("--partial", action="store_true",
                        help="accept a legal sequence that does not win")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    game, deal = read_game_deal(args.deal, args.game)
    moves = game.read_answer(read_text(args.answer), args.answer, deal)
    outcome = game.replay(deal, moves, complete=not args.partial)
    print(outcome.describe())
    return ExitCode.SOLVED if outcome.valid else INVALID_ANSWER
