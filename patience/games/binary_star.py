"""Binary Star (Thomas Warfield): Black Hole with two decks and two foundations, A♠ and K♥."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from patience.answers import is_solve_transcript, transcript_sequence
from patience.binary_star import forms
from patience.binary_star.deal import BinaryStarDeal, Play
from patience.binary_star.rules import play_names, read_plays, replay, resolved
from patience.names import BINARY_STAR
from patience.validator import Replay


class BinaryStar:
    """A move is a `Play`: the top card of a pile onto one of the foundations; a win plays every
    pile card. Answers are `CARD FOUNDATION PILE` lines."""

    name: ClassVar[str] = BINARY_STAR
    title: ClassVar[str] = "Binary Star (two decks, two foundations)"
    deal_type: ClassVar[type] = BinaryStarDeal
    forms: ClassVar[tuple[str, ...]] = forms.FORMS

    def detect(self, text: str) -> bool:
        return forms.detect(text)

    def parse_deal(self, text: str, source: str) -> BinaryStarDeal:
        return forms.read(text, source)

    def write_deal(self, deal: BinaryStarDeal, form: str) -> str:
        return forms.write(deal, form)

    def variant(self, deal: BinaryStarDeal) -> str:
        return deal.game

    def describe(self, deal: BinaryStarDeal) -> str:
        return (f"{deal.game}, {len(deal.cards)} cards in {len(deal.piles)} piles, "
                f"{len(deal.foundations)} foundations")

    def read_answer(self, text: str, source: str, deal: BinaryStarDeal) -> tuple[Play, ...]:
        return read_plays(transcript_sequence(text, source) if is_solve_transcript(text) else text, source)

    def replay(self, deal: BinaryStarDeal, moves: Sequence[Play], complete: bool = True) -> Replay:
        return replay(deal, moves, complete)

    def canonical(self, deal: BinaryStarDeal, moves: Sequence[Play]) -> tuple[Play, ...]:
        """Every play with its pile named, so a stored answer never depends on a search."""
        named = resolved(deal, moves)
        return named if len(named) == len(moves) else tuple(moves)

    def move_names(self, deal: BinaryStarDeal, moves: Sequence[Play]) -> list[str]:
        return play_names(deal, moves)
