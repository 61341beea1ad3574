"""The Black Hole family as a compact CNF, the successor encoding of `gen cnf` (`--encoding successor`;
`gen successor` is its old name): each card names the card played just before it, and carries its
place in the play in binary.

The paper's CNF (generators/cnf/black_hole.py) gives every card a variable for every place, n x n
of them, and is 1.29M variables for a 415-card deal. Here a card's only candidates are the cards one
rank away (2 x suits of them), so the formula grows with n x suits x log n:

- ("X", a, b): b is played right after a (a is the foundation card, or the start in All in a Row,
  where the first card is free). Only pairs one rank apart, and never b above a in a pile nor b
  deeper than the card right under a (the cards between would have to come between).
- Every pile card has exactly one card before it, every card at most one after it.
- ("P", c, i): bit i of c's place (the start is place 0). X[a][b] -> place(b) = place(a) + 1, through
  place(a) + 1 worked out once per card (a ripple incrementer). So following the cards before a
  card always leads back to the start, places rise along the chain and no cycle can close: the X
  that are true form one chain from the start through every card, a play.
- The card above c in its pile has the lower place (a comparator per pile neighbours; the rest of a
  pile's order follows by transitivity).
- Windows: a card's place is at least its depth in the pile plus one, at most n less the cards under it.
- Parity: with an even number of ranks and a foundation card, every play alternates the parity of
  the rank, so a card's rank fixes the lowest bit of its place, a constant.

Satisfiable iff the deal can be won; a model decodes by sorting the cards by place, and every
decoded play is replayed by the validator before anyone calls it a win.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from patience.caps import MAX_CARDS
from patience.cards import Card, parse_card, ranks_adjacent
from patience.deal import Deal
from patience.errors import InputError
from patience.generators.cnf.black_hole import read_deal_header
from patience.generators.cnf.common import SUCCESSOR_OPTIONS, Literal, cnf_files, dimacs_text, negate
from patience.generators.files import ModelFiles, no_fixed_files
from patience.numeric import LARGEST, whole
from patience.reading import at_most

HEADER_TAG = "c patience-models successor cnf"
TITLE = "DIMACS CNF (the successor encoding: a card's predecessor and its place in binary)"
OPTIONS = SUCCESSOR_OPTIONS  # as `gen successor` has always taken them
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files

START = "start"  # the node before the first play: the foundation card, or nothing in All in a Row
Node = Card | str


@dataclass(frozen=True)
class Encoding:
    """One deal's successor formula and where each card's place bits are."""

    deal: Deal
    cnf: CNF
    places: dict[Card, tuple[Literal, ...]]  # bit i of the card's place, lowest first (a constant or a variable)
    edges: int  # successor variables

    def place(self, card: Card, true_variables: set[int]) -> int:
        """The card's place in the play the model describes."""
        return sum(1 << bit for bit, literal in enumerate(self.places[card])
                   if literal is True or (not isinstance(literal, bool) and literal in true_variables))

    def decode(self, true_variables: set[int]) -> tuple[Card, ...]:
        """Cards in play order from a model's true variables (the validator checks the order)."""
        return tuple(sorted(self.deal.cards, key=lambda card: self.place(card, true_variables)))


