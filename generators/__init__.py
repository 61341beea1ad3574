"""Generators: a deal (of any game) as a model in one solver language.

Every generator module is a `Generator` (generators/files.py): TITLE, OPTIONS (its option schema),
SHOW (`gen` flags that print a fixed file of the model), `fixed_files(**options)` and
`build(deal, **options) -> ModelFiles`. Each language has its subpackage and each game its module
in it, named after the game's family (`cnf/black_hole.py`): MODEL_LANGUAGES is found from those
names, for every family of patience/games/registry.py, so a game's model in a language is one
module and no line anywhere else, and a new language is one folder of them plus its name in
LANGUAGES. `gen FORMAT` and the solvers choose by the deal's game.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from patience.errors import UsageError, quote
from patience.games.registry import FAMILY_CLASSES
from patience.generators.files import Generator, ModelFiles
from patience.names import FAMILIES, family_of, game_name

if TYPE_CHECKING:
    from patience.games import AnyDeal

# the model languages, in the order `gen` lists them: each a subpackage of generators/
LANGUAGES = ("pddl", "eprime", "xcsp3", "cnf", "successor", "lp", "cpsat", "mzn", "asp")


def _models(language: str) -> dict[str, str]:
    """family -> the module writing `language` for it: `patience.generators.LANGUAGE.FAMILY`, where
    that module exists, for each registered family (the vocabulary's first, then the registry's)."""
    families = [*(family for family in FAMILIES if family in FAMILY_CLASSES),
                *(family for family in FAMILY_CLASSES if family not in FAMILIES)]
    found = {family: f"{__name__}.{language}.{family}" for family in families}
    return {family: module for family, module in found.items() if importlib.util.find_spec(module) is not None}


# gen FORMAT -> game family -> generator module
MODEL_LANGUAGES: dict[str, dict[str, str]] = {language: _models(language) for language in LANGUAGES}


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
