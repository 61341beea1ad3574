"""judge: the only road to SOLVED goes through the validator."""

from __future__ import annotations

import pytest

from patience.answers import read_answer
from patience.result import Answer, SolverResult, Status, judge, to_record
from tests.helpers import INSTANCES


@pytest.fixture
def paper_solution(paper_deal):
    text = (INSTANCES / "black_hole" / "paper-example.solution").read_text()
    return read_answer(text, "paper", paper_deal)


def test_a_replaying_sequence_is_solved(paper_deal, paper_solution):
    result = judge(paper_deal, "x", Answer(Status.SOLVED, paper_solution, wall=1.0))
    assert result.status is Status.SOLVED and len(result.sequence) == 51
    record = to_record(paper_deal, result)
    assert record["sequence"][:3] == ["AS", "2C", "3S"] and record["status"] == "solved"


def test_a_wrong_sequence_is_an_error_naming_the_fault(paper_deal, paper_solution):
    broken = paper_solution[:5] + paper_solution[6:]
    result = judge(paper_deal, "x", Answer(Status.SOLVED, broken))
    assert result.status is Status.ERROR and result.sequence is None
    assert "rejected by the validator: move 5" in result.message


def test_a_win_claim_without_cards_is_an_error(paper_deal):
    assert judge(paper_deal, "x", Answer(Status.SOLVED)).status is Status.ERROR


def test_unsolvable_claim_with_a_winning_sequence_is_a_contradiction(paper_deal, paper_solution):
    result = judge(paper_deal, "x", Answer(Status.UNSOLVABLE, paper_solution))
    assert result.status is Status.ERROR and "gave a winning sequence" in result.message


@pytest.mark.parametrize("status", [Status.UNSOLVABLE, Status.TIMEOUT, Status.UNKNOWN])
def test_verdicts_without_cards_pass_through(paper_deal, status):
    assert judge(paper_deal, "x", Answer(status)).status is status


def test_result_invariant_is_enforced(paper_solution):
    with pytest.raises(ValueError):
        SolverResult("x", Status.SOLVED, None, 0.0, 0.0)
    with pytest.raises(ValueError):
        SolverResult("x", Status.UNSOLVABLE, paper_solution, 0.0, 0.0)
