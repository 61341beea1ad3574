"""black-hole-solve as a registered solver: its stdout read on real transcripts everywhere, and the
binary run for real where it is installed (PATH or BLACK_HOLE_SOLVE_PATH)."""

from __future__ import annotations

import pytest

from patience.deal import Deal
from patience.errors import InputError, UsageError
from patience.formats import read_deal
from patience.generators.deals import pysol_deal, random_deal
from patience.result import Status
from patience.runners.black_hole_solve import read_output
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import INSTANCES, TRANSCRIPTS, needs_solver

BHS = TRANSCRIPTS / "black_hole_solve"
PAPER = INSTANCES / "black_hole" / "paper-example.txt"
INSTALLED = needs_solver("black-hole-solve")


def transcript(name: str, deal_path) -> tuple[Deal, tuple]:
    deal = read_deal(deal_path)
    return deal, read_output((BHS / f"{name}.stdout").read_text(), name, deal)


@pytest.mark.parametrize(("name", "deal_path"), [("paper-example", PAPER),
                                                 ("all_in_a_row-3", BHS / "all_in_a_row-3.txt")])
def test_a_solved_transcript_replays(name, deal_path):
    deal, (status, sequence, nodes) = transcript(name, deal_path)
    assert status is Status.SOLVED and nodes is not None and nodes > 0
    assert replay(deal, sequence).valid and len(sequence) == len(deal.cards)


def test_unsolved_is_unsolvable_and_intractable_is_unknown():
    _, (status, sequence, nodes) = transcript("black_hole-1", BHS / "black_hole-1.txt")
    assert (status, sequence, nodes) == (Status.UNSOLVABLE, None, 8)
    _, (status, sequence, nodes) = transcript("all_in_a_row-3-max-iters-5", BHS / "all_in_a_row-3.txt")
    assert (status, sequence, nodes) == (Status.UNKNOWN, None, 5)


def test_output_without_a_verdict_is_an_input_error():
    with pytest.raises(InputError, match="expected Solved!, Unsolved! or Intractable!"):
        read_output("Segmentation fault\n", "out", read_deal(PAPER))


def test_generalised_deals_and_unknown_options_are_refused():
    assert get_solver("black-hole-solve").games == ("black_hole", "all_in_a_row", "golf", "golf_queens_on_kings",
                                                    "golf_wrap_ranks")
    with pytest.raises(UsageError, match="does not play generalised deals; it plays: black_hole, all_in_a_row, golf,"):
        solve(random_deal(5, 3, 3, seed=2), "black-hole-solve", Limits(timeout=5))
    with pytest.raises(UsageError, match="has no option 'colour'"):
        solve(read_deal(PAPER), "black-hole-solve", Limits(timeout=5), {"colour": "red"})


@INSTALLED
@pytest.mark.parametrize(("game", "seed"), [("black_hole", seed) for seed in range(1, 13)]
                         + [("all_in_a_row", seed) for seed in range(1, 7)])
def test_real_runs_agree_with_native_and_replay(game, seed):
    deal = pysol_deal(game, seed)
    result = solve(deal, "black-hole-solve", Limits(timeout=60))
    assert result.status is solve(deal, "native", Limits(timeout=60)).status
    if result.sequence is not None:
        assert replay(deal, result.sequence).valid


@INSTALLED
def test_iteration_limit_gives_unknown_never_a_verdict():
    result = solve(pysol_deal("all_in_a_row", 3), "black-hole-solve", Limits(timeout=60), {"max-iters": "5"})
    assert result.status is Status.UNKNOWN and result.nodes == 5
