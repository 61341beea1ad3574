"""`gen lbs-eprime DEAL`: Late Binding Solitaire as Essence Prime (models/lbs.eprime + the deal's .param).

The model is the coursework's: move variables actionFrom/actionTo (1-based), actionValue and the
states matrix. Its two lettings `ranks` and `suits` are rewritten for generalised deals, so the
parameter file stays the coursework's one line `letting cards be [...]`.
"""

from __future__ import annotations

import argparse
from importlib import resources

from patience.commands.gen import add_deal_arguments, emit
from patience.errors import UsageError
from patience.lbs.deal import STANDARD_RANKS, STANDARD_SUITS, LBSDeal, load_deal

MODEL_FILE = "lbs.eprime"


def model_text(deal: LBSDeal | None = None) -> str:
    text = resources.files("patience.models").joinpath(MODEL_FILE).read_text()
    if deal is None or deal.standard:
        return text
    return (text.replace(f"letting ranks be {STANDARD_RANKS}\n", f"letting ranks be {deal.ranks}\n")
                .replace(f"letting suits be {STANDARD_SUITS}\n", f"letting suits be {deal.suits}\n"))


def parameters(deal: LBSDeal) -> str:
    """The coursework `.param`: only the cards (ranks and suits live in the model's lettings)."""
    return f"letting cards be [{','.join(map(str, deal.cards))}]\n"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lbs-eprime", help="Late Binding Solitaire: Essence Prime model and .param (Savile Row)",
        description="Print the .param of an LBS deal; --model prints the model (the standard one without a "
                    "DEAL); -o DIR writes lbs.eprime and <deal>.param.")
    add_deal_arguments(parser, deal_required=False)
    parser.add_argument("--model", action="store_true", help="print the model instead of the parameters")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.deal is None:
        if not args.model or args.output_dir is not None:
            raise UsageError("gen lbs-eprime needs a DEAL (only --model prints the standard model without one)")
        print(model_text(), end="")
        return 0
    deal = load_deal(args.deal)
    files = {MODEL_FILE: model_text(deal), f"{deal.name or 'deal'}.param": parameters(deal)}
    return emit(files, MODEL_FILE if args.model else f"{deal.name or 'deal'}.param", args.output_dir)
