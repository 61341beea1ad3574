"""Golf as an answer set program: the fixed programs models/asp-golf.lp and models/asp-symmetry.lp
(the paper's conditional symmetry breaking, on pile cards only: stock cards are stock/1, not
card/1, since a stock card's place in the order is fixed and never swaps with a pile card's), and
the deal's facts. Pile cards are numbered as Black Hole's constraint models number them (1.. by
depth, then pile), the stock's cards after them in dealing order.

Dealing is always allowed, so a win extends to an order of every pile and stock card (the stock's
undealt cards last); the decode map drops those from the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.cards import Card
from patience.errors import InputError
from patience.generators.analysis.black_hole import NO_CARD
from patience.generators.analysis.golf import GolfNumbers, win_of
from patience.generators.asp.facts import (
    SEARCH,
    SEARCH_PREFIX,
    SYMMETRY_FILE,
    atoms,
    deal_model,
    facts,
    programs,
    steps,
)
from patience.generators.files import ModelFiles
from patience.golf.deal import GolfDeal
from patience.options import Switch

PROGRAM_FILE = "asp-golf.lp"
TITLE = "answer set program and facts (clingo)"
OPTIONS = (Switch("symmetry-breaking", "on", "the paper's conditional symmetry breaking, on pile cards of one rank"),
           SEARCH)
SHOW = {"program": PROGRAM_FILE, "symmetry": SYMMETRY_FILE, "heuristic": PROGRAM_FILE.replace("asp-", SEARCH_PREFIX, 1)}


def deal_facts(deal: GolfDeal, symmetry_breaking: bool = True) -> str:
    """The facts of one deal."""
    numbers = GolfNumbers(deal)
    cards, numbering, stock = numbers.cards, numbers.piles, numbers.stock
    piles = range(1, numbering.size)
    header = (f"% {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, a stock of {len(deal.stock)}, "
              f"{deal.ranks} ranks\n% cards: " + " ".join(f"{number}={deal.name(cards[number])}"
                                                          for number in range(1, len(cards))) + "\n")
    above = [(number, numbering.above(number)) for number in piles if numbering.above(number) != NO_CARD]
    return (header + f"steps({len(cards) - 1}).\n" + facts("start_rank", [(deal.foundation.rank,)])
            + facts("card", ((number,) for number in piles)) + facts("stock", ((number,) for number in stock))
            + facts("rank", ((number, cards[number].rank) for number in range(1, len(cards))))
            + facts("above", above) + facts("dealt_after", ((number, number - 1) for number in stock[1:]))
            + facts("follows", ((base, rank) for base in range(deal.ranks) for rank in range(deal.ranks)
                                if deal.rank_follows(base, rank)))
            + ("symmetry_breaking.\n" if symmetry_breaking else ""))


def fixed_files(search: str = "paper") -> dict[str, str]:
    """The files that need no deal: the programs."""
    return programs(PROGRAM_FILE, search)


def build(deal: GolfDeal, symmetry_breaking: bool = True, search: str = "paper") -> ModelFiles:
    """The programs and the deal's facts; the decode map reads the play(C, T) atoms."""
    return deal_model(PROGRAM_FILE, search, deal_facts(deal, symmetry_breaking), symmetry_breaking,
                      lambda shown, source: decode(shown, source, deal), {"cards": len(deal.cards),
                                                                          "stock": len(deal.stock)})


def decode(shown: Sequence[object], source: str, deal: GolfDeal) -> tuple[Card, ...]:
    """The cards put on the foundation, in order up to the last pile card, from the play(C, T) atoms."""
    cards = GolfNumbers(deal).cards
    plays = steps(atoms(shown, "play", 2, source), len(cards) - 1, source)
    if sorted(number for number, _ in plays) != list(range(1, len(cards))):
        raise InputError(source, None, "the answer set does not put every card on the foundation once")
    return win_of(deal, (cards[number] for number, _ in plays))
