"""Golf against Shlomi Fish's black-hole-solve: PySolFC's numbered Golf deals card for card (its
t/data boards, pysol_cards' text), its output read on real transcripts everywhere (tests/data/golf:
boards and stdout of black-hole-solve 1.14), and, where it is installed, run for real in every
variant beside the native search, each win replayed."""

from __future__ import annotations

import random

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random import RandomBase

from patience.errors import InputError, UsageError
from patience.games import game_of, parse_game_deal, write_game_deal
from patience.golf.pysol import VARIANTS, golf_deal, numbered_deal
from patience.names import GOLF, GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS
from patience.result import Status
from patience.runners.black_hole_solve import BOARD_FILE, BlackHoleSolve, read_output
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import ROOT, benchmark_script, exit_status, needs_solver

DATA = ROOT / "tests" / "data" / "golf"
INSTALLED = needs_solver("black-hole-solve")
SEEDS = random.Random(52)
# pysol_cards deals game 32000 with the LCG where PySolFC takes the Mersenne Twister (generators/deals.py)
PYSOLFC_NUMBERS = [*range(1, 301), 31999, 32001, *(SEEDS.randrange(32001, 10 ** 12) for _ in range(100))]


def board(name: str) -> str:
    return (DATA / name).read_text()


@pytest.mark.parametrize("seed", [2, 906])
def test_pysolfc_deals_are_black_hole_solves_boards(seed):
    """black-hole-solve's t/data/2.golf.board.txt and 906.golf.board.txt are PySolFC's Golf deals 2 and 906."""
    assert write_game_deal(golf_deal(seed), "board") == board(f"{seed}.golf.board.txt")


def test_numbered_deals_are_pysol_cards_deals():
    """pysol_cards' `make_pysol_freecell_board.py -F -t N golf`, byte for byte, on hundreds of numbers."""
    for seed in PYSOLFC_NUMBERS:
        expected = Game("golf", seed, RandomBase.DEALS_PYSOLFC).calc_deal_string(seed, CardRenderer(True))
        assert write_game_deal(golf_deal(seed), "board") == expected, seed


@pytest.mark.parametrize(("numbering", "which"), [("pysol", RandomBase.DEALS_PYSOL), ("ms", RandomBase.DEALS_MS)])
def test_the_other_numberings_are_pysol_cards_too(numbering, which):
    for seed in [1, 2, 617, 31999, *(SEEDS.randrange(32001, 2 ** 33 - 1) for _ in range(40))]:
        expected = Game("golf", seed, which).calc_deal_string(seed, CardRenderer(True))
        assert write_game_deal(golf_deal(seed, numbering), "board") == expected, (numbering, seed)


def test_variants_deal_the_same_cards_under_their_own_rules():
    deals = {variant: numbered_deal(variant, 7) for variant in VARIANTS}
    assert {variant: deal.game for variant, deal in deals.items()} == {variant: variant for variant in VARIANTS}
    assert len({(deal.piles, deal.stock, deal.foundation) for deal in deals.values()}) == 1
    with pytest.raises(UsageError, match="numbered 1 to"):
        numbered_deal(GOLF, 0)
    with pytest.raises(UsageError, match="have no numbers"):
        numbered_deal("golf_generalised", 1)


def read(stdout: str, variant: str, deal_name: str = "2.golf.board.txt"):
    deal = parse_game_deal(board(deal_name), deal_name)[1].with_variant(*VARIANTS[variant])
    return deal, read_output(board(stdout), stdout, deal)


@pytest.mark.parametrize(("stdout", "variant", "states"), [
    ("2.golf.stdout", GOLF, 121361), ("2.golf-queens-on-kings.stdout", GOLF_QUEENS_ON_KINGS, 78500),
    ("2.golf-wrap-ranks.stdout", GOLF_WRAP_RANKS, 56)])
def test_a_real_win_is_read_and_replays(stdout, variant, states):
    deal, (status, moves, nodes) = read(stdout, variant)
    assert (status, nodes) == (Status.SOLVED, states)
    assert game_of(deal).replay(deal, moves).valid
    cards = game_of(deal).canonical(deal, moves)
    assert {card for card in cards if card not in deal.stock_index} == set(deal.cards)


def test_the_queens_on_kings_win_leaves_the_stock_and_needs_its_rule():
    """Fish stops once the piles are empty (a stock card is left), and its win puts a queen on a king,
    which plain Golf refuses: the replay checks the variant."""
    deal, (_, moves, _) = read("2.golf-queens-on-kings.stdout", GOLF_QUEENS_ON_KINGS)
    assert len(game_of(deal).canonical(deal, moves)) == len(deal.cards) + len(deal.stock) - 1
    plain = deal.with_variant()
    assert "nothing goes on a king" in (game_of(plain).replay(plain, moves).fault or "")


def test_unsolved_is_unsolvable_and_intractable_is_unknown():
    assert read("906.golf.stdout", GOLF, "906.golf.board.txt")[1] == (Status.UNSOLVABLE, None, 492585)
    assert read("906.golf-max-iters-100.stdout", GOLF, "906.golf.board.txt")[1] == (Status.UNKNOWN, None, 100)


def test_a_move_that_is_not_the_deals_is_an_input_error():
    text = board("2.golf.stdout").replace("Info: Card moved is AH", "Info: Card moved is 7C", 1)
    deal = parse_game_deal(board("2.golf.board.txt"), "board")[1]
    with pytest.raises(InputError, match="the card moved is 7C"):
        read_output(text, "out", deal)


@pytest.mark.parametrize(("variant", "flags"), [(GOLF, []), (GOLF_QUEENS_ON_KINGS, ["--queens-on-kings"]),
                                                (GOLF_WRAP_RANKS, ["--wrap-ranks"])])
