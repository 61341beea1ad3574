"""`patience deal`: PySol's numbered deals and seeded random generalised deals."""

from __future__ import annotations

import argparse
from pathlib import Path

from patience.arguments import Subcommands
from patience.caps import MAX_CARDS, MAX_DEALS, MAX_RANKS, MAX_SUITS
from patience.errors import UsageError
from patience.exit_codes import ExitCode
from patience.generators.deals import deal_file, hooked_games, random_games
from patience.names import (
    BLACK_HOLE,
    DEFAULT_NUMBERING,
    GENERALISED,
    LBS,
    NUMBERED_GAMES,
    NUMBERINGS,
    game_option,
    numbering_option,
)
from patience.numeric import LARGEST, whole_argument
from patience.outputs import write_files


def register(subparsers: Subcommands) -> None:
    numbered = (*NUMBERED_GAMES, *hooked_games())
    parser = subparsers.add_parser(
        "deal", help="print a deal: PySolFC game --seed N, or a random generalised deal",
        description=f"Print game number N (--seed N) of {', '.join(numbered)} exactly as PySolFC "
                    "deals it (pysol_cards' make_pysol_freecell_board.py -F -t N GAME, but for N = 32000: below 32000 "
                    "Microsoft's FreeCell shuffle, from 32000 on PySolFC's Mersenne Twister, as PySolFC's "
                    "constructRandom); --numbering picks old PySol's or Microsoft's numbers instead. With "
                    "--ranks/--suits/--pile-height a reproducible random generalised deal (YAML); --game lbs a "
                    "random Late Binding Solitaire .param.")
    games = (*numbered, GENERALISED, *random_games(), LBS)
    parser.add_argument("--game", default=BLACK_HOLE, type=game_option(games), metavar="GAME",
                        help=f"{', '.join(games)} (default {BLACK_HOLE}; hyphens accepted; accordion is {LBS})")
    parser.add_argument("--cards", type=whole_argument(1, MAX_CARDS),
                        default=10, help="lbs: cards in the row, named LBS<cards>_<seed> (default 10)")
    parser.add_argument("--seed", type=whole_argument(-LARGEST, LARGEST),  # each numbering checks its own range
                        default=1, help="PySol deal number, or the random seed (default 1)")
    parser.add_argument("--numbering", type=numbering_option,
                        help=f"numbered games: how deal numbers become shuffles, {', '.join(NUMBERINGS)} "
                             f"(default {DEFAULT_NUMBERING}; all agree below 32000)")
    parser.add_argument("--count", type=whole_argument(1, MAX_DEALS),
                        help="write COUNT consecutive seeds as files into --dir")
    parser.add_argument("--dir", type=Path, help="folder for --count (created if missing)")
    parser.add_argument("--ranks", type=whole_argument(1, MAX_RANKS),
                        help="generalised deal: number of ranks on the cycle")
    parser.add_argument("--suits", type=whole_argument(1, MAX_SUITS),
                        default=4, help="generalised deal: cards per rank (default 4)")
    parser.add_argument("--pile-height", type=whole_argument(1, MAX_CARDS),
                        default=3, help="generalised deal: cards per pile (default 3)")
    parser.add_argument("--empty-foundation", action="store_true",
                        help="generalised deal: start with an empty foundation (All in a Row style)")
    parser.set_defaults(handler=run)


def _text(args: argparse.Namespace, seed: int) -> tuple[str, str]:
    """(file name, content) of the deal for `seed`."""
    return deal_file(args.game, seed, args.numbering, args.ranks, args.suits, args.pile_height,
                     args.empty_foundation, args.cards)


def run(args: argparse.Namespace) -> int:
    if args.count is None:
        print(_text(args, args.seed)[1], end="")
        return ExitCode.SOLVED
    if args.dir is None or not 1 <= args.count <= MAX_DEALS:
        raise UsageError(f"--count needs a COUNT from 1 to {MAX_DEALS:,} and --dir FOLDER")
    files = [_text(args, seed) for seed in range(args.seed, args.seed + args.count)]
    write_files(args.dir, dict(files))
    print(f"wrote {len(files)} deals to {args.dir}")
    return ExitCode.SOLVED
