"""FF 2.3's real output on Golf and Worm Hole deals (tests/transcripts/ff, README.md there: `patience gen
pddl DEAL -o task`, then `ff -o domain.pddl -f problem.pddl` in task): each plan is read by the game's
own answer reader and replayed by its validator (a win), each proof of unsolvability read as a loss
that the native search confirms; where `ff` is installed, FF runs on the same deals for real."""

from __future__ import annotations

import subprocess
import sys

import pytest

from patience.games import read_game_deal
from patience.golf.pysol import golf_deal
from patience.result import Status
from patience.runners.pddl_plan import read_ff
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import TRANSCRIPTS, needs_solver

FF = TRANSCRIPTS / "ff"
WON = [("golf-small.stdout", TRANSCRIPTS / "golf" / "deal.yaml"),  # 7 pile cards, a stock of 4
       ("golf-pysol-2.stdout", FF / "golf-pysol-2.txt"),  # PySolFC's Golf deal 2 (black-hole-solve's board)
       ("golf-wrap-ranks-pysol-2.stdout", FF / "golf-wrap-ranks-pysol-2.txt"),  # the same cards, ranks wrapping
       ("worm-hole-small.stdout", TRANSCRIPTS / "worm_hole" / "deal.yaml"),  # three parks in every win
       ("worm-hole-pysol-1.stdout", FF / "worm-hole-pysol-1.txt")]  # Worm Hole deal 1 (PySolFC's Black Hole 1)
LOST = [("golf-lost.stdout", FF / "golf-lost.yaml"), ("golf-pysol-1.stdout", FF / "golf-pysol-1.txt"),
        ("worm-hole-lost.stdout", FF / "worm-hole-lost.yaml")]


def _steps(text: str) -> list[int]:
    """The line numbers (0-based) of the plan's steps in an FF transcript."""
    lines = text.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("ff: found legal plan"))
    return [index for index in range(start + 1, len(lines)) if ":" in lines[index] and lines[index].strip()
            and lines[index].split(":")[0].split()[-1].isdigit()]


@pytest.mark.parametrize(("transcript", "deal_file"), WON, ids=[name for name, _ in WON])
def test_ff_plans_of_golf_and_worm_hole_are_read_by_the_game_and_replayed(transcript, deal_file):
    game, deal = read_game_deal(deal_file)
    text = (FF / transcript).read_text()
    verdict = read_ff(text)
    assert verdict.status is Status.SOLVED and verdict.nodes
    moves = game.read_answer(text, transcript, deal)
    played = game.replay(deal, moves, complete=True)
    assert played.valid, played.fault
    lines = text.splitlines()
    del lines[_steps(text)[1]]  # the plan with its second step left out no longer wins
    shorter = game.read_answer("\n".join(lines) + "\n", transcript, deal)
    assert not game.replay(deal, shorter, complete=True).valid


@pytest.mark.parametrize(("transcript", "deal_file"), LOST, ids=[name for name, _ in LOST])
def test_ff_proofs_that_golf_and_worm_hole_deals_are_lost_are_read_as_losses(transcript, deal_file):
    verdict = read_ff((FF / transcript).read_text())
    assert (verdict.status, verdict.plan) == (Status.UNSOLVABLE, None)
    assert "best-first search space empty" in verdict.message
    _, deal = read_game_deal(deal_file)
    assert solve(deal, "native", Limits(timeout=60)).status is Status.UNSOLVABLE


@pytest.mark.parametrize(("board", "seed", "game"), [("golf-pysol-1.txt", 1, "golf"), ("golf-pysol-2.txt", 2, "golf"),
                                                     ("golf-wrap-ranks-pysol-2.txt", 2, "golf_wrap_ranks")])
def test_the_pysolfc_boards_are_the_numbered_deals(board, seed, game):
    _, deal = read_game_deal(FF / board)
    assert deal == golf_deal(seed, queens_on_kings=game != "golf", wrap_ranks=game == "golf_wrap_ranks")


def test_validate_refuses_an_ff_loss_as_an_answer():
    run = subprocess.run([sys.executable, "-m", "patience", "validate", str(FF / "worm-hole-lost.yaml"),
                          str(FF / "worm-hole-lost.stdout")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "unsolvable" in run.stderr and run.stdout == ""


def _real(deal_file, status):
    """A deal FF runs on for real; a PySolFC deal's run takes seconds (slow)."""
    return pytest.param(deal_file, status, id=deal_file.name, marks=[pytest.mark.slow] if "pysol" in deal_file.name
                        else [])


@needs_solver("ff")
@pytest.mark.parametrize(("deal_file", "status"), [_real(deal, Status.SOLVED) for _, deal in WON]
                         + [_real(deal, Status.UNSOLVABLE) for _, deal in LOST])
def test_ff_runs_for_real_on_golf_and_worm_hole(deal_file, status):
    _, deal = read_game_deal(deal_file)
    assert solve(deal, "ff", Limits(timeout=60)).status is status
