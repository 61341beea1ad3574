"""ACE, Choco and Savile Row (Minion, SAT) run for real; every answer is validated by replay and
every verdict compared with the native solver, with and without the symmetry breaking."""

from __future__ import annotations

import pytest

from patience.cli import main
from patience.errors import UsageError
from patience.formats import parse_deal, read_deal
from patience.generators.deals import pysol_deal, random_deal
from patience.result import Status
from patience.runners.savilerow import SAT_SOLVERS
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import INSTANCES, needs_solver, sweep_seeds

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
PAPER_SEARCH = {"search": "paper"}
LIMITS = Limits(timeout=60)
UNSOLVABLE_SEED = 1  # PySol Black Hole deal 1 cannot be won (the native solver agrees below)
SMALL_DEALS = [(5, 3, 3, 2, False), (5, 2, 2, 3, True)]  # (ranks, suits, pile height, seed, empty foundation)
BOTH_VERDICTS = [(5, 3, 3, 2, False), (7, 2, 3, 11, False)]  # one solvable, one unsolvable
MORE_SMALL_DEALS = [(4, 3, 2, 1, False), (6, 3, 3, 4, True)] + [
    (ranks, suits, height, seed, seed % 2 == 0) for ranks in (4, 5, 7) for suits in (2, 3)
    for height in (2, 3) for seed in (11, 12)]


def native_status(deal):
    return solve(deal, "native", Limits(timeout=60)).status


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["ace", "choco"])
def test_unsolvable_deal_is_proven_unsolvable(solver):
    deal = pysol_deal("black_hole", UNSOLVABLE_SEED)
    assert native_status(deal) is Status.UNSOLVABLE
    result = solve(deal, solver, LIMITS)
    assert result.status is Status.UNSOLVABLE and result.sequence is None


@pytest.mark.slow  # four JVM runs of about 20 s of CPU each
@pytest.mark.parametrize("solver", ["ace", "choco"])
@pytest.mark.parametrize("search", ["paper", "solver"])
def test_a_deal_decided_by_propagation_alone_is_solved(solver, search):
    deal = parse_deal("ranks: 2\nfoundation: r0s0\npiles: [[r1s0, r0s1], [r1s1]]\n", "tiny.yaml")
    assert native_status(deal) is Status.SOLVED
    result = solve(deal, solver, LIMITS, {"search": search})
    assert result.status is Status.SOLVED, result.message


def test_timeout_is_reported_and_the_jvm_killed():
    result = solve(pysol_deal("black_hole", 2), "ace", Limits(timeout=1.5),
                   {"symmetry-breaking": "off", "search": "paper"})
    assert result.status is Status.TIMEOUT and result.wall < 10


