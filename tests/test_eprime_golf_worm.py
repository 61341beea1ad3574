"""Golf and Worm Hole as Essence Prime: the `.param` text (Golf on Black Hole's model with the stock
one more chain, Worm Hole on models/worm-hole.eprime), Savile Row's `.solution` decoded into moves
and replayed (real transcripts, tests/transcripts/golf and worm_hole, README.md there), refusals in
one line, and, where Savile Row and Minion are installed, their verdicts against the native search
on small deals of each Golf variant and on Worm Hole deals with 0, 1 and 2 cells."""

from __future__ import annotations

import re

import pytest

from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.errors import InputError
from patience.games import read_game_deal
from patience.generators.analysis.golf import GolfNumbers
from patience.generators.eprime import golf as golf_eprime
from patience.generators.eprime import worm_hole as worm_hole_eprime
from patience.golf import rules as golf_rules
from patience.golf.deal import GolfDeal
from patience.golf.deals import random_deal as golf_random_deal
from patience.golf.search import search as golf_search
from patience.result import Status
from patience.runners.savilerow import SavileRowMinion, SavileRowSat
from patience.runners.solve import solve
from patience.runs.process import Limits, ProcessRun
from patience.worm_hole import rules as worm_hole_rules
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move
from patience.worm_hole.search import search as worm_hole_search
from tests import model_agreement
from tests.helpers import ROOT, TRANSCRIPTS, needs_solver

GOLF, WORM_HOLE = TRANSCRIPTS / "golf", TRANSCRIPTS / "worm_hole"
VARIANTS: tuple[dict[str, bool], ...] = ({}, {"queens_on_kings": True}, {"wrap_ranks": True})
# one pile 3♠ 2♠ (3♠ on top) on A♠, one cell: park 3♠, play 2♠, play 3♠ from the cell
PARK = WormHoleDeal(Deal(((Card(2, 0), Card(1, 0)),), Card(0, 0), 5), 1)


def lettings(text: str) -> dict[str, list[int]]:
    """The `letting NAME be [...]` lines of a parameter file, as lists of integers."""
    found = {}
    for name, value in re.findall(r"^letting (\w+) be (.*)$", text, re.MULTILINE):
        found[name] = [int(word) for word in re.findall(r"-?\d+", value.split(";")[0])]
    return found


def golf_small(seed: int) -> GolfDeal:
    """Three piles of three from 7 ranks of 2 suits, a stock of 1 to 4, the variant by the seed."""
    return golf_random_deal(seed, ranks=7, suits=2, piles=3, height=3, stock=1 + seed % 4, **VARIANTS[seed % 3])


def worm_hole_small(seed: int) -> WormHoleDeal:
    """6 ranks of 2 suits in piles of 4 (every fifth deal without a foundation card), 0 to 2 cells."""
    from patience.generators.deals import random_deal

    return WormHoleDeal(random_deal(6, 2, 4, seed, empty_foundation=seed % 5 == 4), seed % 3)


def test_golfs_stock_is_one_more_chain_of_black_holes_model():
    deal = golf_small(3)
    numbers = GolfNumbers(deal)
    text = golf_eprime.parameters(deal)
    values = lettings(text)
    n, first_stock = len(numbers.cards), numbers.piles.size
    assert values["n"] == [n] and len(values["rank"]) == len(values["above"]) == len(values["below"]) == n
    stock = range(first_stock, n)
    assert [values["above"][number] for number in stock] == [0, *stock[:-1]]  # each dealt after the one before
    assert [values["below"][number] for number in stock] == [*stock[1:], 0]
    # a stock card's rank is a class of its own, beyond every pile rank: the symmetry breaking never pairs it
    assert [values["rank"][number] for number in stock] == [deal.ranks + k for k in range(len(stock))]
    assert values["rank"][1:first_stock] == [numbers.cards[number].rank for number in range(1, first_stock)]
    pairs = set(zip(values["follows"][::2], values["follows"][1::2], strict=True))
    assert pairs == set(numbers.follows) and all((0, number) in pairs for number in stock)
    assert values["pairs"] == [len(pairs)]
    assert "letting symmetryBreaking be true" in text
    assert "letting symmetryBreaking be false" in golf_eprime.parameters(deal, symmetry_breaking=False)
    assert golf_eprime.build(deal).files[golf_eprime.MODEL_FILE] == (ROOT / "models" / "blackhole.eprime").read_text()


