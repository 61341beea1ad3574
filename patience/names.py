"""The toolkit's vocabulary, defined once: the names of the games and their game families, of the
deal numberings and of the paradigms. Every command, option, store, page and document takes its
words from here.

"Family" alone means a game family (the games one `Game` plays, below). A benchmark family (a set
of model files `gen FORMAT --deals` writes, patience/families/) is always called a benchmark family
or "families"; the kind of a solver (planning, cp, sat, ...) is its paradigm, never a family.

A name is snake_case, as deal specs (`black_hole:1-100`) and stores have always written it. Other
spellings people type (`black-hole`, `Binary-Star`) are aliases: `game_name` turns them into the
canonical name on input, and the stores pass what they read through it, so files written with an
older spelling still read. A name that is no alias is refused with the list of known names.
"""

from __future__ import annotations

import argparse

from patience.errors import UsageError, quote

# Games. A game family is the games that share one deal type, one validator and one set of model
# generators (patience/games/); it is named by its first game.
BLACK_HOLE = "black_hole"
ALL_IN_A_ROW = "all_in_a_row"
GENERALISED = "generalised"  # generalised Black Hole: any ranks, suits, piles and start card
BINARY_STAR = "binary_star"
BINARY_STAR_GENERALISED = "binary_star_generalised"
LBS = "lbs"  # Late Binding Solitaire, the coursework's name (its instances are LBS<n>_<k>)
WORM_HOLE = "worm_hole"  # Black Hole with one free cell (Solvitaire's worm-hole)
WORM_HOLE_GENERALISED = "worm_hole_generalised"  # any generalised Black Hole deal, any number of cells
GOLF = "golf"  # PySolFC's Golf: 7 piles of 5, a stock of 16; no wrap, nothing on a King
GOLF_QUEENS_ON_KINGS = "golf_queens_on_kings"  # black-hole-solve --game golf --queens-on-kings
GOLF_WRAP_RANKS = "golf_wrap_ranks"  # black-hole-solve --game golf --wrap-ranks: K and A touch
GOLF_GENERALISED = "golf_generalised"  # any ranks, suits, piles, heights and stock, any variant

BLACK_HOLE_FAMILY = (BLACK_HOLE, ALL_IN_A_ROW, GENERALISED)
BINARY_STAR_FAMILY = (BINARY_STAR, BINARY_STAR_GENERALISED)
GOLF_FAMILY = (GOLF, GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS, GOLF_GENERALISED)
WORM_HOLE_FAMILY = (WORM_HOLE, WORM_HOLE_GENERALISED)
FAMILIES: dict[str, tuple[str, ...]] = {BLACK_HOLE: BLACK_HOLE_FAMILY, BINARY_STAR: BINARY_STAR_FAMILY, LBS: (LBS,),
                                        GOLF: GOLF_FAMILY, WORM_HOLE: WORM_HOLE_FAMILY}
GAMES = tuple(game for games in FAMILIES.values() for game in games)
# A generalised game takes every deal of its special cases: a Black Hole deal is a generalised deal
# whose shape happens to be the standard one, so `--game generalised` accepts it.
SPECIAL_CASES: dict[str, tuple[str, ...]] = {GENERALISED: (BLACK_HOLE, ALL_IN_A_ROW),
                                             BINARY_STAR_GENERALISED: (BINARY_STAR,),
                                             GOLF_GENERALISED: (GOLF, GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS),
                                             WORM_HOLE_GENERALISED: (WORM_HOLE,)}
GAME_TITLES = {BLACK_HOLE: "Black Hole", ALL_IN_A_ROW: "All in a Row", GENERALISED: "Generalised Black Hole",
               BINARY_STAR: "Binary Star", BINARY_STAR_GENERALISED: "Generalised Binary Star",
               LBS: "Late Binding Solitaire", GOLF: "Golf", GOLF_QUEENS_ON_KINGS: "Golf, queens on kings",
               GOLF_WRAP_RANKS: "Golf, ranks wrap", GOLF_GENERALISED: "Generalised Golf",
               WORM_HOLE: "Worm Hole", WORM_HOLE_GENERALISED: "Generalised Worm Hole"}
