"""One status: every outcome the toolkit holds in memory is a `patience.result.Status` (solvers, the
native search, the survey, families' labels, the campaign), the stores keep what they always kept
(the survey its integers, the campaign its names), and one rule names a limit reached: the clock is
timeout, memory memout, any other budget unknown."""

from __future__ import annotations

import sqlite3

import pytest

from patience.campaign import config
from patience.campaign.execute import Task, run_task
from patience.campaign.record import RunRecord
from patience.campaign.store import Store
from patience.families import labels, select
from patience.generators.deals import pysol_deal
from patience.generators.lp.solution import read_highs
from patience.native import engine, reference
from patience.native.board import Board
from patience.native.rules import Rules
from patience.result import Answer, Status
from patience.runners.base import answer_from_run
from patience.runners.cpsat import VERDICTS as CPSAT_VERDICTS
from patience.runners.solve import solve
from patience.runners.xcsp_output import read_output
from patience.runs.process import Limits, ProcessRun
from patience.runs.progress import SHOWN
from patience.runs.specs import resolve
from patience.survey.decide import Batch, decide_batch
from patience.survey.store import READ_VERDICT, STORED_VERDICT, UNDECIDED, VERDICTS, Row, SurveyStore

WON_IN_3000 = 7  # black_hole deal 7: won in about 3,000 nodes, so a 100-node budget stops it


def _statuses(values) -> list[type]:
    return [type(value) for value in values]


def test_a_status_in_memory_is_never_a_bare_name():
    with pytest.raises(TypeError, match="Status"):
        Answer("solved")  # type: ignore[arg-type]
    assert SHOWN and all(type(name) is Status for name in SHOWN)
    assert all(kept is None or type(kept) is Status for kept in select.STATUSES.values())
    found = [labels.Label(status, 1, 1, 0.0) for status in (Status.SOLVED, Status.TIMEOUT, Status.UNSOLVABLE)]
    assert [select.choose(found, [0.0] * 3, None, word, 0) for word in ("solved", "solvable", "unsolvable", "any")] \
        == [[0], [0], [2], [0, 1, 2]]  # `solvable` is the older spelling of solved


def test_the_native_search_and_the_solvers_give_statuses(paper_deal):
    deal = pysol_deal("black_hole", WON_IN_3000)
    board = Board.of(deal)
    outcomes = [reference.search(board, Rules(), node_limit=node_limit) for node_limit in (None, 100)]
    if engine.compiled():
        outcomes.append(engine.run_compiled(board, Rules(), False, 100, None))
        outcomes += engine.decide_many([board, Board.of(pysol_deal("black_hole", 1))], Rules(), False, 100)
    assert set(_statuses(outcome.status for outcome in outcomes)) == {Status}
    assert {outcome.status for outcome in outcomes} >= {Status.SOLVED, Status.UNKNOWN}
    result = solve(paper_deal, "native", Limits(timeout=10))
    assert type(result.status) is Status and result.status is Status.SOLVED


def test_the_survey_holds_statuses_and_stores_its_integers(tmp_path):
    rows = decide_batch(Batch("black_hole", "pysolfc", (1, 2, WON_IN_3000), 10.0, nodes=100))
    assert set(_statuses(row.verdict for row in rows)) == {Status}
    assert rows[2].verdict is UNDECIDED is Status.UNKNOWN  # a node budget: unknown, by the rule
    store = SurveyStore(tmp_path / "s.db")
    store.add_batch([*rows, Row(9, Status.UNSOLVABLE, 3, 5, 0.1)])
    assert [row.verdict for row in store.rows()] == [row.verdict for row in rows] + [Status.UNSOLVABLE]
    assert set(_statuses(store.verdict_counts())) == {Status}
    store.close()
    stored = dict(sqlite3.connect(tmp_path / "s.db").execute("SELECT seed, verdict FROM deals"))
    assert stored[WON_IN_3000] == -1 and stored[9] == 0  # the store keeps what it always kept
    assert {STORED_VERDICT[verdict] for verdict in VERDICTS} == {1, 0, -1} and READ_VERDICT[-1] is UNDECIDED


