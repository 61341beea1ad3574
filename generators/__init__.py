"""Generators: a deal (of any game) as a model in one solver language.

Every generator module exposes OPTIONS (its option schema), `build(deal, **options) -> ModelFiles`
and SHOW (`gen` flags that print another file of the model than the primary one). MODEL_LANGUAGES
says which module writes each language for each game: `gen FORMAT` and the solvers choose by the
deal's game, so adding a model language or a game's model is one module plus one line here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from patience.errors import UsageError

# gen FORMAT -> game -> generator module
MODEL_LANGUAGES: dict[str, dict[str, str]] = {
    "pddl": {"black-hole": "patience.generators.pddl", "lbs": "patience.generators.lbs_pddl",
             "binary-star": "patience.generators.binary_star_pddl"},
    "eprime": {"black-hole": "patience.generators.eprime", "lbs": "patience.generators.lbs_eprime",
               "binary-star": "patience.generators.binary_star_eprime"},
    "xcsp3": {"black-hole": "patience.generators.xcsp3", "lbs": "patience.generators.lbs_xcsp3",
              "binary-star": "patience.generators.binary_star_xcsp3"},
    "cnf": {"black-hole": "patience.generators.cnf", "lbs": "patience.generators.lbs_cnf",
            "binary-star": "patience.generators.binary_star_cnf"},
    "lp": {"black-hole": "patience.generators.lp", "binary-star": "patience.generators.binary_star_lp"},
    "cpsat": {"black-hole": "patience.generators.cpsat"},
    "mzn": {"black-hole": "patience.generators.mzn.black_hole", "lbs": "patience.generators.mzn.lbs",
            "binary-star": "patience.generators.mzn.binary_star"},
    "asp": {"black-hole": "patience.generators.asp.black_hole", "lbs": "patience.generators.asp.lbs",
            "binary-star": "patience.generators.asp.binary_star"},
}


def generator(language: str, game: str) -> ModuleType:
    """The module writing `language` for `game`; a usage error when there is none."""
    games = MODEL_LANGUAGES.get(language)
    if games is None:
        raise UsageError(f"unknown model language {language!r}; known: {', '.join(MODEL_LANGUAGES)}")
    if game not in games:
        raise UsageError(f"there is no {language} model of {game} deals; it has: {', '.join(games)}")
    return importlib.import_module(games[game])
