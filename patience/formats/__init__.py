"""Reading and writing deals in every text form, with format detection.

Each form is a (detect, read, write) triple registered by name; `read_deal` picks the form
from the file's content, `write_deal` by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from patience.deal import Deal
from patience.errors import InputError
from patience.formats import board, numbered, yaml_form
from patience.reading import read_text


@dataclass(frozen=True)
class DealFormat:
    name: str
    detect: Callable[[str], bool]
    read: Callable[[str, str], Deal]
    write: Callable[[Deal], str]


FORMATS: dict[str, DealFormat] = {
    form.name: form
    for form in (
        DealFormat("board", board.detect, board.read, board.write),
        DealFormat("param", numbered.detect_param, numbered.read_param, numbered.write_param),
        DealFormat("dzn", numbered.detect_dzn, numbered.read_dzn, numbered.write_dzn),
        DealFormat("json", numbered.detect_json, numbered.read_json, numbered.write_json),
        DealFormat("yaml", yaml_form.detect, yaml_form.read, yaml_form.write),
    )
}


def parse_deal(text: str, source: str) -> Deal:
    """Read a deal from text in any known form."""
    for form in FORMATS.values():
        if form.detect(text):
            try:
                return form.read(text, source)
            except ValueError as error:  # the deal it builds refused it (a cap, a rank outside the cycle)
                raise InputError(source, None, str(error)) from None
    raise InputError(source, 1, "not a deal: expected board text ('Foundations: ...'), YAML "
                                "('piles:'), CSPLib .param, MiniZinc .dzn or PyCSP3 JSON")


def read_deal(path: str | Path) -> Deal:
    """Read a deal file in any known form."""
    return parse_deal(read_text(path), str(path))


def write_deal(deal: Deal, form: str) -> str:
    """The deal as text in the named form; ValueError if that form cannot hold it."""
    return FORMATS[form].write(deal)
