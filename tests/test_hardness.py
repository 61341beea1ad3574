"""benchmarks/hardness.py's analysis on small synthetic stores: the 50%-won point per rank count and
its bootstrap interval, the isotonic crossing, the finite-size-scaling fit, the figures and the
page's generated blocks, so that the code behind docs/hardness.md cannot rot unnoticed."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from patience.names import GENERALISED
from patience.result import Status
from patience.survey.store import DECISION, UNDECIDED, Row, SurveyStore, survey_settings
from tests.helpers import benchmark_script


@pytest.fixture(scope="module")
def hardness():
    with benchmark_script("hardness") as module:
        yield module


def won_share(ranks: int, ratio: float, centre: dict[int, float], width: float, exponent: float) -> float:
    """The synthetic truth: a logistic in ln(ratio) around c(R), sharpening as (R / 26)^exponent."""
    return 1 / (1 + math.exp(-math.log(ratio / centre[ranks]) * (ranks / 26) ** exponent / width))


def make_store(folder: Path, shape: tuple[int, int, int], won: int, lost: int, undecided: int,
               nodes: int = 1000) -> None:
    """A shape's store with `won`, `lost` and `undecided` deals, seeds 1, 2, ..."""
    folder.mkdir(parents=True, exist_ok=True)
    store = SurveyStore(folder / f"r{shape[0]}-s{shape[1]}-h{shape[2]}.db")
    store.fix_settings(survey_settings(GENERALISED, None, shape, DECISION, 60.0, nodes))
    verdicts = [Status.SOLVED] * won + [Status.UNSOLVABLE] * lost + [UNDECIDED] * undecided
    store.add_batch(Row(seed, verdict, 3, 10 * seed, 0.01) for seed, verdict in enumerate(verdicts, 1))
    store.close()


CENTRES = {13: 1.0, 52: 2.0}
SHAPES = [(13, 2, 4), (13, 2, 3), (13, 2, 2), (13, 3, 2), (13, 4, 2), (13, 6, 2), (13, 8, 2),
          (52, 2, 2), (52, 3, 2), (52, 4, 2), (52, 5, 2), (52, 6, 2), (52, 8, 2), (52, 12, 2)]


@pytest.fixture
def grid(tmp_path: Path) -> Path:
    """Two rank counts, 200 deals a shape drawn to the synthetic truth, 10 of them undecided."""
    folder = tmp_path / "grid"
    for shape in SHAPES:
        won = round(190 * won_share(shape[0], shape[1] / shape[2], CENTRES, 0.3, 0.0))
        make_store(folder, shape, won, 190 - won, 10)
    return folder


def script(hardness, monkeypatch, *argv: str | Path) -> int:
    """The script's exit status on the command line `hardness.py ARGV`."""
    monkeypatch.setattr(sys, "argv", ["hardness.py", *map(str, argv)])
    return hardness.main()


def page(folder: Path) -> Path:
    folder.mkdir()
    path = folder / "hardness.md"
    path.write_text("# prose before\n\n<!-- hardness threshold -->\nold\n<!-- /hardness threshold -->\n\n"
                    "<!-- hardness table 1m -->\n<!-- /hardness table 1m -->\nprose after\n")
    return path


def test_the_50_percent_point_is_found_with_an_interval_around_it(hardness, grid):
    found = {t.ranks: t for t in hardness.thresholds(hardness.measure(grid), samples=60)}
    assert sorted(found) == [13, 52]
    for ranks, truth in CENTRES.items():
        point = found[ranks]
        assert point.deals == 7 * 200 and point.decided == 7 * 190
        assert point.logistic == pytest.approx(truth, rel=0.05)
        assert point.crossing == pytest.approx(truth, rel=0.15)
        assert point.logistic_interval[0] < point.logistic < point.logistic_interval[1]
        assert point.logistic_interval[1] - point.logistic_interval[0] < 0.3 * truth
        assert point.width == pytest.approx(0.3, rel=0.2)
        assert point.bracket[1] < point.logistic < point.bracket[0]  # undecided deals won / lost


