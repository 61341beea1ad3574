"""`patience compare`: run configurations on many deals, store each validated run in SQLite, resume
where a killed campaign stopped, and shout about contradicting verdicts.

Exit status: 0 finished, 2 bad input, 4 finished with contradicting verdicts, 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys

from patience.arguments import Subcommands
from patience.campaign import config
from patience.campaign.run import run_campaign
from patience.campaign.store import CHANGED_SHOWN
from patience.caps import MAX_SEED
from patience.errors import UsageError
from patience.exit_codes import ExitCode
from patience.limits import jobs, mebibytes, seconds
from patience.numeric import whole_argument
from patience.runs import cluster, specs
from patience.runs.process import Limits
from patience.runs.stops import STOPPED, command_line, said, tell

_DEFAULTS = {"timeout": 60.0, "cpu": None, "memory": None, "jobs": 1}


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "compare", help="run many solver configurations on many deals into a resumable SQLite store",
        description="Run configurations on many deals, store each validated run in SQLite, and resume "
                    "where a killed campaign stopped. Exit status: 0 finished, 2 bad input, "
                    "4 contradicting verdicts found, 130 interrupted (rerun the same command to continue). "
                    "An experiment file that names a program (solver: sat:PATH) runs it: such a file is code, "
                    "refused unless --allow-executables is given.")
    parser.add_argument("--deals", metavar="SPEC", help=specs.SPEC_HELP)
    parser.add_argument("--solvers", metavar="LIST", help="comma-separated solver names from `patience solvers`")
    parser.add_argument("--config", action="append", default=[], metavar="'LABEL=SOLVER OPTION=VALUE ...'",
                        help="a labelled configuration with options; repeatable")
    parser.add_argument("--experiment", metavar="FILE", help="YAML file with deals, limits and configurations")
    parser.add_argument("--allow-executables", action="store_true",
                        help="run the programs an experiment file names (solver: sat:PATH); such a file is code, "
                             "not data, and is refused without this flag: give it only for files you trust")
    parser.add_argument("--timeout", type=seconds, help="wall-clock limit per run in seconds (default 60)")
    parser.add_argument("--cpu", type=seconds, help="CPU-time limit per run (default: the timeout)")
    parser.add_argument("--memory", type=mebibytes, help="memory limit per run in MiB")
    parser.add_argument("--jobs", type=jobs, help="runs at once: local worker processes (default 1; never more than "
                                                 "the runs to do, nor 4 per CPU), or workers on --cluster")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run on this Dask distributed scheduler")
    cluster.add_options(parser)
    parser.add_argument("--db", required=True, help="SQLite store; rerunning with the same store resumes")
    parser.add_argument("--seed", type=whole_argument(0, MAX_SEED),
                        default=0, help="seed of the task order shuffle (default 0)")
    parser.add_argument("--retry-errors", action="store_true", help="run again the runs stored as errors")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=run, parser=parser)


def _campaign(args: argparse.Namespace) -> tuple[dict[str, object], list[config.Configuration]]:
    settings: dict[str, object] = dict(_DEFAULTS)
    configurations: list[config.Configuration] = []
    if args.experiment:
        from_file, configurations = config.read_experiment(args.experiment, args.allow_executables)
        settings.update(from_file)
    for key in ("deals", "timeout", "cpu", "memory", "jobs"):
        if getattr(args, key) is not None:
            settings[key] = getattr(args, key)
    if args.solvers:
        configurations += config.from_solver_list(args.solvers)
    configurations += [config.from_config_argument(text) for text in args.config]
    gathered = config.gathered(configurations)
    if not settings.get("deals"):
        raise UsageError("no deals: give --deals SPEC or deals: in the experiment file")
    return settings, gathered


def _real(value: object) -> float:
    """float() of a limit, checked as an option or in the experiment file (a number or its text);
    one set to null there fails as float(None) does."""
    if isinstance(value, int | float | str):
        return float(value)
    raise TypeError(f"float() argument must be a string or a real number, not {type(value).__name__!r}")


def _whole(value: object) -> int:
    """int() of a count, as `_real`; one set to null fails as int(None) does."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"int() argument must be a string, a bytes-like object or a real number, "
                    f"not {type(value).__name__!r}")


def _say_changed(changed: list[tuple[str, list[str], str]]) -> None:
    """One line per deal file changed since it was stored (the first few): it is a new deal now."""
    for name, old, new in changed[:CHANGED_SHOWN]:
        before = ", ".join(content[:12] or "not recorded" for content in old)
        print(f"note: {name} changed since it was stored (content {before}, now {new[:12]}): its old runs "
              f"are kept under the old content, and it runs as a new deal", file=sys.stderr)
    if len(changed) > CHANGED_SHOWN:
        print(f"note: {len(changed) - CHANGED_SHOWN} more deal files changed since they were stored, "
              "each run as a new deal", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    settings, configurations = _campaign(args)
    deals = specs.resolve(str(settings["deals"]))
    try:
        limits = Limits(timeout=_real(settings["timeout"]),
                        cpu=None if settings["cpu"] is None else _real(settings["cpu"]),
                        memory_mb=None if settings["memory"] is None else _whole(settings["memory"]))
        jobs = _whole(settings["jobs"])
    except (TypeError, ValueError) as error:
        raise UsageError(f"bad limit in the experiment: {error}") from None
    try:
        ran = run_campaign(deals, configurations, limits, args.db, jobs=jobs, scheduler=args.scheduler,
                           cluster=cluster.from_args(args), show_progress=not args.quiet, seed=args.seed,
                           retry_errors=args.retry_errors, on_changed=_say_changed,
                           certify=settings.get("certify") is True)
    except STOPPED as stop:  # Ctrl-C, SIGTERM, SIGHUP: what is kept, and how to go on
        tell(said(stop, "runs", args.db, command_line(args.parser, args, leave_out=("retry_errors",))))
        return stop.status
    for item in ran.contradictions:
        print(f"CONTRADICTION on {item['deal']}: solved (validated) by {', '.join(item['solved by'])}, "
              f"called unsolvable by {', '.join(item['unsolvable by'])}", file=sys.stderr)
    print(f"{args.db}: {ran.before + ran.new} of {ran.wanted} runs stored ({ran.new} new), "
          f"{len(ran.contradictions)} contradicting verdicts"
          + ("" if ran.certified is None else f", lost (certified): {ran.certified[0]} of {ran.certified[1]} lost"))
    return ExitCode.SOLVER_ERROR if ran.contradictions else ExitCode.SOLVED
