"""Worm Hole as DIMACS CNF: the paper's Black Hole permutation encoding with a leaving ladder for the
cells, built with PySAT.

A win plays the n pile cards at positions 1..n (position 0 is the foundation card, or nothing); a
card parked in a cell leaves its pile earlier than it is played. Parks happen in the gaps between
plays: gap j is just before play j, and parks in one gap go top card first. Variables, each made by
a frozen IDPool from a meaningful key:

- ("M", card, j) and the ladder ("O", card, j): card played at position j, played after j (as the
  Black Hole CNF; exactly one card per position and one position per card);
- ("P", card, j), j = 1..n, the leaving ladder: the card has left its pile before play j (parked
  in a gap up to j, or played before j); monotone in j, and true once the card is played;
- ("C", card, j): the card is in a cell during gap j (left its pile, not played before j); at
  most `cells` of them per gap (PySAT's CardEnc; no constraint when the cells outnumber the cards).

Pile order: a card leaves its pile (is parked, or played from it) only after the card above it
left: P[d][j] -> P[c][j] and M[d][j] -> P[c][j] for d under c. Rank adjacency is Black Hole's.
With no cells, P is "played before j" and the formula is Black Hole's.

Symmetry breaking: a card is never parked in the gap of its own play (parked in gap j and played at
j is the same as playing it at j from its pile, with the cards parked after it in that gap moved
to the next gap; the cells hold no more at any gap). The cells are interchangeable and the model
never names one, so there is no cell symmetry to break. The paper's card-order symmetry is not
used: whether a card is free depends on parks as well as plays here.

The header holds the deal and maps every M and P variable to its card and position.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.card import CardEnc
from pysat.formula import CNF

from patience.caps import MAX_CARDS, MAX_VALUES
from patience.cards import Card, parse_card
from patience.errors import InputError
from patience.generators.cnf.black_hole import read_deal_header
from patience.generators.cnf.common import (
    CARDINALITY_OPTION,
    DEFAULT_CARDINALITY,
    Literal,
    cardinality_encoding,
    cnf_files,
    dimacs_text,
    negate,
)
from patience.generators.cnf.ladder import LadderBuilder
from patience.generators.files import ModelFiles, no_fixed_files
from patience.numeric import LARGEST, whole
from patience.reading import at_most
from patience.worm_hole.deal import MAX_CELLS, WormHoleDeal
from patience.worm_hole.moves import Move

HEADER_TAG = "c patience-models worm-hole cnf"
TITLE = "DIMACS CNF (the paper's Black Hole encoding with a leaving ladder for the cells)"
OPTIONS = (CARDINALITY_OPTION,)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


@dataclass(frozen=True)
class WormHoleEncoding:
    """One deal's formula and the decode maps of its position and leaving variables."""

    deal: WormHoleDeal
    cnf: CNF
    at: dict[int, tuple[Card, int]]  # variable of M -> (card, position)
    gone: dict[int, tuple[Card, int]]  # variable of P -> (card, position): left its pile before that play
    cardinality: str

    def decode(self, true_variables: set[int], source: str = "SAT model") -> tuple[Move, ...]:
        return DecodeMap(self.deal, self.at, self.gone, self.cnf.nv).sequence(true_variables, source)


@dataclass(frozen=True)
class DecodeMap:
    """The deal and the decode maps of a formula (its encoding's, or what its header says)."""

    deal: WormHoleDeal
    at: dict[int, tuple[Card, int]]  # variable of M -> (card, position)
    gone: dict[int, tuple[Card, int]]  # variable of P -> (card, position)
    variables: int  # of the whole formula: a model naming a variable beyond it is not this formula's

    def sequence(self, true_variables: set[int], source: str = "SAT model") -> tuple[Move, ...]:
        """The moves of a model: before play j, the cards first gone in gap j and not played at j
        are parked (top card first), then the card at j is played."""
        played: dict[int, Card] = {}
        for variable in sorted(true_variables & self.at.keys()):
            card, position = self.at[variable]
            if played.setdefault(position, card) != card:
                raise InputError(source, None, f"two cards at position {position}")
        position_of = {card: position for position, card in played.items()}
        first_gone: dict[Card, int] = {}
        for variable in true_variables & self.gone.keys():
            card, position = self.gone[variable]
            first_gone[card] = min(position, first_gone.get(card, position))
        parks: dict[int, list[Card]] = {}
        for card, gap in first_gone.items():
            if gap < position_of.get(card, len(self.deal.cards) + 1):
                parks.setdefault(gap, []).append(card)
        moves = []
        for position in range(1, len(self.deal.cards) + 1):
            moves += [Move.parked(card) for card in sorted(parks.get(position, ()), key=self._depth)]
            if position not in played:
                break
            moves.append(Move.play(played[position]))
        return tuple(moves)

    def _depth(self, card: Card) -> tuple[int, int]:
        pile, depth = self.deal.position[card]
        return depth, pile


class _Builder(LadderBuilder):
    """The pool of one deal's M, O, P and C variables."""

    def __init__(self, deal: WormHoleDeal) -> None:
        super().__init__(deal.cards, ("P", "C") if deal.cells > 0 else ())
        self.deal = deal
        self.parking = deal.cells > 0

    def gone(self, card: Card, position: int) -> Literal:
        """Leaving literal: `card` has left its pile before play `position` (with no cells: played before it)."""
        if not self.parking:
            return negate(self.after(card, position - 1))
        return True if position > self.n else self.var("P", card, position)


