"""PySolFC's Golf deals by number, card for card.

PySolFC (pysollib/games/golf.py) shuffles one deck with the generator its game number picks
(pysollib/pysolrandom.py: Microsoft's FreeCell LCG below 32000, the Mersenne Twister from there
on) and deals it as pysol_cards' `golf` layout does: 35 cards round 7 piles, each later card on top,
the 36th onto the foundation and the other 16 to the stock, the first of them dealt next. The
deck is shuffled by the code that shuffles every numbered game (generators/deals.py), so Golf's
numbers follow the same numbering rule; the tests hold the deals to pysol_cards' board text and to
black-hole-solve's t/data/2.golf.board.txt.
"""

from __future__ import annotations

from patience.cards import SUIT_LETTERS, Card
from patience.errors import UsageError, quote
from patience.generators.deals import LAST_SEED, shuffled_deck
from patience.golf.deal import PILE_HEIGHT, PILES, GolfDeal
from patience.names import DEFAULT_NUMBERING, GOLF, GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS

# Each numbered game's flags (queens_on_kings, wrap_ranks): the same cards under Fish's three variants.
VARIANTS = {GOLF: (False, False), GOLF_QUEENS_ON_KINGS: (True, False), GOLF_WRAP_RANKS: (True, True)}
_PYSOL_SUITS = "CSHD"  # pysol_cards numbers card `suit * 13 + rank - 1` in this suit order
_CARD_OF_PYSOL = tuple(Card(number % 13, SUIT_LETTERS.index(_PYSOL_SUITS[number // 13])) for number in range(52))


def check_seed(seed: int, numbering: str = DEFAULT_NUMBERING) -> None:
    """A usage error for a number the numbering has no deal for."""
    if numbering not in LAST_SEED:
        raise UsageError(f"unknown deal numbering {quote(numbering)}; known: {', '.join(LAST_SEED)}")
    if not 1 <= seed <= LAST_SEED[numbering]:
        raise UsageError(f"{numbering} deals are numbered 1 to {LAST_SEED[numbering]}, not {seed}")


def golf_deal(seed: int, numbering: str = DEFAULT_NUMBERING, queens_on_kings: bool = False,
              wrap_ranks: bool = False) -> GolfDeal:
    """Golf deal `seed` as PySolFC deals it (`numbering` as for every numbered game), played by the
    variant the flags name (the cards are the same in every variant)."""
    check_seed(seed, numbering)
    deck = [_CARD_OF_PYSOL[number] for number in shuffled_deck(seed, numbering)]
    tableau = PILES * PILE_HEIGHT
    piles = tuple(tuple(deck[pile:tableau:PILES][::-1]) for pile in range(PILES))  # the last dealt on top
    return GolfDeal(piles, tuple(deck[tableau + 1:]), deck[tableau], queens_on_kings=queens_on_kings,
                    wrap_ranks=wrap_ranks)


def numbered_deal(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> GolfDeal:
    """Deal `seed` of the numbered game `game` (golf, golf_queens_on_kings or golf_wrap_ranks)."""
    if game not in VARIANTS:
        raise UsageError(f"{game} deals have no numbers; numbered: {', '.join(VARIANTS)}")
    queens_on_kings, wrap_ranks = VARIANTS[game]
    return golf_deal(seed, numbering, queens_on_kings, wrap_ranks)
