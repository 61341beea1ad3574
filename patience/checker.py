"""The checker of loss certificates (`patience check DEAL CERTIFICATE`, docs/certificates.md).

It knows the rules of each game and nothing of any search (an import rule in pyproject.toml keeps it
apart from patience.native, patience.plain_search, the LBS search and the certificate writer): it
reads the deal and the certificate, and accepts when the listed positions hold the start, hold no won
position, and are closed under the moves (every move from a listed position leads to a listed
position, or, in the Black Hole family, to one the live-card bound proves lost, worked out here).
A play stays on listed positions (by induction) until it enters a lost one, so no play wins. Time: one
pass over the positions, each with its moves, each looked up in a set.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from patience.binary_star.deal import BinaryStarDeal
from patience.cards import RANK_LETTERS, STANDARD_RANKS, SUIT_SYMBOLS, Card
from patience.deal import Deal
from patience.errors import InputError, encodable, quote
from patience.games import AnyDeal, deal_as, deal_content, game_of, read_game_deal
from patience.lbs.deal import LBSDeal

FORMAT, VERSIONS = "patience-loss-certificate", (1, 2)  # 2 may cut a move by the bound
CERTIFIED = "certified: cannot be won"
HEADER_BYTES = 4096  # a header line is a few hundred bytes
Position = tuple[int, ...]


class Broken(Exception):
    """The certificate proves nothing: the message names the first position or move that breaks it."""


def adjacent(first: int, second: int, ranks: int) -> bool:
    """Ranks one apart on the cycle of `ranks` ranks (K and A too)."""
    return ranks > 1 and (first - second) % ranks in (1, ranks - 1)


def rank_name(rank: int, ranks: int) -> str:
    return ("10" if RANK_LETTERS[rank] == "T" else RANK_LETTERS[rank]) if ranks == STANDARD_RANKS else f"r{rank}"


class Rules(Protocol):
    """One game's rules on positions (tuples of numbers, as the certificate writes them)."""

    numbers: int

    def start(self) -> Position: ...

    def won(self, position: Position) -> bool: ...

    def played(self, position: Position) -> int: ...  # the cards played (LBS: the moves made) to reach it

    def moves(self, position: Position) -> Iterator[tuple[str, Position]]: ...  # each move's name, where it leads

    def show(self, position: Position) -> str: ...

    def cut(self, position: Position) -> int | None:  # of one not won the bound proves lost: most cards through it
        return None  # no bound but the Black Hole family's


class BlackHole(Rules):
    """Black Hole, All in a Row, generalised: (the foundation's rank + 1, 0 for none; the cards taken
    from each pile). A pile's top card goes on the foundation when its rank is next to the
    foundation's (any card on an empty foundation); the deal is won when every pile is empty.
    `backward`: the same game on the piles turned over, from an empty foundation, won when every pile
    is empty and the last card is next to the deal's foundation card; a win of the deal read
    backwards is one of these, so when these have none, neither has the deal."""

    def __init__(self, deal: Deal, backward: bool) -> None:
        self.ranks, self.backward = deal.ranks, backward
        self.piles = [tuple(reversed(pile)) if backward else pile for pile in deal.piles]
        self.heights, self.numbers = [len(pile) for pile in deal.piles], 1 + len(deal.piles)
        foundation = None if deal.foundation is None else deal.foundation.rank
        self.top, self.end = (0, foundation) if backward else (0 if foundation is None else foundation + 1, None)

    def start(self) -> Position:
        return (self.top, *[0] * len(self.heights))

    def won(self, position: Position) -> bool:
        return list(position[1:]) == self.heights and (self.end is None or adjacent(position[0] - 1, self.end,
                                                                                     self.ranks))

    def played(self, position: Position) -> int:
        return sum(position[1:])

    def moves(self, position: Position) -> Iterator[tuple[str, Position]]:
        on, where = position[0], "the bottom" if self.backward else "the top"
        for index, pile in enumerate(self.piles):
            taken = position[1 + index]
            if taken < len(pile):
                card = pile[taken]
                if on == 0 or adjacent(on - 1, card.rank, self.ranks):
                    after = list(position)
                    after[0], after[1 + index] = card.rank + 1, taken + 1
                    yield f"{card.spoken()} from {where} of pile {index + 1}", tuple(after)

    def cut(self, position: Position) -> int | None:
        """The live-card bound: a card is live when every card above it is live and its rank is next to
        the foundation's (any rank, with no card on it) or to a live card's; a play from the position
        plays only live cards. Lost when fewer are live than cards left, or (backward) none is next
        to the end rank (a win's last card is live)."""
        ranks, end, depth, live, grown, near = self.ranks, self.end, list(position[1:]), 0, True, self.end is None
        opened = [position[0] == 0 or adjacent(position[0] - 1, rank, ranks) for rank in range(ranks)]
        while grown:
            grown = False
            for index, pile in enumerate(self.piles):
                while depth[index] < len(pile) and opened[pile[depth[index]].rank]:
                    rank, live, grown, depth[index] = pile[depth[index]].rank, live + 1, True, depth[index] + 1
                    near = near or (end is not None and adjacent(rank, end, ranks))
                    for other in ((rank + 1) % ranks, (rank - 1) % ranks):
                        opened[other] = opened[other] or adjacent(rank, other, ranks)
        lost = live < sum(self.heights) - self.played(position) or not near
        return self.played(position) + live if lost and not self.won(position) else None

    def show(self, position: Position) -> str:
        on, taken = "no card" if position[0] == 0 else rank_name(position[0] - 1, self.ranks), position[1:]
        return f"[{'played backwards, ' if self.backward else ''}foundation {on}; taken {' '.join(map(str, taken))}]"


