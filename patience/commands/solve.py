"""`patience solve DEAL --solver NAME`: generate, run, read back, validate, report; any game."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from patience.arguments import Subcommands
from patience.columns import counted
from patience.errors import UsageError, one_line, quote
from patience.exit_codes import STATUS_EXIT
from patience.games import AnyDeal, game_of, read_game_deal
from patience.limits import mebibytes, seconds
from patience.names import GAME_OPTION_HELP, game_option
from patience.outputs import check_apart, output_file
from patience.result import Result, Status
from patience.runners.solve import checked_solver, solve
from patience.runs.process import Limits
from patience.sat_proof import keep_certificate


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "solve", help="decide a deal with any solver; the answer is validated",
        description="Write the deal as the solver's model, run the solver under limits, read its answer back "
                    "and replay it. Exit status: 0 solved (validated), 1 proven unsolvable, 2 bad input, "
                    "3 timeout/memout/unknown, 4 solver error or rejected answer, 70 internal error (a bug), "
                    "74 standard output could not be written, 130 interrupted.")
    parser.add_argument("deal", help="deal file in any known form, of any game")
    parser.add_argument("--game", type=game_option(), metavar="GAME", help=GAME_OPTION_HELP)
    parser.add_argument("--solver", default="native", help="a name from `patience solvers` (default: native)")
    parser.add_argument("--timeout", type=seconds, default=60.0,
                        help="wall-clock limit in seconds (default 60), from the command's start: reading the deal, "
                             "writing the model and the solver; not the replay after (README: What a limit covers)")
    parser.add_argument("--cpu", type=seconds, help="CPU-time limit in seconds (default: the timeout), counted as "
                                                     "--timeout is: this process's and the solver's CPU")
    parser.add_argument("--memory", type=mebibytes, help="memory limit in MiB of the solver's processes")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="options",
                        help="solver option (see `patience solvers`); repeatable")
    parser.add_argument("--json", action="store_true", help="print the result record as JSON")
    parser.add_argument("--certificate", type=Path, metavar="FILE",
                        help="for a loss, write a certificate `patience check` verifies (docs/certificates.md): "
                             "the certificate pass (the compiled search keeping its failure cache, where it plays "
                             "the game) runs after the solver, under the same limits")
    parser.set_defaults(handler=run)


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise UsageError(f"--set takes OPTION=VALUE, not {quote(pair)}")
        options[key.strip()] = value.strip()
    return options


def status_lines(result: Result) -> list[str]:
    """Who decided and what: the lines `solve` starts with and `show --solver` prints too."""
    return [f"solver: {result.solver}" + (f" ({result.version})" if result.version else ""),
            f"status: {result.status.value}"]


def certificate_line(deal: AnyDeal, result: Result, path: Path, limits: Limits,
                     solver: str, options: dict[str, str]) -> str:
    """What became of the certificate asked for: written (a loss, the pass done), or why not. A CNF
    route that logs proofs gives a SAT proof certificate (patience.sat_proof), any other the game's (of
    "no play plays more than k cards" when the solver ran with max-cards on)."""
    if result.status is not Status.UNSOLVABLE:
        return f"none (the status is {result.status.value}, not unsolvable)"
    _, typed = checked_solver(solver, game_of(deal).variant(deal), options)
    written, kind = keep_certificate(deal, solver, typed, path, limits)
    if written.reason is not None:
        return f"not written: {written.reason}"
    return written.said(one_line(str(path)), kind)


def run(args: argparse.Namespace) -> int:
    limits = Limits(timeout=args.timeout, cpu=args.cpu, memory_mb=args.memory).counting()  # reading counts too
    game, deal = read_game_deal(args.deal, args.game)
    if args.certificate is not None:
        check_apart(output_file(args.certificate), [args.deal])
    options = parse_options(args.options)
    result = solve(deal, args.solver, limits, options)
    record = result.to_record()
    certificate = None if args.certificate is None else certificate_line(deal, result, args.certificate, limits,
                                                                          args.solver, options)
    if args.json:
        print(json.dumps({"deal": args.deal, **record, **({} if certificate is None else {"certificate": certificate})},
                         indent=2))
    else:
        lines = [f"deal: {one_line(args.deal)} ({game.describe(deal)})", *status_lines(result)]
        sequence = record["sequence"]
        if sequence is not None:  # set exactly when result.sequence is
            lines.append(f"sequence: {' '.join(sequence)}")
            lines.append(f"validated: {counted(len(result.sequence or ()), 'move')}")
        lines.append(f"time: wall {result.wall:.3f} s, cpu {result.cpu:.3f} s")
        if result.nodes is not None:
            lines.append(f"nodes: {result.nodes}")
        lines += [f"{key}: {value}" for key, value in result.stats.items()]
        if result.message:
            lines.append(f"message: {result.message}")
        if certificate is not None:
            lines.append(f"certificate: {certificate}")
        print("\n".join(lines))
    return STATUS_EXIT[result.status]
