"""The checker of loss certificates (`patience check DEAL CERTIFICATE`, docs/certificates.md), knowing only the rules
(an import rule in pyproject.toml keeps it apart from the searches): listed positions hold the start, no won one, and
each move from one leads to one listed or a bound here cuts, or has a twin that does. One pass, a set lookup a move."""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from patience.binary_star.deal import BinaryStarDeal
from patience.cards import RANK_LETTERS, STANDARD_RANKS, Card, in_players_words
from patience.deal import Deal
from patience.errors import InputError, encodable, quote
from patience.games import AnyDeal, deal_as, deal_content, game_of, read_game_deal
from patience.golf.deal import GolfDeal
from patience.lbs.deal import LBSDeal
from patience.worm_hole.deal import WormHoleDeal

FORMAT, VERSIONS = "patience-loss-certificate", (1, 2, 3)  # 2 may cut a move by a bound, 3 leave a twin's out
CERTIFIED = "certified: cannot be won"
RANK_NAMES = tuple("10" if letter == "T" else letter for letter in RANK_LETTERS[:STANDARD_RANKS])
Position = tuple[int, ...]
Top = tuple[int, Card, list[int]]  # a pile's index, its top card, the position (a list) with that card taken


class Broken(Exception):
    """The certificate proves nothing: the message names the first position or move that breaks it."""


def adjacent(first: int, second: int, ranks: int) -> bool:  # ranks one apart on the cycle of ranks (K and A too)
    return ranks > 1 and (first - second) % ranks in (1, ranks - 1)


def rank_name(rank: int, ranks: int) -> str:
    return RANK_NAMES[rank] if ranks == STANDARD_RANKS and 0 <= rank < ranks else f"r{rank}"


class Rules(Protocol):
    """One game's rules on positions (tuples of numbers, as the certificate writes them): unless a game
    says otherwise, the cards taken from each pile are the numbers from `at` on, won when all are."""

    start: Position  # the deal's start position
    numbers, at, heights = 0, 1, [0]

    def moves(self, position: Position) -> Iterator[tuple[str, Position]]: ...  # each move's name, where it leads
    def show(self, position: Position) -> str: ...

    def won(self, position: Position) -> bool:
        return list(position[self.at:self.at + len(self.heights)]) == self.heights

    def played(self, position: Position) -> int:  # the cards played (LBS: the moves made) to reach it
        return sum(position[self.at:self.at + len(self.heights)])

    def cut(self, position: Position, above: int = 0) -> int | None:  # one not won a bound proves lost: its most cards
        return None  # no bound but the Black Hole family's

    def twin(self, position: Position, after: Position) -> bool:  # a move another to the same after[0] stands in for
        return False

    def tops(self, position: Position, piles: Sequence[Sequence[Card]], ranks: int = -1) -> Iterator[Top]:
        """Each pile with cards left, its top of `ranks` (bits): its index, its top card, the position with it taken."""
        for index, pile in enumerate(piles):
            if (taken := position[self.at + index]) < len(pile) and ranks >> pile[taken].rank & 1:
                yield index, pile[taken], [*position[:self.at + index], taken + 1, *position[self.at + index + 1:]]


