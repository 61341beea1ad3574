"""`patience coursework`: an exercise's instances at a chosen hardness, the students' sheet, and the
reference answers in a folder of their own (patience/grading/coursework.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from patience.arguments import Subcommands
from patience.caps import MAX_SEED
from patience.commands.gen_family import input_paths
from patience.errors import UsageError
from patience.exit_codes import ExitCode
from patience.generators.deals import random_games
from patience.grading import coursework
from patience.grading import student as games
from patience.lbs.deal import STANDARD_RANKS, STANDARD_SUITS
from patience.limits import jobs, seconds
from patience.names import GAMES, GENERALISED, LBS, family_of, game_option
from patience.numeric import whole_argument
from patience.survey.run import game_and_shape

MAX_COUNT = 1_000  # instances one exercise may have
MAX_POOL = 10_000  # deals one pool may label
LBS_DECK = STANDARD_RANKS * STANDARD_SUITS  # an exercise's LBS rows are drawn from one standard deck


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "coursework", help="write an exercise: instances at a chosen hardness, a sheet, the reference answers",
        description="Label a pool of deals of GAME with the native search (--pool seeded game numbers, or "
                    "--deals SPEC), choose --count of them at the asked --hardness (with exactly --unsolvable "
                    "unsolvable ones if given), and write into --out the instances in the data format of the "
                    "students' model language (--language: .dzn, .param or ASP facts, or a --mapping's data), "
                    "each deal as patience reads it (deals/) and the sheet (the rules, the instances, the data "
                    "format, what to hand in, how `patience grade` marks it); into --answers the validated "
                    "solutions (NAME.solution, one move a line), a replay page of each and every verdict "
                    "(answers.csv, answers.json). Same options and seed, same files. Both folders appear whole "
                    "or not at all.")
    parser.add_argument("--game", type=game_option(GAMES), required=True, metavar="GAME",
                        help=f"the game of the exercise: {', '.join(GAMES)} (hyphens accepted)")
    parser.add_argument("--language", choices=tuple(coursework.LANGUAGES), default="mzn",
                        help="the students' model language, which sets the instances' format: mzn (.dzn), "
                             "eprime (.param), asp (.lp facts) (default mzn)")
    parser.add_argument("--count", type=whole_argument(1, MAX_COUNT), default=10, help="instances (default 10)")
    parser.add_argument("--hardness", choices=coursework.HARDNESS, default="spread",
                        help="by the native search's nodes: the easiest, the hardest, a seeded sample, or spread "
                             "evenly from easy to hard (default spread)")
    parser.add_argument("--unsolvable", type=whole_argument(0, MAX_COUNT), metavar="K",
                        help="exactly K of the instances have no solution (default: whatever the choice gives)")
    parser.add_argument("--seed", type=whole_argument(0, MAX_SEED), default=0,
                        help="draws the pool's game numbers and the sample (default 0)")
    parser.add_argument("--pool", type=whole_argument(1, MAX_POOL), default=100,
                        help="deals to label and choose from (default 100)")
    parser.add_argument("--deals", metavar="SPEC",
                        help="choose from these deals instead (a deal spec, as `gen --deals` takes)")
    parser.add_argument("--cards", type=whole_argument(1, LBS_DECK), default=20,
                        help=f"{LBS}: cards in a row, from one deck of {LBS_DECK} (default 20)")
    parser.add_argument("--shape", metavar="RANKS,SUITS,HEIGHT",
                        help=f"{GENERALISED} (and golf_generalised, worm_hole_generalised): the pool's shape "
                             "(default 7,4,3)")
    parser.add_argument("--mapping", type=Path,
                        help="the students' model reads the data this game mapping names (`--mapping "
                             "minizinc-benchmarks`: the public Black Hole model's layout)")
    parser.add_argument("--sheet", choices=coursework.SHEETS, default="md", help="sheet.md or sheet.html (default md)")
    parser.add_argument("--timeout", type=seconds, default=60.0,
                        help="seconds a model has per instance when graded, as the sheet says (default 60)")
    parser.add_argument("--label-timeout", type=seconds, default=60.0,
                        help="the native search's limit per pool deal; undecided deals are never chosen (default 60)")
    parser.add_argument("--jobs", type=jobs, default=1, help="worker processes labelling the pool (default 1)")
    parser.add_argument("--out", "-o", type=Path, default=Path("exercise"),
                        help="the students' folder: sheet, instances/, deals/ (default exercise)")
    parser.add_argument("--answers", type=Path, default=Path("answers"),
                        help="the teacher's folder: solutions, replay pages, verdicts (default answers)")
    parser.add_argument("--force", action="store_true", help="replace non-empty --out and --answers folders")
    parser.set_defaults(handler=run)


def exercise_of(args: argparse.Namespace) -> coursework.Exercise:
    """The checked choices of the command line (nothing labelled or written yet)."""
    game = args.game
    shaped = (GENERALISED, *random_games())  # generalised Black Hole, and the games dealing their own at random
    if args.shape is not None and (game not in shaped or args.deals is not None):
        raise UsageError(f"--shape sets the pool of --game {', '.join(shaped)} (without --deals)")
    given_shape = "7,4,3" if args.shape is None else args.shape  # an empty --shape is refused, not the default
    shape = game_and_shape(GENERALISED, given_shape)[1] if game in shaped else None
    mapping = games.GameMapping(game)
    if args.mapping is not None:
        data, source = games.mapping_data(args.mapping)
        if not games.is_game_mapping(data):
            raise UsageError(f"{args.mapping}: not a game mapping (`game:`, `options:`, `variables:`)")
        mapping = games.read_game_mapping(data, source)
        if mapping.game is not None and family_of(mapping.game) != family_of(game):
            raise UsageError(f"--game {game} but the mapping is for {mapping.game}")
    return coursework.Exercise(game, args.language, args.count, args.hardness, args.unsolvable, args.seed, args.pool,
                               args.deals, args.cards, shape or (7, 4, 3), mapping, args.sheet, args.timeout,
                               args.label_timeout, args.jobs,
                               mapping_name="" if args.mapping is None else args.mapping.name)


def run(args: argparse.Namespace) -> int:
    exercise = exercise_of(args)
    instances = coursework.write_exercise(exercise, args.out, args.answers, args.force,
                                          input_paths(args.deals, None) if args.deals else [])
    unsolvable = sum(item.moves is None for item in instances)
    print(f"{args.out}: {len(instances)} {exercise.language} instances of {exercise.game} ({unsolvable} unsolvable), "
          f"sheet.{exercise.sheet}")
    print(f"{args.answers}: {len(instances) - unsolvable} solutions, answers.csv, answers.json")
    return ExitCode.SOLVED
