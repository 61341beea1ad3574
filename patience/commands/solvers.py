"""`patience solvers`: what is installed, its version, and how to get what is missing.

The plain listing is a table that fits the terminal (at most 100 columns); `--verbose` adds each
solver's description, how to get it and its `--set` options, `--json` gives all of it as data.
"""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap
from typing import Any

from patience.arguments import Subcommands
from patience.exit_codes import ExitCode
from patience.grading.sandbox import protection
from patience.names import GAMES
from patience.runners.base import ProcessSolver, Solver
from patience.runners.registry import PREFIXED, all_solvers
from patience.runs.kernel_limits import how_enforced

MAX_WIDTH = 100
_COLUMNS = ("solver", "paradigm", "installed", "plays")
_FIXED = (16, 8, 26)  # the widths of the first three columns; the games take the rest


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "solvers", help="list the solvers, whether installed, and how to get them",
        description="List every solver: its paradigm (native, planning, cp, sat, mip, asp), whether it is "
                    "installed here and its version, and the games it plays. --verbose adds how to get a "
                    "missing solver and its --set options (for `solve`, `compare` and `show`); --json gives "
                    "all of it as data.")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("-v", "--verbose", action="store_true", help="add descriptions, how to get each solver "
                                                                     "and its --set options")
    shown.add_argument("--json", action="store_true", help="print every solver's details as JSON")
    parser.set_defaults(handler=run)


def solver_records() -> list[dict[str, Any]]:
    """Each solver as data: what `--json` prints and the table and `--verbose` show."""
    records = []
    for solver in all_solvers():
        installed = solver.available()
        records.append({
            "name": solver.name, "paradigm": solver.paradigm, "installed": installed,
            "version": (solver.version() or "") if installed else None,
            "description": solver.description, "how_to_get": None if installed else solver.install_hint(),
            "games": list(solver.games), "limits": limits_of(solver),
            "options": [{"name": option.name, "values": list(option.values), "default": option.default,
                         "help": option.help} for option in solver.options],
            "option_lines": [f"--set {option.name}={option.describe()}" for option in solver.options],
        })
    return records


def limits_of(solver: Solver) -> str:
    """How a solver's limits are held here: a process's by the kernel (patience.runs.kernel_limits),
    an in-process solver's by the timers of the solve."""
    if isinstance(solver, ProcessSolver):
        return how_enforced(solver.address_space_limit)
    return "in this process: the solve's own timers and limits"


def run(args: argparse.Namespace) -> int:
    records = solver_records()
    if args.json:
        for record in records:
            del record["option_lines"]
        print(json.dumps(records, indent=2))
        return ExitCode.SOLVED
    width = min(MAX_WIDTH, max(60, shutil.get_terminal_size((MAX_WIDTH, 24)).columns))
    lines = verbose_lines(records, width) if args.verbose else table_lines(records, width)
    print("\n".join(line.rstrip() for line in lines))
    return ExitCode.SOLVED


def _state(record: dict[str, Any]) -> str:
    """The version of an installed solver ("yes" when it tells none), or MISSING."""
    if not record["installed"]:
        return "MISSING"
    return str(record["version"]).strip() or "yes"


def _games(games: list[str]) -> str:
    """The games a solver plays, as the table says them ("every game" for all of patience.names.GAMES)."""
    return "every game" if set(games) == set(GAMES) else ", ".join(games)


def table_lines(records: list[dict[str, Any]], width: int) -> list[str]:
    """One row a solver (its cells wrapped within their columns), then what is missing and the hint."""
    widths = [*_FIXED, max(20, width - sum(_FIXED) - 2 * len(_FIXED))]
    lines = ["  ".join(title.ljust(size) for title, size in zip(_COLUMNS, widths, strict=True))]
    for record in records:
        cells = [record["name"], record["paradigm"], _state(record), _games(record["games"])]
        wrapped = [textwrap.wrap(str(cell), size, break_on_hyphens=False) or [""]
                   for cell, size in zip(cells, widths, strict=True)]
        for row in range(max(len(cell) for cell in wrapped)):
            parts = [cell[row] if row < len(cell) else "" for cell in wrapped]
            line = "  ".join(part.ljust(size) for part, size in zip(parts, widths, strict=True))
            lines.append(line if row == 0 else " " + line[1:])  # continuation lines start with a space
    lines += [f"{prefix}:ARGUMENT  (a program of your own: see the {prefix} solvers above)" for prefix in PREFIXED]
    missing = [str(record["name"]) for record in records if not record["installed"]]
    if missing:
        lines += textwrap.wrap(f"missing here: {', '.join(missing)}", width, subsequent_indent="  ")
    lines += textwrap.wrap(f"every game: {', '.join(GAMES)}", width, subsequent_indent="  ")
    lines.append("how to get each solver and its --set options: patience solvers --verbose")
    lines += grading_lines(width)
    return lines


def grading_lines(width: int) -> list[str]:
    """What keeps a student's model from reading other files here (`patience grade`)."""
    return textwrap.wrap(f"students' models (patience grade) run in {protection()}", width, subsequent_indent="  ")


def verbose_lines(records: list[dict[str, Any]], width: int) -> list[str]:
    """Each solver's name and description, then its state, games and options, wrapped to `width`."""
    lines = []
    for record in records:
        details = [f"installed: {_state(record)}" if record["installed"] else "MISSING",
                   *([f"how to get it: {record['how_to_get']}"] if record["how_to_get"] else []),
                   f"plays: {', '.join(record['games'])}", f"limits: {record['limits']}", *record["option_lines"]]
        lines += textwrap.wrap(f"{record['name']} ({record['paradigm']}): {record['description']}", width,
                               subsequent_indent="    ", break_on_hyphens=False)
        for detail in details:
            lines += textwrap.wrap(detail, width, initial_indent="    ", subsequent_indent="      ",
                                   break_on_hyphens=False)
    lines += [f"{prefix}:ARGUMENT  (a program of your own: see the {prefix} solvers above)" for prefix in PREFIXED]
    return lines + grading_lines(width)
