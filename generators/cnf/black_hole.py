"""Deals as DIMACS CNF: the paper's SAT encoding, built with PySAT (`--encoding successor` gives the
successor encoding instead, generators/cnf/successor.py).

Positions 1..n hold the n pile cards (position 0 is the foundation card, or nothing in All in a
Row, where the first card is free). Variables, each made by a frozen IDPool from a meaningful key:

- ("M", card, j): card played at position j. Exactly one card per position and one position per
  card (PySAT's CardEnc, the encoding an option).
- ("O", card, j), j = 1..n-1, the ladder: card played after position j (a run of trues, then
  falses; after position 0 is always true, after position n always false). Linked to M by
  M[c][j] <-> O[c][j-1] and not O[c][j]; "c after the card a above it" is O[a][j] -> O[c][j+1].
- Rank adjacency: the card at j+1 follows the card at j on the rank cycle (support clauses).
- ("E", a, b, j), the second ladder, for the paper's conditional symmetry breaking (option):
  b played by position j after the card above a. If a is played at k while E[k-1], the card
  under b must already be gone; otherwise a and b could be swapped.

The header maps every M variable to its card and position (`c var 17 card AS pos 3`) and holds
the deal, so any solver's model decodes and validates from the CNF file alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pysat.formula import CNF

from patience.caps import MAX_CARDS, MAX_RANKS, MAX_VALUES
from patience.cards import Card, parse_card
from patience.deal import Deal
from patience.errors import InputError
from patience.generators.analysis.black_hole import symmetric_cards
from patience.generators.cnf.common import (
    CARDINALITY_OPTION,
    DEFAULT_CARDINALITY,
    SUCCESSOR_OPTIONS,
    cardinality_encoding,
    cnf_files,
    dimacs_text,
    negate,
)
from patience.generators.cnf.ladder import LadderBuilder, break_symmetry
from patience.generators.files import ModelFiles, no_fixed_files
from patience.numeric import LARGEST, whole
from patience.options import Option, Switch
from patience.reading import at_most, numbered_lines, small_int

if TYPE_CHECKING:
    from patience.generators.cnf import successor

HEADER_TAG = "c patience-models cnf"
TITLE = "DIMACS CNF (the paper's SAT encoding; --encoding successor for the compact one)"
PAPER, SUCCESSOR = "paper", "successor"  # the encodings (`--encoding`)
OPTIONS = (
    Switch("symmetry-breaking", "on", "the conditional symmetry breaking ladder (paper encoding)"),
    CARDINALITY_OPTION,
    Option("encoding", PAPER, "paper: a variable for each card and place (the paper's CNF); successor: each card "
                              "names the card played before it and carries its place in binary, far smaller "
                              "(generators/cnf/successor.py; `gen successor` is its old name)", (PAPER, SUCCESSOR)),
    *(replace(option, help=f"{option.help} (successor encoding)") for option in SUCCESSOR_OPTIONS),
)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


@dataclass(frozen=True)
class Encoding:
    """One deal's formula and the decode map of its position variables."""

    deal: Deal
    cnf: CNF
    at: dict[tuple[Card, int], int]  # (card, position) -> variable of M
    symmetry_breaking: bool
    cardinality: str

    @property
    def positions(self) -> int:
        return len(self.deal.cards)

    def decode_map(self) -> DecodeMap:
        return DecodeMap(self.deal, {variable: key for key, variable in self.at.items()}, self.cnf.nv)

    def decode(self, true_variables: set[int]) -> tuple[Card, ...]:
        """Cards in play order from a model's true variables."""
        return self.decode_map().sequence(true_variables)


class _Builder(LadderBuilder):
    """The pool of M and O variables of one deal."""

    def __init__(self, deal: Deal) -> None:
        super().__init__(deal.cards)
        self.deal = deal


def formula(deal: Deal, symmetry_breaking: bool = True, cardinality: str = DEFAULT_CARDINALITY, encoding: str = PAPER,
            parity: bool = True, windows: bool = True) -> Encoding | successor.Encoding:
    """The CNF of `deal` in the chosen encoding (the paper's, or the successor encoding's, with their own
    options); satisfiable iff the deal can be won."""
    if encoding == SUCCESSOR:
        from patience.generators.cnf import successor

        return successor.formula(deal, parity, windows)
    return paper_formula(deal, symmetry_breaking, cardinality)


def paper_formula(deal: Deal, symmetry_breaking: bool = True, cardinality: str = DEFAULT_CARDINALITY) -> Encoding:
    """The paper's CNF of `deal`; satisfiable iff the deal can be won."""
    encoding = cardinality_encoding(cardinality)
    build = _Builder(deal)
    n, cards = build.n, deal.cards
    pairs = symmetric_cards(deal) if symmetry_breaking else []
    for first, second in pairs:
        for position in range(1, n):
            build.pool.id(("E", first, second, position))
    for position in range(1, n + 1):
        build.exactly_one([build.at(card, position) for card in cards], encoding)
    for card in cards:
        build.exactly_one([build.at(card, position) for position in range(1, n + 1)], encoding)
    for card in cards:
        for position in range(1, n + 1):
            placed, before, now = build.at(card, position), build.after(card, position - 1), build.after(card, position)
            build.add([-placed, before])
            build.add([-placed, negate(now)])
            build.add([placed, negate(before), now])
            if position < n:
                build.add([negate(build.after(card, position + 1)), now])
    for card in cards:
        above = deal.above(card)
        if above is not None:
            for position in range(n):
                build.add([negate(build.after(above, position)), build.after(card, position + 1)])
    for card in cards:
        if deal.foundation is not None and not deal.adjacent(deal.foundation, card):
            build.add([-build.at(card, 1)])
        followers = [other for other in cards if other != card and deal.adjacent(card, other)]
        for position in range(1, n):
            build.add([-build.at(card, position), *(build.at(other, position + 1) for other in followers)])
    for first, second in pairs:
        break_symmetry(build, first, second, deal.above(first), deal.below(second))
    build.cnf.nv = build.pool.top
    at = {(card, position): build.at(card, position) for card in cards for position in range(1, n + 1)}
    return Encoding(deal, build.cnf, at, symmetry_breaking, cardinality)


