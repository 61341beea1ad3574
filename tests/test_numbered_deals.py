"""The survey's fast path for numbered Black Hole and All in a Row deals: our own copy of pysol_cards'
shuffles deals what pysol_cards deals, number for number in every numbering; `replay_numbers` answers
as `replay` does, on legal and illegal plays; and `decide_numbered` gives `decide`'s verdict, most
cards and nodes, and refuses a play that does not replay."""

from __future__ import annotations

import random

import pytest

from patience.cards import Card
from patience.deal import Deal
from patience.formats import board
from patience.generators.deals import (
    ACE_OF_SPADES_NUMBER,
    CARD_NUMBERS,
    LAST_SEED,
    MS_DEALS_END,
    numbered_piles,
    pysol_board,
    pysol_deal,
)
from patience.native import engine
from patience.result import Status
from patience.survey import decide as survey_decide
from patience.survey.decide import Batch, UntrustedPlay, decide, decide_batch, decide_numbered
from patience.validator import replay, replay_numbers

GAMES = ["black_hole", "all_in_a_row"]
SEEDS = random.Random(41)
# Per numbering: the small numbers, the generator's edges, and numbers drawn from its whole range.
NUMBERS = {
    "pysolfc": [*range(1, 41), MS_DEALS_END - 1, MS_DEALS_END, MS_DEALS_END + 1, LAST_SEED["pysolfc"],
                *(SEEDS.randrange(MS_DEALS_END, LAST_SEED["pysolfc"]) for _ in range(60)),
                *(SEEDS.randrange(MS_DEALS_END, 2_000_000) for _ in range(60))],
    "pysol": [*range(1, 11), MS_DEALS_END, MS_DEALS_END + 1, LAST_SEED["pysol"],
              *(SEEDS.randrange(MS_DEALS_END, LAST_SEED["pysol"]) for _ in range(60))],
    "ms": [*range(1, 11), 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, LAST_SEED["ms"],
           *(SEEDS.randrange(1, 2**31) for _ in range(30)), *(SEEDS.randrange(2**31, 2**32) for _ in range(30)),
           *(SEEDS.randrange(2**32, LAST_SEED["ms"]) for _ in range(30))],
}


@pytest.mark.parametrize("numbering", sorted(NUMBERS))
@pytest.mark.parametrize("game", GAMES)
def test_our_shuffle_deals_what_pysol_cards_deals(game, numbering):
    """pysol_board is pysol_cards' own dealing, written out and read back: hundreds of numbers."""
    for seed in NUMBERS[numbering]:
        expected = board.read(pysol_board(game, seed, numbering), "text")
        assert pysol_deal(game, seed, numbering) == expected, (numbering, seed)
        piles = numbered_piles(game, seed, numbering)
        assert tuple(tuple(CARD_NUMBERS[card] for card in pile) for pile in piles) == expected.piles