class BlackHole(Rules):
    """Black Hole, All in a Row, generalised, Worm Hole: (the foundation's rank + 1, 0: none; the cards taken from each
    pile; Worm Hole: each cell's card's rank + 1, 0: none, sorted). A top card (of a pile or cell) goes on the
    foundation when next to its rank (any, on none), a pile's into an empty cell; won when all are empty. `backward`
    (no cells): the piles turned over, from no card, won when the last is next to the deal's foundation card too."""

    def __init__(self, deal: Deal, backward: bool, cells: int = 0) -> None:
        self.ranks, self.backward, self.cells = deal.ranks, backward, slice(1 + len(deal.piles), None)
        self.piles = [tuple(reversed(pile)) if backward else pile for pile in deal.piles]
        self.rank_piles, ranks = [[card.rank for card in pile] for pile in self.piles], deal.ranks
        self.near = dict(enumerate([(1 << ranks) - 1] + [(1 << (rank + 1) % ranks | 1 << (rank - 1) % ranks) * (
            ranks > 1) for rank in range(ranks)]))  # by the foundation's number: the ranks next to it (none: no rank's)
        self.heights, self.numbers = [len(pile) for pile in deal.piles], 1 + len(deal.piles) + cells
        foundation = None if deal.foundation is None else deal.foundation.rank
        top, self.end = (0, foundation) if backward else (0 if foundation is None else foundation + 1, None)
        self.start = (top, *[0] * (self.numbers - 1))

    def won(self, position: Position) -> bool:
        end = self.end is None or adjacent(position[0] - 1, self.end, self.ranks)
        return super().won(position) and end and not any(position[self.cells])

    def played(self, position: Position) -> int:
        return super().played(position) - sum(map(bool, position[self.cells]))

    def moves(self, position: Position) -> Iterator[tuple[str, Position]]:
        cells, on, where = position[self.cells], position[0], "bottom" if self.backward else "top"
        for index, card, after in self.tops(position, self.piles, -1 if cells[:1] == (0,) else self.near.get(on, 0)):
            if self.near.get(on, 0) >> card.rank & 1:
                yield f"{card.spoken()} from the {where} of pile {index + 1}", (card.rank + 1, *after[1:])
            if cells and cells[0] == 0:  # the cells sorted: an empty one first
                yield f"{card.spoken()} from the top of pile {index + 1} to a cell", (
                    *after[:self.cells.start], *sorted((*cells[1:], card.rank + 1)))
        for index, held in enumerate(cells):
            if held and held not in cells[:index] and self.near.get(on, 0) >> held - 1 & 1:  # (a rank of the deal's)
                yield f"{rank_name(held - 1, self.ranks)} from a cell", (
                    held, *position[1:self.cells.start], *sorted((0, *cells[:index], *cells[index + 1:])))

    def cut(self, position: Position, above: int = 0) -> int | None:
        """No cells. Live cards: those whose cards above are, of a rank next to the foundation's (any, with none)
        or a live card's; a play plays only these: lost when fewer than left, or (backward) none next to the end.
        Balance: a live card of ranks r, r+2, ..., r+2k goes after a live one of their neighbours' or the foundation."""
        near, gone, more, seen, free = self.near, list(position[1:]), True, 0, self.near.get(position[0], 0)
        ranks, counts, most = self.ranks, [0] * self.ranks, 0  # live cards by rank; the most in excess (never played)
        while more:
            more = False
            for index, pile in enumerate(self.rank_piles):
                while gone[index] < len(pile) and free >> (rank := pile[gone[index]]) & 1:
                    free, seen, more, gone[index] = free | near[rank + 1], seen | 1 << rank, True, gone[index] + 1
                    counts[rank] += 1
        live, left = sum(gone) - self.played(position), sum(self.heights) - self.played(position)
        lost = live < left or (self.end is not None and not seen & near[self.end + 1])
        before = [count + (rank + 1 == position[0]) for rank, count in enumerate(counts)]
        for start in range(ranks if not lost or self.played(position) + live > above else 0):  # (a bound past `above`)
            excess = -before[start - 1] - (position[0] == 0)
            for step in range(start, start + ranks - 2, 2):
                excess += counts[step % ranks] - before[(step + 1) % ranks]
                most = excess if excess > most else most
        lost = (lost or most > 0) and not position[self.cells] and not self.won(position)
        return self.played(position) + live - most if lost else None

    def twin(self, position: Position, after: Position) -> bool:
        """No cells, a unit card's (only its rank beneath it): another of its rank has a play as long after it."""
        return not position[self.cells] and any(after[1 + index] > taken and len(set(pile[taken:])) == 1 for index, (
            pile, taken) in enumerate(zip(self.rank_piles, position[1:], strict=True)))

    def show(self, position: Position) -> str:
        on = "no card" if position[0] == 0 else rank_name(position[0] - 1, self.ranks)
        taken = " ".join(map(str, position[1:self.cells.start])) + "".join(
            f"; cell {rank_name(held - 1, self.ranks) if held else 'empty'}" for held in position[self.cells])
        return f"[{'played backwards, ' if self.backward else ''}foundation {on}; taken {taken}]"


