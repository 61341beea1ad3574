"""Deal specs: which deals a campaign runs on, each with a stable name used as its key in the store.

- `black_hole:1-1000`, `all_in_a_row:1-50,77`: numbered deals as PySolFC deals them (seeds, ranges
  and lists); `black_hole@pysol:...` or `black_hole@ms:...` for old PySol's or Microsoft's numbering,
  which the deals' names keep (`black_hole@pysol:40000`);
- `binary_star:1-10000`: PySolFC's numbered Binary Star deals (`binary_star@pysol:` and `@ms:` too);
- `random:R,S,H:1-100`: seeded random generalised deals, R ranks x S suits in piles of height H;
- `golf_generalised:R,S,H:1-100`, `worm_hole_generalised:R,S,H:1-100`: the seeded random deals of a
  generalised game that deals its own (its `random_deal` hook), as `patience deal --game GAME --ranks
  R --suits S --pile-height H --seed N` deals them;
- a folder (every deal file in it, sorted) or a single deal file, of any game (LBS `.param` too).
Several specs can be joined with `+`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patience.caps import MAX_DEALS
from patience.errors import InputError, UsageError, encodable, quote
from patience.games import AnyDeal, Game, deal_content, games_with, get_game, hook, read_game_deal
from patience.generators.deals import pysol_deal, random_deal, random_games
from patience.names import DEFAULT_NUMBERING, GENERALISED, NUMBERED_GAMES, NUMBERINGS, game_name
from patience.numeric import whole_or_none
from patience.reading import small_int

SPEC_HELP = ("black_hole:1-1000 (PySolFC's numbering; black_hole@pysol:, @ms: others), all_in_a_row:1-50, "
             "binary_star:1-100, random:RANKS,SUITS,HEIGHT:1-100 (golf_generalised:RANKS,SUITS,HEIGHT:1-100 "
             "and worm_hole_generalised's alike), a folder of deal files or a deal file; join several with +")
BLACK_HOLE_GAME = get_game(GENERALISED)  # the `Game` of random deals: the Black Hole family


@dataclass(frozen=True)
class NamedDeal:
    """A deal with its game and the name the store knows it by (`black_hole:17`, `random:13,4,3:5`, a path)."""

    name: str
    game: Game[Any]
    deal: AnyDeal

    @functools.cached_property
    def content(self) -> str:
        """The deal's content key (`deal_content`): the store keys its runs by this, the name is a label."""
        return deal_content(self.game, self.deal)

    def describe(self) -> tuple[str, str, int, int]:
        """(name, variant, cards, piles) as the store's deals table keeps them."""
        sizes = self.game.sizes(self.deal)  # an LBS row: a card a pile
        return self.name, self.game.variant(self.deal), sizes.cards, len(sizes.heights)


def seed_ranges(text: str, spec: str) -> list[tuple[int, int]]:
    """`1-5,9,20-22` -> [(1, 5), (9, 9), (20, 22)]: the ranges as written, nothing built yet."""
    ranges = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        first, last = small_int(low.strip()), small_int((high if dash else low).strip())
        if first is None or last is None:
            raise UsageError(f"deal spec {quote(spec)}: {quote(part)} is not a seed or a range like 1-100")
        if first < 0 or last < first:
            raise UsageError(f"deal spec {quote(spec)}: bad range {quote(part)}")
        ranges.append((first, last))
    return ranges


def count_seeds(ranges: list[tuple[int, int]]) -> int:
    """How many distinct seeds the ranges name (overlaps counted once), without listing them."""
    count, reached = 0, -1
    for first, last in sorted(ranges):
        if last > reached:
            count += last - max(first, reached + 1) + 1
            reached = last
    return count


def parse_seeds(text: str, spec: str) -> list[int]:
    """`1-5,9,20-22` -> [1, 2, 3, 4, 5, 9, 20, 21, 22], in order, without repeats; refused before
    anything is built when they are more than MAX_DEALS in all."""
    ranges = seed_ranges(text, spec)
    _refuse_too_many(count_seeds(ranges), spec)
    seeds: list[int] = []
    for first, last in ranges:
        seeds.extend(range(first, last + 1))
    return list(dict.fromkeys(seeds))


def spec_size(spec: str) -> int:
    """How many deals a spec names at most, from its text and folder listings alone: no deal is
    read or dealt, so a spec of billions is refused in a moment."""
    ranges: dict[str, list[tuple[int, int]]] = {}
    files = 0
    for part in (part.strip() for part in spec.split("+")):
        path, kind = Path(part), _path_kind(part)
        if kind == "folder":
            files += sum(1 for entry in path.iterdir() if entry.is_file() and not entry.name.startswith("."))
        elif kind == "file":
            files += 1
        else:
            kind, _, rest = part.partition(":")
            if ":" in rest:  # random:R,S,H:SEEDS, or a generalised game's GAME:R,S,H:SEEDS
                kind, _, rest = part.rpartition(":")
            try:
                ranges.setdefault(kind, []).extend(seed_ranges(rest, part))
            except UsageError:  # not a numbered spec: resolving it says what is wrong with it
                continue
    return files + sum(count_seeds(kind_ranges) for kind_ranges in ranges.values())


