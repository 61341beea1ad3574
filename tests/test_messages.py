"""Messages that say what happened (issue 27): `show --solver` reports the solver's verdict with
`solve`'s exit status, the report names only the limits that were set, `report --html` prints only
the page, plots of deal counts have whole-number ticks, and the help texts name their command and
defaults."""

from __future__ import annotations

import re
import sqlite3

import pytest

from patience.binary_star import forms
from patience.campaign import plots
from patience.campaign.analysis import Run
from patience.cli import build_parser, gen_main, main
from patience.formats import write_deal
from patience.generators.deals import pysol_deal
from patience.pages import browser as chromium
from patience.result import Status
from patience.runners.registry import get_solver
from tests.helpers import INSTANCES, pysolfc_deal

PAPER = INSTANCES / "black_hole" / "paper-example.txt"


def write_solver(tmp_path, name: str, body: str) -> str:
    """A competition-format SAT 'solver' script, run as `sat:PATH`."""
    script = tmp_path / name
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return f"sat:{script}"


def unsolvable_deal(tmp_path) -> str:
    """PySolFC's Black Hole deal 1, which cannot be won."""
    path = tmp_path / "black-hole-1.txt"
    path.write_text(write_deal(pysol_deal("black_hole", 1), "board"))
    return str(path)


@pytest.mark.parametrize("case, status, code", [
    ("solved", "solved", 0),
    ("unsolvable", "unsolvable", 1),
    ("missing", "error", 4),
    ("wrong answer", "error", 4),
    ("timeout", "timeout", 3),
])
def test_show_with_a_solver_says_its_status_and_exits_as_solve(tmp_path, capsys, case, status, code):
    deal, arguments = str(PAPER), ["--solver", "native"]
    if case == "unsolvable":
        deal = unsolvable_deal(tmp_path)
    elif case == "missing":
        arguments = ["--solver", f"sat:{tmp_path / 'no-such-solver'}"]
    elif case == "wrong answer":
        arguments = ["--solver", write_solver(tmp_path, "wrong.sh", 'echo "s SATISFIABLE"; echo "v 1 0"\n')]
    elif case == "timeout":
        arguments = ["--solver", write_solver(tmp_path, "slow.sh", "exec sleep 30\n"), "--timeout", "1"]
    capsys.readouterr()
    page = tmp_path / "page.html"
    assert main(["show", deal, *arguments, "-o", str(page)]) == code
    out = capsys.readouterr().out
    assert f"\nstatus: {status}\n" in f"\n{out}" and out.startswith("solver: ")
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert main(["solve", deal, *arguments]) == code  # the same exit status as solve's
    if code:
        assert out.strip().endswith("play by hand")
    else:
        assert out.strip().endswith("valid: 51 moves")


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory):
    """Two campaigns of the native solver on two deals: one with only a timeout, one with every limit."""
    folder = tmp_path_factory.mktemp("campaigns")
    stores = {"timeout": (folder / "timeout.sqlite", ["--timeout", "10"]),
              "every limit": (folder / "every.sqlite", ["--timeout", "20", "--cpu", "5", "--memory", "2048"])}
    for path, limits in stores.values():
        assert main(["compare", "--deals", "black_hole:1-2", "--solvers", "native", *limits, "--db", str(path),
                     "--quiet"]) == 0
    return {name: path for name, (path, _) in stores.items()}


