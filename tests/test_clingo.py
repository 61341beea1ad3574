"""clingo: the programs `gen asp` writes, clingo's JSON answer read back and refused when it is
not what clingo prints, and the decode maps' checks on answer sets."""

from __future__ import annotations

import json

import pytest

from patience.cli import main
from patience.errors import InputError
from patience.games import read_game_deal
from patience.generators.asp import binary_star, black_hole, lbs
from patience.result import Status
from patience.runners import base
from patience.runners.solve import solve
from patience.runs.process import Limits, ProcessRun
from tests.helpers import COURSE, INSTANCES, needs_solver
from tests.test_binary_star import small_deal

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
LBS5_0 = COURSE / "SolvableInstances" / "LBS5_0.param"


def clingo_json(result: str, atoms: list[str] | None = None) -> str:
    call = {"Witnesses": [{"Value": atoms}]} if atoms is not None else {}
    return json.dumps({"Solver": "clingo", "Call": [call], "Result": result, "Stats": {"Core": {"Choices": 7}}})


def answered(monkeypatch, stdout: str):
    monkeypatch.setattr(base, "run_process", lambda command, limits, cwd=None, **_: ProcessRun(
        tuple(command), 10, stdout, "", 0.1, 0.1))
    return solve(read_game_deal(LBS5_0)[1], "clingo", Limits(timeout=10))


def test_an_answer_set_is_decoded_and_judged(monkeypatch):
    win = ["move(1,3,1)", "move(2,2,1)", "move(3,2,1)", "move(4,2,1)"]
    result = answered(monkeypatch, clingo_json("SATISFIABLE", win))
    assert result.status is Status.SOLVED and result.sequence == ((3, 2), (2, 1), (2, 1), (2, 1))
    assert result.nodes == 7
    illegal = ["move(1,2,1)", "move(2,2,1)", "move(3,2,1)", "move(4,2,1)"]  # 4C onto 6S: no match
    assert answered(monkeypatch, clingo_json("SATISFIABLE", illegal)).status is Status.ERROR
    assert answered(monkeypatch, clingo_json("UNSATISFIABLE")).status is Status.UNSOLVABLE
    assert answered(monkeypatch, clingo_json("UNKNOWN")).status is Status.TIMEOUT


@pytest.mark.parametrize("stdout", [
    "", "Answer: 1\nmove(1,3,1)\nSATISFIABLE\n", clingo_json("MAYBE"), clingo_json("SATISFIABLE"),
    clingo_json("SATISFIABLE", ["move(1,3,1)"]), clingo_json("SATISFIABLE", ["play(1,3,1)"] * 4),
    clingo_json("SATISFIABLE", ["move(1,3,2)", "move(2,2,1)", "move(3,2,1)", "move(4,2,1)"]),
    clingo_json("SATISFIABLE", ["move(1,3,1)", "move(1,2,1)", "move(3,2,1)", "move(4,2,1)"]), "[1, 2]"])
def test_what_clingo_does_not_print_is_a_solver_error(monkeypatch, stdout):
    result = answered(monkeypatch, stdout)
    assert result.status is Status.ERROR and result.message


def test_decode_refuses_a_card_played_twice():
    deal = read_game_deal(PAPER)[1]
    model = black_hole.build(deal)
    twice = [f"play({1 if step == 2 else step},{step})" for step in range(1, 52)]
    with pytest.raises(InputError):
        model.decode(twice, "out")
    star = binary_star.build(small_deal(0))
    with pytest.raises(InputError):
        star.decode(["play(0,0,1)"], "out")


def test_gen_asp_prints_the_facts_and_the_programs(capsys, tmp_path):
    assert main(["gen", "asp", str(PAPER)]) == 0
    facts = capsys.readouterr().out
    assert "steps(51).\n" in facts and "start_rank(0).\n" in facts and "symmetry_breaking.\n" in facts
    assert facts.count("next_rank(") == 26 and facts.count("card(") == 51 and facts.count("above(") == 34
    assert main(["gen", "asp", str(PAPER), "--symmetry-breaking", "off", "--search", "free", "-o", str(tmp_path)]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["asp-black-hole.lp", "asp-symmetry.lp", "deal.lp"]
    assert "symmetry_breaking." not in (tmp_path / "deal.lp").read_text()
    assert main(["gen", "asp", "--heuristic"]) == 0
    assert "#heuristic play(C, T)" in capsys.readouterr().out
    assert main(["gen", "asp", str(LBS5_0)]) == 0
    assert lbs.deal_facts(read_game_deal(LBS5_0)[1]) == capsys.readouterr().out


@needs_solver("clingo")
@pytest.mark.parametrize("configuration", ["frumpy", "trendy"])
def test_configurations_run(configuration):
    result = solve(read_game_deal(LBS5_0)[1], "clingo", Limits(timeout=30), {"configuration": configuration})
    assert result.status is Status.SOLVED