# The games PySolFC deals by number (`patience deal --seed`, `survey`, deal specs `GAME:1-100`).
NUMBERED_GAMES = (BLACK_HOLE, ALL_IN_A_ROW, BINARY_STAR)

# Names other tools give a game (Solvitaire's and PyCSP3's `accordion`): accepted wherever a game is
# named, and the one alias a help may use beside the canonical name, saying which game it is.
OTHER_NAMES = {"accordion": LBS}
_EXTRA_ALIASES = {**OTHER_NAMES, "late_binding": LBS, "late_binding_solitaire": LBS,
                  "generalised_black_hole": GENERALISED, "generalized": GENERALISED,
                  "binary_star_generalized": BINARY_STAR_GENERALISED, "golf_generalized": GOLF_GENERALISED,
                  "worm_hole_generalized": WORM_HOLE_GENERALISED}

# Deal numberings: how a game number becomes a shuffle (generators/deals.py deals them).
PYSOLFC, PYSOL, MS = "pysolfc", "pysol", "ms"
NUMBERINGS = (PYSOLFC, PYSOL, MS)
DEFAULT_NUMBERING = PYSOLFC
_NUMBERING_ALIASES = {"pysol_fc": PYSOLFC, "microsoft": MS}

# Statuses of a solver run are `patience.result.Status`, the one enum every store and report uses.
# Paradigms (a runner's `paradigm`, the kind of solver): `patience solvers` and the reports group by these.
PARADIGMS = ("native", "planning", "cp", "sat", "mip", "asp")


def _key(text: str) -> str:
    return text.strip().lower().replace("-", "_").replace(" ", "_")


def game_name(text: str, known: tuple[str, ...] = GAMES, what: str = "game") -> str:
    """The canonical name of the game `text` names (an alias or any case of it); a usage error
    naming the known games if it names none of `known`."""
    key = _key(text)
    name = _EXTRA_ALIASES.get(key, key)
    if name in known:
        return name
    if name in GAMES:
        raise UsageError(f"{name} is not one of the games here: {', '.join(known)}")
    raise UsageError(f"unknown {what} {quote(text)}; known: {', '.join(known)}")


def is_deal_of(variant: str, game: str) -> bool:
    """Whether a deal whose exact game is `variant` is a deal of `game` (itself, or a special case of it)."""
    return variant == game or variant in SPECIAL_CASES.get(game, ())


def family_of(game: str) -> str:
    """The game family (its first game's name) that the canonical game `game` belongs to."""
    return next(family for family, games in FAMILIES.items() if game in games)


def numbering_name(text: str) -> str:
    key = _key(text)
    name = _NUMBERING_ALIASES.get(key, key)
    if name not in NUMBERINGS:
        raise UsageError(f"unknown numbering {quote(text)}; known: {', '.join(NUMBERINGS)}")
    return name


class GameOption:
    """An argparse `type` for `--game`: any spelling of a game of `known`, as its canonical name.
    `known` stays readable: the option's help must name each game (tests/test_vocabulary.py)."""

    __name__ = "game"  # argparse names the type by it in its messages

    def __init__(self, known: tuple[str, ...]) -> None:
        self.known = known

    def __call__(self, text: str) -> str:
        try:
            return game_name(text, self.known)
        except UsageError as error:
            raise argparse.ArgumentTypeError(str(error)) from None


def game_option(known: tuple[str, ...] = GAMES) -> GameOption:
    """The `type` of a `--game` option that takes the games of `known`."""
    return GameOption(known)


def numbering_option(text: str) -> str:
    """An argparse `type` for `--numbering`."""
    try:
        return numbering_name(text)
    except UsageError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def game_option_help(known: tuple[str, ...] = GAMES) -> str:
    """The help of a `--game` option that takes the games `known`."""
    others = "".join(f"; {other} is {game}" for other, game in OTHER_NAMES.items() if game in known)
    return (f"the deal's game, one of {', '.join(known)} (hyphens accepted{others}); the deal must be that "
            "game (default: found from the file)")


GAME_OPTION_HELP = game_option_help()
