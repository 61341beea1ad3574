"""Deals as PDDL planning tasks: the paper's STRIPS encoding and a compact one-object-per-card one.

`gen pddl DEAL` prints the problem, `gen pddl --domain [DEAL]` the domain, `-o DIR` writes both.
Plans are read back as `Action`s (see runners/pddl_plan.py) and decoded here.
The object names are the decode map: `object_names(deal)` names every rank, suit and card, and
`decode_objects(deal)` reads it backwards to turn a plan into cards, for the runners and for
`patience validate DEAL PLAN` alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from patience.cards import STANDARD_RANKS, Card
from patience.deal import Deal
from patience.errors import InputError, UsageError, quote
from patience.generators.files import ModelFiles
from patience.generators.pddl.common import DOMAIN_FILE, PROBLEM_FILE, RANK_WORDS, Action
from patience.generators.texts import template
from patience.options import Option
from patience.syntax import identifier

ENCODINGS = ("paper", "compact")
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
START = "start"  # the compact encoding's cover of top cards (and hole of an empty foundation)
TITLE = "PDDL planning task (FF, Fast Downward, pyperplan)"
OPTIONS = (
    Option("encoding", "paper", "paper: ranks and suits, 12 STRIPS operators (Gent et al.); compact: one object "
                                "per card, one operator, negative preconditions", ENCODINGS),
)
SHOW = {"domain": DOMAIN_FILE}  # `gen pddl --domain` prints the domain


@dataclass(frozen=True)
class PddlModel:
    """The two files a planner reads."""

    domain: str
    problem: str


@dataclass(frozen=True)
class ObjectNames:
    """The PDDL object of every rank, suit and card of one deal: the decode map, built once."""

    ranks: tuple[str, ...]  # indexed by rank
    suits: Mapping[int, str]
    cards: Mapping[Card, str]

    def rank(self, card: Card) -> str:
        return self.ranks[card.rank]

    def suit(self, card: Card) -> str:
        return self.suits[card.suit]


def object_names(deal: Deal) -> ObjectNames:
    """Words (ace..king, spades..clubs) for a standard deck, numbered names otherwise."""
    used_suits = sorted({card.suit for card in deal.all_cards})
    standard = deal.ranks == STANDARD_RANKS and all(suit < len(SUIT_WORDS) for suit in used_suits)
    ranks = RANK_WORDS if standard else tuple(f"rank{rank}" for rank in range(deal.ranks))
    suits = {suit: SUIT_WORDS[suit] if standard else f"suit{suit}" for suit in used_suits}
    return ObjectNames(ranks, suits, {card: "card-" + deal.name(card).lower() for card in deal.all_cards})


def decode_objects(deal: Deal) -> tuple[dict[str, int], dict[str, int], dict[str, Card]]:
    """(rank object -> rank, suit object -> suit, card object -> card), lower case, for plan reading.
    Numbered rank and suit names are always accepted too, so a plan decodes whichever naming wrote it."""
    names = object_names(deal)
    ranks = {f"rank{rank}": rank for rank in range(deal.ranks)} | {name: rank for rank, name in enumerate(names.ranks)}
    suits = {f"suit{suit}": suit for suit in names.suits} | {name: suit for suit, name in names.suits.items()}
    return ranks, suits, {name: card for card, name in names.cards.items()}


def _title(deal: Deal, encoding: str) -> str:
    return (f"{deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, {deal.ranks} ranks, "
            f"{'empty foundation' if deal.foundation is None else 'foundation ' + deal.name(deal.foundation)}; "
            f"{encoding} encoding")


def _paper_problem(deal: Deal, name: str) -> str:
    names = object_names(deal)
    rank, suit = names.rank, names.suit
    unders: list[tuple[str, ...]] = []  # (predicate, its arguments...)
    for card in deal.cards:
        above = deal.above(card)
        if above is None:
            continue
        if above.suit == card.suit:
            unders.append(("underSameSuit", rank(card), suit(card), rank(above)))
        elif above.rank == card.rank:
            unders.append(("underSameRank", rank(card), suit(card), suit(above)))
        else:
            unders.append(("under", rank(card), suit(card), rank(above), suit(above)))
    cycle = [] if deal.ranks < 2 else [(low, (low + 1) % deal.ranks) for low in range(deal.ranks)]
    return template("pddl_paper_problem.j2").render(
        title=_title(deal, "paper"), name=name,
        ranks=names.ranks, suits=list(names.suits.values()),
        hole=None if deal.foundation is None else rank(deal.foundation),
        plusone=[(names.ranks[low], names.ranks[high]) for low, high in cycle],
        tops=[(rank(pile[0]), suit(pile[0])) for pile in deal.piles],
        unders=unders,
        cards=[(rank(card), suit(card)) for card in deal.cards],
        bottoms=[(rank(pile[-1]), suit(pile[-1])) for pile in deal.piles])


def _compact_problem(deal: Deal, name: str) -> str:
    card = object_names(deal).cards.__getitem__
    holes = [deal.foundation] if deal.foundation is not None else []
    adjacent = [(card(first), card(second)) for first in holes + list(deal.cards) for second in deal.cards
                if deal.adjacent(first, second)]
    if deal.foundation is None:
        adjacent = [(START, card(second)) for second in deal.cards] + adjacent
    covers = [(START if (above := deal.above(value)) is None else card(above), card(value)) for value in deal.cards]
    return template("pddl_compact_problem.j2").render(
        title=_title(deal, "compact"), name=name,
        objects=[START] + [card(value) for value in deal.all_cards],
        hole=START if deal.foundation is None else card(deal.foundation),
        covers=covers, adjacent=adjacent,
        bottoms=[card(pile[-1]) for pile in deal.piles])


def check_encoding(encoding: str) -> str:
    if encoding not in ENCODINGS:
        raise UsageError(f"encoding must be one of {', '.join(ENCODINGS)}, not {quote(encoding)}")
    return encoding


def domain(encoding: str = "paper", first_free: bool = False) -> str:
    """The domain; `first_free` adds the paper encoding's free first move (empty foundation)."""
    name = f"pddl_{check_encoding(encoding)}_domain.j2"
    return template(name).render(first_free=first_free)


