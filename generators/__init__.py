"""Generators: a deal (of any game) as a model in one solver language.

Every generator module exposes OPTIONS (its option schema), `build(deal, **options) -> ModelFiles`
and SHOW (`gen` flags that print another file of the model than the primary one). MODEL_LANGUAGES
says which module writes each language for each game: `gen FORMAT` and the solvers choose by the
deal's game. Each language has its subpackage and each game its module in it, named after the game's
family (`cnf/black_hole.py`), so adding a game's model is one module plus one line here, and a new
language one folder of them.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from patience.errors import UsageError, quote
from patience.names import BINARY_STAR, BLACK_HOLE, LBS, family_of, game_name

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
    "lp": {BLACK_HOLE: "patience.generators.lp.black_hole", BINARY_STAR: "patience.generators.lp.binary_star"},
    "cpsat": {BLACK_HOLE: "patience.generators.cpsat.black_hole"},
    "mzn": {BLACK_HOLE: "patience.generators.mzn.black_hole", LBS: "patience.generators.mzn.lbs",
            BINARY_STAR: "patience.generators.mzn.binary_star"},
    "asp": {BLACK_HOLE: "patience.generators.asp.black_hole", LBS: "patience.generators.asp.lbs",
            BINARY_STAR: "patience.generators.asp.binary_star"},
}


def generator(language: str, game: str) -> ModuleType:
    """The module writing `language` for `game` (any game of a family); a usage error when there is none."""
    games = MODEL_LANGUAGES.get(language)
    if games is None:
        raise UsageError(f"unknown model language {quote(language)}; known: {', '.join(MODEL_LANGUAGES)}")
    family = family_of(game_name(game))
    if family not in games:
        raise UsageError(f"there is no {language} model of {game} deals; it has: {', '.join(games)}")
    return importlib.import_module(games[family])
