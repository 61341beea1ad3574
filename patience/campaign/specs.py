"""Deal specs: which deals a campaign runs on, each with a stable name used as its key in the store.

- `black_hole:1-1000`, `all_in_a_row:1-50,77`: numbered deals as PySolFC deals them (seeds, ranges
  and lists); `black_hole@pysol:...` or `black_hole@ms:...` for old PySol's or Microsoft's numbering,
  which the deals' names keep (`black_hole@pysol:40000`);
- `binary_star:1-10000`: PySolFC's numbered Binary Star deals (`binary_star@pysol:` and `@ms:` too);
- `random:R,S,H:1-100`: seeded random generalised deals, R ranks x S suits in piles of height H;
- a folder (every deal file in it, sorted) or a single deal file, of any game (LBS `.param` too).
Several specs can be joined with `+`.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patience.caps import MAX_DEALS
from patience.errors import UsageError, quote
from patience.games import Game, get_game, read_game_deal
from patience.games.black_hole import BlackHoleFamily
from patience.generators.deals import pysol_deal, random_deal
from patience.names import DEFAULT_NUMBERING, NUMBERED_GAMES, NUMBERINGS, game_name
from patience.numeric import whole_or_none

SPEC_HELP = ("black_hole:1-1000 (PySolFC's numbering; black_hole@pysol:, @ms: others), all_in_a_row:1-50, "
             "binary_star:1-100, random:RANKS,SUITS,HEIGHT:1-100, a folder of deal files or a deal file; "
             "join several with +")
BLACK_HOLE_FAMILY = BlackHoleFamily()


@dataclass(frozen=True)
class NamedDeal:
    """A deal with its game and the name the store knows it by (`black_hole:17`, `random:13,4,3:5`, a path)."""

    name: str
    game: Game
    deal: Any

    def describe(self) -> tuple[str, str, int, int]:
        """(name, variant, cards, piles) as the store's deals table keeps them."""
        piles = len(getattr(self.deal, "piles", self.deal.cards))
        return self.name, self.game.variant(self.deal), len(self.deal.cards), piles


def parse_seeds(text: str, spec: str) -> list[int]:
    """`1-5,9,20-22` -> [1, 2, 3, 4, 5, 9, 20, 21, 22], in order, without repeats."""
    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        first, last = whole_or_none(low), whole_or_none(high if dash else low)
        if first is None or last is None:
            raise UsageError(f"deal spec {quote(spec)}: {quote(part)} is not a seed or a range like 1-100")
        if first < 0 or last < first or last - first >= MAX_DEALS:
            raise UsageError(f"deal spec {quote(spec)}: bad range {quote(part)}")
        seeds.extend(range(first, last + 1))
    return list(dict.fromkeys(seeds))


def resolve(spec: str) -> list[NamedDeal]:
    """Every deal a spec names, in order, without repeated names."""
    deals: dict[str, NamedDeal] = {}
    for part in spec.split("+"):
        for named in _resolve_one(part.strip()):
            deals.setdefault(named.name, named)
    if not deals:
        raise UsageError(f"deal spec {quote(spec)} names no deals")
    return list(deals.values())


def _resolve_one(spec: str) -> list[NamedDeal]:
    path: Path | None = Path(spec)
    try:
        path.stat()
    except ValueError:  # a NUL: no file name
        path = None
    except OSError as error:  # too long to be a file name: a spec such as black_hole:1-... (else is_dir says why)
        path = None if error.errno == errno.ENAMETOOLONG else path
    if path is not None and path.is_dir():
        files = sorted(entry for entry in path.iterdir() if entry.is_file() and not entry.name.startswith("."))
        return [NamedDeal(str(entry), *read_game_deal(entry)) for entry in files]
    if path is not None and path.is_file():
        return [NamedDeal(str(path), *read_game_deal(path))]
    kind, colon, rest = spec.partition(":")
    game, at, numbering = kind.partition("@")
    game = _game_or_kind(game)
    kind = game + at + numbering  # the canonical name (`black-hole:1` is stored as `black_hole:1`)
    if game in NUMBERED_GAMES and colon and (not at or numbering in NUMBERINGS):
        numbering = numbering or DEFAULT_NUMBERING
        try:
            return [NamedDeal(f"{kind}:{seed}", get_game(game), pysol_deal(game, seed, numbering))
                    for seed in parse_seeds(rest, spec)]
        except ValueError as error:
            raise UsageError(f"deal spec {quote(spec)}: {error}") from None
    if kind == "random" and colon:
        return _random_deals(spec, rest)
    raise UsageError(f"deal spec {quote(spec)} is neither a file, a folder nor one of: {SPEC_HELP}")


def _game_or_kind(word: str) -> str:
    """A game's canonical name when `word` spells one, else `word` (`random`)."""
    try:
        return game_name(word)
    except UsageError:
        return word


def _random_deals(spec: str, rest: str) -> list[NamedDeal]:
    shape, colon, seeds = rest.partition(":")
    numbers = [whole_or_none(number) for number in shape.split(",")]
    if len(numbers) != 3 or None in numbers or not colon:
        raise UsageError(f"deal spec {quote(spec)}: expected random:RANKS,SUITS,HEIGHT:SEEDS")
    ranks, suits, height = numbers
    try:
        return [NamedDeal(f"random:{ranks},{suits},{height}:{seed}", BLACK_HOLE_FAMILY,
                          random_deal(ranks, suits, height, seed))
                for seed in parse_seeds(seeds, spec)]
    except ValueError as error:
        raise UsageError(f"deal spec {quote(spec)}: {error}") from None
