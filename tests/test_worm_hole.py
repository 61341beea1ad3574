"""Worm Hole: the deal, the rules and replay, the answer reader, the deal forms, the commands, and the
native search against exhaustive play on small generalised deals and, with no cell, against Black
Hole's native search."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from patience.cards import Card, parse_card
from patience.cli import main
from patience.deal import Deal
from patience.errors import InputError
from patience.games import get_game, parse_game_deal
from patience.generators.deals import pysol_board, pysol_deal, random_deal
from patience.names import BLACK_HOLE, GENERALISED, WORM_HOLE, WORM_HOLE_GENERALISED
from patience.native import engine
from patience.native.rules import Rules
from patience.result import Status
from patience.validator import replay as black_hole_replay
from patience.worm_hole import forms, rules
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.deals import numbered_deal
from patience.worm_hole.deals import random_deal as worm_random_deal
from patience.worm_hole.moves import Move
from patience.worm_hole.native import survey_search
from patience.worm_hole.search import search


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(word) for word in text.split())


def small() -> WormHoleDeal:
    """A♠ on the foundation; piles (top first) 3♠ 2♠ | 4♥ | 5♦: lost in Black Hole (no 2 or K on top),
    won with one cell (park 3♠, then 2♠ 3♠ 4♥ 5♦)."""
    return WormHoleDeal(Deal((cards("3S 2S"), cards("4H"), cards("5D")), Card(0, 0)), 1)


def moves(text: str) -> tuple[Move, ...]:
    return rules.read_moves(text, "answer")


# --- the deal -----------------------------------------------------------------------------------

def test_the_deal_is_a_black_hole_deal_and_its_cells():
    deal = numbered_deal(WORM_HOLE, 2)
    assert deal.black_hole == pysol_deal(BLACK_HOLE, 2) and deal.cells == 1
    assert deal.game == WORM_HOLE and deal.piles == deal.black_hole.piles and len(deal.cards) == 51
    assert deal.with_cells(2).game == WORM_HOLE_GENERALISED
    assert WormHoleDeal(deal.black_hole, 0).game == WORM_HOLE_GENERALISED
    assert small().game == WORM_HOLE_GENERALISED
    with pytest.raises(ValueError, match="cells"):
        WormHoleDeal(deal.black_hole, -1)
    with pytest.raises(ValueError, match="cells"):
        WormHoleDeal(deal.black_hole, True)


def test_numbered_deals_are_black_hole_numbers_only():
    from patience.errors import UsageError

    with pytest.raises(UsageError, match="not 0"):
        numbered_deal(WORM_HOLE, 0)
    with pytest.raises(UsageError, match="no numbers"):
        numbered_deal(WORM_HOLE_GENERALISED, 1)


# --- rules and replay ---------------------------------------------------------------------------

def test_a_park_wins_what_black_hole_loses():
    deal = small()
    assert rules.replay(deal, moves("3S cell\n2S\n3S\n4H\n5D")).describe() == "valid: 5 moves"
    assert rules.replay(deal, moves("AS 3S cell 2S 3S 4H 5D")).valid  # the start card may lead
    assert rules.replay(deal.with_cells(0), moves("3S cell")).fault == \
        "move 1: 3S cannot be parked: the deal has no cells"


@pytest.mark.parametrize("answer, fault", [
    ("2S", "move 1: 2S is under 3S"),
    ("3S", "move 1: 3S does not follow AS"),
    ("3S cell\n4H cell", "move 2: 4H cannot be parked: no empty cell (they hold 3S)"),
    ("3S cell\n3S cell", "move 2: 3S is already in a cell (parked at move 1)"),
    ("3S cell\n2S\n2S", "move 3: 2S was already played at move 2"),
    ("3S cell\n2S\n3S\n4H\nAS", "move 5: AS is the foundation card"),
    ("KC", "move 1: KC is not in the deal"),
    ("3S cell\n2S\n3S\n4H cell\n4H\n5D", None),  # a second park once the first card has left
    ("3S cell\n2S", "3 cards left, 1 of them in a cell"),
    ("3S cell\n2S\n3S", "2 cards left"),
])
def test_each_fault_is_named(answer, fault):
    assert rules.replay(small(), moves(answer)).fault == fault


def test_a_cell_card_never_goes_back_and_partial_replays_need_not_win():
    deal = small()
    assert rules.replay(deal, moves("3S cell"), complete=False).describe() == "valid: 1 move"
    # a parked card is played from its cell (the card under it is the pile's top now)
    assert rules.replay(deal, moves("3S cell\n2S\n3S"), complete=False).valid


def test_with_no_cell_the_replay_is_black_holes_on_random_plays():
    """Random plays, legal and not, on random generalised deals: the same verdict, fault and count."""
    chance = random.Random(5)
    for seed in range(300):
        deal = random_deal(chance.randint(2, 6), chance.randint(1, 3), chance.randint(1, 3), seed,
                           chance.random() < 0.2)
        pool = list(deal.all_cards)
        play = [chance.choice(pool) for _ in range(chance.randint(0, len(pool) + 2))]
        complete = chance.random() < 0.5
        ours = rules.replay(WormHoleDeal(deal, 0), [Move.play(card) for card in play], complete)
        assert ours == black_hole_replay(deal, play, complete), (seed, play)


# --- the answer reader --------------------------------------------------------------------------

def test_answers_in_players_words():
    assert moves("5♠\n10♥ cell  # parked\n\nr4s2, QD Cell") == (
        Move.play(Card(4, 0)), Move.parked(Card(9, 1)), Move.play(Card(4, 2)), Move.parked(Card(11, 2)))
    deal = small()
    written = rules.move_names(deal, moves("3S cell 2S 3S 4H 5D"))
    assert written == ["AS", "3S cell", "2S", "3S", "4H", "5D"]
    assert moves("\n".join(written)) == (Move.play(Card(0, 0)), *moves("3S cell 2S 3S 4H 5D"))


@pytest.mark.parametrize("text, message", [
    ("cell", "answer:1: 'cell' must follow the card it parks"),
    ("5S\n5X", "answer:2: unknown card '5X'"),
    ("# nothing", "answer:1: no moves in the answer"),
    ("5S cell cell", "answer:1: 'cell' must follow the card it parks"),
])
def test_unreadable_answers_are_one_line(text, message):
    with pytest.raises(InputError) as error:
        moves(text)
    assert str(error.value).startswith(message)


# --- deal forms ---------------------------------------------------------------------------------

def test_board_and_yaml_round_trip_and_black_holes_files_stay_black_holes():
    board = pysol_board(BLACK_HOLE, 7)
    text = board.replace("\n", "\nCells: 1\n", 1)
    game, deal = parse_game_deal(text, "wh.txt")
    assert game.name == WORM_HOLE and deal == numbered_deal(WORM_HOLE, 7)
    assert forms.write(deal, "board") == text
    yaml_text = forms.write(deal.with_cells(3), "yaml")
    assert parse_game_deal(yaml_text, "wh.yaml")[1] == deal.with_cells(3)
    assert "cells: 3" in yaml_text
    for black_hole in (board, pysol_board("all_in_a_row", 7), str(random_deal(5, 2, 2, 1))):
        assert parse_game_deal(black_hole, "bh")[0].name == BLACK_HOLE
    generalised = worm_random_deal(20, 3, 4, 2, cells=2)  # ranks past a deck's names: YAML only
    with pytest.raises(ValueError, match="yaml"):
        forms.write(generalised, "board")
    assert str(generalised).startswith("# worm_hole_generalised deal") and \
        parse_game_deal(str(generalised), "g.yaml")[1] == generalised


@pytest.mark.parametrize("text, message", [
    ("Foundations: AS\nCells: x\n2S\n", "d.txt:2: the number of cells must be a whole number"),
    ("Foundations: AS\nCells: -1\n2S\n", "d.txt:2: the number of cells"),
    ("Foundations: AS\n2S\nCells: 1\n", "d.txt:3: expected 'Cells: N'"),
    ("Foundations: AS\n\nCells: 1\n2S\n\n2S\n", "d.txt:6: card 2S appears twice (first on line 4)"),
    ("Foundations: AS\nCells: 1\n", "d.txt:1: no piles after the foundation line"),
    ("cells: 1\nranks: 3\nfoundation: r0s0\npiles:\n  - [r1s0, r9s0]\n", "d.txt:5: card r9s0 has no rank"),
    ("cells: many\nfoundation: AS\npiles:\n  - [2S]\n", "d.txt:1: 'cells' must be a whole number"),
])
def test_malformed_deals_are_one_line_naming_file_and_line(text, message):
    with pytest.raises(InputError) as error:
        parse_game_deal(text, "d.txt")
    assert str(error.value).startswith(message)


# --- commands -----------------------------------------------------------------------------------

def test_commands_solve_validate_and_convert(tmp_path, capsys):
    deal_file = tmp_path / "small.txt"
    deal_file.write_text(forms.write(small(), "board"))
    assert main(["solve", str(deal_file), "--solver", "native"]) == 0
    out = capsys.readouterr().out
    assert "status: solved" in out and "worm_hole_generalised, 4 cards in 3 piles, 1 cell" in out
    answer = tmp_path / "answer.txt"
    answer.write_text("3♠ cell\n2♠\n3♠\n4♥\n5♦\n")
    assert main(["validate", str(deal_file), str(answer)]) == 0
    assert "valid: 5 moves" in capsys.readouterr().out
    answer.write_text("3♠\n")
    assert main(["validate", str(deal_file), str(answer)]) == 1
    assert main(["convert", str(deal_file), "--to", "yaml"]) == 0
    assert "cells: 1" in capsys.readouterr().out
    lost = tmp_path / "lost.txt"
    lost.write_text(forms.write(small().with_cells(0), "board"))
    assert main(["solve", str(lost), "--solver", "native"]) == 1
    assert main(["solve", str(lost), "--solver", "native", "--set", "max-cards=on"]) == 1
    assert "max_cards: 0" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text("Foundations: AS\nCells: one\n2S\n")
    capsys.readouterr()
    assert main(["validate", str(bad), str(answer)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{bad}:2:" in err


def test_a_black_hole_deal_is_not_worm_hole_by_name(tmp_path, capsys):
    deal_file = tmp_path / "bh.txt"
    deal_file.write_text(pysol_board(BLACK_HOLE, 3))
    assert main(["solve", str(deal_file), "--game", "worm_hole"]) == 2
    assert "bh.txt:2: expected 'Cells: N'" in capsys.readouterr().err
    assert get_game("worm-hole").name == WORM_HOLE


# --- the search ---------------------------------------------------------------------------------

def brute_force(deal: WormHoleDeal) -> int:
    """The most cards any play puts on the foundation, by trying every move of the rules (play from a
    pile, play from a cell, park) from every position: no step, rule or order of the search."""
    ranks, piles, memo = deal.ranks, deal.piles, {}

    def follows(hole: Card | None, card: Card) -> bool:
        return hole is None or deal.adjacent(hole, card)

    def most(taken: tuple[int, ...], hole: Card | None, cells: frozenset[Card]) -> int:
        key = (taken, hole, cells)
        if key not in memo:
            best, left = 0, sum(map(len, piles)) - sum(taken) + len(cells)
            for card in cells:
                if follows(hole, card):
                    best = max(best, 1 + most(taken, card, cells - {card}))
            for index, pile in enumerate(piles):
                if best == left:  # all of them: nothing plays more
                    break
                if taken[index] < len(pile):
                    card, after = pile[taken[index]], taken[:index] + (taken[index] + 1,) + taken[index + 1:]
                    if follows(hole, card):
                        best = max(best, 1 + most(after, card, cells))
                    if len(cells) < deal.cells:
                        best = max(best, most(after, hole, cells | {card}))
            memo[key] = best
        return memo[key]

    assert ranks >= 1
    return most((0,) * len(piles), deal.foundation, frozenset())


def small_deals(count: int, seed: int) -> list[WormHoleDeal]:
    chance, deals = random.Random(seed), list[WormHoleDeal]()
    while len(deals) < count:
        ranks, suits = chance.randint(3, 8), chance.randint(1, 3)
        if ranks * suits <= 16:
            deals.append(worm_random_deal(ranks, suits, chance.randint(1, 4), len(deals), chance.random() < 0.2,
                                          chance.choice((0, 0, 1, 1, 2, 3))))
    return deals


def test_the_search_agrees_with_brute_force_on_small_generalised_deals():
    won = lost = 0
    for deal in small_deals(500, 11):
        most = brute_force(deal)
        total = len(deal.cards)
        decided = search(deal)
        assert decided.status is (Status.SOLVED if most == total else Status.UNSOLVABLE), deal
        if decided.moves is not None:
            assert rules.replay(deal, decided.moves).valid
        longest = search(deal, max_cards=True)
        assert longest.max_cards == most, deal
        assert longest.moves is not None and rules.replay(deal, longest.moves, complete=most == total).valid
        assert sum(not move.park for move in longest.moves) == most
        plain = search(deal, stranded=False, leaves=False, restarts=False)
        assert plain.status is decided.status
        won, lost = won + (most == total), lost + (most < total)
    assert won > 100 and lost > 40  # both verdicts tested


def test_with_no_cell_the_search_agrees_with_black_holes():
    """Black Hole's native search (compiled where built) and ours on 0-cell deals: random generalised
    ones and PySolFC's Black Hole deals, verdict for verdict and most cards for most cards."""
    chance = random.Random(3)
    deals = [random_deal(chance.randint(3, 8), chance.randint(2, 4), chance.randint(1, 4), seed,
                         chance.random() < 0.2) for seed in range(300)]
    deals += [pysol_deal(BLACK_HOLE, seed) for seed in range(1, 41)]
    for deal in deals:
        assert isinstance(deal, Deal)
        theirs, _ = engine.run(deal, None, Rules(), False, None, None)
        ours = search(WormHoleDeal(deal, 0))
        assert ours.status is theirs.status, deal
        if deal.game == GENERALISED and len(deal.cards) <= 24:
            theirs_most, _ = engine.run(deal, None, Rules(), True, None, None)
            assert search(WormHoleDeal(deal, 0), max_cards=True).max_cards == theirs_most.max_cards, deal


