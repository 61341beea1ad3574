"""Deal forms: reading, writing, round trips, PySol byte-for-byte, and bad input."""

from __future__ import annotations

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random import RandomBase

from patience.cards import Card, parse_card
from patience.deal import ALL_IN_A_ROW, BLACK_HOLE, GENERALISED, Deal
from patience.errors import InputError
from patience.formats import FORMATS, parse_deal, read_deal, write_deal
from patience.generators.deals import pysol_board, pysol_deal, random_deal
from tests.helpers import INSTANCES


def test_board_lists_piles_bottom_first_and_deal_top_first(paper_deal):
    # The paper lists its first pile top first as 4D 9S 8S; the board line is "8S 9S 4D".
    assert paper_deal.piles[0] == (parse_card("4D"), parse_card("9S"), parse_card("8S"))
    assert paper_deal.foundation == Card(0, 0)
    assert paper_deal.game == BLACK_HOLE
    assert write_deal(paper_deal, "board").splitlines()[1] == "8S 9S 4D"


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row"])
@pytest.mark.parametrize("seed", [1, 2, 17, 1230, 24000])
def test_pysol_deal_matches_pysol_cards_byte_for_byte(game, seed):
    expected = Game(game, seed, RandomBase.DEALS_PYSOLFC, 13).calc_deal_string(seed, CardRenderer(True))
    assert pysol_board(game, seed) == expected
    deal = pysol_deal(game, seed)
    assert deal.game == (BLACK_HOLE if game == "black_hole" else ALL_IN_A_ROW)
    assert write_deal(deal, "board") == expected


def test_different_seeds_give_different_deals():
    assert pysol_board("black_hole", 1) != pysol_board("black_hole", 2)


STANDARD_FORMS = ["board", "yaml", "param", "dzn", "json"]


@pytest.mark.parametrize("form", STANDARD_FORMS)
def test_every_form_round_trips_a_black_hole_deal(form, paper_deal):
    text = write_deal(paper_deal, form)
    assert FORMATS[form].detect(text)
    assert parse_deal(text, f"x.{form}") == paper_deal


@pytest.mark.parametrize("form", ["board", "yaml", "dzn", "json"])
def test_all_in_a_row_round_trips(form):
    deal = pysol_deal("all_in_a_row", 5)
    assert parse_deal(write_deal(deal, form), "x") == deal


def test_generalised_deal_round_trips_through_yaml_only():
    deal = random_deal(ranks=7, suits=3, pile_height=4, seed=11)
    assert deal.game == GENERALISED
    assert parse_deal(write_deal(deal, "yaml"), "x.yaml") == deal
    with pytest.raises(ValueError):
        write_deal(deal, "board")


def test_random_deal_is_reproducible_and_complete():
    first = random_deal(ranks=5, suits=4, pile_height=3, seed=3)
    assert first == random_deal(ranks=5, suits=4, pile_height=3, seed=3)
    assert first != random_deal(ranks=5, suits=4, pile_height=3, seed=4)
    assert len(first.all_cards) == 20 and first.foundation == Card(0, 0)
    assert [len(pile) for pile in first.piles] == [3] * 6 + [1]


def test_csplib_param_is_top_first_with_ace_of_spades_on_the_foundation():
    deal = read_deal(INSTANCES / "csplib-prob081" / "PN-1.param")
    # PN-1 starts [42, 35, 40, ...]: card 42 = rank 3 (4), suit 3 (C) is the top of pile 0.
    assert deal.piles[0] == (Card(3, 3), Card(9, 2), Card(1, 3))
    assert deal.foundation == Card(0, 0) and deal.game == BLACK_HOLE


def test_shipped_csplib_boards_equal_their_params():
    params = sorted((INSTANCES / "csplib-prob081").glob("*.param"))
    assert len(params) == 102
    for param in params:
        assert read_deal(param.with_suffix(".txt")) == read_deal(param)


def test_pycsp3_notebook_example_reads():
    text = '{"m": 4, "piles": [[1,4,13],[15,9,6],[14,2,12],[7,8,5],[11,10,3]]}'
    deal = parse_deal(text, "bh.json")
    assert deal.ranks == 4 and deal.foundation == Card(0, 0)
    assert deal.piles[0] == (Card(1, 0), Card(0, 1), Card(1, 3))


def test_dzn_with_52_cards_has_an_empty_foundation():
    deal = pysol_deal("all_in_a_row", 9)
    assert parse_deal(write_deal(deal, "dzn"), "x.dzn").foundation is None


BAD_DEALS = [
    ("", 1, "empty file"),
    ("Foundations: AS\n8S 9S 4D\n5D 9H XX\n", 3, "unknown card 'XX'"),
    ("Foundations: AS\n8S 9S 4D\n5D 9H 4D\n", 3, "appears twice"),
    ("Foundations: AS\n8S AS 4D\n", 2, "appears twice"),
    ("8S 9S 4D\n", 1, "not a deal"),
    ("Foundations: AS\n", 1, "no piles"),
    ("piles: [[AS, 2S], [3S\n", None, "bad YAML"),
    ("ranks: 5\npiles:\n  - [r1s0, r7s0]\n", None, "no rank in 0..4"),
    ("letting initialStacks be [1, 2, 3]\n", 1, "expected 51 card numbers"),
    ("letting initialStacks be [1, 2,\n x]\n", 2, "'x' is not a card number"),
    ('{"m": 4, "piles": [[1, 2], [2]]}', 1, "appears twice"),
    ('{"m": 4, "piles": [[1, 2], [3]', 1, "bad JSON"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD_DEALS)
def test_bad_deals_raise_one_input_error_with_the_line(tmp_path, text, line, message):
    path = tmp_path / "deal.txt"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        read_deal(path)
    assert message in caught.value.message
    if line is not None:
        assert caught.value.line == line
    assert str(caught.value).startswith(str(path))


def test_deal_rejects_duplicates_and_empty_piles():
    with pytest.raises(ValueError):
        Deal(((Card(1, 0),), (Card(1, 0),)), None)
    with pytest.raises(ValueError):
        Deal(((),), None)
