"""judge: the only road to SOLVED goes through the validator."""

from __future__ import annotations

import pytest

from patience.answers import read_answer
from patience.result import Answer, Result, Status, judge
from tests.helpers import INSTANCES


@pytest.fixture
def paper_solution(paper_deal):
    text = (INSTANCES / "black_hole" / "paper-example.solution").read_text()
    return read_answer(text, "paper", paper_deal)


def test_a_replaying_sequence_is_solved(paper_deal, paper_solution):
    result = judge(paper_deal, "x", Answer(Status.SOLVED, paper_solution, wall=1.0))
    assert result.status is Status.SOLVED and len(result.sequence) == 51
    record = result.to_record()
    assert record["sequence"][:3] == ["AS", "2C", "3S"] and record["status"] == "solved"
    assert result.moves == tuple(record["sequence"]) and result and result.validated


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


def test_result_invariant_is_enforced(paper_deal, paper_solution):
    with pytest.raises(ValueError):
        Result(paper_deal, "x", Status.SOLVED, None, 0.0, 0.0)
    with pytest.raises(ValueError):
        Result(paper_deal, "x", Status.UNSOLVABLE, paper_solution, 0.0, 0.0)


def test_one_result_goes_from_the_runner_to_the_api_and_the_store(paper_deal, paper_solution):
    """The API's Result is the runners' own, and a campaign's row is its record under the campaign's keys."""
    import json

    import patience
    from patience.campaign.config import Configuration
    from patience.campaign.record import RUN_COLUMNS, RunRecord
    from patience.games import game_of
    from patience.runs.specs import NamedDeal

    assert patience.Result is Result
    result = judge(paper_deal, "x", Answer(Status.SOLVED, paper_solution, wall=1.25, cpu=0.5, nodes=7,
                                           stats={"b": 2, "a": 1}, command="x --go"), "1.0")
    named = NamedDeal("paper", game_of(paper_deal), paper_deal)
    row = RunRecord.kept(named, Configuration("x-fast", "x", (("fast", "on"),)), result, "h:1")
    record = result.to_record()
    assert row.values() == ("paper", "x-fast", "x", '{"fast": "on"}', "solved", " ".join(record["sequence"]),
                            1.25, 0.5, 7, "1.0", "h:1", "x --go", "", '{"a": 1, "b": 2}')
    assert len(row.values()) == len(RUN_COLUMNS) and row.status is Status.SOLVED and row.content == named.content != ""
    assert json.loads(row.stats) == record["stats"]
    lost = judge(paper_deal, "x", Answer(Status.UNSOLVABLE))
    assert not lost and lost.decided and lost.moves is None and RunRecord.kept(named, Configuration("x", "x"), lost,
                                                                               "h:1").sequence is None
