"""`patience reduce FORMULA.cnf`: the SAT-to-Black-Hole construction, printed as a YAML deal."""

from __future__ import annotations

import argparse

from patience.arguments import Subcommands
from patience.exit_codes import ExitCode
from patience.formats.yaml_form import write
from patience.generators.reduction import meta, read_formula, reduce_formula
from patience.reading import read_text


def register(subparsers: Subcommands) -> None:
    parser = subparsers.add_parser(
        "reduce", help="turn a DIMACS CNF formula into the generalised Black Hole deal of the NP-completeness proof",
        description="Print the deal (YAML) that is solvable iff the formula is satisfiable; its `meta` block "
                    "records the formula, so `patience decode assignment` can read a won game back.")
    parser.add_argument("formula", help="DIMACS CNF file")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    formula = read_formula(read_text(args.formula), args.formula)
    print(write(reduce_formula(formula), meta(formula)), end="")
    return ExitCode.SOLVED
