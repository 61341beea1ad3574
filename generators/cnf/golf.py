"""Golf as DIMACS CNF: a permutation encoding of every card, the stock's as one more pile, built with PySAT.

Dealing the stock is always allowed, so a win extends to a sequence that puts every pile card and
every stock card on the foundation: the win's moves, then the stock's undealt cards. The formula
orders those N = piles' + stock's cards over positions 1..N (position 0 is the start card), as
the paper's Black Hole CNF orders its cards, with the stock an ordered sequence like a pile whose
cards may go on anything:

- ("M", card, j): card put on the foundation at position j; exactly one card per position and one
  position per card (PySAT's CardEnc, the encoding an option);
- ("O", card, j), j = 1..N-1, the ladder: card played after position j, linked to M;
- order: a pile card after the card above it, a stock card after the stock card dealt before it;
- rank rule: a pile card at j+1 follows (the variant's `rank_follows`) the card at j, which may be a
  stock card; a stock card may follow anything (support clauses on M);
- ("E", a, b, j), the second ladder: the paper's conditional symmetry breaking (option), on pile
  cards of one rank only. It still holds with the stock interleaved: swapping a and b leaves every
  foundation rank as it was, so the variant's rule and the stock's deals see the same ranks. Black
  Hole's card-order argument says nothing about a stock card and a pile card of one rank: the stock
  card's place in the order is fixed, so they are never swapped.

Decoding drops the stock cards after the last pile card (the completion, not the win's moves).
The header holds the deal and maps every M variable to its card and position.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.formula import CNF

from patience.caps import MAX_CARDS, MAX_VALUES
from patience.cards import Card, parse_card
from patience.deal import Deal
from patience.errors import InputError
from patience.generators.analysis.black_hole import symmetric_cards
from patience.generators.analysis.golf import win_of
from patience.generators.cnf.black_hole import read_deal_header
from patience.generators.cnf.common import (
    CARDINALITY_OPTION,
    DEFAULT_CARDINALITY,
    cardinality_encoding,
    cnf_files,
    dimacs_text,
    negate,
)
from patience.generators.cnf.ladder import LadderBuilder, break_symmetry
from patience.generators.files import ModelFiles, no_fixed_files
from patience.golf.deal import GolfDeal
from patience.numeric import LARGEST, whole
from patience.options import Switch
from patience.reading import at_most, numbered_lines

HEADER_TAG = "c patience-models golf cnf"
TITLE = "DIMACS CNF (every card's position, the stock a pile of wild cards)"
OPTIONS = (
    Switch("symmetry-breaking", "on", "the conditional symmetry breaking ladder, on pile cards of one rank"),
    CARDINALITY_OPTION,
)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


@dataclass(frozen=True)
class GolfEncoding:
    """One deal's formula and the decode map of its position variables."""

    deal: GolfDeal
    cnf: CNF
    at: dict[int, tuple[Card, int]]  # variable of M -> (card, position)
    symmetry_breaking: bool
    cardinality: str

    def decode(self, true_variables: set[int]) -> tuple[Card, ...]:
        return DecodeMap(self.deal, self.at, self.cnf.nv).sequence(true_variables)


@dataclass(frozen=True)
class DecodeMap:
    """The deal and the position variables of a formula (its encoding's, or what its header says)."""

    deal: GolfDeal
    at: dict[int, tuple[Card, int]]  # variable of M -> (card, position)
    variables: int  # of the whole formula: a model naming a variable beyond it is not this formula's

    def sequence(self, true_variables: set[int]) -> tuple[Card, ...]:
        """The cards put on the foundation in order, up to the last pile card."""
        placed = sorted((position, card) for variable, (card, position) in self.at.items()
                        if variable in true_variables)
        return win_of(self.deal, [card for _, card in placed])


class _Builder(LadderBuilder):
    """The pool of one deal's M and O (and E) variables: pile cards, then the stock."""

    def __init__(self, deal: GolfDeal, cardinality: int) -> None:
        super().__init__((*deal.cards, *deal.stock))
        self.deal, self.cardinality = deal, cardinality
        self.earlier: dict[Card, Card] = {}  # card -> the card that must go before it (above it, or dealt before it)
        for pile in deal.piles:
            self.earlier.update(zip(pile[1:], pile[:-1], strict=True))
        self.earlier.update(zip(deal.stock[1:], deal.stock[:-1], strict=True))


def encode(deal: GolfDeal, symmetry_breaking: bool = True, cardinality: str = DEFAULT_CARDINALITY) -> GolfEncoding:
    """The CNF of `deal`; satisfiable iff the deal can be won."""
    build = _Builder(deal, cardinality_encoding(cardinality))
    items: tuple[Card, ...] = (*deal.cards, *deal.stock)  # the builder's items, as cards
    n = build.n
    build.permutation(build.cardinality)
    for card in items:
        earlier = build.earlier.get(card)
        if earlier is not None:
            for position in range(n):
                build.add([negate(build.after(earlier, position)), build.after(card, position + 1)])
    for card in deal.cards:
        if not deal.follows(deal.foundation, card):
            build.add([-build.at(card, 1)])
    for card in items:
        followers = [other for other in deal.cards if other != card and deal.follows(card, other)] + \
            [other for other in deal.stock if other != card]
        for position in range(1, n):
            build.add([-build.at(card, position), *(build.at(other, position + 1) for other in followers)])
    if symmetry_breaking:
        for first, second in symmetric_cards(Deal(deal.piles, deal.foundation, deal.ranks)):
            _break_symmetry(build, first, second)
    build.cnf.nv = build.pool.top
    at = {build.at(card, position): (card, position) for card in items for position in range(1, n + 1)}
    return GolfEncoding(deal, build.cnf, at, symmetry_breaking, cardinality)