def header(encoding: Encoding) -> list[str]:
    """Comment lines: what the formula is, its size, the deal, and the decode map."""
    deal = encoding.deal
    cnf = encoding.cnf
    lines = [
        f"{HEADER_TAG}: {deal.game} deal, {encoding.positions} cards to play, symmetry breaking "
        f"{'on' if encoding.symmetry_breaking else 'off'}, cardinality {encoding.cardinality}",
        f"c size {cnf.nv} variables {len(cnf.clauses)} clauses",
        f"c ranks {deal.ranks}",
        f"c foundation {'none' if deal.foundation is None else deal.name(deal.foundation)}",
    ]
    lines += ["c pile " + " ".join(deal.name(card) for card in pile) for pile in deal.piles]
    lines += [f"c var {variable} card {deal.name(card)} pos {position}"
              for (card, position), variable in encoding.at.items()]
    return lines


def dimacs(encoding: Encoding) -> str:
    """The whole DIMACS file: header comments, `p cnf`, clauses."""
    return dimacs_text(header(encoding), encoding.cnf)


@dataclass(frozen=True)
class DecodeMap:
    """What a CNF header says: the deal and variable -> (card, position)."""

    deal: Deal
    cards_at: dict[int, tuple[Card, int]]
    variables: int  # of the whole formula: a model naming a variable beyond it is not this formula's

    def sequence(self, true_variables: set[int]) -> tuple[Card, ...]:
        """Cards in play order from the true position variables of a model."""
        placed = sorted((position, card) for variable, (card, position) in self.cards_at.items()
                        if variable in true_variables)
        return tuple(card for _, card in placed)


def read_header(text: str, source: str) -> DecodeMap:
    """The deal and decode map from a CNF written by `gen cnf`; InputError naming the line."""
    cards_at: dict[int, tuple[Card, int]] = {}

    def map_line(words: list[str], number: int) -> None:
        if words[1:2] != ["var"]:
            return
        if len(words) != 7 or words[3] != "card" or words[5] != "pos":
            raise ValueError("expected `c var N card CARD pos P`")
        cards_at[whole(words[2], "a variable", 1, LARGEST, source, number)] = (
            parse_card(words[4]), whole(words[6], "a position", 0, MAX_CARDS, source, number))
        at_most(len(cards_at), MAX_VALUES, "variables in the map", source, number)

    deal, variables = read_deal_header(text, source, HEADER_TAG, "gen cnf", map_line)
    if not cards_at:
        raise InputError(source, 1, "not a CNF written by `gen cnf` (no variable map in its header)")
    return DecodeMap(deal, cards_at, variables)


def read_deal_header(text: str, source: str, tag: str, command: str,
                     map_line: Callable[[list[str], int], None]) -> tuple[Deal, int]:
    """The deal a CNF's header records (its `c ranks`, `c foundation` and `c pile` lines) and the
    formula's variable count (its `p cnf` line); `map_line` reads every other comment line, the
    model's own decode map. InputError naming the line, as for any file of someone else's."""
    ranks, foundation, piles = None, None, []
    seen_tag, variables = False, None
    for number, line in numbered_lines(text):
        words = line.split()
        if not line.startswith("c"):
            if words[:1] == ["p"]:
                variables = small_int(words[2]) if len(words) == 4 and words[1] == "cnf" else None
                if variables is None or variables < 0:
                    raise InputError(source, number, "expected `p cnf VARIABLES CLAUSES`")
                break
            continue
        try:
            if line.startswith(tag):
                seen_tag = True
            elif words[1:2] == ["ranks"]:
                ranks = whole(words[2], "ranks", 1, MAX_RANKS, source, number)
            elif words[1:2] == ["foundation"]:
                foundation = None if words[2] == "none" else parse_card(words[2])
            elif words[1:2] == ["pile"]:
                piles.append(tuple(parse_card(word) for word in words[2:]))
                at_most(len(piles), MAX_CARDS, "piles", source, number)
            else:
                map_line(words, number)
        except (ValueError, IndexError) as error:
            raise InputError(source, number, f"bad header line: {error}") from None
    if not seen_tag or ranks is None or not piles:
        raise InputError(source, 1, f"not a CNF written by `{command}` (no deal in its header)")
    if variables is None:
        raise InputError(source, None, "no `p cnf VARIABLES CLAUSES` line after the header")
    try:
        deal = Deal(tuple(piles), foundation, ranks)
    except ValueError as error:
        raise InputError(source, None, f"bad deal in the header: {error}") from None
    return deal, variables


def build(deal: Deal, symmetry_breaking: bool = True, cardinality: str = DEFAULT_CARDINALITY, encoding: str = PAPER,
          parity: bool = True, windows: bool = True) -> ModelFiles:
    """deal.cnf; the decode map reads a model's true variables back into cards."""
    if encoding == SUCCESSOR:
        from patience.generators.cnf import successor

        return successor.build(deal, parity, windows)
    paper = paper_formula(deal, symmetry_breaking, cardinality)
    return cnf_files(dimacs(paper), paper.cnf, paper.decode)