class Foundations(Rules):
    """Binary Star, Golf: (the rank on each foundation; Golf: the stock's cards dealt; the cards taken
    from each pile). A pile's top card goes on a foundation when `follows(the foundation's rank, its
    rank)`; Golf's stock's next card goes on it whatever its rank. Won when every pile is empty."""

    def __init__(self, deal: BinaryStarDeal | GolfDeal, starts: Sequence[Card], follows: Callable[[int, int], bool],
                 stock: Sequence[Card] | None = None) -> None:
        self.piles, self.ranks, self.count, self.follows = deal.piles, deal.ranks, len(starts), follows
        self.stock, self.heights, self.at = stock, [len(pile) for pile in deal.piles], self.count + (stock is not None)
        self.numbers = self.at + len(deal.piles)
        self.start = (*(card.rank for card in starts), *[0] * (self.numbers - self.count))

    def moves(self, position: Position) -> Iterator[tuple[str, Position]]:
        for index, card, after in self.tops(position, self.piles):
            for foundation in range(self.count):
                if self.follows(position[foundation], card.rank):
                    onto = (*after[:foundation], card.rank, *after[foundation + 1:])
                    yield f"{card.spoken()} from pile {index + 1}" + (
                        f" to foundation {foundation + 1}" if self.count > 1 else ""), onto
        if self.stock is not None and position[1] < len(self.stock):
            card = self.stock[position[1]]
            yield f"{card.spoken()} from the stock", (card.rank, position[1] + 1, *position[2:])

    def show(self, position: Position) -> str:
        ons, taken = " ".join(rank_name(rank, self.ranks) for rank in position[:self.count]), position[self.at:]
        dealt = "" if self.stock is None else f"dealt {position[1]} of the stock; "
        return f"[foundation{'s' if self.count > 1 else ''} {ons}; {dealt}taken {' '.join(map(str, taken))}]"


class LateBinding(Rules):
    """Late Binding Solitaire: the row of top cards, left to right, padded with `pad`. A pile goes onto the
    one one or three places to its left when their cards share a value or a suit (the gap closes); won at one."""

    def __init__(self, deal: LBSDeal, pad: int) -> None:
        self.deal, self.pad, self.numbers, self.start = deal, pad, len(deal.cards), deal.cards

    def row(self, position: Position) -> Position:
        return position[:position.index(self.pad)] if self.pad in position else position

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
        return in_players_words(self.deal.card_name(number), self.deal.standard)

    def show(self, position: Position) -> str:
        return f"[row {' '.join(self.card(number) for number in self.row(position))}]"


def rules_of(deal: AnyDeal, width: int, backward: bool) -> Rules:
    if isinstance(deal, Deal | WormHoleDeal):
        return BlackHole(deal, backward) if isinstance(deal, Deal) else BlackHole(deal.black_hole, False, deal.cells)
    if isinstance(deal, BinaryStarDeal):
        return Foundations(deal, deal.foundations, lambda base, rank: adjacent(base, rank, deal.ranks))
    if isinstance(deal, GolfDeal):  # ranks one apart (K and A too with wrap_ranks), on a king only with queens_on_kings
        king, wrap, ranks = None if deal.queens_on_kings else deal.ranks - 1, deal.wrap_ranks, deal.ranks
        return Foundations(deal, (deal.foundation,), lambda base, rank: base != king and (
            adjacent(base, rank, ranks) if wrap else abs(base - rank) == 1), deal.stock)
    return LateBinding(deal_as(LBSDeal, deal), (1 << 8 * width) - 1)


def read_header(stream: Any, source: str) -> dict[str, Any]:
    """The certificate's header line, every field checked; InputError (bad input) if malformed."""
    try:
        header = json.loads(stream.readline(4096))
    except (ValueError, RecursionError):  # (RecursionError: lists nested past the interpreter's limit)
        raise InputError(source, 1, "not a certificate: the first line is no JSON header") from None
    fields = dict(format=str, version=int, game=str, deal=str, direction=str, numbers=int, width=int, positions=int)
    if not isinstance(header, dict) or any(type(header.get(name)) is not kind for name, kind in fields.items()):
        raise InputError(source, 1, f"not a certificate: the header needs {', '.join(fields)}")
    if header["format"] != FORMAT or header["version"] not in VERSIONS:
        raise InputError(source, 1, f"not a {FORMAT} of version {' or '.join(map(str, VERSIONS))}")
    if not 1 <= header["width"] <= 8 or header["numbers"] < 1 or header["positions"] < 0:
        raise InputError(source, 1, "the header's numbers, width or positions are out of range")
    return header


