"""The replay page: a deal and an answer as one self-contained HTML file.

Each game describes a deal once in Python as plain JSON (its cards, its layout, the answer's moves
and the validator's verdict): its `Game.page` hook, in the game's own package; the page's script only
draws that description and applies the same rules for interactive play. The verdict and the first illegal move
come from the project's validators, so the page says what `patience validate` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

import jinja2

from patience.games import AnyDeal, get_game
from patience.names import game_name


def game_page(game: str, deal: AnyDeal, moves: Sequence | None, source: str = "") -> dict[str, object]:
    """The page's description of a deal of any game and of the answer's moves (None: play by hand):
    the game's own (`Game.page`); the page draws whatever game gives it."""
    return get_game(game_name(game)).page(deal, moves, source)



def verdict(game: dict[str, object]) -> str | None:
    """The replay's verdict on the answer of a page's game description (`game_page`); None without an answer."""
    answer = game["answer"]
    return str(answer["verdict"]) if isinstance(answer, dict) else None


def asset(name: str) -> str:
    return resources.files("patience.templates").joinpath(name).read_text(encoding="utf-8")


def environment() -> jinja2.Environment:
    """The pages' templates; HTML-escaped by default, JSON embedded with `tojson` (safe inside <script>)."""
    return jinja2.Environment(loader=jinja2.PackageLoader("patience.templates", "."),
                              autoescape=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)


def render(game: dict[str, object], heading: str, notes: Sequence[str] = (), back: str | None = None) -> str:
    """The whole page: template, style, script and the game description in one HTML file, with the
    game's own script when it draws a layout of its own (`Game.page_script`; `back`: where a link back
    to the page that led here points, such as a report)."""
    return environment().get_template("replay.html.j2").render(
        game=game, heading=heading, notes=list(notes), back=back, style=asset("replay.css"), script=asset("replay.js"),
        game_script=get_game(str(game["game"])).page_script())