def problem(deal: Deal, encoding: str = "paper", name: str = "deal") -> str:
    check_encoding(encoding)
    name = identifier("pddl", name)
    return _paper_problem(deal, name) if encoding == "paper" else _compact_problem(deal, name)


def model(deal: Deal, encoding: str = "paper", name: str = "deal") -> PddlModel:
    """Domain and problem of one deal."""
    return PddlModel(domain(encoding, deal.foundation is None), problem(deal, encoding, name))


def plan_cards(deal: Deal, plan: Sequence[Action], source: str = "plan") -> tuple[Card, ...]:
    """The cards a plan plays, in order: paper operators name (rank suit ...), compact ones (card ...)."""
    ranks, suits, cards = decode_objects(deal)
    sequence = []
    for action in plan:
        if not action.operator.startswith("play"):
            raise InputError(source, action.line, f"unknown operator {quote(action.operator)}")
        if action.operator == "play":
            if not action.arguments or action.arguments[0] not in cards:
                raise InputError(source, action.line,
                                 f"no card object of this deal in {quote(' '.join(action.arguments))}")
            sequence.append(cards[action.arguments[0]])
            continue
        if len(action.arguments) < 2 or action.arguments[0] not in ranks or action.arguments[1] not in suits:
            raise InputError(source, action.line, f"no (rank suit) of this deal in {quote(' '.join(action.arguments))}")
        sequence.append(Card(ranks[action.arguments[0]], suits[action.arguments[1]]))
    return tuple(sequence)


def fixed_files(encoding: str = "paper") -> dict[str, str]:
    """The files that need no deal: the Black Hole domain."""
    return {DOMAIN_FILE: domain(encoding)}


def build(deal: Deal, encoding: str = "paper") -> ModelFiles:
    """domain.pddl and problem.pddl; the decode map reads a plan's actions back into cards."""
    task = model(deal, encoding)
    return ModelFiles({DOMAIN_FILE: task.domain, PROBLEM_FILE: task.problem}, PROBLEM_FILE,
                      lambda plan, source="plan": plan_cards(deal, plan, source), {"encoding": encoding})
