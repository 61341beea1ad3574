"""Wolter's shuffle experiments: the GSR riffle's distribution, dealing and gathering, seeded
reproducibility, and a resumable run through the CLI."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from patience.cards import Card
from patience.cli import main
from patience.survey.experiment import ShuffleStore, plan
from patience.survey.shuffles import START, ShuffleBatch, cut, deal, gather, play_batch, riffle, shuffle, sorted_deck
from patience.validator import replay


def rising_sequences(order: list[int]) -> int:
    """How many maximal runs x, x+1, ... the permutation interleaves (a riffle of a sorted deck has at most 2)."""
    position = {card: index for index, card in enumerate(order)}
    return 1 + sum(position[card + 1] < position[card] for card in range(len(order) - 1))


def test_a_riffle_is_a_permutation_with_at_most_two_rising_sequences_and_n_riffles_two_to_the_n():
    rng = random.Random(5)
    for riffles in (1, 2, 3):
        for _ in range(200):
            order = list(range(52))
            for _ in range(riffles):
                order = riffle(order, rng)
            assert sorted(order) == list(range(52))
            assert rising_sequences(order) <= 2 ** riffles


def test_one_riffle_of_three_cards_has_the_gsr_distribution():
    """GSR on n cards: the identity with chance (n+1)/2**n, each other 2-rising-sequence permutation
    1/2**n, anything else never. For 3 cards: 1/2, four permutations at 1/8, the reversal never."""
    rng, trials = random.Random(7), 40_000
    seen = Counter(tuple(riffle([0, 1, 2], rng)) for _ in range(trials))
    assert seen[(2, 1, 0)] == 0 and len(seen) == 5
    for order, count in seen.items():
        chance = 1 / 2 if order == (0, 1, 2) else 1 / 8
        spread = (trials * chance * (1 - chance)) ** 0.5
        assert abs(count - trials * chance) < 5 * spread


def test_the_riffle_cut_is_binomial_and_the_final_cut_a_rotation():
    rng = random.Random(3)
    deck = list(range(52))
    tops = [cut(deck, rng)[0] for _ in range(4000)]
    once = cut(deck, rng)
    assert once == [*deck[once[0]:], *deck[:once[0]]]
    assert abs(sum(tops) / len(tops) - 26) < 0.3  # Binomial(52, 1/2) has mean 26, sd 3.6


def test_dealing_by_rows_and_by_columns():
    deck = sorted_deck()
    by_rows, by_columns = deal("black_hole", deck, "rows"), deal("black_hole", deck, "columns")
    for table in (by_rows, by_columns):
        assert table.foundation == START and len(table.piles) == 17 and {len(pile) for pile in table.piles} == {3}
    others = deck[1:]
    assert by_columns.piles[0] == (others[2], others[1], others[0])  # the last card dealt lies on top
    assert by_rows.piles[0] == (others[34], others[17], others[0])
    aiar = deal("all_in_a_row", deck, "rows")
    assert aiar.foundation is None and len(aiar.piles) == 13 and aiar.piles[12][0] == deck[51]


def test_gathering_puts_the_foundation_first_in_play_order_then_the_piles():
    table = deal("black_hole", shuffle(sorted_deck(), 7, random.Random(2)), "rows")
    play = (table.piles[5][0],) if table.piles[5][0].rank in (1, 12) else ()
    assert replay(table, list(play), complete=False).valid
    deck = gather(table, play)
    assert sorted(deck, key=lambda card: (card.suit, card.rank)) == sorted_deck()
    assert deck[:1 + len(play)] == [START, *play]
    assert deck[1 + len(play)] == (table.piles[0][0] if play != (table.piles[0][0],) else table.piles[0][1])


def test_a_chain_replays_from_its_seed_and_differs_from_the_next():
    batch = ShuffleBatch("black_hole", "gathered", "rows", 7, 0, 12, 11, 30.0)
    first, again = play_batch(batch), play_batch(batch)
    assert (first.won, first.undecided) == (again.won, again.undecided)
    decks = [shuffle(sorted_deck(), 7, ShuffleBatch("black_hole", "sorted", "rows", 7, number, 1, 11, 30.0).rng())
             for number in (0, 0, 1)]
    assert decks[0] == decks[1] != decks[2]
    assert all(isinstance(card, Card) for card in decks[0])


def test_plan_runs_round_by_round_and_skips_stored_chains():
    work = plan(["black_hole"], [1, 2], 5, 2, 0, 30.0, {("black_hole", "sorted", "rows", 1, 0)})
    assert len(work) == 3 * 8 - 1 and [batch.batch for batch in work][:7] == [0] * 7
    assert [batch.games for batch in work if batch.batch == 2] == [1] * 8


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row"])
def test_shuffles_command_resumes_and_reproduces(game, tmp_path, capsys):
    db, other = tmp_path / "s.db", tmp_path / "t.db"
    argv = ["survey", "shuffles", "--game", game, "--games", "6", "--batch", "3", "--riffles", "6-7", "--quiet"]
    assert main([*argv, "--db", str(db), "--plot", str(tmp_path / "s.png")]) == 0
    table = capsys.readouterr().out
    assert table.startswith("6 games a point; ") and "| 6 |" in table and "| 7 |" in table
    assert table.count("% (") == 8 and max(map(len, table.splitlines())) <= 100
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG")
    store = ShuffleStore(db)
    assert len(store.stored()) == 16
    store.close()
    assert main([*argv, "--db", str(db)]) == 0 and capsys.readouterr().out == table
    assert main([*argv, "--db", str(other)]) == 0 and capsys.readouterr().out == table