def test_limits_end_a_search_without_a_verdict():
    deal = numbered_deal(WORM_HOLE, 105).with_cells(0)  # lost at once; with 2 cells a long search
    assert search(deal.with_cells(3), node_limit=5).status is Status.UNKNOWN
    assert search(deal.with_cells(3), max_cards=True, node_limit=5).status is Status.UNKNOWN
    assert search(deal.with_cells(3), cpu_seconds=0.0, node_limit=100_000).status in (Status.TIMEOUT, Status.SOLVED)


def test_pysolfc_deals_with_one_cell_and_the_survey_hook():
    """PySolFC 1-60 with one cell: each decided, each win replayed; deal 105 is lost (a brute force
    agrees) while Black Hole's 105 is lost too."""
    for seed in range(1, 61):
        deal = numbered_deal(WORM_HOLE, seed)
        outcome = search(deal)
        assert outcome.status is Status.SOLVED and outcome.moves is not None
        assert rules.replay(deal, outcome.moves).valid
    lost = numbered_deal(WORM_HOLE, 105)
    assert survey_search(lost, 10.0, None, False)[0] is Status.UNSOLVABLE
    assert brute_force(lost) == survey_search(lost, 10.0, None, True)[1] == 4


def test_a_hunt_shrinks_and_poses_worm_hole_deals():
    import random as chance

    from patience.worm_hole.hunt import posed

    game = get_game(WORM_HOLE)
    deal = worm_random_deal(5, 2, 2, 3, cells=2)
    smaller = list(game.smaller(deal, False))
    assert smaller[0] == deal.with_cells(1) and all(len(other.cards) <= len(deal.cards) for other in smaller)
    assert all(other.cells == 2 and other.piles != deal.piles and sorted(other.cards) == sorted(deal.cards)
               for other in game.smaller(deal, True))
    fixed = posed(WORM_HOLE, 0, 7, chance.Random(1), True)
    assert fixed.game == WORM_HOLE and game.sizes(fixed).cards == 51
    assert posed(WORM_HOLE_GENERALISED, 3, 7, chance.Random(1), False).cells in (0, 1, 2)


