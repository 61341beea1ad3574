"""The Python API as a notebook user meets it first (issue 56): `if` on a result or a replay tells the
truth, the names are the command line's, a deal prints as `patience deal` prints it, and results and
summaries are plain data (`to_dict`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import patience
from patience.cli import main
from patience.reading import read_text
from tests.helpers import ROOT, needs_solver

SMALL = {"ranks": 5, "suits": 2, "pile_height": 3, "seed": 3}  # decided by every route in a moment


def cli(capsys, *argv: str) -> tuple[int, str]:
    """Run a command in this process: (exit status, standard output)."""
    capsys.readouterr()
    status = main(list(argv))
    return status, capsys.readouterr().out


def test_a_result_is_true_exactly_when_solved_and_says_which_verdict_it_is():
    won = patience.solve(patience.deal("black_hole", seed=5))
    lost = patience.solve(patience.deal("black_hole", seed=1))  # deal 1 has no winning play
    assert bool(won) and won.solved and won.decided and not won.unsolvable
    assert not lost and not lost.solved and lost.unsolvable and lost.decided
    cut = patience.solve(patience.random_deal(ranks=13, suits=8, pile_height=4, seed=2), nodes=1)
    assert cut.status == "unknown" and not cut and not cut.decided and not cut.unsolvable and not cut.solved


def test_a_replay_is_true_exactly_when_valid():
    deal = patience.deal("black_hole", 5)
    moves = patience.solve(deal).moves
    assert patience.validate(deal, moves) and patience.validate(deal, moves).valid
    assert not patience.validate(deal, "AS 2H 3H")  # 3H is under another card
    assert not patience.validate(deal, moves[:-1])  # legal but not a win
    assert patience.validate(deal, moves[:-1], partial=True)
    assert patience.validate(deal, patience.solve(deal)).describe() == "valid: 51 moves"  # a result itself
    assert not patience.validate(deal, patience.solve(patience.deal("black_hole", 1)))  # no moves: no win
    plain = patience.validate(deal, "AS 2H 3H").to_dict()
    assert (plain["valid"], plain["moves"]) == (False, 1) and plain["fault"].startswith("move 2: 3H is under ")


def test_results_and_summaries_are_plain_data_that_json_writes(tmp_path, capsys):
    deal = patience.deal("black_hole", 5)
    (tmp_path / "deal.txt").write_text(str(deal))
    result = patience.solve(deal)
    plain = json.loads(json.dumps(result.to_dict()))
    _, printed = cli(capsys, "solve", str(tmp_path / "deal.txt"), "--json")
    record = json.loads(printed)
    assert plain["moves"] == record["sequence"] == list(result.moves) and plain["status"] == record["status"]
    assert (plain["game"], plain["solver"], plain["nodes"]) == ("black_hole", "native", result.nodes)
    lost = patience.solve(patience.deal("black_hole", 1)).to_dict()
    assert (lost["status"], lost["moves"]) == ("unsolvable", None)
    summary = patience.survey("black_hole", range(1, 11))
    data = json.loads(json.dumps(summary.to_dict()))
    assert data["deals"] == 10 == data["won"] + data["lost"] + len(data["undecided"])
    assert sum(data["histogram"].values()) == 10 and data["interval"][0] <= data["rate"] <= data["interval"][1]


@pytest.mark.parametrize(("game", "argv"), [
    ("black_hole", ["--seed", "5"]), ("all_in_a_row", ["--seed", "3"]), ("binary_star", ["--seed", "2"]),
    ("lbs", ["--seed", "4", "--cards", "8"])])
def test_str_of_a_deal_is_what_patience_deal_prints(game, argv, capsys):
    deal = patience.deal(game, seed=int(argv[1]), cards=8)
    status, printed = cli(capsys, "deal", "--game", game, *argv)
    # an LBS row does not know the seed that `patience deal`'s comment line names
    assert status == 0 and str(deal) == "".join(line for line in printed.splitlines(True) if not line.startswith("$"))
    assert "Card(" not in str(deal) and patience.parse_deal(str(deal), source="LBS8_4.param") == deal


def test_str_of_a_random_deal_is_what_patience_deal_prints(capsys):
    deal = patience.random_deal(ranks=26, suits=4, pile_height=3, seed=1)
    _, printed = cli(capsys, "deal", "--ranks", "26", "--suits", "4", "--pile-height", "3", "--seed", "1")
    assert str(deal) == printed and patience.parse_deal(str(deal)) == deal


def test_the_names_are_the_command_lines():
    assert patience.deal("black_hole", seed=5) == patience.deal("black_hole", 5)
    deal = patience.deal("black_hole", 5)
    assert patience.generate(deal, "minizinc").files == patience.generate(deal, "mzn").files
    with pytest.raises(patience.UsageError, match="unknown model language 'smtlib'"):
        patience.generate(deal, "smtlib")


ASP_BLACK_HOLE = ROOT / "models" / "asp-black-hole.lp"
PILE_ORDER = ":- play(C, T), above(C, D), not played(D, T - 1).\n"


def broken_asp_model(folder: Path) -> Path:
    """The project's ASP Black Hole model without its pile order: it plays cards from under others."""
    text = read_text(ASP_BLACK_HOLE)
    assert PILE_ORDER in text
    model = folder / "student.lp"
    model.write_text(text.replace(PILE_ORDER, "").replace(":- play(C, T), depth(C, K), T <= K.\n", ""))
    return model


