"""Making deals: PySol's numbered deals of every numbered game (pysol_cards' layouts, one rule for
which generator shuffles which number) and seeded random generalised deals."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pysol_cards.cards import CardRenderer, createCards, ms_rearrange
from pysol_cards.deal_game import Game
from pysol_cards.random import LCRandom31, LCRandom64, MTRandom

from patience.binary_star import forms as binary_star_forms
from patience.cards import STANDARD_RANKS, SUIT_LETTERS, Card
from patience.deal import Deal, check_caps
from patience.errors import UsageError, quote
from patience.names import (
    ALL_IN_A_ROW,
    BINARY_STAR,
    BLACK_HOLE,
    DEFAULT_NUMBERING,
    GENERALISED,
    LBS,
    MS,
    NUMBERED_GAMES,
    PYSOL,
    PYSOLFC,
    SPECIAL_CASES,
)

if TYPE_CHECKING:
    from patience.binary_star.deal import BinaryStarDeal

PYSOL_GAMES = (BLACK_HOLE, ALL_IN_A_ROW)  # the numbered games of the Black Hole family

# How a deal number becomes a shuffle, the same rule for every game. PySolFC's `constructRandom`
# (pysollib/pysolrandom.py; old PySol's had the same test) takes the 31-bit LCG of Microsoft's
# FreeCell for `0 <= seed < 32000` and its own generator otherwise: PySolFC the Mersenne Twister,
# old PySol a 64-bit LCG. `ms` is Microsoft's LCG for every number. PySolFC's `Game.shuffle`
# (pysollib/game/__init__.py) puts a 52-card deck into FreeCell's order first exactly when the LCG
# shuffles. pysol_cards 0.24 takes the LCG up to 32000 inclusive: game 32000 is the one number
# where it and PySolFC differ, and here PySolFC decides.
MS_DEALS_END = 32000
_OWN_GENERATOR = {PYSOLFC: MTRandom, PYSOL: LCRandom64}
# The largest deal number each generator takes (pysol_cards' own bounds).
LAST_SEED = {PYSOLFC: 10 ** 20, PYSOL: 2 ** 64 - 1, MS: 2 ** 33 - 1}


def uses_lcg(seed: int, numbering: str) -> bool:
    """Whether Microsoft's LCG shuffles deal `seed` of `numbering` (the rule above)."""
    return numbering == MS or 0 <= seed < MS_DEALS_END


def shuffle_generator(seed: int, numbering: str) -> Any:
    """The generator that shuffles deal `seed` of `numbering`, seeded."""
    generator = LCRandom31() if uses_lcg(seed, numbering) else _OWN_GENERATOR[numbering]()
    generator.setSeed(seed)
    return generator


class _Dealer(Game):
    """pysol_cards' layout of a game, its cards shuffled by `shuffle_generator`."""

    def __init__(self, game: str, seed: int, numbering: str) -> None:
        super().__init__(game, seed, None, STANDARD_RANKS)
        self.numbering = numbering

    def deal(self) -> None:
        cards = createCards(self.get_num_decks(), self.max_rank)
        generator = shuffle_generator(self.game_num, self.numbering)
        if isinstance(generator, LCRandom31):
            cards = ms_rearrange(cards)  # a no-op for two decks, as in PySolFC
        cards = generator.shuffle(cards)
        cards.reverse()
        self.new_cards(cards)


def _check(game: str, seed: int, numbering: str) -> None:
    if game not in NUMBERED_GAMES:
        raise ValueError(f"unknown numbered game {quote(game)}; known: {', '.join(NUMBERED_GAMES)}")
    if numbering not in LAST_SEED:
        raise ValueError(f"unknown deal numbering {quote(numbering)}; known: {', '.join(LAST_SEED)}")
    if not 1 <= seed <= LAST_SEED[numbering]:
        raise ValueError(f"{numbering} deals are numbered 1 to {LAST_SEED[numbering]}, not {seed}")


