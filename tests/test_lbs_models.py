"""LBS models (CNF, Essence Prime) solved by real solvers, decoded, replayed and compared with native."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from patience.cli import main
from patience.errors import InputError
from patience.generators.cnf.lbs import encode
from patience.generators.eprime.lbs import model_text, parameters
from patience.generators.pddl.lbs import plan_moves
from patience.generators.xcsp3.lbs import decode, step_moves
from patience.lbs.deal import LBSDeal, random_deal, read_param
from patience.lbs.rules import replay
from patience.lbs.solver import solve
from patience.result import Status
from patience.runners.pddl_plan import read_plan_file
from patience.runners.solve import solve as solve_with
from patience.runs.process import Limits
from tests.helpers import COURSE, needs_solver

SMALL = sorted(path for path in COURSE.rglob("*.param") if len(read_param(path.read_text(), str(path)).cards) <= 10)


def deal_of(path: Path) -> LBSDeal:
    return read_param(path.read_text(), str(path))


def assert_agrees_with_native(deal: LBSDeal, route: str, timeout: float) -> None:
    """The route's verdict is the native solver's, and any moves it returns replay."""
    result = solve_with(deal, route, Limits(timeout=timeout))
    assert result.status.value == solve(deal).verdict
    if result.sequence is not None:
        assert replay(deal, result.sequence).valid


@pytest.mark.skipif(shutil.which("cadical") is None, reason="Debian package cadical not installed")
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_cnf_with_cadical_agrees_with_native(path):
    deal = deal_of(path)
    assert_agrees_with_native(deal, "cadical", 60)


@pytest.mark.skipif(shutil.which("picosat") is None, reason="Debian package picosat not installed")
@pytest.mark.parametrize("seed", range(6))
def test_cnf_on_generalised_deals(seed):
    deal = random_deal(8, seed, ranks=4, suits=3)
    assert_agrees_with_native(deal, "picosat", 60)


def test_cnf_has_one_move_variable_per_step_and_action():
    deal = LBSDeal((44, 29, 31, 5, 4))
    moves = encode(deal).moves
    steps = sorted({step for step, _ in moves.values()})
    assert steps == [1, 2, 3, 4]
    assert sorted(move for step, move in moves.values() if step == 1) == [(2, 1), (3, 2), (4, 1), (4, 3), (5, 2),
                                                                           (5, 4)]


def test_gen_lbs_commands(tmp_path, capsys):
    deal = COURSE / "SolvableInstances" / "LBS5_0.param"
    assert main(["gen", "cnf", str(deal)]) == 0
    out = capsys.readouterr().out
    assert "c move " in out and "\np cnf " in out
    assert main(["gen", "eprime", str(deal), "-o", str(tmp_path)]) == 0
    capsys.readouterr()
    assert (tmp_path / "lbs.eprime").read_text() == model_text()
    assert read_param((tmp_path / "LBS5_0.param").read_text(), "p").cards == (44, 29, 31, 5, 4)
    assert main(["gen", "eprime", "--game", "lbs", "--model"]) == 0
    assert capsys.readouterr().out == model_text()
    assert main(["gen", "eprime", "--game", "lbs"]) == 2


def test_generalised_eprime_model_has_the_deals_ranks_and_suits():
    deal = random_deal(9, 2, ranks=6, suits=5)
    text = model_text(deal.ranks, deal.suits)
    assert "letting ranks be 6\n" in text and "letting suits be 5\n" in text
    assert parameters(deal).startswith("letting cards be [")


@needs_solver("savilerow-minion")
@pytest.mark.parametrize("name, verdict", [("SolvableInstances/LBS7_47", "solved"),
                                           ("UnsolvableInstances/LBS6_20", "unsolvable")])
def test_eprime_model_with_savilerow(name, verdict):
    deal = deal_of(COURSE / f"{name}.param")
    result = solve_with(deal, "savilerow-minion", Limits(timeout=60))
    assert result.status.value == verdict == solve(deal).verdict
    assert result.nodes >= 0


@needs_solver("savilerow-minion")
def test_savilerow_route_stops_minion_at_the_limit():
    started = time.monotonic()
    result = solve_with(deal_of(COURSE / "GeneratedInstances" / "LBS19_4.param"), "savilerow-minion",
                        Limits(timeout=2), {"optimisation": "0"})
    assert result.status is Status.TIMEOUT and result.nodes > 0  # Savile Row wrote its .info
    assert time.monotonic() - started < 20  # Minion stopped itself, long before the backstop kill


def test_lbs_solve_and_validate_commands(tmp_path, capsys):
    deal = COURSE / "SolvableInstances" / "LBS5_0.param"
    assert main(["lbs", "solve", str(deal)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("LBS5_0: solved by native") and out.count("\nmove ") == 4
    assert main(["lbs", "solve", str(COURSE / "UnsolvableInstances" / "LBS6_12.param")]) == 1
    capsys.readouterr()
    assert main(["lbs", "validate", str(deal), f"{deal}.solution"]) == 0
    assert capsys.readouterr().out == "valid: 4 moves\n"
    pairs = tmp_path / "moves.txt"
    pairs.write_text("3 2\n2 -> 1\n# a comment\n2 1\n")
    assert main(["lbs", "validate", str(deal), str(pairs)]) == 1
    assert capsys.readouterr().out == "invalid: 2 piles left\n"


@pytest.mark.parametrize("argv_tail, message", [
    (["moves.txt"], "moves.txt:1: expected `FROM TO`"),
    (["missing.txt"], "missing.txt"),
])
def test_lbs_validate_bad_input(tmp_path, capsys, argv_tail, message):
    (tmp_path / "moves.txt").write_text("3 two\n")
    deal = COURSE / "SolvableInstances" / "LBS5_0.param"
    assert main(["lbs", "validate", str(deal), *(str(tmp_path / name) for name in argv_tail)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ") and message in captured.err


def test_lbs_solve_bad_deal(tmp_path, capsys):
    bad = tmp_path / "bad.param"
    bad.write_text("letting cards be [1, 2,\n")
    assert main(["lbs", "solve", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "bad.param:1:" in captured.err


ACE = needs_solver("ace")


@pytest.mark.parametrize("route, name", [
    ("fd-ff", "SolvableInstances/LBS5_0"), ("fd-ff", "UnsolvableInstances/LBS8_8"),
    pytest.param("fd-ff", "SolvableInstances/LBS7_47", marks=pytest.mark.slow),
    pytest.param("fd-ff", "SolvableInstances/LBS9_41", marks=pytest.mark.slow),
    pytest.param("fd-ff", "UnsolvableInstances/LBS6_20", marks=pytest.mark.slow),
    pytest.param("ace", "SolvableInstances/LBS4_13", marks=ACE),
    pytest.param("ace", "UnsolvableInstances/LBS6_12", marks=[ACE, pytest.mark.slow]),
    pytest.param("ace", "SolvableInstances/LBS9_41", marks=[ACE, pytest.mark.slow]),
    pytest.param("ace", "UnsolvableInstances/LBS8_20", marks=[ACE, pytest.mark.slow]),
])
def test_pddl_and_xcsp3_routes_agree_with_native(route, name):
    """The LBS PDDL (Fast Downward) and XCSP3 (ACE) routes, decoded and replayed."""
    deal = deal_of(COURSE / f"{name}.param")
    assert_agrees_with_native(deal, route, 120)


@ACE
@pytest.mark.parametrize("cards", [(8, 36, 51), (8,)])
def test_xcsp3_route_on_rows_without_a_choice(cards):
    """No two cards match (an empty table of legal moves), or one card and no move at all (each an
    ACE run of about 3 s of CPU: two cards that do not match would be the first case again)."""
    deal = LBSDeal(cards)
    assert_agrees_with_native(deal, "ace", 60)


def test_pddl_plan_decodes_slots_to_shifting_positions():
    deal = LBSDeal((44, 29, 31, 5, 4))  # 6S 4C 6C 6H 5H
    plan = read_plan_file("(move-one p3 p2 p4 c31 c29)\n(move-one p2 p1 p4 c31 c44)\n"
                          "(move-one p4 p1 p5 c5 c31)\n(move-one p5 p1 end c4 c5)\n")
    moves = plan_moves(deal, plan)
    assert moves == ((3, 2), (2, 1), (2, 1), (2, 1)) and replay(deal, moves).valid
    with pytest.raises(InputError) as caught:
        plan_moves(deal, read_plan_file("(move-one p3 p2 p4 c31 c29)\n(move-one p3 p2 p4 c31 c29)\n"))
    assert caught.value.line == 2 and "p3 is not in the row" in caught.value.message


def test_gen_lbs_pddl(capsys):
    assert main(["gen", "pddl", str(COURSE / "SolvableInstances" / "LBS5_0.param")]) == 0
    out = capsys.readouterr().out
    assert "(:goal (left p1 end))" in out and "(match c44 c31)" in out and "(match c44 c29)" not in out




def test_xcsp3_decode_and_gen(capsys):
    deal = LBSDeal((44, 29, 31, 5, 4))
    assert step_moves(5, 1)[:3] == [(2, 1), (3, 2), (4, 3)]
    values = {f"m[{t}]": 0 for t in range(4)}
    assert decode(deal, values) == ((2, 1), (2, 1), (2, 1), (2, 1))
    assert decode(deal, {"m[0]": 99}) is None
    assert main(["gen", "xcsp3", str(COURSE / "SolvableInstances" / "LBS5_0.param")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<instance") and '<array id="m" size="[4]">' in out


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