def table_without_times(text: str) -> list[list[str]]:
    """The grade table's words, its seconds and CPU columns (which differ run to run) left out."""
    return [[word for word in line.split() if not word.replace(".", "").isdigit()] for line in text.splitlines()]


@pytest.mark.slow  # clingo on two deals, twice: 15 s on a shared machine
@needs_solver("clingo")
def test_grade_gives_the_rows_patience_grade_prints(tmp_path, capsys):
    instances = tmp_path / "instances"
    instances.mkdir()
    for seed in (1, 3):
        (instances / f"small{seed}.yaml").write_text(str(patience.random_deal(5, 2, 3, seed)))
    model = tmp_path / "model.lp"
    model.write_text(read_text(ASP_BLACK_HOLE))
    graded = patience.grade(model, instances, game="generalised", timeout=30)
    status, printed = cli(capsys, "grade", str(model), "--instances", str(instances), "--game", "generalised",
                          "--timeout", "30")
    assert status == 0 and table_without_times(printed) == table_without_times(str(graded))
    assert graded.correct and not graded.wrong
    assert [row.instance for row in graded.rows] == ["small1", "small3"] and len(graded.frame) == 2
    assert json.loads(json.dumps(graded.to_dict()))["rows"][0]["grade"] == "correct"
    with pytest.raises(TypeError, match="ask graded.correct"):
        bool(graded)
    wrong = patience.grade(broken_asp_model(tmp_path), instances, game="generalised", timeout=30)
    assert wrong.wrong or all(row.grade != "WRONG" for row in wrong.rows)  # the small deals may not show it


@pytest.mark.slow  # a hunt of clingo runs: 20 s
@needs_solver("clingo")
def test_a_hunt_in_python_finds_the_counterexample_the_command_finds(tmp_path):
    model = broken_asp_model(tmp_path)
    hunt = patience.grade(model, game="generalised", hunt=10, seed=2, out=tmp_path / "found", timeout=30)
    assert hunt.wrong and not hunt.correct and hunt.counterexample == tmp_path / "found" / "counterexample.lp"
    assert hunt.lines[0] == f"counterexample: {hunt.counterexample}" and "illegal: move" in hunt.lines[1]
    assert hunt.counterexample.is_file() and str(hunt).startswith("counterexample: ")
    with pytest.raises(patience.UsageError, match="hunt must be a whole number"):
        patience.grade(model, game="generalised", hunt="10")
    with pytest.raises(patience.UsageError, match="shrink and out are for a hunt"):
        patience.grade(model, tmp_path, shrink=5)


