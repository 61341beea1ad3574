"""Deal numbering: PySolFC's by default, byte for byte as pysol_cards' board maker prints it with -F,
old PySol's and Microsoft's on request, and the numbering kept in the deal's name."""

from __future__ import annotations

import subprocess
import sys

import pytest

from patience.campaign import specs
from patience.cli import main
from patience.errors import UsageError
from patience.generators.deals import pysol_board, pysol_deal

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

SEEDS = [1, 31999, 32000, 32001, 123456, 4294967295]


def board_maker(*argv: str) -> str:
    return subprocess.run([sys.executable, "-c", BOARD_MAKER, *argv], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row"])
@pytest.mark.parametrize("seed", SEEDS)
def test_patience_deal_equals_the_board_maker_with_pysolfc_numbering(game, seed, capsys):
    assert main(["deal", "--game", game, "--seed", str(seed)]) == 0
    assert capsys.readouterr().out == board_maker("-F", "-t", str(seed), game)


@pytest.mark.parametrize("game", ["black_hole", "all_in_a_row"])
def test_other_numberings_equal_the_board_maker_with_their_flags(game, capsys):
    for numbering, flags in (("pysol", ()), ("ms", ("-M",))):
        for seed in (32001, 123456):
            assert main(["deal", "--game", game, "--seed", str(seed), "--numbering", numbering]) == 0
            assert capsys.readouterr().out == board_maker(*flags, "-t", str(seed), game)


def test_numberings_agree_up_to_32000_and_part_above():
    for seed in (1, 32000):
        assert pysol_board("black_hole", seed, "pysol") == pysol_board("black_hole", seed) \
            == pysol_board("black_hole", seed, "ms")
    boards = {pysol_board("black_hole", 32001, numbering) for numbering in ("pysolfc", "pysol", "ms")}
    assert len(boards) == 3


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
    assert main(["deal", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1 and captured.err.startswith("error: ")
