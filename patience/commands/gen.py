"""`patience gen FORMAT DEAL` (also plain `gen`): a deal as a model file for one solver language.

Each generator module registers its own subparser through `register(subparsers)`; `add_deal_arguments`
and `emit` give them the same DEAL argument and the same `-o DIR` behaviour.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Mapping
from pathlib import Path

# format name -> module with register(subparsers)
GENERATORS: dict[str, str] = {
    "pddl": "patience.generators.pddl",
    "lp": "patience.generators.lp",
    "eprime": "patience.generators.eprime",
    "cnf": "patience.generators.cnf",
    "xcsp3": "patience.generators.xcsp3",
    "lbs-eprime": "patience.generators.lbs_eprime",
    "lbs-cnf": "patience.generators.lbs_cnf",
    "lbs-pddl": "patience.generators.lbs_pddl",
    "lbs-xcsp3": "patience.generators.lbs_xcsp3",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("gen", help="generate a model file for a deal (pddl, eprime, xcsp3, cnf, lp)",
                                   description="Print the model of a deal in one solver language; "
                                               "-o DIR writes every file of the model instead.")
    formats = parser.add_subparsers(dest="format", required=True, metavar="FORMAT")
    for module_name in GENERATORS.values():
        importlib.import_module(module_name).register(formats)


def add_deal_arguments(parser: argparse.ArgumentParser, deal_required: bool = True) -> None:
    parser.add_argument("deal", nargs=None if deal_required else "?", help="deal file in any known form")
    parser.add_argument("-o", "--output-dir", type=Path, help="write all model files into this folder")


def emit(files: Mapping[str, str], primary: str, output_dir: Path | None) -> int:
    """Print the primary file, or write every file into `output_dir` and list them."""
    if output_dir is None:
        print(files[primary], end="")
        return 0
    output_dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (output_dir / name).write_text(text)
    print("\n".join(str(output_dir / name) for name in files))
    return 0
