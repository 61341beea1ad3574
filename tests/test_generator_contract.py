"""Every registered generator module keeps the `Generator` contract (generators/files.py), as every
registered solver keeps the solver template's (test_solver_contract.py)."""

from __future__ import annotations

import importlib
import inspect

import pytest

from patience.generators import MODEL_LANGUAGES
from patience.generators.files import FormulaGenerator, Generator, fixed_file_keywords
from patience.options import Option, check_options, option_keywords

REGISTERED = sorted({(language, family, module) for language, games in MODEL_LANGUAGES.items()
                     for family, module in games.items()})


IDS = [f"{language}-{family}" for language, family, _ in REGISTERED]


@pytest.mark.parametrize(("language", "family", "name"), REGISTERED, ids=IDS)
def test_every_registered_generator_keeps_the_contract(language, family, name):
    module = importlib.import_module(name)
    assert isinstance(module, Generator), f"{name} misses part of the Generator protocol"
    assert isinstance(module.TITLE, str) and module.TITLE
    assert all(isinstance(option, Option) for option in module.OPTIONS)
    build = inspect.signature(module.build).parameters
    assert list(build)[0] == "deal"
    # every option of the schema is a keyword of build, and build takes nothing else
    assert {option.name.replace("-", "_") for option in module.OPTIONS} == set(list(build)[1:])
    # every SHOW flag names a fixed file, made from the default options; fixed_files names only options
    defaults = option_keywords(check_options(module.OPTIONS, {}, name))
    fixed = module.fixed_files(**fixed_file_keywords(module, defaults))
    assert set(module.SHOW.values()) == set(fixed)
    assert set(inspect.signature(module.fixed_files).parameters) <= set(build) - {"deal"} | {"_options"}


def test_the_cnf_generators_give_their_formula_and_no_other_does():
    for language, games in MODEL_LANGUAGES.items():
        for name in games.values():
            formula_language = language in ("cnf", "successor")
            assert isinstance(importlib.import_module(name), FormulaGenerator) == formula_language, name


def test_fixed_file_keywords_drops_the_options_that_only_shape_the_data():
    mzn = importlib.import_module(MODEL_LANGUAGES["mzn"]["black_hole"])
    keywords = {"symmetry_breaking": False, "search": "free", "formulation": "project"}
    assert fixed_file_keywords(mzn, keywords) == {"search": "free", "formulation": "project"}