def test_bad_option_is_a_usage_error_not_a_run(capsys):
    with pytest.raises(UsageError, match="option search must be one of solver, paper, not 'fastest'"):
        solve(random_deal(4, 2, 2, 1), "ace", LIMITS, {"search": "fastest"})
    deal = str(INSTANCES / "black_hole" / "paper-example.txt")
    assert main(["solve", deal, "--solver", "ace", "--set", "search=fastest"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: option search")


def check_symmetry_breaking_keeps_verdicts(deals, solver="ace"):
    for deal in deals:
        expected = native_status(deal)
        for setting in ("on", "off"):
            result = solve(deal, solver, LIMITS, {"symmetry-breaking": setting})
            assert result.status is expected, (deal, setting, result.message)
            assert solver != "ace" or result.nodes is not None


def small_deals(parameters):
    return [random_deal(ranks, suits, height, seed, empty) for ranks, suits, height, seed, empty in parameters]


@pytest.mark.slow
def test_symmetry_breaking_never_changes_a_verdict_on_small_generalised_deals():
    check_symmetry_breaking_keeps_verdicts(small_deals(SMALL_DEALS))


@pytest.mark.slow
def test_symmetry_breaking_never_changes_a_verdict_on_more_small_deals():
    check_symmetry_breaking_keeps_verdicts(small_deals(MORE_SMALL_DEALS))
    check_symmetry_breaking_keeps_verdicts(small_deals(SMALL_DEALS), solver="choco")


@pytest.mark.slow  # seeds 1-4 by default, where both settings decide (2 to 31 s of CPU a run); 30 by hand
@pytest.mark.parametrize("seed", sweep_seeds(full=30, ci=4))
def test_symmetry_breaking_never_changes_a_verdict_on_pysol_deals(seed):
    deal = pysol_deal("black_hole", seed)
    expected = native_status(deal)
    for setting in ("on", "off"):
        result = solve(deal, "ace", Limits(timeout=120), {"symmetry-breaking": setting})
        assert result.status in (expected, Status.TIMEOUT), (seed, setting, result.message)


@pytest.mark.slow
def test_all_in_a_row_deal_matches_the_native_verdict():
    deal = pysol_deal("all_in_a_row", 1)
    result = solve(deal, "ace", Limits(timeout=120), PAPER_SEARCH)
    assert result.status in (native_status(deal), Status.TIMEOUT)


@needs_solver("savilerow-minion")
def test_savilerow_minion_solves_the_paper_example():
    result = solve(read_deal(PAPER), "savilerow-minion", LIMITS)
    assert result.status is Status.SOLVED and result.nodes is not None
    assert result.stats["SavileRowTotalTime"] > 0


@pytest.mark.slow
@needs_solver("savilerow-minion")
def test_savilerow_minion_proves_unsolvable():
    deal = pysol_deal("black_hole", UNSOLVABLE_SEED)
    assert solve(deal, "savilerow-minion", LIMITS, {"symmetry-breaking": "off"}).status is Status.UNSOLVABLE


@pytest.mark.slow
@needs_solver("savilerow-sat")
@pytest.mark.parametrize("sat_solver", SAT_SOLVERS)
def test_savilerow_sat_matches_native_on_small_deals(sat_solver):
    for deal in [*small_deals(SMALL_DEALS + BOTH_VERDICTS), read_deal(PAPER)]:
        assert solve(deal, "savilerow-sat", LIMITS, {"sat-solver": sat_solver}).status is native_status(deal)


@needs_solver("savilerow-sat")
@needs_solver("cadical")
def test_savilerow_reads_a_competition_format_sat_solver():
    deals = small_deals(BOTH_VERDICTS)
    assert {native_status(deal) for deal in deals} == {Status.SOLVED, Status.UNSOLVABLE}
    for deal in deals:
        assert solve(deal, "savilerow-sat", LIMITS, {"sat-solver": "cadical"}).status is native_status(deal)


def test_savilerow_optimisation_level_is_checked_before_anything_runs():
    with pytest.raises(UsageError, match="option optimisation must be one of 0, 1, 2, 3, not '4'"):
        solve(random_deal(4, 2, 2, 1), "savilerow-sat", LIMITS, {"optimisation": "4"})


def test_savilerow_sat_names_the_sat_solvers_it_can_read():
    with pytest.raises(UsageError) as caught:
        solve(random_deal(4, 2, 2, 1), "savilerow-sat", LIMITS, {"sat-solver": "kissat"})
    assert str(caught.value) == ("option sat-solver must be one of minisat, cadical, cryptominisat, picosat, "
                                 "not 'kissat'")


@pytest.mark.slow
@needs_solver("savilerow-minion")
def test_savilerow_minion_matches_native_on_small_deals_with_and_without_symmetry_breaking():
    check_symmetry_breaking_keeps_verdicts(small_deals(SMALL_DEALS), solver="savilerow-minion")


@pytest.mark.slow
def test_ace_searches_in_the_paper_order_by_default():
    deal = pysol_deal("black_hole", 2)
    default, paper = (solve(deal, "ace", LIMITS, options) for options in ({}, PAPER_SEARCH))
    assert default.status is Status.SOLVED and paper.status is Status.SOLVED
    assert default.sequence == paper.sequence and default.nodes == paper.nodes