def test_show_is_the_page_patience_show_writes(tmp_path, capsys):
    deal = patience.deal("black_hole", 5)
    (tmp_path / "deal.txt").write_text(str(deal))
    moves = patience.solve(deal).moves
    (tmp_path / "answer.txt").write_text(" ".join(moves))
    page = patience.show(deal, moves)
    assert page.verdict == "valid: 51 moves" and page.result is None and "<!DOCTYPE html>" in page.html
    status, printed = cli(capsys, "show", str(tmp_path / "deal.txt"), str(tmp_path / "answer.txt"),
                          "-o", str(tmp_path / "page.html"))
    assert (status, printed) == (0, f"{tmp_path / 'page.html'}: valid: 51 moves\n")
    written = page.write(tmp_path / "api.html")
    assert written.read_text() == page.html and "<iframe srcdoc=" in page._repr_html_()
    solved = patience.show(deal, solver="native")
    assert solved.result.solved and solved.verdict == "valid: 51 moves"
    bad = patience.show(deal, "AS 2H 3H")
    assert bad.verdict.startswith("invalid: move 2: 3H is under")
    assert patience.show(deal).verdict is None  # to play by hand
    with pytest.raises(patience.UsageError, match="not both"):
        patience.show(deal, moves, solver="native")
    with pytest.raises(TypeError, match="ask page.verdict"):
        bool(page)


def test_report_gives_table4_as_a_dataframe_as_patience_report_prints_it(tmp_path, capsys):
    store = tmp_path / "campaign.sqlite"
    deals = [patience.random_deal(5, 2, 3, seed) for seed in (1, 2, 3)]
    patience.compare(deals, ["native", "fast=native cache=off"], timeout=20, store=store)
    made = patience.report(store)
    status, printed = cli(capsys, "report", str(store))
    assert (status, printed) == (0, str(made))
    table4 = made.table4
    assert list(table4.columns) == ["native", "fast"] and {"runs", "solved", "median"} <= set(table4.index)
    assert table4.loc["runs", "native"] == 3
    assert set(made.tables) == {"configurations", "table4", "correlations", "win_rates", "disagreements", "errors"}
    _, as_json = cli(capsys, "report", str(store), "--format", "json")
    assert made.to_dict() == json.loads(as_json) and made.to_dict()["deals"] == 3
    shown = made._repr_html_()
    assert "Table 4" in shown and shown.count("<table") == len(made.tables)
    with pytest.raises(TypeError, match="ask report"):
        bool(made)
    wall = patience.report(store, clock="wall", deals=deals[:1])
    assert wall.to_dict()["deals"] == 1 and wall.to_dict()["clock"] == "wall"
    with pytest.raises(patience.InputError, match="missing.sqlite: no such file"):
        patience.report(tmp_path / "missing.sqlite")
    with pytest.raises(patience.UsageError, match="clock must be one of cpu, wall"):
        patience.report(store, clock="cpu time")


def test_family_writes_what_gen_deals_writes(tmp_path, capsys):
    table = patience.family("cnf", "random:5,2,3:1-4", tmp_path / "api", select="hardest:2")
    status, _ = cli(capsys, "gen", "cnf", "--deals", "random:5,2,3:1-4", "-o", str(tmp_path / "cli"),
                    "--select", "hardest:2", "--quiet")
    assert status == 0 and len(table) == 2 and table.attrs["summary"].startswith(f"{tmp_path / 'api'}: 2 cnf")
    files = sorted(path.name for path in (tmp_path / "api").iterdir())
    assert files == sorted(path.name for path in (tmp_path / "cli").iterdir())
    for name in files:  # the models; the index's native seconds differ run to run
        if not name.startswith("index."):
            assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    index = json.loads((tmp_path / "cli" / "index.json").read_text())["instances"]
    assert list(table["name"]) == [row["name"] for row in index] and list(table["sha256"]) == [
        row["sha256"] for row in index]
    mzn = patience.family("minizinc", "black_hole:1-2", tmp_path / "mzn")
    assert len(mzn) == 2
    with pytest.raises(patience.UsageError, match="unknown model language 'smt'"):
        patience.family("smt", "black_hole:1", tmp_path / "smt")


