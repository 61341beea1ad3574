"""Students' words: the grader's notes and counterexamples name cards as students know them (`3♠`,
`10♥`), whatever form the toolkit writes them in (`3S`, `TH`, a small generalised deal's `r3s0`);
`r3s0` stays only for a deal beyond a standard deck."""

from __future__ import annotations

import re

from patience.cards import Card, in_players_words
from patience.cli import main
from patience.deal import Deal
from patience.formats import write_deal
from patience.grading.table import students_words
from patience.lbs.deal import LBSDeal
from patience.reading import read_text
from tests.helpers import ROOT, needs_solver

PILE_ORDER = ":- play(C, T), above(C, D), not played(D, T - 1).\n"  # the ASP model's pile order
SMALL = Deal(((Card(2, 1), Card(3, 0)),), Card(0, 0), 4)  # 4 ranks (cards named r2s1): only a buried card follows A♠


def test_every_card_name_becomes_the_players():
    assert in_players_words("move 2: TH is under 3S; native wins with AS KC", True) == \
        "move 2: 10♥ is under 3♠; native wins with A♠ K♣"
    assert in_players_words("move 1: r3s0 is under r2s1", True) == "move 1: 4♠ is under 3♥"
    assert in_players_words("move 1: r13s0 is under r2s5", False) == "move 1: r13s0 is under r2s5"
    assert in_players_words("ASP said AS. xTHx 8H>1@3", True) == "ASP said A♠. xTHx 8♥>1@3"


def test_a_deal_beyond_a_standard_deck_keeps_its_generalised_names():
    assert students_words(SMALL, "illegal: move 1: r1s1 is under r2s0") == "illegal: move 1: 2♥ is under 3♠"
    wide = Deal(((Card(14, 0), Card(1, 1)),), Card(0, 0), 15)
    assert students_words(wide, "illegal: move 1: r1s1 is under r14s0") == "illegal: move 1: r1s1 is under r14s0"
    five_suits = Deal(((Card(2, 4), Card(1, 1)),), Card(0, 0), 4)
    assert "r2s4" in students_words(five_suits, "move 1: r1s1 is under r2s4")
    lbs = LBSDeal((0, 13, 26), 13, 4, "row")
    assert students_words(lbs, "illegal: move 1 (2->1): AH does not match 2D") == \
        "illegal: move 1 (2->1): A♥ does not match 2♦"


@needs_solver("clingo")
def test_a_wrong_models_note_names_the_cards_as_students_do(tmp_path, capsys):
    """A real model without the pile order, on a small generalised deal: its illegal move is told in
    ♠ ♥ words, never in the r2s0 names of the deal file."""
    text = read_text(ROOT / "models" / "asp-black-hole.lp")
    assert PILE_ORDER in text
    model = tmp_path / "student.lp"
    model.write_text(text.replace(PILE_ORDER, "").replace(":- play(C, T), depth(C, K), T <= K.\n", ""))
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "small.yaml").write_text(write_deal(SMALL, "yaml"))
    assert "r3s0" in (folder / "small.yaml").read_text()
    status = main(["grade", str(model), "--game", "generalised", "--instances", str(folder), "--timeout", "20"])
    row = capsys.readouterr().out.splitlines()[1]
    assert status == 1 and "illegal: move 1: 4♠ is under 3♥" in row, row
    assert not re.search(r"r\d+s\d+", row)