def _break_symmetry(build: _Builder, first: Card, second: Card) -> None:
    """Pile cards of one rank: if `second` is played while `first` is free, `first` goes before the
    card under `second` (E[j]: `second` was played by position j while `first` was free)."""
    for position in range(1, build.n):
        build.pool.id(("E", first, second, position))
    pile, depth = build.deal.position[second]
    below = build.deal.piles[pile][depth + 1:]
    break_symmetry(build, first, second, build.earlier.get(first), below[0] if below else None)


def header(encoding: GolfEncoding) -> list[str]:
    """Comment lines: what the formula is, its size, the deal (piles top card first, the stock in
    dealing order), the variant and the decode map."""
    deal, cnf = encoding.deal, encoding.cnf
    lines = [f"{HEADER_TAG}: {deal.game} deal, {len(deal.cards)} pile cards and {len(deal.stock)} stock cards "
             f"to order, symmetry breaking {'on' if encoding.symmetry_breaking else 'off'}, "
             f"cardinality {encoding.cardinality}",
             f"c size {cnf.nv} variables {len(cnf.clauses)} clauses",
             f"c ranks {deal.ranks} queens-on-kings {int(deal.queens_on_kings)} wrap-ranks {int(deal.wrap_ranks)}",
             f"c foundation {deal.name(deal.foundation)}",
             "c stock " + " ".join(deal.name(card) for card in deal.stock)]
    lines += ["c pile " + " ".join(deal.name(card) for card in pile) for pile in deal.piles]
    lines += [f"c var {variable} card {deal.name(card)} pos {position}"
              for variable, (card, position) in encoding.at.items()]
    return lines


def read_header(text: str, source: str) -> DecodeMap:
    """The deal (its variant from the `c ranks` line's flags, its stock from `c stock`) and the decode
    map a CNF written by `gen cnf` records in its header; InputError naming the line."""
    at: dict[int, tuple[Card, int]] = {}
    stock: list[tuple[Card, ...]] = []

    def map_line(words: list[str], number: int) -> None:
        if words[1:2] == ["stock"]:
            stock.append(tuple(parse_card(word) for word in words[2:]))
        elif words[1:2] == ["var"]:
            if len(words) != 7 or words[3] != "card" or words[5] != "pos":
                raise ValueError("expected `c var N card CARD pos P`")
            at[whole(words[2], "a variable", 1, LARGEST, source, number)] = (
                parse_card(words[4]), whole(words[6], "a position", 0, MAX_CARDS, source, number))
            at_most(len(at), MAX_VALUES, "variables in the map", source, number)

    piles, variables = read_deal_header(text, source, HEADER_TAG, "gen cnf", map_line)
    flags = _variant_flags(text, source)
    if not at or len(stock) != 1 or piles.foundation is None:
        raise InputError(source, 1, "not a Golf CNF written by `gen cnf` (no stock, foundation or variable map)")
    try:
        deal = GolfDeal(piles.piles, stock[0], piles.foundation, piles.ranks, *flags)
    except ValueError as error:
        raise InputError(source, None, f"bad deal in the header: {error}") from None
    return DecodeMap(deal, at, variables)


def _variant_flags(text: str, source: str) -> tuple[bool, bool]:
    """queens-on-kings and wrap-ranks from the header's `c ranks R queens-on-kings Q wrap-ranks W` line."""
    for number, line in numbered_lines(text):
        words = line.split()
        if not line.startswith("c"):
            break
        if words[1:2] == ["ranks"]:
            if len(words) != 7 or words[3] != "queens-on-kings" or words[5] != "wrap-ranks" \
                    or words[4] not in ("0", "1") or words[6] not in ("0", "1"):
                raise InputError(source, number, "expected `c ranks R queens-on-kings 0|1 wrap-ranks 0|1`")
            return words[4] == "1", words[6] == "1"
    raise InputError(source, 1, "not a Golf CNF written by `gen cnf` (no `c ranks` line)")


def dimacs(encoding: GolfEncoding) -> str:
    return dimacs_text(header(encoding), encoding.cnf)


def formula(deal: GolfDeal, symmetry_breaking: bool = True, cardinality: str = DEFAULT_CARDINALITY) -> GolfEncoding:
    """The clauses and their decode map, for solvers that take the formula in memory."""
    return encode(deal, symmetry_breaking, cardinality)


def build(deal: GolfDeal, symmetry_breaking: bool = True, cardinality: str = DEFAULT_CARDINALITY) -> ModelFiles:
    """deal.cnf; the decode map reads a model's true position variables back into Golf moves."""
    encoding = encode(deal, symmetry_breaking, cardinality)
    return cnf_files(dimacs(encoding), encoding.cnf, encoding.decode)
