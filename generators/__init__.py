"""Generators: a deal (of any game) as a model in one solver language.

Every generator module is a `Generator` (generators/files.py): TITLE, OPTIONS (its option schema),
SHOW (`gen` flags that print a fixed file of the model), `fixed_files(**options)` and
`build(deal, **options) -> ModelFiles`. MODEL_LANGUAGES
says which module writes each language for each game: `gen FORMAT` and the solvers choose by the
deal's game. Each language has its subpackage and each game its module in it, named after the game's
family (`cnf/black_hole.py`), so adding a game's model is one module plus one line here, and a new
language one folder of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from patience.errors import UsageError, quote
from patience.generators.files import Generator, ModelFiles
from patience.names import BINARY_STAR, BLACK_HOLE, LBS, family_of, game_name

if TYPE_CHECKING:
    from patience.games import AnyDeal

# gen FORMAT -> game family -> generator module
MODEL_LANGUAGES: dict[str, dict[str, str]] = {
    "pddl": {BLACK_HOLE: "patience.generators.pddl.black_hole", LBS: "patience.generators.pddl.lbs",
             BINARY_STAR: "patience.generators.pddl.binary_star"},
    "eprime": {BLACK_HOLE: "patience.generators.eprime.black_hole", LBS: "patience.generators.eprime.lbs",
               BINARY_STAR: "patience.generators.eprime.binary_star"},
    "xcsp3": {BLACK_HOLE: "patience.generators.xcsp3.black_hole", LBS: "patience.generators.xcsp3.lbs",
              BINARY_STAR: "patience.generators.xcsp3.binary_star"},
    "cnf": {BLACK_HOLE: "patience.generators.cnf.black_hole", LBS: "patience.generators.cnf.lbs",
            BINARY_STAR: "patience.generators.cnf.binary_star"},
    "successor": {BLACK_HOLE: "patience.generators.successor.black_hole"},
    "lp": {BLACK_HOLE: "patience.generators.lp.black_hole", BINARY_STAR: "patience.generators.lp.binary_star"},
    "cpsat": {BLACK_HOLE: "patience.generators.cpsat.black_hole"},
    "mzn": {BLACK_HOLE: "patience.generators.mzn.black_hole", LBS: "patience.generators.mzn.lbs",
            BINARY_STAR: "patience.generators.mzn.binary_star"},
    "asp": {BLACK_HOLE: "patience.generators.asp.black_hole", LBS: "patience.generators.asp.lbs",
            BINARY_STAR: "patience.generators.asp.binary_star"},
}


def generator(language: str, game: str) -> Generator[Any]:
    """The module writing `language` for `game` (any game of a family); a usage error when there is none."""
    games = MODEL_LANGUAGES.get(language)
    if games is None:
        raise UsageError(f"unknown model language {quote(language)}; known: {', '.join(MODEL_LANGUAGES)}")
    family = family_of(game_name(game))
    if family not in games:
        raise UsageError(f"there is no {language} model of {game} deals; it has: {', '.join(games)}")
    return cast(Generator[Any], importlib.import_module(games[family]))


def build(language: str, game: str, deal: AnyDeal, options: Mapping[str, str]) -> ModelFiles:
    """The model of `deal` (a deal of `game`) in `language`, its options given as text (`gen FORMAT
    --flag`, `patience.generate`) and checked against the generator's schema: a usage error names
    an option it does not have, or a value it does not take."""
    from patience.options import check_options, option_keywords

    module = generator(language, game)
    typed = check_options(module.OPTIONS, options, f"gen {language} ({game})")
    return module.build(deal, **option_keywords(typed))
