"""The replay validator: the published solution wins, and each kind of fault is named with its move."""

from __future__ import annotations

import pytest

from patience.answers import read_answer
from patience.cards import Card, parse_card
from patience.cli import main
from patience.deal import Deal
from patience.validator import replay
from tests.helpers import INSTANCES

PAPER_SOLUTION = (INSTANCES / "black_hole" / "paper-example.solution").read_text()


def cards(text: str) -> list[Card]:
    return [parse_card(token) for token in text.split()]


def paper_sequence(deal: Deal) -> list[Card]:
    return list(read_answer(PAPER_SOLUTION, "paper", deal))


def test_published_solution_wins_with_or_without_the_start_card(paper_deal):
    sequence = paper_sequence(paper_deal)
    assert sequence[0] == Card(0, 0) and len(sequence) == 52
    assert replay(paper_deal, sequence).describe() == "valid: 51 moves"
    assert replay(paper_deal, sequence[1:]).valid


def test_a_card_played_before_the_card_above_it_is_named(paper_deal):
    sequence = paper_sequence(paper_deal)
    # Move 6 played 7S off the pile 7S JH 2H; at move 7 (8H in the solution) 2H still lies under JH.
    broken = sequence[:7] + [parse_card("2H")] + sequence[8:]
    outcome = replay(paper_deal, broken)
    assert outcome.describe() == "invalid: move 7: 2H is under JH"
    assert outcome.moves == 6


def test_a_card_that_does_not_follow_is_named(paper_deal):
    sequence = paper_sequence(paper_deal)
    swapped = sequence[:]
    swapped[10], swapped[11] = swapped[11], swapped[10]  # ... 8S 9C TS -> 8S TS 9C
    assert replay(paper_deal, swapped).describe() == "invalid: move 10: TS does not follow 8S"


def test_cards_left_and_repeats_and_strangers(paper_deal):
    sequence = paper_sequence(paper_deal)
    assert replay(paper_deal, sequence[:-3]).describe() == "invalid: 3 cards left"
    assert replay(paper_deal, sequence[:-3], complete=False).valid
    assert "already played at move 1" in replay(paper_deal, sequence[:3] + [sequence[1]]).describe()
    assert replay(paper_deal, sequence[:1] + [Card(0, 0)]).fault is not None


def test_ranks_wrap_around_king_to_ace():
    deal = Deal(((parse_card("KH"),), (parse_card("AH"),), (parse_card("2H"),)), parse_card("QS"))
    assert replay(deal, cards("KH AH 2H")).valid
    assert not replay(deal, cards("AH KH 2H")).valid


def test_all_in_a_row_first_card_is_free():
    deal = Deal(((parse_card("9D"), parse_card("TD")), (parse_card("8C"),)), None)
    assert replay(deal, cards("9D 8C")).describe() == "invalid: 1 card left"
    assert replay(deal, cards("9D TD")).describe() == "invalid: 1 card left"
    assert replay(deal, cards("8C 9D TD")).valid
    assert replay(deal, cards("TD 9D 8C")).describe() == "invalid: move 1: TD is under 9D"


def test_generalised_cycle_of_three_ranks():
    deal = Deal(((Card(2, 0), Card(1, 1)), (Card(1, 0),)), Card(0, 0), ranks=3)
    assert replay(deal, [Card(2, 0), Card(1, 1), Card(1, 0)]).describe() == "invalid: move 3: r1s0 does not follow r1s1"
    assert replay(deal, [Card(1, 0), Card(2, 0), Card(1, 1)]).valid


def test_black_hole_solve_transcript_is_read(paper_deal):
    sequence = paper_sequence(paper_deal)[1:]
    lines = ["Solved!"]
    for card in sequence:
        pile = paper_deal.position[card][0]
        lines += [f"Move a card from stack {pile} to the foundations", "", f"Info: Card moved is {card}", ""]
    assert read_answer("\n".join(lines), "bhs.txt", paper_deal) == tuple(sequence)


@pytest.mark.parametrize("game", ["black_hole", "binary_star"])
def test_the_output_of_solve_validates_as_an_answer(tmp_path, capsys, game):
    deal, answer = tmp_path / "deal.txt", tmp_path / "answer.txt"
    assert main(["deal", "--game", game, "--seed", "3"]) == 0
    deal.write_text(capsys.readouterr().out)
    assert main(["solve", str(deal), "--solver", "native"]) == 0
    transcript = capsys.readouterr().out
    answer.write_text(transcript)
    assert main(["validate", str(deal), str(answer)]) == 0
    assert capsys.readouterr().out.startswith("valid: ")
    answer.write_text(transcript.replace("status: solved", "status: unknown"))
    assert main(["validate", str(deal), str(answer)]) == 2
    assert f"{answer}:3: the answer says status unknown" in capsys.readouterr().err
