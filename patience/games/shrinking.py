"""Shrink steps a game's `smaller` hook can share (the hunt's shrinker, patience/grading/hunt.py):
deals of `piles` (top card first) made one step simpler, as Hypothesis shrinks a failing example."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

Piled = TypeVar("Piled")  # a frozen dataclass deal with `piles` (tuples of cards) and `cards`, pile by pile


def smaller_piles(deal: Piled) -> Iterator[Piled]:
    """A pile fewer, then a card fewer (any deal with `piles`: the foundations stay as they are)."""
    piles = _piles(deal)
    for index in range(len(piles)):
        if len(piles) > 1:
            yield _with_piles(deal, piles[:index] + piles[index + 1:])
    for index, pile in enumerate(piles):
        for depth in range(len(pile)):
            rest = pile[:depth] + pile[depth + 1:]
            if rest:
                yield _with_piles(deal, piles[:index] + (rest,) + piles[index + 1:])


def simpler_order(deal: Piled) -> Iterator[Piled]:
    """The same cards with one pair swapped so that a place gets the rank it has in sorted order, from
    a place that has the wrong rank too: each step puts one more rank in its sorted place. Never two
    cards of one rank, whose swap leaves the game as it was (its rules see ranks alone)."""
    cards = [card for pile in _piles(deal) for card in pile]
    ranks = sorted(card.rank for card in cards)
    for index, card in enumerate(cards):
        if card.rank != ranks[index]:
            other = next(j for j in (*range(index + 1, len(cards)), *range(index))  # a later card first
                         if cards[j].rank == ranks[index] != ranks[j])
            swapped = cards[:]
            swapped[index], swapped[other] = swapped[other], swapped[index]
            yield regrouped(deal, swapped)


def regrouped(deal: Piled, cards: Sequence[Any]) -> Piled:
    """`cards` laid out in piles of the deal's heights, in order."""
    piles, start = [], 0
    for pile in _piles(deal):
        piles.append(tuple(cards[start:start + len(pile)]))
        start += len(pile)
    return _with_piles(deal, tuple(piles))


def _piles(deal: Any) -> tuple[tuple[Any, ...], ...]:
    return tuple(deal.piles)


def _with_piles(deal: Piled, piles: tuple[tuple[Any, ...], ...]) -> Piled:
    return dataclasses.replace(deal, piles=piles)  # type: ignore[type-var]
