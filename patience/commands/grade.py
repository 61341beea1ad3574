"""`patience grade`: grade an Essence Prime or MiniZinc model of Late Binding Solitaire, or a folder of its
Savile Row results."""

from __future__ import annotations

import argparse
from pathlib import Path

from patience.errors import UsageError
from patience.exit_codes import GRADED_WRONG, ExitCode
from patience.lbs.grader import SAVILE_ROW_COLUMNS, WRONG, NativeVerdicts, grade_model, grade_results, table
from patience.lbs.grader_mzn import COLUMNS, grade_minizinc
from patience.lbs.solution import read_mapping
from patience.limits import seconds
from patience.runners.minizinc import DEFAULT_BACKEND


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "grade", help="grade an lbs model, Essence Prime or MiniZinc (or a folder of Savile Row results)",
        description="Run MODEL on every instance under --instances: an Essence Prime .eprime model through "
                    "Savile Row + Minion, a MiniZinc .mzn model through MiniZinc (--backend); or read the "
                    ".info/.solution files Savile Row already wrote under --results. Replay every solution, "
                    "check every 'no solution' with the native solver, print a table. Exit 1 if any answer is "
                    "wrong.")
    parser.add_argument("model", nargs="?", type=Path, help="the student's .eprime or .mzn model")
    parser.add_argument("--instances", type=Path,
                        help="folder of instances to run the model on (.param; also .dzn for a .mzn model)")
    parser.add_argument("--results", type=Path, help="folder of .param files with Savile Row's .info/.solution")
    parser.add_argument("--mapping", type=Path, help="YAML: `from: VAR`, `to: VAR`, `first_position: 1`")
    parser.add_argument("--timeout", type=seconds, default=60.0, help="seconds per instance (default 60)")
    parser.add_argument("--native-timeout", type=seconds, default=120.0,
                        help="seconds the native solver may take to check one 'no solution' (default 120)")
    levels = parser.add_mutually_exclusive_group()
    for level in (0, 1, 2, 3):
        levels.add_argument(f"-O{level}", dest="level", action="store_const", const=level,
                            help=f"Savile Row -O{level}, for an .eprime model" + (" (default)" if level == 2 else ""))
    parser.add_argument("--backend", default=DEFAULT_BACKEND,
                        help=f"the solver behind MiniZinc, for a .mzn model (default {DEFAULT_BACKEND})")
    parser.set_defaults(handler=run, level=2)


def run(args: argparse.Namespace) -> int:
    mapping = read_mapping(args.mapping) if args.mapping else None
    native = NativeVerdicts(args.native_timeout)
    columns = SAVILE_ROW_COLUMNS
    if args.results is not None:
        if args.model is not None or args.instances is not None:
            raise UsageError("--results grades existing files: give no MODEL and no --instances")
        rows = grade_results(args.results, mapping, native)
    elif args.model is not None and args.instances is not None and args.model.suffix == ".mzn":
        rows = grade_minizinc(args.model, args.instances, mapping, native, args.timeout, args.backend)
        columns = COLUMNS
    elif args.model is not None and args.instances is not None:
        rows = grade_model(args.model, args.instances, mapping, native, args.timeout, args.level)
    else:
        raise UsageError("give MODEL --instances DIR, or --results DIR")
    print(table(rows, columns), end="")
    return GRADED_WRONG if any(row.grade == WRONG for row in rows) else ExitCode.SOLVED