def test_stored_move_names_read_back_one_word_a_line():
    """A store keeps move names space-separated and reads them one word a line: `9H cell` survives."""
    from patience.campaign.record import stored_moves

    deal = small()
    names = " ".join(rules.move_names(deal, moves("3S cell 2S 3S 4H 5D")))
    expected = (Move.play(Card(0, 0)), *moves("3S cell 2S 3S 4H 5D"))
    assert stored_moves(get_game(WORM_HOLE), deal, names, "stored") == expected


def test_compare_runs_native_on_numbered_worm_hole_deals(tmp_path, capsys):
    assert main(["compare", "--deals", "worm_hole:1-3,105", "--solvers", "native", "--db", str(tmp_path / "c.db")]) == 0
    assert "4 of 4 runs stored (4 new), 0 contradicting verdicts" in capsys.readouterr().out
    import sqlite3

    with sqlite3.connect(tmp_path / "c.db") as store:
        statuses = sorted(status for (status,) in store.execute("select status from runs"))
    assert statuses == ["solved", "solved", "solved", "unsolvable"]


def test_the_native_runner_options_that_apply(tmp_path, capsys):
    deal_file = tmp_path / "wh.txt"
    deal_file.write_text(forms.write(numbered_deal(WORM_HOLE, 2), "board"))
    for setting in ("reach=off", "symmetry=off", "cache=off", "restarts=off"):
        assert main(["solve", str(deal_file), "--set", setting]) == 0, setting
    assert main(["solve", str(deal_file), "--set", "nodes=3"]) == 3
    assert "node limit reached" in capsys.readouterr().out
    for engine_name in ("c", "python"):
        assert main(["solve", str(deal_file), "--set", f"engine={engine_name}", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["stats"]["engine"] == engine_name


# --- the compiled search ------------------------------------------------------------------------

def engines_agree(deal: WormHoleDeal, **options: Any) -> Status:
    """The C and the Python engines' outcomes on `deal` under `options`: equal step for step (verdict,
    play, nodes, most cards, positions remembered); every play replays."""
    python, c = search(deal, engine="python", **options), search(deal, engine="c", **options)
    assert (python.engine, c.engine) == ("python", "c")
    assert (c.status, c.moves, c.nodes, c.max_cards, c.cached, c.cpu_limited) == (
        python.status, python.moves, python.nodes, python.max_cards, python.cached, python.cpu_limited), (deal, options)
    if c.moves is not None:
        assert rules.replay(deal, c.moves, complete=c.status is Status.SOLVED).valid
        assert sum(not move.park for move in c.moves) == c.max_cards
    return c.status


ENGINE_OPTIONS = ({}, {"max_cards": True}, {"stranded": False, "leaves": False, "restarts": False},
                  {"memo": False, "node_limit": 2000}, {"max_cards": True, "leaves": False})


def test_the_engines_agree_step_for_step_on_small_and_pysolfc_deals():
    """60 small generalised deals of 0-3 cells (with and without a start card), each rule switched off,
    and PySolFC's 1-20, 105 (lost) and 21242 (which runs restart rounds until its node limit)."""
    pytest.importorskip("patience.worm_hole._worm_hole")
    statuses = {engines_agree(deal, **options) for deal in small_deals(60, 21) for options in ENGINE_OPTIONS}
    assert statuses == {Status.SOLVED, Status.UNSOLVABLE}
    for deal in small_deals(20, 22):  # many cells: the compiled position holds them as a bit a card
        assert engines_agree(deal.with_cells(6), max_cards=True) in (Status.SOLVED, Status.UNSOLVABLE)
    for seed in range(1, 21):
        assert engines_agree(numbered_deal(WORM_HOLE, seed)) is Status.SOLVED
    assert engines_agree(numbered_deal(WORM_HOLE, 105), max_cards=True) is Status.UNSOLVABLE
    assert engines_agree(numbered_deal(WORM_HOLE, 21242), node_limit=8_000) is Status.UNKNOWN


@pytest.mark.slow
def test_the_engines_agree_on_thousands_of_small_and_pysolfc_deals():
    """The larger sample: 2,000 small generalised deals under every option set, 300 larger ones of up to
    4 cells, and PySolFC's deals 1-3,000 with one cell (the C engine's verdict on each equal to the
    Python one's, node for node)."""
    pytest.importorskip("patience.worm_hole._worm_hole")
    for deal in small_deals(2000, 5):
        for options in ENGINE_OPTIONS:
            engines_agree(deal, **options)
    chance = random.Random(9)
    for seed in range(300):
        deal = worm_random_deal(chance.randint(5, 13), chance.randint(2, 4), chance.randint(2, 4), seed,
                                chance.random() < 0.3, chance.randint(0, 4))
        engines_agree(deal, node_limit=20_000)
        engines_agree(deal, max_cards=True, node_limit=20_000)
        engines_agree(deal.with_cells(chance.randint(5, 9)), node_limit=20_000)
    won = sum(engines_agree(numbered_deal(WORM_HOLE, seed), node_limit=100_000) is Status.SOLVED
              for seed in range(1, 3001))
    assert 2990 <= won < 3000  # 105 and a few others are lost


def test_the_compiled_search_stops_at_its_clocks():
    """Deal 21242 meets no verdict in millions of nodes: each clock ends the compiled search undecided."""
    pytest.importorskip("patience.worm_hole._worm_hole")
    deal = numbered_deal(WORM_HOLE, 21242)
    for options, cpu_limited in (({"seconds": 0.05}, False), ({"cpu_seconds": 0.05}, True),
                                 ({"cpu_seconds": 0.05, "max_cards": True}, True)):
        outcome = search(deal, engine="c", **options)
        assert (outcome.status, outcome.cpu_limited, outcome.moves) == (Status.TIMEOUT, cpu_limited, None), options
        assert outcome.nodes % 4096 == 0 and outcome.max_cards < 51  # the clocks are read every 4,096 nodes


def test_the_compiled_search_is_chosen_where_built_and_its_absence_is_clear(monkeypatch, tmp_path, capsys):
    from patience.worm_hole import search as module

    deal = small()
    if module.compiled() is not None:
        assert search(deal).engine == "c"
    monkeypatch.setattr(module, "compiled", lambda: None)  # as where it is not built (or built from another source)
    outcome = search(deal)
    assert outcome.engine == "python" and outcome.status is Status.SOLVED
    with pytest.raises(ValueError, match="compiled Worm Hole search is not built"):
        search(deal, engine="c")
    deal_file = tmp_path / "small.yaml"
    deal_file.write_text(forms.write(deal, "yaml"))
    assert main(["solve", str(deal_file), "--set", "engine=c"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "engine=c: the compiled Worm Hole search is not built" in err
    assert main(["solve", str(deal_file)]) == 0  # the Python search, by default
