"""Deciding a batch of numbered deals with the native search in max-cards mode, in a worker.

`decide_batch` is the one place that calls the search per deal; a batch entry point of the engine
can replace its loop without touching the rest of the survey."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from patience.cards import Card
from patience.deal import Deal
from patience.generators.deals import pysol_deal
from patience.native import engine
from patience.survey.store import LOST, UNDECIDED, WON, Row
from patience.validator import replay

RULES = {"cache": True, "symmetry": True, "wolter": True, "reach": True}


@dataclass(frozen=True)
class Batch:
    """Deals `seeds` of `game` under `numbering`, each searched for at most `seconds`."""

    game: str
    numbering: str
    seeds: tuple[int, ...]
    seconds: float


class UntrustedPlay(RuntimeError):
    """The search reported a play that the validator rejects: the survey must stop, not store it."""


def decide(deal: Deal, seconds: float | None, max_cards: bool = True) -> tuple[int, int, int, tuple[Card, ...]]:
    """(verdict, most cards removable, nodes, the play found) of one deal. The play the search
    reports (a win, or in max-cards mode the longest play) is replayed first: the survey trusts the
    search no more than any solver. A search cut short reports no play, only its longest length;
    outside max-cards mode a lost deal has no play either."""
    outcome, _ = engine.run(deal, None, RULES, max_cards, None, seconds)
    play = outcome.sequence or ()
    checked = replay(deal, list(play), complete=outcome.status == engine.SOLVED)
    if not checked.valid or (outcome.sequence is not None and max_cards and len(play) != outcome.max_cards):
        raise UntrustedPlay(f"the search's play of {len(play)} cards (claimed {outcome.max_cards}) "
                            f"does not replay: {checked.fault}")
    verdict = {engine.SOLVED: WON, engine.UNSOLVABLE: LOST}.get(outcome.status, UNDECIDED)
    return verdict, outcome.max_cards, outcome.nodes, play


def decide_batch(batch: Batch) -> list[Row]:
    """Every deal of the batch, in order."""
    rows = []
    for seed in batch.seeds:
        started = time.perf_counter()
        try:
            verdict, cards, nodes, _ = decide(pysol_deal(batch.game, seed, batch.numbering), batch.seconds)
        except UntrustedPlay as error:
            raise UntrustedPlay(f"{batch.game} deal {seed}: {error}") from None
        rows.append(Row(seed, verdict, cards, nodes, time.perf_counter() - started))
    return rows


def batches(game: str, numbering: str, seeds: Sequence[int], size: int, seconds: float) -> list[Batch]:
    return [Batch(game, numbering, tuple(seeds[start:start + size]), seconds) for start in range(0, len(seeds), size)]