def test_the_isotonic_crossing_interpolates_in_log_ratio_and_pools_violators(hardness):
    point = hardness.Point
    assert hardness.isotonic_crossing([point(13, 1.0, 2, 10), point(13, 2.0, 8, 10)]) == pytest.approx(math.sqrt(2))
    # 0.6 then 0.4 is a violation: pooled to 0.5 over both, so the curve crosses at the first of them
    dip = [point(13, 0.5, 0, 10), point(13, 1.0, 6, 10), point(13, 2.0, 4, 10), point(13, 4.0, 10, 10)]
    assert hardness.isotonic_crossing(dip) == pytest.approx(1.0)
    assert math.isnan(hardness.isotonic_crossing([point(13, 1.0, 9, 10), point(13, 2.0, 10, 10)]))


def test_a_threshold_outside_the_grid_is_not_reported(hardness):
    point = hardness.Point
    rising_late = [point(13, 1.0, 0, 50), point(13, 2.0, 1, 50), point(13, 3.0, 3, 50)]
    assert math.isnan(hardness.logistic_centre(rising_late)[0])


@pytest.mark.parametrize(("exponent", "size"), [(0.0, "ranks"), (0.5, "ranks"), (0.5, "cards")])
def test_the_scaling_fit_recovers_the_exponent_and_the_threshold_law(hardness, exponent, size):
    """Synthetic won shares with c(R) = 1.5 (R / 36)^0.4 and a width shrinking as R^-exponent; with four
    suits a deal, the same law holds in cards (N = 4R), with N0 = 4 R0."""
    ranks = (13, 26, 52, 100)
    reference = math.exp(sum(math.log(r) for r in ranks) / len(ranks))
    centres = {r: 1.5 * (r / reference) ** 0.4 for r in ranks}
    ratios = [0.5, 0.7, 0.85, 1.0, 1.2, 1.4, 1.7, 2.0, 2.4, 2.8, 3.4, 4.0, 5.0]
    points = [hardness.Point(r, x, round(10_000 * won_share(r, x, centres, 0.2, exponent)), 10_000, 4 * r)
              for r in ranks for x in ratios]
    fit = hardness.collapse(points, size)
    assert fit.exponent == pytest.approx(exponent, abs=0.03)
    assert fit.exponent_interval[0] <= fit.exponent <= fit.exponent_interval[1]
    assert fit.gamma == pytest.approx(0.4, abs=0.02) and fit.c0 == pytest.approx(1.5, rel=0.02)
    assert fit.reference == pytest.approx(reference * (4 if size == "cards" else 1))
    assert fit.width == pytest.approx(0.2 * (26 / reference) ** exponent, rel=0.05)
    # on the rescaled axis every point sits on the logistic curve
    assert max(abs(1 / (1 + math.exp(-fit.rescaled(p))) - p.won / p.decided) for p in points) < 0.01


def test_scaling_writes_the_figures_and_the_pages_block(hardness, grid, tmp_path, monkeypatch, capsys):
    docs = tmp_path / "docs"
    path = page(docs)
    assert script(hardness, monkeypatch, "scaling", "--out", grid, "--docs", docs, "--bootstrap", "20") == 0
    text = path.read_text()
    assert text.startswith("# prose before\n") and text.endswith("prose after\n") and "\nold\n" not in text
    assert "| 13 | 7 | 1,400 | 1,330 | 1.0" in text and "| undecided counted won | cards | " in text
    assert "| 13 | 7 |" in capsys.readouterr().out
    for name in ("scaling.png", "undecided-band.png"):
        assert (docs / "hardness" / name).read_bytes().startswith(b"\x89PNG")


