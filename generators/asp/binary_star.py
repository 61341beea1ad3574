"""Binary Star deals as an answer set program: the fixed programs models/asp-binary-star.lp and
models/asp-symmetry.lp, and the deal's facts (positions numbered as the constraint models number
them, `binary_star_eprime.Positions`, plus one: ASP's positions are 1..S)."""

from __future__ import annotations

from collections.abc import Sequence

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.errors import InputError
from patience.generators.analysis.binary_star import NO_POSITION, Positions
from patience.generators.asp.facts import (
    SEARCH,
    SEARCH_PREFIX,
    SYMMETRY_FILE,
    atoms,
    deal_model,
    facts,
    pile_facts,
    programs,
    steps,
)
from patience.generators.files import ModelFiles
from patience.options import Switch

PROGRAM_FILE = "asp-binary-star.lp"
TITLE = "answer set program and facts (clingo)"
OPTIONS = (Switch("symmetry-breaking", "on", "post the symmetry breaking (equal foundation tops and the "
                                             "paper's conditional one on same-rank cards)"), SEARCH)
SHOW = {"program": PROGRAM_FILE, "symmetry": SYMMETRY_FILE, "heuristic": PROGRAM_FILE.replace("asp-", SEARCH_PREFIX, 1)}


def deal_facts(deal: BinaryStarDeal, symmetry_breaking: bool = True) -> str:
    """The facts of one deal (position p of `Positions` is p + 1 here)."""
    positions = Positions(deal)
    header = (f"% {deal.game} deal: {positions.size} pile cards in {len(deal.piles)} piles, {deal.ranks} ranks\n"
              "% positions: " + " ".join(f"{number + 1}={deal.name(deal.piles[pile][depth])}@{pile + 1}"
                                         for number, (pile, depth) in enumerate(positions.cells)) + "\n")
    return (header + f"steps({positions.size}).\n"
            + facts("foundation", ((foundation,) for foundation in range(positions.foundations)))
            + facts("start", enumerate(positions.start_ranks))
            + pile_facts(range(1, positions.size + 1), lambda number: positions.rank(number - 1),
                         lambda number: None if positions.above(number - 1) == NO_POSITION
                         else positions.above(number - 1) + 1, deal.ranks, symmetry_breaking))


def fixed_files(search: str = "paper") -> dict[str, str]:
    """The files that need no deal: the programs."""
    return programs(PROGRAM_FILE, search)


def build(deal: BinaryStarDeal, symmetry_breaking: bool = True, search: str = "paper") -> ModelFiles:
    """The programs and the deal's facts; the decode map reads the play(P, F, T) atoms."""
    positions = Positions(deal)
    return deal_model(PROGRAM_FILE, search, deal_facts(deal, symmetry_breaking), symmetry_breaking,
                      lambda shown, source: decode(shown, source, positions),
                      {"positions": len(deal.cards), "foundations": len(deal.foundations)})


def decode(shown: Sequence[object], source: str, positions: Positions) -> tuple[Play, ...]:
    """Plays in order from one answer set's play(P, F, T) atoms."""
    plays = steps(atoms(shown, "play", 3, source), positions.size, source)
    if any(position < 1 for position, _, _ in plays):
        raise InputError(source, None, "a position below 1 in the answer set")
    return positions.decode([position - 1 for position, _, _ in plays], [foundation for _, foundation, _ in plays],
                            source, None)