def test_compare_takes_deal_objects_lists_and_ranges():
    deals = [patience.random_deal(5, 2, 3, seed) for seed in (1, 2)]
    table = patience.compare(deals, "native", timeout=20)
    assert list(table["status"]) == [patience.solve(deal).status for deal in deals]
    assert all(name.startswith("generalised#") for name in table["deal"])
    numbered = patience.compare(range(1, 4), ["native"], game="black_hole", timeout=20)
    assert list(numbered["deal"]) == ["black_hole:1", "black_hole:2", "black_hole:3"]
    mixed = patience.compare(["black_hole:1", patience.deal("black_hole", 2)], ["native"], timeout=20)
    assert len(mixed) == 2 and list(mixed["deal"])[0] == "black_hole:1"
    for wrong, message in [(3, "deals must be a deal spec"), ([3.5], "one of them is a float"),
                           (range(1, 3), "numbers need a game"), (b"black_hole:1", "deals must be"),
                           ({"black_hole": 1}, "deals must be")]:
        with pytest.raises(patience.UsageError, match=message):
            patience.compare(wrong, ["native"])
    with pytest.raises(patience.UsageError, match="solvers must be a list, not int"):
        patience.compare("black_hole:1", 7)


def test_survey_takes_ranges_and_lists_of_deal_numbers():
    by_range = patience.survey("black_hole", range(1, 11), mode="decision")
    assert by_range.to_dict() == patience.survey("black_hole", "1-10", mode="decision").to_dict()
    assert patience.survey("black_hole", [3, 1, 2], mode="decision").deals == 3
    for wrong, message in [(5, r"seeds must be deal numbers: range\(1, 6\)"), ([0], "each of seeds must be"),
                           (["1"], "each of seeds must be a whole number"), ([], "names no deals"),
                           (range(1, 10**7), "more than the cap"), (2.5, "seeds must be a list"),
                           ([patience.deal("black_hole", 1)], "for deals as objects, patience.compare"),
                           (patience.deal("black_hole", 1), "for deals as objects, patience.compare")]:
        with pytest.raises(patience.UsageError, match=message):
            patience.survey("black_hole", wrong)