class _Builder:
    """Clauses over fresh variables, constants folded away (an emptied clause is a contradiction)."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.cnf = CNF()

    def new(self) -> int:
        return self.pool.id()

    def add(self, clause: list[Literal]) -> None:
        literals: list[int] = []
        for literal in clause:
            if literal is True:
                return
            if literal is not False:
                literals.append(literal)
        if not literals:  # every literal a false constant: the formula is unsatisfiable
            contradiction = self.new()
            self.cnf.extend([[contradiction], [-contradiction]])
            return
        self.cnf.append(literals)

    def conjunction(self, first: Literal, second: Literal) -> Literal:
        if first is False or second is False:
            return False
        if first is True:
            return second
        if second is True:
            return first
        both = self.new()
        self.cnf.extend([[-both, first], [-both, second], [both, -first, -second]])
        return both

    def exclusive_or(self, first: Literal, second: Literal) -> Literal:
        if isinstance(first, bool) and isinstance(second, bool):
            return first != second
        if isinstance(first, bool):
            return negate(second) if first else second
        if isinstance(second, bool):
            return negate(first) if second else first
        either = self.new()
        self.cnf.extend([[-either, first, second], [-either, -first, -second],
                         [either, -first, second], [either, first, -second]])
        return either

    def cardinality(self, literals: list[int], exactly: bool) -> None:
        """Exactly one (or at most one) of `literals`: pairwise up to 5, a sequential counter beyond."""
        if exactly and not literals:
            self.add([])
            return
        if exactly:
            self.cnf.append(list(literals))
        if len(literals) <= 5:
            self.cnf.extend([[-first, -second] for index, first in enumerate(literals)
                             for second in literals[index + 1:]])
        else:
            self.cnf.extend(CardEnc.atmost(literals, 1, vpool=self.pool, encoding=EncType.seqcounter).clauses)

    def less(self, low: tuple[Literal, ...], high: tuple[Literal, ...]) -> None:
        """low < high as binary numbers (lowest bit first): a comparator from the top bit down."""
        holds: Literal = True
        for bit in reversed(range(len(low))):
            lower: Literal = False if bit == 0 else self.new()
            self.add([negate(holds), negate(low[bit]), high[bit]])
            self.add([negate(holds), negate(low[bit]), lower])
            self.add([negate(holds), high[bit], lower])
            holds = lower

    def at_least(self, number: tuple[Literal, ...], bound: int) -> None:
        """number >= bound: for each set bit of the bound, that bit or a higher one differs from it."""
        for bit in range(len(number)):
            if bound >> bit & 1:
                self.add([number[bit], *(number[higher] if not bound >> higher & 1 else negate(number[higher])
                                         for higher in range(bit + 1, len(number)))])

    def at_most(self, number: tuple[Literal, ...], bound: int) -> None:
        """number <= bound: for each clear bit of the bound, that bit is clear or a higher one differs."""
        for bit in range(len(number)):
            if not bound >> bit & 1:
                self.add([negate(number[bit]), *(number[higher] if not bound >> higher & 1 else negate(number[higher])
                                                 for higher in range(bit + 1, len(number)))])


def successors(deal: Deal) -> dict[Node, list[Card]]:
    """Every node and the pile cards that may be played right after it."""
    cards = deal.cards
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    position = deal.position

    def may_follow(before: Card, after: Card) -> bool:
        pile, depth = position[before]
        other_pile, other_depth = position[after]
        return pile != other_pile or other_depth == depth + 1

    follows: dict[Node, list[Card]] = {}
    foundation = deal.foundation
    if foundation is None:
        follows[START] = list(cards)
    else:
        follows[START] = [card for card in cards if deal.adjacent(foundation, card)]
    for card in cards:
        ranks = {(card.rank - 1) % deal.ranks, (card.rank + 1) % deal.ranks}
        candidates = [other for rank in sorted(ranks) if ranks_adjacent(card.rank, rank, deal.ranks)
                      for other in by_rank.get(rank, ())]
        follows[card] = [other for other in candidates if may_follow(card, other)]
    return follows


def formula(deal: Deal, parity: bool = True, windows: bool = True) -> Encoding:
    """The successor CNF of `deal`; satisfiable iff the deal can be won."""
    build = _Builder()
    cards = deal.cards
    n = len(cards)
    width = max(1, n.bit_length())
    fixed_parity = parity and deal.foundation is not None and deal.ranks % 2 == 0
    places: dict[Node, tuple[Literal, ...]] = {START: (False,) * width}
    for card in cards:
        bits: list[Literal] = [build.new() for _ in range(width)]
        if fixed_parity:
            assert deal.foundation is not None
            bits[0] = (card.rank - deal.foundation.rank) % 2 == 1
        places[card] = tuple(bits)
    follows = successors(deal)
    edge = _successor_variables(build, deal, follows)
    for node, afters in follows.items():
        if not afters:
            continue
        successor_place = _increment(build, places[node])
        for after in afters:
            chosen = edge[node, after]
            for bit, (mine, theirs) in enumerate(zip(places[after], successor_place, strict=True)):
                if fixed_parity and bit == 0:
                    continue  # ranks one apart have opposite parities: the bit flips by itself
                build.add([-chosen, negate(mine), theirs])
                build.add([-chosen, mine, negate(theirs)])
    for pile in deal.piles:
        for depth, card in enumerate(pile):
            if depth > 0:
                build.less(places[pile[depth - 1]], places[card])
            build.at_least(places[card], depth + 1 if windows else 1)
            build.at_most(places[card], n - (len(pile) - 1 - depth) if windows else n)
    build.cnf.nv = build.pool.top
    return Encoding(deal, build.cnf, {card: places[card] for card in cards}, len(edge))


def _successor_variables(build: _Builder, deal: Deal, follows: dict[Node, list[Card]]) -> dict[tuple[Node, Card], int]:
    """A variable for each pair that may be played in a row: exactly one before each pile card, at
    most one after each card (exactly one after the start)."""
    edge = {(before, after): build.new() for before, afters in follows.items() for after in afters}
    before_of: dict[Card, list[int]] = {card: [] for card in deal.cards}
    for (_, after), variable in edge.items():
        before_of[after].append(variable)
    for card in deal.cards:
        build.cardinality(before_of[card], exactly=True)
    for node, afters in follows.items():
        build.cardinality([edge[node, after] for after in afters], exactly=node == START and bool(deal.cards))
    return edge


def _increment(build: _Builder, number: tuple[Literal, ...]) -> tuple[Literal, ...]:
    """number + 1 (the same width; the carry out of the top bit is dropped, as no place overflows)."""
    carry: Literal = True
    bits = []
    for bit in number:
        bits.append(build.exclusive_or(bit, carry))
        carry = build.conjunction(bit, carry)
    return tuple(bits)


def header(encoding: Encoding) -> list[str]:
    """Comment lines: what the formula is, its size, the deal and where each card's place bits are."""
    deal, cnf = encoding.deal, encoding.cnf

    def literal_text(literal: Literal) -> str:
        return "T" if literal is True else "F" if literal is False else str(literal)

    lines = [
        f"{HEADER_TAG}: {deal.game} deal, {len(deal.cards)} cards to play",
        f"c size {cnf.nv} variables {len(cnf.clauses)} clauses {encoding.edges} successor variables",
        f"c ranks {deal.ranks}",
        f"c foundation {'none' if deal.foundation is None else deal.name(deal.foundation)}",
    ]
    lines += ["c pile " + " ".join(deal.name(card) for card in pile) for pile in deal.piles]
    lines += [f"c place {deal.name(card)} " + " ".join(map(literal_text, bits))
              for card, bits in encoding.places.items()]
    return lines


