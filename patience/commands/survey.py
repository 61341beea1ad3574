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

from patience.commands.limits import seconds
from patience.errors import InputError, UsageError
from patience.generators.deals import random_deal
from patience.names import BLACK_HOLE, DEFAULT_NUMBERING, GENERALISED, NUMBERED_GAMES, game_option, numbering_option
from patience.native import engine
from patience.outputs import output_file
from patience.result import Status
from patience.runs.pool import Runner, runner
from patience.runs.progress import Progress
from patience.runs.specs import parse_seeds
from patience.survey import experiment, export, report
from patience.survey.decide import UntrustedPlay
from patience.survey.run import survey
from patience.survey.shuffles import SHAPES, BatchResult, play_batch
from patience.survey.store import MAX_CARDS, MODES, UNDECIDED, VERDICTS, SurveyStore, survey_settings

_LAST_STORABLE_SEED = 2 ** 63 - 1  # SQLite integers
SURVEYED_GAMES = (*NUMBERED_GAMES, GENERALISED)


def register(subparsers: argparse._SubParsersAction) -> None:
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
    parser.add_argument("--seeds", default="1-1000", help="deal numbers: ranges and lists, 1-100000,200")
    parser.add_argument("--timeout", type=seconds, default=60.0, help="search limit per deal in seconds (60)")
    parser.add_argument("--nodes", type=int, help="node limit per search as well (default none): verdicts that do "
                                                  "not depend on the machine's speed or load")
    parser.add_argument("--batch", type=int, help="deals per task (2000); shuffles: games per chain (1000)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="local worker processes (1; never more than the batches to do, nor 4 per CPU)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run on this Dask distributed scheduler")
    parser.add_argument("--db", required=True, type=Path, help="SQLite store; rerunning with it resumes")
    parser.add_argument("--plot", type=Path, action="append", default=[],
                        help="report/shuffles: write the figure here (.png or .svg); repeatable")
    parser.add_argument("--out", type=Path,
                        help="export: the per-deal rows (seed, verdict, cards, nodes) as .csv, .csv.gz or .csv.xz")
    parser.add_argument("--games", type=int, default=100_000, help="shuffles: games per point (100000)")
    parser.add_argument("--riffles", default="1-7", help="shuffles: riffle counts (1-7)")
    parser.add_argument("--seed", type=int, default=0, help="shuffles: seed of every chain's generator (0)")
    parser.add_argument("--reference", type=float, metavar="PERCENT",
                        help="shuffles: draw a dotted line at this win rate (a survey's, say)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    for plot in args.plot:
        if plot.suffix not in (".png", ".svg"):
            raise UsageError(f"--plot {plot}: the figure must be a .png or .svg file")
        output_file(plot)
    if args.action == "report":
        return _report(args)
    if args.action == "export":
        return _export(args)
    if args.batch is not None and args.batch < 1:
        raise UsageError(f"--batch must be at least 1, not {args.batch}")
    if args.nodes is not None and args.nodes < 1:
        raise UsageError(f"--nodes must be at least 1, not {args.nodes}")
    run_batches = runner(args.jobs, args.scheduler)
    if args.action == "shuffles":
        return _shuffles(args, run_batches)
    seeds = parse_seeds(args.seeds, args.seeds)
    if min(seeds) < 1 or max(seeds) > _LAST_STORABLE_SEED:
        raise UsageError(f"--seeds {args.seeds}: deals are numbered from 1 to {_LAST_STORABLE_SEED} here")
    game, shape = _game_and_shape(args)
    numbering = None if shape else args.numbering
    store = SurveyStore(args.db)
    try:
        store.fix_settings(survey_settings(game, numbering, shape, args.mode, args.timeout, args.nodes))
        try:
            before, new = survey(store, game, numbering, seeds, args.batch or 2000, args.timeout, run_batches,
                                 not args.quiet, args.nodes, args.mode, shape)
        except KeyboardInterrupt:
            print(f"interrupted: the finished batches are in {args.db}; rerun the same command to continue",
                  file=sys.stderr)
            return 130
        except UntrustedPlay as error:
            print(f"error: {error}", file=sys.stderr)
            return 4
    finally:
        store.close()
    print(f"{args.db}: {before + new} of {len(seeds)} {game} deals stored ({new} new)")
    return 0


def _game_and_shape(args: argparse.Namespace) -> tuple[str, tuple[int, int, int] | None]:
    """The game surveyed and, for random generalised deals, their checked shape."""
    game = args.game or (GENERALISED if args.shape else BLACK_HOLE)
    if game != GENERALISED:
        if args.shape:
            raise UsageError(f"--shape is for --game {GENERALISED}, not {game}")
        return game, None
    if not args.shape:
        raise UsageError(f"--game {GENERALISED} needs --shape RANKS,SUITS,HEIGHT (say 13,4,3)")
    try:
        ranks, suits, height = (int(number) for number in args.shape.split(","))
    except ValueError:
        raise UsageError(f"--shape {args.shape[:60]!r}: expected RANKS,SUITS,HEIGHT, three whole numbers") from None
    try:
        random_deal(ranks, suits, height, 0)  # the shape's checks and caps, before any store is touched
    except ValueError as error:
        raise UsageError(f"--shape {args.shape[:60]}: {error}") from None
    if ranks * suits > engine.COMPILED_MAX_CARDS:
        raise UsageError(f"--shape {args.shape}: {ranks * suits:,} cards; the compiled search takes at most "
                         f"{engine.COMPILED_MAX_CARDS:,}")
    return game, (ranks, suits, height)


def _report(args: argparse.Namespace) -> int:
    store = SurveyStore(args.db, create=False)
    try:
        settings, rows = store.settings(), store.rows()
    finally:
        store.close()
    if not rows:
        raise InputError(str(args.db), None, "holds no decided deals yet")
    shape = settings.get("shape")
    if settings.get("game") not in report.TABLEAU_CARDS and not (settings.get("game") == GENERALISED and shape):
        raise InputError(str(args.db), None, f"a survey of no game this patience knows ({settings.get('game')})")
    summary = report.summarise(str(settings["game"]), rows, report.tableau_cards(settings))
    for plot in args.plot:
        report.plot_histogram(summary, settings, plot)
    print(report.render(summary, settings), end="")
    return 0


def _export(args: argparse.Namespace) -> int:
    if args.out is None:
        raise UsageError("survey export needs --out FILE (.csv, .csv.gz or .csv.xz)")
    export.check_name(args.out)
    output_file(args.out)
    store = SurveyStore(args.db, create=False)
    try:
        written = export.write(store.rows(), args.out)
    finally:
        store.close()
    print(f"{args.out}: {written} deals")
    return 0


def _shuffles(args: argparse.Namespace, run_batches: Runner) -> int:
    args.game = args.game or BLACK_HOLE
    if args.game not in SHAPES:
        raise UsageError(f"survey shuffles deals {', '.join(SHAPES)}, not {args.game}")
    riffles = parse_seeds(args.riffles, args.riffles)
    if args.games < 1 or max(riffles) > 100:
        raise UsageError("--games must be at least 1 and --riffles at most 100")
    chain = args.batch or 1000
    store = experiment.ShuffleStore(args.db)
    try:
        store.fix_settings({"seed": args.seed, "chain": chain, "timeout": args.timeout})
        work = experiment.plan([args.game], riffles, args.games, chain, args.seed, args.timeout, store.stored())
        progress = Progress(sum(batch.games for batch in work), Counter(), enabled=not args.quiet, shown=VERDICTS)
        progress.show()
        def keep(result: BatchResult) -> None:
            store.add(result)
            decided = result.batch.games - result.undecided
            progress.counts.update({Status.SOLVED: result.won, Status.UNSOLVABLE: decided - result.won,
                                    UNDECIDED: result.undecided})
            progress.show()

        try:
            run_batches(play_batch, work, keep)
        except KeyboardInterrupt:
            progress.finish()
            print(f"interrupted: the finished chains are in {args.db}; rerun the same command to continue",
                  file=sys.stderr)
            return 130
        except UntrustedPlay as error:
            progress.finish()
            print(f"error: {error}", file=sys.stderr)
            return 4
        progress.finish()
        totals = store.totals(experiment.chains_per_point(args.games, chain))
    finally:
        store.close()
    for plot in args.plot:
        experiment.plot(totals, args.game, plot, None if args.reference is None else args.reference / 100)
    print(experiment.table(totals, args.game), end="")
    return 0
