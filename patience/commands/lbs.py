"""`patience lbs solve|validate`: Late Binding Solitaire's own names for `patience solve` and
`patience validate` on an LBS deal (same solvers, statuses and exit codes); `validate` also takes
a `--mapping` naming a student model's move variables."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from patience.arguments import Subcommands
from patience.columns import counted
from patience.commands import solve
from patience.errors import one_line
from patience.exit_codes import INVALID_ANSWER, STATUS_EXIT, ExitCode
from patience.games.late_binding import LateBinding, read_lbs_answer
from patience.lbs.rules import Move, play
from patience.lbs.solution import read_mapping
from patience.limits import seconds
from patience.reading import read_text
from patience.runners.solve import solve as solve_deal
from patience.runs.process import Limits


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser("lbs", help="Late Binding Solitaire (accordion): solve a deal or validate moves",
                                   description="Decide an lbs deal (Late Binding Solitaire, a .param) or replay "
                                               "a solution's moves on it.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    solver = actions.add_parser("solve", help="decide the deal (as `patience solve`), showing each move's row",
                                description="Decide the deal; any claimed win is replayed before it is printed. "
                                            "Exit status as `patience solve`.")
    solver.add_argument("deal", help="lbs deal: a .param file or PyCSP3 Accordion JSON")
    solver.add_argument("--solver", default="native",
                        help="a name from `patience solvers` that plays lbs (default native)")
    solver.add_argument("--timeout", type=seconds, default=60.0, help="seconds (default 60)")
    solver.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="options",
                        help="solver option (see `patience solvers`); repeatable")
    solver.set_defaults(handler=run_solve)
    validate = actions.add_parser("validate", help="replay a .solution (or `FROM TO` lines) on the deal",
                                  description="Replay the moves of a Savile Row .solution file, or of a text "
                                              "file with one `FROM TO` pair (1-based) per line.")
    validate.add_argument("deal", help="lbs deal: a .param file or PyCSP3 Accordion JSON")
    validate.add_argument("solution", type=Path)
    validate.add_argument("--mapping", type=Path, help="YAML naming the move variables (see patience grade)")
    validate.set_defaults(handler=run_validate)


def run_solve(args: argparse.Namespace) -> int:
    game = LateBinding()
    deal = game.parse_deal(read_text(args.deal), args.deal)
    result = solve_deal(deal, args.solver, Limits(timeout=args.timeout), solve.parse_options(args.options))
    stats = " ".join(f"{key}={value}" for key, value in result.stats.items())
    lines = [f"{one_line(deal.name or args.deal)}: {result.status.value} by {result.solver} in {result.wall:.3f} s"
             + (f" (nodes={result.nodes})" if result.nodes is not None else "") + (f" {stats}" if stats else "")]
    if result.sequence is not None:
        # the answer was replayed by the LBS rules, so its moves are (from, to) position pairs
        moves = cast(Sequence[Move], result.sequence)
        row = deal.cards
        lines.append("row: " + " ".join(deal.card_name(card) for card in row))
        for number, move in enumerate(moves, 1):
            moved, covered = (deal.card_name(row[position - 1]) for position in move)
            row = play(row, move)
            lines.append(f"move {number}: {move[0]} -> {move[1]}  {moved} onto {covered}  "
                         f"row: {' '.join(deal.card_name(card) for card in row)}")
        lines.append(f"validated: {counted(len(moves), 'move')}")
    if result.message:
        lines.append(result.message)
    print("\n".join(lines))
    return STATUS_EXIT[result.status]


def run_validate(args: argparse.Namespace) -> int:
    game = LateBinding()
    deal = game.parse_deal(read_text(args.deal), args.deal)
    mapping = read_mapping(args.mapping) if args.mapping else None
    moves = read_lbs_answer(read_text(args.solution), str(args.solution), mapping)
    result = game.replay(deal, moves)
    print(result.describe())
    return ExitCode.SOLVED if result.valid else INVALID_ANSWER