def read_positions(path: Path, deal: AnyDeal, game: str) -> tuple[Rules, int, list[bytes]]:
    """The rules of `deal`, the width of a number and the positions (each its bytes, as written); InputError
    for a file that is no certificate, is cut short, or is another deal's or game's."""
    source = encodable(str(path))
    try:
        with gzip.open(path, "rb") as stream:
            header = read_header(stream, source)
            if header["game"] != game:
                raise InputError(source, 1, f"a certificate of game {quote(header['game'])}, not of this deal's {game}")
            if header["deal"] != deal_content(game_of(deal), deal):
                raise InputError(source, 1, "a certificate of another deal (its content hash is not this deal's)")
            if header["direction"] not in ("forward", "backward")[:1 + isinstance(deal, Deal)]:
                raise InputError(source, 1, f"direction {quote(header['direction'])} is no direction of this game")
            rules = rules_of(deal, header["width"], header["direction"] == "backward")
            if header["numbers"] != rules.numbers:
                raise InputError(source, 1, f"positions of {header['numbers']} numbers, not the deal's {rules.numbers}")
            size, count, records = header["numbers"] * header["width"], header["positions"], list[bytes]()
            while len(records) <= count and (chunk := stream.read(size * min(count + 1 - len(records), 1 << 16))):
                for record in (chunk[offset:offset + size] for offset in range(0, len(chunk), size)):  # as they come
                    if len(record) == size and records and records[-1] >= record:  # (a bomb stops at its first repeat)
                        raise InputError(source, None, f"position {len(records) + 1} is not after position "
                                                       f"{len(records)}: positions are sorted, each once")
                    records.append(record)
    except (OSError, EOFError, zlib.error) as error:  # gzip's BadGzipFile and FileNotFoundError are OSErrors
        why = {"FileNotFoundError": "no such file", "BadGzipFile": "not a certificate: not a gzip file"}.get(
            type(error).__name__) or (getattr(error, "strerror", None) or "cannot read" if isinstance(error, OSError)
                                      else "cut short or damaged: not a whole gzip file")
        raise InputError(source, None, why) from None
    if len(records) != count or records and len(records[-1]) != size:  # (the last one may be cut short)
        raise InputError(source, None, f"{count} positions announced, " + ("more bytes after them" if len(
            records) > count else f"{len(records) - bool(records and len(records[-1]) != size)} found"))
    return rules, header["width"], records


def check(deal_path: Path, certificate_path: Path) -> list[str]:
    """CERTIFIED when the certificate proves the deal lost, then (of the deal's own positions) the most cards
    a play can play; Broken naming what breaks it; InputError for a deal or certificate that cannot be read."""
    game, deal = read_game_deal(deal_path)
    (rules, width, records), most = read_positions(certificate_path, deal, game.variant(deal)), 0

    def decode(record: bytes) -> Position:
        return tuple(record) if width == 1 else tuple(int.from_bytes(record[index:index + width], "big")
                                                      for index in range(0, len(record), width))

    def encode(position: Position) -> bytes | None:  # as the certificate writes it; None: the width cannot hold it
        try:
            return bytes(position) if width == 1 else b"".join(number.to_bytes(width, "big") for number in position)
        except (ValueError, OverflowError):
            return None

    listed: set[bytes | None] = set(records)
    if encode(rules.start) not in listed:
        raise Broken(f"the start position {rules.show(rules.start)} is not listed")
    for number, position in enumerate(map(decode, records), 1):
        if rules.won(position):
            raise Broken(f"position {number} {rules.show(position)} is won")
        moves = [(move, after, rules.played(after) if encode(after) in listed else rules.cut(after, most))
                 for move, after in rules.moves(position)]  # the bound of a move to a cut position: its most cards
        for move, after, bound in moves:  # not listed nor cut: a twin's, another move to its foundation covered
            twin = (bound is None or bound > most) and rules.twin(position, after) and any(  # (as long a play)
                other[1][0] == after[0] and other[2] is not None and other[1] != after for other in moves)
            if bound is None and not twin:
                raise Broken(f"position {number} {rules.show(position)}: {move} leads to "
                             f"{rules.show(after)}, which is not listed")
            most = most if twin else max(most, bound or 0)
    most_of = (f"makes more than {most} of the {rules.numbers - 1} moves" if isinstance(rules, LateBinding)
               else f"plays more than {most} of the {len(deal.cards)} cards")  # (backward: no play of the deal's)
    return [CERTIFIED] + ([] if isinstance(rules, BlackHole) and rules.backward else [f"certified: no play {most_of}"])