def test_a_golf_solution_decodes_to_the_win_without_the_stock_left_after_it():
    deal = GolfDeal(((Card(1, 0),),), (Card(4, 0), Card(3, 0)), Card(0, 0), ranks=5)  # 2♠ on A♠, then the stock
    model = golf_eprime.build(deal)
    assert model.decode("letting x be [0, 1, 2, 3; int(0..3)]\n", "x.solution") == (Card(1, 0),)
    # dealing 5♠ first, then 2♠ on it: decoded as it is, and the replay refuses it
    moves = model.decode("letting x be [0, 2, 1, 3; int(0..3)]\n", "x.solution")
    assert moves == (Card(4, 0), Card(1, 0)) and not golf_rules.replay(deal, moves).valid
    with pytest.raises(InputError, match="x is not a sequence of the card numbers 0..3") as error:
        model.decode("$ Minion\nletting x be [0, 1, 1, 3; int(0..3)]\n", "x.solution")
    assert (error.value.source, error.value.line) == ("x.solution", 2)
    with pytest.raises(InputError, match="no `letting x be"):
        model.decode("letting y be [0, 1, 2, 3; int(0..3)]\n", "x.solution")


def test_worm_holes_parameters_and_model():
    text = worm_hole_eprime.parameters(PARK)
    assert text.splitlines()[1:3] == ["$ worm_hole_generalised deal: 2 cards in 1 piles, 5 ranks, foundation r0s0, "
                                      "1 cell", "$ card numbers: 0=r0s0 1=r2s0 2=r1s0"]
    values = lettings(text)
    assert values["n"] == [3] and values["above"] == [0, 0, 1] and values["cells"] == [1]
    assert "symmetryBreaking" not in text
    files = worm_hole_eprime.build(PARK).files
    assert files[worm_hole_eprime.MODEL_FILE] == (ROOT / "models" / "worm-hole.eprime").read_text()
    assert "find g : matrix indexed by [CARD] of CARD" in files[worm_hole_eprime.MODEL_FILE]


def test_a_worm_hole_solution_parks_in_the_gap_before_the_play_that_needs_it():
    model = worm_hole_eprime.build(PARK)
    moves = model.decode("letting g be [0, 1, 0; int(0..2)]\nletting x be [0, 2, 1; int(0..2)]\n"
                         "letting y be [0, 2, 1; int(0..2)]\n", "x.solution")
    assert moves == (Move.parked(Card(2, 0)), Move.play(Card(1, 0)), Move.play(Card(2, 0)))
    assert worm_hole_rules.replay(PARK, moves).valid
    with pytest.raises(InputError, match="no `letting g be") as error:
        model.decode("letting x be [0, 2, 1; int(0..2)]\n", "x.solution")
    assert error.value.line == 1
    with pytest.raises(InputError, match="g is not one gap in 0..2 for each card") as error:
        model.decode("letting x be [0, 2, 1; int(0..2)]\nletting g be [0, 3, 0; int(0..2)]\n", "x.solution")
    assert error.value.line == 2


@pytest.mark.parametrize(("folder", "count"), [(GOLF, 11), (WORM_HOLE, 9)])
def test_savilerows_transcripts_are_decoded_and_replayed(capsys, folder, count):
    assert main(["validate", str(folder / "deal.yaml"), str(folder / "savilerow.solution")]) == 0
    assert capsys.readouterr() == (f"valid: {count} moves\n", "")
    game, deal = read_game_deal(folder / "deal.yaml")
    moves = game.read_answer((folder / "savilerow.solution").read_text(), "savilerow.solution", deal)
    if folder is GOLF:
        assert any(move in deal.stock_index for move in moves) and moves[-1] not in deal.stock_index
    else:
        assert [move.card for move in moves if move.park] == [deal.black_hole.piles[pile][0] for pile in range(3)]


