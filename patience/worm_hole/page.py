"""Worm Hole's replay page data (`patience show`): Black Hole's, the cells, and each move as [card, park]."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

from patience.games.black_hole import page_data as black_hole_page_data
from patience.names import GAME_TITLES
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move
from patience.worm_hole.rules import move_name, replay, without_start_card


def page_data(deal: WormHoleDeal, moves: Sequence[Move] | None, source: str = "") -> dict[str, object]:
    """Black Hole's data of the deal's cards (numbered foundation card first, then the piles, top card
    first), its `wormHole` layout and cells; the answer's legal moves as [card, 1 if parked else 0]."""
    game = black_hole_page_data(deal.black_hole, None)
    game.update({"game": deal.game, "title": GAME_TITLES[deal.game], "layout": "wormHole", "cells": deal.cells,
                 "help": "click a card, then the foundation or an empty cell"})
    if moves is None:
        return game
    index = {card: number for number, card in enumerate(deal.all_cards)}
    moves = without_start_card(deal, moves)
    outcome = replay(deal, moves)  # as `patience validate` calls it: the same words
    answer: dict[str, object] = {"source": source, "verdict": outcome.describe(), "fault": None,
                                 "moves": [[index[move.card], int(move.park)] for move in moves[:outcome.moves]]}
    if outcome.fault is not None:
        illegal = moves[outcome.moves] if outcome.moves < len(moves) else None
        answer["fault"] = {"text": outcome.describe(), "move": outcome.moves + 1 if illegal else None,
                           "name": move_name(deal, illegal) if illegal else None,
                           "card": index.get(illegal.card) if illegal else None}
    game["answer"] = answer
    return game


def page_script() -> str:
    """The page's `wormHole` layout (page.js beside this module)."""
    return resources.files("patience.worm_hole").joinpath("page.js").read_text(encoding="utf-8")