PLACE_BITS = 32  # more bits than a place of the largest deal needs: a longer `c place` line is not ours


@dataclass(frozen=True)
class PlaceMap:
    """What a successor CNF's header says: the deal and where each card's place bits are, enough
    to read a solver's model back into cards (`patience decode model`)."""

    deal: Deal
    places: dict[Card, tuple[Literal, ...]]
    variables: int  # of the whole formula: a model naming a variable beyond it is not this formula's

    def sequence(self, true_variables: set[int]) -> tuple[Card, ...]:
        """The cards in the order of their places (the validator checks that order)."""
        return Encoding(self.deal, CNF(), self.places, 0).decode(true_variables)


def read_header(text: str, source: str) -> PlaceMap:
    """The deal and place map from a CNF written by `gen successor`; InputError naming the line."""
    places: dict[Card, tuple[Literal, ...]] = {}

    def literal(word: str, number: int) -> Literal:
        if word in ("T", "F"):
            return word == "T"
        return whole(word, "a variable", 1, LARGEST, source, number)

    def map_line(words: list[str], number: int) -> None:
        if words[1:2] != ["place"]:
            return
        if not 3 < len(words) <= 3 + PLACE_BITS:
            raise ValueError(f"expected `c place CARD BIT...` with 1 to {PLACE_BITS} bits")
        card = parse_card(words[2])
        if card in places:
            raise ValueError(f"a second place for {words[2]}")
        places[card] = tuple(literal(word, number) for word in words[3:])
        at_most(len(places), MAX_CARDS, "cards in the place map", source, number)

    deal, variables = read_deal_header(text, source, HEADER_TAG, "gen successor", map_line)
    missing = [card for card in deal.cards if card not in places]
    if missing or len(places) != len(deal.cards):
        raise InputError(source, None, "the place map does not name every card of the deal once"
                         + (f" (no place for {deal.name(missing[0])})" if missing else ""))
    return PlaceMap(deal, places, variables)


