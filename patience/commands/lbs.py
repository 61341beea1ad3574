"""`patience lbs solve|validate`: decide a Late Binding Solitaire deal, or check a move list on it."""

from __future__ import annotations

import argparse
from pathlib import Path

from patience.commands.limits import seconds
from patience.errors import InputError
from patience.formats import read_text
from patience.lbs.deal import load_deal
from patience.lbs.rules import play, replay
from patience.lbs.run import SOLVERS, decide
from patience.lbs.solution import read_mapping, read_moves
from patience.runners.process import Limits

EXIT = {"solved": 0, "unsolvable": 1, "unknown": 3, "invalid": 4}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("lbs", help="Late Binding Solitaire: solve a .param deal or validate moves",
                                   description="Decide an LBS deal (.param) or replay a solution's moves on it.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    solve = actions.add_parser("solve", help="decide the deal; exit 0 won, 1 unsolvable, 3 unknown, 4 invalid",
                               description="Decide the deal; any claimed win is replayed before it is printed.")
    solve.add_argument("deal", help="LBS .param file")
    solve.add_argument("--solver", default="native", choices=SOLVERS)
    solve.add_argument("--timeout", type=seconds, default=60.0, help="seconds (default 60)")
    solve.add_argument("-O", dest="level", type=int, default=2, choices=(0, 1, 2, 3), help="Savile Row -O level")
    solve.set_defaults(handler=run_solve)
    validate = actions.add_parser("validate", help="replay a .solution (or `FROM TO` lines) on the deal",
                                  description="Replay the moves of a Savile Row .solution file, or of a text "
                                              "file with one `FROM TO` pair (1-based) per line.")
    validate.add_argument("deal", help="LBS .param file")
    validate.add_argument("solution", type=Path)
    validate.add_argument("--mapping", type=Path, help="YAML naming the move variables (see patience grade)")
    validate.set_defaults(handler=run_validate)


def run_solve(args: argparse.Namespace) -> int:
    deal = load_deal(args.deal)
    outcome = decide(deal, args.solver, Limits(timeout=args.timeout), args.level)
    stats = " ".join(f"{key}={value:g}" for key, value in outcome.stats.items())
    lines = [f"{deal.name or args.deal}: {outcome.verdict} by {outcome.solver} in {outcome.seconds:.3f} s"
             + (f" ({stats})" if stats else "")]
    if outcome.moves is not None:
        row = deal.cards
        lines.append("row: " + " ".join(deal.card_name(card) for card in row))
        for number, move in enumerate(outcome.moves, 1):
            moved, covered = (deal.card_name(row[position - 1]) for position in move)
            row = play(row, move)
            lines.append(f"move {number}: {move[0]} -> {move[1]}  {moved} onto {covered}  "
                         f"row: {' '.join(deal.card_name(card) for card in row)}")
    if outcome.message:
        lines.append(outcome.message)
    print("\n".join(lines))
    return EXIT[outcome.verdict]


def read_pairs(text: str, source: str) -> tuple[tuple[int, int], ...]:
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].replace("->", " ").split()
        if not fields:
            continue
        if len(fields) != 2 or not all(field.lstrip("-").isdigit() for field in fields):
            raise InputError(source, number, "expected `FROM TO` (two positions)")
        pairs.append((int(fields[0]), int(fields[1])))
    return tuple(pairs)


def run_validate(args: argparse.Namespace) -> int:
    deal = load_deal(args.deal)
    text = read_text(args.solution)
    mapping = read_mapping(args.mapping) if args.mapping else None
    moves = (read_moves(text, str(args.solution), mapping) if "letting" in text
             else read_pairs(text, str(args.solution)))
    result = replay(deal, moves)
    print(result.describe())
    return 0 if result.valid else 4