def test_a_label_and_a_campaign_row_hold_statuses_and_the_store_keeps_names(tmp_path):
    named = resolve("black_hole:2")[0]
    label = labels.label(named, 10.0)
    assert type(label.status) is Status and label.status.decided
    record = run_task(Task(named, config.make("n", "native", {"nodes": 10}), Limits(timeout=10)))
    assert type(record.status) is Status and record.status is Status.UNKNOWN
    store = Store(tmp_path / "c.sqlite")
    store.fix_configurations([config.make("n", "native", {"nodes": 10})])
    store.add_deals([named])
    assert store.record(record)
    assert [run.status for run in store.runs()] == [Status.UNKNOWN]
    assert set(_statuses(store.statuses().values())) == {Status}
    store.close()
    assert sqlite3.connect(tmp_path / "c.sqlite").execute("SELECT status FROM runs").fetchone() == ("unknown",)
    assert RunRecord.stored(("d", "n", "native", "{}", "timeout", *[None] * 5, "", "", "", "{}")).status \
        is Status.TIMEOUT


# --- the rule: the clock is timeout, memory memout, any other budget unknown ---------------------------

def test_the_clock_is_a_timeout():
    board = Board.of(pysol_deal("black_hole", WON_IN_3000))
    assert reference.search(board, Rules.only(), seconds=0.02).status is Status.TIMEOUT
    result = solve(pysol_deal("black_hole", WON_IN_3000), "native", Limits(timeout=0.02), {"cache": "off",
                   "symmetry": "off", "wolter": "off", "reach": "off", "restarts": "off"})
    assert result.status is Status.TIMEOUT and result.message == "time limit reached"
    killed = ProcessRun(("solver",), None, "", "", 1.0, 1.0, timed_out=True)
    assert answer_from_run(killed, Status.UNKNOWN).status is Status.TIMEOUT
    assert CPSAT_VERDICTS["UNKNOWN"] is Status.TIMEOUT  # CP-SAT says UNKNOWN only at its time limit
    assert read_output("s UNKNOWN\n", "ace", {}).status is Status.TIMEOUT  # ACE, Choco: at their -t limit
    assert read_highs("Model status\nTime limit reached\n").status is Status.TIMEOUT


def test_a_failure_at_the_cpu_limit_is_a_timeout_and_a_verdict_there_stands():
    """A run that exits non-zero with its CPU near its limit (MiniZinc exiting 1 when the rlimit ended
    its FlatZinc solver) gave no verdict for its limit's sake; one that printed a verdict gave it,
    however its exit status reads (CaDiCaL exits 20 with a proof of unsatisfiability)."""
    failed = ProcessRun(("minizinc",), 1, "", "", 60.0, 58.0, failed_near_cpu_limit=True)
    assert failed.out_of_time and not failed.timed_out
    assert answer_from_run(failed, Status.ERROR, message="minizinc exit 1").status is Status.TIMEOUT
    assert answer_from_run(failed, Status.UNKNOWN).status is Status.TIMEOUT
    proved = ProcessRun(("cadical",), 20, "s UNSATISFIABLE\n", "", 60.0, 58.0, failed_near_cpu_limit=True)
    assert answer_from_run(proved, Status.UNSOLVABLE).status is Status.UNSOLVABLE
    early = ProcessRun(("minizinc",), 1, "", "", 1.0, 1.0)
    assert not early.out_of_time and answer_from_run(early, Status.ERROR).status is Status.ERROR


def test_memory_is_a_memout():
    killed = ProcessRun(("solver",), None, "", "", 1.0, 1.0, memout=True)
    assert answer_from_run(killed, Status.UNKNOWN).status is Status.MEMOUT
    assert read_highs("Model status\nMemory limit reached\n").status is Status.MEMOUT


def test_any_other_budget_is_unknown():
    deal = pysol_deal("black_hole", WON_IN_3000)
    assert reference.search(Board.of(deal), Rules(), node_limit=100).status is Status.UNKNOWN
    result = solve(deal, "native", Limits(timeout=10), {"nodes": "100"})
    assert result.status is Status.UNKNOWN and result.message == "node limit reached"
    assert read_highs("Model status\nIteration limit reached\n").status is Status.UNKNOWN
    # the compiled search's one word for both limits, read by the nodes it searched (node limit first)
    assert engine.compiled_status("limit", 100, 100) is Status.UNKNOWN
    assert engine.compiled_status("limit", 99, 100) is Status.TIMEOUT
    assert engine.compiled_status("limit", 5, None) is Status.TIMEOUT
