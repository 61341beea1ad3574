"""How deals, results, models and surveys show themselves in Jupyter: HTML made from the same replay
page as `patience show`, inside an iframe so that its style and script stay its own.

Nothing heavy is imported until something is shown: `import patience` stays cheap. Importing this
module installs `deal_html` as how every deal draws itself, and `result_html` as how a judged result
does (patience.core.install_drawer): `import patience` does, so the core never imports a page."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from patience.core import install_drawer
from patience.result import Result

if TYPE_CHECKING:
    from patience.games import AnyDeal

MODEL_LINES = 200  # lines of each model file shown; the rest is in `model.files`
# The replay page's measures in a notebook's width (about 1000 pixels), to size its frame before its
# script can: cards in a row, a card's height, the fan of a pile, what is above and below the table.
_ROW_CARDS, _CARD, _FAN, _FOUNDATION, _FRAME, _MOVES_ROW, _ROW_MOVES = 13, 73, 26, 165, 200, 23, 18
# Once loaded, the frame takes the height of its page (where the notebook lets an output run a handler).
_FIT = "this.style.height = (this.contentWindow.document.documentElement.scrollHeight + 4) + 'px'"


def replay_frame(deal: AnyDeal, moves: Sequence | None = None, source: str = "", notes: Sequence[str] = ()) -> str:
    """The replay page of `deal` (with `moves` to step through, or to play by hand) in an iframe."""
    from patience.games import game_of
    from patience.pages import replay

    game = game_of(deal)
    heading = game.label(deal) or game.describe(deal)
    page = replay.render(game.page(deal, moves, source), heading, notes)
    return page_frame(page, frame_height(deal, moves))


def page_frame(page: str, height: int) -> str:
    """A replay page (`patience show`'s, `patience.show`'s) in an iframe of about `height` pixels."""
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" title="replay" onload="{_FIT}" '
            f'style="width: 100%; height: {height}px; border: none; resize: vertical"></iframe>')


def frame_height(deal: AnyDeal, moves: Sequence | None) -> int:
    """About the height in pixels of the replay page of `deal` (and of the list of `moves`)."""
    from patience.games import game_of

    sizes = game_of(deal).sizes(deal)
    rows = -(-len(sizes.heights) // _ROW_CARDS)
    table = rows * (_CARD + _FAN * (max(sizes.heights, default=1) - 1)) + (rows - 1) * 14
    table = max(table, _FOUNDATION * max(sizes.foundations, 1))
    listed = 0 if not moves else 20 + 12 + _MOVES_ROW * -(-len(moves) // _ROW_MOVES)
    return _FRAME + table + listed


def deal_html(deal: AnyDeal) -> str:
    """A deal drawn as on the replay page (`_repr_html_` of every deal type)."""
    return replay_frame(deal)


def result_html(result: Result) -> str:
    """A judged result's facts and its replay (`_repr_html_` of patience.result.Result)."""
    facts = {"solver": f"{result.solver} ({result.version})" if result.version else result.solver,
             "status": result.status.value + (" (validated)" if result.validated else ""),
             "time": f"wall {result.wall:.3g} s, cpu {result.cpu:.3g} s"}
    if result.nodes is not None:
        facts["nodes"] = f"{result.nodes:,}"
    if result.message:
        facts["message"] = result.message
    return table(facts) + replay_frame(result.deal, result.sequence, f"{result.solver}'s answer")


install_drawer(deal_html)
install_drawer(result_html, Result)


def table(rows: Mapping[str, object]) -> str:
    """A two-column HTML table of names and values."""
    cells = "".join(f"<tr><th style='text-align: left'>{html.escape(str(key))}</th>"
                    f"<td style='text-align: left'>{html.escape(str(value))}</td></tr>" for key, value in rows.items())
    return f"<table>{cells}</table>"


def files_html(files: Mapping[str, str], lines: int = MODEL_LINES) -> str:
    """Each file of a model, folded, its first `lines` lines shown."""
    parts = []
    for name, text in files.items():
        shown = text.splitlines()
        cut = f"\n... ({len(shown) - lines:,} more lines)" if len(shown) > lines else ""
        parts.append(f"<details><summary><code>{html.escape(name)}</code> ({len(shown):,} lines)</summary>"
                     f"<pre>{html.escape(chr(10).join(shown[:lines]) + cut)}</pre></details>")
    return "".join(parts)
