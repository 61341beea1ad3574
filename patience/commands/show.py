"""`patience show DEAL [ANSWER] -o page.html`: the deal and its answer as a page to step through in a browser."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from patience.commands.lbs import read_pairs
from patience.commands.limits import seconds
from patience.commands.solve import parse_options
from patience.errors import UsageError
from patience.formats import parse_deal, read_text
from patience.pages import replay

_LBS_DEAL = re.compile(r"^\s*letting\s+cards\s+be\b", re.MULTILINE)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "show", help="write a self-contained HTML page that replays an answer on a deal, or lets you play it",
        description="Draw the deal (Black Hole, All in a Row, a generalised deal, or a Late Binding Solitaire "
                    ".param) as cards in one HTML file that works offline. With ANSWER (any form `patience "
                    "validate` or `patience lbs validate` reads) or --solver, step through its moves; an invalid "
                    "answer stops at its first illegal move with the validator's words. Without either, play "
                    "by clicking the legal cards.")
    parser.add_argument("deal", help="deal file in any known form, or an LBS .param file")
    parser.add_argument("answer", nargs="?", help="card list, solver output, or for LBS a .solution / FROM TO file")
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="PAGE", help="the HTML file to write")
    parser.add_argument("--solver", help="solve the deal first and show the solver's answer "
                                         "(a name from `patience solvers`; for LBS one of `patience lbs solve`'s)")
    parser.add_argument("--timeout", type=seconds, default=60.0, help="the solver's time limit in seconds (default 60)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="options",
                        help="solver option (Black Hole family solvers); repeatable")
    parser.add_argument("--mapping", type=Path, help="LBS: YAML naming the move variables of a .solution")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.answer is not None and args.solver is not None:
        raise UsageError("give an ANSWER or --solver, not both")
    text = read_text(args.deal)
    if _LBS_DEAL.search(text):
        game, heading, notes = _lbs(args, text)
    else:
        game, heading, notes = _black_hole(args, text)
    page = replay.render(game, heading, notes)
    try:
        args.output.write_text(page, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {args.output}: {error.strerror}") from None
    answer = game["answer"]
    print(f"{args.output}: " + (answer["verdict"] if answer else "no answer: play by hand"))
    return 0


def _black_hole(args: argparse.Namespace, text: str) -> tuple[dict, str, list[str]]:
    from patience.answers import read_answer

    deal = parse_deal(text, args.deal)
    notes, sequence, source = [], None, ""
    if args.answer is not None:
        sequence, source = read_answer(read_text(args.answer), args.answer, deal), Path(args.answer).name
    elif args.solver is not None:
        from patience.runners.process import Limits
        from patience.runners.solve import solve

        result = solve(deal, args.solver, Limits(timeout=args.timeout), parse_options(args.options))
        notes.append(f"{result.solver}: {result.status.value} in {result.wall:.3f} s"
                     + (f" ({result.message})" if result.message else ""))
        if result.sequence is not None:
            sequence, source = result.sequence, f"{result.solver}'s answer"
    return replay.black_hole_game(deal, sequence, source), Path(args.deal).name, notes


def _lbs(args: argparse.Namespace, text: str) -> tuple[dict, str, list[str]]:
    from patience.lbs.deal import read_param

    deal = read_param(text, args.deal)
    notes, moves, source = [], None, ""
    if args.answer is not None:
        from patience.lbs.solution import read_mapping, read_moves

        answer_text = read_text(args.answer)
        mapping = read_mapping(args.mapping) if args.mapping else None
        moves = (read_moves(answer_text, args.answer, mapping) if "letting" in answer_text
                 else read_pairs(answer_text, args.answer))
        source = Path(args.answer).name
    elif args.solver is not None:
        from patience.lbs.run import SOLVERS, decide
        from patience.runners.process import Limits

        if args.solver not in SOLVERS:
            raise UsageError(f"unknown LBS solver {args.solver!r}; known: {', '.join(SOLVERS)}")
        outcome = decide(deal, args.solver, Limits(timeout=args.timeout))
        notes.append(f"{outcome.solver}: {outcome.verdict} in {outcome.seconds:.3f} s")
        moves, source = outcome.moves, f"{outcome.solver}'s answer"
    return replay.lbs_game(deal, moves, source), deal.name or Path(args.deal).name, notes
