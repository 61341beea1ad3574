"""Golf deal forms: black-hole-solve's board text and YAML.

Board text, as black-hole-solve reads `--game golf` boards (its t/data/2.golf.board.txt):

    Talon: 3S TS 9H ...     # the stock in dealing order (the first card is dealt first)
    Foundations: 2S         # the start card
    QD 5C 2D 4S 6S          # one pile a line, BOTTOM card first (6S can be played)

black-hole-solve also takes the `Talon:` line after the `Foundations:` line; both are read, the
Talon line is written first. black-hole-solve takes the variant as a flag (`--queens-on-kings`,
`--wrap-ranks`); a deal of those variants ends with the flag's line, `Variant: wrap-ranks`, which
black-hole-solve never reads (it stops after its 7 piles). Board text holds only a standard deck's
cards: a deal of other ranks or suits is written as YAML:

    ranks: 13
    foundation: 2S
    stock: [3S, TS, 9H]     # dealing order
    queens_on_kings: false
    wrap_ranks: false
    piles:                  # each pile TOP card first
      - [6S, 4S, 2D, 5C, QD]
"""

from __future__ import annotations

import re

from patience.caps import MAX_CARDS, MAX_PILES, MAX_RANKS
from patience.cards import STANDARD_RANKS, Card, parse_card
from patience.errors import InputError, quote
from patience.formats.yaml_form import card_in_deal, read_piles
from patience.golf.deal import STANDARD_SUITS, GolfDeal
from patience.reading import at_most, compose_yaml, construct_yaml, numbered_lines, yaml_child, yaml_items, yaml_line

TALON, FOUNDATIONS, VARIANT = "Talon:", "Foundations:", "Variant:"
VARIANT_FLAGS = {"queens-on-kings": (True, False), "wrap-ranks": (True, True)}  # -> (queens_on_kings, wrap_ranks)
FORMS = ("board", "yaml")
_WORD = re.compile(r"\S+")
_YAML_STOCK = re.compile(r"^stock[ \t]*:", re.MULTILINE)
_FLAGS = ("queens_on_kings", "wrap_ranks")
_YAML_KEYS = frozenset(("game", "ranks", "foundation", "stock", "piles", "meta", *_FLAGS))


_SAYS_VARIANT = re.compile(r"^[ \t]*(?:Variant:|queens_on_kings[ \t]*:|wrap_ranks[ \t]*:)", re.MULTILINE)


def says_variant(text: str) -> bool:
    """Whether a deal's text names its variant (a `Variant:` line, a YAML flag), as black-hole-solve's
    board text never does."""
    return _SAYS_VARIANT.search(text) is not None


def detect(text: str) -> bool:
    """Board text with a `Talon:` line first or right after the `Foundations:` line (Black Hole's
    board text has none), or YAML with a `stock:` key."""
    heads = []
    for _, line in numbered_lines(text):
        if line.strip():
            heads.append(line.lstrip())
            if len(heads) == 2:
                break
    if heads and heads[0].startswith(TALON):
        return True
    if len(heads) == 2 and heads[0].startswith(FOUNDATIONS) and heads[1].startswith(TALON):
        return True
    return _YAML_STOCK.search(text) is not None


def read(text: str, source: str) -> GolfDeal:
    stripped = text.lstrip()
    if stripped.startswith((TALON, FOUNDATIONS)):
        return read_board(text, source)
    return read_yaml(text, source)


def write(deal: GolfDeal, form: str) -> str:
    if form == "board":
        return write_board(deal)
    if form == "yaml":
        return write_yaml(deal)
    raise ValueError(f"a Golf deal is written as {' or '.join(FORMS)}, not {form}")