def test_the_variant_flag_comes_after_the_game(variant, flags):
    """`--game golf` turns wrapping off again, so a flag before it would be lost."""
    solver = BlackHoleSolve()
    model = solver.build(numbered_deal(variant, 2), {})
    command = solver.command(model, Limits(timeout=5), {"max-iters": None, "rank-reach-prune": False})
    assert command[1:] == ["--game", "golf", *flags, BOARD_FILE]


@INSTALLED
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_real_runs_agree_with_native_and_replay(variant):
    for seed in range(1, 6):
        deal = numbered_deal(variant, seed)
        fish = solve(deal, "black-hole-solve", Limits(timeout=120, cpu=30))
        assert fish.status is solve(deal, "native", Limits(timeout=120, cpu=30)).status, (variant, seed)
        assert fish.status.decided


def test_the_benchmark_reads_outcomes_and_reports_each_variant(tmp_path):
    with benchmark_script("golf_fish") as bench:
        assert bench.outcome(Status.SOLVED, Status.SOLVED) == "agree"
        assert bench.outcome(Status.SOLVED, Status.UNSOLVABLE) == "disagree"
        assert bench.outcome(Status.TIMEOUT, Status.UNSOLVABLE) == "open"
        rows = [{"seed": seed, "variant": GOLF, "outcome": "agree",
                 "native": {"status": status, "cpu": 0.5, "engine": "c", "message": ""},
                 "black-hole-solve": {"status": status, "cpu": 1.5, "message": ""}}
                for seed, status in ((1, "solved"), (2, "unsolvable"))]
        table = bench.report(rows)
        assert table[2].startswith("| golf | 2 (1-2) | 1 | 1 | 0 | 50.00% (") and "| 1.0 (0.500, 0.50) |" in table[2]
        python = [{**row, "native": {**row["native"], "engine": "python"}} for row in rows]
        assert "| 2 | 0 | 0 | 0 | 0.0 (0.000, 0.00) |" in bench.report(python)[2]  # verdicts, but no times
        assert bench.faults(rows) == []
        assert bench.faults([{**rows[0], "outcome": "disagree"}])[0].startswith("DISAGREEMENT: golf deal 1")


@INSTALLED
def test_the_benchmark_runs_resumes_and_exits_0_on_agreement(tmp_path, capsys):
    with benchmark_script("golf_fish") as bench:
        assert bench.main(["run", "--out", str(tmp_path), "--first", "2", "--deals", "2"]) == 0
        assert len(bench.read_rows(tmp_path)) == 6
        assert bench.main(["run", "--out", str(tmp_path), "--first", "2", "--deals", "2"]) == 0  # nothing left
        assert len(bench.read_rows(tmp_path)) == 6
    assert "| golf_wrap_ranks | 2 (2-3) |" in capsys.readouterr().out


def test_patience_deal_prints_pysolfcs_golf_deals(capsys, tmp_path):
    """`patience deal --game golf --seed 2` is black-hole-solve's 2.golf.board.txt; a variant's deal
    carries its variant line; --count writes the files; --ranks does not go with Golf."""
    assert exit_status(["deal", "--game", "golf", "--seed", "2"]) == 0
    assert capsys.readouterr().out == board("2.golf.board.txt")
    assert exit_status(["deal", "--game", "golf-queens-on-kings", "--seed", "906"]) == 0
    assert capsys.readouterr().out == board("906.golf.board.txt") + "Variant: queens-on-kings\n"
    assert exit_status(["deal", "--game", "golf", "--seed", "2", "--count", "2", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "golf-2.txt").read_text() == board("2.golf.board.txt")
    assert parse_game_deal((tmp_path / "golf-3.txt").read_text(), "golf-3.txt")[1] == golf_deal(3)
    assert exit_status(["deal", "--game", "golf", "--ranks", "5"]) == 2
    assert "does not go with --game golf" in capsys.readouterr().err


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_patience_survey_surveys_each_golf_variant(tmp_path, capsys, variant):
    """`patience survey --game VARIANT`: PySolFC's numbered Golf deals by the game's own search, each
    verdict the native solver's on the same deal, summed up over the 35 pile cards."""
    db = tmp_path / "golf.db"
    assert exit_status(["survey", "--game", variant, "--seeds", "1-12", "--mode", "decision", "--db", str(db),
                        "--quiet"]) == 0
    capsys.readouterr()
    assert exit_status(["survey", "report", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    won = sum(solve(numbered_deal(variant, seed), "native", Limits(timeout=60)).status is Status.SOLVED
              for seed in range(1, 13))
    assert f"survey: {variant}, 12 deals" in text and f"won: {won} of 12 decided" in text


@INSTALLED
def test_an_iteration_limit_is_unknown_never_a_verdict():
    result = solve(golf_deal(906), "black-hole-solve", Limits(timeout=60), {"max-iters": "100"})
    assert (result.status, result.nodes) == (Status.UNKNOWN, 100)


def test_patience_deal_deals_generalised_golf_at_random(capsys):
    """`--game golf_generalised --ranks R --suits S --pile-height H`: the game's random deal, as YAML,
    the same for the same seed; it takes no --numbering."""
    argv = ["deal", "--game", "golf_generalised", "--ranks", "5", "--suits", "2", "--pile-height", "2", "--seed", "3"]
    assert exit_status(argv) == 0
    text = capsys.readouterr().out
    deal = parse_game_deal(text, "deal.yaml")[1]
    assert (deal.game, deal.ranks, len(deal.all_cards)) == ("golf_generalised", 5, 10)
    assert exit_status(argv) == 0 and capsys.readouterr().out == text
    assert exit_status([*argv, "--numbering", "ms"]) == 2