class BinaryStar(Rules):
    """Binary Star: (the rank on each foundation; the cards taken from each pile). A pile's top card
    goes on a foundation whose rank is next to its own; the deal is won when every pile is empty."""

    def __init__(self, deal: BinaryStarDeal) -> None:
        self.deal, self.ranks, self.count = deal, deal.ranks, len(deal.foundations)
        self.heights = [len(pile) for pile in deal.piles]
        self.numbers = self.count + len(deal.piles)

    def start(self) -> Position:
        return (*(card.rank for card in self.deal.foundations), *[0] * len(self.heights))

    def won(self, position: Position) -> bool:
        return list(position[self.count:]) == self.heights

    def played(self, position: Position) -> int:
        return sum(position[self.count:])

    def moves(self, position: Position) -> Iterator[tuple[str, Position]]:
        for index, pile in enumerate(self.deal.piles):
            taken = position[self.count + index]
            if taken < len(pile):
                card = pile[taken]
                for foundation in range(self.count):
                    if adjacent(position[foundation], card.rank, self.ranks):
                        after = list(position)
                        after[foundation], after[self.count + index] = card.rank, taken + 1
                        yield f"{card.spoken()} from pile {index + 1} to foundation {foundation + 1}", tuple(after)

    def show(self, position: Position) -> str:
        ons = " ".join(rank_name(rank, self.ranks) for rank in position[:self.count])
        return f"[foundations {ons}; taken {' '.join(map(str, position[self.count:]))}]"


