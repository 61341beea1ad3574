"""Late Binding Solitaire: deal files, rules, the native solver against the course's Savile Row verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience.cli import main
from patience.errors import InputError
from patience.generators.eprime.solution import read_info
from patience.lbs.deal import LBSDeal, deal_text, random_deal, read_param, write_param
from patience.lbs.rules import legal_moves, play, replay
from patience.lbs.solution import read_moves
from patience.lbs.solver import most_moves, solve
from tests.helpers import COURSE

PARAMS = sorted(COURSE.rglob("*.param"))
HARD = {"LBS19_4", "LBS20_20"}  # the native search needs seconds here; checked in the slow run


def deal_of(path: Path) -> LBSDeal:
    return read_param(path.read_text(), str(path))


def test_course_folder_is_complete():
    assert len(PARAMS) == 43
    assert len(list((COURSE / "SolvableInstances").glob("*.param"))) == 19
    assert len(list((COURSE / "UnsolvableInstances").glob("*.param"))) == 6


def test_brief_examples_read_as_published():
    deal = deal_of(COURSE / "SolvableInstances" / "LBS5_0.param")
    assert deal.cards == (44, 29, 31, 5, 4) and deal.name == "LBS5_0"
    assert [deal.card_name(card) for card in deal.cards] == ["6S", "4C", "6C", "6H", "5H"]


@pytest.mark.parametrize("path", [p for p in PARAMS if p.stem not in HARD], ids=lambda p: p.stem)
def test_native_agrees_with_savilerow(path):
    deal = deal_of(path)
    info = read_info(Path(f"{path}.info").read_text(), "info")
    search = solve(deal, timeout=60)
    assert search.verdict in ("solved", "unsolvable")
    if search.moves is not None:
        assert replay(deal, search.moves).valid
    if not info["SolverTimeOut"] and not info["SavileRowTimeOut"]:
        assert (search.verdict == "solved") == bool(info["SolverSatisfiable"])
    if path.parent.name in ("SolvableInstances", "UnsolvableInstances"):
        assert (search.verdict == "solved") == (path.parent.name == "SolvableInstances")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HARD))
def test_native_decides_the_hard_ones(name):
    path = next(p for p in PARAMS if p.stem == name)
    info = read_info(Path(f"{path}.info").read_text(), "info")
    search = solve(deal_of(path), timeout=600)
    assert search.verdict in ("solved", "unsolvable")
    assert search.moves is None or replay(deal_of(path), search.moves).valid
    if not info["SolverTimeOut"]:
        assert (search.verdict == "solved") == bool(info["SolverSatisfiable"])


@pytest.mark.parametrize("path", [p for p in PARAMS if Path(f"{p}.solution").exists()], ids=lambda p: p.stem)
def test_savilerow_solutions_replay(path):
    deal = deal_of(path)
    moves = read_moves(Path(f"{path}.solution").read_text(), "solution")
    assert len(moves) == len(deal.cards) - 1
    assert replay(deal, moves).valid


def test_replay_names_the_fault():
    deal = LBSDeal((44, 29, 31, 5, 4))  # 6S 4C 6C 6H 5H
    assert "shares neither suit nor value" in replay(deal, [(2, 1)]).fault  # 4C onto 6S
    assert "1 or 3 places" in replay(deal, [(3, 1)]).fault
    assert "no pile at position 6" in replay(deal, [(6, 5)]).fault
    assert replay(deal, [(3, 2)]).fault == "4 piles left"
    assert replay(deal, [(3, 2)], complete=False).valid
    assert replay(deal, [(3, 2), (2, 1), (2, 1), (2, 1)]).valid


def test_three_step_move_and_row_shift():
    deal = LBSDeal((0, 14, 27, 13, 5))  # AH 2D 2C AD 6H: AD (4) may go onto AH (1)
    assert (4, 1) in set(legal_moves(deal, deal.cards))
    assert play(deal.cards, (4, 1)) == (13, 14, 27, 5)


def test_solver_finds_no_win_when_a_card_is_stranded():
    deal = LBSDeal((0, 14, 40))  # AH 2D 2S: 2D-2S match but AH matches nothing
    assert solve(deal).verdict == "unsolvable"


def test_solver_limit_gives_unknown():
    deal = deal_of(COURSE / "GeneratedInstances" / "LBS16_42.param")
    assert solve(deal, node_limit=50).verdict == "unknown"


def test_generalised_deal_roundtrip_and_seeded_generator():
    deal = random_deal(12, 7, ranks=5, suits=3)
    assert deal == random_deal(12, 7, ranks=5, suits=3) and deal.name == "LBS12_7"
    again = read_param(write_param(deal), "LBS12_7.param")
    assert (again.cards, again.ranks, again.suits) == (deal.cards, 5, 3)
    assert deal_text(5, 0)[0] == "LBS5_0.param"
    assert random_deal(5, 0) != random_deal(5, 1)


@pytest.mark.parametrize("text, line, message", [
    ("letting cards be [1, 2, 2]\n", 1, "twice"),
    ("$ c\nletting cards be [1, 52]\n", 2, "outside 0..51"),
    ("letting cards be 5\n", 1, "list of integers"),
    ("cards = [1, 2]\n", 1, "not a letting"),
    ("$ nothing\n", 1, "no `letting cards"),
])
def test_bad_param_files(text, line, message):
    with pytest.raises(InputError) as caught:
        read_param(text, "bad.param")
    assert caught.value.line == line and message in caught.value.message


def test_unreadable_lbs_files_give_one_error_line(tmp_path, capsys):
    deal, binary, mapping = tmp_path / "LBS6_3.param", tmp_path / "moves.bin", tmp_path / "map.yaml"
    deal.write_text(write_param(random_deal(6, 3)))
    binary.write_bytes(b"\xff\xfe\x00")
    mapping.write_bytes(b"from: \xff\n")
    for arguments, culprit, message in [
        (["lbs", "validate", str(deal), str(binary)], f"{binary}:1", "not a text file (not UTF-8)"),
        (["lbs", "validate", str(tmp_path / "none.param"), str(deal)], tmp_path / "none.param", "no such file"),
        (["lbs", "validate", str(deal), str(deal), "--mapping", str(mapping)], f"{mapping}:1",
         "not a text file (not UTF-8)"),
        (["lbs", "solve", str(binary)], f"{binary}:1", "not a text file (not UTF-8)"),
    ]:
        assert main(arguments) == 2
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == ("", f"error: {culprit}: {message}\n")


def test_deal_command_writes_lbs_params(tmp_path, capsys):
    assert main(["deal", "--game", "lbs", "--cards", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert read_param(out, "LBS6_3.param").cards == random_deal(6, 3).cards
    assert main(["deal", "--game", "lbs", "--cards", "6", "--seed", "1", "--count", "3", "--dir", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LBS6_1.param", "LBS6_2.param", "LBS6_3.param"]


def most_moves_by_brute_force(deal: LBSDeal) -> int:
    """The most moves any play of the deal makes: every row reached, breadth first, written apart from
    the solver."""
    rows, moves = {deal.cards}, 0
    while True:
        rows = {play(row, move) for row in rows for move in legal_moves(deal, row)}
        if not rows:
            return moves
        moves += 1


@pytest.mark.parametrize("seed", range(12))
def test_max_cards_gives_the_most_moves_and_a_play_that_makes_them(seed):
    deal = random_deal(8 + seed % 6, seed)
    found = most_moves(deal)
    most = most_moves_by_brute_force(deal)
    if found.moves is not None:  # a win makes every move
        assert most == len(deal.cards) - 1 and replay(deal, found.moves).valid
    else:
        assert found.complete and found.longest is not None and len(found.longest) == most
        assert replay(deal, found.longest, complete=False).valid


def test_solve_with_max_cards_reports_the_longest_play_the_certificate_bounds(tmp_path, capsys):
    deal = random_deal(14, 1)
    path, certificate = tmp_path / "lost.param", tmp_path / "lost.cert"
    path.write_text(write_param(deal), encoding="utf-8")
    assert main(["solve", str(path), "--set", "max-cards=on", "--json", "--certificate", str(certificate)]) == 1
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert stats["max_cards"] == most_moves_by_brute_force(deal) == len(stats["longest_play"].split())
    assert main(["check", str(path), str(certificate)]) == 0
    assert f"no play makes more than {stats['max_cards']} of the 13 moves" in capsys.readouterr().out


def test_max_cards_stops_at_its_node_limit():
    found = most_moves(random_deal(14, 1), node_limit=150)
    assert not found.complete and found.longest is None
