"""The native solver through the runner core: verdicts, validated sequences, options and limits."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from patience.cards import Card, parse_card
from patience.deal import Deal
from patience.errors import UsageError
from patience.generators.deals import pysol_board, pysol_deal
from patience.native import engine
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay

ENGINES = ["python"] + (["c"] if engine.compiled() else [])


@pytest.mark.parametrize("choice", ENGINES)
def test_paper_deal_is_solved_and_replays(paper_deal, choice):
    result = solve(paper_deal, "native", Limits(timeout=30), {"engine": choice})
    assert result.status is Status.SOLVED
    assert replay(paper_deal, result.sequence).valid
    assert result.nodes >= 51 and result.stats["engine"] == choice


def _stuck_deal() -> Deal:
    """A standard deal whose 17 top cards hold no 2 and no K: no first move exists."""
    deck = [Card(rank, suit) for suit in range(4) for rank in range(13) if (rank, suit) != (0, 0)]
    twos_kings = [card for card in deck if card.rank in (1, 12)]
    others = [card for card in deck if card.rank not in (1, 12)]
    tops, rest = others[:17], others[17:] + twos_kings
    piles = tuple((top, rest[2 * index], rest[2 * index + 1]) for index, top in enumerate(tops))
    return Deal(piles, Card(0, 0))


@pytest.mark.parametrize("choice", ENGINES)
def test_no_two_or_king_on_top_is_unsolvable_at_once(choice):
    result = solve(_stuck_deal(), "native", Limits(timeout=10), {"engine": choice})
    assert result.status is Status.UNSOLVABLE
    assert result.nodes == 1


@pytest.mark.parametrize("choice", ENGINES)
def test_all_in_a_row_first_card_is_free(choice):
    deal = pysol_deal("all_in_a_row", 3)
    result = solve(deal, "native", Limits(timeout=30), {"engine": choice})
    assert result.status is Status.SOLVED and len(result.sequence) == 52
    assert replay(deal, result.sequence).valid


@pytest.mark.parametrize("choice", ENGINES)
def test_node_limit_gives_unknown_not_a_verdict(choice):
    deal = pysol_deal("black_hole", 5)
    result = solve(deal, "native", Limits(timeout=30), {"engine": choice, "nodes": "20"})
    assert result.status is Status.UNKNOWN
    assert result.nodes <= 21


def test_time_limit_gives_timeout():
    deal = pysol_deal("black_hole", 7)  # minutes for the reference with no pruning and no restarts
    options = {"engine": "python", "symmetry": "off", "wolter": "off", "reach": "off", "restarts": "off"}
    result = solve(deal, "native", Limits(timeout=0.3), options)
    assert result.status is Status.TIMEOUT
    assert result.wall < 3


@pytest.mark.parametrize("choice", ENGINES)
def test_deals_over_64_cards_are_solved_by_either_engine(choice):
    piles = tuple((Card(rank, suit),) for suit in range(2) for rank in range(35))[1:]
    deal = Deal(piles, Card(0, 0), ranks=35)
    result = solve(deal, "native", Limits(timeout=30), {"engine": choice})
    assert result.status is Status.SOLVED and result.stats["engine"] == choice
    assert replay(deal, result.sequence).valid and len(deal.cards) == 69


def test_the_compiled_engine_is_the_default_when_built():
    deal = pysol_deal("black_hole", 2)
    result = solve(deal, "native", Limits(timeout=30))
    assert result.stats["engine"] == ("c" if engine.compiled() else "python")
    if not engine.compiled():
        with pytest.raises(UsageError):
            solve(deal, "native", Limits(timeout=30), {"engine": "c"})


@pytest.mark.parametrize("options", [{"cache": "maybe"}, {"nodes": "x"}, {"engine": "java"}, {"colour": "on"}])
def test_bad_options_are_usage_errors(paper_deal, options):
    with pytest.raises(UsageError):
        solve(paper_deal, "native", Limits(timeout=5), options)


def test_max_cards_reports_longest_play_of_unsolvable_deal():
    deal = pysol_deal("black_hole", 1)
    result = solve(deal, "native", Limits(timeout=30), {"max-cards": "on", "engine": "python"})
    assert result.status is Status.UNSOLVABLE
    play = [parse_card(name) for name in result.stats["longest_play"].split()]
    assert len(play) == result.stats["max_cards"] > 0
    assert replay(deal, play, complete=False).valid


def patience(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True, text=True, timeout=120)


def test_cli_solves_and_proves_unsolvable(tmp_path):
    winnable, stuck = tmp_path / "winnable.txt", tmp_path / "stuck.txt"
    winnable.write_text(pysol_board("black_hole", 2))
    stuck.write_text(pysol_board("black_hole", 1))
    won = patience("solve", str(winnable), "--solver", "native", "--timeout", "30")
    assert won.returncode == 0 and "status: solved" in won.stdout and "validated: 51 moves" in won.stdout
    lost = patience("solve", str(stuck), "--solver", "native", "--set", "max-cards=on", "--json")
    record = json.loads(lost.stdout)
    assert lost.returncode == 1 and record["status"] == "unsolvable" and record["stats"]["max_cards"] >= 0


def test_cli_node_limit_and_bad_option(tmp_path):
    board = tmp_path / "seven.txt"
    board.write_text(pysol_board("black_hole", 7))
    limited = patience("solve", str(board), "--solver", "native", "--set", "nodes=50")
    assert limited.returncode == 3 and "status: unknown" in limited.stdout
    bad = patience("solve", str(board), "--solver", "native", "--set", "reach=sometimes")
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.startswith("error:")
    assert "Traceback" not in bad.stderr


def test_the_compiled_search_is_built_from_the_source_beside_it():
    """A checkout's build carries its source's digest: a build older than _search.c is caught."""
    source = engine.Path(engine.__file__).with_name("_search.c")
    if not engine.compiled() or not source.is_file():
        pytest.skip("no compiled search with its source here (an installed wheel ships no source)")
    assert not engine.stale_build()
    assert len(engine._search.SOURCE) == 16


def test_a_build_from_another_source_is_stale_and_said_so(monkeypatch):
    if not engine.Path(engine.__file__).with_name("_search.c").is_file():
        pytest.skip("an installed wheel ships no source to compare")
    monkeypatch.setattr(engine, "_search", type("Built", (), {"SOURCE": "0123456789abcdef"}))
    assert engine.stale_build()
    monkeypatch.setattr(engine, "_search", None)
    monkeypatch.setattr(engine, "_stale", True)
    with pytest.raises(UsageError, match="out of date"):
        engine.choose(pysol_board("black_hole", 1), "c")


def test_a_warning_is_one_line():
    from patience.cli import _warning_line

    line = _warning_line(RuntimeWarning("the compiled search is out of date\nsecond"), RuntimeWarning, "x.py", 3)
    assert line.startswith("warning: the compiled search is out of date") and line.count("\n") == 1
    assert line.endswith("second\n") and "x.py" not in line