def pysol_board(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> str:
    """The board text of deal `seed` of `game` in pysol_cards' form (`make_pysol_freecell_board.py
    -t`, and `-F` for PySolFC's numbering), byte for byte, but for game 32000 (see MS_DEALS_END)."""
    _check(game, seed, numbering)
    return _Dealer(game, seed, numbering).calc_deal_string(seed, CardRenderer(True))


# pysol_cards' suit numbers are those of its letters C, S, H, D; ranks run from 1 (ace).
_SUIT_OF_PYSOL = tuple(SUIT_LETTERS.index(letter) for letter in "CSHD")
_ACE_OF_SPADES = Card(0, SUIT_LETTERS.index("S"))

# pysol_cards' deck as numbers: card `suit * 13 + rank - 1` (its createCards), the ace of spades 13.
# A dealt card is numbered here `suit * 13 + rank` in patience's suits (CARD_NUMBERS' order).
_DECK_SIZE = 52
_PYSOL_ACE_OF_SPADES = 13
_MS_ORDER = tuple(rank + suit for rank in range(13) for suit in (0, 39, 26, 13))  # ms_rearrange
_NUMBER_OF_PYSOL = tuple(_SUIT_OF_PYSOL[card // 13] * STANDARD_RANKS + card % 13 for card in range(_DECK_SIZE))
CARD_NUMBERS = tuple(Card(number % STANDARD_RANKS, number // STANDARD_RANKS) for number in range(_DECK_SIZE))
ACE_OF_SPADES_NUMBER = CARD_NUMBERS.index(_ACE_OF_SPADES)
_LCG31_MASK = (1 << 33) - 1  # pysol_cards' LCRandom31 keeps 33 bits
_LCG64_MASK = (1 << 64) - 1
_PILES = {BLACK_HOLE: 17, ALL_IN_A_ROW: 13}


def shuffled_deck(seed: int, numbering: str) -> list[int]:
    """pysol_cards' 52 card numbers as `_Dealer.deal` leaves them for deal `seed`, without its card
    objects: put in FreeCell's order when the LCG shuffles, shuffled by `shuffle_generator`'s
    generator the way pysol_cards' RandomBase.shuffle draws (from the last place down, a place j in
    0..n for each n), then reversed. Each generator's draw is written out as pysol_cards computes
    it (pysol_cards.random); the tests hold the deals to pysol_cards' on thousands of numbers."""
    if uses_lcg(seed, numbering):
        deck = list(_MS_ORDER)
        if seed < 1 << 32:  # LCRandom31._rand, its 16th bit set for numbers from 2^31
            state, high = seed, 0x8000 if seed >= 1 << 31 else 0
            for n in range(_DECK_SIZE - 1, 0, -1):
                state = (state * 214013 + 2531011) & _LCG31_MASK
                j = ((state >> 16) & 0x7FFF | high) % (n + 1)
                deck[n], deck[j] = deck[j], deck[n]
        else:  # LCRandom31._randp + 1, from the seed less 2^32
            state = seed - (1 << 32)
            for n in range(_DECK_SIZE - 1, 0, -1):
                state = (state * 214013 + 2531011) & _LCG31_MASK
                j = (((state >> 16) & 0xFFFF) + 1) % (n + 1)
                deck[n], deck[j] = deck[j], deck[n]
    elif numbering == PYSOL:  # LCRandom64.random, drawn through RandomBase.randint
        deck = list(range(_DECK_SIZE))
        state = seed
        for n in range(_DECK_SIZE - 1, 0, -1):
            state = (state * 6364136223846793005 + 1) & _LCG64_MASK
            j = int(((state >> 21) & 0x7FFFFFFF) / 2147483648.0 * (n + 1))
            deck[n], deck[j] = deck[j], deck[n]
    else:  # MTRandom: Python's Mersenne Twister seeded with the number, through RandomBase.randint
        deck = list(range(_DECK_SIZE))
        draw = random.Random(seed).random
        for n in range(_DECK_SIZE - 1, 0, -1):
            j = int(draw() * (n + 1))
            deck[n], deck[j] = deck[j], deck[n]
    deck.reverse()
    return deck


def numbered_piles(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> list[list[int]]:
    """Black Hole's or All in a Row's deal `seed` as card numbers (CARD_NUMBERS), piles top card
    first: the deal of `pysol_deal` without a card object, for a survey's million deals (about a
    tenth of pysol_cards' time). pysol_cards' layouts: Black Hole moves the ace of spades to the
    front (the foundation) and deals the other 51 round 17 piles; All in a Row moves it to the back
    and deals all 52 round 13 piles; a card dealt later lies on top."""
    _check(game, seed, numbering)
    if game not in _PILES:
        raise ValueError(f"{quote(game)} is not dealt as piles of one deck")
    deck = shuffled_deck(seed, numbering)
    deck.remove(_PYSOL_ACE_OF_SPADES)
    if game == ALL_IN_A_ROW:
        deck.append(_PYSOL_ACE_OF_SPADES)
    numbers = [_NUMBER_OF_PYSOL[card] for card in deck]
    piles = _PILES[game]
    return [numbers[pile::piles][::-1] for pile in range(piles)]


def pysol_deal(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> Deal | BinaryStarDeal:
    """The deal (a Deal, or a BinaryStarDeal); errors name it `NUMBERING:GAME:SEED`. A Binary Star deal
    is PySolFC's: the two decks shuffled, the first deck's A♠ and K♥ moved to the bottom of the talon
    (dealt last, onto the foundations), then six rows of 17 cards from its top. Black Hole and
    All in a Row are dealt by `numbered_piles`, without pysol_cards' card objects or board text
    (a survey deals a million of them); the tests hold it to the text's deal."""
    if game == BINARY_STAR:
        return binary_star_forms.read_board(pysol_board(game, seed, numbering), f"{numbering}:{game}:{seed}")
    _check(game, seed, numbering)
    piles = tuple(tuple(CARD_NUMBERS[number] for number in pile) for pile in numbered_piles(game, seed, numbering))
    return Deal(piles, _ACE_OF_SPADES if game == BLACK_HOLE else None, STANDARD_RANKS)


def random_deal(ranks: int, suits: int, pile_height: int, seed: int, empty_foundation: bool = False) -> Deal:
    """A reproducible random generalised deal: `ranks` x `suits` cards, the rank-0 suit-0 card on
    the foundation (unless empty), the rest shuffled into piles of `pile_height` (the last may be
    shorter)."""
    if ranks < 1 or suits < 1 or pile_height < 1:
        raise ValueError("ranks, suits and pile height must be positive")
    check_caps(ranks=ranks, suits=suits, cards=ranks * suits)
    cards = [Card(rank, suit) for suit in range(suits) for rank in range(ranks)]
    foundation = None if empty_foundation else cards.pop(0)
    if not cards:
        raise ValueError("the deal needs at least one card outside the foundation")
    random.Random(seed).shuffle(cards)
    piles = tuple(tuple(cards[start:start + pile_height]) for start in range(0, len(cards), pile_height))
    return Deal(piles, foundation, ranks)


def hooked_games() -> tuple[str, ...]:
    """The games whose game deals them by number through its `numbered_deal` hook (Golf's three
    variants), generalised games aside: they have no numbers."""
    from patience.games import games_with

    return tuple(game for game in games_with("numbered_deal")
                 if game not in NUMBERED_GAMES and game not in SPECIAL_CASES)


def random_games() -> tuple[str, ...]:
    """The generalised games whose game deals them at random through its `random_deal` hook
    (golf_generalised); generalised Black Hole is dealt here."""
    from patience.games import games_with

    return tuple(game for game in games_with("random_deal") if game in SPECIAL_CASES and game != GENERALISED)


def deal_file(game: str, seed: int, numbering: str | None = None, ranks: int | None = None, suits: int = 4,
              pile_height: int = 3, empty_foundation: bool = False, cards: int = 10) -> tuple[str, str]:
    """(file name, text) of one dealt deal, as `patience deal` prints it and `patience.deal` reads it:
    game number `seed` of a numbered game (PySolFC's board text), a seeded random generalised deal
    when `ranks` is given (YAML), or a seeded random LBS row of `cards` cards (`.param`); a game that
    deals its own (Golf) by its `numbered_deal` or `random_deal` hook. A usage error for a choice that
    does not go together or a size beyond the caps."""
    from patience.formats import yaml_form
    from patience.lbs.deal import deal_text as lbs_deal_text

    if game in random_games():
        return _random_by_hook(game, seed, numbering, ranks, suits, pile_height, empty_foundation)
    numbered_games = (*NUMBERED_GAMES, *hooked_games())
    if numbering is not None and (game not in numbered_games or ranks is not None):
        what = "a random generalised deal" if ranks is not None else f"{game} deals"
        raise UsageError(f"--numbering numbers the deals of {', '.join(numbered_games)}; {what} have no numbers")
    if game == LBS:
        try:
            return lbs_deal_text(cards, seed, ranks or STANDARD_RANKS, suits)
        except ValueError as error:
            raise UsageError(str(error)) from None
    if game == GENERALISED and ranks is None:
        raise UsageError("--game generalised needs --ranks (and --suits, --pile-height)")
    if ranks is not None:
        if game not in (BLACK_HOLE, GENERALISED):
            raise UsageError(f"--ranks makes a generalised Black Hole deal; it does not go with --game {game}")
        try:
            deal = random_deal(ranks, suits, pile_height, seed, empty_foundation)
        except ValueError as error:
            raise UsageError(str(error)) from None
        return f"random-r{ranks}-s{suits}-h{pile_height}-{seed}.yaml", yaml_form.write(deal)
    numbering = numbering or DEFAULT_NUMBERING
    try:
        numbered = "" if numbering == DEFAULT_NUMBERING else f"{numbering}-"
        return f"{game}-{numbered}{seed}.txt", _board(game, seed, numbering)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _board(game: str, seed: int, numbering: str) -> str:
    """Deal `seed` of a numbered game as board text: by its game's `numbered_deal` hook where it sets
    one (Golf's), else pysol_cards' board."""
    from patience.games import get_game, hook

    own = get_game(game).numbered_deal
    return str(hook(own)(game, seed, numbering)) if own is not None else pysol_board(game, seed, numbering)


def _random_by_hook(game: str, seed: int, numbering: str | None, ranks: int | None, suits: int,
                    pile_height: int, empty_foundation: bool) -> tuple[str, str]:
    """A seeded random generalised deal of a game that deals its own (`random_deal` hook), as YAML."""
    from patience.games import get_game, hook

    if ranks is None or numbering is not None or empty_foundation:
        raise UsageError(f"--game {game} takes --ranks (and --suits, --pile-height), not --numbering "
                         "or --empty-foundation")
    chosen = get_game(game)
    try:
        deal = hook(str(chosen.random_deal))(game, seed, ranks, suits, pile_height)  # random_games() set it
    except ValueError as error:
        raise UsageError(str(error)) from None
    return f"{game}-r{ranks}-s{suits}-h{pile_height}-{seed}.yaml", chosen.write_deal(deal, "yaml")