def test_card_numbers_are_suit_times_13_plus_rank():
    assert CARD_NUMBERS[ACE_OF_SPADES_NUMBER] == Card(0, 0)
    assert all(card == Card(number % 13, number // 13) for number, card in enumerate(CARD_NUMBERS))
    with pytest.raises(ValueError):
        numbered_piles("binary_star", 1)
    with pytest.raises(ValueError):
        numbered_piles("black_hole", 0)


def _random_play(deal: Deal, rng: random.Random) -> list[Card]:
    """A legal play chosen at random, then, now and then, broken in one of the ways a search could."""
    tops, hole, play = [0] * len(deal.piles), deal.foundation, []
    while True:
        free = [index for index, pile in enumerate(deal.piles) if tops[index] < len(pile)
                and (hole is None or deal.adjacent(hole, pile[tops[index]]))]
        if not free:
            break
        index = rng.choice(free)
        hole = deal.piles[index][tops[index]]
        tops[index] += 1
        play.append(hole)
    fault = rng.randrange(7)
    if fault == 1 and play:
        play.insert(rng.randrange(len(play) + 1), rng.choice(deal.cards))  # out of order or played twice
    elif fault == 2 and len(play) > 1:
        play.pop(rng.randrange(len(play) - 1))
    elif fault == 3:
        play.insert(rng.randrange(len(play) + 1), Card(5, 7))  # in no deal
    elif fault == 4 and deal.foundation is not None:
        play.insert(rng.randrange(len(play) + 1), deal.foundation)
    elif fault == 5 and deal.foundation is not None:
        play.insert(0, deal.foundation)  # a leading start card is allowed
    return play


@pytest.mark.parametrize("game", GAMES)
def test_replay_numbers_answers_as_replay_does(game):
    rng = random.Random(7)
    faults = set()
    for seed in range(1, 61):
        deal = pysol_deal(game, seed)
        piles = numbered_piles(game, seed)
        foundation = ACE_OF_SPADES_NUMBER if deal.foundation is not None else None
        for _ in range(5):
            play = _random_play(deal, rng)
            numbers = [card.suit * 13 + card.rank for card in play]
            for complete in (True, False):
                expected = replay(deal, play, complete)
                assert replay_numbers(piles, foundation, 13, numbers, complete) == expected
                faults.add(expected.fault.split(": ")[-1].split(" ", 1)[-1] if expected.fault else None)
    assert None in faults and len(faults) >= 5  # wins or good prefixes, and several kinds of fault


@pytest.mark.parametrize(("game", "seeds"), [("black_hole", [*range(1, 25), 32001, 500001]),
                                             ("all_in_a_row", [*range(1, 9), 32001])])
def test_decide_numbered_equals_decide_on_the_deal(game, seeds):
    """The same verdict and most cards; the same nodes too when the search from the front decides
    before the back joins it (within ALONE nodes, or its first round of 250; All in a Row 6 and 7 take
    more, and are decided in fewer with the back's help)."""
    for seed in seeds:
        deal = pysol_deal(game, seed)
        for max_cards, nodes in ((True, None), (False, None), (True, 150)):
            verdict, cards, spent, _ = decide(deal, 30.0, max_cards, nodes)
            found = decide_numbered(game, seed, "pysolfc", 30.0, max_cards, nodes)
            assert found[:2] == (verdict, cards), seed
            assert found[2] == spent or spent > max(survey_decide.ALONE[game], 250), seed
    rows = decide_batch(Batch(game, "pysolfc", tuple(seeds[:4]), 30.0))
    assert [(row.verdict, row.cards) for row in rows] == [
        decide(pysol_deal(game, seed), 30.0)[:2] for seed in seeds[:4]]


@pytest.mark.parametrize("game", GAMES)
def test_one_call_from_the_front_and_back_in_turns_gives_decides_row(game, monkeypatch):
    """decide_in_turns with the back joining after 40 nodes: wins found from the front and from the
    back, losses decided from the front (after the back proved them, for All in a Row's lost at 51),
    and a node limit that leaves a deal undecided, each with `decide`'s verdict and most cards."""
    survey, routes = engine.survey_ranks, []

    def watched(*args, **kwargs):
        found = survey(*args, **kwargs)
        routes.append((found[0], found[1]))
        return found

    monkeypatch.setitem(survey_decide.ALONE, game, 40)
    monkeypatch.setattr(engine, "survey_ranks", watched)
    for seed in range(1, 31 if game == "black_hole" else 13):  # All in a Row 7 is lost at 51 of 52
        expected = decide(pysol_deal(game, seed), 30.0)
        assert decide_numbered(game, seed, "pysolfc", 30.0)[:2] == expected[:2], seed
        assert decide_numbered(game, seed, "pysolfc", 30.0, nodes=500)[0] in (expected[0], Status.UNKNOWN)
    assert {(Status.SOLVED, 0), (Status.SOLVED, 1), (Status.UNSOLVABLE, 0)} <= set(routes)
    assert Status.UNKNOWN in {status for status, _ in routes}


@pytest.mark.parametrize("broken", ["reversed", "short", "claimed won", "a win from the back"])
def test_decide_in_turns_refuses_a_play_that_does_not_replay(broken, monkeypatch):
    survey = engine.survey_ranks

    def lying(*args, **kwargs):
        status, which, longest, back_win, nodes, claimed = survey(*args, **kwargs)
        if broken == "a win from the back":
            return status, which, longest, back_win[1:] + back_win[:1], nodes, claimed
        if broken == "reversed":
            return status, which, longest[::-1], back_win, nodes, claimed
        if broken == "short":
            return status, which, longest[:-1], back_win, nodes, claimed
        return Status.SOLVED, which, longest, back_win, nodes, claimed

    monkeypatch.setattr(engine, "survey_ranks", lying)
    monkeypatch.setitem(survey_decide.ALONE, "black_hole", 10)
    seed = 3 if broken == "a win from the back" else 1  # 3: won from the back; 1: lost with 3 cards
    with pytest.raises(UntrustedPlay):
        decide_numbered("black_hole", seed, "pysolfc", 30.0)
    with pytest.raises(UntrustedPlay, match=f"black_hole deal {seed}"):
        decide_batch(Batch("black_hole", "pysolfc", (seed,), 30.0))


@pytest.mark.parametrize("broken", ["reversed", "short"])
def test_decide_numbered_refuses_a_play_that_does_not_replay(broken, monkeypatch):
    """Decision mode's one search (max-cards mode's is decide_in_turns, tested above)."""
    search = engine.search_ranks

    def lying(*args, **kwargs):
        status, order, nodes, longest = search(*args, **kwargs)
        return (status, order[::-1], nodes, longest) if broken == "reversed" else (Status.SOLVED, order[:-1], nodes,
                                                                                  longest)

    monkeypatch.setattr(engine, "search_ranks", lying)
    seed = 3  # won
    for kept in (None, []):
        with pytest.raises(UntrustedPlay):
            decide_numbered("black_hole", seed, "pysolfc", 30.0, max_cards=False, kept=kept)


def test_without_the_compiled_search_the_survey_decides_through_the_deal(monkeypatch):
    rows = decide_batch(Batch("all_in_a_row", "pysolfc", (1, 2), 30.0))
    monkeypatch.setattr(survey_decide.engine, "compiled", lambda: False)
    monkeypatch.setattr(survey_decide, "decide_numbered", None)  # would fail if called
    assert [row[:4] for row in decide_batch(Batch("all_in_a_row", "pysolfc", (1, 2), 30.0))] == [
        row[:4] for row in rows]