class LateBinding(Rules):
    """Late Binding Solitaire: the row of top cards, left to right, padded with `pad`. The pile at
    position s goes onto the pile one or three places to its left when their cards share a value or
    a suit; the gap closes. The deal is won when one pile is left."""

    def __init__(self, deal: LBSDeal, pad: int) -> None:
        self.deal, self.pad, self.numbers = deal, pad, len(deal.cards)

    def row(self, position: Position) -> Position:
        return position[:position.index(self.pad)] if self.pad in position else position

    def start(self) -> Position:
        return self.deal.cards

    def won(self, position: Position) -> bool:
        return len(self.row(position)) == 1

    def played(self, position: Position) -> int:
        return self.numbers - len(self.row(position))

    def moves(self, position: Position) -> Iterator[tuple[str, Position]]:
        row, ranks = self.row(position), self.deal.ranks
        for source in range(1, len(row)):
            for target in (target for target in (source - 1, source - 3) if target >= 0):
                moved, covered = row[source], row[target]
                if moved % ranks == covered % ranks or moved // ranks == covered // ranks:
                    after = (*row[:target], moved, *row[target + 1:source], *row[source + 1:])
                    yield (f"{self.card(moved)} (position {source + 1}) onto position {target + 1}",
                           after + (self.pad,) * (self.numbers - len(after)))

    def card(self, number: int) -> str:
        if self.deal.standard:
            return Card(number % 13, 0).spoken()[:-1] + SUIT_SYMBOLS["HDCS"[number // 13]]
        return f"v{number % self.deal.ranks}s{number // self.deal.ranks}"

    def show(self, position: Position) -> str:
        return f"[row {' '.join(self.card(number) for number in self.row(position))}]"


def rules_of(deal: AnyDeal, width: int, backward: bool) -> Rules:
    if isinstance(deal, Deal):
        return BlackHole(deal, backward)
    if isinstance(deal, BinaryStarDeal):
        return BinaryStar(deal)
    return LateBinding(deal_as(LBSDeal, deal), (1 << 8 * width) - 1)


def read_header(stream: Any, source: str) -> dict[str, Any]:
    """The certificate's header line, every field checked; InputError (bad input) if malformed."""
    line = stream.readline(HEADER_BYTES)
    try:
        header = json.loads(line)
    except ValueError:
        raise InputError(source, 1, "not a certificate: the first line is no JSON header") from None
    fields = {"format": str, "version": int, "game": str, "deal": str, "direction": str, "numbers": int,
              "width": int, "positions": int}
    if not isinstance(header, dict) or any(type(header.get(name)) is not kind for name, kind in fields.items()):
        raise InputError(source, 1, f"not a certificate: the header needs {', '.join(fields)}")
    if header["format"] != FORMAT or header["version"] not in VERSIONS:
        raise InputError(source, 1, f"not a {FORMAT} of version {' or '.join(map(str, VERSIONS))}")
    if not 1 <= header["width"] <= 8 or header["numbers"] < 1 or header["positions"] < 0:
        raise InputError(source, 1, "the header's numbers, width or positions are out of range")
    return header


def read_positions(path: Path, deal: AnyDeal, game: str) -> tuple[Rules, int, list[bytes]]:
    """The rules of `deal`, the width of a number and the certificate's positions (as written: each its
    numbers' bytes); InputError for a file that is no certificate, is cut short, or is another deal's
    or game's."""
    source = encodable(str(path))
    try:
        with gzip.open(path, "rb") as stream:
            header = read_header(stream, source)
            if header["game"] != game:
                raise InputError(source, 1, f"a certificate of game {quote(header['game'])}, not of this deal's {game}")
            if header["deal"] != deal_content(game_of(deal), deal):
                raise InputError(source, 1, "a certificate of another deal (its content hash is not this deal's)")
            if header["direction"] not in ("forward", "backward") or (
                    header["direction"] == "backward" and not isinstance(deal, Deal)):
                raise InputError(source, 1, f"direction {quote(header['direction'])} is no direction of this game")
            rules = rules_of(deal, header["width"], header["direction"] == "backward")
            if header["numbers"] != rules.numbers:
                raise InputError(source, 1, f"positions of {header['numbers']} numbers, not the deal's {rules.numbers}")
            expected = header["numbers"] * header["width"] * header["positions"]
            body = stream.read(expected + 1)
    except FileNotFoundError:
        raise InputError(source, None, "no such file") from None
    except gzip.BadGzipFile:
        raise InputError(source, None, "not a certificate: not a gzip file") from None
    except (EOFError, zlib.error):
        raise InputError(source, None, "cut short or damaged: not a whole gzip file") from None
    except OSError as error:
        raise InputError(source, None, error.strerror or "cannot read") from None
    size = header["numbers"] * header["width"]
    if len(body) != expected:
        raise InputError(source, None, f"{header['positions']} positions announced, " +
                         ("more bytes after them" if len(body) > expected else f"{len(body) // size} found"))
    records = [body[offset:offset + size] for offset in range(0, len(body), size)]
    for number in range(1, len(records)):
        if records[number - 1] >= records[number]:
            raise InputError(source, None, f"position {number + 1} is not after position {number}: "
                                           "positions are sorted, each once")
    return rules, header["width"], records


def check(deal_path: Path, certificate_path: Path) -> list[str]:
    """CERTIFIED when the certificate proves the deal lost, then (of the deal's own positions) the most cards
    a play can play; Broken naming what breaks it; InputError for a deal or certificate that cannot be read."""
    game, deal = read_game_deal(deal_path)
    rules, width, records = read_positions(certificate_path, deal, game.variant(deal))
    most = 0

    def decode(record: bytes) -> Position:
        return tuple(record) if width == 1 else tuple(int.from_bytes(record[index:index + width], "big")
                                                      for index in range(0, len(record), width))

    def encode(position: Position) -> bytes | None:
        """The position as the certificate writes it; None for a number the width cannot hold (unlisted)."""
        try:
            return bytes(position) if width == 1 else b"".join(number.to_bytes(width, "big") for number in position)
        except (ValueError, OverflowError):
            return None

    listed: set[bytes | None] = set(records)
    start = rules.start()
    if encode(start) not in listed:
        raise Broken(f"the start position {rules.show(start)} is not listed")
    for number, record in enumerate(records, 1):
        position = decode(record)
        if rules.won(position):
            raise Broken(f"position {number} {rules.show(position)} is won")
        for move, after in rules.moves(position):
            bound = rules.played(after) if encode(after) in listed else rules.cut(after)
            if bound is None:
                raise Broken(f"position {number} {rules.show(position)}: {move} leads to "
                             f"{rules.show(after)}, which is not listed")
            most = max(most, bound)  # a position the bound cuts: at most this many through it
    if isinstance(rules, BlackHole) and rules.backward:  # a play of the deal is no play of these
        return [CERTIFIED]
    if isinstance(rules, LateBinding):
        return [CERTIFIED, f"certified: no play makes more than {most} of the {rules.numbers - 1} moves"]
    return [CERTIFIED, f"certified: no play plays more than {most} of the {len(deal.cards)} cards"]
