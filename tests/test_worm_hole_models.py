"""Worm Hole's PDDL and CNF models: real planners and SAT solvers agree with the native search on
won and lost small deals with 0 to 3 cells (and no foundation card), every win is replayed, the CNF
with no cells is Black Hole's, and a plan step that is no Worm Hole move fails in one line."""

from __future__ import annotations

from collections import Counter

import pytest

from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.errors import InputError
from patience.generators.cnf import black_hole as black_hole_cnf
from patience.generators.cnf import worm_hole as worm_hole_cnf
from patience.generators.deals import random_deal
from patience.generators.pddl import worm_hole as worm_hole_pddl
from patience.generators.pddl.common import Action
from patience.names import BLACK_HOLE
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.worm_hole import forms, rules
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move
from patience.worm_hole.search import search
from tests import model_agreement
from tests.helpers import every_model, needs_solver
from tests.model_agreement import ASP_CP_AND_MIP_SOLVERS, PLANNERS, SAT_SOLVERS


def small_deal(seed: int) -> WormHoleDeal:
    """6 ranks of 2 suits in piles of 4 (11 cards, A♠ on the foundation; every fifth deal without a
    foundation card, 12 cards), 0 to 2 cells by the seed: won and lost (most losses have no cell)."""
    black_hole = random_deal(6, 2, 4, seed, empty_foundation=seed % 5 == 4)
    return WormHoleDeal(black_hole, seed % 3)


# one pile 3♠ 4♠ 2♠ (top first) on A♠: lost with one cell (3♠ parked, 4♠ stuck), won with two
CAPACITY = Deal(((Card(2, 0), Card(3, 0), Card(1, 0)),), Card(0, 0), 13)


def deals(seeds: range) -> list[WormHoleDeal]:
    return [WormHoleDeal(CAPACITY, 1), WormHoleDeal(CAPACITY, 2), *map(small_deal, seeds)]


def agreement(name: str, seeds: range) -> Counter[bool]:
    """Run `name` on small deals: its verdict is the native search's, and a win replays."""
    return model_agreement.agreement(name, enumerate(deals(seeds)), search, rules.replay)


def test_the_capacity_deal_needs_two_cells():
    assert [search(deal).status for deal in deals(range(0))] == [Status.UNSOLVABLE, Status.SOLVED]


@pytest.mark.parametrize("name", SAT_SOLVERS)
def test_sat_solvers_agree_with_the_native_search(name):
    verdicts = agreement(name, range(24))
    assert verdicts[True] >= 5 and verdicts[False] >= 5


@pytest.mark.parametrize("name", PLANNERS)
def test_planners_agree_with_the_native_search(name):
    verdicts = agreement(name, range(6))
    assert verdicts[True] >= 2 and verdicts[False] >= 2


def test_with_no_cells_the_formulas_models_are_black_holes():
    counted: Counter[bool] = Counter()
    for seed in range(24):
        black_hole = random_deal(4, 2, 3, seed)
        worm_hole = worm_hole_cnf.encode(WormHoleDeal(black_hole, 0))
        paper = black_hole_cnf.formula(black_hole, symmetry_breaking=False)
        plays = every_model(worm_hole.cnf.clauses, list(worm_hole.at), worm_hole.decode)
        assert {tuple(move.card for move in moves) for moves in plays} == \
            every_model(paper.cnf.clauses, list(paper.at.values()), paper.decode), seed
        assert not any(move.park for moves in plays for move in moves)
        counted[bool(plays)] += 1
    assert counted[True] >= 2 and counted[False] >= 2


def test_a_model_parks_in_the_gap_before_the_play_that_needs_it():
    # one pile 3♠ 2♠ (3♠ on top) on A♠: park 3♠, play 2♠, play 3♠ from the cell
    deal = WormHoleDeal(Deal(((Card(2, 0), Card(1, 0)),), Card(0, 0), 5), 1)
    encoding = worm_hole_cnf.encode(deal)
    chosen = {(Card(1, 0), 1), (Card(2, 0), 2)}
    true = {variable for variable, key in encoding.at.items() if key in chosen}
    true |= {variable for variable, (card, position) in encoding.gone.items() if card == Card(2, 0) or position > 1}
    moves = encoding.decode(true)
    assert moves == (Move.parked(Card(2, 0)), Move.play(Card(1, 0)), Move.play(Card(2, 0)))
    assert rules.replay(deal, moves).valid



@pytest.mark.parametrize("name", ASP_CP_AND_MIP_SOLVERS)
def test_answer_set_cp_and_mip_solvers_agree_with_the_native_search(name):
    verdicts = agreement(name, range(3))
    assert verdicts[True] >= 2 and verdicts[False] >= 2

def test_gen_writes_both_models_and_solve_replays_the_answer(tmp_path, capsys):
    deal = next(small_deal(seed) for seed in range(1, 32, 4) if search(small_deal(seed)).status is Status.SOLVED)
    deal_file = tmp_path / "deal.yaml"
    deal_file.write_text(forms.write_yaml(deal))
    assert main(["gen", "cnf", str(deal_file)]) == 0
    assert capsys.readouterr().out.startswith(worm_hole_cnf.HEADER_TAG)
    assert main(["gen", "pddl", str(deal_file)]) == 0
    assert "(:domain worm-hole)" in capsys.readouterr().out
    assert main(["solve", str(deal_file), "--solver", "sat"]) == 0
    assert "validated:" in capsys.readouterr().out


@pytest.mark.parametrize(("step", "message"), [
    (Action("unpark", ("card-2s",), 4), "not a Worm Hole move"),
    (Action("play", ("card-zz",), 4), "no card of this deal"),
    (Action("park", (), 4), "no card of this deal"),
])
def test_a_plan_step_that_is_no_worm_hole_move_is_a_one_line_error(step, message):
    deal = WormHoleDeal(Deal(((Card(1, 0),),), Card(0, 0), 13), 1)
    with pytest.raises(InputError, match=message) as error:
        worm_hole_pddl.plan_moves(deal, [step], "sas_plan")
    assert (error.value.source, error.value.line) == ("sas_plan", 4)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sat", pytest.param("fd-ff", marks=needs_solver("fd-ff"))])
def test_pysolfc_deals_agree_with_the_native_search(name):
    from patience.generators.deals import pysol_deal

    for seed in (1, 2):
        deal = WormHoleDeal(pysol_deal(BLACK_HOLE, seed), 1)
        assert solve(deal, name, Limits(timeout=300)).status is search(deal).status, seed
