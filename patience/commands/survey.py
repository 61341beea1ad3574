"""`patience survey`: decide every numbered deal of a range (or seeded random generalised deals of
one shape, `--shape R,S,H`) in max-cards or decision mode into a resumable SQLite store;
`patience survey report` sums a store up; `patience survey export` writes its per-deal rows as
compressed CSV; `patience survey shuffles` runs Wolter's riffle-shuffle experiments.

Exit status: 0 finished, 2 bad input, 4 the search reported a play the validator rejects (nothing of
that batch is stored), 130 interrupted (rerun the same command to continue)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from patience.arguments import Subcommands
from patience.caps import MAX_DEALS, MAX_NODES, MAX_SEED
from patience.errors import UsageError
from patience.limits import jobs, seconds
from patience.names import BLACK_HOLE, DEFAULT_NUMBERING, GENERALISED, game_option, numbering_option
from patience.numeric import real_argument, whole_argument
from patience.outputs import output_file
from patience.result import Status
from patience.runs import cluster
from patience.runs.pool import Runner
from patience.runs.progress import Progress
from patience.runs.specs import parse_seeds
from patience.runs.stops import STOPPED, Kept, command_line, keeping, said, tell
from patience.survey import experiment, export, report
from patience.survey.decide import UntrustedPlay
from patience.survey.run import (
    SURVEYED_GAMES,
    WORDS,
    check_counts,
    game_and_shape,
    read_survey,
    run_survey,
    survey_seeds,
)
from patience.survey.shuffles import DEALINGS, DECKS, SHAPES, BatchResult, play_batch
from patience.survey.store import MAX_CARDS, MODES, UNDECIDED, VERDICTS, SurveyStore


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "survey", help="decide every deal of a numbered range (or random deals of a shape) into a resumable store",
        description="Decide every deal of a range (numbered deals, or seeded random generalised deals of "
                    "--shape R,S,H) with the native search in max-cards or decision mode, in batches, "
                    "into a SQLite store that a rerun resumes; `survey report` sums a store up, "
                    "`survey export --out FILE` writes its rows as CSV, "
                    "`survey shuffles` runs Wolter's riffle-shuffle experiments.")
    parser.add_argument("action", nargs="?", choices=("report", "shuffles", "export"),
                        help="default: run the survey")
    parser.add_argument("--game", type=game_option(SURVEYED_GAMES), metavar="GAME",
                        help=f"{', '.join(SURVEYED_GAMES)} (default {BLACK_HOLE}, or {GENERALISED} with --shape; "
                             f"hyphens accepted); shuffles: {', '.join(SHAPES)}")
    parser.add_argument("--shape", metavar="RANKS,SUITS,HEIGHT",
                        help=f"{GENERALISED}: seeded random deals of RANKS x SUITS cards in piles of HEIGHT "
                             "(the deals of the spec random:RANKS,SUITS,HEIGHT:SEEDS)")
    parser.add_argument("--mode", choices=MODES, default=MAX_CARDS,
                        help="max-cards: the most cards removable too (default); decision: won or lost only, faster")
    parser.add_argument("--numbering", type=numbering_option, default=DEFAULT_NUMBERING,
                        help="how deal numbers become shuffles (default PySolFC's)")
    parser.add_argument("--seeds", default="1-1000",
                        help="deal numbers: ranges and lists, 1-100000,200 (default 1-1000)")
    parser.add_argument("--timeout", type=seconds, default=60.0, help="search limit per deal in seconds (default 60)")
    parser.add_argument("--nodes", type=whole_argument(1, MAX_NODES),
                        help="node limit per search as well (default none): verdicts that do "
                             "not depend on the machine's speed or load")
    parser.add_argument("--batch", type=whole_argument(1, MAX_DEALS),
                        help="deals per task (2000); shuffles: games per chain (1000)")
    parser.add_argument("--jobs", type=jobs, default=1,
                        help="batches at once: local worker processes (default 1; never more than the batches "
                             "to do, nor 4 per CPU), or workers on --cluster")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run on this Dask distributed scheduler")
    cluster.add_options(parser)
    parser.add_argument("--db", required=True, type=Path, help="SQLite store; rerunning with it resumes")
    parser.add_argument("--plot", type=Path, action="append", default=[],
                        help="report/shuffles: write the figure here (.png or .svg); repeatable")
    parser.add_argument("--out", type=Path,
                        help="export: the per-deal rows (seed, verdict, cards, nodes) as .csv, .csv.gz or .csv.xz")
    parser.add_argument("--games", type=whole_argument(1, MAX_DEALS),
                        default=100_000, help="shuffles: games per point (default 100000)")
    parser.add_argument("--riffles", default="1-7", help="shuffles: riffle counts (default 1-7)")
    parser.add_argument("--seed", type=whole_argument(0, MAX_SEED),
                        default=0, help="shuffles: seed of every chain's generator (0)")
    parser.add_argument("--reference", type=real_argument(0, 100), metavar="PERCENT",
                        help="shuffles: draw a dotted line at this win rate (a survey's, say)")
    parser.add_argument("--certify", action="store_true",
                        help="keep a certificate of each loss in the store (docs/certificates.md), "
                             "verified by `patience check --db STORE`; its pass has the search's --timeout")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    for plot in args.plot:
        if plot.suffix not in (".png", ".svg"):
            raise UsageError(f"--plot {plot}: the figure must be a .png or .svg file")
        output_file(plot)
    if args.action == "report":
        return _report(args)
    if args.action == "export":
        return _export(args)
    check_counts(args.batch, args.nodes)
    if args.action == "shuffles":
        return _shuffles(args, cluster.runner(args.jobs, args.scheduler, cluster.from_args(args),
                                              seconds=args.timeout, store=args.db))
    seeds = survey_seeds(args.seeds)
    game, shape = game_and_shape(args.game, args.shape)
    try:
        before, new = run_survey(args.db, game, args.numbering, shape, seeds, args.mode, args.timeout, args.nodes,
                                 args.batch or 2000, jobs=args.jobs, scheduler=args.scheduler,
                                 cluster=cluster.from_args(args), show_progress=not args.quiet, certify=args.certify)
    except STOPPED as stop:  # Ctrl-C, SIGTERM, SIGHUP: what is kept, and how to go on
        tell(said(stop, f"{game} deals", str(args.db), command_line(args.parser, args)))
        return stop.status
    except UntrustedPlay as error:
        print(f"error: {error}", file=sys.stderr)
        return 4
    print(f"{args.db}: {before + new} of {len(seeds)} {game} deals stored ({new} new)")
    return 0


def _report(args: argparse.Namespace) -> int:
    settings, summary, _ = read_survey(args.db)
    for plot in args.plot:
        report.plot_histogram(summary, settings, plot)
    print(report.render(summary, settings), end="")
    return 0


def _export(args: argparse.Namespace) -> int:
    if args.out is None:
        raise UsageError("survey export needs --out FILE (.csv, .csv.gz or .csv.xz)")
    export.check_name(args.out)
    output_file(args.out)
    with SurveyStore(args.db, create=False) as store:
        written = export.write(store.rows(), args.out)
    print(f"{args.out}: {written} deals")
    return 0


def _shuffles(args: argparse.Namespace, run_batches: Runner) -> int:
    args.game = args.game or BLACK_HOLE
    if args.game not in SHAPES:
        raise UsageError(f"survey shuffles deals {', '.join(SHAPES)}, not {args.game}")
    riffles = parse_seeds(args.riffles, args.riffles)
    if args.games < 1 or max(riffles) > 100:
        raise UsageError("--games must be at least 1 and --riffles at most 100")
    if args.games > MAX_DEALS:
        raise UsageError(f"--games {args.games:,}: at most {MAX_DEALS:,} games a point")
    chain = args.batch or 1000
    chains = experiment.chains_per_point(args.games, chain) * len(riffles) * len(DECKS) * len(DEALINGS)
    if chains > MAX_DEALS:  # sized before any is listed: each is an object and a row
        raise UsageError(f"{chains:,} chains of games in all; at most {MAX_DEALS:,} (a larger --batch makes fewer)")
    with experiment.ShuffleStore(args.db) as store:
        store.fix_settings({"seed": args.seed, "chain": chain, "timeout": args.timeout})
        work = experiment.plan([args.game], riffles, args.games, chain, args.seed, args.timeout, store.stored())
        progress = Progress(sum(batch.games for batch in work), Counter(), enabled=not args.quiet, shown=VERDICTS,
                            title="shuffles", words=WORDS)

        def keep(result: BatchResult) -> None:
            store.add(result)
            decided = result.batch.games - result.undecided
            progress.counts.update({Status.SOLVED: result.won, Status.UNSOLVABLE: decided - result.won,
                                    UNDECIDED: result.undecided})
            progress.show()

        wanted = args.games * len(riffles) * len(DECKS) * len(DEALINGS)
        before = wanted - progress.total
        try:
            with keeping(lambda: Kept(before + progress.done, wanted, progress.done)), progress:
                run_batches(play_batch, work, keep)
        except STOPPED as stop:
            tell(said(stop, "games", str(args.db), command_line(args.parser, args)))
            return stop.status
        except UntrustedPlay as error:
            print(f"error: {error}", file=sys.stderr)
            return 4
        totals = store.totals(experiment.chains_per_point(args.games, chain))
    for plot in args.plot:
        experiment.plot(totals, args.game, plot, None if args.reference is None else args.reference / 100)
    print(experiment.table(totals, args.game), end="")
    return 0
