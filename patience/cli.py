"""The `patience` command (and `gen`, its shortcut for `patience gen`).

Each subcommand lives in its own module under patience/commands with a `register(subparsers)`
function. Bad input ends in one line `error: FILE:LINE: what`, exit status 2, nothing on stdout.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from patience import __version__
from patience.errors import InputError, UsageError
from patience.exit_codes import ExitCode

COMMANDS = ("deal", "convert", "validate", "solvers", "solve", "gen", "compare", "report", "grade", "reduce", "decode",
            "lbs", "show", "survey")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="patience", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"patience-models {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"patience.commands.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    args = (parser or build_parser()).parse_args(argv)
    try:
        return args.handler(args)
    except (InputError, UsageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except KeyboardInterrupt:  # the runner core has already killed the solver's process group
        print("interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # `patience ... | head` closed the pipe early
        sys.stderr.close()
        return ExitCode.SOLVED


def gen_main(argv: list[str] | None = None) -> int:
    from patience.commands import gen

    return main(argv, gen.standalone_parser())
