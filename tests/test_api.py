"""The Python API (patience/api.py): each function for real, its errors, its Jupyter reprs, and that
it answers as the command does for the same deal (the same road: the CLI runs in this process)."""

from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path

import pytest

import patience
from patience.cli import main
from tests.helpers import needs_solver

# small enough that every paradigm decides it in a moment: 5 ranks x 2 suits, piles of 3
SMALL = {"ranks": 5, "suits": 2, "pile_height": 3, "seed": 3}


def cli(capsys, *argv: str) -> tuple[int, str]:
    """Run a command in this process: (exit status, standard output)."""
    capsys.readouterr()
    status = main(list(argv))
    return status, capsys.readouterr().out


def test_the_api_modules_examples_run_as_written():
    import doctest

    import patience.api

    outcome = doctest.testmod(patience.api, optionflags=doctest.ELLIPSIS)
    assert outcome.attempted >= 4 and outcome.failed == 0


def test_importing_patience_imports_no_solver_nor_pandas():
    code = ("import sys, patience; heavy = ('ortools', 'matplotlib', 'pandas', 'dask', 'pysat', 'jinja2'); "
            "print([name for name in heavy if name in sys.modules]); import patience.deal, patience.survey.run; "
            "print(callable(patience.deal), callable(patience.survey))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.split("\n")[:2] == ["[]", "True True"]  # the submodules do not take the functions' names
    assert len(set(patience.__all__)) == len(patience.__all__)
    assert all(hasattr(patience, name) for name in patience.__all__)


def test_the_deal_types_import_no_page_nor_model_until_a_deal_is_drawn():
    """The core sits below the pages and the generators: importing every deal type and reading a deal
    loads no model and no page but the notebook's drawer (`import patience` installs it in the core,
    which imports no page); drawing the deal in Jupyter (`_repr_html_`) loads the page it draws."""
    code = ("import sys, patience.deal, patience.binary_star.deal, patience.lbs.deal, patience.games as games\n"
            "def above(): return sorted(name for name in sys.modules if name.startswith(('patience.pages', "
            "'patience.generators')))\n"
            "deal = games.parse_game_deal('letting cards be [1, 2, 3]', 'row.param')[1]\n"
            "print(above()); drawn = deal._repr_html_(); print(above())")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert run.stdout.splitlines() == ["['patience.pages', 'patience.pages.notebook']",
                                       "['patience.pages', 'patience.pages.notebook', 'patience.pages.replay']"]


@pytest.mark.parametrize(("game", "number"), [("black_hole", 5), ("all-in-a-row", 3), ("binary_star", 2)])
def test_a_numbered_deal_is_the_one_patience_deal_prints(game, number, capsys):
    status, printed = cli(capsys, "deal", "--game", game, "--seed", str(number))
    deal = patience.deal(game, number)
    assert status == 0
    assert patience.write_deal(deal, "board") == printed
    assert patience.parse_deal(printed) == deal
    assert patience.deal(game, number, numbering="ms") != deal or number < 32000


def test_random_and_lbs_deals_are_the_ones_patience_deal_prints(capsys):
    _, printed = cli(capsys, "deal", "--ranks", "26", "--suits", "4", "--pile-height", "3", "--seed", "1")
    deal = patience.random_deal(ranks=26, suits=4, pile_height=3, seed=1)
    assert patience.parse_deal(printed) == deal and deal.game == "generalised" and len(deal.all_cards) == 104
    assert patience.random_deal(ranks=26, suits=4, pile_height=3, seed=2) != deal
    _, printed = cli(capsys, "deal", "--game", "lbs", "--cards", "8", "--seed", "4")
    row = patience.deal("lbs", 4, cards=8)
    assert patience.parse_deal(printed, source="LBS8_4.param") == row and len(row.cards) == 8
    assert row.name == "LBS8_4"


@pytest.mark.parametrize("form", ["board", "yaml", "param", "dzn", "json"])
def test_a_deal_written_in_any_form_reads_back(form, tmp_path):
    deal = patience.deal("black_hole", 7)
    path = tmp_path / f"deal.{form}"
    path.write_text(patience.write_deal(deal, form))
    assert patience.read_deal(path) == deal == patience.read_deal(str(path), game="black-hole")


def test_bad_deals_and_choices_raise_the_toolkits_own_errors(tmp_path):
    (tmp_path / "bad.txt").write_text("Foundations: AS\nZZ 2H\n")
    with pytest.raises(patience.InputError, match="bad.txt"):
        patience.read_deal(tmp_path / "bad.txt")
    with pytest.raises(patience.InputError, match="missing.txt"):
        patience.read_deal(tmp_path / "missing.txt")
    with pytest.raises(patience.InputError, match="all_in_a_row"):
        patience.parse_deal(patience.write_deal(patience.deal("all_in_a_row", 1), "board"), game="black_hole")
    with pytest.raises(patience.UsageError, match="unknown game"):
        patience.deal("klondike", 1)
    with pytest.raises(patience.UsageError, match="numbered 1 to"):
        patience.deal("black_hole", 0)
    with pytest.raises(patience.UsageError, match="seed must be a whole number"):
        patience.random_deal(seed=1.5)
    with pytest.raises(patience.UsageError, match="positive"):
        patience.random_deal(ranks=0)
    with pytest.raises(patience.UsageError, match="written as param, json, not .yaml."):
        patience.write_deal(patience.deal("lbs", 1), "yaml")
    with pytest.raises(patience.UsageError, match="not 'svg'"):
        patience.write_deal(patience.deal("black_hole", 1), "svg")
    with pytest.raises(patience.UsageError, match="deal must be a deal .* not dict"):
        patience.solve({"piles": []})


def test_a_model_is_the_one_gen_writes(tmp_path, capsys):
    deal = patience.deal("black_hole", 5)
    (tmp_path / "deal.txt").write_text(patience.write_deal(deal, "board"))
    for language, options, flags in [("pddl", {"encoding": "compact"}, ["--encoding", "compact"]),
                                     ("cnf", {}, []), ("mzn", {}, [])]:
        status, _ = cli(capsys, "gen", language, str(tmp_path / "deal.txt"), "-o", str(tmp_path / language), *flags)
        model = patience.generate(deal, language, **options)
        assert status == 0
        assert {name: (tmp_path / language / name).read_text() for name in model.files} == dict(model.files)
        assert str(model) == model.files[model.primary]
    written = model.write(tmp_path / "again")
    assert [path.read_text() for path in written] == list(model.files.values())
    assert patience.generate(tmp_path / "deal.txt", "asp").files == patience.generate(deal, "asp").files
    with pytest.raises(patience.UsageError, match="unknown model language"):
        patience.generate(deal, "smtlib")
    with pytest.raises(patience.UsageError, match="no option 'colour'"):
        patience.generate(deal, "pddl", colour="red")
    with pytest.raises(patience.UsageError, match="encoding must be one of"):
        patience.generate(deal, "pddl", encoding="fancy")


def test_solve_gives_what_patience_solve_says(tmp_path, capsys):
    deal = patience.deal("black_hole", 5)
    (tmp_path / "deal.txt").write_text(patience.write_deal(deal, "board"))
    status, printed = cli(capsys, "solve", str(tmp_path / "deal.txt"), "--solver", "native", "--json")
    record = json.loads(printed)
    result = patience.solve(deal, "native", timeout=30)
    assert (status, result.status, result.validated) == (0, "solved", True)
    assert (list(result.moves), result.status.value, result.solver) == (record["sequence"], record["status"], "native")
    assert len(result.sequence) == 51 and result.moves[0] == "AS" and result.nodes > 0
    assert result.wall >= 0 and result.cpu >= 0 and result.version
    lost = patience.solve(patience.deal("black_hole", 1), "native")  # deal 1 has no winning play
    assert (lost.status, lost.moves, lost.validated) == ("unsolvable", None, False)


@pytest.mark.parametrize("solver", [pytest.param(name, marks=needs_solver(name)) for name in ("sat", "cpsat")])
def test_other_paradigms_solve_and_the_validator_agrees(solver):
    deal = patience.random_deal(**SMALL)
    native = patience.solve(deal, "native")
    result = patience.solve(deal, solver, timeout=60)
    assert result.status == native.status
    if result.validated:
        assert patience.validate(deal, result.moves).valid and result.version


def test_solve_refuses_bad_choices_before_running():
    deal = patience.random_deal(**SMALL)
    with pytest.raises(patience.UsageError, match="unknown solver"):
        patience.solve(deal, "oracle")
    with pytest.raises(patience.UsageError, match="no option 'colour'"):
        patience.solve(deal, "native", colour="red")
    with pytest.raises(patience.UsageError, match="timeout must be above 0 and at most 1,000,000, not 0"):
        patience.solve(deal, "native", timeout=0)
    with pytest.raises(patience.UsageError, match="does not play binary_star"):
        patience.solve(patience.deal("binary_star", 1), "cpsat")
    switched_off = patience.solve(deal, "native", cache=False, symmetry="off")
    assert switched_off.status == patience.solve(deal, "native").status


def test_validate_replays_names_objects_text_and_files_as_patience_validate_does(tmp_path, capsys):
    deal = patience.deal("black_hole", 5)
    moves = patience.solve(deal, "native").moves
    (tmp_path / "deal.txt").write_text(patience.write_deal(deal, "board"))
    (tmp_path / "answer.txt").write_text(" ".join(moves))
    assert patience.validate(deal, moves).valid
    assert patience.validate(deal, patience.solve(deal, "native").sequence).describe() == "valid: 51 moves"
    assert patience.validate(tmp_path / "deal.txt", tmp_path / "answer.txt").valid
    assert patience.validate(deal, " ".join(moves)).valid
    swapped = [*moves[:2], moves[3], moves[2], *moves[4:]]
    (tmp_path / "swapped.txt").write_text(" ".join(swapped))
    status, printed = cli(capsys, "validate", str(tmp_path / "deal.txt"), str(tmp_path / "swapped.txt"))
    replay = patience.validate(deal, swapped)
    assert (status, printed) == (1, replay.describe() + "\n") and not replay.valid and replay.fault
    assert patience.validate(deal, [], partial=True).valid and not patience.validate(deal, []).valid
    short = patience.validate(deal, moves[:10], partial=True)
    assert short.valid and short.moves == 9 and not patience.validate(deal, moves[:10]).valid
    with pytest.raises(patience.InputError, match="<moves>"):
        patience.validate(deal, ["AS", "ZZ"])
    with pytest.raises(patience.UsageError, match="moves must be names"):
        patience.validate(deal, [1, 2, 3])


def test_compare_is_a_campaign_the_command_resumes(tmp_path, capsys):
    store = tmp_path / "campaign.sqlite"
    table = patience.compare(["random:5,2,3:1-3"], ["native", "sat"], timeout=20, store=store)
    assert list(zip(table["deal"], table["configuration"], strict=True)) == [
        (f"random:5,2,3:{seed}", label) for seed in (1, 2, 3) for label in ("native", "sat")]
    for _, runs in table.groupby("deal"):
        assert len(set(runs["status"])) == 1 and runs["status"].iloc[0] in ("solved", "unsolvable")
    assert table.attrs["contradictions"] == []
    status, printed = cli(capsys, "compare", "--deals", "random:5,2,3:1-3", "--solvers", "native,sat",
                          "--timeout", "20", "--db", str(store), "--quiet")
    assert (status, printed) == (0, f"{store}: 6 of 6 runs stored (0 new), 0 contradicting verdicts\n")
    again = patience.compare("random:5,2,3:2", ["fast=native cache=off"], timeout=20)
    assert list(again["configuration"]) == ["fast"] and list(again["options"]) == ['{"cache": "off"}']
    with pytest.raises(patience.UsageError, match="was run with"):
        patience.compare(["random:5,2,3:1-3"], ["native"], timeout=5, store=store)
    with pytest.raises(patience.UsageError, match="no deals"):
        patience.compare([], ["native"])


def test_survey_sums_up_as_survey_report_does(tmp_path, capsys):
    store = tmp_path / "survey.sqlite"
    summary = patience.survey("black_hole", "1-60", store=store)
    status, printed = cli(capsys, "survey", "report", "--db", str(store))
    assert (status, printed) == (0, str(summary))
    assert summary.deals == 60 == summary.won + summary.lost + len(summary.undecided)
    assert summary.interval[0] <= summary.rate <= summary.interval[1]
    assert sum(summary.histogram.values()) == 60 and summary.histogram[51] == summary.won
    rows = summary.rows
    assert list(rows["seed"]) == list(range(1, 61)) and (rows["verdict"] == "solved").sum() == summary.won
    status, printed = cli(capsys, "survey", "--seeds", "1-60", "--db", str(store), "--quiet")
    assert (status, printed) == (0, f"{store}: 60 of 60 black_hole deals stored (0 new)\n")
    generalised = patience.survey(seeds="1-20", shape=(7, 4, 3), mode="decision")
    assert (generalised.game, generalised.deals) == ("generalised", 20)
    with pytest.raises(patience.UsageError, match="--shape is for"):
        patience.survey("black_hole", "1-5", shape="7,4,3")
    with pytest.raises(patience.UsageError, match="mode must be one of max-cards, decision, not 'fast'"):
        patience.survey("black_hole", "1-5", mode="fast")


def test_solvers_lists_every_solver_with_how_to_get_it():
    table = patience.solvers().set_index("name")
    assert {"native", "sat", "cpsat", "fd-ff"} <= set(table.index)
    assert table.loc["native", "installed"] and table.loc["native", "games"].startswith("black_hole")
    assert table.loc["sat", "language"] == "cnf" and table.loc["fd-ff", "paradigm"] == "planning"
    missing = table[~table["installed"]]
    assert all(missing["get"]) and not any(table[table["installed"]]["get"])


def test_deals_results_models_and_surveys_show_themselves_in_jupyter():
    deal = patience.deal("black_hole", 5)
    drawn = deal._repr_html_()
    assert drawn.startswith("<iframe srcdoc=") and "<script" not in drawn  # the page is escaped into srcdoc
    page = html.unescape(drawn.split('srcdoc="', 1)[1].split('"', 1)[0])
    assert page.startswith("<!DOCTYPE html>") and '"answer": null' in page and "KS" in page
    result = patience.solve(deal, "native")
    shown = result._repr_html_()
    assert "solved (validated)" in shown and "valid: 51 moves" in html.unescape(shown)
    assert repr(result).startswith("<Result native: solved, 51 moves")
    for other in (patience.deal("binary_star", 1), patience.deal("lbs", 2), patience.random_deal(**SMALL)):
        assert "<iframe srcdoc=" in other._repr_html_()
    model = patience.generate(deal, "pddl")
    assert "domain.pddl" in model._repr_html_() and repr(model).startswith("<Model pddl: domain.pddl")
    assert "won:" in patience.survey("all_in_a_row", "1-5")._repr_html_()


@needs_solver("sat")
def test_a_script_from_another_folder_runs_the_api(tmp_path):
    script = ("import patience\n"
              "deal = patience.random_deal(ranks=5, suits=2, pile_height=3, seed=3)\n"
              "result = patience.solve(deal, 'sat', timeout=30)\n"
              "print(result.status, patience.validate(deal, result.moves).valid)\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["solved", "True"]
    assert not any(Path(tmp_path).iterdir())  # nothing left behind


@pytest.mark.parametrize(("game", "number"), [("binary_star", 1), ("lbs", 2)])
def test_every_games_answer_replays_by_name_by_move_and_as_text(game, number):
    deal = patience.deal(game, number, cards=8)
    result = patience.solve(deal, "native", timeout=30)
    assert result.validated and result.moves
    replays = [patience.validate(deal, moves) for moves in (result.moves, result.sequence, "\n".join(result.moves))]
    assert {replay.describe() for replay in replays} == {f"valid: {len(result.sequence)} moves"}
    assert not patience.validate(deal, result.moves[:-1]).valid


@needs_solver("sat")
def test_the_api_runs_outside_the_main_thread():
    """A notebook's widgets and some kernels call from another thread, where no signal handler may be set."""
    import threading

    answers: list[object] = []

    def work() -> None:
        deal = patience.random_deal(**SMALL)
        answers.extend(patience.solve(deal, solver).status for solver in ("native", "sat"))
        answers.append(list(patience.compare("random:5,2,3:3", ["native", "sat"], timeout=20)["status"]))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(120)
    assert answers == ["solved", "solved", ["solved", "solved"]]


def test_deal_takes_a_game_that_numbers_its_own_deals_as_the_command_does(capsys):
    from patience.cli import main

    for game in ("golf", "golf-wrap-ranks"):
        assert main(["deal", "--game", game, "--seed", "2"]) == 0
        assert str(patience.deal(game, 2)) == capsys.readouterr().out
    assert patience.deal("golf_wrap_ranks", 2).wrap_ranks and not patience.deal("golf", 2).wrap_ranks


def test_certify_and_check_say_what_solve_certificate_and_check_say(tmp_path, capsys):
    deal_path = tmp_path / "lost.txt"
    code, text = cli(capsys, "deal", "--game", "black_hole", "--seed", "1")
    deal_path.write_text(text, encoding="utf-8")
    written = patience.certify(deal_path, tmp_path / "api.cert", max_cards="on")
    assert written and written.result.unsolvable and written.positions > 0
    assert written.size == (tmp_path / "api.cert").stat().st_size
    code, said = cli(capsys, "check", str(deal_path), str(tmp_path / "api.cert"))
    checked = patience.check(patience.read_deal(deal_path), tmp_path / "api.cert")
    assert code == 0 and checked and checked.fault is None and "\n".join(checked.lines) == said.strip()
    assert "no play plays more than" in checked.lines[1]
    with pytest.raises(patience.InputError, match="a certificate of another deal"):
        patience.check(patience.deal("black_hole", 3), tmp_path / "api.cert")
    won = patience.certify(patience.deal("black_hole", 5), tmp_path / "won.cert")
    assert not won and won.reason == "the status is solved, not unsolvable" and not (tmp_path / "won.cert").exists()
    with pytest.raises(patience.InputError, match="is the input"):
        patience.certify(deal_path, deal_path)


def test_check_names_what_breaks_a_tampered_certificate(tmp_path):
    import gzip

    deal = patience.deal("all_in_a_row", 1)
    assert patience.certify(deal, tmp_path / "loss.cert")
    header, *positions = gzip.decompress((tmp_path / "loss.cert").read_bytes()).split(b"\n", 1)
    assert positions  # a header line, then the packed positions
    damaged = tmp_path / "damaged.cert"
    damaged.write_bytes(gzip.compress(header + b"\n" + positions[0][: len(positions[0]) // 2]))
    try:
        checked = patience.check(deal, damaged)
    except patience.InputError:
        return  # the cut left a part of a position: bad input, as patience check says
    assert not checked and checked.fault and checked.lines == (f"not certified: {checked.fault}",)


def test_a_sat_proof_is_certified_by_check_as_the_command_does(tmp_path):
    deal = patience.random_deal(5, 2, 3, seed=1)
    written = patience.certify(deal, tmp_path / "loss.proof", "sat")
    assert written and written.kind == "DRAT steps"
    checked = patience.check(deal, tmp_path / "loss.proof")
    assert checked and checked.lines[0].startswith("certified: the deal's CNF has no model")