def read_board(text: str, source: str) -> GolfDeal:
    """The board form: a `Talon:` and a `Foundations:` line (either first), then the piles, each
    counted against the caps as it is read; a card given twice is named at its second line."""
    numbered = ((number, line.strip()) for number, line in numbered_lines(text) if line.strip())
    seen: dict[Card, int] = {}
    stock: tuple[Card, ...] | None = None
    foundation: Card | None = None
    first_number = 1
    for _ in range(2):
        number, line = next(numbered, (first_number, ""))
        first_number = number
        if line.startswith(TALON) and stock is None:
            at_most(_count_words(line) - 1, MAX_CARDS, "cards", source, number)
            stock = tuple(_card(word, source, number, seen) for word in line[len(TALON):].split())
        elif line.startswith(FOUNDATIONS) and foundation is None:
            words = line[len(FOUNDATIONS):].split()
            if len(words) != 1 or words[0] == "-":
                raise InputError(source, number, "expected one start card: 'Foundations: 2S'")
            foundation = _card(words[0], source, number, seen)
        else:
            wanted = FOUNDATIONS if foundation is None else TALON
            raise InputError(source, number, f"expected a '{wanted}' line, not {quote(line)}")
    assert stock is not None and foundation is not None
    piles: list[tuple[Card, ...]] = []
    cards = len(seen)
    flags = (False, False)
    variant_line = None
    for number, line in numbered:
        if variant_line is not None:
            raise InputError(source, number, f"the '{VARIANT}' line must be the last")
        if line.startswith(VARIANT):
            variant_line, flags = number, _variant(line, source, number)
            continue
        at_most(cards + _count_words(line), MAX_CARDS, "cards", source, number)
        piles.append(tuple(reversed([_card(word, source, number, seen) for word in line.split()])))
        cards += len(piles[-1])
        at_most(len(piles), MAX_PILES, "piles", source, number)
    if not piles:
        raise InputError(source, first_number, "no piles after the Talon and Foundations lines")
    return _deal(source, first_number, piles, stock, foundation, STANDARD_RANKS, *flags)


def _variant(line: str, source: str, number: int) -> tuple[bool, bool]:
    word = line[len(VARIANT):].strip()
    if word not in VARIANT_FLAGS:
        raise InputError(source, number, f"unknown variant {quote(word)}; known: {', '.join(VARIANT_FLAGS)}")
    return VARIANT_FLAGS[word]


def write_board(deal: GolfDeal) -> str:
    """The board text black-hole-solve reads; a variant's line after the piles, which it skips."""
    if deal.ranks != STANDARD_RANKS or deal.suits > STANDARD_SUITS:
        raise ValueError("board text holds only 13-rank, 4-suit cards: use --to yaml")
    lines = [" ".join([TALON, *map(deal.name, deal.stock)]), f"{FOUNDATIONS} {deal.name(deal.foundation)}"]
    lines += [" ".join(deal.name(card) for card in reversed(pile)) for pile in deal.piles]
    lines += [f"{VARIANT} {flag}" for flag, flags in VARIANT_FLAGS.items()
              if flags == (deal.queens_on_kings, deal.wrap_ranks)]
    return "\n".join(lines) + "\n"