@pytest.mark.parametrize("campaign, clock, limits, used", [
    ("timeout", "cpu", "limits: timeout 10 s", "(limit: the 10 s timeout)"),
    ("timeout", "wall", "limits: timeout 10 s", "(limit: the 10 s timeout)"),
    ("every limit", "cpu", "limits: timeout 20 s, cpu 5 s, memory 2048 MiB", "(limit 5 cpu s)"),
    ("every limit", "wall", "limits: timeout 20 s, cpu 5 s, memory 2048 MiB", "(limit: the 20 s timeout)"),
])
def test_report_names_only_the_limits_set_and_the_one_its_tables_use(campaigns, capsys, campaign, clock, limits,
                                                                       used):
    capsys.readouterr()
    assert main(["report", str(campaigns[campaign]), "--clock", clock]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(f"; {limits}")
    assert "None" not in lines[0]
    assert [line for line in lines if line.startswith("Table 4:")][0].endswith(used)


def test_report_as_a_page_prints_only_the_page(campaigns, tmp_path, capsys):
    capsys.readouterr()
    assert main(["report", str(campaigns["timeout"]), "--html", str(tmp_path / "report")]) == 0
    out = capsys.readouterr().out
    assert out == f"page: {tmp_path / 'report' / 'index.html'} (2 replay pages)\n"
    page = (tmp_path / "report" / "index.html").read_text()
    assert "limits: timeout 10 s<" in page and "Table 4" in page


def xtick_labels(svg: str) -> list[str]:
    """The x-axis tick labels of a matplotlib SVG (it writes each label's text as a comment)."""
    return re.findall(r'<g id="xtick_\d+">.*?<!-- (.*?) -->', svg, re.S)


@pytest.mark.parametrize("figure", ["cactus", "effort"])
def test_plots_of_deal_counts_have_whole_number_ticks(tmp_path, figure):
    runs = {f"deal {number}": {"a": Run(Status.SOLVED, 0.1 * number), "b": Run(Status.UNSOLVABLE, 0.2)}
            for number in (1, 2)}
    drawn = getattr(plots, figure)(runs, ["a", "b"], 10.0, "cpu")
    labels = xtick_labels(next(data for name, data in drawn.items() if name.endswith(".svg")).decode())
    assert labels and all(re.fullmatch(r"[−-]?\d+", label) for label in labels), labels


@pytest.mark.parametrize("argv, usage", [(["--help"], "usage: gen [-h] [--debug] FORMAT"),
                                         (["pddl", "--help"], "usage: gen pddl [-h]")])
def test_gen_help_names_the_gen_command(capsys, argv, usage):
    with pytest.raises(SystemExit) as stop:
        gen_main(argv)
    assert stop.value.code == 0 and capsys.readouterr().out.startswith(usage)


def test_gen_reads_its_own_arguments_and_errs_in_one_line(tmp_path, capsys):
    assert gen_main(["pddl", str(PAPER), "-o", str(tmp_path)]) == 0
    assert {path.name for path in tmp_path.iterdir()} == {"domain.pddl", "problem.pddl"}
    with pytest.raises(SystemExit) as stop:
        gen_main(["no-such-format"])
    error = capsys.readouterr().err
    assert stop.value.code == 2 and error.startswith("error: ") and "no-such-format" in error and error.count("\n") == 1


def test_solve_help_says_the_default_solver_is_native(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    default = build_parser().parse_args(["solve", "deal.txt"]).solver
    assert f"(default: {default})" in " ".join(capsys.readouterr().out.split()) and default == "native"


def test_a_campaign_through_a_scheduler_stores_the_sat_solvers_version(tmp_path):
    """A Dask worker process is daemonic; the embedded SAT solver's child must start there too, and
    its row carry the version a local run stores."""
    distributed = pytest.importorskip("distributed")
    db = tmp_path / "runs.sqlite"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        assert main(["compare", "--deals", "black_hole:3", "--solvers", "sat", "--timeout", "60",
                     "--scheduler", cluster.scheduler_address, "--db", str(db), "--quiet"]) == 0
    with sqlite3.connect(db) as connection:
        rows = list(connection.execute("SELECT status, version, message FROM runs"))
    assert rows == [("solved", get_solver("sat").version(), "")]


@pytest.mark.skipif(chromium.missing() is not None, reason=str(chromium.missing()))
@pytest.mark.parametrize("width", [1280, 1200])
def test_seventeen_piles_stay_in_one_row_at_laptop_widths(tmp_path, capsys, width):
    """Black Hole's and Binary Star's 17 piles side by side in a 1280 (or 1200) px window, none wrapped
    under pile 1 and none overlapping its neighbour or cut off at the right."""
    deals = {"black-hole": pysol_deal("black_hole", 1), "binary-star": pysolfc_deal(1)}
    for name, deal in deals.items():
        (tmp_path / f"{name}.txt").write_text(write_deal(deal, "board") if name == "black-hole"
                                              else forms.write_board(deal))
        assert main(["show", str(tmp_path / f"{name}.txt"), "-o", str(tmp_path / f"{name}.html")]) == 0
    with chromium.chromium(width=width, height=800) as browser:
        for name in deals:
            browser.get((tmp_path / f"{name}.html").as_uri())
            boxes = browser.execute_script(
                "return Array.from(document.querySelectorAll('#piles > .pile'), pile => {"
                "  const box = pile.getBoundingClientRect(); return [box.top, box.left, box.right]; })")
            viewport = browser.execute_script("return document.documentElement.clientWidth")
            assert len(boxes) == 17 and len({top for top, _, _ in boxes}) == 1, (name, boxes)
            assert all(right <= left for (_, _, right), (_, left, _) in zip(boxes, boxes[1:], strict=False)),\
                       (name, boxes)
            assert boxes[-1][2] <= viewport, (name, boxes, viewport)