DEAL = patience.deal("black_hole", 5)
WRONG_TYPES = [  # (call, the argument the one-line error names)
    (lambda: patience.deal(None, 1), "game must be text"),
    (lambda: patience.deal("black_hole", "5"), "seed must be a whole number"),
    (lambda: patience.deal("black_hole", 5.0), "seed must be a whole number"),
    (lambda: patience.deal("black_hole", 5, numbering=3), "numbering must be text"),
    (lambda: patience.random_deal(ranks="13"), "ranks must be a whole number"),
    (lambda: patience.random_deal(empty_foundation="yes"), "empty_foundation must be True or False"),
    (lambda: patience.parse_deal(b"Foundations: AS\n"), "text must be text"),
    (lambda: patience.parse_deal("Foundations: AS\n", game=1), "game must be text"),
    (lambda: patience.read_deal(3), "path must be a path"),
    (lambda: patience.read_deal(b"deal.txt"), "path must be a path"),
    (lambda: patience.read_deal(""), "path must be a path"),
    (lambda: patience.write_deal(DEAL, None), "form must be text"),
    (lambda: patience.write_deal(None, "board"), "deal must be a deal"),
    (lambda: patience.generate(DEAL, None), "language must be text"),
    (lambda: patience.generate(None, "pddl"), "deal must be a deal"),
    (lambda: patience.generate(DEAL, "pddl", encoding=["compact"]), "option encoding= must be"),
    (lambda: patience.solve(DEAL, 7), "solver must be text"),
    (lambda: patience.solve(42), "deal must be a deal .* not int"),
    (lambda: patience.solve(DEAL, timeout="5"), "timeout must be a number of seconds"),
    (lambda: patience.solve(DEAL, cpu=[1]), "cpu must be a number"),
    (lambda: patience.solve(DEAL, cache=None), "option cache= must be"),
    (lambda: patience.certify(DEAL, 5), "certificate must be a path"),
    (lambda: patience.certify(DEAL, "loss.cert", 7), "solver must be text"),
    (lambda: patience.certify(42, "loss.cert"), "deal must be a deal .* not int"),
    (lambda: patience.certify(DEAL, "loss.cert", timeout="5"), "timeout must be a number of seconds"),
    (lambda: patience.check(DEAL, 5), "certificate must be a path"),
    (lambda: patience.check(42, "loss.cert"), "deal must be a deal"),
    (lambda: patience.check(DEAL), "check needs a deal and a certificate"),
    (lambda: patience.check(store=3), "store must be a path"),
    (lambda: patience.check(store="s.sqlite", progress="no"), "progress must be True or False"),
    (lambda: patience.validate(DEAL, 5), "moves must be move names"),
    (lambda: patience.validate(DEAL, b"AS 2H"), "moves must be move names"),
    (lambda: patience.validate(DEAL, ["AS"], partial="yes"), "partial must be True or False"),
    (lambda: patience.show(DEAL, solver=5), "solver must be text"),
    (lambda: patience.show(DEAL, cache="off"), "need a solver"),
    (lambda: patience.compare(3, ["native"]), "deals must be a deal spec"),
    (lambda: patience.compare("black_hole:1", ["native"], jobs=1.5), "jobs must be a whole number"),
    (lambda: patience.compare("black_hole:1", ["native"], store=5), "store must be a path"),
    (lambda: patience.compare("black_hole:1", ["native"], progress="no"), "progress must be True or False"),
    (lambda: patience.survey("black_hole", seeds=5), "seeds must be deal numbers"),
    (lambda: patience.survey(nodes="x"), "nodes must be a whole number"),
    (lambda: patience.survey(game=3), "game must be text"),
    (lambda: patience.survey(batch=0), "batch must be from 1 to"),
    (lambda: patience.survey(shape=(7, 4)), "shape must have 3 items"),
    (lambda: patience.survey(mode=None), "mode must be one of"),
    (lambda: patience.report(3), "store must be a path"),
    (lambda: patience.family("cnf", 3, "out"), "deals must be text"),
    (lambda: patience.family("cnf", "black_hole:1", None), "out must be a path"),
    (lambda: patience.coursework("black_hole", timeout="x"), "timeout must be a number of seconds"),
    (lambda: patience.coursework("black_hole", timeout=-1), "timeout must be .* not -1"),
    (lambda: patience.coursework("black_hole", pool=2_000_000), "pool must be from 1 to 10,000, not 2,000,000"),
    (lambda: patience.coursework("black_hole", count=0), "count must be from 1 to 1,000, not 0"),
    (lambda: patience.coursework("black_hole", language="python"), "language must be one of"),
    (lambda: patience.coursework(None), "game must be text"),
    (lambda: patience.grade(3), "model must be a path"),
    (lambda: patience.grade("model.lp", hunt="10"), "hunt must be a whole number"),
    (lambda: patience.grade("model.lp", hunt=0), "hunt must be from 1 to"),
    (lambda: patience.grade("model.lp", "instances", shrink=5), "shrink and out are for a hunt"),
    (lambda: patience.grade("model.lp", "instances", timeout=float("nan")), "timeout must be above 0"),
    (lambda: patience.grade("model.lp"), "give instances .* or hunt=N"),
    (lambda: patience.grade("model.lp", "instances", hunt=5), "give instances .* or hunt=N"),
    (lambda: patience.grade("model.lp", hunt=5), "a hunt needs the model's game: give game="),
]


