"""benchmarks/agreement.py: every solver route of every game against the native search on small deals
(docs/agreement.md). The slow sweep runs every installed route on the CI count of deals of each family
and finds no disagreement; the default tests check the script's deals, its resume and that it
catches a false verdict."""

from __future__ import annotations

import json

import pytest

from patience.games import game_of
from patience.result import Status
from tests.helpers import benchmark_script, sweep_seeds


@pytest.fixture(scope="module")
def agreement():
    with benchmark_script("agreement") as module:
        yield module


def test_the_families_deal_small_deals_of_their_games_from_the_number_alone(agreement):
    games = {"generalised": {"generalised"}, "all_in_a_row_like": {"generalised"},
             "binary_star_generalised": {"binary_star_generalised"}, "lbs": {"lbs"}, "black_hole": {"black_hole"},
             "golf_generalised": {"golf_generalised"}, "golf_queens_on_kings_generalised": {"golf_generalised"},
             "golf_wrap_ranks_generalised": {"golf_generalised"}, "worm_hole_generalised": {"worm_hole_generalised"},
             "worm_hole_two_cells": {"worm_hole_generalised"},
             "golf": {"golf", "golf_queens_on_kings", "golf_wrap_ranks"}}
    assert set(games) == set(agreement.FAMILIES)
    for family, game in games.items():
        deals = [agreement.small_deal(family, number) for number in range(1, 40 if family != "golf" else 7)]
        assert {game_of(deal).variant(deal) for deal in deals} == game
        assert deals[5] == agreement.small_deal(family, 6)  # the same number, the same deal
        if family not in agreement.NUMBERED:
            assert max(len(deal.cards) + len(getattr(deal, "stock", ())) for deal in deals) <= 16
    assert all(agreement.small_deal("all_in_a_row_like", number).foundation is None for number in range(1, 10))
    for family, flags in agreement.GOLF_SMALL.items():  # each family plays its variant
        deals = [agreement.small_deal(family, number) for number in range(1, 21)]
        assert {(deal.queens_on_kings, deal.wrap_ranks) for deal in deals} == {flags}
    for family, cells in agreement.WORM_HOLE_SMALL.items():
        assert {agreement.small_deal(family, number).cells for number in range(1, 20)} == {cells}


def test_outcomes_count_a_false_verdict_as_a_disagreement(agreement):
    assert agreement.outcome(Status.SOLVED, Status.SOLVED) == "agree"
    assert agreement.outcome(Status.SOLVED, Status.UNSOLVABLE) == "disagree"
    assert agreement.outcome(Status.UNSOLVABLE, Status.SOLVED) == "disagree"
    assert agreement.outcome(Status.SOLVED, Status.TIMEOUT) == "open"
    assert agreement.outcome(Status.TIMEOUT, Status.SOLVED) == "open"
    assert agreement.outcome(Status.SOLVED, Status.ERROR) == "error"


def test_a_run_resumes_and_a_stored_disagreement_ends_it_with_status_1(agreement, tmp_path, capsys):
    arguments = ["run", "--out", str(tmp_path), "--families", "generalised", "--deals", "3",
                 "--routes", "sat-successor,plain", "--cpu", "30"]
    assert agreement.main(arguments) == 0
    rows = agreement.read_rows(tmp_path)
    routes = ("sat-successor", "plain")
    assert {(row["number"], row["route"]) for row in rows} == {(n, r) for n in (1, 2, 3) for r in routes}
    assert all(row["outcome"] == "agree" for row in rows)
    with (tmp_path / agreement.ROWS).open("a") as out:  # a cut last line, as a kill leaves it
        out.write('{"family": "gener')
    assert agreement.main(arguments) == 0
    assert len(agreement.read_rows(tmp_path)) == 6  # nothing ran again, the cut line is gone
    timed_out = [{**rows[0], "status": "timeout", "outcome": "open"}, *rows[1:]]
    (tmp_path / agreement.ROWS).write_text("".join(json.dumps(row) + "\n" for row in timed_out))
    assert agreement.main(arguments) == 0 and len(agreement.read_rows(tmp_path)) == 6  # kept as it was
    assert agreement.main([*arguments, "--retry-open"]) == 0
    assert sorted(row["outcome"] for row in agreement.read_rows(tmp_path)) == ["agree"] * 6  # run again
    forged = {**rows[0], "status": "unsolvable" if rows[0]["native"] == "solved" else "solved", "outcome": "disagree"}
    with (tmp_path / agreement.ROWS).open("a") as out:
        out.write(json.dumps(forged) + "\n")
    capsys.readouterr()
    assert agreement.main(["report", "--out", str(tmp_path)]) == 1
    assert "DISAGREEMENT: generalised deal 1" in capsys.readouterr().out


def test_a_report_merges_runs_and_keeps_a_pair_run_twice_by_its_worst_outcome(agreement, tmp_path, capsys):
    first, second = tmp_path / "first", tmp_path / "second"
    row = {"family": "lbs", "number": 1, "cards": 5, "route": "sat", "native": "solved", "status": "solved",
           "outcome": "agree", "wall": 0.1, "cpu": 0.1, "message": ""}
    first.mkdir()
    second.mkdir()
    (first / agreement.ROWS).write_text(json.dumps(row) + "\n")
    (second / agreement.ROWS).write_text(json.dumps(row) + "\n" + json.dumps({**row, "number": 2}) + "\n")
    assert [r["number"] for r in agreement.merged_rows([first, second])] == [1, 2]
    assert agreement.main(["report", "--out", str(first), "--out", str(second)]) == 0
    assert "| all | 2 | 2 | 0 | 0 | 0 | 2 deals |" in capsys.readouterr().out
    again = {**row, "outcome": "disagree", "status": "unsolvable"}  # the same pair, another verdict: it stays
    (second / agreement.ROWS).write_text(json.dumps(again) + "\n")
    assert agreement.main(["report", "--out", str(first), "--out", str(second)]) == 1
    assert "| all | 1 | 0 | 0 | 0 | 1 | 1 deals |" in capsys.readouterr().out


def test_an_unknown_family_or_route_is_one_line_and_status_2(agreement, tmp_path, capsys):
    assert agreement.main(["run", "--out", str(tmp_path), "--families", "nosuch"]) == 2
    assert agreement.main(["run", "--out", str(tmp_path), "--routes", "nosuch"]) == 2
    assert capsys.readouterr().err.count("\n") == 2


@pytest.mark.slow
@pytest.mark.parametrize("deals", [len(sweep_seeds(full=200, ci=1))])
def test_every_route_agrees_with_the_native_search_on_small_deals_of_every_game(agreement, tmp_path, deals):
    """Every installed route (its defaults) on the first deals of each small family: a replayed win
    against a loss either way is a false verdict; timeouts are allowed, errors are not."""
    families = ["generalised", "all_in_a_row_like", "binary_star_generalised", "lbs", *agreement.GOLF_SMALL,
                *agreement.WORM_HOLE_SMALL]
    assert agreement.main(["run", "--out", str(tmp_path), "--families", ",".join(families), "--deals", str(deals),
                           "--black-hole-deals", "0", "--golf-deals", "0", "--cpu", "60"]) == 0
    rows = agreement.read_rows(tmp_path)
    assert not [row for row in rows if row["outcome"] in ("disagree", "error")]
    for family in families:
        deal = agreement.small_deal(family, 1)
        assert {row["route"] for row in rows if row["family"] == family} == set(agreement.routes_for(deal, None))
    assert sum(row["outcome"] == "agree" for row in rows) >= 0.9 * len(rows)
