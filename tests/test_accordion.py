"""Accordion by its name: `accordion` names the lbs game, and PyCSP3's Accordion data
(`{"cards": [...]}`, xcsp3team/PyCSP3-models recreational/Accordion) is read and written as a deal."""

from __future__ import annotations

import pytest

from patience.cli import main
from patience.errors import InputError
from patience.exit_codes import ExitCode
from patience.games import deal_content, get_game, parse_game_deal, write_game_deal
from patience.lbs.deal import LBSDeal, random_deal, read_param, read_pycsp3, write_param
from patience.lbs.solver import solve as search
from patience.names import LBS, game_name
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import needs_solver

# recreational/Accordion/11-01.json of PyCSP3-models, byte for byte
PYCSP3_EXAMPLE = '{\n    "cards": [17, 11, 49, 3, 18, 0, 10, 8, 42, 30, 6]\n}\n'


def test_accordion_is_a_name_of_lbs():
    assert game_name("accordion") == game_name("Accordion") == LBS
    assert get_game("accordion") is get_game(LBS)


def test_the_pycsp3_example_reads_and_writes_back_byte_for_byte():
    game, deal = parse_game_deal(PYCSP3_EXAMPLE, "data/11-01.json")
    assert game is get_game(LBS) and isinstance(deal, LBSDeal)
    assert deal.cards == (17, 11, 49, 3, 18, 0, 10, 8, 42, 30, 6) and deal.name == "11-01"
    assert write_game_deal(deal, "json") == PYCSP3_EXAMPLE


@pytest.mark.parametrize("seed", range(5))
def test_param_and_pycsp3_round_trip_to_the_same_deal(seed):
    deal = random_deal(5 + seed * 9, seed)
    text = write_game_deal(deal, "json")
    back = read_pycsp3(text, "x.json")
    assert back.cards == deal.cards and deal_content(get_game(LBS), back) == deal_content(get_game(LBS), deal)
    assert read_param(write_param(back), "x.param").cards == deal.cards


def test_a_generalised_deal_is_not_written_as_pycsp3_data():
    with pytest.raises(Exception, match="only standard deals"):
        write_game_deal(random_deal(6, 1, ranks=7, suits=3), "json")


@pytest.mark.parametrize("text, message", [
    ('{"cards": [1, 1]}', r"cards\[1\]: card 1 \(2♥\) appears twice"),
    ('{"cards": [1, 52]}', r"cards\[1\] is '52', not a card number 0..51"),
    ('{"cards": [-1]}', "not a card number"),
    ('{"cards": [1, true]}', "'true', not a card number"),
    ('{"cards": [1.0]}', "not a card number"),
    ('{"cards": "1 2"}', "must be a non-empty list"),
    ('{"cards": []}', "must be a non-empty list"),
    ('{"cards": [1], "n": 1}', "unknown key 'n'"),
    ('{"cards": [1], "cards": [2]}', "key 'cards' appears twice"),
    ('{"cards": [1, 2', "bad JSON"),
    ('{"cards": [' + "1," * 20_000 + "2]}", "more than the cap"),
])
def test_malformed_pycsp3_data_is_one_clear_line(text, message):
    with pytest.raises(InputError, match=message) as error:
        parse_game_deal(text, "bad.json")
    assert "\n" not in str(error.value) and str(error.value).startswith("bad.json")


def test_the_commands_read_and_write_it(tmp_path, capsys):
    deal = tmp_path / "deal.json"
    deal.write_text(PYCSP3_EXAMPLE)
    assert main(["convert", str(deal), "--to", "param", "--game", "accordion"]) == ExitCode.SOLVED
    assert capsys.readouterr().out == "letting cards be [17,11,49,3,18,0,10,8,42,30,6]\n"
    param = tmp_path / "deal.param"
    param.write_text(write_param(random_deal(8, 2)))
    assert main(["convert", str(param), "--to", "json"]) == ExitCode.SOLVED
    assert capsys.readouterr().out == '{\n    "cards": [3, 5, 50, 23, 10, 42, 19, 16]\n}\n'
    deal.write_text('{"cards": [3, 3]}')
    assert main(["solve", str(deal), "--game", "accordion"]) == ExitCode.BAD_INPUT
    assert capsys.readouterr().err.count("\n") == 1


def _deals() -> list[LBSDeal]:
    """PyCSP3 data of both verdicts: the published example (no win) and row 8 of seed 2 (a win)."""
    texts = [PYCSP3_EXAMPLE, write_game_deal(random_deal(8, 2), "json")]
    return [read_pycsp3(text, f"deal{index}.json") for index, text in enumerate(texts)]


@pytest.mark.parametrize("solver", ["native", pytest.param("sat", marks=needs_solver("sat"))])
def test_deals_read_from_pycsp3_data_are_solved_and_wins_replayed(solver):
    verdicts = []
    for deal in _deals():
        result = solve(deal, solver, Limits(timeout=60))
        verdicts.append(result.status.value)
        if result.sequence is not None:
            assert get_game(LBS).replay(deal, result.sequence).valid
    # the verdicts of the in-process search, which no runner or model file is part of
    assert verdicts == [search(deal, timeout=60).verdict for deal in _deals()] == ["unsolvable", "solved"]