@pytest.mark.parametrize(("call", "message"), WRONG_TYPES, ids=[message for _, message in WRONG_TYPES])
def test_every_public_function_names_the_argument_it_refuses(call, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing is written, wherever it would go
    with pytest.raises(patience.UsageError, match=message) as refused:
        call()
    assert "\n" not in str(refused.value) and not any(tmp_path.iterdir())


LIMITS = [("timeout", float("inf")), ("timeout", 1e300), ("timeout", 1e7), ("timeout", 2**70), ("timeout", -5),
          ("timeout", float("nan")), ("timeout", True), ("cpu", float("inf")), ("cpu", 0), ("memory", 2**70),
          ("memory", 2**50), ("memory", 1024.0), ("memory", 0), ("memory", True)]


@pytest.mark.parametrize(("name", "value"), LIMITS, ids=[f"{name}={value!r}" for name, value in LIMITS])
def test_a_limit_beyond_the_command_lines_bounds_is_refused_naming_it(name, value):
    """The API's limits are read by the bounded reader of `--timeout`, `--cpu` and `--memory`: never an
    OverflowError, a TypeError or a false timeout or memout on a deal won at once."""
    for call in (lambda: patience.solve(DEAL, **{name: value}),
                 lambda: patience.compare("black_hole:5", ["native"], **{name: value})):
        with pytest.raises(patience.UsageError, match=f"^{name} must be") as refused:
            call()
        assert "\n" not in str(refused.value)
    if name == "timeout":
        for call in (lambda: patience.survey("black_hole", "1-2", timeout=value),
                     lambda: patience.show(DEAL, solver="native", timeout=value),
                     lambda: patience.coursework("black_hole", timeout=value)):
            with pytest.raises(patience.UsageError, match="^timeout must be"):
                call()


def test_limits_within_the_bounds_are_honoured():
    for limits in ({"timeout": 5}, {"timeout": 1_000_000, "cpu": 999_999.5}, {"memory": 4096},
                   {"memory": 1024 * 1024, "timeout": 30.0}):
        result = patience.solve(DEAL, **limits)
        assert result.solved, (limits, result)


API_PAGE = ROOT / "docs" / "api.md"


def api_examples() -> list:
    """docs/api.md's examples, one a section; the teaching one runs clingo and the scheduler's starts a
    Dask cluster, so they are slow."""
    from tests.test_examples import blocks

    return [pytest.param(block, id=f"api.md:{block.line}",
                         marks=[pytest.mark.slow] if "patience.grade(" in block.text or "LocalCluster(" in block.text
                         else [])
            for block in blocks(API_PAGE) if not block.not_run]


@pytest.mark.parametrize("block", api_examples())
def test_every_example_of_the_api_reference_runs_as_written(block, tmp_path):
    """As tests/test_examples.py runs every docs page (under -m slow), but by default and each block in a
    folder of its own: the API reference's examples are its contract."""
    from tests.test_examples import folder_for, run_block

    run_block(block, folder_for(tmp_path))


def test_the_api_reference_has_an_example_for_each_part_and_defines_its_types():
    text = API_PAGE.read_text(encoding="utf-8")
    sections = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    parts = ["Deals", "Models", "Solving", "Validating", "Certificates of a loss", "Pages", "Campaigns", "Surveys",
             "Teaching"]
    assert sections[:len(parts)] == parts
    for section in parts:
        body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
        assert "```python\n" in body, section
    for name in ("AnyDeal", "Card", "Move", "Status", "DataFrame"):
        assert f"- **`{name}`**:" in text
    for name in ("deal.Deal", "cards.Card", "binary_star.deal.Play", "result.Result", "validator.Replay",
                 "api_teaching.Grading"):
        assert f"::: patience.{name}\n" in text
    documented = {line.split(".")[-1] for line in text.splitlines() if line.startswith("::: patience.")}
    assert set(patience.__all__) - {"__version__"} <= documented


@needs_solver("sat")
def test_the_largest_limits_the_command_line_takes_are_honoured_by_a_process_solver():
    """1,000,000 s and 1 TiB, the largest `--timeout`, `--cpu` and `--memory`: within what the limits
    become (milliseconds, rlimits), so no overflow and no false memout."""
    result = patience.solve(patience.random_deal(**SMALL), "sat", timeout=1_000_000, cpu=1_000_000,
                            memory=1024 * 1024)
    assert result.solved, result
