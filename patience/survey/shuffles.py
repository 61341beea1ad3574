"""Wolter's shuffle experiments: decks riffled n times (Gilbert-Shannon-Reeds) and cut once,
dealt by rows or by columns, from a sorted deck or from the cards the previous game left.

A deck is a list of cards, TOP card first (the first card dealt).
- Sorted deck: A-K of spades, hearts, diamonds, clubs, the ace of spades on top.
- Gathered deck: the cards as the previous game left them, picked up foundation first: the
  foundation pile in the order its cards went there (the start card first), then the piles still
  on the table, first pile to last, each from its top card down. The previous game's play is the
  one the search reports: its win, or (for a lost game) its longest play. A won game thus hands on its winning
  sequence, a run of rank-adjacent cards that a few shuffles do not break up.
- Riffle (GSR): cut after k ~ Binomial(52, 1/2) cards, then drop cards from the two packets, each
  time from a packet with chance proportional to its size.
- Cut: one more cut after k ~ Binomial(52, 1/2) cards, the bottom part going on top.
- Dealing: Black Hole puts the ace of spades on the foundation and deals the other 51 into 17 piles
  of 3, All in a Row deals 52 into 13 piles of 4; by rows one card to each pile in turn, by columns
  a whole pile at a time; a card dealt later lies on top of those dealt before it.
Each batch is one chain of games with its own seeded generator (the first gathered game of a
chain starts from a sorted deck), so a batch replays exactly from its seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from patience.cards import Card
from patience.deal import ALL_IN_A_ROW, BLACK_HOLE, Deal
from patience.result import Status
from patience.survey.decide import decide
from patience.survey.store import UNDECIDED

DECKS = ("gathered", "sorted")
DEALINGS = ("rows", "columns")
SHAPES = {BLACK_HOLE: (17, 3), ALL_IN_A_ROW: (13, 4)}  # piles, cards per pile
START = Card(0, 0)  # the ace of spades, Black Hole's foundation


def sorted_deck() -> list[Card]:
    return [Card(rank, suit) for suit in range(4) for rank in range(13)]


def riffle(deck: Sequence[Card], rng: random.Random) -> list[Card]:
    """One Gilbert-Shannon-Reeds riffle shuffle."""
    cut = sum(rng.getrandbits(1) for _ in deck)
    left, right = list(deck[:cut]), list(deck[cut:])
    shuffled: list[Card] = []
    i = j = 0
    while i < len(left) or j < len(right):
        if rng.random() * (len(left) - i + len(right) - j) < len(left) - i:
            shuffled.append(left[i])
            i += 1
        else:
            shuffled.append(right[j])
            j += 1
    return shuffled


def cut(deck: Sequence[Card], rng: random.Random) -> list[Card]:
    point = sum(rng.getrandbits(1) for _ in deck)
    return [*deck[point:], *deck[:point]]


def shuffle(deck: Sequence[Card], riffles: int, rng: random.Random) -> list[Card]:
    for _ in range(riffles):
        deck = riffle(deck, rng)
    return cut(deck, rng)


def deal(game: str, deck: Sequence[Card], dealing: str) -> Deal:
    piles, height = SHAPES[game]
    cards = [card for card in deck if card != START] if game == BLACK_HOLE else list(deck)
    if dealing == "rows":
        dealt = [cards[pile::piles] for pile in range(piles)]
    else:
        dealt = [cards[pile * height:(pile + 1) * height] for pile in range(piles)]
    return Deal(tuple(tuple(reversed(pile)) for pile in dealt), START if game == BLACK_HOLE else None)


def gather(deal_played: Deal, play: Sequence[Card]) -> list[Card]:
    """The deck the table leaves after `play`: foundation pile first, then the piles' remaining cards."""
    played = set(play)
    foundation = [] if deal_played.foundation is None else [deal_played.foundation]
    remaining = [card for pile in deal_played.piles for card in pile if card not in played]
    return [*foundation, *play, *remaining]


@dataclass(frozen=True)
class ShuffleBatch:
    """One chain of `games` games of one experiment point, batch number `batch`."""

    game: str
    deck: str
    dealing: str
    riffles: int
    batch: int
    games: int
    seed: int
    seconds: float

    def rng(self) -> random.Random:
        return random.Random(f"{self.seed}/{self.game}/{self.deck}/{self.dealing}/{self.riffles}/{self.batch}")


@dataclass(frozen=True)
class BatchResult:
    batch: ShuffleBatch
    won: int
    undecided: int
    seconds: float


def play_batch(batch: ShuffleBatch) -> BatchResult:
    """Deal and decide the chain's games; the one place that calls the search per deal. Games are
    decided in the (faster) decision mode; a lost game of a gathered chain is searched again in
    max-cards mode for the longest play, which leaves the table the next deck is gathered from."""
    rng, deck = batch.rng(), sorted_deck()
    won = undecided = 0
    started = time.perf_counter()
    for _ in range(batch.games):
        if batch.deck == "sorted":
            deck = sorted_deck()
        table = deal(batch.game, shuffle(deck, batch.riffles, rng), batch.dealing)
        verdict, _, _, play = decide(table, batch.seconds, max_cards=False)
        won += verdict is Status.SOLVED
        undecided += verdict is UNDECIDED
        if batch.deck == "gathered":
            if verdict is not Status.SOLVED:
                play = decide(table, batch.seconds)[3]
            deck = gather(table, play)
    return BatchResult(batch, won, undecided, time.perf_counter() - started)
