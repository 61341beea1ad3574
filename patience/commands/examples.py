"""`patience examples`: the example files that ship with the package (the paper's deal and its
answer, the LBS coursework's instances, a grader's Savile Row files) copied into a folder, so that
the README's and the docs' examples run in any folder after any install (patience/examples)."""

from __future__ import annotations

import argparse
from pathlib import Path

from patience.arguments import Subcommands
from patience.errors import UsageError
from patience.examples import EXAMPLES, example_files
from patience.exit_codes import ExitCode
from patience.families.write import Target
from patience.outputs import new_folder
from patience.runs.process import stop_signals_unwind


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "examples",
        help="copy the example files (the paper's deal, lbs coursework instances, a grader's files) into a folder",
        description="Copy the example files that come with patience-models into --out: "
                    + "; ".join(f"{folder}/, {what}" for folder, what in EXAMPLES.items())
                    + ". The folder appears whole or not at all; its README.md says what each file is.")
    parser.add_argument("--out", "-o", type=Path, default=Path("examples"),
                        help="the folder to write (default examples)")
    parser.add_argument("--force", action="store_true", help="replace a non-empty --out")
    parser.add_argument("--list", action="store_true", help="say what the examples are; write nothing")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.list:
        for folder, what in EXAMPLES.items():
            print(f"{folder}/: {what}")
        return ExitCode.SOLVED
    refused = Target(args.out, args.force).check()
    if refused is not None:
        raise UsageError(refused)
    files = example_files()
    with stop_signals_unwind(), new_folder(args.out, replace=True) as private:
        for name, data in files.items():
            path = private / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for folder, what in EXAMPLES.items():
        print(f"{args.out / folder}: {what}")
    return ExitCode.SOLVED