def test_write_with_a_label_keeps_the_other_runs_table_and_figures(hardness, grid, tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    path = page(docs)
    assert script(hardness, monkeypatch, "write", "--out", grid, "--docs", docs, "--label", "1m") == 0
    text = path.read_text()
    assert "<!-- hardness table 1m -->\n| ranks | suits |" in text and "\nold\n" in text
    assert "| 52 | 12 | 2 | 624 | 200 |" in text
    assert sorted(p.name for p in (docs / "hardness").iterdir()) == [
        "by-ratio-1m.png", "median-nodes-1m.png", "undecided-1m.png", "won-1m.png"]


def test_a_page_without_the_markers_is_refused_in_one_line(hardness, grid, tmp_path, monkeypatch, capsys):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "hardness.md").write_text("no markers here\n")
    assert script(hardness, monkeypatch, "scaling", "--out", grid, "--docs", docs, "--bootstrap", "5") == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "lacks the markers <!-- hardness threshold -->" in error
    assert (docs / "hardness.md").read_text() == "no markers here\n"


def test_grids_of_two_node_limits_do_not_mix(hardness, tmp_path, monkeypatch, capsys):
    make_store(tmp_path / "a", (13, 2, 2), 5, 5, 0, nodes=1000)
    make_store(tmp_path / "b", (13, 4, 2), 5, 5, 0, nodes=2000)
    assert script(hardness, monkeypatch, "scaling", "--out", tmp_path / "a", "--also", tmp_path / "b",
                  "--docs", tmp_path) == 2
    assert "the verdicts do not mix" in capsys.readouterr().err


def test_pooled_folders_count_a_seed_once(hardness, tmp_path):
    make_store(tmp_path / "a", (13, 2, 2), 3, 2, 0)  # seeds 1-5
    make_store(tmp_path / "b", (13, 2, 2), 1, 7, 2)  # seeds 1-10: 6-10 are new
    summary = hardness.measure(tmp_path / "a", tmp_path / "b")[(13, 2, 2)]
    assert summary.deals == 10 and summary.won == 3 and summary.lost == 5 and len(summary.undecided) == 2


def test_the_band_keeps_the_shapes_of_its_ratios(hardness):
    shapes = hardness.grid((13, 100), (2, 3, 4, 8, 16), (2, 3, 4), (1.0, 2.0))
    assert shapes and all(1 <= s / h <= 2 and r * s <= hardness.MAX_GRID_CARDS for r, s, h in shapes)
    assert (13, 3, 2) in shapes and (13, 2, 3) not in shapes and (100, 16, 8) not in shapes
    assert len(hardness.grid((13,), (2, 4), (2,))) == 2  # no band: every shape


@pytest.mark.parametrize("extra", [["--also", "missing"], ["--bootstrap", "0"]])
def test_a_missing_folder_or_no_bootstrap_is_one_clear_line(hardness, grid, tmp_path, monkeypatch, capsys, extra):
    extra = [str(tmp_path / part) if part == "missing" else part for part in extra]
    assert script(hardness, monkeypatch, "scaling", "--out", grid, "--docs", tmp_path, *extra) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and ("no such folder" in error or "at least one sample" in error)


def test_the_held_out_sample_is_ten_deals_of_each_of_the_six_worst_shapes(hardness):
    deals = hardness.held_out(None)
    assert len(deals) == len(set(deals)) == 60 and len(hardness.HELD_OUT) == 6
    assert all(len(seeds) == 10 for seeds in hardness.HELD_OUT.values())
    assert hardness.held_out("52x16x5,100x4x2") == [((52, 16, 5), seed) for seed in hardness.HELD_OUT[52, 16, 5]] + [
        ((100, 4, 2), seed) for seed in hardness.HELD_OUT[100, 4, 2]]


def test_heldout_solves_each_deal_through_patience_solve_and_resumes(hardness, tmp_path, monkeypatch, capsys):
    """Two small deals (one won, one lost) through the real `patience solve`; a rerun solves nothing."""
    monkeypatch.setattr(hardness, "HELD_OUT", {(13, 4, 2): (1, 7), (13, 2, 4): (1,)})
    out = tmp_path / "held"
    assert script(hardness, monkeypatch, "heldout", "--out", out, "--cpu", "20", "--jobs", "2") == 0
    table = capsys.readouterr().out
    assert "3 deals to solve" in table
    rows = [line for line in table.splitlines() if " seed " in line and line.startswith("| 13x")]
    assert len(rows) == 3 and all("| won | forward |" in row or "| lost | forward |" in row for row in rows)
    records = [hardness.json_record(path) for path in sorted(out.glob("*.json"))]
    assert all(record["child_cpu_s"] >= record["cpu"] > 0 and record["nodes"] > 0 for record in records)
    assert {record["status"] for record in records} <= {"solved", "unsolvable"}
    assert script(hardness, monkeypatch, "heldout", "--out", out, "--cpu", "20") == 0
    assert "0 deals to solve" in capsys.readouterr().out