def _path_kind(spec: str) -> str | None:
    """"folder", "file" or None: no such path, or a name no file system takes (too long, say)."""
    try:
        path = Path(spec)
        return "folder" if path.is_dir() else "file" if path.is_file() else None
    except (OSError, ValueError):
        return None


def _refuse_too_many(count: int, spec: str) -> None:
    if count > MAX_DEALS:
        raise UsageError(f"deal spec {quote(spec)} names {count:,} deals; at most {MAX_DEALS:,} in all")


def resolve(spec: str) -> list[NamedDeal]:
    """Every deal a spec names, in order, without repeated names."""
    _refuse_too_many(spec_size(spec), spec)
    deals: dict[str, NamedDeal] = {}
    for part in spec.split("+"):
        for named in _resolve_one(part.strip()):
            deals.setdefault(named.name, named)
    if not deals:
        raise UsageError(f"deal spec {quote(spec)} names no deals")
    return list(deals.values())


_ONE_GENERATED = re.compile(r"[a-z_]{1,40}(@[a-z]{1,20})?:[0-9]{1,9}"
                            r"|[a-z_]{1,40}:[0-9]{1,6},[0-9]{1,6},[0-9]{1,6}:[0-9]{1,9}")  # random: or a game's


def generated(name: str) -> bool:
    """Whether a stored name is one numbered or random deal, whose content its name determines."""
    return _ONE_GENERATED.fullmatch(name) is not None


def stored_deal(name: str, content: str) -> NamedDeal | None:
    """The deal a store names, if it can still be made and is the one stored: one numbered or random
    deal (never a range: a stored name is one deal, and is held to the caps of a typed one), or a deal
    file whose content is still `content`. None when it cannot (a moved or changed file, a foreign name)."""
    try:
        if generated(name):
            found = _resolve_one(name)
        elif Path(name).is_file():
            found = [NamedDeal(name, *read_game_deal(name))]
        else:
            return None
    except (InputError, UsageError, OSError, ValueError):
        return None
    if len(found) != 1 or (content and found[0].content != content):
        return None
    return found[0]


def _resolve_one(spec: str) -> list[NamedDeal]:
    path, path_kind = Path(spec), _path_kind(spec)
    if path_kind == "folder":
        files = sorted(entry for entry in path.iterdir() if entry.is_file() and not entry.name.startswith("."))
        return [NamedDeal(encodable(str(entry)), *read_game_deal(entry)) for entry in files]
    if path_kind == "file":
        return [NamedDeal(encodable(str(path)), *read_game_deal(path))]
    kind, colon, rest = spec.partition(":")
    game, at, numbering = kind.partition("@")
    game = _game_or_kind(game)
    kind = game + at + numbering  # the canonical name (`black-hole:1` is stored as `black_hole:1`)
    if ":" in rest and not at and game in random_games():  # GAME:R,S,H:SEEDS
        return _random_deals(spec, rest, game)
    numbered = game in NUMBERED_GAMES or game in games_with("numbered_deal")
    if numbered and colon and (not at or numbering in NUMBERINGS):
        numbering = numbering or DEFAULT_NUMBERING
        try:
            return [NamedDeal(f"{kind}:{seed}", get_game(game), numbered_deal(game, seed, numbering))
                    for seed in parse_seeds(rest, spec)]
        except ValueError as error:
            raise UsageError(f"deal spec {quote(spec)}: {error}") from None
    if kind == "random" and colon:
        return _random_deals(spec, rest)
    raise UsageError(f"deal spec {quote(spec)} is neither a file, a folder nor one of: {SPEC_HELP}")


def numbered_deal(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> AnyDeal:
    """Deal `seed` of `game` under `numbering`: by the game's own `numbered_deal` hook (Golf's), else
    as generators/deals.py deals the numbered games."""
    own = get_game(game).numbered_deal
    return hook(own)(game, seed, numbering) if own is not None else pysol_deal(game, seed, numbering)


def _game_or_kind(word: str) -> str:
    """A game's canonical name when `word` spells one, else `word` (`random`)."""
    try:
        return game_name(word)
    except UsageError:
        return word


def _random_deals(spec: str, rest: str, game: str = "random") -> list[NamedDeal]:
    """`random:R,S,H:SEEDS` (generalised Black Hole), or `GAME:R,S,H:SEEDS` for a generalised game
    that deals its own through its `random_deal` hook."""
    shape, colon, seeds = rest.partition(":")
    numbers = [whole_or_none(number) for number in shape.split(",")]
    whole = [number for number in numbers if number is not None]
    if len(numbers) != 3 or len(whole) != 3 or not colon:
        raise UsageError(f"deal spec {quote(spec)}: expected {game}:RANKS,SUITS,HEIGHT:SEEDS")
    ranks, suits, height = whole
    chosen = BLACK_HOLE_GAME if game == "random" else get_game(game)
    try:
        return [NamedDeal(f"{game}:{ranks},{suits},{height}:{seed}", chosen,
                          random_deal(ranks, suits, height, seed) if game == "random"
                          else hook(str(chosen.random_deal))(game, seed, ranks, suits, height))
                for seed in parse_seeds(seeds, spec)]
    except ValueError as error:
        raise UsageError(f"deal spec {quote(spec)}: {error}") from None
