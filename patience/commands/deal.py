"""`patience deal`: PySol's numbered deals and seeded random generalised deals."""

from __future__ import annotations

import argparse
from pathlib import Path

from patience.binary_star.deal import BINARY_STAR, pysolfc_deal
from patience.binary_star.forms import write_board
from patience.caps import MAX_DEALS
from patience.errors import UsageError
from patience.exit_codes import ExitCode
from patience.formats import yaml_form
from patience.generators.deals import DEFAULT_NUMBERING, NUMBERINGS, PYSOL_GAMES, pysol_board, random_deal
from patience.lbs.deal import deal_text as lbs_deal_text


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "deal", help="print a deal: PySol seed N, or a random generalised deal",
        description="Print deal N exactly as PySolFC deals it (pysol_cards' make_pysol_freecell_board.py "
                    "-F -t N GAME; --numbering picks old PySol's or Microsoft's numbers; binary_star: as "
                    "PySolFC deals game number N), or with "
                    "--ranks/--suits/--pile-height a reproducible random generalised deal (YAML).")
    parser.add_argument("--game", default="black_hole", choices=(*PYSOL_GAMES, BINARY_STAR, "lbs"))
    parser.add_argument("--cards", type=int, default=10, help="lbs: cards in the row (named LBS<cards>_<seed>)")
    parser.add_argument("--seed", type=int, default=1, help="PySol deal number, or the random seed")
    parser.add_argument("--numbering", choices=tuple(NUMBERINGS), default=DEFAULT_NUMBERING,
                        help="how deal numbers become shuffles (all agree up to 32000)")
    parser.add_argument("--count", type=int, help="write COUNT consecutive seeds as files into --dir")
    parser.add_argument("--dir", type=Path, help="folder for --count (created if missing)")
    parser.add_argument("--ranks", type=int, help="generalised deal: number of ranks on the cycle")
    parser.add_argument("--suits", type=int, default=4, help="generalised deal: cards per rank")
    parser.add_argument("--pile-height", type=int, default=3, help="generalised deal: cards per pile")
    parser.add_argument("--empty-foundation", action="store_true",
                        help="generalised deal: start with an empty foundation (All in a Row style)")
    parser.set_defaults(handler=run)


def _text(args: argparse.Namespace, seed: int) -> tuple[str, str]:
    """(file name, content) of the deal for `seed`."""
    if args.game == "lbs":
        try:
            return lbs_deal_text(args.cards, seed, args.ranks or 13, args.suits)
        except ValueError as error:
            raise UsageError(str(error)) from None
    if args.game == BINARY_STAR:
        try:
            return f"{BINARY_STAR}-{seed}.txt", write_board(pysolfc_deal(seed))
        except ValueError as error:
            raise UsageError(str(error)) from None
    if args.ranks is not None:
        try:
            deal = random_deal(args.ranks, args.suits, args.pile_height, seed, args.empty_foundation)
        except ValueError as error:
            raise UsageError(str(error)) from None
        return f"random-r{args.ranks}-s{args.suits}-h{args.pile_height}-{seed}.yaml", yaml_form.write(deal)
    try:
        numbered = "" if args.numbering == DEFAULT_NUMBERING else f"{args.numbering}-"
        return f"{args.game}-{numbered}{seed}.txt", pysol_board(args.game, seed, args.numbering)
    except ValueError as error:
        raise UsageError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    if args.count is None:
        print(_text(args, args.seed)[1], end="")
        return ExitCode.SOLVED
    if args.dir is None or not 1 <= args.count <= MAX_DEALS:
        raise UsageError(f"--count needs a COUNT from 1 to {MAX_DEALS:,} and --dir FOLDER")
    files = [_text(args, seed) for seed in range(args.seed, args.seed + args.count)]
    args.dir.mkdir(parents=True, exist_ok=True)
    for name, text in files:
        (args.dir / name).write_text(text)
    print(f"wrote {len(files)} deals to {args.dir}")
    return ExitCode.SOLVED