def test_a_changed_transcript_is_refused_by_the_replay(tmp_path, capsys):
    changed = tmp_path / "savilerow.solution"
    changed.write_text((WORM_HOLE / "savilerow.solution").read_text().replace("[0, 1, 3, 5, 0", "[0, 0, 3, 5, 0"))
    assert main(["validate", str(WORM_HOLE / "deal.yaml"), str(changed)]) == 1
    assert capsys.readouterr().out == "invalid: move 1: 2S is under 3S\n"  # 3S no longer parked


def test_gen_eprime_writes_each_games_model(tmp_path, capsys):
    for folder, model_file in ((GOLF, "blackhole.eprime"), (WORM_HOLE, "worm-hole.eprime")):
        assert main(["gen", "eprime", str(folder / "deal.yaml"), "-o", str(tmp_path / folder.name)]) == 0
        assert sorted(path.name for path in (tmp_path / folder.name).iterdir()) == sorted([model_file, "deal.param"])
        assert main(["gen", "eprime", "--model", str(folder / "deal.yaml")]) == 0
        assert capsys.readouterr().out.endswith((ROOT / "models" / model_file).read_text())


def test_savilerow_gives_each_back_end_its_own_time_limit_flag():
    model = golf_eprime.build(golf_small(0))
    minion = SavileRowMinion().command(model, Limits(timeout=9.5), {"optimisation": "2"})
    assert minion[minion.index("-solver-options") + 1] == "-cpulimit 10"
    for name, flag in (("minisat", "-cpu-lim=10"), ("cadical", "-t 10"), ("cryptominisat", "--maxtime 10")):
        sat = SavileRowSat().command(model, Limits(timeout=9.5), {"optimisation": "0", "sat-solver": name})
        assert sat[sat.index("-solver-options") + 1] == flag, name
    assert "-solver-options" not in SavileRowMinion().command(model, Limits(), {"optimisation": "2"})


@pytest.mark.parametrize(("info", "status"), [
    ("SolverSatisfiable:0\nSolverTimeOut:0\nSolverMemOut:0\n", Status.UNSOLVABLE),
    # MiniSat's bare INDETERMINATE (no times, no decisions): Savile Row's guess of a memout, no proof
    ("SolverSatisfiable:0\nSolverTimeOut:0\nSolverMemOut:1\nSolverNodes:0\n", Status.MEMOUT),
    ("SolverSatisfiable:0\nSolverTimeOut:1\nSolverMemOut:0\n", Status.TIMEOUT),
])
def test_only_a_finished_search_without_a_solution_is_a_proof(tmp_path, info, status):
    model = worm_hole_eprime.build(PARK)
    (tmp_path / f"{model.primary}.info").write_text(info)
    run = ProcessRun(("savilerow",), 0, "", "", 1.0, 1.0)
    assert SavileRowSat().read_verdict(run, tmp_path, model, {"sat-solver": "minisat"}).status is status


def test_savilerow_plays_golf_and_worm_hole():
    assert {"golf", "golf_queens_on_kings", "golf_wrap_ranks", "golf_generalised", "worm_hole",
            "worm_hole_generalised"} <= set(SavileRowMinion.games)


@pytest.mark.slow
@needs_solver("savilerow-minion")
@pytest.mark.parametrize("game", ["golf", "worm_hole"])
def test_savilerow_minion_agrees_with_the_native_search(game):
    if game == "golf":
        verdicts = model_agreement.agreement("savilerow-minion", ((seed, golf_small(seed)) for seed in range(12)),
                                             golf_search, golf_rules.replay)
    else:
        verdicts = model_agreement.agreement("savilerow-minion", ((seed, worm_hole_small(seed)) for seed in range(9)),
                                             worm_hole_search, worm_hole_rules.replay)
    assert verdicts[True] >= 2 and verdicts[False] >= 2


@pytest.mark.slow
@needs_solver("savilerow-sat")
def test_savilerow_sat_agrees_with_the_native_search():
    options = {"sat-solver": "minisat"}
    for seed in range(6):
        for deal, truth in ((golf_small(seed), golf_search), (worm_hole_small(seed), worm_hole_search)):
            assert solve(deal, "savilerow-sat", model_agreement.LIMITS, options).status is truth(deal).status, seed
