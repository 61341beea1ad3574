"""The survey's figures: Wilson intervals, the max-cards histogram and mean, the no-move chance,
the report through the CLI with its plot."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from patience.cli import main
from patience.result import Status
from patience.survey.chances import stuck_after_first_chance
from patience.survey.report import render, stop_chance, summarise, wilson
from patience.survey.store import UNDECIDED, Row, SurveyStore


def test_wilson_interval_at_the_edges_and_by_symmetry():
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(1.959963984540054 ** 2 / (10 + 1.959963984540054 ** 2))
    for won, trials in ((3, 10), (869, 1000), (1, 2)):
        low, high = wilson(won, trials)
        mirror_low, mirror_high = wilson(trials - won, trials)
        assert low == pytest.approx(1 - mirror_high) and high == pytest.approx(1 - mirror_low)
        assert low < won / trials < high


def test_wilson_interval_narrows_like_one_over_root_n():
    widths = [wilson(87 * n, 100 * n)[1] - wilson(87 * n, 100 * n)[0] for n in (1, 100)]
    assert widths[0] / widths[1] == pytest.approx(10, rel=0.05)


def test_wilson_interval_covers_the_rate_about_95_percent_of_the_time():
    rng, rate, trials = random.Random(1), 0.87, 400
    covered = 0
    for _ in range(2000):
        won = sum(rng.random() < rate for _ in range(trials))
        low, high = wilson(won, trials)
        covered += low <= rate <= high
    assert 0.93 < covered / 2000 < 0.97


def test_no_move_chance_is_the_chance_of_no_two_and_no_king_on_top():
    by_product = math.prod((43 - i) / (51 - i) for i in range(17))
    assert stop_chance("black_hole") == pytest.approx(by_product)
    assert round(stop_chance("black_hole") * 1_000_000) == 28513


def _stuck_by_brute_force(ranks: int, suits: int, piles: int) -> Fraction:
    """Every ordered choice of top and second cards: stuck when no top card has a follower."""
    cards = [(rank, suit) for rank in range(ranks) for suit in range(suits)]
    def adjacent(a: int, b: int) -> bool:
        return (a - b) % ranks in (1, ranks - 1)
    stuck = total = 0
    for chosen in itertools.permutations(cards, 2 * piles):
        tops, seconds = chosen[:piles], chosen[piles:]
        total += 1
        stuck += all(not adjacent(tops[i][0], seconds[i][0])
                     and not any(adjacent(tops[i][0], tops[j][0]) for j in range(piles) if j != i)
                     for i in range(piles))
    return Fraction(stuck, total)


@pytest.mark.parametrize("shape", [(5, 2, 2), (7, 2, 2), (6, 2, 3)])
def test_stuck_after_the_first_card_chance_equals_brute_force_on_small_decks(shape):
    assert stuck_after_first_chance(*shape) == _stuck_by_brute_force(*shape)


def test_all_in_a_row_stuck_chance_is_tiny_but_not_zero():
    assert 0 < stop_chance("all_in_a_row") < 1e-5


def _rows() -> list[Row]:
    won, lost = Status.SOLVED, Status.UNSOLVABLE
    return [Row(1, won, 51, 100, 0.01), Row(2, lost, 0, 1, 0.001), Row(3, lost, 0, 1, 0.001),
            Row(4, lost, 7, 50, 0.01), Row(5, UNDECIDED, 40, 10**6, 60.0), Row(6, won, 51, 80, 0.01)]


def test_summary_counts_histogram_mean_and_undecided():
    summary = summarise("black_hole", _rows())
    assert (summary.deals, summary.won, summary.lost, summary.undecided) == (6, 2, 3, (5,))
    assert summary.histogram[0] == 2 and summary.histogram[51] == 2 and summary.histogram[7] == 1
    assert sum(summary.histogram.values()) == 6 and len(summary.histogram) == 52
    assert summary.mean_cards == pytest.approx((51 + 7 + 40 + 51) / 6)
    assert summary.no_move == 2 and summary.rate == pytest.approx(2 / 5)
    text = render(summary, {"numbering": "pysolfc", "timeout": 60})
    assert "won: 2 of 5 decided = 40.00%" in text and "undecided: 1 of 6 = 16.67% (seeds 5)" in text
    assert "nodes per deal: median 50, 99th percentile 1,000,000" in text
    assert "| 0 | 2 | 33.333 |" in text and "| 51 | 2 | 33.333 |" in text


def test_all_in_a_row_counts_deals_stuck_after_the_free_first_card():
    summary = summarise("all_in_a_row", [Row(1, Status.UNSOLVABLE, 1, 2, 0.0), Row(2, Status.SOLVED, 52, 9, 0.0)])
    assert summary.no_move == 1 and len(summary.histogram) == 53
    text = render(summary, {})  # settings that name neither a numbering nor a shape
    assert "only that first card playable: 1 deals" in text
    assert "2 deals (numbered deals, max-cards mode)" in text and "None" not in text
    assert "\nlimits: none recorded\n" in text


def test_report_prints_the_table_and_draws_the_plot(tmp_path, capsys):
    db = tmp_path / "s.db"
    store = SurveyStore(db)
    store.fix_settings({"game": "black_hole", "numbering": "pysolfc", "mode": "max-cards", "timeout": 60})
    store.add_batch(_rows())
    store.close()
    png, svg = tmp_path / "h.png", tmp_path / "h.svg"
    assert main(["survey", "report", "--db", str(db), "--plot", str(png), "--plot", str(svg)]) == 0
    assert "no playable card: 2 deals, expected 0.171 (chance C(43,17)/C(51,17) = 0.0285; binomial sd 0.408)" \
        in capsys.readouterr().out
    assert png.read_bytes().startswith(b"\x89PNG") and b"<svg" in svg.read_bytes()
