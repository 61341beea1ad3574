"""`patience show DEAL [ANSWER] -o page.html`: the deal and its answer as a page to step through in a browser."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from patience.arguments import Subcommands
from patience.commands.solve import parse_options, status_lines
from patience.errors import UsageError, encodable
from patience.exit_codes import STATUS_EXIT, ExitCode
from patience.games import Move, read_game_deal
from patience.games.late_binding import read_lbs_answer
from patience.lbs.solution import read_mapping
from patience.limits import seconds
from patience.names import GAME_OPTION_HELP, LBS, game_option
from patience.outputs import check_apart, output_file, write_file
from patience.pages import replay
from patience.reading import read_text
from patience.runners.solve import solve
from patience.runs.process import Limits

if TYPE_CHECKING:
    from patience.games import AnyDeal, Game
    from patience.result import Result


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "show", help="write a self-contained HTML page that replays an answer on a deal, or lets you play it",
        description="Draw the deal (Black Hole, All in a Row, a generalised deal, Binary Star, or a Late Binding "
                    "Solitaire .param) as cards in one HTML file that works offline. With ANSWER (any form "
                    "`patience validate` or `patience lbs validate` reads) or --solver, step through its moves; an "
                    "invalid answer stops at its first illegal move with the validator's words. Without either, "
                    "play by clicking the legal cards.")
    parser.add_argument("deal", help="deal file in any known form, or an lbs .param file")
    parser.add_argument("answer", nargs="?", help="card list, solver output, or for lbs a .solution / FROM TO file")
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="PAGE", help="the HTML file to write")
    parser.add_argument("--game", type=game_option(), metavar="GAME", help=GAME_OPTION_HELP)
    parser.add_argument("--solver", help="solve the deal first and show the solver's answer "
                                         "(a name from `patience solvers` that plays the deal's game)")
    parser.add_argument("--timeout", type=seconds, default=60.0, help="the solver's time limit in seconds (default 60)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="options",
                        help="solver option (see `patience solvers`); repeatable")
    parser.add_argument("--mapping", type=Path, help="lbs: YAML naming the move variables of a .solution")
    parser.set_defaults(handler=run)


@dataclass(frozen=True)
class Shown:
    """A deal's page: its HTML, the validator's verdict on the moves it steps through (None: none to
    step through), and the solver's result when a solver was asked."""

    page: str
    verdict: str | None
    result: Result | None


def shown(game: Game[Any], deal: AnyDeal, heading: str, moves: Sequence[Move] | None, source: str,
          solver: str | None, limits: Limits, options: Mapping[str, str]) -> Shown:
    """The page of `deal` stepping through `moves`, or through `solver`'s answer when a solver is named
    (its verdict a note on the page), or to play by hand: `patience show` and `patience.show`."""
    notes: list[str] = []
    result = None
    if solver is not None:
        result = solve(deal, solver, limits, options)
        notes.append(f"{result.solver}: {result.status.value} in {result.wall:.3f} s"
                     + (f" ({result.message})" if result.message else ""))
        if result.sequence is not None:
            moves, source = result.sequence, f"{result.solver}'s answer"
    page_game = replay.game_page(game.name, deal, moves, source)
    return Shown(replay.render(page_game, heading, notes), replay.verdict(page_game), result)


def run(args: argparse.Namespace) -> int:
    if args.answer is not None and args.solver is not None:
        raise UsageError("give an ANSWER or --solver, not both")
    output_file(args.output)
    check_apart(args.output, [path for path in (args.deal, args.answer, args.mapping) if path is not None])
    game, deal = read_game_deal(args.deal, args.game)
    if args.mapping is not None and game.name != LBS:
        raise UsageError("--mapping names the move variables of an LBS .solution; this is not an LBS deal")
    moves: Sequence[Move] | None = None
    source = ""
    if args.answer is not None:
        text = read_text(args.answer)
        if args.mapping is not None:
            moves = read_lbs_answer(text, args.answer, read_mapping(args.mapping))
        else:
            moves = game.read_answer(text, args.answer, deal)
        source = Path(args.answer).name
    heading = game.label(deal) or encodable(Path(args.deal).name)  # a deal that carries a name (LBS's) shows it
    made = shown(game, deal, heading, moves, source, args.solver, Limits(timeout=args.timeout),
                 parse_options(args.options))
    write_file(args.output, made.page)
    verdict, result = made.verdict, made.result
    if result is None:
        print(f"{args.output}: " + (verdict if verdict is not None else "no answer: play by hand"))
        return ExitCode.SOLVED
    # the page is written either way; the solver's verdict is said as `solve` says it, with its exit status
    print("\n".join(status_lines(result) + ([f"message: {result.message}"] if result.message else [])))
    print(f"{args.output}: " + (verdict if verdict is not None else f"no answer from {result.solver}: play by hand"))
    return STATUS_EXIT[result.status]