@pytest.mark.parametrize(("second", "expected"), [("unsolvable", 0), ("timeout", 0), ("solved", 1)])
def test_a_loss_a_second_method_wins_is_reported(hardness, tmp_path, monkeypatch, capsys, second, expected):
    """A second method that wins a deal the search lost is a contradiction (exit 1); one that
    agrees or does not finish is not; each method is tried until one decides."""
    asked = []

    def second_method(out, shape, seed, args, extra, suffix):
        asked.append(suffix)
        return {"status": second, "cpu": 1.0, "nodes": 10}

    monkeypatch.setattr(hardness, "solve_one", second_method)
    args = hardness.argparse.Namespace(out=tmp_path)
    records = [{"shape": [13, 4, 2], "seed": 7, "status": "unsolvable"}, {"shape": [13, 4, 2], "seed": 1,
                                                                         "status": "solved"}]
    assert hardness.cross_check(args, records) == expected
    printed = capsys.readouterr().out
    assert asked == ([".plain", ".check", ".sat", ".cpsat"] if second == "timeout" else [".plain"])
    assert ("error: lost by the search, won by a second method: r13-s4-h2-seed7" in printed) == (expected == 1)


def test_a_loss_is_never_checked_by_the_route_that_decided_it(hardness, tmp_path, monkeypatch, capsys):
    asked = []

    def second_method(out, shape, seed, args, extra, suffix):
        asked.append(suffix)
        return {"status": "timeout", "cpu": 1.0, "nodes": 10}

    monkeypatch.setattr(hardness, "solve_one", second_method)
    records = [{"shape": [26, 4, 3], "seed": 14, "status": "unsolvable", "stats": {"route": "cpsat"}},
               {"shape": [26, 4, 3], "seed": 13, "status": "unsolvable", "stats": {"route": "backward"}}]
    assert hardness.cross_check(hardness.argparse.Namespace(out=tmp_path), records) == 0
    assert asked == [".plain", ".check", ".sat", ".plain", ".sat", ".cpsat"]


def test_losses_checks_every_stored_loss_by_the_plain_search_and_resumes(hardness, tmp_path, monkeypatch, capsys):
    """26x2x2 seeds 1-3 are lost (the plain search refutes them); a store that calls 13x2x2 seed 1 lost
    (a won deal) is a contradiction: exit 1, named. A rerun checks nothing again; a last line cut short
    by a kill is dropped and that deal checked again."""
    folder = tmp_path / "grid"
    make_store(folder, (26, 2, 2), won=0, lost=3, undecided=1)
    assert script(hardness, monkeypatch, "losses", "--out", folder, "--timeout", "20") == 0
    table = capsys.readouterr().out
    assert "| 26x2x2 | 3 | 3 | 0 | 0 |" in table
    log = folder / "losses-plain.jsonl"
    assert len(log.read_text().splitlines()) == 3
    make_store(folder, (13, 2, 2), won=0, lost=1, undecided=0)
    log.write_text(log.read_text() + '{"shape": [13, 2')  # a line cut short
    assert script(hardness, monkeypatch, "losses", "--out", folder, "--timeout", "20") == 1
    printed = capsys.readouterr().out
    assert "| 13x2x2 | 1 | 0 | 0 | 1 |" in printed and "| all | 4 | 3 | 0 | 1 |" in printed
    assert "won by the plain search: r13-s2-h2-seed1" in printed
    records = [hardness.json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 4 and records[-1]["replayed"] is True