def read_yaml(text: str, source: str) -> GolfDeal:
    root = compose_yaml(text, source)
    document = construct_yaml(root, source)
    if not isinstance(document, dict) or "stock" not in document or "piles" not in document:
        raise InputError(source, 1, "a YAML Golf deal needs 'foundation', 'stock' and 'piles'")
    unknown = sorted(str(key) for key in document if key not in _YAML_KEYS)
    if unknown:
        raise InputError(source, yaml_line(yaml_child(root, unknown[0])) or 1,
                         f"unknown key {quote(unknown[0])}; a Golf deal has {', '.join(sorted(_YAML_KEYS))}")
    ranks = document.get("ranks", STANDARD_RANKS)
    ranks_line = yaml_line(yaml_child(root, "ranks"))
    if not isinstance(ranks, int) or isinstance(ranks, bool) or ranks < 1:
        raise InputError(source, ranks_line, "'ranks' must be a positive integer")
    at_most(ranks, MAX_RANKS, "ranks", source, ranks_line)
    flags = {}
    for flag in _FLAGS:
        value = document.get(flag, False)
        if not isinstance(value, bool):
            raise InputError(source, yaml_line(yaml_child(root, flag)), f"{flag!r} must be true or false")
        flags[flag] = value
    foundation_node = yaml_child(root, "foundation")
    if document.get("foundation") is None:
        raise InputError(source, yaml_line(foundation_node) or 1, "a Golf deal needs a 'foundation' start card")
    foundation = card_in_deal(document["foundation"], ranks, source, yaml_line(foundation_node))
    seen: dict[Card, int | None] = {foundation: yaml_line(foundation_node)}
    stock_node = yaml_child(root, "stock")
    stock_value = document["stock"]
    if not isinstance(stock_value, list):
        raise InputError(source, yaml_line(stock_node), "'stock' must be a list of cards (it may be empty: [])")
    at_most(len(stock_value) + 1, MAX_CARDS, "cards", source, yaml_line(stock_node))
    stock = []
    card_nodes: list = [*yaml_items(stock_node)] or [stock_node] * len(stock_value)
    for value, node in zip(stock_value, card_nodes, strict=True):
        card = card_in_deal(value, ranks, source, yaml_line(node))
        if card in seen:
            raise InputError(source, yaml_line(node),
                             f"card {card.name(ranks)} appears twice (first on line {seen[card]})")
        seen[card] = yaml_line(node)
        stock.append(card)
    piles_node = yaml_child(root, "piles")
    piles_value = document["piles"]
    if not isinstance(piles_value, list) or not piles_value:
        raise InputError(source, yaml_line(piles_node), "'piles' must be a non-empty list of lists")
    at_most(len(piles_value), MAX_PILES, "piles", source, yaml_line(piles_node))
    piles = read_piles(piles_value, piles_node, ranks, source, seen)
    return _deal(source, yaml_line(piles_node), piles, tuple(stock), foundation, ranks, **flags)


def write_yaml(deal: GolfDeal) -> str:
    lines = [
        f"# {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, each pile TOP card first; "
        f"a stock of {len(deal.stock)} in dealing order",
        f"ranks: {deal.ranks}",
        f"foundation: {deal.name(deal.foundation)}",
        "stock: [" + ", ".join(map(deal.name, deal.stock)) + "]",
        f"queens_on_kings: {str(deal.queens_on_kings).lower()}",
        f"wrap_ranks: {str(deal.wrap_ranks).lower()}",
        "piles:",
    ]
    lines += ["  - [" + ", ".join(map(deal.name, pile)) + "]" for pile in deal.piles]
    return "\n".join(lines) + "\n"


def _card(word: str, source: str, number: int, seen: dict[Card, int]) -> Card:
    """A board card, refused at its line if unknown or seen before."""
    try:
        card = parse_card(word)
    except ValueError as error:
        raise InputError(source, number, str(error)) from None
    if card.rank >= STANDARD_RANKS:
        raise InputError(source, number, f"card {card.name(0)} has no rank in 0..{STANDARD_RANKS - 1}")
    if card in seen:
        raise InputError(source, number, f"card {card.name(STANDARD_RANKS)} appears twice (first on line {seen[card]})")
    seen[card] = number
    return card


def _deal(source: str, line: int | None, piles: list[tuple[Card, ...]], stock: tuple[Card, ...], foundation: Card,
          ranks: int, queens_on_kings: bool = False, wrap_ranks: bool = False) -> GolfDeal:
    """The deal; what the deal type refuses (a card's rank, a cap) is bad input at `line`."""
    try:
        return GolfDeal(tuple(piles), stock, foundation, ranks, queens_on_kings, wrap_ranks)
    except ValueError as error:
        raise InputError(source, line, str(error)) from None


def _count_words(line: str) -> int:
    return sum(1 for _ in _WORD.finditer(line))
