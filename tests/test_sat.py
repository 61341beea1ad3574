"""The paper's CNF encoding: real SAT solvers agree with the native search, models decode through
the header map and replay, the encoding's models are exactly the winning sequences."""

from __future__ import annotations

import itertools

import pytest

from patience.cards import Card
from patience.deal import Deal
from patience.formats import read_deal
from patience.generators.cnf.black_hole import _Builder, dimacs, formula, read_header
from patience.generators.cnf.common import CARDINALITY
from patience.generators.deals import pysol_deal, random_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import INSTANCES, every_model

LIMITS = Limits(timeout=30)
SMALL_DEALS = [random_deal(ranks, suits, height, seed, empty)
               for ranks, suits, height, empty in ((5, 3, 3, False), (4, 3, 2, False), (6, 2, 3, False),
                                                   (4, 3, 3, True), (5, 2, 2, True))
               for seed in range(1, 4)]

def winning_sequences(deal: Deal) -> set[tuple[Card, ...]]:
    """Every winning sequence, by brute force over permutations (tiny deals only)."""
    return {order for order in itertools.permutations(deal.cards) if replay(deal, order).valid}

def projected_models(deal: Deal, symmetry_breaking: bool, cardinality: str = "seqcounter") -> set[tuple[Card, ...]]:
    encoding = formula(deal, symmetry_breaking, cardinality)
    decode = encoding.decode_map()
    return every_model(encoding.cnf.clauses, decode.cards_at, decode.sequence)

TINY = [random_deal(3, 2, 2, seed) for seed in range(1, 7)] + [random_deal(3, 2, 3, seed, True) for seed in range(1, 5)]

@pytest.mark.parametrize("deal", TINY, ids=lambda deal: f"{len(deal.cards)}cards")
@pytest.mark.parametrize("cardinality", ["seqcounter", "totalizer", "pairwise"])
def test_models_are_exactly_the_winning_sequences(deal, cardinality):
    assert projected_models(deal, False, cardinality) == winning_sequences(deal)

@pytest.mark.parametrize("deal", TINY, ids=lambda deal: f"{len(deal.cards)}cards")
def test_symmetry_breaking_keeps_a_solution_and_only_solutions(deal):
    winning = winning_sequences(deal)
    kept = projected_models(deal, True)
    assert kept <= winning
    assert bool(kept) == bool(winning)

@pytest.mark.parametrize("deal", SMALL_DEALS, ids=lambda deal: f"{deal.game}-{len(deal.cards)}")
@pytest.mark.parametrize("symmetry", ["on", "off"])
def test_embedded_cadical_agrees_with_native(deal, symmetry):
    native = solve(deal, "native", LIMITS)
    sat = solve(deal, "sat", LIMITS, {"symmetry-breaking": symmetry})
    assert native.decided and sat.decided
    assert sat.status == native.status
    if sat.sequence is not None:
        assert replay(deal, sat.sequence).valid

@pytest.mark.parametrize("solver", ["sat-glucose", "sat-minisat", "sat-maplesat"])
def test_other_embedded_engines(solver):
    for deal in SMALL_DEALS[:4]:
        assert solve(deal, solver, LIMITS).status == solve(deal, "native", LIMITS).status

def test_standard_black_hole_deal_is_solved_and_validated(paper_deal):
    result = solve(paper_deal, "sat", LIMITS)
    assert result.status is Status.SOLVED
    assert result.stats["variables"] > 52 * 51 and result.stats["conflicts"] >= 0

def test_all_in_a_row_first_card_is_free():
    deal = pysol_deal("all_in_a_row", 3)
    encoding = formula(deal)
    first = [encoding.at[(card, 1)] for card in deal.cards]
    units = {clause[0] for clause in encoding.cnf.clauses if len(clause) == 1}
    assert not any(-variable in units for variable in first)

def test_black_hole_first_card_follows_the_ace(paper_deal, paper_encodings):
    encoding = paper_encodings[False]
    units = {clause[0] for clause in encoding.cnf.clauses if len(clause) == 1}
    for card in paper_deal.cards:
        banned = -encoding.at[(card, 1)] in units
        assert banned == (card.rank not in (1, 12))

@pytest.fixture(scope="module")
def paper_encodings():
    """The paper's deal encoded with and without symmetry breaking, built once for several tests."""
    deal = read_deal(INSTANCES / "black_hole" / "paper-example.txt")
    return {symmetry: formula(deal, symmetry) for symmetry in (True, False)}


def test_header_holds_the_deal_and_every_position_variable(paper_deal, paper_encodings):
    encoding = paper_encodings[True]
    text = dimacs(encoding)
    decode = read_header(text, "x.cnf")
    assert decode.deal == paper_deal
    assert decode.cards_at == encoding.decode_map().cards_at
    assert len(decode.cards_at) == 51 * 51
    assert f"c size {encoding.cnf.nv} variables {len(encoding.cnf.clauses)} clauses" in text
    assert f"p cnf {encoding.cnf.nv} {len(encoding.cnf.clauses)}" in text

def test_symmetry_breaking_adds_the_second_ladder(paper_encodings):
    plain, broken = paper_encodings[False], paper_encodings[True]
    assert broken.cnf.nv > plain.cnf.nv and len(broken.cnf.clauses) > len(plain.cnf.clauses)

def test_pool_is_frozen_after_building(paper_deal):
    build = _Builder(paper_deal)
    size = len(build.pool.obj2id)
    with pytest.raises(KeyError):
        build.var("M", Card(0, 0), 1)  # the foundation card has no position variable
    with pytest.raises(KeyError):
        build.var("O", Card(1, 0), 51)  # after the last position is a constant, not a variable
    assert len(build.pool.obj2id) == size

def test_every_cardinality_encoding_is_offered():
    assert {"seqcounter", "totalizer", "pairwise", "ladder"} <= set(CARDINALITY)

def test_embedded_timeout_kills_the_solve(paper_deal):
    result = solve(paper_deal, "sat", Limits(timeout=0.3), {"symmetry-breaking": "off"})
    assert result.status is Status.TIMEOUT
    assert result.wall < 5

def test_unknown_option_and_cardinality_are_usage_errors(paper_deal):
    from patience.errors import UsageError
    with pytest.raises(UsageError):
        solve(paper_deal, "sat", LIMITS, {"colour": "red"})
    with pytest.raises(UsageError):
        solve(paper_deal, "sat", LIMITS, {"cardinality": "magic"})



@pytest.mark.slow
def test_embedded_memory_limit_is_a_memout():
    """A formula the solver cannot hold in 60 MB (942,349 clauses): the paper's 52-card deal once fitted
    in the free heap the forked child inherits from a large test worker, and was solved."""
    result = solve(random_deal(26, 8, 3, seed=1), "sat", Limits(timeout=60, memory_mb=60))
    assert result.status is Status.MEMOUT


def test_small_deals_hold_both_verdicts():
    assert {solve(deal, "native", LIMITS).status for deal in SMALL_DEALS} == {Status.SOLVED, Status.UNSOLVABLE}
