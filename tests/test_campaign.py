"""Campaign pieces without solvers: deal specs, configurations, the store, the statistics."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from patience.campaign import analysis, config, tables
from patience.campaign.record import RunRecord
from patience.campaign.store import Store
from patience.errors import InputError, UsageError
from patience.generators.deals import pysol_deal
from patience.result import Status
from patience.runs import specs


def test_seed_ranges_keep_order_and_drop_repeats():
    assert specs.parse_seeds("3-5,1,4,9-9", "x") == [3, 4, 5, 1, 9]
    for bad in ("5-3", "a", "1-b", "-1"):
        with pytest.raises(UsageError):
            specs.parse_seeds(bad, "x")


def test_pysol_and_random_specs_name_each_deal(tmp_path):
    deals = specs.resolve("black_hole:1-3+all_in_a_row:2+random:5,3,2:7-8+black_hole:2")
    assert [item.name for item in deals] == ["black_hole:1", "black_hole:2", "black_hole:3", "all_in_a_row:2",
                                             "random:5,3,2:7", "random:5,3,2:8"]
    assert deals[1].deal == pysol_deal("black_hole", 2)
    assert deals[3].deal.game == "all_in_a_row"
    assert len(deals[4].deal.cards) == 5 * 3 - 1 and deals[4].deal != deals[5].deal


def test_folder_spec_reads_every_deal_file(tmp_path):
    from patience.formats import write_deal
    for seed in (4, 5):
        (tmp_path / f"deal{seed}.txt").write_text(write_deal(pysol_deal("black_hole", seed), "board"))
    deals = specs.resolve(str(tmp_path))
    assert [item.deal for item in deals] == [pysol_deal("black_hole", 4), pysol_deal("black_hole", 5)]
    (tmp_path / "broken.txt").write_text("piles: [[\n")
    with pytest.raises(InputError):
        specs.resolve(str(tmp_path))


@pytest.mark.parametrize("spec", ["spider:1-3", "random:5,3:1-2", "random:0,3,2:1", "black_hole:"])
def test_bad_specs_are_usage_errors(spec):
    with pytest.raises(UsageError):
        specs.resolve(spec)


def test_configurations_check_solver_and_options():
    made = config.from_config_argument("slow=native engine=python cache=off")
    assert (made.label, made.solver, dict(made.options)) == ("slow", "native", {"cache": "off", "engine": "python"})
    assert [item.label for item in config.from_solver_list("native, pyperplan")] == ["native", "pyperplan"]
    for bad in ("slow=native colour=red", "nolabel", "x=no-such-solver", "a b=native"):
        with pytest.raises(UsageError):
            config.from_config_argument(bad)


def test_experiment_file_reads_yaml_booleans_as_on_off(tmp_path):
    path = tmp_path / "experiment.yaml"
    path.write_text("deals: black_hole:1-5\ntimeout: 3\nconfigurations:\n"
                    "  native: {solver: native}\n  nocache: {solver: native, options: {cache: off}}\n")
    settings, configurations = config.read_experiment(path)
    assert settings == {"deals": "black_hole:1-5", "timeout": 3}
    assert configurations[1] == config.Configuration("nocache", "native", (("cache", "off"),))


@pytest.mark.parametrize("text, line", [("deals: [1\n", 2), ("- 1\n", 1), ("colour: red\n", None),
                                        ("configurations: {x: {solver: nope}}\n", None)])
def test_bad_experiment_files_are_input_errors(tmp_path, text, line):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        config.read_experiment(path)
    assert caught.value.source == str(path) and caught.value.line == line


def _row(deal, label, status, seconds=1.0):
    return RunRecord(deal, label, "native", "{}", Status(status), None, seconds, seconds, None, None, "h:1", "", "",
                     "{}")


def test_store_keeps_one_row_per_run_and_refuses_changed_limits(tmp_path):
    path = tmp_path / "runs.sqlite"
    store = Store(path)
    store.fix_settings({"timeout": 5.0})
    store.fix_configurations([config.make("a", "native")])
    assert store.record(_row("d1", "a", "timeout")) and not store.record(_row("d1", "a", "solved"))
    store.close()
    again = Store(path)
    assert again.finished() == {("d1", "", "a")} and again.runs()[0].status == "timeout"
    with pytest.raises(UsageError):
        again.fix_settings({"timeout": 6.0})
    with pytest.raises(UsageError):
        again.fix_configurations([config.make("a", "native", {"cache": "off"})])
    again.close()
    (tmp_path / "junk.sqlite").write_text("not a database at all, but long enough to be read as a header")
    with pytest.raises(InputError):
        Store(tmp_path / "junk.sqlite", create=False)
    with pytest.raises(InputError):
        Store(tmp_path / "missing.sqlite", create=False)
    assert sqlite3.connect(path).execute("SELECT count(*) FROM runs").fetchone() == (1,)


def test_table4_buckets_statistics_and_fastest_share():
    rows = [_row("d1", "a", "solved", 0.05), _row("d1", "b", "solved", 2.0),
            _row("d2", "a", "unsolvable", 0.5), _row("d2", "b", "timeout", 10.0),
            _row("d3", "a", "error", 0.0), _row("d3", "b", "solved", 150.0)]
    table = analysis.table4(analysis.grid(rows), ["a", "b"])
    assert (table["a"]["< 0.1 s"], table["a"]["0.1-1 s"], table["a"]["error"]) == (1, 1, 1)
    assert (table["b"]["1-10 s"], table["b"]["100-1000 s"], table["b"]["timeout"]) == (1, 1, 1)
    assert table["b"]["median"] == pytest.approx(76.0) and table["b"]["max"] == 150.0
    assert table["a"]["std"] == pytest.approx(math.sqrt((0.05 - 0.275) ** 2 + (0.5 - 0.275) ** 2))
    assert table["a"]["fastest %"] == pytest.approx(200 / 3) and table["b"]["fastest %"] == pytest.approx(100 / 3)


def test_a_verdict_after_the_limit_counts_as_a_timeout():
    rows = [_row("d1", "a", "solved", 59.0), _row("d2", "a", "solved", 62.5), _row("d3", "a", "unsolvable", 61.0)]
    table = analysis.table4(analysis.grid(rows, stop=60.0), ["a"])
    assert (table["a"]["solved"], table["a"]["unsolvable"], table["a"]["timeout"]) == (1, 0, 2)
    assert analysis.table4(analysis.grid(rows), ["a"])["a"]["timeout"] == 0


def test_wilson_interval_matches_the_textbook_values():
    low, high = analysis.wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert analysis.wilson(0, 0) is None and analysis.wilson(0, 5)[0] == 0.0 and analysis.wilson(5, 5)[1] == 1.0


def test_correlation_and_win_rates():
    rows = [_row(f"d{i}", "a", "solved", float(i)) for i in range(1, 6)]
    rows += [_row(f"d{i}", "b", "solved", 2.0 * i + 1) for i in range(1, 5)] + [_row("d5", "b", "timeout", 9)]
    rows.append(_row("d6", "a", "solved", 1.0))  # b never ran on d6: no win for a
    runs = analysis.grid(rows)
    (pair,) = analysis.correlations(runs, ["a", "b"])
    assert pair["deals"] == 4 and pair["r"] == pytest.approx(1.0)
    rates = {(item["first"], item["second"]): item for item in analysis.win_rates(runs, ["a", "b"])}
    assert (rates["a", "b"]["wins"], rates["a", "b"]["losses"]) == (5, 0)
    assert rates["b", "a"]["win rate"] == 0.0 and rates["a", "b"]["ci low"] == pytest.approx(0.5655, abs=1e-4)


def test_disagreements_list_every_contradicting_deal():
    rows = [_row("d1", "a", "solved"), _row("d1", "b", "unsolvable"), _row("d1", "c", "timeout"),
            _row("d2", "a", "unsolvable"), _row("d2", "b", "unsolvable")]
    assert analysis.disagreements(rows) == [{"deal": "d1", "solved by": ["a"], "unsolvable by": ["b"]}]


def test_the_documented_experiment_file_reads():
    from pathlib import Path
    settings, configurations = config.read_experiment(Path(__file__).parent.parent / "docs/campaign/experiment.yaml")
    assert settings["deals"] == "black_hole:1-50" and len(configurations) == 4
    assert dict(configurations[2].options) == {"reach": "off", "symmetry": "off", "wolter": "off"}


def test_limit_of_each_clock():
    assert analysis.limit({"timeout": 30.0, "cpu": 10.0}, "cpu") == 10.0
    assert analysis.limit({"timeout": 30.0, "cpu": 10.0}, "wall") == 30.0
    assert analysis.limit({"timeout": 30.0, "cpu": None}, "cpu") == 30.0
    assert analysis.limit({}, "wall") is None


def test_text_tables_align_numbers_right_and_text_left():
    table = tables.Table("t", "T", ("label", "version", "time"), (("ff", "2.3", 0.5), ("fd-ff", "1.0.0", 12.25)))
    text = tables.render({"runs": 2, "deals": 1, "hosts": [], "settings": {}}, [table], "text")
    assert text.splitlines()[4:] == ["label  version  time",
                                     "ff     2.3       0.5",
                                     "fd-ff  1.0.0    12.2"]


TABLE4 = Path(__file__).parent.parent / "docs/table4"


@pytest.mark.parametrize("name", sorted(path.stem for path in TABLE4.glob("*.yaml")))
def test_each_table4_experiment_file_reads_and_its_solvers_play_its_deals(name):
    """The files docs/table4 gives to `patience compare --experiment` (each one's first deal stands for its
    range): every configuration's solver plays that game and takes its options."""
    from patience.games import game_of
    from runners.solve import checked_solver

    settings, configurations = config.read_experiment(TABLE4 / f"{name}.yaml")
    first = str(settings["deals"]).split("-")[0]
    deal = specs.resolve(first)[0]
    variant = game_of(deal.deal).variant(deal.deal)
    for configuration in configurations:
        checked_solver(configuration.solver, variant, dict(configuration.options))
    assert configurations
