"""`patience solvers`: what is installed, its version, and how to get what is missing."""

from __future__ import annotations

import argparse

from patience.exit_codes import ExitCode
from patience.runners.registry import PREFIXED, all_solvers


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solvers", help="list the solvers, whether installed, and how to get them",
        description="List every solver: its paradigm, whether it is installed here and its version, how to get it "
                    "if missing, the games it plays and its --set options (for `solve`, `compare` and `show`).")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    rows = []
    for solver in all_solvers():
        installed = solver.available()
        version = (solver.version() or "") if installed else ""
        state = f"installed {version}".strip() if installed else "MISSING"
        rows.append((solver.name, solver.paradigm, state, solver.description))
        if not installed:
            rows.append(("", "", "", f"-> {solver.install_hint()}"))
        rows.append(("", "", "", f"plays: {', '.join(solver.games)}"))
        rows += [("", "", "", f"--set {option.name}={option.describe()}") for option in solver.options]
    widths = [max((len(row[column]) for row in rows), default=0) for column in range(3)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3]
             for row in rows]
    lines += [f"{prefix}:ARGUMENT  (see the {prefix} solvers above)" for prefix in PREFIXED]
    print("\n".join(line.rstrip() for line in lines))
    return ExitCode.SOLVED
