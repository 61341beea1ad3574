"""The fixed text models are made of, whatever the language: models that never change per deal
(in `models/`) and the Jinja2 templates of per-deal files (in `templates/`), read as package data."""

from __future__ import annotations

from functools import cache
from importlib import resources

import jinja2


def fixed_model(name: str) -> str:
    """A model file of `models/` (the same for every deal), e.g. `blackhole.eprime`."""
    return resources.files("patience.models").joinpath(name).read_text()


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("patience.templates", "."),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def template(name: str) -> jinja2.Template:
    """A template of `templates/`: undefined names are errors, the final newline is kept."""
    return _environment().get_template(name)
