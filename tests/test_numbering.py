"""Deal numbering: PySolFC's by default, byte for byte as pysol_cards' board maker prints it with -F,
old PySol's and Microsoft's on request, and the numbering kept in the deal's name. One rule for game
number 32000 and the numbers around it, the same for every numbered game: PySolFC's."""

from __future__ import annotations

import subprocess
import sys

import pytest

from patience.cli import main
from patience.errors import UsageError
from patience.formats import board
from patience.generators import deals
from patience.generators.deals import pysol_board, pysol_deal
from patience.runs import specs
from tests.helpers import exit_status

# make_pysol_freecell_board.py is not installed with pysol_cards; these are its steps, run from the
# installed package's own argument parser and dealer in a separate interpreter.
BOARD_MAKER = """
import sys
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.single_deal_args_parse import SingleDealArgsParser
args = SingleDealArgsParser(sys.argv)
Game(args.which_game, args.game_num, args.which_deals, args.max_rank).print_layout(CardRenderer(args.print_ts))
"""

SEEDS = [1, 31999, 32001, 123456, 4294967295]  # 32000: see test_game_32000_follows_pysolfc_in_every_game


def board_maker(*argv: str) -> str:
    return subprocess.run([sys.executable, "-c", BOARD_MAKER, *argv], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row", "binary_star"])
@pytest.mark.parametrize("seed", SEEDS)
def test_patience_deal_equals_the_board_maker_with_pysolfc_numbering(game, seed, capsys):
    assert main(["deal", "--game", game, "--seed", str(seed)]) == 0
    assert capsys.readouterr().out == board_maker("-F", "-t", str(seed), game)


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row", "binary_star"])
def test_other_numberings_equal_the_board_maker_with_their_flags(game, capsys):
    for numbering, flags in (("pysol", ()), ("ms", ("-M",))):
        for seed in (32001, 123456):
            assert main(["deal", "--game", game, "--seed", str(seed), "--numbering", numbering]) == 0
            assert capsys.readouterr().out == board_maker(*flags, "-t", str(seed), game)


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row", "binary_star"])
def test_numberings_agree_below_32000_and_part_from_it(game):
    for seed in (1, 31999):
        assert pysol_board(game, seed, "pysol") == pysol_board(game, seed) == pysol_board(game, seed, "ms")
    for seed in (32000, 32001):
        assert len({pysol_board(game, seed, numbering) for numbering in ("pysolfc", "pysol", "ms")}) == 3


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row", "binary_star"])
def test_game_32000_follows_pysolfc_in_every_game(game, monkeypatch, capsys):
    """PySolFC's constructRandom takes the LCG for 0 <= n < 32000 only; pysol_cards up to 32000
    inclusive. So every game's 32000 differs from the board maker's, and equals it once the
    boundary is moved to 32001; 31999 and 32001 agree either way."""
    for numbering, flags in (("pysolfc", ("-F",)), ("pysol", ())):
        assert main(["deal", "--game", game, "--seed", "32000", "--numbering", numbering]) == 0
        assert capsys.readouterr().out != board_maker(*flags, "-t", "32000", game)
    assert main(["deal", "--game", game, "--seed", "32000", "--numbering", "ms"]) == 0  # ms: the LCG always
    assert capsys.readouterr().out == board_maker("-M", "-t", "32000", game)
    monkeypatch.setattr(deals, "MS_DEALS_END", 32001)
    for numbering, flags in (("pysolfc", ("-F",)), ("pysol", ())):
        assert main(["deal", "--game", game, "--seed", "32000", "--numbering", numbering]) == 0
        assert capsys.readouterr().out == board_maker(*flags, "-t", "32000", game)


@pytest.mark.parametrize("argv", [["--game", "lbs"], ["--ranks", "5"], ["--game", "binary_star", "--ranks", "5"]])
def test_numbering_is_refused_where_a_deal_has_no_number(argv, capsys):
    assert main(["deal", *argv, "--numbering", "pysol"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1 and captured.err.startswith("error: ")


def test_numbering_applies_to_binary_star_and_to_its_deal_specs(capsys):
    assert main(["deal", "--game", "binary_star", "--seed", "40000", "--numbering", "pysol"]) == 0
    old = capsys.readouterr().out
    assert old != pysol_board("binary_star", 40000) and old == pysol_board("binary_star", 40000, "pysol")
    named = specs.resolve("binary_star@pysol:40000")[0]
    assert named.name == "binary_star@pysol:40000" and named.deal == pysol_deal("binary_star", 40000, "pysol")


def test_campaign_specs_default_to_pysolfc_and_name_other_numberings():
    default, old = specs.resolve("black_hole:40000"), specs.resolve("black_hole@pysol:40000")
    assert default[0].deal == pysol_deal("black_hole", 40000)
    assert old[0].name == "black_hole@pysol:40000" and old[0].deal == pysol_deal("black_hole", 40000, "pysol")
    with pytest.raises(UsageError):
        specs.resolve("black_hole@nope:1")


@pytest.mark.parametrize("argv", [["--seed", "0"], ["--seed", "-4"], ["--seed", "4294967295", "--numbering", "ms",
                                                                      "--game", "all_in_a_row", "--count", "0"],
                                  ["--seed", str(2 ** 64), "--numbering", "pysol"], ["--seed", str(2 ** 33),
                                                                                     "--numbering", "ms"]])
def test_bad_deal_numbers_end_in_one_line_and_status_2(argv, capsys):
    code = exit_status(["deal", *argv])
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1 and captured.err.startswith("error: ")


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row"])
def test_the_deal_taken_from_the_layout_is_the_deal_its_board_text_reads_as(game):
    """pysol_deal skips the board text for speed; it must give the very deal the text gives."""
    for numbering in ("pysolfc", "pysol", "ms"):
        for seed in [*range(1, 60), 31999, 32000, 32001, 1_000_000, 2**33 - 1]:
            text = pysol_board(game, seed, numbering)
            assert pysol_deal(game, seed, numbering) == board.read(text, "text"), (numbering, seed)