def encode(deal: WormHoleDeal, cardinality: str = DEFAULT_CARDINALITY) -> WormHoleEncoding:
    """The CNF of `deal`; satisfiable iff the deal can be won."""
    build = _Builder(deal)
    encoding, n, cards = cardinality_encoding(cardinality), build.n, deal.cards
    build.permutation(encoding)
    for card in cards:
        above = build.deal.black_hole.above(card)
        if above is not None:
            for position in range(1, n + 1):
                build.add([negate(build.gone(card, position)), build.gone(above, position)])
                build.add([-build.at(card, position), build.gone(above, position)])
    for card in cards:
        if deal.foundation is not None and not deal.adjacent(deal.foundation, card):
            build.add([-build.at(card, 1)])
        followers = [other for other in cards if other != card and deal.adjacent(card, other)]
        for position in range(1, n):
            build.add([-build.at(card, position), *(build.at(other, position + 1) for other in followers)])
    if build.parking:
        _cells(build, encoding)
    build.cnf.nv = build.pool.top
    at = {build.at(card, position): (card, position) for card in cards for position in range(1, n + 1)}
    gone = {build.var("P", card, position): (card, position)
            for card in cards for position in range(1, n + 1)} if build.parking else {}
    return WormHoleEncoding(deal, build.cnf, at, gone, cardinality)


def _cells(build: _Builder, encoding: int) -> None:
    """The leaving ladder's links to the plays, the rule against parking in the gap of one's own play,
    and the cells' capacity in every gap."""
    deal, n = build.deal, build.n
    for card in deal.cards:
        for position in range(1, n + 1):
            gone, before = build.gone(card, position), build.gone(card, position - 1) if position > 1 else False
            build.add([negate(gone), build.gone(card, position + 1)])
            build.add([build.after(card, position - 1), gone])
            build.add([-build.at(card, position), negate(gone), before])
            build.add([negate(gone), negate(build.after(card, position - 1)), build.var("C", card, position)])
    if deal.cells < len(deal.cards):
        for position in range(1, n + 1):
            build.cnf.extend(CardEnc.atmost([build.var("C", card, position) for card in deal.cards], deal.cells,
                                            vpool=build.pool, encoding=encoding).clauses)


def header(encoding: WormHoleEncoding) -> list[str]:
    """Comment lines: what the formula is, its size, the deal, the cells and the decode maps."""
    deal, cnf = encoding.deal, encoding.cnf
    lines = [f"{HEADER_TAG}: {deal.game} deal, {len(deal.cards)} cards to play, {deal.cells} cells, "
             f"cardinality {encoding.cardinality}",
             f"c size {cnf.nv} variables {len(cnf.clauses)} clauses",
             f"c ranks {deal.ranks}",
             f"c cells {deal.cells}",
             f"c foundation {'none' if deal.foundation is None else deal.name(deal.foundation)}"]
    lines += ["c pile " + " ".join(deal.name(card) for card in pile) for pile in deal.piles]
    lines += [f"c var {variable} card {deal.name(card)} pos {position}"
              for variable, (card, position) in encoding.at.items()]
    lines += [f"c gone {variable} card {deal.name(card)} before {position}"
              for variable, (card, position) in encoding.gone.items()]
    return lines


def read_header(text: str, source: str) -> DecodeMap:
    """The deal and the decode maps a CNF written by `gen cnf` records in its header (`c cells`, the
    `c var` and `c gone` lines); InputError naming the line."""
    at: dict[int, tuple[Card, int]] = {}
    gone: dict[int, tuple[Card, int]] = {}
    cells: list[int] = []

    def map_line(words: list[str], number: int) -> None:
        if words[1:2] == ["cells"]:
            cells.append(whole(words[2], "cells", 0, MAX_CELLS, source, number))
        elif words[1:2] in (["var"], ["gone"]):
            kind = words[1]
            if len(words) != 7 or words[3] != "card" or words[5] != ("pos" if kind == "var" else "before"):
                raise ValueError(f"expected `c {kind} N card CARD {'pos' if kind == 'var' else 'before'} P`")
            (at if kind == "var" else gone)[whole(words[2], "a variable", 1, LARGEST, source, number)] = (
                parse_card(words[4]), whole(words[6], "a position", 0, MAX_CARDS, source, number))
            at_most(len(at) + len(gone), MAX_VALUES, "variables in the map", source, number)

    black_hole, variables = read_deal_header(text, source, HEADER_TAG, "gen cnf", map_line)
    if not at or len(cells) != 1:
        raise InputError(source, 1, "not a Worm Hole CNF written by `gen cnf` (no cells line or variable map)")
    try:
        deal = WormHoleDeal(black_hole, cells[0])
    except ValueError as error:
        raise InputError(source, None, f"bad deal in the header: {error}") from None
    return DecodeMap(deal, at, gone, variables)


def dimacs(encoding: WormHoleEncoding) -> str:
    return dimacs_text(header(encoding), encoding.cnf)


def formula(deal: WormHoleDeal, cardinality: str = DEFAULT_CARDINALITY) -> WormHoleEncoding:
    """The clauses and their decode map, for solvers that take the formula in memory."""
    return encode(deal, cardinality)


def build(deal: WormHoleDeal, cardinality: str = DEFAULT_CARDINALITY) -> ModelFiles:
    """deal.cnf; the decode map reads a model's plays and leavings back into Worm Hole moves."""
    encoding = encode(deal, cardinality)
    return cnf_files(dimacs(encoding), encoding.cnf, encoding.decode)
