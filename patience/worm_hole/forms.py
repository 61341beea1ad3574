"""Worm Hole deal forms: Black Hole's, plus the number of cells.

Board text (black-hole-solve's and PySol's, one pile per line, BOTTOM card first) with a line
`Cells: N` right after the foundation line, as Fish's boards add lines (`Talon:`, `Freecells:`):

    Foundations: AS
    Cells: 1
    8S 9S 4D
    ...

YAML, the form that also holds generalised deals: Black Hole's with a `cells: N` key. Only a cells
line (or key) makes a Worm Hole deal: Black Hole's files stay Black Hole's.
"""

from __future__ import annotations

import re

from patience.errors import InputError
from patience.formats import board, yaml_form
from patience.numeric import whole, whole_value
from patience.reading import compose_yaml, construct_yaml, numbered_lines, yaml_child, yaml_line
from patience.worm_hole.deal import MAX_CELLS, WormHoleDeal

CELLS = "Cells:"
FORMS = ("board", "yaml")
_BOARD_CELLS = re.compile(r"^[ \t]*Cells:", re.MULTILINE)  # `[ \t]`, not `\s`: no scan across blank lines
_YAML_CELLS = re.compile(r"^cells:", re.MULTILINE)


def detect(text: str) -> bool:
    """Board text with a `Cells:` line, or YAML with a `cells` key."""
    if board.detect(text):
        return _BOARD_CELLS.search(text) is not None
    return yaml_form.detect(text) and _YAML_CELLS.search(text) is not None


def read(text: str, source: str) -> WormHoleDeal:
    return read_board(text, source) if board.detect(text) else read_yaml(text, source)


def write(deal: WormHoleDeal, form: str) -> str:
    """The deal in `form`; ValueError if that form cannot hold it (board text: a standard deck's cards)."""
    if form == "board":
        return write_board(deal)
    if form == "yaml":
        return write_yaml(deal)
    raise ValueError(f"a Worm Hole deal is written as {' or '.join(FORMS)}, not {form}")


def read_board(text: str, source: str) -> WormHoleDeal:
    """Black Hole's board reader on the text with its `Cells:` line blanked (so every line keeps its
    number in messages); the cells line must be the second line that is not blank."""
    nonblank = ((number, line) for number, line in numbered_lines(text) if line.strip())
    next(nonblank, None)  # the foundation line: Black Hole's reader checks it
    number, line = next(nonblank, (1, ""))
    if not line.strip().startswith(CELLS):
        where = next((at for at, other in numbered_lines(text) if other.strip().startswith(CELLS)), number)
        raise InputError(source, where, f"expected '{CELLS} N' (the number of cells) after the foundation line")
    cells = whole(line.strip()[len(CELLS):], "the number of cells", 0, MAX_CELLS, source, number)
    lines = [other if at != number else "" for at, other in numbered_lines(text)]  # as board.read numbers them
    return WormHoleDeal(board.read("\n".join(lines), source), cells)


def write_board(deal: WormHoleDeal) -> str:
    first, rest = board.write(deal.black_hole).split("\n", 1)
    return f"{first}\n{CELLS} {deal.cells}\n{rest}"


def read_yaml(text: str, source: str) -> WormHoleDeal:
    """Black Hole's YAML reader (which ignores keys it does not know), and the `cells` key."""
    root = compose_yaml(text, source)
    document = construct_yaml(root, source)
    if not isinstance(document, dict) or "cells" not in document:
        raise InputError(source, 1, "a Worm Hole YAML deal needs a 'cells' count")
    cells = whole_value(document["cells"], "'cells'", 0, MAX_CELLS, source, yaml_line(yaml_child(root, "cells")))
    return WormHoleDeal(yaml_form.read(text, source), cells)


def write_yaml(deal: WormHoleDeal) -> str:
    first, rest = yaml_form.write(deal.black_hole).split("\n", 1)
    header = f"# {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles and {deal.cells} cell" \
             f"{'s' if deal.cells != 1 else ''}, each pile TOP card first"
    assert first.startswith("#"), "Black Hole's YAML starts with its comment line"
    return f"{header}\ncells: {deal.cells}\n{rest}"