def build(deal: Deal, parity: bool = True, windows: bool = True) -> ModelFiles:
    """deal.cnf; a model decodes by the cards' place bits (the `c place` lines, lowest bit first)."""
    encoding = formula(deal, parity, windows)
    return cnf_files(dimacs_text(header(encoding), encoding.cnf), encoding.cnf, encoding.decode,
                     {"successor_variables": encoding.edges})


@dataclass(frozen=True)
class LazyEncoding:
    """The successor variables alone (one card before each card, at most one after each), and the
    cuts that `refine` adds while solving (`--solver sat-lazy`): not a formula of the deal by itself,
    so it is never written as a file."""

    deal: Deal
    cnf: CNF
    edge: dict[tuple[Node, Card], int]

    def chain(self, true_variables: set[int]) -> tuple[list[Card], dict[Node, Card]]:
        """The cards from the start on, following the chosen successors, and the successor map."""
        after = {before: card for (before, card), variable in self.edge.items() if variable in true_variables}
        cards: list[Card] = []
        node: Node = START
        while node in after and len(cards) < len(self.deal.cards):
            node = after[node]
            cards.append(node)
        return cards, after

    def decode(self, true_variables: set[int]) -> tuple[Card, ...]:
        return tuple(self.chain(true_variables)[0])

    def refine(self, true_variables: set[int]) -> list[list[int]]:
        """Clauses cutting off this model unless it is a win: for each cycle the cards off the chain
        form, some card of it follows a card outside it (true of every win, which is one chain from
        the start); for the first card on the chain played while the card above it is not, the
        chain up to it is forbidden (no win starts so)."""
        cards, after = self.chain(true_variables)
        cuts: list[list[int]] = []
        on_chain = set(cards)
        seen: set[Card] = set()
        for card in self.deal.cards:
            if card in on_chain or card in seen:
                continue
            cycle: set[Card] = set()
            node = card
            while node not in cycle:
                cycle.add(node)
                node = after[node]
            seen |= cycle
            cuts.append([variable for (before, into), variable in self.edge.items()
                         if into in cycle and before not in cycle])
        played: set[Card] = set()
        prefix: list[int] = []
        before: Node = START
        for card in cards:
            prefix.append(-self.edge[before, card])
            above = self.deal.above(card)
            if above is not None and above not in played:
                cuts.append(prefix)
                break
            played.add(card)
            before = card
        return cuts


def lazy_formula(deal: Deal) -> LazyEncoding:
    """The successor variables and their cardinality constraints, the rest left to `refine`."""
    build = _Builder()
    edge = _successor_variables(build, deal, successors(deal))
    build.cnf.nv = build.pool.top
    return LazyEncoding(deal, build.cnf, edge)
